//! TAILOR (seed 001, chapter 5) for crosscheck: tailor an analyzer's or engine's configuration
//! to one workload and one resource limit.
//!
//! A [`Target`] is one tool seen through a narrow window: a set of work items (RTE properties,
//! SMT queries, Datalog programs), a configuration [`Space`] (domains ordered by precision plus
//! numeric knobs) and a way to run one [`Ingredient`] on some items under a limit, telling which
//! items it resolved. A [`Recipe`] runs ingredients in sequence, each stage on the items still
//! unresolved (`eval`). The cost (`cost`) is the seed's (unresolved + used/limit)/total,
//! infinite past the limit; Algorithm 6 with one of four strategies (`search`) searches
//! recipes, starting from the target's default, so the answer is never worse than the default.
//!
//! What the seed does not do and crosscheck must: an item resolved one way by one configuration
//! and another way by another (sat/unsat, Valid/Invalid) is a finding, never a winner; a recipe
//! that shows a warning sign the default did not (a new Invalid or red status, a propagation
//! stop: states cut by an alarm, which would make code look dead) costs infinity.
//!
//! *Invariant:* this crate knows no query language and depends on no other crosscheck crate;
//! the targets under `targets/` run their tools as child processes found on PATH or in the
//! project's virtualenv.

pub mod cost;
pub mod eval;
pub mod journal;
pub mod poset;
pub mod recipe;
pub mod run;
pub mod search;
pub mod targets;
pub mod workloads;

pub use cost::Cost;
pub use eval::{Evaluation, Evaluator, Finding, ItemResult, Versus};
pub use poset::Poset;
pub use recipe::{Ingredient, Knob, Recipe, RecipeFile, Space, SLICES};
pub use search::{optimize, Algo, Params, Tuned};

use std::collections::BTreeSet;
use std::time::Duration;

/// How a recipe spends its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// One run of the tool covers every item (an analyzer over a program): each stage gets what
    /// the earlier stages left of the limit, and a recipe past it costs infinity.
    PerRun,
    /// Each item is run on its own (a solver on a query) with the limit per item: stage `k` gets
    /// its ingredient's slice of the limit, the last stage what is left.
    PerItem,
}

/// What one stage said about one item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A definite answer (`sat`, `unsat`, `valid`): two configurations giving different
    /// answers for one item is a finding.
    Resolved(String),
    /// A definite answer that does not count as resolving the item (an analyzer's `invalid`:
    /// the goal is to prove properties), still held against every other configuration's.
    Refuted(String),
    /// The item's code is unreachable: nothing can go wrong there, so it raises no warning
    /// (the seed counts warnings) and resolves the item; it contradicts no answer. Trusted
    /// because a run that reached this by cutting states with an alarm shows a guard (a red
    /// status) and costs infinity unless the default cut the same way.
    Unreachable,
    /// No answer within the limit (unknown, timeout, crash, out of memory).
    Unresolved,
}

/// One run of one ingredient.
#[derive(Clone, Debug, Default)]
pub struct StageRun {
    /// A verdict per item asked (items not listed are unresolved).
    pub verdicts: Vec<(usize, Verdict)>,
    /// The resource charged (CPU time, or a counter's units as a duration of one unit per ns).
    pub used: Duration,
    /// The run hit its limit.
    pub over: bool,
    /// Warning signs of an untrustworthy run ("red: <item>", "stopping propagation"): a
    /// recipe showing one the default run did not costs infinity.
    pub guards: BTreeSet<String>,
    /// Why a run failed without an answer, for the record (a solver's error line).
    pub note: Option<String>,
}

/// A target that cannot run at all (a missing binary, an unreadable workload).
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("{0}")]
    Setup(String),
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
}

/// One tool, one workload: what the tuner needs to know and do.
pub trait Target: Sync {
    /// A name for reports (`z3`, `eva`).
    fn name(&self) -> &str;
    /// The configuration space and its default recipe.
    fn space(&self) -> &Space;
    /// How many work items the workload has.
    fn items(&self) -> usize;
    /// A readable name of item `i` (a file, a property).
    fn item_name(&self, i: usize) -> String;
    fn sharing(&self) -> Sharing;
    /// Runs `ingredient` on `items` with at most `budget` of the resource. A [`Sharing::PerItem`]
    /// target is given one item at a time.
    fn run(&self, ingredient: &Ingredient, items: &[usize], budget: Duration) -> Result<StageRun, TargetError>;
    /// The tool's answers depend on a random seed (a solver's), so one run per item measures
    /// one draw: the evaluator may average over several.
    fn randomized(&self) -> bool {
        false
    }
    /// [`Target::run`] with the tool's random seeds moved by `seed` (0: as the ingredient says).
    fn run_seeded(
        &self,
        ingredient: &Ingredient,
        items: &[usize],
        budget: Duration,
        seed: u64,
    ) -> Result<StageRun, TargetError> {
        let _ = seed;
        self.run(ingredient, items, budget)
    }
}
