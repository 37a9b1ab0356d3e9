; crosscheck seed: str_len_neg (QF_SLIA), written for this project.
(set-info :status unsat)
(set-logic QF_SLIA)
(declare-fun s () String) (declare-fun t () String)
(assert (= (str.len (str.++ s t)) (- (str.len s) 1)))
(check-sat)
