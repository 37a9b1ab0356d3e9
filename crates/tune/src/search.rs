//! Algorithm 6 (OPTIMIZE) with the extraction's corrections, the four strategies of §5.4.3 and
//! Algorithm 7 (GENERATERECIPE).
//!
//! Phase 1 searches domains: for each recipe length `l` in 1..=l_max it generates `i_dom · l`
//! recipes; phase 2 mutates the settings of the best recipe `i_set` times and keeps strict
//! improvements. With the initial recipe that is `1 + i_dom·l_max(l_max+1)/2 + i_set`
//! evaluations: 41 with the defaults (3, 5, 10). The initial recipe is the target's default
//! (or a warm-start recipe), so the answer is never worse than where the search started.

use crate::eval::{Evaluation, Evaluator};
use crate::{Cost, Ingredient, Recipe, Space, TargetError, SLICES};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A search strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// Random sampling: random recipes from scratch; never moves the current recipe.
    Rs,
    /// Domain-aware random sampling: random recipes of pairwise incomparable domains.
    Dars,
    /// Simulated annealing over Algorithm 7's mutations.
    Sa,
    /// Hill climbing over Algorithm 7's mutations, restarting from a DARS recipe every 10 steps.
    Hc,
}

impl Algo {
    pub const ALL: [Algo; 4] = [Algo::Rs, Algo::Dars, Algo::Sa, Algo::Hc];

    pub fn name(self) -> &'static str {
        match self {
            Algo::Rs => "rs",
            Algo::Dars => "dars",
            Algo::Sa => "sa",
            Algo::Hc => "hc",
        }
    }
}

/// The search's parameters (the seed's defaults: DARS, 3, 5, 10).
#[derive(Clone, Debug)]
pub struct Params {
    pub algo: Algo,
    pub max_len: usize,
    pub i_dom: usize,
    pub i_set: usize,
    pub seed: u64,
    /// A recipe to start from instead of the default (warm start).
    pub init: Option<Recipe>,
    /// Re-measure the winner and the candidates whose costs are close to its (as many items
    /// resolved, within [`MARGIN`] of its time), this many times each, and keep the lowest mean;
    /// a winner on time alone must beat the default's mean by more than [`MARGIN`] (noise).
    pub confirm: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params { algo: Algo::Dars, max_len: 3, i_dom: 5, i_set: 10, seed: 0, init: None, confirm: 1 }
    }
}

impl Params {
    /// Evaluations of the search, the initial recipe included (not the confirmations).
    pub fn budget(&self) -> usize {
        1 + self.i_dom * self.max_len * (self.max_len + 1) / 2 + self.i_set
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub default: Evaluation,
    pub best: Evaluation,
    /// Every recipe evaluated, in order.
    pub history: Vec<(Recipe, Cost, Option<String>)>,
}

/// Algorithm 6.
pub fn optimize(ev: &mut Evaluator<'_>, p: &Params) -> Result<Tuned, TargetError> {
    let space = ev.target().space().clone();
    let slices = space.slices;
    let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
    let mut history = Vec::new();
    let note = |e: &Evaluation, h: &mut Vec<(Recipe, Cost, Option<String>)>| {
        h.push((e.recipe.clone(), e.cost, e.rejected.clone()));
    };
    // The default runs first: it is the baseline every other recipe's warning signs meet.
    let default = ev.evaluate(&space.default)?;
    note(&default, &mut history);
    let mut curr = match &p.init {
        Some(r) if *r != space.default => {
            let e = ev.evaluate(r)?;
            note(&e, &mut history);
            e
        }
        _ => default.clone(),
    };
    let mut best = curr.clone();
    let mut strategy = Strategy { algo: p.algo, step: 0 };
    let phase1 = p.i_dom * p.max_len * (p.max_len + 1) / 2;
    let mut done = 0;
    for l in 1..=p.max_len {
        for _ in 0..p.i_dom * l {
            let next = strategy.generate(&space, &curr.recipe, l, &mut rng);
            let e = ev.evaluate(&next)?;
            note(&e, &mut history);
            done += 1;
            if e.cost.lt(best.cost) {
                best = e.clone();
            }
            if strategy.accept(curr.cost, e.cost, phase1 - done + 1, &mut rng) {
                curr = e;
            }
        }
    }
    for _ in 0..p.i_set {
        let next = mutate_settings(&space, &best.recipe, slices, &mut rng);
        let e = ev.evaluate(&next)?;
        note(&e, &mut history);
        if e.cost.lt(best.cost) {
            best = e;
        }
    }
    let mut best = settle(ev, &history, best, &default)?;
    if best.recipe != default.recipe && p.confirm > 0 {
        best = confirm(ev, &history, best, &default, p.confirm)?;
    }
    Ok(Tuned { default, best, history })
}

/// The winner once findings are known: a recipe on either side of a contradiction, even one
/// found after it won, falls back to the best untainted recipe, at worst the default.
fn settle(
    ev: &mut Evaluator<'_>,
    history: &[(Recipe, Cost, Option<String>)],
    best: Evaluation,
    default: &Evaluation,
) -> Result<Evaluation, TargetError> {
    if !ev.holds_tainted(&best.recipe) {
        return Ok(best);
    }
    let clean = history
        .iter()
        .filter(|(r, c, rej)| rej.is_none() && c.is_finite() && !ev.holds_tainted(r))
        .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0));
    match clean {
        Some((r, c, _)) if c.lt(default.cost) => ev.evaluate(r),
        _ => Ok(default.clone()),
    }
}

/// Re-measures the winner and the recipes whose costs are close to its (as many items
/// resolved, a use within [`MARGIN`] of its) `n` times each, and keeps the lowest mean use: one
/// measurement of a configuration differs from the next by a few percent on a loaded machine,
/// so the first ranking among close recipes is noise. A candidate that resolves fewer items
/// when measured again drops out. When the winner resolves no more than the default, the
/// default is measured too and the winner must use less by more than [`MARGIN`].
fn confirm(
    ev: &mut Evaluator<'_>,
    history: &[(Recipe, Cost, Option<String>)],
    best: Evaluation,
    default: &Evaluation,
    n: usize,
) -> Result<Evaluation, TargetError> {
    let mut close = vec![best.clone()];
    for (r, c, rej) in history {
        let Some(e) = ev.cached(r) else { continue };
        let near = e.resolved() == best.resolved() && e.used.as_secs_f64() <= best.used.as_secs_f64() * (1.0 + MARGIN);
        if near && rej.is_none() && c.is_finite() && *r != default.recipe && close.iter().all(|k| k.recipe != *r) {
            close.push(e.clone());
        }
    }
    close.truncate(CLOSE);
    let mut kept: Vec<(f64, Evaluation)> = Vec::new();
    'each: for e in close {
        let mut total = e.used.as_secs_f64();
        for _ in 0..n {
            let again = ev.evaluate_fresh(&e.recipe)?;
            if again.resolved() < e.resolved() || !again.cost.is_finite() {
                continue 'each;
            }
            total += again.used.as_secs_f64();
        }
        #[allow(clippy::cast_precision_loss)] // a few measurements
        kept.push((total / (n + 1) as f64, e));
    }
    kept.sort_by(|a, b| a.0.total_cmp(&b.0));
    let Some((mean, winner)) = kept.into_iter().next() else { return Ok(default.clone()) };
    if winner.resolved() > default.resolved() {
        return Ok(winner);
    }
    let mut d = default.used.as_secs_f64();
    for _ in 0..n {
        d += ev.evaluate_fresh(&default.recipe)?.used.as_secs_f64();
    }
    #[allow(clippy::cast_precision_loss)] // a few measurements
    let d = d / (n + 1) as f64;
    Ok(if mean < d * (1.0 - MARGIN) { winner } else { default.clone() })
}

/// How much less of the resource a time-only winner must use than the default, and how close
/// in use two recipes resolving as many items are for the first ranking to be noise.
pub const MARGIN: f64 = 0.1;

/// At most this many close recipes (the winner first) are measured again.
const CLOSE: usize = 4;

struct Strategy {
    algo: Algo,
    step: usize,
}

impl Strategy {
    fn generate(&mut self, space: &Space, curr: &Recipe, l: usize, rng: &mut ChaCha8Rng) -> Recipe {
        self.step += 1;
        match self.algo {
            Algo::Rs => random_recipe(space, l, rng),
            Algo::Dars => dars_recipe(space, l, rng),
            Algo::Sa => generate_recipe(space, curr, l, rng),
            Algo::Hc if self.restarting() => dars_recipe(space, rng.gen_range(1..=l), rng),
            Algo::Hc => generate_recipe(space, curr, l, rng),
        }
    }

    /// HC restarts on its first step and every tenth after.
    fn restarting(&self) -> bool {
        self.step % 10 == 1
    }

    /// ACCEPT; `remaining` is SA's temperature (the repo's: iterations left).
    fn accept(&self, curr: Cost, next: Cost, remaining: usize, rng: &mut ChaCha8Rng) -> bool {
        match self.algo {
            Algo::Rs | Algo::Dars => false,
            Algo::Hc => next.is_finite() && (self.restarting() || next.lt(curr)),
            Algo::Sa => rng.gen::<f64>() <= sa_probability(curr, next, remaining),
        }
    }
}

/// SA's acceptance probability as the TAILOR repository computes it: 1 for a lower cost, else
/// `2.7^(-Δ/T)` with `T` the iterations left and Δ on the repository's scale (cost × 1000).
pub fn sa_probability(curr: Cost, next: Cost, remaining: usize) -> f64 {
    if next.lt(curr) {
        return 1.0;
    }
    if !next.is_finite() {
        return 0.0;
    }
    let delta = if curr.is_finite() { (next.0 - curr.0) * 1000.0 } else { 0.0 };
    #[allow(clippy::cast_precision_loss)] // a few hundred iterations
    let t = remaining.max(1) as f64;
    2.7f64.powf(-delta / t)
}

/// RS: `l` domains drawn at random ([`Poset::draw_any`]), fixpoint knobs drawn with them
/// ([`Space::sampled`]), every other setting at its default.
pub fn random_recipe(space: &Space, l: usize, rng: &mut ChaCha8Rng) -> Recipe {
    Recipe((0..l).map(|_| space.sampled(space.domains.draw_any(rng), rng)).collect())
}

/// DARS: the first domain at random, each next one at random among those incomparable with
/// every domain chosen (shorter when none is left); fixpoint knobs drawn with each.
pub fn dars_recipe(space: &Space, l: usize, rng: &mut ChaCha8Rng) -> Recipe {
    let mut ds = vec![space.domains.draw_any(rng)];
    while ds.len() < l {
        let cands = space.domains.incomparable_with(&ds);
        let Some(d) = space.domains.draw(&cands, rng) else { break };
        ds.push(d);
    }
    Recipe(ds.into_iter().map(|d| space.sampled(d, rng)).collect())
}

/// Algorithm 7's actions, drawn with the seed's probabilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Add,
    /// MOD: the immediately more precise domain.
    Greater,
    /// MOD: the immediately less precise domain.
    Less,
    /// MOD: a least precise domain incomparable with the rest of the recipe.
    Incomparable,
}

/// ADD 0.2 / MOD 0.8; within MOD, GT 0.5 / LT 0.3 / INC 0.2. ADD on a full recipe is a MOD.
pub fn draw_action(len: usize, l_max: usize, rng: &mut ChaCha8Rng) -> Action {
    if rng.gen::<f64>() < 0.2 && len < l_max {
        return Action::Add;
    }
    let m = rng.gen::<f64>();
    if m < 0.5 {
        Action::Greater
    } else if m < 0.8 {
        Action::Less
    } else {
        Action::Incomparable
    }
}

/// Algorithm 7 (GENERATERECIPE): a poset-compatible mutation of `rec`; a draw that has no
/// candidate or breaks compatibility is drawn again from `rec` (bounded; then `rec` itself).
pub fn generate_recipe(space: &Space, rec: &Recipe, l_max: usize, rng: &mut ChaCha8Rng) -> Recipe {
    let p = &space.domains;
    for _ in 0..100 {
        let ds = rec.domains();
        let mut out = rec.clone();
        match draw_action(rec.0.len(), l_max, rng) {
            Action::Add => {
                let Some(&d) = p.minimal(&p.incomparable_with(&ds)).choose(rng) else { continue };
                out.0.push(space.plain(d));
            }
            act => {
                let j = rng.gen_range(0..ds.len());
                let cands = match act {
                    Action::Greater => p.greater(ds[j]),
                    Action::Less => p.less(ds[j]),
                    _ => {
                        let rest: Vec<usize> =
                            ds.iter().enumerate().filter(|(k, _)| *k != j).map(|(_, d)| *d).collect();
                        p.minimal(&p.incomparable_with(&rest)).into_iter().filter(|&d| d != ds[j]).collect()
                    }
                };
                let Some(&d) = cands.choose(rng) else { continue };
                out.0[j].domain = d;
            }
        }
        if p.compatible(&out.domains()) {
            return out;
        }
    }
    rec.clone()
}

/// Phase 2's MUTATESETTINGS: one setting of one ingredient (a knob, or a stage's slice of the
/// limit when stages share it) set to another of its values.
pub fn mutate_settings(space: &Space, rec: &Recipe, slices: bool, rng: &mut ChaCha8Rng) -> Recipe {
    let mut out = rec.clone();
    let j = rng.gen_range(0..out.0.len());
    let has_slice = slices && j + 1 < out.0.len();
    let choices: Vec<Option<usize>> = (0..space.knobs.len())
        .filter(|&k| space.knobs[k].values.len() > 1)
        .map(Some)
        .chain(has_slice.then_some(None))
        .collect();
    let Some(&choice) = choices.choose(rng) else { return out };
    let ing: &mut Ingredient = &mut out.0[j];
    match choice {
        Some(k) => ing.knobs[k] = other(ing.knobs[k], space.knobs[k].values.len(), rng),
        None => ing.slice = other(ing.slice, SLICES.len(), rng),
    }
    out
}

fn other(v: usize, n: usize, rng: &mut ChaCha8Rng) -> usize {
    (v + rng.gen_range(1..n)) % n
}
