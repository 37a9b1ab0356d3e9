//! `summary` and `summary-bag`: the oracle of a test summary's test (`crosscheck summary
//! run`, seed 004). The expected answer comes from the summary's reference evaluator over the
//! case's own rows, never from an engine, so a case stays a test while the reducer shrinks it:
//! `crate::summary::case` reads the test back and refuses a candidate outside the fragment.
//! Answers compare as sets (`summary`, the seed's semantics) or as bags (`summary-bag`).
//!
//! Its cases come from a spec, not from the random generator: `crosscheck run` refuses it.

use super::{logic, render, OracleRules};
use crate::ast::{Expr, ToSql};
use crate::case::{Query, SqlCase};
use crate::dialect::Dialect;
use crate::exec::{dialect_of, rows_of};
use crate::exprgen::ExprGen;
use crate::summary::case::read;
use crate::summary::check::judge_rows;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo};

/// `summary` (`bag: false`) and `summary-bag`.
pub struct Summary {
    pub bag: bool,
}

impl OracleRules for Summary {
    fn validate(&self, _engines: &[EngineInfo]) -> Result<(), String> {
        Err("the summary oracle checks the tests of a spec: run them with `crosscheck summary run SPEC`".into())
    }

    fn shape(&self, _g: &mut ExprGen, _q: &mut Query, _depth: u32) {}

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        vec![("Q".to_string(), q.select.to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let test = match read(case, self.bag) {
            Ok(t) => t,
            Err(why) => return Check::Skip(format!("not a summary test: {why}")),
        };
        let (expected, exact) = match test.expected() {
            Ok(e) => e,
            Err(u) => return Check::Skip(format!("no single expected answer: {}", u.0)),
        };
        for e in engines.iter_mut() {
            let sql = case.query.select.to_sql(dialect_of(e.as_ref()));
            let actual = match rows_of(e.as_mut(), &sql, opts) {
                Ok(r) => r,
                Err(c) => return c,
            };
            if let Some(wrong) = judge_rows(&expected, &actual, exact) {
                let semantics = if exact { "bags" } else { "sets" };
                let what = format!("the answer differs from the expected one (compared as {semantics}): {wrong}");
                return logic(e.as_ref(), case.oracle, wrong.class(), render(&expected), render(&actual), what);
            }
        }
        Check::Pass { nonempty: !expected.is_empty() }
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        // What the fragment can hold, checked before an engine is asked: columns, aggregates and
        // comparisons with constants, no ORDER BY, LIMIT or compound.
        let s = &q.select;
        s.with.is_empty()
            && s.order_by.is_empty()
            && s.limit.is_none()
            && s.offset.is_none()
            && s.compound.is_empty()
            && s.slots().into_iter().all(fragment_expr)
    }
}

fn fragment_expr(e: &Expr) -> bool {
    match e {
        Expr::Col(_) | Expr::Lit(_) => true,
        Expr::Agg { arg, .. } => arg.as_deref().is_none_or(fragment_expr),
        Expr::Binary(_, a, b) => fragment_expr(a) && fragment_expr(b),
        _ => false,
    }
}
