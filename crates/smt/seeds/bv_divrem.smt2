; crosscheck seed: bv_divrem (QF_BV), written for this project.
(set-info :status sat)
(set-logic QF_BV)
(declare-fun x () (_ BitVec 8)) (declare-fun y () (_ BitVec 8))
(assert (not (= y #x00)))
(assert (= (bvurem x y) #x03))
(assert (= (bvudiv x y) #x05))
(assert (let ((s (bvsdiv x y))) (or (bvslt s #x00) (= s #x05))))
(check-sat)
