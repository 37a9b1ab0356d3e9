//! Fault injection: `mutant:cozo:drop-row` must be caught; reduction keeps the failure and
//! reproducers carry the Soufflé program and the engine's own dialect.

use super::common;
use common::*;
use crosscheck_core::reduce::reduce;
use crosscheck_core::{Check, CheckOptions, Engine, Generator, Kind};
use crosscheck_datalog::{common_caps, Case, DatalogGen, DatalogKind};
use std::time::{Duration, Instant};

type Found = (Case, crosscheck_core::Evidence, Vec<Box<dyn Engine>>);

fn first_finding(names: &[&str], oracle: &str, n: u64) -> Option<Found> {
    let oracle = <crosscheck_datalog::DatalogOracle as crosscheck_core::Oracle>::parse(oracle)
        .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
    let mut engines: Vec<Box<dyn Engine>> =
        names.iter().map(|n| open(n).unwrap_or_else(|| panic!("engine {n} opens"))).collect();
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let mut gen = DatalogGen::new(99, common_caps(&infos), vec![]);
    let opts = CheckOptions { timeout: Duration::from_secs(10) };
    for i in 0..n {
        let case = gen.case(i, oracle);
        if let Check::Finding(ev) = DatalogKind.check(oracle, &case, &mut engines, &opts) {
            return Some((case, *ev, engines));
        }
    }
    None
}

/// `case` reduced for a minute, each step keeping `oracle`'s failure `ev`.
fn reduced(
    case: Case,
    ev: &crosscheck_core::Evidence,
    engines: &mut [Box<dyn Engine>],
    oracle: crosscheck_datalog::DatalogOracle,
) -> (Case, crosscheck_core::reduce::ReduceStats) {
    let opts = CheckOptions { timeout: Duration::from_secs(10) };
    reduce(
        case,
        |c| DatalogKind.shrink(c),
        |c| DatalogKind.size(c),
        |c| {
            crosscheck_core::worker::recheck(&DatalogKind, oracle, c, engines, &opts)
                .is_some_and(|e| e.same_failure(ev))
        },
        Instant::now() + Duration::from_secs(60),
    )
}

#[test]
fn drop_row_caught_by_differential_and_reduced() {
    let (case, ev, mut engines) =
        first_finding(&["reference", "mutant:cozo:drop-row"], "differential", 100).expect("the mutant is caught");
    assert_eq!(ev.key, "differential:subset", "{ev:?}");
    let before = DatalogKind.size(&case);
    let (small, stats) = reduced(case, &ev, &mut engines, crosscheck_datalog::DatalogOracle::Differential);
    assert!(stats.size_after < before, "{stats:?}");
    // The fault drops one tuple of any non-empty output: one fact and one rule (or none)
    // are enough to show it.
    assert!(small.program.facts.len() <= 2, "{}", small.program);
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let files = DatalogKind.reproducers("repro", crosscheck_datalog::DatalogOracle::Differential, &small, &ev, &infos);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"repro.dl"), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(".cozo")), "{names:?}");
    let dl = &files.iter().find(|(n, _)| n == "repro.dl").expect("repro.dl").1;
    assert!(dl.contains("// expected:") && dl.contains(".output"), "{dl}");
    // The reproducer parses back and the reference evaluator runs it.
    crosscheck_datalog::parse::parse(dl).expect("repro.dl is valid Soufflé for our parser");
}

#[test]
fn drop_row_caught_by_dlsmith_and_config() {
    // An option, like a transformation, changes the program text, so the fault drops another
    // tuple; `order-desc` also reverses the order Cozo delivers the same set in.
    for oracle in ["dlsmith", "config"] {
        let (_, ev, _) = first_finding(&["mutant:cozo:drop-row"], oracle, 400)
            .unwrap_or_else(|| panic!("{oracle} catches the mutant"));
        assert!(ev.key.starts_with(&format!("{oracle}:")), "{ev:?}");
    }
}

#[test]
fn drop_row_caught_by_queryfuzz_and_reduced() {
    // The transformed program is another text, so the fault drops another tuple (or none, when
    // the answer is empty): a pair the transformation says are equal, or contained in each
    // other, stops being so. The finding reduces, and the reduced pair still satisfies the
    // transformation's relation on the reference evaluator.
    let (case, ev, mut engines) =
        first_finding(&["mutant:cozo:drop-row"], "queryfuzz", 400).expect("the mutant is caught");
    assert!(ev.key.starts_with("queryfuzz:"), "{ev:?}");
    let opts = CheckOptions { timeout: Duration::from_secs(10) };
    let before = DatalogKind.size(&case);
    let (small, _) = reduced(case, &ev, &mut engines, crosscheck_datalog::DatalogOracle::Queryfuzz);
    assert!(DatalogKind.size(&small) < before);
    let mut r = open("reference").expect("reference");
    assert!(matches!(
        DatalogKind.check(crosscheck_datalog::DatalogOracle::Queryfuzz, &small, std::slice::from_mut(&mut r), &opts),
        Check::Pass { .. }
    ));
}

#[test]
fn config_passes_on_correct_engines() {
    // The same options on the unmutated engines change nothing.
    for name in ["cozo", "sqlite"] {
        assert!(first_finding(&[name], "config", 200).is_none(), "{name}");
    }
}
