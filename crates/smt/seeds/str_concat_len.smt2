; crosscheck seed: str_concat_len (QF_SLIA), written for this project.
(set-info :status sat)
(set-logic QF_SLIA)
(declare-fun x () String) (declare-fun y () String)
(assert (= (str.++ x "ab" y) "cdabef"))
(assert (> (str.len x) 1))
(assert (or (str.prefixof "c" x) (str.contains y "zz")))
(check-sat)
