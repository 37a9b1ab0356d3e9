//! Adaptive skipping of seeds whose instances keep timing out. STORM spends NM = 1000
//! instances on every seed; on a QF_NIA, string or floating-point seed whose instances mostly
//! time out, that is 1000 per-call timeouts in a row, and a timeout cannot reveal a wrong
//! answer. Once a seed has [`MIN_TIMEOUTS`] timed-out solver calls and they are at least
//! [`SHARE`] of its calls or took at least [`TIME_SHARE`] of its solver time, the rest of its
//! instances in this process are skipped: each skip says why (`Check::Skip`), and the first
//! one is announced on stderr with the counts. (Measured on the shipped FP seeds: 3 timeouts
//! in 50 calls were 60% of a seed's solver time.)
//!
//! The case stream itself is untouched (the generator stays a pure function of the index), and
//! reduction candidates (`SmtCase::min` set) and replays (a fresh process) are never skipped.

use crate::case::SmtCase;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Timed-out calls a seed needs before it can be skipped.
pub const MIN_TIMEOUTS: u32 = 3;
/// The share of timed-out calls (timeouts / calls) from which a seed is skipped.
pub const SHARE: f64 = 0.2;
/// The share of the seed's solver time spent in timed-out calls from which it is skipped.
pub const TIME_SHARE: f64 = 0.5;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub calls: u32,
    pub timeouts: u32,
    pub skipped: u32,
    /// Solver seconds, all calls and timed-out ones.
    pub secs: f64,
    pub timeout_secs: f64,
}

impl Tally {
    pub fn over_budget(&self) -> bool {
        self.timeouts >= MIN_TIMEOUTS
            && (f64::from(self.timeouts) >= SHARE * f64::from(self.calls)
                || self.timeout_secs >= TIME_SHARE * self.secs)
    }
}

static TALLIES: Mutex<BTreeMap<String, Tally>> = Mutex::new(BTreeMap::new());

/// Only campaign cases count and can be skipped; not reduction candidates.
fn applies(case: &SmtCase) -> bool {
    case.min.is_none() && !case.steps.is_empty()
}

/// Records one solver call on `case`: whether it timed out, and how long it took.
pub fn record(case: &SmtCase, timed_out: bool, secs: f64) {
    if !applies(case) {
        return;
    }
    if let Ok(mut t) = TALLIES.lock() {
        let e = t.entry(case.seed.clone()).or_default();
        e.calls += 1;
        e.timeouts += u32::from(timed_out);
        e.secs += secs;
        if timed_out {
            e.timeout_secs += secs;
        }
    }
}

/// Why `case` is skipped, when its seed is over budget.
pub fn skip_reason(case: &SmtCase) -> Option<String> {
    if !applies(case) {
        return None;
    }
    let mut t = TALLIES.lock().ok()?;
    let e = t.get_mut(&case.seed)?;
    if !e.over_budget() {
        return None;
    }
    e.skipped += 1;
    let why = format!(
        "seed {} skipped: {} of its {} solver calls timed out, {:.0}s of its {:.0}s (adaptive skipping: at least \
         {MIN_TIMEOUTS}, and {:.0}% of the calls or {:.0}% of the time)",
        case.seed,
        e.timeouts,
        e.calls,
        e.timeout_secs,
        e.secs,
        SHARE * 100.0,
        TIME_SHARE * 100.0
    );
    if e.skipped == 1 {
        crosscheck_core::notes::note(format!("{why}; its remaining instances are skipped in this worker"));
    }
    Some(why)
}

/// The tally of one seed (for tests and the benchmark).
pub fn tally(seed: &str) -> Option<Tally> {
    TALLIES.lock().ok()?.get(seed).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_budget_needs_three_timeouts_and_a_fifth_of_the_calls_or_half_the_time() {
        let t = |calls, timeouts, secs: f64, timeout_secs: f64| {
            Tally { calls, timeouts, skipped: 0, secs, timeout_secs }.over_budget()
        };
        assert!(!t(2, 2, 20.0, 20.0));
        assert!(t(3, 3, 30.0, 30.0));
        assert!(t(15, 3, 40.0, 30.0));
        // Fewer than a fifth of the calls: skipped only when they took half the time.
        assert!(!t(50, 3, 100.0, 30.0));
        assert!(t(50, 3, 50.0, 30.0));
        assert!(!t(1000, 10, 1000.0, 100.0));
    }
}
