(set-option :sat.ddfw_search true)
(declare-fun v0 () Float32)(assert (not (= v0 (_ +oo 8 24))))(check-sat)