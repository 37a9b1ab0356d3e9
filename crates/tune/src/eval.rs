//! The recipe evaluator: runs a recipe's stages, each on the items still unresolved, merges
//! their answers, charges the resource and computes the cost; and remembers, across every
//! recipe it evaluated, which answer each item got, so that a contradiction is a [`Finding`]
//! and the contradicting recipe can never win.

use crate::journal::{Header, Journal};
use crate::{Cost, Ingredient, Recipe, Sharing, StageRun, Target, TargetError, Verdict, SLICES};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Where the evaluator reports each evaluation (the binary prints it on stderr).
pub type Progress<'t> = Box<dyn FnMut(&str) + 't>;

/// What a recipe did to one item.
#[derive(Clone, Debug)]
pub struct ItemResult {
    pub verdict: Verdict,
    /// The stage that resolved it.
    pub stage: Option<usize>,
    /// The resource it was charged (per-item targets only; the mean over solver seeds).
    pub used: Duration,
    /// Another definite answer one of the solver seeds gave (a contradiction within one
    /// configuration, which makes it a finding).
    pub conflict: Option<String>,
}

impl ItemResult {
    fn open() -> ItemResult {
        ItemResult { verdict: Verdict::Unresolved, stage: None, used: Duration::ZERO, conflict: None }
    }

    /// This result against the default's on the same item (the seed's RQ4, resilience): better
    /// when only this one resolves it, worse when only the default does or when both do and this
    /// one uses more than 1.25 times the default's resource plus 0.5% of the limit (one run's
    /// noise on a small item), else equal.
    pub fn versus(&self, default: &ItemResult, limit: Duration) -> Versus {
        match (resolves(&self.verdict), resolves(&default.verdict)) {
            (true, false) => Versus::Better,
            (false, true) => Versus::Worse,
            (true, true) if self.used > default.used.mul_f64(1.25) + limit / 200 => Versus::Worse,
            _ => Versus::Equal,
        }
    }
}

/// How a recipe did on one item against the default ([`ItemResult::versus`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Versus {
    Better,
    Equal,
    Worse,
}

/// A recipe's evaluation.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub recipe: Recipe,
    pub cost: Cost,
    pub items: Vec<ItemResult>,
    pub used: Duration,
    /// Why the recipe may not win although its cost says so (a contradiction, a warning sign
    /// the default did not show); its cost is then infinite.
    pub rejected: Option<String>,
    pub guards: BTreeSet<String>,
}

impl Evaluation {
    /// Items resolved: answered, or found unreachable, whether or not the evaluation is
    /// [`refused`](Evaluation::refused).
    pub fn resolved(&self) -> usize {
        self.items.iter().filter(|i| resolves(&i.verdict)).count()
    }

    /// Of the resolved items, those found unreachable.
    pub fn unreachable(&self) -> usize {
        self.items.iter().filter(|i| i.verdict == Verdict::Unreachable).count()
    }

    /// Why none of its answers may be credited to the recipe: a guard rejected it, or it
    /// went past the limit (its cost is infinite either way). Replayed on other programs, a
    /// recipe can buy answers with a propagation stop the default did not make; those count
    /// for nothing, as in the search.
    pub fn refused(&self) -> Option<&str> {
        match &self.rejected {
            Some(why) => Some(why),
            None if !self.cost.is_finite() => Some("past the limit"),
            None => None,
        }
    }

    /// Items resolved that count: none when the evaluation is refused.
    pub fn credited(&self) -> usize {
        if self.refused().is_some() {
            0
        } else {
            self.resolved()
        }
    }

    /// Of the credited items, those found unreachable.
    pub fn credited_unreachable(&self) -> usize {
        if self.refused().is_some() {
            0
        } else {
            self.unreachable()
        }
    }

    /// How many items this evaluation does better, as well and worse than `default`; a
    /// refused evaluation resolves nothing.
    pub fn versus(&self, default: &Evaluation, limit: Duration) -> [usize; 3] {
        let mut n = [0; 3];
        let open = ItemResult::open();
        let (mine_refused, theirs_refused) = (self.refused().is_some(), default.refused().is_some());
        for (mine, theirs) in self.items.iter().zip(&default.items) {
            let mine = if mine_refused { &open } else { mine };
            let theirs = if theirs_refused { &open } else { theirs };
            n[mine.versus(theirs, limit) as usize] += 1;
        }
        n
    }
}

/// A verdict that leaves no warning on the item.
fn resolves(v: &Verdict) -> bool {
    matches!(v, Verdict::Resolved(_) | Verdict::Unreachable)
}

/// Two configurations (ingredients) that answered one item differently.
#[derive(Clone, Debug)]
pub struct Finding {
    pub item: usize,
    pub first: (Ingredient, String),
    pub second: (Ingredient, String),
}

/// Runs recipes on one target and keeps the record of a tuning session.
pub struct Evaluator<'t> {
    target: &'t dyn Target,
    /// Per run ([`Sharing::PerRun`]) or per item ([`Sharing::PerItem`]).
    pub limit: Duration,
    pub workers: usize,
    /// Runs per item with different solver seeds, for a randomized solver
    /// ([`Target::randomized`]): an item counts as resolved when at least half of them
    /// resolve it, and is charged their mean.
    pub seeds: usize,
    cache: HashMap<Recipe, Evaluation>,
    journal: Option<Journal>,
    /// Evaluations read back from a journal instead of run.
    pub resumed: usize,
    answers: Vec<Option<(String, Ingredient)>>,
    pub findings: Vec<Finding>,
    /// Ingredients on either side of a finding: no recipe holding one may win.
    pub tainted: BTreeSet<Ingredient>,
    baseline: Option<BTreeSet<String>>,
    /// Evaluations asked for, and those that ran the tool (the rest came from the cache).
    pub evaluations: usize,
    pub runs: usize,
    /// Resource charged by every run, and the wall time spent evaluating.
    pub charged: Duration,
    pub wall: Duration,
    pub progress: Option<Progress<'t>>,
}

impl<'t> Evaluator<'t> {
    pub fn new(target: &'t dyn Target, limit: Duration, workers: usize) -> Evaluator<'t> {
        Evaluator {
            target,
            limit,
            workers: workers.max(1),
            seeds: 1,
            cache: HashMap::new(),
            journal: None,
            resumed: 0,
            answers: vec![None; target.items()],
            findings: Vec::new(),
            tainted: BTreeSet::new(),
            baseline: None,
            evaluations: 0,
            runs: 0,
            charged: Duration::ZERO,
            wall: Duration::ZERO,
            progress: None,
        }
    }

    pub fn target(&self) -> &dyn Target {
        self.target
    }

    /// Runs per item of a randomized target (1 for a deterministic one).
    fn seeds_per_item(&self) -> usize {
        if self.target.randomized() {
            self.seeds.max(1)
        } else {
            1
        }
    }

    /// Writes every evaluation that runs the tool to the journal at `path`; with `resume`,
    /// first reads back the evaluations a journal there holds (judged again in their order,
    /// so the baseline and the record of answers are rebuilt) and serves them from the cache.
    pub fn keep_journal(&mut self, path: &Path, unit: &str, resume: bool) -> Result<(), String> {
        let header = Header {
            unit: unit.to_string(),
            items: (0..self.target.items()).map(|i| self.target.item_name(i)).collect(),
            limit: self.limit,
            seeds: self.seeds_per_item(),
        };
        let space = self.target.space().clone();
        if resume && path.is_file() {
            let (journal, done) = Journal::resume(path, &header, &space)?;
            for mut e in done {
                self.judge(&mut e);
                self.cache.entry(e.recipe.clone()).or_insert(e);
                self.resumed += 1;
            }
            self.journal = Some(journal);
        } else {
            self.journal = Some(Journal::create(path, &header).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        Ok(())
    }

    /// The evaluation of `recipe`, if it was evaluated.
    pub fn cached(&self, recipe: &Recipe) -> Option<&Evaluation> {
        self.cache.get(recipe)
    }

    /// Evaluates `recipe`, from the cache when it was evaluated before. The first recipe
    /// evaluated is the baseline whose warning signs the others are held to.
    pub fn evaluate(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        self.evaluations += 1;
        if let Some(e) = self.cache.get(recipe) {
            return Ok(e.clone());
        }
        let e = self.measure(recipe, &format!("eval {}", self.evaluations), true)?;
        self.cache.insert(recipe.clone(), e.clone());
        Ok(e)
    }

    /// Evaluates `recipe` by running the tool, whatever the cache holds (to re-measure); not
    /// counted as an evaluation of the search.
    pub fn evaluate_fresh(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        self.measure(recipe, "re-measure", false)
    }

    fn measure(&mut self, recipe: &Recipe, what: &str, journal: bool) -> Result<Evaluation, TargetError> {
        let start = Instant::now();
        let mut e = match self.target.sharing() {
            Sharing::PerRun => self.per_run(recipe)?,
            Sharing::PerItem => self.per_item(recipe)?,
        };
        self.wall += start.elapsed();
        self.charged += e.used;
        if let (Some(j), true) = (self.journal.as_mut(), journal) {
            j.append(self.target.space(), &e)
                .map_err(|source| TargetError::Io { what: "writing the journal".into(), source })?;
        }
        self.judge(&mut e);
        if let Some(p) = self.progress.as_mut() {
            let space = self.target.space();
            p(&format!(
                "{what}: {} of {} resolved, cost {:.4}{} [{}]",
                e.resolved(),
                e.items.len(),
                e.cost.0,
                e.rejected.as_deref().map(|r| format!(" (rejected: {r})")).unwrap_or_default(),
                space.describe(recipe)
            ));
        }
        Ok(e)
    }

    fn per_run(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        let n = self.target.items();
        let mut items = vec![ItemResult::open(); n];
        let (mut used, mut over) = (Duration::ZERO, false);
        let mut guards = BTreeSet::new();
        for (k, ing) in recipe.0.iter().enumerate() {
            let open: Vec<usize> = (0..n).filter(|&i| items[i].stage.is_none()).collect();
            if open.is_empty() {
                break;
            }
            let run = self.target.run(ing, &open, self.limit.saturating_sub(used))?;
            self.runs += 1;
            used += run.used;
            guards.extend(run.guards.iter().cloned());
            merge(&mut items, &run, k, &open);
            if run.over || used > self.limit {
                over = true;
                break;
            }
        }
        let cost = if over { Cost::INFINITE } else { Cost::of(unresolved(&items), n, used, self.limit) };
        Ok(Evaluation { recipe: recipe.clone(), cost, items, used, rejected: None, guards })
    }

    fn per_item(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        let n = self.target.items();
        let next = AtomicUsize::new(0);
        let out: Mutex<Vec<Option<ItemResult>>> = Mutex::new(vec![None; n]);
        let failure: Mutex<Option<TargetError>> = Mutex::new(None);
        let runs = AtomicUsize::new(0);
        let (target, limit, seeds) = (self.target, self.limit, self.seeds_per_item());
        std::thread::scope(|s| {
            for _ in 0..self.workers.min(n.max(1)) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    match seeded(target, recipe, i, limit, seeds, &runs) {
                        Ok(r) => lock(&out)[i] = Some(r),
                        Err(e) => {
                            lock(&failure).get_or_insert(e);
                            next.store(n, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return Err(e);
        }
        self.runs += runs.into_inner();
        let items: Vec<ItemResult> = out
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .into_iter()
            .map(|r| r.unwrap_or(ItemResult { used: limit, ..ItemResult::open() }))
            .collect();
        let used = items.iter().map(|i| i.used).sum();
        let total_limit = limit * u32::try_from(n).unwrap_or(u32::MAX);
        let cost = Cost::of(unresolved(&items), n, used, total_limit);
        Ok(Evaluation { recipe: recipe.clone(), cost, items, used, rejected: None, guards: BTreeSet::new() })
    }

    /// Holds a fresh evaluation to the baseline and to every answer seen so far.
    fn judge(&mut self, e: &mut Evaluation) {
        let mut why = Vec::new();
        match &self.baseline {
            None => self.baseline = Some(e.guards.clone()),
            Some(guards) => {
                let new: Vec<&String> = e.guards.difference(guards).collect();
                if !new.is_empty() {
                    why.push(format!("warning signs the default did not show: {}", join(&new)));
                }
            }
        }
        for (i, r) in e.items.iter().enumerate() {
            let (Verdict::Resolved(answer) | Verdict::Refuted(answer), Some(stage)) = (&r.verdict, r.stage) else {
                continue;
            };
            let by_now = &e.recipe.0[stage];
            if let Some(other) = &r.conflict {
                why.push(format!("{} answered {answer} and, under another seed, {other}", self.target.item_name(i)));
                self.tainted.insert(by_now.clone());
                self.findings.push(Finding {
                    item: i,
                    first: (by_now.clone(), answer.clone()),
                    second: (by_now.clone(), other.clone()),
                });
            }
            match &self.answers[i] {
                None => self.answers[i] = Some((answer.clone(), by_now.clone())),
                Some((seen, by)) if seen != answer => {
                    why.push(format!("{} answered {answer}, another configuration {seen}", self.target.item_name(i)));
                    self.tainted.insert(by.clone());
                    self.tainted.insert(by_now.clone());
                    self.findings.push(Finding {
                        item: i,
                        first: (by.clone(), seen.clone()),
                        second: (by_now.clone(), answer.clone()),
                    });
                }
                Some(_) => {}
            }
        }
        if why.is_empty() && self.holds_tainted(&e.recipe) {
            why.push("holds a configuration that contradicted another".into());
        }
        if !why.is_empty() {
            e.rejected = Some(why.join("; "));
            e.cost = Cost::INFINITE;
        }
    }
}

impl Evaluator<'_> {
    /// `recipe` holds an ingredient on either side of a finding.
    pub fn holds_tainted(&self, recipe: &Recipe) -> bool {
        recipe.0.iter().any(|i| self.tainted.contains(i))
    }
}

/// Runs `recipe` on item `i` under `seeds` solver seeds: resolved when at least half of the
/// runs resolve it (with the most frequent answer, the earliest stage), charged their mean; two
/// definite answers are kept as a conflict.
fn seeded(
    target: &dyn Target,
    recipe: &Recipe,
    i: usize,
    limit: Duration,
    seeds: usize,
    runs: &AtomicUsize,
) -> Result<ItemResult, TargetError> {
    let mut all = Vec::with_capacity(seeds);
    for seed in 0..seeds {
        all.push(one_item(target, recipe, i, limit, seed as u64, runs)?);
    }
    let used = all.iter().map(|r| r.used).sum::<Duration>() / u32::try_from(seeds.max(1)).unwrap_or(u32::MAX);
    let mut answers: Vec<(&Verdict, usize)> = Vec::new();
    for r in all.iter().filter(|r| r.stage.is_some()) {
        match answers.iter_mut().find(|(v, _)| **v == r.verdict) {
            Some((_, n)) => *n += 1,
            None => answers.push((&r.verdict, 1)),
        }
    }
    answers.sort_by_key(|a| std::cmp::Reverse(a.1));
    let conflict = answers.get(1).and_then(|(v, _)| match v {
        Verdict::Resolved(a) | Verdict::Refuted(a) => Some(a.clone()),
        _ => None,
    });
    match answers.first() {
        Some(&(top, n)) if 2 * n >= seeds || conflict.is_some() => {
            let stage = all.iter().filter(|r| r.verdict == *top).filter_map(|r| r.stage).min();
            Ok(ItemResult { verdict: top.clone(), stage, used, conflict })
        }
        _ => Ok(ItemResult { used, ..ItemResult::open() }),
    }
}

/// Runs `recipe` on item `i` alone: each stage gets its slice of the limit, the last what is left.
fn one_item(
    target: &dyn Target,
    recipe: &Recipe,
    i: usize,
    limit: Duration,
    seed: u64,
    runs: &AtomicUsize,
) -> Result<ItemResult, TargetError> {
    let mut used = Duration::ZERO;
    for (k, ing) in recipe.0.iter().enumerate() {
        let left = limit.saturating_sub(used);
        if left.is_zero() {
            break;
        }
        let budget = if k + 1 == recipe.0.len() { left } else { left.min(limit.mul_f64(SLICES[ing.slice])) };
        let run = target.run_seeded(ing, &[i], budget, seed)?;
        runs.fetch_add(1, Ordering::Relaxed);
        // A child killed a little past its slice is charged the slice: the limit is the user's.
        used += run.used.min(budget);
        if let Some((_, v @ (Verdict::Resolved(_) | Verdict::Refuted(_) | Verdict::Unreachable))) =
            run.verdicts.iter().find(|(j, _)| *j == i)
        {
            return Ok(ItemResult { verdict: v.clone(), stage: Some(k), used, conflict: None });
        }
    }
    Ok(ItemResult { used, ..ItemResult::open() })
}

fn merge(items: &mut [ItemResult], run: &StageRun, stage: usize, open: &[usize]) {
    for (i, v) in &run.verdicts {
        if let (Verdict::Resolved(_) | Verdict::Refuted(_) | Verdict::Unreachable, true) = (v, open.contains(i)) {
            items[*i] = ItemResult { verdict: v.clone(), stage: Some(stage), ..ItemResult::open() };
        }
    }
}

fn unresolved(items: &[ItemResult]) -> usize {
    items.iter().filter(|i| !resolves(&i.verdict)).count()
}

fn join(xs: &[&String]) -> String {
    xs.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
