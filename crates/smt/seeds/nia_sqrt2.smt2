; crosscheck seed: nia_sqrt2 (QF_NIA), written for this project.
(set-info :status unsat)
(set-logic QF_NIA)
(declare-fun x () Int) (declare-fun y () Int)
(assert (= (* x x) (* 2 y y)))
(assert (and (> y 0) (< y 40)))
(check-sat)
