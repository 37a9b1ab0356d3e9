//! An original program that times out is run once: the checks of its other transformations
//! are skipped under one reason, which the campaign summary counts (issue 18, item 6).

use super::common::*;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Outcome, SetupError};
use crosscheck_datalog::oracles::cache::ORIGINAL_TIMED_OUT;
use crosscheck_datalog::qf::Expect;
use crosscheck_datalog::{Case, DatalogOracle, Test};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A real engine, with its runs counted.
struct Counted {
    inner: Box<dyn Engine>,
    runs: Arc<AtomicUsize>,
}

impl Engine for Counted {
    fn info(&self) -> &EngineInfo {
        self.inner.info()
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.runs.fetch_add(1, Ordering::Relaxed);
        self.inner.run(text, limit)
    }
}

#[test]
fn a_timed_out_original_runs_once_for_its_ten_transformations() {
    let Some(z3) = open("z3") else { return };
    let runs = Arc::new(AtomicUsize::new(0));
    let mut engines: Vec<Box<dyn Engine>> = vec![Box::new(Counted { inner: z3, runs: runs.clone() })];
    let program = parse(SUITE[0].1);
    // μZ needs milliseconds for any program: a 1 ms limit times every run out.
    let opts = CheckOptions { timeout: Duration::from_millis(1) };
    let mut skips = Vec::new();
    for index in 0..10 {
        let test = Test::Metamorphic {
            transformed: program.clone(),
            expect: Expect::Equal,
            steps: vec!["AddEq".into()],
            inline: vec![],
        };
        let case = Case { index, program: program.clone(), test };
        skips.push(crosscheck_datalog::oracles::check(DatalogOracle::Queryfuzz, &case, &mut engines, &opts));
    }
    assert!(skips.iter().all(|c| *c == Check::Skip(ORIGINAL_TIMED_OUT.into())), "{skips:?}");
    assert_eq!(runs.load(Ordering::Relaxed), 1, "the original ran once, no transformation ran");
    // With time to answer, the same engine runs the next program: the timeout killed its
    // z3 process, and a new one took over.
    let other = parse(SUITE[1].1);
    let mut r = open("reference").expect("reference is built in");
    let want = run(&mut r, &other, other.output()).expect("reference runs");
    assert_eq!(run(&mut engines[0], &other, other.output()).expect("z3 runs"), want);
}
