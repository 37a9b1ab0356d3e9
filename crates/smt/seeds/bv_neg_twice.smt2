; crosscheck seed: bv_neg_twice (QF_BV), written for this project.
(set-info :status unsat)
(set-logic QF_BV)
(declare-fun x () (_ BitVec 32))
(assert (not (= (bvneg (bvneg x)) x)))
(check-sat)
