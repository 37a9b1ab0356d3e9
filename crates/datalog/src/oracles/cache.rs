//! Answers to original programs, per engine label and program text: queryFuzz runs ten
//! transformations of each program, and `config` ten options, and the original's answer does
//! not change in between. What a run gave is kept whatever it was (rows, a timeout, a
//! refusal): an original that keeps μZ past the timeout once would keep it there for each of
//! its ten transformations, 100 s on one program.

use super::{run, Ran};
use crate::ast::Program;
use crate::dialects::print;
use crosscheck_core::{Check, CheckOptions, Engine, Rows};
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The skip reason of a check whose original program timed out: its transformations are not
/// run (the summary counts them under this reason).
pub const ORIGINAL_TIMED_OUT: &str = "original timed out, transformations not run";

/// What an original gave, as much of it as a later check needs.
#[derive(Clone)]
enum Known {
    /// The rows, and how long the engine took for them.
    Rows(Rows, Duration),
    Refused(String),
    Skip(String),
}

thread_local! {
    static ORIGINALS: RefCell<HashMap<(String, String), Known>> = Default::default();
}

/// [`run`] without an option, answered from the cache when the same engine ran the same text.
/// A crash is not kept: it is a finding each time.
pub(crate) fn run_cached(e: &mut Box<dyn Engine>, p: &Program, out: &str, opts: &CheckOptions) -> Ran {
    run_cached_timed(e, p, out, opts).0
}

/// [`run_cached`], and how long the engine took for the rows (zero for anything else).
pub(crate) fn run_cached_timed(
    e: &mut Box<dyn Engine>,
    p: &Program,
    out: &str,
    opts: &CheckOptions,
) -> (Ran, Duration) {
    let Ok(text) = print(&e.info().dialect, p, out, None) else { return (run(e, p, out, None, opts), Duration::ZERO) };
    let key = (e.info().label.clone(), text);
    if let Some(k) = ORIGINALS.with(|c| c.borrow().get(&key).cloned()) {
        return ran(k);
    }
    let start = Instant::now();
    let known = match run(e, p, out, None, opts) {
        Ran::Rows(r) => Known::Rows(r, start.elapsed()),
        Ran::Refused(m) => Known::Refused(m),
        Ran::Stop(Check::Skip(m)) if m == super::TIMED_OUT => Known::Skip(ORIGINAL_TIMED_OUT.into()),
        Ran::Stop(Check::Skip(m)) => Known::Skip(m),
        other @ Ran::Stop(_) => return (other, Duration::ZERO),
    };
    ORIGINALS.with(|c| {
        let mut c = c.borrow_mut();
        // A worker moves on from a program for good: a small cache is all it needs.
        if c.len() > 64 {
            c.clear();
        }
        c.insert(key, known.clone());
    });
    ran(known)
}

fn ran(k: Known) -> (Ran, Duration) {
    match k {
        Known::Rows(r, took) => (Ran::Rows(r), took),
        Known::Refused(m) => (Ran::Refused(m), Duration::ZERO),
        Known::Skip(m) => (Ran::Stop(Check::Skip(m)), Duration::ZERO),
    }
}

/// The limit of a transformed program whose original took `took`: `limit`, or less when the
/// original was quick. A transformation that keeps μZ fifty times longer than its original
/// answers nothing about containment, and μZ campaigns lost half their time to such programs
/// run into the full timeout (9 of 16,809 on z3 5.4.1 in 180 s: 90 s).
pub(crate) fn transformed_limit(took: Duration, limit: Duration) -> Duration {
    limit.min(TRANSFORMED_FLOOR.max(took.saturating_mul(TRANSFORMED_FACTOR)))
}

/// The least time a transformed program gets, and its multiple of the original's time.
const TRANSFORMED_FLOOR: Duration = Duration::from_secs(1);
const TRANSFORMED_FACTOR: u32 = 50;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transformed_program_gets_fifty_times_its_original_within_the_limit() {
        let limit = Duration::from_secs(10);
        assert_eq!(transformed_limit(Duration::from_millis(3), limit), Duration::from_secs(1));
        assert_eq!(transformed_limit(Duration::from_millis(100), limit), Duration::from_secs(5));
        assert_eq!(transformed_limit(Duration::from_secs(2), limit), limit);
        // Within a shorter run timeout, that timeout.
        assert_eq!(transformed_limit(Duration::from_millis(3), Duration::from_millis(1)), Duration::from_millis(1));
    }
}
