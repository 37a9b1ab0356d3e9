; crosscheck seed: str_len_neg (QF_S), written for this project.
(set-info :status unsat)
(set-logic QF_S)
(declare-fun s () String) (declare-fun t () String)
(assert (= (str.len (str.++ s t)) (- (str.len s) 1)))
(check-sat)
