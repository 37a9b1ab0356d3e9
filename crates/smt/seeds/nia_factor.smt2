; crosscheck seed: nia_factor (QF_NIA), written for this project.
(set-info :status sat)
(set-logic QF_NIA)
(declare-fun x () Int) (declare-fun y () Int)
(assert (= (* x y) 91))
(assert (and (> x 1) (> y 1)))
(assert (< x y))
(check-sat)
