; crosscheck seed: bv_pow2 (QF_BV), written for this project.
(set-info :status sat)
(set-logic QF_BV)
(declare-fun x () (_ BitVec 16))
(assert (= (bvand x (bvsub x #x0001)) #x0000))
(assert (bvugt x #x0100))
(assert (not (= ((_ extract 15 12) x) #x0)))
(check-sat)
