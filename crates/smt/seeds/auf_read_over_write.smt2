; crosscheck seed: auf_read_over_write (QF_AUFLIA), written for this project.
(set-info :status unsat)
(set-logic QF_AUFLIA)
(declare-fun a () (Array Int Int)) (declare-fun i () Int) (declare-fun v () Int)
(assert (not (= (select (store a i v) i) v)))
(check-sat)
