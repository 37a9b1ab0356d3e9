; crosscheck seed: lra_ite_bool (QF_LRA), written for this project.
(set-info :status sat)
(set-logic QF_LRA)
(declare-fun p () Bool) (declare-fun x () Real) (declare-fun y () Real)
(assert (= y (ite p (* 2.0 x) (- x 1.0))))
(assert (xor p (> x 2.0)))
(assert (> y 3.0))
(check-sat)
