//! The contract between the runner and a language leg (`sql`, `smt`, `datalog`, ...).
//!
//! A leg implements [`Kind`]: it generates self-contained test cases, prepares engines for them,
//! checks them with its oracles, shrinks them for reduction, names their shape for
//! deduplication and prints native reproducers. The runner, the store and the reducer never look
//! inside a case: they only move it around as JSON.

use crate::engine::{Engine, EngineInfo};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
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
        })
    }
}

/// What an oracle saw when it flagged a test case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub class: FindingClass,
    /// Label of the engine at fault, or of the engines that disagree (`sqlite vs duckdb`).
    pub engine: String,
    /// One line a person can read.
    pub summary: String,
    /// What the oracle expected, rendered for people.
    pub expected: String,
    /// What the engine answered, rendered for people.
    pub actual: String,
    /// A short, stable discriminator of the failure (`subset`, `error:no such column`,
    /// `signal 11`): a re-check must reproduce the same class and key to count as the same.
    pub key: String,
    /// Anything else the oracle wants to keep (per-engine outcomes, diffs).
    #[serde(default)]
    pub detail: serde_json::Value,
}

impl Evidence {
    /// Whether `other` shows the same failure, as reduction and replay require.
    pub fn same_failure(&self, other: &Evidence) -> bool {
        self.class == other.class && self.key == other.key
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
    /// The oracles of the run, in the order the runner cycles through them.
    pub oracles: Vec<String>,
}

/// Settings every check receives.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct CheckOptions {
    /// Limit for one statement or query on one engine.
    pub timeout: Duration,
}

/// A deterministic stream of test cases.
pub trait Generator<C>: Send {
    /// The case at `index` for `oracle`. It must be a pure function of the generator's options,
    /// the engines' infos and `index`, so that the supervisor can rebuild the case a crashed
    /// worker was running from its index alone. Internal caching (the current database) is fine.
    fn case(&mut self, index: u64, oracle: &str) -> C;
}

/// The object-safe part of a kind: what `crosscheck engines` and argument checking need.
pub trait KindInfo: Sync {
    fn name(&self) -> &'static str;
    fn oracles(&self) -> &'static [&'static str];
    fn default_engines(&self) -> &'static [&'static str];
    fn default_oracles(&self) -> &'static [&'static str];
    /// Rejects combinations that cannot work (a differential oracle with one engine), with
    /// a message that says how to fix it.
    fn validate(&self, oracles: &[String], engines: &[EngineInfo]) -> Result<(), String>;
}

/// A language leg.
pub trait Kind: KindInfo {
    type Case: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + 'static;

    fn generator(&self, opts: &GenOptions, engines: &[EngineInfo]) -> Result<Box<dyn Generator<Self::Case>>, String>;

    /// Cases with the same setup id share engine state: the runner prepares engines only when
    /// the id changes, so a database is loaded once for many queries.
    fn setup_id(&self, case: &Self::Case) -> u64;

    /// Resets the engines and runs the case's setup on them. A crash or an unexpected error
    /// during setup is a finding; a setup the engines legitimately reject is a skip.
    fn prepare(&self, case: &Self::Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check;

    /// Runs `oracle` on a prepared case.
    fn check(&self, oracle: &str, case: &Self::Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check;

    /// Smaller variants of a case, most aggressive first, for the reducer.
    fn shrink(&self, case: &Self::Case) -> Vec<Self::Case>;

    /// A size measure the reducer must decrease (statements + syntax-tree nodes, say).
    fn size(&self, case: &Self::Case) -> usize;

    /// The shape of a (reduced) case for deduplication: constants and names stripped.
    fn signature(&self, oracle: &str, case: &Self::Case, evidence: &Evidence) -> String;

    /// Native reproducers `(file name, contents)` whose names start with `stem`
    /// (`repro.sql`, `reduced.sql`), with expected and actual results in comments.
    fn reproducers(
        &self,
        stem: &str,
        oracle: &str,
        case: &Self::Case,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)>;
}
