; crosscheck seed: auf_counter (QF_AUFLIA), written for this project.
(set-info :status sat)
(set-logic QF_AUFLIA)
(declare-fun m () (Array Int Int)) (declare-fun k () Int) (declare-fun g (Int) Int)
(assert (and (>= k 0) (< k 4)))
(assert (= (select m k) (g k)))
(assert (distinct (g 0) (g 1) (g 2) (g 3)))
(assert (> (select (store m (+ k 1) 9) k) 2))
(check-sat)
