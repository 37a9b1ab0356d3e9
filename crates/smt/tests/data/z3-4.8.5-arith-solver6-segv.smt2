; z3 4.8.5: SIGSEGV under smt.arith.solver 6 (the then non-default lra solver); no output.
; From out-old485-storm/findings/00002-smt-storm, cut by hand. Without the option: sat.
(set-option :smt.arith.solver 6)
(declare-fun x () Real)
(declare-fun f (Real) Real)
(assert (or (<= x 0.0) (> (f x) 0.0)))
(check-sat)
