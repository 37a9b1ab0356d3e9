; z3 4.8.5: SIGSEGV under sat.local_search with logic QF_NIA (triage-18-model, old485-model 00008)
; 4.8.5 prints "verifying solution" and dies with signal 11 (3 of 3 runs).
; Without the option, or with QF_LIA / QF_NRA / QF_BV / no logic, 4.8.5 answers sat;
; 4.8.10, 4.8.11, 4.8.12, 5.4.1 answer sat with the option; cvc5 1.0.3 answers sat.
(set-option :sat.local_search true)
(set-logic QF_NIA)
(declare-fun b () Bool)
(assert b)
(check-sat)
