//! The Datalog oracles: queryFuzz's and DLSmith's metamorphic checks (original vs
//! transformed output on each engine, compared in [`metamorphic`], DLSmith's fact inlining in
//! [`dlsmith`]), the differential between engines and the config check. This module holds the enum, its
//! dispatch and how one run on one engine becomes rows or a verdict.

pub mod cache;
pub mod config;
pub mod differential;
pub mod dlsmith;
pub mod metamorphic;

use crate::analysis::features;
use crate::ast::Program;
use crate::dialects::print;
use crate::{Case, Test};
use crosscheck_core::bag::Diff;
use crosscheck_core::{
    Check, CheckOptions, CompareOptions, Engine, EngineInfo, ErrorClass, Evidence, Oracle, Outcome, Rows, Value,
};
use serde::{Deserialize, Serialize};

/// The Datalog oracles: queryFuzz's and DLSmith's metamorphic transformations, a differential
/// between engines, and options that must not change an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DatalogOracle {
    Queryfuzz,
    Dlsmith,
    Differential,
    Config,
}

impl Oracle for DatalogOracle {
    const ALL: &'static [DatalogOracle] =
        &[DatalogOracle::Queryfuzz, DatalogOracle::Dlsmith, DatalogOracle::Differential, DatalogOracle::Config];

    fn name(self) -> &'static str {
        match self {
            DatalogOracle::Queryfuzz => "queryfuzz",
            DatalogOracle::Dlsmith => "dlsmith",
            DatalogOracle::Differential => "differential",
            DatalogOracle::Config => "config",
        }
    }
}

impl std::fmt::Display for DatalogOracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

pub fn check(oracle: DatalogOracle, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    match &case.test {
        Test::Nothing(why) => Check::Skip(why.clone()),
        Test::Metamorphic { transformed, expect, steps, inline } => {
            let t = metamorphic::Transformed { program: transformed, expect: *expect, steps, inline };
            metamorphic::check(oracle, &case.program, &t, engines, opts, |e| {
                dlsmith::prepare(e, &case.program, &t, opts)
            })
        }
        Test::Differential => differential::check(&case.program, engines, opts),
        Test::Config { option } => config::check(&case.program, *option, engines, opts),
    }
}

/// Whether an engine can run a program at all.
pub fn supports(info: &EngineInfo, p: &Program) -> bool {
    // Engines report only their dialect; what it can express is the leg's knowledge.
    features(p).iter().all(|f| crate::dialects::can(&info.dialect, f))
}

/// Rows as a set (Datalog relations are sets), in canonical order.
pub fn as_set(r: &Rows) -> Rows {
    let opts = CompareOptions::default();
    let mut keyed: Vec<(Vec<crosscheck_core::Canon>, Vec<Value>)> =
        r.rows.iter().map(|row| (row.iter().map(|v| v.canon(&opts)).collect(), row.clone())).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.dedup_by(|a, b| a.0 == b.0);
    Rows::new(r.columns.clone(), keyed.into_iter().map(|(_, v)| v).collect())
}

pub fn render(r: &Rows) -> String {
    let rows: Vec<String> = r
        .rows
        .iter()
        .map(|row| format!("({})", row.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    if rows.len() > 50 {
        format!("{} tuples: {} ...", rows.len(), rows[..50].join(" "))
    } else {
        format!("{} tuples: {}", rows.len(), rows.join(" "))
    }
}

/// What a Datalog finding keeps besides its summary, for its reproducers: the output relation,
/// the rows that differ, the program as it ran (with an option, or transformed).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Detail {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Vec<String>>,
    /// The program as the engine ran it (for a refusal, the engine's message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<String>,
    /// A metamorphic oracle's transformed program as the engine ran it, natively and in
    /// Soufflé syntax: with EQU-FACTINLINE it holds the engine's own tuples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transformed_program: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transformed_souffle: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
}

impl Detail {
    pub(crate) fn into_core(self) -> crosscheck_core::Detail {
        crosscheck_core::Detail::of(&self)
    }
}

/// The missing or extra rows of a diff as text, for a finding's detail.
fn rows_json(rows: &[Vec<Value>]) -> Vec<Vec<String>> {
    rows.iter().map(|r| r.iter().map(|v| v.to_string()).collect()).collect()
}

/// The relation of a diff as a finding key names it (`equal`, `subset`, ...).
fn relation_name(d: &Diff) -> String {
    d.relation().name().to_string()
}

/// What one run gave: rows, an error the engine did not expect (which the differential oracle
/// reports, and the others skip), or a verdict for the check (skip or finding).
pub(crate) enum Ran {
    Rows(Rows),
    /// `label: message`.
    Refused(String),
    Stop(Check),
}

impl Ran {
    /// The rows, or the check that ends an oracle that does not judge refusals.
    pub(crate) fn rows(self) -> Result<Rows, Check> {
        match self {
            Ran::Rows(r) => Ok(r),
            Ran::Refused(msg) => Err(Check::Skip(msg)),
            Ran::Stop(c) => Err(c),
        }
    }
}

/// The skip reason of a run past the timeout.
pub const TIMED_OUT: &str = "timeout";

pub(crate) fn run(e: &mut Box<dyn Engine>, p: &Program, out: &str, option: Option<&str>, opts: &CheckOptions) -> Ran {
    let dialect = e.info().dialect.clone();
    let text = match print(&dialect, p, out, option) {
        Ok(t) => t,
        Err(msg) => return Ran::Stop(Check::Skip(msg)),
    };
    match e.run(&text, opts.timeout) {
        Outcome::Rows(r) => Ran::Rows(as_set(&r)),
        out @ Outcome::Crash { .. } => Ran::Stop(Check::finding(Evidence::crash(
            &e.info().label,
            &out,
            Detail { program: Some(text), ..Detail::default() }.into_core(),
        ))),
        Outcome::Timeout { .. } => Ran::Stop(Check::Skip(TIMED_OUT.into())),
        Outcome::Error { message, class: ErrorClass::Expected } => {
            Ran::Stop(Check::Skip(format!("an engine limit ({})", message.replace(':', ";"))))
        }
        Outcome::Error { message, .. } => Ran::Refused(format!("{}: {message}", e.info().label)),
        other => Ran::Stop(Check::Skip(format!("unexpected outcome {other}"))),
    }
}
