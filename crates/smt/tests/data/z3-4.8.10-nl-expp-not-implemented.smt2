; z3 4.8.10-4.8.12: exit 107, ASSERTION VIOLATION src/math/lp/nla_core.cpp:1418 (1420 in 4.8.11/12)
; NOT IMPLEMENTED YET, under smt.arith.nl.expp true. From out-old4810-storm/findings/00005 (and 6 more).
; Without the option: sat. (This instance needs the push; 00002/00003/00007/00008 crash without one.)
(set-option :smt.arith.nl.expp true)
(declare-fun x () Int)
(declare-fun y () Int)
(push 1)
(assert (>= (* x y) 3))
(check-sat)
