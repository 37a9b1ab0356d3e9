; crosscheck seed: bv_overflow (QF_BV), written for this project.
(set-info :status sat)
(set-logic QF_BV)
(declare-fun a () (_ BitVec 8)) (declare-fun b () (_ BitVec 8))
(assert (bvslt a #x00))
(assert (bvslt b #x00))
(assert (bvsge (bvadd a b) #x00))
(check-sat)
