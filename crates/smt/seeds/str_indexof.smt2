; crosscheck seed: str_indexof (QF_SLIA), written for this project.
(set-info :status sat)
(set-logic QF_SLIA)
(declare-fun s () String) (declare-fun i () Int)
(assert (= i (str.indexof s "needle" 0)))
(assert (> i 2))
(assert (< (str.len s) 12))
(assert (= (str.at s 0) "h"))
(check-sat)
