; crosscheck seed: lia_diophantine (QF_LIA), written for this project.
(set-info :status unsat)
(set-logic QF_LIA)
(declare-fun x () Int) (declare-fun y () Int)
(assert (= (+ (* 2 x) (* 4 y)) 7))
(assert (or (> x 0) (< y 10)))
(check-sat)
