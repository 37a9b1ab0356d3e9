; z3 5.4.1 (PyPI z3-solver 5.4.1.0): exit 107, "ASSERTION VIOLATION ... sls_seq_plugin.cpp
; Line: 378 NOT IMPLEMENTED YET! ... Please file an issue", under smt.sls.enable on str.is_digit.
; Without the option z3 5.4.1 and cvc5 1.0.3 answer sat.
(set-option :smt.sls.enable true)
(declare-fun v1 () String)
(assert (str.is_digit v1))
(check-sat)
