//! The skeleton leg on a real engine: SQLite agrees with the leg's evaluation, and the oracle
//! catches a planted fault and reduces it.

use crosscheck_core::reduce::reduce;
use crosscheck_core::{Check, CheckOptions, Engine, EngineSpec, GenOptions, Kind};
use crosscheck_skeleton::{SkeletonKind, SkeletonOracle};
use std::time::{Duration, Instant};

const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(10) };

fn open(name: &str) -> Box<dyn Engine> {
    let spec = EngineSpec::parse(name).unwrap_or_else(|e| panic!("{e}"));
    crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec).unwrap_or_else(|e| panic!("{e}"))
}

/// Checks `n` generated cases; the first finding, and how many cases passed.
fn campaign(engine: &str, n: u64) -> (u64, Option<(crosscheck_skeleton::Case, crosscheck_core::Evidence)>) {
    let mut engines = vec![open(engine)];
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let kind = SkeletonKind;
    kind.validate(&[SkeletonOracle::Evaluate], &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut gen = kind.generator(&GenOptions { seed: 1, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut passed = 0;
    for i in 0..n {
        let case = gen.case(i, SkeletonOracle::Evaluate);
        assert_eq!(kind.prepare(&case, &mut engines, &OPTS), Check::Pass { nonempty: false });
        match kind.check(SkeletonOracle::Evaluate, &case, &mut engines, &OPTS) {
            Check::Pass { .. } => passed += 1,
            Check::Finding(ev) => return (passed, Some((case, *ev))),
            Check::Skip(why) => panic!("case {i} skipped: {why}"),
        }
    }
    (passed, None)
}

#[test]
fn sqlite_agrees_with_the_evaluation() {
    let (passed, found) = campaign("sqlite", 300);
    assert!(found.is_none(), "{found:?}");
    assert_eq!(passed, 300);
}

#[test]
fn a_dropped_row_is_caught_and_reduced_to_a_literal() {
    let (_, found) = campaign("mutant:sqlite:drop-row", 300);
    let (case, ev) = found.unwrap_or_else(|| panic!("drop-row not caught in 300 cases"));
    let kind = SkeletonKind;
    let mut engines = vec![open("mutant:sqlite:drop-row")];
    let (small, _) = reduce(
        case,
        |c| kind.shrink(c),
        |c| kind.size(c),
        |c| matches!(kind.check(SkeletonOracle::Evaluate, c, &mut engines, &OPTS), Check::Finding(e) if e.same_failure(&ev)),
        Instant::now() + Duration::from_secs(20),
    );
    // Every answer loses its one row, so the smallest failing case is a single literal.
    assert_eq!(small.expr.size(), 1, "{small:?}");
    let files = kind.reproducers("reduced", SkeletonOracle::Evaluate, &small, &ev, &[engines[0].info().clone()]);
    assert_eq!(files.len(), 1);
    assert!(files[0].1.contains("SELECT"), "{}", files[0].1);
}
