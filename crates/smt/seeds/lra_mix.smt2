; crosscheck seed: lra_mix (QF_LRA), written for this project.
(set-info :status sat)
(set-logic QF_LRA)
(declare-fun x () Real) (declare-fun y () Real) (declare-fun t () Real)
(assert (and (>= t 0.0) (<= t 1.0)))
(assert (= x (+ (* t 3.0) (* (- 1.0 t) 7.0))))
(assert (or (< y (/ 1.0 3.0)) (> y x)))
(assert (not (= x 5.5)))
(check-sat)
