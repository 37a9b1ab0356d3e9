//! `equivalence`: GraphGenie's graph query transformations (`crate::transform`), on each
//! engine alone. The query and its transformation run on the same engine; the answers must
//! keep the transformation's relation — the same multiset, or a superset. An error on one of
//! the two only is a finding of class `error` (an engine that rejects both is skipped).

use super::{dialect_of, error_finding, run, Ran, Transcript};
use crate::dialect::Dialect;
use crate::transform::{Expect, Transform};
use crate::{print, Case};
use crosscheck_core::bag::{diff, Relation};
use crosscheck_core::{Check, CheckOptions, Detail, Engine, Evidence, FindingClass, Rows};

/// The original query and its transformation, printed as `d` writes them; `None` when the
/// transformation no longer applies (a reduction removed what it rewrites).
pub fn texts<'a>(case: &'a Case, d: Option<&dyn Dialect>) -> Option<(String, String, &'a Transform)> {
    let t = case.transform.as_ref()?;
    let transformed = t.apply(&case.query)?;
    Some((print::query_in(&case.query, None, d), print::query_in(&transformed, None, d), t))
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let Some((original, transformed, t)) = texts(case, dialect_of(e.as_ref())) else {
            return Check::Skip("no transformation applies to the query".into());
        };
        let label = e.info().label.clone();
        let mut answers = Vec::new();
        for text in [&original, &transformed] {
            match run(e.as_mut(), &case.query, text, opts) {
                Ok(a) => answers.push(a),
                Err(check) => return check,
            }
        }
        let queries = vec![original.clone(), transformed.clone()];
        let (a, b) = match (&answers[0], &answers[1]) {
            (Ran::Rows(a), Ran::Rows(b)) => (a, b),
            (Ran::Error(m), Ran::Error(_)) => return Check::Skip(format!("{label} rejects both queries: {m}")),
            (Ran::Error(m), _) | (_, Ran::Error(m)) => {
                return error_finding(&label, m, &Transcript { queries, answers: vec![] })
            }
        };
        nonempty |= !a.is_empty();
        if let Some(found) = broken(&label, t, a, b, queries) {
            return found;
        }
    }
    Check::Pass { nonempty }
}

/// The finding when the answers `a` (original) and `b` (transformed) break `t`'s relation.
fn broken(label: &str, t: &Transform, a: &Rows, b: &Rows, queries: Vec<String>) -> Option<Check> {
    let rel = diff(a, b, &super::compare_options()).relation();
    let holds = match t.expect() {
        Expect::Equal => rel == Relation::Equal,
        Expect::Superset => matches!(rel, Relation::Equal | Relation::Superset),
    };
    if holds {
        return None;
    }
    let want = match t.expect() {
        Expect::Equal => "the same rows",
        Expect::Superset => "a superset of its rows",
    };
    let answers = vec![(format!("{label} original"), a.render()), (format!("{label} {}", t.name()), b.render())];
    Some(Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: vec![label.to_string()],
        summary: format!(
            "{label}: the query returns {} row(s), its {} transformation {} ({}; it must return {want})",
            a.len(),
            t.name(),
            b.len(),
            rel.name()
        ),
        expected: a.render(),
        actual: b.render(),
        key: format!("equivalence:{}:{}", t.name(), rel.name()),
        detail: Detail::of(&Transcript { queries, answers }),
    }))
}
