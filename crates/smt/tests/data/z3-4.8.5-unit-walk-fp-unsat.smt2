; z3 4.8.5: "verifying solution" then unsat under sat.unit_walk for a satisfiable QF_FP instance.
; From out-old485-storm/findings/00007-smt-storm, cut by hand. Without the option: sat.
(set-option :sat.unit_walk true)
(declare-fun r () RoundingMode)
(declare-fun x () Float16)
(declare-fun y () Float16)
(assert (not (= (fp.roundToIntegral RNA x) (fp.sub RNA ((_ to_fp 5 11) r 8.97) (_ +oo 5 11)))))
(assert (fp.isNegative y))
(check-sat)
