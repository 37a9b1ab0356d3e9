//! The contract between the runner and a language leg (`sql`, `smt`, `datalog`, ...).
//!
//! A leg implements [`Kind`]: it generates self-contained test cases, prepares engines for them,
//! checks them with its oracles, shrinks them for reduction, names their shape for
//! deduplication and prints native reproducers. The runner, the store and the reducer never look
//! inside a case: they only move it around as JSON.

use crate::engine::{Engine, EngineInfo, EngineSpec};
use crate::outcome::Outcome;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// What kind of wrong answer a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingClass {
    /// A wrong result: rows missing or extra, a wrong aggregate, engines disagreeing.
    Logic,
    /// A solver said `unsat` for a satisfiable formula (or `sat` for an unsatisfiable one).
    Soundness,
    /// A solver's model does not satisfy the formula.
    InvalidModel,
    /// `unknown` where the logic is decidable and the solver should answer.
    Unknown,
    /// An error that is not on the dialect's list of expected errors.
    Error,
    /// The engine (or the worker that hosted it) died.
    Crash,
    /// The engine did not answer within the hang limit.
    Hang,
    /// No wrong answer but a misjudged cost: a more restrictive query estimated to return more
    /// rows than the query it restricts (SQL's `cert`).
    Performance,
}

impl fmt::Display for FindingClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FindingClass::Logic => "logic",
            FindingClass::Soundness => "soundness",
            FindingClass::InvalidModel => "invalid-model",
            FindingClass::Unknown => "unknown",
            FindingClass::Error => "error",
            FindingClass::Crash => "crash",
            FindingClass::Hang => "hang",
            FindingClass::Performance => "performance",
        })
    }
}

/// What an oracle saw when it flagged a test case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub class: FindingClass,
    /// Labels of the engine at fault, or of the engines that disagree.
    pub engines: Vec<String>,
    /// One line a person can read.
    pub summary: String,
    /// What the oracle expected, rendered for people.
    pub expected: String,
    /// What the engine answered, rendered for people.
    pub actual: String,
    /// A short, stable discriminator of the failure (`subset`, `error:no such column`,
    /// `signal 11`): a re-check must reproduce the same class and key to count as the same.
    pub key: String,
    /// Anything else the oracle wants to keep (per-engine outcomes, diffs), in the leg's type.
    #[serde(default)]
    pub detail: Detail,
}

/// A leg's own record of a finding (the failing statement, each engine's answer). Core stores
/// it without looking inside; a leg writes and reads it through one type of its own, so no
/// field name is spelled in two places.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Detail(serde_json::Value);

impl Detail {
    /// No detail.
    pub fn none() -> Detail {
        Detail(serde_json::Value::Null)
    }

    pub fn of<D: Serialize>(detail: &D) -> Detail {
        Detail(serde_json::to_value(detail).unwrap_or_default())
    }

    /// The detail as the leg's type; a record the type cannot read (from an older version, or
    /// none) gives its default.
    pub fn read<D: DeserializeOwned + Default>(&self) -> D {
        D::deserialize(&self.0).unwrap_or_default()
    }
}

impl Evidence {
    /// An engine that died answering `input`, the same for every leg: the key is the signal,
    /// the panic (numbers masked: one panic site, one key) or the exit code.
    pub fn crash(engine: &str, outcome: &Outcome, detail: Detail) -> Evidence {
        let (signal, code, tail) = match outcome {
            Outcome::Crash { signal, code, stderr_tail } => (*signal, *code, stderr_tail.as_str()),
            _ => (None, None, ""),
        };
        let key = crash_key(signal, code, tail);
        let last = tail.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
        Evidence {
            class: FindingClass::Crash,
            engines: vec![engine.to_string()],
            summary: format!("{engine} crashed ({key}) {last}").trim_end().to_string(),
            expected: "an answer".into(),
            actual: tail.to_string(),
            key,
            detail,
        }
    }

    /// The engines for people and for grouping: `sqlite`, `sqlite vs duckdb`.
    pub fn engine_label(&self) -> String {
        self.engines.join(" vs ")
    }

    /// Whether `other` shows the same failure, as reduction and replay require.
    pub fn same_failure(&self, other: &Evidence) -> bool {
        self.class == other.class && self.key == other.key
    }
}

/// The key of a crash: its signal, its panic message with numbers masked (the numbers vary with
/// the input: a 10-minute Nemo campaign gave 52 keys for one panic otherwise), or its exit code.
pub fn crash_key(signal: Option<i32>, code: Option<i32>, stderr_tail: &str) -> String {
    if let Some(s) = signal {
        return format!("signal {s}");
    }
    if let Some(msg) = stderr_tail.strip_prefix("panic: ") {
        let mut key = String::from("panic: ");
        for c in msg.lines().next().unwrap_or("").chars().take(80) {
            if !c.is_ascii_digit() {
                key.push(c);
            } else if !key.ends_with('#') {
                key.push('#');
            }
        }
        return key;
    }
    match code {
        Some(c) => format!("exit {c}"),
        None => "crash".into(),
    }
}

/// What deduplication knows of a finding's case. Findings of one engine, class and `head`
/// (the kind of difference: rows missing, an error's message) are one bug when the features of
/// one include the features of the other's reduced case: the smaller case already shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    pub head: String,
    /// Clauses, operators, setup features, the solver's logic: names and constants stripped.
    pub features: std::collections::BTreeSet<String>,
    /// Which way the answer differed (rows missing, extra or changed), where the leg tells it
    /// apart from `head`. It does not split bugs (one wrong predicate evaluation loses rows on
    /// some data and adds them on other), but a bug that never failed this way does not
    /// explain an unreduced case that does: that case is reduced to see which bug it is.
    #[serde(default)]
    pub direction: String,
}

impl Shape {
    pub fn new(head: impl Into<String>, features: impl IntoIterator<Item = String>) -> Shape {
        Shape { head: head.into(), features: features.into_iter().collect(), direction: String::new() }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let features: Vec<&str> = self.features.iter().map(String::as_str).collect();
        write!(f, "{}|{}", self.head, features.join(","))
    }
}

/// The verdict of one oracle check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Check {
    /// The oracle holds. `nonempty` says whether the checked query returned something.
    Pass {
        nonempty: bool,
    },
    /// The test could not be judged (an expected error, an unsupported construct).
    Skip(String),
    Finding(Box<Evidence>),
}

impl Check {
    pub fn finding(e: Evidence) -> Check {
        Check::Finding(Box::new(e))
    }
}

/// Per-worker generation settings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenOptions {
    /// The worker's seed, derived from the campaign seed.
    pub seed: u64,
    /// The user's seed inputs (`--seeds DIR`), when the leg takes them.
    pub seeds_dir: Option<PathBuf>,
}

/// One oracle of a leg. Names are parsed once, where the user gave them (an unknown name is a
/// usage error there); past that point oracles are values a `match` must cover, so a new
/// oracle cannot fall through to another one's behaviour.
pub trait Oracle: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// Every oracle of the leg, in the order `crosscheck engines` lists them.
    const ALL: &'static [Self];

    /// The name on the command line and in findings.
    fn name(self) -> &'static str;

    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|o| o.name() == name)
    }
}

/// The names of every oracle of a leg.
pub fn oracle_names<O: Oracle>() -> Vec<&'static str> {
    O::ALL.iter().map(|o| o.name()).collect()
}

/// Parses oracle names a user gave, with an error that lists the known ones.
pub fn parse_oracles<O: Oracle>(kind: &str, names: &[String]) -> Result<Vec<O>, String> {
    names
        .iter()
        .map(|n| {
            O::parse(n)
                .ok_or_else(|| format!("unknown oracle \"{n}\" for {kind} (known: {})", oracle_names::<O>().join(", ")))
        })
        .collect()
}

/// Settings every check receives.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct CheckOptions {
    /// Limit for one statement or query on one engine.
    pub timeout: Duration,
}

/// A deterministic stream of test cases.
pub trait Generator<C, O>: Send {
    /// The case at `index` for `oracle`. It must be a pure function of the generator's options,
    /// the engines' infos and `index`, so that the supervisor can rebuild the case a crashed
    /// worker was running from its index alone, unless the generator is
    /// [adaptive](Generator::adaptive). Internal caching (the current database) is fine;
    /// running an engine is not (the supervisor opens none): work that needs one belongs in
    /// [`Kind::materialize`].
    fn case(&mut self, index: u64, oracle: O) -> C;

    /// Whether later cases depend on what earlier ones returned ([`Generator::observe`]), as
    /// GDsmith's pool of non-empty queries makes them. Such a case cannot be rebuilt from its
    /// index: the worker leaves each one it runs on its board for the supervisor, and a
    /// finding kept as a row keeps its case. Its setup must still be a pure function of the
    /// index (the supervisor skips a setup that killed a worker by rebuilding its id).
    fn adaptive(&self) -> bool {
        false
    }

    /// What case `index` (as it ran, after [`Kind::materialize`]) gave: whether it passed with
    /// rows. Only the worker calls it, after each check.
    fn observe(&mut self, _index: u64, _case: &C, _nonempty: bool) {}
}

/// Engines a leg runs for its own purposes, never under test (the SMT leg's reference solvers,
/// which give the model a STORM instance is built around), and what the leg keeps between cases
/// (that model, per seed). Only workers and probes have them: they are opened on first use by
/// the opener of the run's engines, so the supervisor, which rebuilds cases with the generator
/// alone, never starts an engine.
pub struct Helpers<'a> {
    open: Option<crate::worker::Opener<'a>>,
    /// Each spec with its engine: `None` until tried, `Some(None)` when it cannot open.
    slots: Vec<HelperSlot>,
    /// The leg's own state between cases of one process.
    pub memo: Option<Box<dyn Any + Send>>,
}

type HelperSlot = (EngineSpec, Option<Option<Box<dyn Engine>>>);

impl<'a> Helpers<'a> {
    pub fn new(open: crate::worker::Opener<'a>, specs: Vec<EngineSpec>) -> Self {
        Helpers { open: Some(open), slots: specs.into_iter().map(|s| (s, None)).collect(), memo: None }
    }

    /// No helper engine at all (what a leg sees when it is driven without a worker).
    pub fn none() -> Helpers<'static> {
        Helpers { open: None, slots: Vec::new(), memo: None }
    }

    /// The helper whose spec is named `name`, opened on first use; `None` when there is no such
    /// spec or it cannot open (a solver that is not installed), which is remembered.
    pub fn get(&mut self, name: &str) -> Option<&mut Box<dyn Engine>> {
        let open = self.open;
        let (spec, slot) = self.slots.iter_mut().find(|(s, _)| s.name == name)?;
        if slot.is_none() {
            *slot = Some(open.and_then(|o| o(spec).ok()));
        }
        slot.as_mut()?.as_mut()
    }
}

/// The object-safe part of a kind: what `crosscheck engines` and argument checking need. Every
/// [`Kind`] has it, from its constants.
pub trait KindInfo: Sync {
    fn name(&self) -> &'static str;
    /// The names of the leg's oracles ([`oracle_names`] of its [`Kind::Oracle`]).
    fn oracles(&self) -> Vec<&'static str>;
    fn default_engines(&self) -> &'static [&'static str];
    fn default_oracles(&self) -> Vec<&'static str>;
}

impl<K: Kind> KindInfo for K {
    fn name(&self) -> &'static str {
        K::NAME
    }
    fn oracles(&self) -> Vec<&'static str> {
        oracle_names::<K::Oracle>()
    }
    fn default_engines(&self) -> &'static [&'static str] {
        K::DEFAULT_ENGINES
    }
    fn default_oracles(&self) -> Vec<&'static str> {
        K::DEFAULT_ORACLES.iter().map(|o| o.name()).collect()
    }
}

/// A language leg.
pub trait Kind: Sync {
    /// The leg's name on the command line (`crosscheck run sql`) and in findings.
    const NAME: &'static str;
    /// The engines a run uses when the user names none.
    const DEFAULT_ENGINES: &'static [&'static str];
    /// The oracles a run uses when the user names none.
    const DEFAULT_ORACLES: &'static [Self::Oracle];

    type Case: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + 'static;
    type Oracle: Oracle;

    /// Rejects combinations that cannot work (a differential oracle with one engine), with
    /// a message that says how to fix it.
    fn validate(&self, oracles: &[Self::Oracle], engines: &[EngineInfo]) -> Result<(), String>;

    fn generator(
        &self,
        opts: &GenOptions,
        engines: &[EngineInfo],
    ) -> Result<Box<dyn Generator<Self::Case, Self::Oracle>>, String>;

    /// Specs of the [`Helpers`] a worker or probe offers [`Kind::materialize`] and
    /// [`Kind::check_with`]; none by default.
    fn helpers(&self, _engines: &[EngineInfo]) -> Vec<EngineSpec> {
        Vec::new()
    }

    /// Completes a generated case in the worker (and in a probe, for a stored case that a
    /// supervisor rebuilt) before it is prepared: the work a case needs engines for, which
    /// `Generator::case` must not do. It must leave a complete case unchanged. By default the
    /// generator's case is complete.
    fn materialize(
        &self,
        case: Self::Case,
        _engines: &[EngineInfo],
        _helpers: &mut Helpers<'_>,
        _opts: &CheckOptions,
    ) -> Self::Case {
        case
    }

    /// [`Kind::check`] with the helpers at hand (the SMT model oracle's checking solver); the
    /// worker and probes call this one.
    fn check_with(
        &self,
        oracle: Self::Oracle,
        case: &Self::Case,
        engines: &mut [Box<dyn Engine>],
        _helpers: &mut Helpers<'_>,
        opts: &CheckOptions,
    ) -> Check {
        self.check(oracle, case, engines, opts)
    }

    /// Cases with the same setup id share engine state: the runner prepares engines only when
    /// the id changes, so a database is loaded once for many queries.
    fn setup_id(&self, case: &Self::Case) -> u64;

    /// Whether `a` and `b` have the same setup, so engines prepared for one serve the other:
    /// a reduction then skips preparing again for a step that changed only the query. The
    /// default, never, is always right.
    fn same_setup(&self, _a: &Self::Case, _b: &Self::Case) -> bool {
        false
    }

    /// Resets the engines and runs the case's setup on them. A crash or an unexpected error
    /// during setup is a finding; a setup the engines legitimately reject is a skip.
    fn prepare(&self, case: &Self::Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check;

    /// Runs `oracle` on a prepared case.
    fn check(
        &self,
        oracle: Self::Oracle,
        case: &Self::Case,
        engines: &mut [Box<dyn Engine>],
        opts: &CheckOptions,
    ) -> Check;

    /// Smaller variants of a case, most aggressive first, for the reducer.
    fn shrink(&self, case: &Self::Case) -> Vec<Self::Case>;

    /// [`Kind::shrink`]'s candidates in the same order, made as the reducer asks for them: a
    /// leg whose late candidates are costly to make (the SMT leg's STORM rounds) overrides it.
    fn shrink_lazy(&self, case: &Self::Case) -> Box<dyn Iterator<Item = Self::Case> + '_> {
        Box::new(self.shrink(case).into_iter())
    }

    /// The group a case counts under in the campaign summary (`Summary::by_label`): what the
    /// leg wants its users to see covered, such as the theory of a case's seed. None by default.
    fn label(&self, _case: &Self::Case) -> Option<String> {
        None
    }

    /// A size measure the reducer must decrease (statements + syntax-tree nodes, say).
    fn size(&self, case: &Self::Case) -> usize;

    /// The shape of a (reduced) case for deduplication: constants and names stripped.
    fn signature(&self, oracle: Self::Oracle, case: &Self::Case, evidence: &Evidence) -> Shape;

    /// Native reproducers `(file name, contents)` whose names start with `stem`
    /// (`repro.sql`, `reduced.sql`), with expected and actual results in comments.
    fn reproducers(
        &self,
        stem: &str,
        oracle: Self::Oracle,
        case: &Self::Case,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)>;
}
