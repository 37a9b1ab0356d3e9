; crosscheck seed: nia_pythagoras (QF_NIA), written for this project.
(set-info :status sat)
(set-logic QF_NIA)
(declare-fun a () Int) (declare-fun b () Int) (declare-fun c () Int)
(assert (and (> a 0) (> b 0) (> c 0) (< c 30)))
(assert (= (+ (* a a) (* b b)) (* c c)))
(assert (or (> a 9) (= (mod b 5) 0)))
(check-sat)
