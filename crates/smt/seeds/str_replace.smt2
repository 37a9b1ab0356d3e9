; crosscheck seed: str_replace (QF_S), written for this project.
(set-info :status sat)
(set-logic QF_S)
(declare-fun s () String) (declare-fun t () String)
(assert (= (str.replace s "ab" "xyz") (str.++ "xyz" t)))
(assert (str.suffixof "q" s))
(assert (not (str.contains t "ab")))
(check-sat)
