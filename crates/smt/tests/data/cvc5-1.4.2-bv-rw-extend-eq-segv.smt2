; cvc5 1.4.2 (PyPI cvc5, Python API): signal 11 with the expert option bv-rw-extend-eq set
; (setOption("bv-rw-extend-eq", "true")); cvc5 1.0.3 (Debian CLI, --bv-rw-extend-eq), z3 5.4.1 and
; Yices 2.6.5 answer sat. cvc5 1.4.2 refuses the option in its safe and stable modes.
(set-option :bv-rw-extend-eq true)
(set-logic QF_BV)
(declare-const x (_ BitVec 8))
(assert (= (bvadd x #x01) #x00))
(check-sat)
