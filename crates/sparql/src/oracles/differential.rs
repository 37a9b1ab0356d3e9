//! `differential` (RD²'s oracle): the same query on every store, answers normalized and
//! grouped by agreement (`core::Groups`). A store that errs where another answers is a
//! finding of class `error`; different answers are class `logic`.

use super::{answer, Ran};
use crate::model::{Case, Query};
use crate::normalize::{column_ordered, columns, compare, Column, Norm};
use crate::print;
use crosscheck_core::groups::Differential;
use crosscheck_core::{Check, CheckOptions, Engine};

/// How answers are compared for `q`: as sequences only under a total ORDER BY whose columns
/// SPARQL orders; a LIMIT/OFFSET window under any other order is compared by size alone.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Bag,
    Sequence,
    SizeOnly,
}

///
/// Under a LIMIT/OFFSET window the rows a store returned may be too few to show that a
/// column mixes types (one row is always "ordered"), so `unwindowed`, one store's answer to
/// the query without its window, must be ordered too.
pub fn mode(q: &Query, answers: &[Ran], unwindowed: Option<&Ran>) -> Mode {
    // A GROUP_CONCAT or AVG column is compared settled (`normalize::settle`), but the store
    // sorted by what it returned: rows equal when settled may be apart when sorted.
    let settled = columns(q).iter().any(|c| *c != Column::Term);
    let specified = q.total_order()
        && !settled
        && answers.iter().chain(unwindowed).all(|a| match a {
            Ran::Rows(r) => (0..q.project.len()).all(|c| column_ordered(r, c)),
            Ran::Error(_) => true,
        });
    match (specified, q.limit.is_some() || q.offset.is_some()) {
        (true, _) => Mode::Sequence,
        (false, true) => Mode::SizeOnly,
        (false, false) => Mode::Bag,
    }
}

/// The answer of `e` to the case's query without its LIMIT and OFFSET, when it has them
/// under a total order (what [`mode`] needs to trust the order of a window).
pub fn unwindowed(case: &Case, e: &mut dyn Engine, opts: &CheckOptions) -> Result<Option<Ran>, Check> {
    let q = &case.query;
    if !q.total_order() || q.limit.is_none() && q.offset.is_none() {
        return Ok(None);
    }
    let whole = Case { query: Query { limit: None, offset: None, ..q.clone() }, ..case.clone() };
    let text = print::query(&whole.graph, &whole.query, None);
    answer(e, &whole, &text, opts, Norm::default(), false).map(Some)
}

/// Whether two answers agree under `mode`; two errors agree (their messages are the stores').
pub fn same(a: &Ran, b: &Ran, mode: Mode) -> bool {
    match (a, b) {
        (Ran::Error(_), Ran::Error(_)) => true,
        (Ran::Rows(x), Ran::Rows(y)) => match mode {
            Mode::SizeOnly => x.len() == y.len(),
            Mode::Bag => compare(x, y, false).is_empty(),
            Mode::Sequence => compare(x, y, true).is_empty(),
        },
        _ => false,
    }
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions, norm: Norm) -> Check {
    let text = print::query(&case.graph, &case.query, None);
    let mut answers = Vec::new();
    let mut labels = Vec::new();
    for e in engines.iter_mut() {
        match answer(e.as_mut(), case, &text, opts, norm, true) {
            Ok(a) => answers.push(a),
            Err(check) => return check,
        }
        labels.push(e.info().label.clone());
    }
    let full = match engines.first_mut() {
        Some(e) => match unwindowed(case, e.as_mut(), opts) {
            Ok(f) => f,
            Err(check) => return check,
        },
        None => None,
    };
    let mode = mode(&case.query, &answers, full.as_ref());
    let d = Differential {
        labels: &labels,
        answers: &answers,
        queries: vec![text],
        noun: "store",
        mode: format!("{mode:?}"),
    };
    d.verdict(|a, b| same(a, b, mode), super::message_key, |_| None)
}
