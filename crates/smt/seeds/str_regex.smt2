; crosscheck seed: str_regex (QF_SLIA), written for this project.
(set-info :status sat)
(set-logic QF_SLIA)
(declare-fun s () String)
(assert (str.in_re s (re.++ (str.to_re "id") (re.+ (re.range "0" "9")))))
(assert (<= (str.len s) 5))
(assert (not (= s "id00")))
(assert (str.contains s "7"))
(check-sat)
