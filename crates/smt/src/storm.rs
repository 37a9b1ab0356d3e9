//! STORM (seed 001, chapter 2, Algorithm 1): seed fragmentation into an initial pool of
//! predicates with their truth values under a model M, formula generation with AND / NOT into
//! a construction pool, and instance generation: assertions each true under M (negated when
//! false), so every instance is satisfiable by construction and `unsat` is a soundness bug.

use crate::term::{Arena, TermId};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// STORM's knobs; the defaults are those of the public implementation (`parameters.py`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Dmax: bound on the nesting of and/or/not in a pool formula.
    pub max_depth: u32,
    /// Amax: an instance has 1..=Amax assertions.
    pub max_assert: u32,
    /// NC: construction-pool size (enrichment steps).
    pub enrichment_steps: usize,
    /// Instances of a seed in one visit of the schedule (`crate::schedule`): STORM's NM = 1000
    /// instances in a row met 3–6 seeds in two minutes; 25 a visit reach every theory first.
    pub mutants_per_seed: u64,
    /// RANDOP: probability of AND (else NOT).
    pub p_and: f64,
    /// RANDFORMULA: probability of drawing from the initial pool (else the construction pool).
    pub p_initial: f64,
    /// Probability that a seed's instances use push/pop (STORM: random yes/no per seed).
    pub p_incremental: f64,
    /// Probability that a seed's Z3 instances use `check-sat-using` (STORM: random yes/no).
    pub p_tactic: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            max_depth: 20,
            max_assert: 20,
            enrichment_steps: 1000,
            mutants_per_seed: 25,
            p_and: 0.5,
            p_initial: 0.3,
            p_incremental: 0.5,
            p_tactic: 0.5,
        }
    }
}

/// STORM's `check_sat_using_options`, then tactics that end in a complete procedure, with
/// weights. `horn`, `(then horn-simplify default)` and bare `dom-simplify` answer `unknown` on
/// most inputs (STORM lost 38% of its calls to them; 27% of ours in a first measurement), so
/// they keep one share each and the deciding tactics two: a call that can only say `unknown`
/// cannot reveal a soundness bug, yet those tactics are kept because they found real ones.
pub const TACTICS: &[(&str, u32)] = &[
    ("horn", 1),
    ("(then horn-simplify default)", 1),
    ("dom-simplify", 1),
    ("(then dom-simplify smt)", 2),
    ("(then simplify solve-eqs smt)", 2),
    ("(then propagate-values ctx-simplify smt)", 2),
    ("(then simplify purify-arith smt)", 2),
];

/// A tactic drawn by weight.
pub fn pick_tactic(rng: &mut impl Rng) -> &'static str {
    let total: u32 = TACTICS.iter().map(|(_, w)| w).sum();
    let mut x = rng.gen_range(0..total);
    for (t, w) in TACTICS {
        if x < *w {
            return t;
        }
        x -= w;
    }
    TACTICS[0].0
}

/// A formula with its truth value under M.
pub type Entry = (TermId, bool);

/// Phase 1 candidates: every and/or node within the depth bound and every non-and/or child
/// (a leaf predicate), reached from the assertions by descending through and/or only, once
/// each. Their valuations are computed by the caller (evaluator or reference solver).
pub fn fragment(arena: &Arena, asserts: &[TermId], max_depth: u32) -> Vec<TermId> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<TermId> = asserts.iter().rev().copied().collect();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        match arena.as_app(t) {
            Some(("and" | "or", args)) => {
                if arena.depth(t) <= max_depth {
                    out.push(t);
                }
                stack.extend(args.iter().rev());
            }
            _ => out.push(t),
        }
    }
    out
}

/// RANDFORMULA: the initial pool with probability `p_initial` (or when nothing has been
/// constructed yet), else the construction pool; uniform within the pool.
pub fn rand_formula(rng: &mut impl Rng, p: &Params, init: &[Entry], constr: &[Entry]) -> Option<Entry> {
    let pool = if constr.is_empty() || (!init.is_empty() && rng.gen_bool(p.p_initial)) { init } else { constr };
    if pool.is_empty() {
        return None;
    }
    Some(pool[rng.gen_range(0..pool.len())])
}

/// Formulas larger than this (tree nodes) are not added to the construction pool: repeated
/// AND of constructed formulas grows printed instances without bound, and a multi-megabyte
/// instance measures the printer and the pipe, not the solver. (Not in STORM, whose Z3
/// printer shares subterms with let.)
pub const MAX_FORMULA_SIZE: u32 = 4000;

/// Phase 2: builds the construction pool (NC formulas of depth ≤ Dmax).
pub fn enrich(arena: &mut Arena, rng: &mut impl Rng, p: &Params, init: &[Entry]) -> Vec<Entry> {
    let mut constr: Vec<Entry> = Vec::with_capacity(p.enrichment_steps);
    if init.is_empty() {
        return constr;
    }
    // Every step may be rejected by the depth bound; the attempt cap keeps a tiny Dmax finite.
    let mut attempts = 0usize;
    while constr.len() < p.enrichment_steps && attempts < p.enrichment_steps * 20 {
        attempts += 1;
        let Some((f1, v1)) = rand_formula(rng, p, init, &constr) else { break };
        let (f, v) = if rng.gen_bool(p.p_and) {
            let Some((f2, v2)) = rand_formula(rng, p, init, &constr) else { break };
            (arena.and2(f1, f2), v1 && v2)
        } else {
            (arena.not(f1), !v1)
        };
        if arena.depth(f) <= p.max_depth && arena.size(f) <= MAX_FORMULA_SIZE {
            constr.push((f, v));
        }
    }
    constr
}

/// Phase 3: one instance's assertions, each true under M. `ac = (RANDINT % Amax) + 1`.
pub fn instance(arena: &mut Arena, rng: &mut impl Rng, p: &Params, init: &[Entry], constr: &[Entry]) -> Vec<TermId> {
    let ac = rng.gen_range(0..p.max_assert.max(1)) + 1;
    let mut out = Vec::with_capacity(ac as usize);
    for _ in 0..ac {
        let Some((f, v)) = rand_formula(rng, p, init, constr) else { break };
        out.push(if v { f } else { arena.not(f) });
    }
    out
}

/// The differential oracle's variant: formulas asserted as drawn, true or not, so that
/// instances are sat or unsat and solvers can disagree either way.
pub fn free_instance(rng: &mut impl Rng, p: &Params, init: &[Entry], constr: &[Entry]) -> Vec<Entry> {
    let ac = rng.gen_range(0..p.max_assert.max(1)) + 1;
    (0..ac).filter_map(|_| rand_formula(rng, p, init, constr)).collect()
}

/// One step of an instance script.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Assert(String),
    Push(u32),
    Pop(u32),
    CheckSat,
}

/// STORM's incremental conversion: with k assertions, a random factor f of k gives blocks of
/// `interval = k / f` assertions, each opened by `(push interval)`; before every push after
/// the first come `(check-sat)` and `(pop r)`, r uniform in [0, interval]. Every assertion is
/// true under M, so whatever the pops leave is still satisfiable: each `check-sat` must say sat.
pub fn incremental_steps(rng: &mut impl Rng, asserts: Vec<String>) -> Vec<Step> {
    let k = asserts.len().max(1);
    let factors: Vec<usize> = (1..=k).filter(|f| (k / f) * f == k).collect();
    let f = factors[rng.gen_range(0..factors.len())];
    let interval = u32::try_from((k / f).max(1)).unwrap_or(u32::MAX);
    let mut steps = Vec::new();
    for (i, a) in asserts.into_iter().enumerate() {
        if i % interval as usize == 0 {
            if i > 0 {
                steps.push(Step::CheckSat);
                let r = rng.gen_range(0..=interval);
                if r > 0 {
                    steps.push(Step::Pop(r));
                }
            }
            steps.push(Step::Push(interval));
        }
        steps.push(Step::Assert(a));
    }
    steps.push(Step::CheckSat);
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn fragments_through_and_or_only() {
        let mut a = Arena::new();
        let t = a.parse_term("(and (> x 1) (or (= y 2) (not (and p q))) (> x 1))").expect("term");
        let frags: Vec<String> = fragment(&a, &[t], 20).into_iter().map(|f| a.to_text(f)).collect();
        assert_eq!(
            frags,
            vec![
                "(and (> x 1) (or (= y 2) (not (and p q))) (> x 1))",
                "(> x 1)",
                "(or (= y 2) (not (and p q)))",
                "(= y 2)",
                "(not (and p q))"
            ]
        );
        // Dmax = 1 drops the depth-3 conjunction but keeps its parts.
        let frags = fragment(&a, &[t], 1);
        assert_eq!(frags.len(), 3);
    }

    #[test]
    fn incremental_blocks_end_with_check_sat() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for n in 1..10 {
            let steps = incremental_steps(&mut rng, (0..n).map(|i| format!("a{i}")).collect());
            assert_eq!(steps.last(), Some(&Step::CheckSat));
            assert_eq!(steps.iter().filter(|s| matches!(s, Step::Assert(_))).count(), n);
            // Pops never exceed what was pushed.
            let mut level: i64 = 0;
            for s in &steps {
                match s {
                    Step::Push(k) => level += *k as i64,
                    Step::Pop(k) => level -= *k as i64,
                    _ => {}
                }
                assert!(level >= 0);
            }
        }
    }
}
