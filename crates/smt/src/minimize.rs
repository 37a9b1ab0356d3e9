//! STORM's instance minimization (seed 001, Sect. 2.3.2, Algorithm 2), as its public
//! `minimizer.py` runs it, driven by crosscheck's reducer:
//!
//! 1. `minimizeDepth(0, 64)`: binary search for the smallest Dmax that still reveals the bug,
//!    re-fuzzing the current smallest buggy instance as the seed with Amax = its original
//!    number of assertions; a round that reveals the bug continues from its smallest buggy
//!    mutant with `(lo, mid)`, one that does not with `(mid, hi)`; the search ends when
//!    `lo + 1 == hi` with Dmax = hi;
//! 2. `minimizeAssertions(floor, n)`: the same over Amax at the minimal Dmax;
//! 3. `minimizeLines`: up to 10 more rounds at the final bounds, each re-fuzzing the current
//!    smallest instance and keeping a smaller buggy mutant.
//!
//! A round is FUZZ with STORM's minimizer settings (NC = NM = 1000). Its mutants are tried
//! smallest first, so the first one the solver gets wrong is the smallest of the round's
//! bug-revealing set, which is what STORM keeps (it runs all NM and picks the fewest lines).
//!
//! The core reducer only keeps candidates that are interesting *and* smaller, and restarts
//! `shrink` from each one it keeps, so the search state travels in the case
//! ([`SmtCase::min`]) and one `shrink` call lists the rounds STORM would run until its next
//! success: the failure path of the binary searches, then the lines round, then the
//! syntax-level steps of `shrink.rs`, which come after STORM's search. Every candidate keeps
//! every assertion true under M: the re-fuzzed formulas are fragments of the instance (whose
//! assertions are true under M) with values derived from that, or from the evaluator.
//!
//! Deviations, each for a reason:
//! - a buggy mutant that is not smaller than the current instance is not kept (the reducer's
//!   contract: a reduced case is never larger); STORM would recurse on it;
//! - the assertion floor is 0 (Amax can reach 1), not STORM's 4: STORM's generator draws a
//!   non-prime count in [4, Amax], ours Algorithm 1's `(RANDINT % Amax) + 1`;
//! - a lines round that finds nothing smaller ends the lines phase: STORM reseeds its RNG with
//!   the same seed for every round, so its next rounds on the same instance and bounds repeat
//!   that round exactly; here the RNG is derived from the case's seed name and index and the
//!   bounds, so the whole minimization replays;
//! - identical mutants of a round are run once.

use crate::case::SmtCase;
use crate::eval;
use crate::shrink::{self, Parsed};
use crate::storm::{self, Entry, Params};
use crate::term::TermId;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// `minimizeDepth(0, 64)`.
pub const DEPTH_RANGE: (u32, u32) = (0, 64);
/// The exclusive lower end of the assertion search (see the module comment).
pub const ASSERT_FLOOR: u32 = 0;
/// `minimizeLines`: extra rounds at the final bounds.
pub const LINE_ROUNDS: u32 = 10;
/// The minimizer's `enrichment_steps` (NC).
pub const ENRICHMENT_STEPS: usize = 1000;
/// The minimizer's `number_of_mutants` (NM) per round.
pub const MUTANTS: usize = 1000;

/// Where STORM's minimization of a case stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum MinState {
    /// The fast phase before STORM's search (`ddmin.rs`), at position `at` of its list.
    Ddmin { at: u32 },
    /// Binary search over Dmax in `(lo, hi]`, fuzzing with Amax = `amax`.
    Depth { lo: u32, hi: u32, amax: u32 },
    /// Binary search over Amax in `(lo, hi]` at Dmax = `dmax`.
    Asserts { lo: u32, hi: u32, dmax: u32 },
    /// Extra rounds at the final bounds; `round` of [`LINE_ROUNDS`] done.
    Lines { dmax: u32, amax: u32, round: u32 },
    /// STORM's search is over: the fast phase's steps again, at position `at` (stored cases
    /// from before the fast phase have no `at`: 0).
    Syntax {
        #[serde(default)]
        at: u32,
    },
}

impl MinState {
    /// The state of a case that has not been minimized yet: the fast phase.
    pub const START: MinState = MinState::Ddmin { at: 0 };

    /// Where STORM's search starts on a case.
    pub fn storm_start(case: &SmtCase) -> MinState {
        MinState::Depth {
            lo: DEPTH_RANGE.0,
            hi: DEPTH_RANGE.1,
            amax: u32::try_from(case.asserts().count()).unwrap_or(u32::MAX),
        }
    }
}

/// One FUZZ call of the search: its bounds, and the state a bug-revealing mutant continues in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    pub dmax: u32,
    pub amax: u32,
    pub next: MinState,
}

/// The rounds STORM runs from `state` while none reveals the bug, in order: the rest of the
/// binary searches (each failure raises `lo`), then one lines round.
pub fn plan(state: MinState) -> Vec<Round> {
    let mut out = Vec::new();
    let mut s = state;
    loop {
        match s {
            MinState::Depth { lo, hi, amax } => {
                if lo + 1 >= hi {
                    s = MinState::Asserts { lo: ASSERT_FLOOR, hi: amax, dmax: hi };
                    continue;
                }
                let mid = (lo + hi) / 2;
                out.push(Round { dmax: mid, amax, next: MinState::Depth { lo, hi: mid, amax } });
                s = MinState::Depth { lo: mid, hi, amax };
            }
            MinState::Asserts { lo, hi, dmax } => {
                if lo + 1 >= hi {
                    s = MinState::Lines { dmax, amax: hi, round: 0 };
                    continue;
                }
                let mid = (lo + hi) / 2;
                out.push(Round { dmax, amax: mid, next: MinState::Asserts { lo, hi: mid, dmax } });
                s = MinState::Asserts { lo: mid, hi, dmax };
            }
            MinState::Lines { dmax, amax, round } => {
                if round < LINE_ROUNDS {
                    out.push(Round { dmax, amax, next: MinState::Lines { dmax, amax, round: round + 1 } });
                }
                return out;
            }
            MinState::Ddmin { .. } | MinState::Syntax { .. } => return out,
        }
    }
}

/// The minimization's RNG seed: a pure function of the case's seed name and index (both kept
/// by every candidate), so a finding's reduction replays exactly.
pub fn case_seed(case: &SmtCase) -> u64 {
    // FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in case.seed.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    crosscheck_core::derive_seed(h, case.index)
}

/// The initial pool of a round: STORM's fragmentation of the instance (through and/or, every
/// node within `dmax` and every leaf), each fragment with its value under M. Fragments of a
/// true `and` are true; the rest are evaluated; what has no literal value is dropped.
fn initial_pool(p: &Parsed, dmax: u32, known: &HashMap<TermId, bool>) -> Vec<Entry> {
    storm::fragment(&p.arena, &p.asserts, dmax)
        .into_iter()
        .filter_map(|t| known.get(&t).copied().or_else(|| eval::truth(&p.arena, &p.env, t)).map(|v| (t, v)))
        .collect()
}

/// One round: NM mutants of `case` at the round's bounds, only those smaller than `case`,
/// without duplicates, smallest first, each carrying the round's success state.
pub fn fuzz(case: &SmtCase, p: &Parsed, known: &HashMap<TermId, bool>, r: &Round, limit: usize) -> Vec<SmtCase> {
    let init = initial_pool(p, r.dmax, known);
    if init.is_empty() {
        return Vec::new();
    }
    let params = Params {
        max_depth: r.dmax,
        max_assert: r.amax.max(1),
        enrichment_steps: ENRICHMENT_STEPS,
        mutants_per_seed: MUTANTS as u64,
        ..case.params
    };
    let mut arena = p.arena.clone();
    let mut rng = crosscheck_core::rng(case_seed(case), u64::from(r.dmax) << 32 | u64::from(r.amax));
    let constr = storm::enrich(&mut arena, &mut rng, &params, &init);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for _ in 0..MUTANTS {
        let a = storm::instance(&mut arena, &mut rng, &params, &init, &constr);
        let push_seed = rng.gen();
        // Every node prints as at least one token of `size`: a cheap bound before printing.
        let nodes: usize = a.iter().map(|&t| arena.size(t) as usize).sum();
        if nodes + a.len() + 1 >= limit {
            continue;
        }
        let texts: Vec<String> = a.iter().map(|&t| arena.to_text(t)).collect();
        if !seen.insert(texts.clone()) {
            continue;
        }
        let mut c = shrink::with_asserts(case, texts, push_seed);
        if shrink::size(&c) >= limit {
            continue;
        }
        c.params = params;
        c.min = Some(r.next);
        out.push(c);
    }
    // Stable: equal sizes keep generation order.
    out.sort_by_key(shrink::size);
    out
}

/// The STORM rounds of `shrink` from `state`: for a case that is satisfiable by construction,
/// the rounds STORM would run until its next success, in order; each is fuzzed ([`fuzz`]) only
/// when the reducer reaches it. None once the search is over (or for other cases).
pub fn storm_rounds(case: &SmtCase, state: MinState) -> Vec<Round> {
    if !case.sat_by_construction {
        return Vec::new();
    }
    plan(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Env;
    use crate::storm::Step;
    use crate::term::Arena;
    use std::time::{Duration, Instant};

    const M: &str = "(define-fun x () Int 3)\n(define-fun y () Int (- 1))";

    /// A QF_LIA instance whose assertions are all true under M = {x = 3, y = -1}.
    fn instance() -> SmtCase {
        let asserts = [
            "(and (> x 2) (or (< y 0) (= y x)))",
            "(not (= x 5))",
            "(not (and (= y x) (> x 2)))",
            "(and (not (= y x)) (and (> x 0) (not (and (< x 0) (< y 0)))))",
            "(or (= x 3) (= y 7))",
            "(and (and (< y 0) (> x 1)) (not (not (> x 2))))",
        ];
        SmtCase {
            seed: "known.smt2".into(),
            logic: Some("QF_LIA".into()),
            decls: vec!["(declare-fun x () Int)".into(), "(declare-fun y () Int)".into()],
            steps: asserts.iter().map(|a| Step::Assert(a.to_string())).chain([Step::CheckSat]).collect(),
            tactic: None,
            model: M.into(),
            model_source: "test".into(),
            sat_by_construction: true,
            get_model: false,
            options: Default::default(),
            params: Params::default(),
            incremental: false,
            index: 7,
            min: None,
            pending: None,
            derived: None,
        }
    }

    fn true_under_m(c: &SmtCase) -> bool {
        let mut arena = Arena::new();
        let mut env = Env::default();
        env.add_model(&mut arena, M).expect("model");
        c.asserts().all(|a| {
            let t = arena.parse_term(a).expect("term");
            eval::truth(&arena, &env, t) == Some(true)
        })
    }

    #[test]
    fn minimization_keeps_the_bug_and_satisfiability_and_replays() {
        // A planted bug: the "solver" is wrong whenever `(< y 0)` occurs with two assertions.
        let buggy = |c: &SmtCase| c.asserts().count() >= 2 && c.asserts().any(|a| a.contains("(< y 0)"));
        let start = instance();
        assert!(buggy(&start) && true_under_m(&start));
        let first = crate::shrink::shrink(&start);
        assert_eq!(first, crate::shrink::shrink(&start), "shrink is a pure function of the case");
        // The first candidates are the fast phase's; once STORM's search starts, its depth
        // round at Dmax = 32, smallest first.
        assert_eq!(first[0].min, Some(MinState::Ddmin { at: 0 }));
        let storm = crate::shrink::shrink(&SmtCase { min: Some(MinState::storm_start(&start)), ..start.clone() });
        assert_eq!(storm[0].min, Some(MinState::Depth { lo: 0, hi: 32, amax: 6 }));
        assert_eq!(storm[0].params.max_depth, 32);
        assert!(storm.windows(2).take(20).all(|w| crate::shrink::size(&w[0]) <= crate::shrink::size(&w[1])));
        let mut visited = Vec::new();
        let (small, stats) = crosscheck_core::reduce::reduce(
            start.clone(),
            crate::shrink::shrink,
            crate::shrink::size,
            |c| {
                let b = buggy(c);
                if b {
                    visited.push(c.min);
                }
                b
            },
            Instant::now() + Duration::from_secs(60),
        );
        assert!(!stats.timed_out);
        assert!(buggy(&small) && true_under_m(&small), "{small:?}");
        assert!(stats.size_after < stats.size_before);
        assert_eq!(small.asserts().count(), 2, "{small:?}");
        // The search went through STORM's phases in order and ended in the syntax phase.
        let phase = |s: &Option<MinState>| match s {
            Some(MinState::Ddmin { .. }) => 0,
            Some(MinState::Depth { .. }) => 1,
            Some(MinState::Asserts { .. }) => 2,
            Some(MinState::Lines { .. }) => 3,
            _ => 4,
        };
        assert!(visited.windows(2).all(|w| phase(&w[0]) <= phase(&w[1])), "{visited:?}");
        // Replays: the same start gives the same result.
        let (again, _) = crosscheck_core::reduce::reduce(
            start,
            crate::shrink::shrink,
            crate::shrink::size,
            buggy,
            Instant::now() + Duration::from_secs(60),
        );
        assert_eq!(again, small);
    }

    #[test]
    fn plan_follows_storms_failure_path() {
        // From the start with 20 assertions: depth probes 32, 48, ..., 63; then Dmax = 64 and
        // Amax probes 10, 15, 17, 18, 19; then one lines round at (64, 20).
        let rounds = plan(MinState::Depth { lo: 0, hi: 64, amax: 20 });
        let bounds: Vec<(u32, u32)> = rounds.iter().map(|r| (r.dmax, r.amax)).collect();
        assert_eq!(
            bounds,
            vec![
                (32, 20),
                (48, 20),
                (56, 20),
                (60, 20),
                (62, 20),
                (63, 20),
                (64, 10),
                (64, 15),
                (64, 17),
                (64, 18),
                (64, 19),
                (64, 20)
            ]
        );
        // A success at Dmax = 48 continues below it, with the lower end reached so far.
        assert_eq!(rounds[1].next, MinState::Depth { lo: 32, hi: 48, amax: 20 });
        assert_eq!(rounds[7].next, MinState::Asserts { lo: 10, hi: 15, dmax: 64 });
        assert_eq!(rounds[11].next, MinState::Lines { dmax: 64, amax: 20, round: 1 });
        // The lines phase ends after ten rounds; the syntax phase has no STORM round.
        assert!(plan(MinState::Lines { dmax: 3, amax: 2, round: LINE_ROUNDS }).is_empty());
        assert!(plan(MinState::Syntax { at: 0 }).is_empty());
        // Amax can reach one assertion.
        let last = plan(MinState::Asserts { lo: 0, hi: 2, dmax: 1 });
        assert_eq!(last.first().map(|r| (r.dmax, r.amax)), Some((1, 1)));
    }
}
