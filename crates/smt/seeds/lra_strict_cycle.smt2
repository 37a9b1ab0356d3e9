; crosscheck seed: lra_strict_cycle (QF_LRA), written for this project.
(set-info :status unsat)
(set-logic QF_LRA)
(declare-fun a () Real) (declare-fun b () Real) (declare-fun c () Real)
(assert (< a b))
(assert (< b c))
(assert (or (< c a) (= c a)))
(check-sat)
