; crosscheck seed: fp_nan (QF_FP), written for this project.
(set-info :status unsat)
(set-logic QF_FP)
(declare-fun x () (_ FloatingPoint 5 11))
(assert (fp.isNaN x))
(assert (fp.eq x x))
(check-sat)
