; z3 4.8.10: exit 114, ASSERTION VIOLATION src/sat/smt/bv_solver.cpp:62 get_fixed_value(v1, val1),
; under sat.euf true with QF_BV set and a push. From out-old4810-storm/findings/00001 and 00006.
; Without the option, without the push, or without the set-logic: sat.
(set-option :sat.euf true)
(set-logic QF_BV)
(declare-fun x () (_ BitVec 1))
(push 1)
(assert (= #b1 x))
(check-sat)
