//! What an engine answered: rows, a solver verdict, an error, a timeout or a crash.
//!
//! Engine misbehaviour is data, never a Rust `Err`: oracles and the store look at it.

use crate::bag::Rows;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A solver's answer to one `check-sat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Sat,
    Unsat,
    Unknown,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Sat => "sat",
            Verdict::Unsat => "unsat",
            Verdict::Unknown => "unknown",
        })
    }
}

/// Whether an engine error was foreseeable for the statement that caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    /// Listed for the dialect (a type error, a constraint violation...): the test is skipped.
    Expected,
    /// Not listed: an unexpected-error finding.
    Unexpected,
    /// Not classified yet (the engine layer does not know the dialect's list).
    Unclassified,
}

/// The result of running one statement, query or script on an engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// A statement that returns nothing ran successfully.
    Done,
    Rows(Rows),
    /// One answer per `check-sat` (several in incremental mode), and the model text if asked.
    Verdicts {
        answers: Vec<Verdict>,
        model: Option<String>,
    },
    Error {
        message: String,
        class: ErrorClass,
    },
    Timeout {
        after_ms: u64,
    },
    /// The engine process died (or, in process, the worker did).
    Crash {
        signal: Option<i32>,
        code: Option<i32>,
        stderr_tail: String,
    },
}

impl Outcome {
    pub fn error(message: impl Into<String>) -> Outcome {
        Outcome::Error { message: message.into(), class: ErrorClass::Unclassified }
    }

    pub fn rows(&self) -> Option<&Rows> {
        match self {
            Outcome::Rows(r) => Some(r),
            _ => None,
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Error { .. })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Done => f.write_str("ok"),
            Outcome::Rows(r) => write!(f, "{} row(s)", r.rows.len()),
            Outcome::Verdicts { answers, .. } => {
                let a: Vec<String> = answers.iter().map(|v| v.to_string()).collect();
                f.write_str(&a.join(" "))
            }
            Outcome::Error { message, .. } => write!(f, "error: {message}"),
            Outcome::Timeout { after_ms } => write!(f, "timeout after {after_ms} ms"),
            Outcome::Crash { signal, code, .. } => match (signal, code) {
                (Some(s), _) => write!(f, "crash (signal {s})"),
                (None, Some(c)) => write!(f, "crash (exit code {c})"),
                _ => f.write_str("crash"),
            },
        }
    }
}
