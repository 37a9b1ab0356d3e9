; crosscheck seed: fp_neg_zero (QF_FP), written for this project.
(set-info :status unsat)
(set-logic QF_FP)
(declare-fun z () (_ FloatingPoint 8 24))
(assert (fp.isZero z))
(assert (fp.isNegative z))
(assert (not (fp.eq z (_ +zero 8 24))))
(check-sat)
