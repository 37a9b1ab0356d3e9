; z3 4.8.5 (PyPI z3-solver 4.8.5.0): signal 11 under sat.unit_walk on a one-line NIA instance.
; z3 5.4.1 and cvc5 1.0.3 answer sat without the option (z3 4.8.10 and later no longer have it).
(set-option :sat.unit_walk true)
(set-logic NIA)
(declare-fun x () Int)
(declare-fun y () Int)
(assert (>= (* x y) 1))
(check-sat)
