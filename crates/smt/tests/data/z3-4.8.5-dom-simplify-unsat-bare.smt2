; z3 4.8.5: unsat under bare dom-simplify for a satisfiable instance (p = true, q = false).
; From out-old485-storm/findings/00004-smt-storm, cut by hand. With (check-sat): sat.
(declare-fun p () Bool)
(declare-fun q () Bool)
(assert p)
(assert (not q))
(assert (not (and (not q) false)))
(assert (not (and false (not q))))
(assert (and p (not q)))
(check-sat-using dom-simplify)
