; crosscheck seed: auf_swap (QF_AUFLIA), written for this project.
(set-info :status unsat)
(set-logic QF_AUFLIA)
(declare-fun a () (Array Int Int)) (declare-fun b () (Array Int Int)) (declare-fun i () Int) (declare-fun j () Int)
(assert (= b (store (store a i (select a j)) j (select a i))))
(assert (not (= (select b i) (select a j))))
(check-sat)
