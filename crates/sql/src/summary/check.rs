//! Judging an engine's answer against the evaluator's expected output (the reproducer of a
//! wrong answer is the leg's own, through the `summary` oracle: `super::case`).

use crosscheck_core::bag::diff;
use crosscheck_core::{CompareOptions, Outcome, Rows, Value};

/// Why an answer is wrong.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "class", rename_all = "snake_case")]
pub enum Wrong {
    /// Rows missing from or extra in the answer.
    Rows { missing: usize, extra: usize },
    /// The engine refused a query that has an answer.
    Error { message: String },
    /// No answer: a timeout or a crash.
    Lost { what: String },
}

impl Wrong {
    /// The class a finding is deduplicated by, with the query.
    pub fn class(&self) -> &'static str {
        match self {
            Wrong::Rows { missing: _, extra: 0 } => "missing-rows",
            Wrong::Rows { missing: 0, .. } => "extra-rows",
            Wrong::Rows { .. } => "wrong-rows",
            Wrong::Error { .. } => "error",
            Wrong::Lost { .. } => "lost",
        }
    }
}

impl std::fmt::Display for Wrong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Wrong::Rows { missing, extra } => write!(f, "{missing} rows missing, {extra} extra"),
            Wrong::Error { message } => write!(f, "an error: {message}"),
            Wrong::Lost { what } => write!(f, "no answer: {what}"),
        }
    }
}

/// Rows with duplicates removed, first occurrences kept (set semantics: the seed's answers
/// are Alloy sets); duplicates are judged by the comparison's canonical forms.
pub(super) fn distinct(rows: Vec<Vec<Value>>, opts: &CompareOptions) -> Vec<Vec<Value>> {
    let mut seen = std::collections::HashSet::new();
    rows.into_iter().filter(|r| seen.insert(r.iter().map(|v| v.canon(opts)).collect::<Vec<_>>())).collect()
}

fn as_set(rows: &Rows, opts: &CompareOptions) -> Rows {
    Rows::new(rows.columns.clone(), distinct(rows.rows.clone(), opts))
}

/// `None` when `outcome` is the expected answer: as bags when `exact` (bag semantics, or an
/// answer SQL keeps free of duplicates), else as sets.
pub fn judge(expected: &Rows, outcome: &Outcome, exact: bool) -> Option<Wrong> {
    match outcome {
        Outcome::Rows(actual) => judge_rows(expected, actual, exact),
        Outcome::Error { message, .. } => Some(Wrong::Error { message: message.clone() }),
        other => Some(Wrong::Lost { what: other.to_string() }),
    }
}

/// [`judge`] of an answer that has rows.
pub fn judge_rows(expected: &Rows, actual: &Rows, exact: bool) -> Option<Wrong> {
    let opts = CompareOptions::default();
    let d = if exact {
        diff(expected, actual, &opts)
    } else {
        diff(&as_set(expected, &opts), &as_set(actual, &opts), &opts)
    };
    (!d.is_empty()).then_some(Wrong::Rows { missing: d.missing.len(), extra: d.extra.len() })
}
