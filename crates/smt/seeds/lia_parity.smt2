; crosscheck seed: lia_parity (QF_LIA), written for this project.
(set-info :status unsat)
(set-logic QF_LIA)
(declare-fun x () Int) (declare-fun y () Int)
(assert (= (* 2 x) (+ (* 2 y) 1)))
(check-sat)
