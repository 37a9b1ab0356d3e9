; z3 4.8.5: unsat under (then dom-simplify smt) for a satisfiable instance (a = c = false).
; From out-old485-storm/findings/00003-smt-storm, cut by hand. With (check-sat): sat.
(declare-fun a () Bool)
(declare-fun c () Bool)
(assert (not c))
(assert (not (and a c)))
(assert (not (and (and a c) c)))
(assert (not (and (not (and (and a c) c)) false)))
(check-sat-using (then dom-simplify smt))
