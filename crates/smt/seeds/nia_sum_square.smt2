; crosscheck seed: nia_sum_square (QF_NIA), written for this project.
(set-info :status unsat)
(set-logic QF_NIA)
(declare-fun x () Int) (declare-fun y () Int)
(assert (< (+ (* x x) (* y y)) 0))
(check-sat)
