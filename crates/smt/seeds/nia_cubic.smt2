; crosscheck seed: nia_cubic (QF_NIA), written for this project.
(set-info :status sat)
(set-logic QF_NIA)
(declare-fun x () Int)
(assert (= (- (* x x x) (* 6 x x)) (- 0 (* 11 x) (- 6))))
(assert (not (= x 1)))
(check-sat)
