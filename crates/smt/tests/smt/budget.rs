//! Adaptive skipping of seeds whose instances keep timing out, on the real z3 (its own test
//! binary: the tallies are per process).

use crosscheck_core::{Check, CheckOptions, Kind};
use crosscheck_smt::case::SmtCase;
use crosscheck_smt::minimize::MinState;
use crosscheck_smt::storm::{Params, Step};
use crosscheck_smt::SmtKind;
use std::time::Duration;

use super::common;

/// Sum of two positive cubes equal to a cube: z3 does not answer within the test's limit.
fn hard(index: u64) -> SmtCase {
    SmtCase {
        seed: "budget-test.smt2".into(),
        logic: Some("QF_NIA".into()),
        decls: ["x", "y", "z"].iter().map(|v| format!("(declare-fun {v} () Int)")).collect(),
        steps: vec![
            Step::Assert("(and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z)))".into()),
            Step::CheckSat,
        ],
        tactic: None,
        model: String::new(),
        model_source: "none".into(),
        sat_by_construction: false,
        get_model: false,
        options: Default::default(),
        params: Params::default(),
        incremental: false,
        index,
        min: None,
        pending: None,
        derived: None,
    }
}

#[test]
fn a_seed_that_keeps_timing_out_is_skipped_with_a_reason() {
    let Some(z3) = common::open("z3") else { return };
    let mut engines = vec![z3];
    let opts = CheckOptions { timeout: Duration::from_millis(200) };
    for i in 0..3 {
        let c = SmtKind.check(crosscheck_smt::SmtOracle::Storm, &hard(i), &mut engines, &opts);
        assert_eq!(c, Check::Skip("z3: timeout".into()), "case {i} runs and times out");
    }
    match SmtKind.check(crosscheck_smt::SmtOracle::Storm, &hard(3), &mut engines, &opts) {
        Check::Skip(why) => assert!(why.contains("budget-test.smt2 skipped: 3 of its 3 solver calls"), "{why}"),
        other => panic!("not skipped: {other:?}"),
    }
    let t = crosscheck_smt::budget::tally("budget-test.smt2").expect("tally");
    assert_eq!((t.calls, t.timeouts, t.skipped), (3, 3, 1));
    // A reduction candidate of the same seed still runs.
    let mut candidate = hard(4);
    candidate.min = Some(MinState::Syntax { at: 0 });
    assert_eq!(
        SmtKind.check(crosscheck_smt::SmtOracle::Storm, &candidate, &mut engines, &opts),
        Check::Skip("z3: timeout".into())
    );
}
