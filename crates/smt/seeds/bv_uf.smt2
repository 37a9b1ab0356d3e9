; crosscheck seed: bv_uf (QF_UFBV), written for this project.
(set-info :status unsat)
(set-logic QF_UFBV)
(declare-fun f ((_ BitVec 4)) (_ BitVec 4)) (declare-fun a () (_ BitVec 4)) (declare-fun b () (_ BitVec 4))
(assert (= (f a) (bvadd a #x1)))
(assert (= (f b) (bvadd b #x1)))
(assert (not (= (f (f a)) (f b))))
(assert (= (bvadd a #x1) b))
(check-sat)
