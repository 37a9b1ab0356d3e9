; z3 4.8.5: sat under (then dom-simplify smt), while the two assertions are E and (not E).
; With (check-sat): unsat on z3 4.8.5, z3 4.8.10, z3 5.4.1, cvc5 1.0.3, Yices 2.6.5; z3 4.8.10
; and 5.4.1 answer unsat with the tactic too.
(set-logic QF_BV)
(declare-fun v0 () (_ BitVec 16))
(declare-fun v1 () (_ BitVec 4))
(declare-fun v2 () (_ BitVec 16))
(assert (= (and (bvult #b0110101011111001 v0) (bvsge v1 v1)) (distinct (bvlshr v2 v0) v2)))
(assert (not (and (not (and (and false (and (= (and (bvult #b0110101011111001 v0) (bvsge v1 v1)) (distinct (bvlshr v2 v0) v2)) true)) (and false (and (= (and (bvult #b0110101011111001 v0) (bvsge v1 v1)) (distinct (bvlshr v2 v0) v2)) true)))) (= (and (bvult #b0110101011111001 v0) (bvsge v1 v1)) (distinct (bvlshr v2 v0) v2)))))
(check-sat-using (then dom-simplify smt))
