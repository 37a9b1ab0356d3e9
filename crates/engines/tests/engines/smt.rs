//! The SMT solvers against the real thing: answers, errors, timeouts, respawns. Tests of the
//! SMT leg's oracles on real solvers stay in `crates/smt/tests`.

use crosscheck_core::{Engine, EngineSpec, Outcome, Verdict};
use crosscheck_engines::testing::available;
use std::time::Duration;

/// Opens `spec` if its solver is here (see `crosscheck_engines::testing`).
fn open(spec: &str) -> Option<Box<dyn Engine>> {
    let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("spec: {e}"));
    let factories = crosscheck_engines::smt::registry();
    let f = factories.iter().find(|f| f.name() == spec.name).unwrap_or_else(|| panic!("known solver"));
    if !available(*f) {
        return None;
    }
    Some(f.open(&spec).unwrap_or_else(|e| panic!("{} does not open: {e}", spec.name)))
}

#[test]
fn each_solver_answers_and_survives_errors_and_timeouts() {
    for name in ["z3", "cvc5", "cvc5-py", "yices", "bitwuzla", "cvc4"] {
        let Some(mut e) = open(name) else { continue };
        let bv = "(set-logic QF_BV)\n(declare-fun a () (_ BitVec 8))\n(assert (= (bvadd a #x01) #x00))\n(check-sat)\n";
        for _ in 0..3 {
            let o = e.run(bv, Duration::from_secs(20));
            assert!(matches!(&o, Outcome::Verdicts { answers, .. } if answers == &vec![Verdict::Sat]), "{name}: {o:?}");
        }
        let o = e.run("(set-logic QF_BV)\n(assert (= nope #x00))\n(check-sat)\n", Duration::from_secs(20));
        assert!(matches!(o, Outcome::Error { .. }), "{name}: {o:?}");
        let unsat = "(set-logic QF_BV)\n(declare-fun a () (_ BitVec 8))\n(assert (distinct a a))\n(check-sat)\n";
        let o = e.run(unsat, Duration::from_secs(20));
        assert!(
            matches!(&o, Outcome::Verdicts { answers, .. } if answers == &vec![Verdict::Unsat]),
            "{name} after an error: {o:?}"
        );
        assert!(!e.info().version.is_empty());
    }
}

#[test]
fn timeout_kills_and_respawns() {
    let Some(mut z3) = open("z3") else { return };
    let hard = "(set-logic QF_NIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(declare-fun z () Int)\n\
                (assert (and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z))))\n(check-sat)\n";
    let o = z3.run(hard, Duration::from_millis(300));
    assert!(matches!(o, Outcome::Timeout { .. }), "{o:?}");
    let o = z3.run("(declare-fun p () Bool)\n(assert p)\n(check-sat)\n", Duration::from_secs(20));
    assert!(matches!(&o, Outcome::Verdicts { answers, .. } if answers == &vec![Verdict::Sat]), "{o:?}");
}

/// z3 keeps module parameters across `(reset)`: a script's own options must not reach the
/// next script (the leg draws options per instance and records only those).
#[test]
fn options_of_one_script_do_not_reach_the_next() {
    let Some(mut e) = open("z3") else { return };
    let third = "(declare-const r Real)\n(assert (= (* 3 r) 1))\n(check-sat)\n(get-value (r))\n";
    let model = |o: Outcome| match o {
        Outcome::Verdicts { model: Some(m), .. } => m,
        other => panic!("z3: {other:?}"),
    };
    let decimal = model(e.run(&format!("(set-option :pp.decimal true)\n{third}"), Duration::from_secs(20)));
    assert!(decimal.contains("0.333"), "the option applies to its own script: {decimal}");
    let plain = model(e.run(third, Duration::from_secs(20)));
    assert!(plain.contains("(/ 1.0 3.0)") || plain.contains("(/ 1 3)"), "leaked into the next script: {plain}");
}
