; crosscheck seed: fp_mul_bounds (QF_FP), written for this project.
(set-info :status sat)
(set-logic QF_FP)
(declare-fun x () (_ FloatingPoint 8 24))
(assert (fp.gt x ((_ to_fp 8 24) RNE 2.0)))
(assert (fp.lt (fp.mul RTZ x x) ((_ to_fp 8 24) RNE 5.0)))
(assert (or (fp.isNormal x) (fp.isSubnormal x)))
(check-sat)
