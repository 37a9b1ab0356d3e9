; crosscheck seed: str_storm_fig22 (QF_S), written for this project.
(set-info :status sat)
(set-logic QF_S)
(declare-const S String)
(assert (str.in_re S (re.++ re.allchar (re.++ (str.to_re "7;") (re.++ re.allchar (str.to_re "aa"))))))
(assert (not (str.in_re S (re.union re.allchar (str.to_re "X'jafa")))))
(check-sat)
