; z3 4.8.5: SIGSEGV in the horn-simplify tactic on a ground arithmetic goal; no output.
; From out-old485-storm/findings/00006-smt-storm, cut by hand. With (check-sat): sat.
(assert (= 1 1))
(check-sat-using horn-simplify)
