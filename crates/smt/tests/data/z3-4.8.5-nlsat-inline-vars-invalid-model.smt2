; z3 4.8.5: invalid model under nlsat.inline_vars (triage-18-model, old485-model 00005)
; 4.8.5 answers sat with y = 1/8, z = 1, x = 0, which violates both assertions
; (model_validate=true reports "an invalid model was generated").
; Without the option 4.8.5 gives a valid model; 4.8.10, 4.8.11, 4.8.12, 5.4.1 give valid models
; with the option (z = root-obj of x^2 - 2); cvc5 1.0.3 answers sat.
(set-option :nlsat.inline_vars true)
(declare-fun x () Real)
(declare-fun y () Real)
(declare-fun z () Real)
(assert (or (< x 0.0) (= y 1.0)))
(assert (= (* 2.0 y) (* z z)))
(check-sat)
(get-model)
