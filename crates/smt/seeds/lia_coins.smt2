; crosscheck seed: lia_coins (QF_LIA), written for this project.
(set-info :status sat)
(set-logic QF_LIA)
(declare-fun a () Int) (declare-fun b () Int) (declare-fun c () Int)
(assert (and (>= a 0) (>= b 0) (>= c 0)))
(assert (= (+ (* 5 a) (* 10 b) (* 25 c)) 85))
(assert (<= (+ a b c) 5))
(assert (not (= b 0)))
(check-sat)
