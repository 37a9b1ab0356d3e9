; crosscheck seed: lia_let_chain (QF_LIA), written for this project.
(set-info :status sat)
(set-logic QF_LIA)
(declare-fun x () Int) (declare-fun y () Int)
(assert (let ((d (- x y))) (let ((e (* 3 d))) (and (> e 4) (< e 10)))))
(assert (=> (> x 5) (< y 0)))
(assert (distinct x y 7))
(check-sat)
