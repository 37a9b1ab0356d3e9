//! The oracles: `storm` (any `unsat` on a satisfiable-by-construction instance is a soundness
//! bug; crashes, internal errors and `unknown` on decidable logics are their own classes),
//! `differential` (`sat` against `unsat` between solvers, versions or option sets) and `model`
//! (the solver's model must satisfy every assertion).

pub mod differential;
pub mod fusion;
pub mod model;
pub mod opfuzz;
pub mod storm;

pub use model::{model_violation, second_opinion};

use crate::case::SmtCase;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Helpers, Oracle, Outcome, Verdict};
use serde::{Deserialize, Serialize};

/// The SMT oracles. Adding one: a module here, a variant with its name, an arm in `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmtOracle {
    Storm,
    Differential,
    Model,
    Fusion,
    Opfuzz,
}

impl Oracle for SmtOracle {
    const ALL: &'static [SmtOracle] =
        &[SmtOracle::Storm, SmtOracle::Differential, SmtOracle::Model, SmtOracle::Fusion, SmtOracle::Opfuzz];

    fn name(self) -> &'static str {
        match self {
            SmtOracle::Storm => "storm",
            SmtOracle::Differential => "differential",
            SmtOracle::Model => "model",
            SmtOracle::Fusion => "fusion",
            SmtOracle::Opfuzz => "opfuzz",
        }
    }
}

impl std::fmt::Display for SmtOracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl SmtOracle {
    /// Runs this oracle on a materialized case.
    pub fn check(
        self,
        case: &SmtCase,
        engines: &mut [Box<dyn Engine>],
        helpers: &mut Helpers<'_>,
        opts: &CheckOptions,
    ) -> Check {
        match self {
            SmtOracle::Storm => storm::check(case, engines, opts),
            SmtOracle::Differential => differential::check(case, engines, opts),
            SmtOracle::Model => model::check(case, engines, helpers, opts),
            SmtOracle::Fusion => fusion::check(case, engines, opts),
            SmtOracle::Opfuzz => opfuzz::check(case, engines, opts),
        }
    }
}

/// What an SMT finding keeps besides its summary: the verdicts per engine, the check-sat they
/// concern, the options the solver ran with, a model and the assertion it violates.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Detail {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<(String, Vec<Verdict>)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_sat: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sat_by_construction: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assertion: Option<String>,
}

impl Detail {
    /// One engine's verdicts.
    pub(crate) fn answers(label: &str, answers: &[Verdict]) -> Detail {
        Detail { answers: vec![(label.to_string(), answers.to_vec())], ..Detail::default() }
    }

    pub(crate) fn into_core(self) -> crosscheck_core::Detail {
        crosscheck_core::Detail::of(&self)
    }
}

/// Logics with a decision procedure: `unknown` there (without a tactic) is a finding.
pub(crate) const DECIDABLE: &[&str] = &[
    "QF_LIA",
    "QF_LRA",
    "QF_BV",
    "QF_UF",
    "QF_AUFLIA",
    "QF_AX",
    "QF_ABV",
    "QF_AUFBV",
    "QF_UFBV",
    "QF_UFLIA",
    "QF_UFLRA",
    "QF_IDL",
    "QF_RDL",
    "QF_UFIDL",
    "QF_ALIA",
    "QF_FP",
    "QF_BVFP",
    "QF_LIRA",
    "QF_DT",
];

/// Substrings of solver messages that mean an internal failure, not a rejected input.
const INTERNAL: &[&str] = &[
    "ASSERTION VIOLATION",
    "Assertion failure",
    "assertion failed",
    "Fatal failure",
    "Internal error",
    "internal error",
    "UNREACHABLE",
    "NULL pointer",
    "Segmentation",
    "std::bad_alloc",
    "uncaught exception",
    "invalid model",
];

/// Common handling of one engine's outcome: `Err(check)` ends the oracle with that check.
pub(crate) fn verdicts_of(engine: &str, out: &Outcome, case: &SmtCase) -> Result<Vec<Verdict>, Check> {
    match out {
        Outcome::Verdicts { answers, .. } => {
            if answers.len() < case.check_sats() {
                return Err(Check::Skip(format!(
                    "{engine} gave {} answers for {} check-sat",
                    answers.len(),
                    case.check_sats()
                )));
            }
            Ok(answers.clone())
        }
        Outcome::Crash { .. } => Err(Check::finding(Evidence::crash(engine, out, crosscheck_core::Detail::none()))),
        Outcome::Timeout { .. } => Err(Check::Skip(format!("{engine}: timeout"))),
        Outcome::Error { message, .. } => {
            if INTERNAL.iter().any(|m| message.contains(m)) {
                let key: String = message.chars().filter(|c| !c.is_ascii_digit()).take(60).collect();
                Err(Check::finding(Evidence {
                    class: FindingClass::Error,
                    engines: vec![engine.to_string()],
                    summary: format!("{engine} reported an internal error"),
                    expected: "sat".into(),
                    actual: format!("error: {message}"),
                    key: format!("error:{key}"),
                    detail: crosscheck_core::Detail::none(),
                }))
            } else {
                Err(Check::Skip(format!("{engine}: {}", position_last(message))))
            }
        }
        other => Err(Check::Skip(format!("{engine}: unexpected outcome {other}"))),
    }
}

/// z3 starts an error with its position (`line 22 column 10: ...`): moved behind the message,
/// in parentheses, so that skips are counted by what went wrong rather than where.
fn position_last(message: &str) -> String {
    let split = message.strip_prefix("line ").and_then(|rest| rest.split_once(": "));
    match split {
        Some((pos, what)) if pos.contains(" column ") => format!("{what} (line {pos})"),
        _ => message.to_string(),
    }
}

pub(crate) fn run(engine: &mut dyn Engine, case: &SmtCase, opts: &CheckOptions) -> Outcome {
    let text = case.script_for(engine.info());
    let t = std::time::Instant::now();
    let out = engine.run(&text, opts.timeout);
    crate::budget::record(case, matches!(out, Outcome::Timeout { .. }), t.elapsed().as_secs_f64());
    if let Outcome::Error { message, .. } = &out {
        if !INTERNAL.iter().any(|m| message.contains(m)) {
            let info = engine.info();
            crate::rejected::record(case, &format!("{} {}", info.label, info.version), message);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_skip_is_counted_by_the_solver_message_not_its_position() {
        let moved = super::position_last("line 22 column 10: invalid model value");
        assert_eq!(moved, "invalid model value (line 22 column 10)");
        assert_eq!(crosscheck_core::worker::skip_key(&format!("z3: {moved}")), "z3: invalid model value");
        assert_eq!(super::position_last("unknown logic"), "unknown logic");
    }
}
