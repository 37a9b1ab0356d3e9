//! Judging an engine's answer against the evaluator's expected output, and the self-contained
//! reproducer of a mismatch (the schema, the database, the query, expected and actual as
//! comments), printed in the engine's own dialect.

use super::data::Universe;
use super::tree::{schema, Expected};
use super::Summary;
use crate::dialect::Dialect;
use crate::print::ToSql;
use crosscheck_core::bag::diff;
use crosscheck_core::{CompareOptions, Outcome, Rows, Value};
// Writing into a String cannot fail.
use std::fmt::Write as _;

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
    let opts = CompareOptions::default();
    match outcome {
        Outcome::Rows(actual) => {
            let d = if exact {
                diff(expected, actual, &opts)
            } else {
                diff(&as_set(expected, &opts), &as_set(actual, &opts), &opts)
            };
            (!d.is_empty()).then_some(Wrong::Rows { missing: d.missing.len(), extra: d.extra.len() })
        }
        Outcome::Error { message, .. } => Some(Wrong::Error { message: message.clone() }),
        other => Some(Wrong::Lost { what: other.to_string() }),
    }
}

fn show(rows: &Rows) -> String {
    let cells: Vec<String> =
        rows.rows.iter().map(|r| r.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ")).collect();
    if cells.is_empty() {
        "(no rows)".into()
    } else {
        cells.iter().map(|c| format!("({c})")).collect::<Vec<_>>().join(" ")
    }
}

/// A script the engine's own client runs: schema, rows, query, with what was expected and
/// what the engine answered as comments.
pub fn reproducer(
    summary: &Summary,
    universe: &Universe<'_>,
    exp: &Expected,
    outcome: &Outcome,
    engine: &str,
    d: &dyn Dialect,
) -> String {
    let mut out = format!("-- crosscheck summary: a wrong answer of {engine}\n");
    for s in schema(summary) {
        out.push_str(&s.to_sql(d));
        out.push_str(";\n");
    }
    for &r in &exp.db {
        out.push_str(&universe.insert(r).to_sql(d));
        out.push_str(";\n");
    }
    let q = summary.queries()[exp.query];
    out.push_str(&q.to_select(&summary.spec).to_sql(d));
    out.push_str(";\n");
    let semantics = if summary.spec.output.bag { "bag" } else { "set" };
    let _ = writeln!(out, "-- expected ({semantics} semantics): {}", show(&exp.rows));
    let actual = match outcome {
        Outcome::Rows(r) => show(r),
        other => other.to_string(),
    };
    let _ = writeln!(out, "-- {engine} answered: {actual}");
    out
}
