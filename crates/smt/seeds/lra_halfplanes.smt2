; crosscheck seed: lra_halfplanes (QF_LRA), written for this project.
(set-info :status sat)
(set-logic QF_LRA)
(declare-fun x () Real) (declare-fun y () Real)
(assert (<= (+ x y) 4.0))
(assert (>= (- x y) (- 2.0)))
(assert (> (+ (* 2.0 x) y) 3.5))
(assert (or (> y 1.5) (< x 0.25)))
(check-sat)
