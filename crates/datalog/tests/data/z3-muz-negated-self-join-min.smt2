; Z3 μZ (5.4.1 from PyPI and 4.8.12 from Debian) answers r with (6); the answer is empty: the
; only substitution (b, c, a, d) = (0, 1, 6, 0) needs not w(0, 1, 6), a fact. With the negated
; atom over w2, a copy of w, μZ answers empty. No atom is negated beside itself here: the join
; on x2 makes the negated tuple one the rule read positively. The smallest form of the finding
; "dlsmith: z3 answers bgab with 1 row missing, 1 row extra after a contraction", found with
; the contradictory-rule form refused (crates/datalog/ENGINE-BUGS.md).
(set-option :fp.engine datalog)
(define-sort S () (_ BitVec 8))
(declare-rel w (S S S))
(declare-rel x2 (S S))
(declare-rel r (S))
(declare-var a S)
(declare-var b S)
(declare-var c S)
(declare-var d S)
(rule (w #x00 #x01 #x06))
(rule (x2 #x00 #x00))
(rule (=> (and (w b c a) (x2 b d) (not (w d c a))) (r a)))
(query r :print-answer true)
