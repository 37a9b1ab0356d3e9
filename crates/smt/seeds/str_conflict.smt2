; crosscheck seed: str_conflict (QF_S), written for this project.
(set-info :status unsat)
(set-logic QF_S)
(declare-fun s () String)
(assert (str.prefixof "abc" s))
(assert (str.prefixof "abd" s))
(check-sat)
