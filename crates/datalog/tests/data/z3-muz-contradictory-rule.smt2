; Z3 μZ (5.4.0 from PyPI and 4.8.12 from Debian) answers r_quoi with (8, 5, 8); the answer is empty:
; r_cirt holds only (8, 5) (its second rule needs jltc(A,B) and not jltc(A,B)), so r_cirt(A, A) never holds.
; Found by crosscheck (dlsmith EQU, sequence with EQU-ADDRELEDGES), reduced by hand with a rule-dropping ddmin.
(set-option :fp.engine datalog)
(define-sort N () (_ BitVec 16))
(declare-rel r_cirt (N N))
(declare-rel r_wuca (N N N))
(declare-rel r_jltc (N N))
(declare-rel r_vuka (N))
(declare-rel r_quoi (N N N))
(declare-var v_A N)
(declare-var v_B N)
(declare-var v_C N)
(declare-var v_D N)
(declare-var v_E N)
(rule (r_cirt (_ bv8 16) (_ bv5 16)))
(rule (r_jltc (_ bv8 16) (_ bv8 16)))
(rule (r_vuka (_ bv5 16)))
(rule (=> (and (r_cirt v_C v_E) (r_vuka v_D) (r_cirt v_A v_A)) (r_quoi v_C v_D v_C)))
(rule (=> (and (r_jltc v_A v_B) (not (r_jltc v_A v_B))) (r_cirt v_A v_B)))
(query r_quoi :print-answer true)

