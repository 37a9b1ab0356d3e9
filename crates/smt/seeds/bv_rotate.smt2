; crosscheck seed: bv_rotate (QF_BV), written for this project.
(set-info :status sat)
(set-logic QF_BV)
(declare-fun x () (_ BitVec 8))
(assert (= ((_ rotate_left 3) x) ((_ rotate_right 5) x)))
(assert (not (= ((_ rotate_left 1) x) x)))
(assert (= ((_ zero_extend 8) x) (bvand ((_ zero_extend 8) x) #x00f7)))
(check-sat)
