//! The recipe evaluator: runs a recipe's stages, each on the items still unresolved, merges
//! their answers, charges the resource and computes the cost; and remembers, across every
//! recipe it evaluated, which answer each item got, so that a contradiction is a [`Finding`]
//! and the contradicting recipe can never win.

use crate::{Cost, Ingredient, Recipe, Sharing, StageRun, Target, TargetError, Verdict, SLICES};
use std::collections::{BTreeSet, HashMap};
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
    /// The resource it was charged (per-item targets only).
    pub used: Duration,
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
    pub coverage: Option<u64>,
}

impl Evaluation {
    pub fn resolved(&self) -> usize {
        self.items.iter().filter(|i| matches!(i.verdict, Verdict::Resolved(_))).count()
    }
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
    cache: HashMap<Recipe, Evaluation>,
    answers: Vec<Option<(String, Ingredient)>>,
    pub findings: Vec<Finding>,
    /// Ingredients on either side of a finding: no recipe holding one may win.
    pub tainted: BTreeSet<Ingredient>,
    baseline: Option<(BTreeSet<String>, Option<u64>)>,
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
            cache: HashMap::new(),
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

    /// Evaluates `recipe`, from the cache when it was evaluated before. The first recipe
    /// evaluated is the baseline whose warning signs and coverage the others are held to.
    pub fn evaluate(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        self.evaluations += 1;
        if let Some(e) = self.cache.get(recipe) {
            return Ok(e.clone());
        }
        let e = self.measure(recipe, &format!("eval {}", self.evaluations))?;
        self.cache.insert(recipe.clone(), e.clone());
        Ok(e)
    }

    /// Evaluates `recipe` by running the tool, whatever the cache holds (to re-measure); not
    /// counted as an evaluation of the search.
    pub fn evaluate_fresh(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        self.measure(recipe, "re-measure")
    }

    fn measure(&mut self, recipe: &Recipe, what: &str) -> Result<Evaluation, TargetError> {
        let start = Instant::now();
        let mut e = match self.target.sharing() {
            Sharing::PerRun => self.per_run(recipe)?,
            Sharing::PerItem => self.per_item(recipe)?,
        };
        self.wall += start.elapsed();
        self.charged += e.used;
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
        let mut items = vec![ItemResult { verdict: Verdict::Unresolved, stage: None, used: Duration::ZERO }; n];
        let (mut used, mut over) = (Duration::ZERO, false);
        let (mut guards, mut coverage) = (BTreeSet::new(), None::<u64>);
        for (k, ing) in recipe.0.iter().enumerate() {
            let open: Vec<usize> = (0..n).filter(|&i| items[i].stage.is_none()).collect();
            if open.is_empty() {
                break;
            }
            let run = self.target.run(ing, &open, self.limit.saturating_sub(used))?;
            self.runs += 1;
            used += run.used;
            guards.extend(run.guards.iter().cloned());
            coverage = min_opt(coverage, run.coverage);
            merge(&mut items, &run, k, &open);
            if run.over || used > self.limit {
                over = true;
                break;
            }
        }
        let cost = if over { Cost::INFINITE } else { Cost::of(unresolved(&items), n, used, self.limit) };
        Ok(Evaluation { recipe: recipe.clone(), cost, items, used, rejected: None, guards, coverage })
    }

    fn per_item(&mut self, recipe: &Recipe) -> Result<Evaluation, TargetError> {
        let n = self.target.items();
        let next = AtomicUsize::new(0);
        let out: Mutex<Vec<Option<ItemResult>>> = Mutex::new(vec![None; n]);
        let failure: Mutex<Option<TargetError>> = Mutex::new(None);
        let runs = AtomicUsize::new(0);
        let (target, limit) = (self.target, self.limit);
        std::thread::scope(|s| {
            for _ in 0..self.workers.min(n.max(1)) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    match one_item(target, recipe, i, limit, &runs) {
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
            .map(|r| r.unwrap_or(ItemResult { verdict: Verdict::Unresolved, stage: None, used: limit }))
            .collect();
        let used = items.iter().map(|i| i.used).sum();
        let total_limit = limit * u32::try_from(n).unwrap_or(u32::MAX);
        let cost = Cost::of(unresolved(&items), n, used, total_limit);
        Ok(Evaluation {
            recipe: recipe.clone(),
            cost,
            items,
            used,
            rejected: None,
            guards: BTreeSet::new(),
            coverage: None,
        })
    }

    /// Holds a fresh evaluation to the baseline and to every answer seen so far.
    fn judge(&mut self, e: &mut Evaluation) {
        let mut why = Vec::new();
        match &self.baseline {
            None => self.baseline = Some((e.guards.clone(), e.coverage)),
            Some((guards, coverage)) => {
                let new: Vec<&String> = e.guards.difference(guards).collect();
                if !new.is_empty() {
                    why.push(format!("warning signs the default did not show: {}", join(&new)));
                }
                if let (Some(base), Some(now)) = (coverage, e.coverage) {
                    if now < *base {
                        why.push(format!("reaches {now} where the default reaches {base}"));
                    }
                }
            }
        }
        for (i, r) in e.items.iter().enumerate() {
            let (Verdict::Resolved(answer) | Verdict::Refuted(answer), Some(stage)) = (&r.verdict, r.stage) else {
                continue;
            };
            let by_now = &e.recipe.0[stage];
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

/// Runs `recipe` on item `i` alone: each stage gets its slice of the limit, the last what is left.
fn one_item(
    target: &dyn Target,
    recipe: &Recipe,
    i: usize,
    limit: Duration,
    runs: &AtomicUsize,
) -> Result<ItemResult, TargetError> {
    let mut used = Duration::ZERO;
    for (k, ing) in recipe.0.iter().enumerate() {
        let left = limit.saturating_sub(used);
        if left.is_zero() {
            break;
        }
        let budget = if k + 1 == recipe.0.len() { left } else { left.min(limit.mul_f64(SLICES[ing.slice])) };
        let run = target.run(ing, &[i], budget)?;
        runs.fetch_add(1, Ordering::Relaxed);
        // A child killed a little past its slice is charged the slice: the limit is the user's.
        used += run.used.min(budget);
        if let Some((_, v @ (Verdict::Resolved(_) | Verdict::Refuted(_)))) = run.verdicts.iter().find(|(j, _)| *j == i)
        {
            return Ok(ItemResult { verdict: v.clone(), stage: Some(k), used });
        }
    }
    Ok(ItemResult { verdict: Verdict::Unresolved, stage: None, used })
}

fn merge(items: &mut [ItemResult], run: &StageRun, stage: usize, open: &[usize]) {
    for (i, v) in &run.verdicts {
        if let (Verdict::Resolved(_) | Verdict::Refuted(_), true) = (v, open.contains(i)) {
            items[*i] = ItemResult { verdict: v.clone(), stage: Some(stage), used: Duration::ZERO };
        }
    }
}

fn unresolved(items: &[ItemResult]) -> usize {
    items.iter().filter(|i| !matches!(i.verdict, Verdict::Resolved(_))).count()
}

fn min_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn join(xs: &[&String]) -> String {
    xs.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
