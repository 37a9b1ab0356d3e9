; crosscheck seed: uf_dom_simplify (QF_UF), written for this project.
(set-info :status sat)
(set-logic QF_UF)
(declare-fun A () Bool)
(declare-fun B () Bool)
(assert (not B))
(assert (not (and (not A) B)))
(assert A)
(check-sat)
