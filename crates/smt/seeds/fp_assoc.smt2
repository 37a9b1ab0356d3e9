; crosscheck seed: fp_assoc (QF_FP), written for this project.
(set-info :status sat)
(set-logic QF_FP)
(declare-fun a () (_ FloatingPoint 5 11)) (declare-fun b () (_ FloatingPoint 5 11)) (declare-fun c () (_ FloatingPoint 5 11))
(assert (not (fp.isNaN a))) (assert (not (fp.isNaN b))) (assert (not (fp.isNaN c)))
(assert (not (fp.eq (fp.add RNE (fp.add RNE a b) c) (fp.add RNE a (fp.add RNE b c)))))
(check-sat)
