; crosscheck seed: auf_store_select (QF_AUFLIA), written for this project.
(set-info :status sat)
(set-logic QF_AUFLIA)
(declare-fun a () (Array Int Int)) (declare-fun i () Int) (declare-fun j () Int) (declare-fun v () Int)
(assert (= (select (store a i v) j) (+ v 1)))
(assert (or (= i j) (> (select a j) 10)))
(assert (> v 3))
(check-sat)
