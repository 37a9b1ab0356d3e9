//! EET (equivalent expression transformation, Jiang and Su, OSDI 2024): expressions of a query
//! are rewritten into equivalent ones by the paper's rules (its Table 2, as SQLancer's
//! `EETTransformer` applies them), and the rewritten query must answer the same bag of rows.
//! With `p` a predicate, `true(p)` is `(p OR NOT p) OR p IS NULL` and `false(p)` is
//! `(p AND NOT p) AND p IS NOT NULL`, TRUE and FALSE for every value of `p` in three-valued
//! logic (and for any value SQLite and MariaDB read as a truth value: NOT gives the opposite
//! truth of every non-NULL value):
//!
//! 1. `e` → `false(p) OR e` and 2. `e` → `true(p) AND e`, only where `e` is read for its truth
//!    alone (WHERE, ON, the operands of AND, OR and NOT, a CASE condition, `IS [NOT] TRUE`):
//!    elsewhere they would turn SQLite's and MariaDB's `3` into `1`;
//! 3. `e` → `CASE WHEN false(p) THEN e ELSE e END`, 4. the same with `true(p)`, and 5.
//!    `CASE WHEN p THEN e ELSE e END`, anywhere `e`'s value and type survive a CASE: never a
//!    bare NULL (a CASE of NULLs is TEXT in PostgreSQL) nor, outside a truth context, a literal
//!    (whose type PostgreSQL and DuckDB infer from its context, and a CASE fixes); in SQLite
//!    not a column, CAST (also the CAST a JSON read is printed as), `+x` or scalar subquery,
//!    which carry an affinity, nor anything holding
//!    a COLLATE, whose collation a CASE may not pass on
//!    (<https://sqlite.org/datatype3.html#affinity_of_expressions>,
//!    <https://sqlite.org/datatype3.html#collation>); in MariaDB not a CAST, since 10.11
//!    compares a number with a CAST constant as integers (`3 = CAST('3.25' AS CHAR)` holds).
//!
//! `p` is a predicate of the query itself (a comparison or other condition without subquery or
//! aggregate), or `c IS NULL` for one of its columns. The rules apply at the root of the WHERE
//! clause and of each select item (not join conditions, where a `p` naming a later table
//! would not resolve), and at up to [`BUDGET`] nodes below, each
//! copy of `e` rewritten alike. The choices are drawn from a hash of the query, so every
//! engine, and a reproducer, gets the same rewriting.

use super::{bool_as_int, differential, logic, on_each_engine, render, OracleRules};
use crate::ast::{BinOp, Expr, Func, Lit, PostOp, Select, ToSql, UnOp};
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare_with, fold_flags};
use crate::dialect::{cap, Dialect, Sqlite};
use crate::exprgen::ExprGen;
use crosscheck_core::{Check, CheckOptions, Engine, Rows};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// `eet`.
pub struct Eet;

/// Nodes rewritten below the roots: each rewriting copies its operand, so the query's size
/// grows with every one.
pub const BUDGET: usize = 3;

impl OracleRules for Eet {
    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        differential::whole_query(g, q)
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        vec![("Q".to_string(), q.select.to_sql(d)), ("transformed".to_string(), transformed(&q.select, d).to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge(case, e, results))
    }
}

fn judge(case: &SqlCase, e: &dyn Engine, results: &[Rows]) -> Result<bool, Check> {
    let (q, t) = (&results[0], &results[1]);
    let colls = Collations::new(&case.setup).under(crate::exec::dialect_of(e));
    let fold = fold_flags(&colls, &case.query.select, q);
    match compare_with(q, t, &fold, &bool_as_int()) {
        None => Ok(!q.is_empty()),
        Some(diff) => {
            let how = diff.relation().name();
            let summary =
                format!("the query returns {} row(s), its equivalent transformation {} ({how})", q.len(), t.len());
            Err(logic(e, case.oracle, &format!("eet:{how}"), render(q), render(t), summary))
        }
    }
}

/// FNV-1a of the query as SQLite prints it: the seed of its rewriting, the same in every
/// dialect and build.
fn seed_of(s: &Select) -> u64 {
    s.to_sql(&Sqlite).bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The query with its expressions rewritten by the rules, for dialect `d`.
pub fn transformed(s: &Select, d: &dyn Dialect) -> Select {
    let mut rng = crosscheck_core::rng(seed_of(s), 0);
    let preds = predicates(s);
    let mut t = Rewriter { rng: &mut rng, d, preds, budget: BUDGET };
    let mut out = s.clone();
    for item in &mut out.items {
        item.expr = t.node(&item.expr, false, true);
    }
    super::order_follows_items(s, &mut out);
    if let Some(w) = &s.where_ {
        out.where_ = Some(t.node(w, true, true));
    }
    out
}

/// The conditions of the query that may serve as `p`: outside subqueries (whose columns the
/// outer query cannot name), without subquery or aggregate, so that `p` reads only the current
/// row.
fn predicates(s: &Select) -> Vec<Expr> {
    fn walk(x: &Expr, conds: &mut Vec<Expr>, cols: &mut Vec<Expr>) {
        if let Expr::Col(_) = x {
            cols.push(x.clone());
        }
        let mut plain = true;
        x.visit(&mut |y| plain &= y.subquery().is_none() && !matches!(y, Expr::Agg { .. }));
        if is_condition(x) && plain {
            conds.push(x.clone());
        }
        for c in x.children() {
            walk(c, conds, cols);
        }
    }
    let (mut conds, mut cols) = (Vec::new(), Vec::new());
    for e in s.slots() {
        walk(e, &mut conds, &mut cols);
    }
    conds.extend(cols.into_iter().take(2).map(Expr::is_null));
    conds
}

/// A comparison or another boolean operator by its form.
fn is_condition(e: &Expr) -> bool {
    use BinOp::*;
    match e {
        Expr::Binary(op, ..) => {
            matches!(op, Eq | Ne | Lt | Le | Gt | Ge | Is | IsNot | Like | NotLike | Glob | NotGlob)
        }
        Expr::Postfix(..) | Expr::Between { .. } | Expr::InList { .. } => true,
        _ => false,
    }
}

struct Rewriter<'a> {
    rng: &'a mut ChaCha8Rng,
    d: &'a dyn Dialect,
    preds: Vec<Expr>,
    budget: usize,
}

impl Rewriter<'_> {
    /// `e` with its children rewritten, then a rule applied to it (always where `force`).
    /// `truth`: `e` is read for its truth alone.
    fn node(&mut self, e: &Expr, truth: bool, force: bool) -> Expr {
        let mut out = e.clone();
        let truth_children = match e {
            Expr::Binary(BinOp::And | BinOp::Or, ..) | Expr::Unary(UnOp::Not, _) => true,
            Expr::Postfix(op, _) => {
                matches!(op, PostOp::IsTrue | PostOp::IsFalse | PostOp::IsNotTrue | PostOp::IsNotFalse)
            }
            _ => false,
        };
        let conditions = case_conditions(e);
        // Aggregates' arguments and subqueries are left alone.
        if !matches!(e, Expr::Agg { .. }) {
            for (i, c) in out.children_mut().into_iter().enumerate() {
                *c = self.node(c, truth_children || conditions.contains(&i), false);
            }
        }
        if !force {
            if self.budget == 0 || !self.rng.gen_bool(0.5) {
                return out;
            }
            self.budget -= 1;
        }
        self.rule(out, truth)
    }

    fn rule(&mut self, e: Expr, truth: bool) -> Expr {
        let case_ok = if truth {
            !matches!(e, Expr::Lit(Lit::Null)) && context_free(&e, self.d)
        } else {
            keeps_value_in_case(&e, self.d)
        };
        let rules: &[u8] = match (truth, case_ok) {
            (true, true) => &[1, 2, 3, 4, 5],
            (true, false) => &[1, 2],
            (false, true) => &[3, 4, 5],
            (false, false) => return e,
        };
        let Some(p) = self.preds.choose(self.rng).cloned() else { return e };
        let case = |when: Expr, e: Expr| Expr::Case {
            operand: None,
            whens: vec![(when, e.clone())],
            otherwise: Some(Box::new(e)),
        };
        match rules.choose(self.rng).copied().unwrap_or(5) {
            1 => Expr::bin(BinOp::Or, always_false(p), e),
            2 => Expr::bin(BinOp::And, always_true(p), e),
            3 => case(always_false(p), e),
            4 => case(always_true(p), e),
            _ => case(p, e),
        }
    }
}

/// `(p OR NOT p) OR p IS NULL`.
fn always_true(p: Expr) -> Expr {
    let either = Expr::bin(BinOp::Or, p.clone(), Expr::negate(p.clone()));
    Expr::bin(BinOp::Or, either, Expr::is_null(p))
}

/// `(p AND NOT p) AND p IS NOT NULL`.
fn always_false(p: Expr) -> Expr {
    let both = Expr::bin(BinOp::And, p.clone(), Expr::negate(p.clone()));
    Expr::bin(BinOp::And, both, Expr::post(PostOp::NotNull, p))
}

/// The positions, among a searched CASE's children, of its conditions.
fn case_conditions(e: &Expr) -> Vec<usize> {
    match e {
        Expr::Case { operand: None, whens, .. } => (0..whens.len()).map(|i| 2 * i).collect(),
        _ => Vec::new(),
    }
}

/// Whether `CASE WHEN c THEN e ELSE e END` has `e`'s value and type in the dialect (see the
/// module's comment).
fn keeps_value_in_case(e: &Expr, d: &dyn Dialect) -> bool {
    // A CASE returns one value, never a row value ("row value misused").
    if matches!(e, Expr::Lit(_) | Expr::Row(_)) {
        return false;
    }
    if d.has_cap(cap::UNTYPED) {
        let mut collated = false;
        e.visit(&mut |x| collated |= matches!(x, Expr::Collate(..)));
        // SQLite's JSON reads are printed as CASTs to TEXT (`Dialect::json_value`, `typed`).
        let affinity = matches!(
            e,
            Expr::Col(_)
                | Expr::Cast(..)
                | Expr::Subquery(_)
                | Expr::Unary(UnOp::Pos, _)
                | Expr::Func(Func::JsonValue | Func::JsonArrayGet, _)
        );
        return !collated && !affinity;
    }
    !(d.has_cap(cap::LOOSE_MARIADB) && matches!(e, Expr::Cast(..))) && context_free(e, d)
}

/// Whether `e` has one value wherever it is read: not where a scalar max/min's value, which
/// MariaDB compares by the context it is read in, passes through (`cap::CONTEXT_FREE_MAX_MIN`).
fn context_free(e: &Expr, d: &dyn Dialect) -> bool {
    d.has_cap(cap::CONTEXT_FREE_MAX_MIN) || !yields_max_min(e)
}

/// Whether `e`'s value may be a scalar max/min's, passed through unchanged (so that the
/// context it is read in reaches the max/min).
fn yields_max_min(e: &Expr) -> bool {
    match e {
        Expr::Func(Func::Max | Func::Min, _) => true,
        Expr::Func(Func::Nullif, args) => args.first().is_some_and(yields_max_min),
        Expr::Func(Func::Coalesce | Func::Ifnull, args) => args.iter().any(yields_max_min),
        Expr::Func(Func::Iif, args) => args.iter().skip(1).any(yields_max_min),
        Expr::Case { whens, otherwise, .. } => {
            whens.iter().map(|(_, then)| then).chain(otherwise.as_deref()).any(yields_max_min)
        }
        _ => false,
    }
}
