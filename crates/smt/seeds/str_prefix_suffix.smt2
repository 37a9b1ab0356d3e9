; crosscheck seed: str_prefix_suffix (QF_S), written for this project.
(set-info :status sat)
(set-logic QF_S)
(declare-fun s () String)
(assert (str.prefixof "ab" s))
(assert (str.suffixof "ba" s))
(assert (not (= s "aba")))
(assert (not (str.in_re s (re.* (str.to_re "ab")))))
(check-sat)
