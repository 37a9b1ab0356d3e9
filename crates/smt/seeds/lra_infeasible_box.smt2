; crosscheck seed: lra_infeasible_box (QF_LRA), written for this project.
(set-info :status unsat)
(set-logic QF_LRA)
(declare-fun x () Real) (declare-fun y () Real)
(assert (and (> x 1.0) (< y 1.0)))
(assert (>= (- y x) 0.0))
(check-sat)
