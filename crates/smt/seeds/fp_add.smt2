; crosscheck seed: fp_add (QF_FP), written for this project.
(set-info :status sat)
(set-logic QF_FP)
(declare-fun x () (_ FloatingPoint 8 24)) (declare-fun y () (_ FloatingPoint 8 24))
(assert (fp.lt x y))
(assert (fp.eq (fp.add RNE x y) ((_ to_fp 8 24) RNE 1.0)))
(assert (not (fp.isZero x)))
(check-sat)
