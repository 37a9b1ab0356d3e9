; Z3 μZ (5.4.1 from PyPI and 4.8.12 from Debian) answers r_z with (10); the answer is empty: the
; rule needs r_y(A, C) and not r_y(A, C). The same rule without r_v(A, B), or with r_v's
; variable not shared with r_y, answers empty as it should. The smallest form of the finding
; "dlsmith: z3 answers zpjg with 1 row missing after an equivalence" (crates/datalog/ENGINE-BUGS.md).
(set-option :fp.engine datalog)
(define-sort N () (_ BitVec 8))
(declare-rel r_y (N N))
(declare-rel r_v (N N))
(declare-rel r_z (N))
(declare-var v_A N)
(declare-var v_B N)
(declare-var v_C N)
(rule (r_y (_ bv10 8) (_ bv0 8)))
(rule (r_v (_ bv10 8) (_ bv8 8)))
(rule (=> (and (r_v v_A v_B) (r_y v_A v_C) (not (r_y v_A v_C))) (r_z v_A)))
(query r_z :print-answer true)
