//! The cross-engine oracle: the same query on every engine, each in its own dialect.
//!
//! Where engines may legally differ the generator does not go (capabilities), so every
//! difference that remains is a finding; an error a dialect expects on one engine only (an
//! overflow PostgreSQL reports and SQLite turns into a real) skips the check instead.

use super::{bool_as_int, OracleRules};
use crate::ast::ToSql;
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare_with, fold_flags, Fold};
use crate::dialect::Dialect;
use crate::exec::{dialect_of, exec};
use crate::exprgen::ExprGen;
use crate::gen::plain_items;
use crate::oracles::{render, Detail, EngineRows};
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, FindingClass, Groups, Rows};
use rand::Rng;

/// `differential`.
pub struct Differential;

impl OracleRules for Differential {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        if engines.len() < 2 {
            return Err("the differential oracle needs two or more engines (e.g. --engines sqlite,duckdb)".into());
        }
        Ok(())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        whole_query(g, q)
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        vec![("Q".to_string(), q.select.to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        differential(case, engines, opts)
    }
}

/// The query of an oracle that compares answers to the query itself: a select list, the
/// generated predicate as its WHERE clause, sometimes DISTINCT.
pub(super) fn whole_query(g: &mut ExprGen, q: &mut Query) {
    let n = g.rng.gen_range(1..=3);
    q.select.items = plain_items(g, n);
    q.select.where_ = q.pred.take();
    if g.rng.gen_bool(0.2) {
        q.select.distinct = true;
    }
    crate::inner::whole_tail(g, q);
}

/// The same query on every engine; engines are grouped by answer.
fn differential(case: &SqlCase, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
    let mut results: Vec<(String, Rows)> = Vec::new();
    for e in engines.iter_mut() {
        let sql = case.query.select.to_sql(dialect_of(e.as_ref()));
        match exec(e.as_mut(), &sql, o) {
            Ok(r) => results.push((e.info().label.clone(), r.unwrap_or_default())),
            Err(c) => return c,
        }
    }
    let Some(first) = results.first() else { return Check::Skip("no engine".into()) };
    // Engines of one run share their collations (`collation::available`), so one engine's rules
    // read them for all.
    let colls = match engines.first() {
        Some(e) => Collations::new(&case.setup).under(dialect_of(e.as_ref())),
        None => Collations::new(&case.setup),
    };
    let fold = fold_flags(&colls, &case.query.select, &first.1);
    let groups = Groups::of(&results, |a, b| compare_with(&a.1, &b.1, &fold, &bool_as_int()).is_none());
    if groups.agree() {
        return Check::Pass { nonempty: !first.1.is_empty() };
    }
    let label = |i: usize| results[i].0.as_str();
    let key = groups.sorted_names(label, ", ");
    let d = disagreement(&results, &groups, &fold);
    Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: key.clone(),
        summary: format!("engines disagree: {}", d.summary),
        expected: d.expected,
        actual: d.actual,
        key: format!("differential:{}:{}", key.join("|"), d.how),
        detail: crosscheck_core::Detail::of(&Detail {
            results: results.iter().map(|(l, r)| EngineRows { engine: l.clone(), rows: render(r) }).collect(),
            ..Detail::default()
        }),
    })
}

/// What answers that disagree say: who answered what, the majority's answer as the expected
/// one (none without a majority: the first engine or the default setting is no more right
/// than the other), and which way the first other answer differs from the majority's.
pub(super) struct Disagreement {
    pub summary: String,
    pub expected: String,
    pub actual: String,
    /// `subset` (rows missing), `superset`, `different`, or `order`.
    pub how: &'static str,
}

pub(super) fn disagreement(results: &[(String, Rows)], groups: &Groups, fold: &Fold) -> Disagreement {
    let label = |i: usize| results[i].0.as_str();
    let rows = |g: usize| &results[groups.0[g][0]].1;
    let reference = groups.majority().unwrap_or(0);
    let other = (0..groups.0.len()).find(|&g| g != reference).unwrap_or(reference);
    let how = compare_with(rows(reference), rows(other), fold, &bool_as_int()).map_or("order", |d| d.relation().name());
    let (expected, actual) = groups.expected_actual(label, |i| render(&results[i].1));
    Disagreement { summary: groups.summary(label, |i| format!("{} row(s)", results[i].1.len())), expected, actual, how }
}
