; z3 4.8.10-4.8.12: invalid model for to_fp of a Real literal under a symbolic rounding mode
; (triage-18-model, old4810-model 00002/00003; no option needed).
; 4.8.10 answers sat with r = RTZ, x = (fp #b0 #b10001 #b1110100010) = 7.6328125, v = w = #x0.
; to_fp RTZ 7.63 = 7.62890625 < x, so the ite yields v = #x0 and (bvult #x0 #x0) is false.
; model_validate=true reports "an invalid model was generated" on 4.8.10, 4.8.11, 4.8.12;
; 4.8.5 and 5.4.1 give valid models; cvc5 1.0.3 --fp-exp answers sat.
(declare-fun r () RoundingMode)
(declare-fun x () Float16)
(declare-fun v () (_ BitVec 4))
(declare-fun w () (_ BitVec 4))
(assert (bvult w (ite (fp.geq ((_ to_fp 5 11) r 7.63) x) #xd v)))
(check-sat)
(get-model)
