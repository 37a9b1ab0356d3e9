; Z3 μZ (5.4.0 from PyPI and 4.8.12 from Debian) answers r_vnft with (1, 1, 1); the answer is empty: the only
; rule needs r_ecbv(A, A, C) and not r_ecbv(A, A, C). The smallest form of z3-muz-contradictory-rule.smt2, found
; by a 10-minute dlsmith campaign (twice) and reduced by crosscheck.
(set-option :fp.engine datalog)
(define-sort N () (_ BitVec 16))
(declare-rel r_ecbv (N N N))
(declare-rel r_vnft (N N N))
(declare-var v_A N)
(declare-var v_C N)
(rule (r_ecbv (_ bv1 16) (_ bv1 16) (_ bv6 16)))
(rule (=> (and (r_ecbv v_A v_A v_C) (not (r_ecbv v_A v_A v_C))) (r_vnft v_A v_A v_A)))
(query r_vnft :print-answer true)
