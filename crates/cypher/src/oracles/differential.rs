//! `differential` (GDsmith's oracle): the same query on every engine, answers grouped by
//! agreement (`core::Groups`). An engine that errs where another answers is a finding of class
//! `error`; different answers are class `logic`.

use super::{dialect_of, run, same_rows, Ran};
use crate::model::Query;
use crate::{print, Case};
use crosscheck_core::groups::Differential;
use crosscheck_core::{Check, CheckOptions, Engine, Groups, Value};

/// How answers are compared for `q`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Bag,
    /// Under ORDER BY every returned column, with no null among them: every engine must give
    /// the same sequence.
    Sequence,
    /// A LIMIT under an order whose null placement engines choose differently: only the size.
    SizeOnly,
}

pub fn mode(q: &Query, answers: &[Ran]) -> Mode {
    let nulls = answers.iter().any(|a| matches!(a, Ran::Rows(r) if r.rows.iter().flatten().any(|v| *v == Value::Null)));
    match (q.ret.order && !nulls, q.ret.limit.is_some()) {
        (true, _) => Mode::Sequence,
        (false, true) => Mode::SizeOnly,
        (false, false) => Mode::Bag,
    }
}

/// Whether two answers agree under `mode`; two errors agree (their messages are the engines').
pub fn same(a: &Ran, b: &Ran, mode: Mode) -> bool {
    match (a, b) {
        (Ran::Error(_), Ran::Error(_)) => true,
        (Ran::Rows(x), Ran::Rows(y)) => match mode {
            Mode::SizeOnly => x.len() == y.len(),
            Mode::Bag => same_rows(x, y, false),
            Mode::Sequence => same_rows(x, y, true),
        },
        _ => false,
    }
}

/// Between two groups of rows, how the answer of the group named second (in the key's order)
/// relates to the first's: `subset` (rows missing), `superset` or `different`. It keeps a
/// reduction on its failure: in a two-engine bucket, which engine is wrong cannot be told, but
/// a case that loses rows does not reduce to one that adds them.
fn direction<'a>(groups: &Groups, answers: &[Ran], label: impl Fn(usize) -> &'a str) -> Option<&'static str> {
    let [a, b] = groups.0.as_slice() else { return None };
    let name = |g: &[usize]| g.iter().map(|&i| label(i)).collect::<Vec<_>>().join(", ");
    let (first, second) = if name(a) <= name(b) { (a[0], b[0]) } else { (b[0], a[0]) };
    let (Ran::Rows(x), Ran::Rows(y)) = (&answers[first], &answers[second]) else { return None };
    let rel = crosscheck_core::bag::diff(x, y, &super::compare_options()).relation();
    (rel != crosscheck_core::bag::Relation::Equal).then(|| rel.name())
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let mut answers = Vec::new();
    let mut labels = Vec::new();
    // Each engine's text: dialects write some constructs their own way.
    let mut texts: Vec<String> = Vec::new();
    for e in engines.iter_mut() {
        let text = print::query_in(&case.query, None, dialect_of(e.as_ref()));
        let ran = run(e.as_mut(), &case.query, &text, opts);
        if !texts.contains(&text) {
            texts.push(text);
        }
        match ran {
            Ok(a) => answers.push(a),
            Err(check) => return check,
        }
        labels.push(e.info().label.clone());
    }
    let mode = mode(&case.query, &answers);
    let relation = |g: &Groups| direction(g, &answers, |i| labels[i].as_str());
    let d =
        Differential { labels: &labels, answers: &answers, queries: texts, noun: "engine", mode: format!("{mode:?}") };
    d.verdict(|a, b| same(a, b, mode), super::message_key, relation)
}
