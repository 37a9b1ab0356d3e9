//! Ternary Logic Partitioning as SQLancer defines it: a query `Q` and the same query restricted
//! by `p`, `NOT p` and `p IS NULL` must agree, in the WHERE clause (`tlp-where`, and with
//! DISTINCT or GROUP BY folding the union: `tlp-distinct`, `tlp-group-by`), in HAVING
//! (`tlp-having`), and for an aggregate recombined over the partitions (`tlp-aggregate`).
//! `tlp` picks one variant per case.
//!
//! Every partition runs as its own query (SQLancer unions them into one when it can): a fault
//! that drops or duplicates one row per result then shows up as a count mismatch.

use super::{logic, on_each_engine, render, Keep, OracleRules, SqlOracle};
use crate::ast::{Agg, BinOp, Collation, Expr, Func, Item, Lit, Order, Select, SqlType, ToSql};
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare, dedup, fold_flags, Fold};
use crate::dialect::{cap, Caps, Dialect};
use crate::exec::dialect_of;
use crate::exprgen::ExprGen;
use crate::gen::{column_or, expr_type, plain_items};
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Outcome, Rows, Value};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The variants `tlp` chooses among, in the order of the generator's draw.
pub const VARIANTS: &[SqlOracle] = &[
    SqlOracle::TlpWhere,
    SqlOracle::TlpDistinct,
    SqlOracle::TlpGroupBy,
    SqlOracle::TlpHaving,
    SqlOracle::TlpAggregate,
];

/// `tlp`: one of the variants per case. The case holds the variant, so only the generator
/// asks `Any`; the rest of its rules are `tlp-where`'s.
pub struct Any;
/// `tlp-where`.
pub struct Where;
/// `tlp-distinct`.
pub struct Distinct;
/// `tlp-group-by`.
pub struct GroupBy;
/// `tlp-having`.
pub struct Having;
/// `tlp-aggregate`.
pub struct Aggregate;

impl OracleRules for Any {
    fn resolve(&self, rng: &mut ChaCha8Rng, caps: &Caps) -> Option<SqlOracle> {
        Some(match VARIANTS[rng.gen_range(0..VARIANTS.len())] {
            // Same draw either way, so runs with UNION ALL keep their stream.
            SqlOracle::TlpAggregate if !caps.has(cap::UNION_ALL) => SqlOracle::TlpWhere,
            v => v,
        })
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, depth: u32) {
        Where.shape(g, q, depth)
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        Where.plan(q, d)
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        Where.check(case, engines, opts)
    }

    fn keep(&self, q: &Query) -> Keep {
        Where.keep(q)
    }
}

impl OracleRules for Where {
    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        let n = g.rng.gen_range(0..=3);
        q.select.items = plain_items(g, n);
        if g.rng.gen_bool(0.2) {
            q.select.order_by =
                q.select.items.iter().map(|i| Order { expr: i.expr.clone(), desc: g.rng.gen() }).collect();
        }
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        where_plan(q, d)
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge_partitions(case, e, results, false, false))
    }

    fn keep(&self, _q: &Query) -> Keep {
        // `SELECT *` is a fine TLP-WHERE query.
        Keep { min_items: Some(0), ..Keep::default() }
    }
}

impl OracleRules for Distinct {
    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        let n = g.rng.gen_range(1..=2);
        q.select.items = plain_items(g, n);
        q.select.distinct = true;
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        where_plan(q, d)
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge_partitions(case, e, results, true, true))
    }

    fn keep(&self, _q: &Query) -> Keep {
        Keep { distinct: true, ..Keep::default() }
    }
}

impl OracleRules for GroupBy {
    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        let n = g.rng.gen_range(1..=2);
        q.select.items = plain_items(g, n);
        q.select.group_by = q.select.items.iter().map(|i| i.expr.clone()).collect();
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        where_plan(q, d)
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge_partitions(case, e, results, true, true))
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        let s = &q.select;
        s.items.iter().map(|i| &i.expr).eq(s.group_by.iter())
    }

    fn keep(&self, _q: &Query) -> Keep {
        Keep { group_by: true, items_are_keys: true, ..Keep::default() }
    }
}

impl OracleRules for Having {
    fn shape(&self, g: &mut ExprGen, q: &mut Query, depth: u32) {
        let keys = having_keys(g);
        let select = &mut q.select;
        select.group_by = keys.iter().map(|i| i.expr.clone()).collect();
        if g.rng.gen_bool(0.3) {
            select.where_ = Some(g.predicate(1));
        }
        // HAVING and the select list may name only group keys and aggregates: any other
        // column would take its value from an arbitrary row of the group.
        let typed: Vec<(Expr, Option<SqlType>)> =
            select.group_by.iter().map(|e| (e.clone(), expr_type(g.env, &g.scope, e))).collect();
        // Where HAVING cannot name a column inside a key expression (MariaDB), such keys stay
        // out of the predicate and the select list's aggregate; aggregates and literals remain.
        let nameable = |(e, _): &(Expr, Option<SqlType>)| matches!(e, Expr::Col(_));
        let typed =
            if g.env.caps.has(cap::HAVING_GROUP_EXPR) { typed } else { typed.into_iter().filter(nameable).collect() };
        g.group_keys = Some(typed);
        g.aggregates = true;
        g.subqueries = false;
        let mut items = keys;
        let t = g.any_type();
        items.push(Item { expr: g.aggregate(t, 1), alias: None });
        select.items = items;
        q.pred = Some(g.predicate(depth.min(2)));
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        let s = &q.select;
        let p = q.pred.clone().unwrap_or(Expr::Lit(Lit::Bool(true)));
        let mut out = vec![("Q".to_string(), s.to_sql(d))];
        for (label, part) in ["p", "NOT p", "p IS NULL"].iter().zip(partitions(&p)) {
            let mut h = s.clone();
            h.having = Some(part);
            out.push((format!("Q HAVING {label}"), h.to_sql(d)));
        }
        out
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge_partitions(case, e, results, true, false))
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        let s = &q.select;
        !s.group_by.is_empty()
            && s.items.iter().all(|i| grouped_ok(&i.expr, &s.group_by))
            && q.pred.as_ref().is_none_or(|p| grouped_ok(p, &s.group_by))
    }

    fn keep(&self, _q: &Query) -> Keep {
        Keep { group_by: true, min_items: None, ..Keep::default() }
    }
}

/// The group keys of a `tlp-having` query. SQLite may evaluate a HAVING term on group keys row
/// by row (it moves such terms into WHERE), so keys must have no distinguishable equal
/// members: exact columns.
fn having_keys(g: &mut ExprGen) -> Vec<Item> {
    let exact: Vec<Expr> = g
        .scope
        .iter()
        .filter(|sc| g.env.tables[sc.table].columns[sc.column].exact)
        .map(|sc| Expr::col(&sc.visible, &g.env.tables[sc.table].columns[sc.column].name))
        .collect();
    if exact.is_empty() {
        // No such column: group by its text, which has no collation and no two spellings.
        let c = column_or(g, Expr::Lit(Lit::Int(0)));
        let key = Expr::bin(BinOp::Concat, Expr::Cast(Box::new(c), SqlType::Text), Expr::Lit(Lit::Text(String::new())));
        vec![Item { expr: key, alias: None }]
    } else {
        let n = g.rng.gen_range(1..=2.min(exact.len()));
        exact.choose_multiple(g.rng, n).cloned().map(|expr| Item { expr, alias: None }).collect()
    }
}

impl OracleRules for Aggregate {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        match engines.iter().find(|e| !crate::run_caps(std::slice::from_ref(e)).has(cap::UNION_ALL)) {
            Some(e) => Err(format!(
                "tlp-aggregate unions its partitions with UNION ALL, which {} lacks (plain `tlp` skips that variant)",
                e.label
            )),
            None => Ok(()),
        }
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        let t = g.any_type();
        let arg = g.expr(t, 1);
        let mut func = *[Agg::Min, Agg::Max, Agg::Sum, Agg::Count].choose(g.rng).unwrap_or(&Agg::Count);
        if !g.env.caps.has_agg(func, t) {
            // A dialect without `func(t)` (PostgreSQL's min(boolean)) counts instead; no draw,
            // so dialects that take every type keep their stream.
            func = Agg::Count;
        }
        let arg = match func {
            Agg::Count if g.rng.gen() => None,
            // An explicit collation makes the inner and the outer MIN/MAX compare alike.
            // Outside SQLite a COLLATE takes text only ("collations are only supported for type
            // varchar" in DuckDB).
            Agg::Min | Agg::Max
                if g.env.collations.len() > 1 && (g.env.caps.has(cap::SQLITE_COLLATIONS) || t == SqlType::Text) =>
            {
                let c = *g.env.collations.choose(g.rng).unwrap_or(&Collation::Binary);
                Some(Box::new(Expr::Collate(Box::new(arg), c)))
            }
            _ => Some(Box::new(arg)),
        };
        q.select.items = vec![Item { expr: Expr::Agg { func, distinct: false, arg }, alias: Some("agg".into()) }];
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        let s = &q.select;
        let p = q.pred.clone().unwrap_or(Expr::Lit(Lit::Bool(true)));
        let mut out = vec![("Q".to_string(), s.to_sql(d))];
        // The partitions share the query's WITH, written once in front of the outer query: a
        // WITH inside a UNION ALL member does not parse.
        let parts: Vec<String> = partitions(&p)
            .into_iter()
            .map(|part| {
                let mut body = String::new();
                with_where(s, part).write_body(d, &mut body);
                body
            })
            .collect();
        let mut with = String::new();
        crate::print::write_with(&s.with, d, &mut with);
        let (outer, collate) = match s.items.first().map(|i| &i.expr) {
            Some(Expr::Agg { func, arg, .. }) => (
                match func {
                    Agg::Count => "SUM",
                    other => other.name(),
                },
                // The outer MIN or MAX compares as the inner one did; a count is a number.
                match (func, arg.as_deref()) {
                    (Agg::Min | Agg::Max, Some(Expr::Collate(_, c))) => format!(" COLLATE {}", d.collation_name(*c)),
                    _ => String::new(),
                },
            ),
            _ => ("SUM", String::new()),
        };
        out.push((
            "partitions".into(),
            format!("{with}SELECT {outer}(agg{collate}) FROM ({}) AS tlp", parts.join(" UNION ALL ")),
        ));
        out
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge_aggregate(case, e, results, opts))
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        matches!(
            q.select.items.as_slice(),
            [Item { expr: Expr::Agg { func: Agg::Min | Agg::Max | Agg::Sum | Agg::Count, distinct: false, .. }, .. }]
        )
    }

    fn keep(&self, _q: &Query) -> Keep {
        Keep { min_items: None, ..Keep::default() }
    }
}

/// The three TLP partitions of `p`: `p`, `NOT p`, `p IS NULL`.
pub fn partitions(p: &Expr) -> [Expr; 3] {
    [p.clone(), Expr::negate(p.clone()), Expr::is_null(p.clone())]
}

fn with_where(s: &Select, p: Expr) -> Select {
    let mut s = s.clone();
    s.where_ = Some(match s.where_.take() {
        Some(w) => Expr::bin(BinOp::And, w, p),
        None => p,
    });
    s
}

/// `Q` and `Q` restricted to each partition in its WHERE clause.
fn where_plan(q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
    let s = &q.select;
    let p = q.pred.clone().unwrap_or(Expr::Lit(Lit::Bool(true)));
    let mut out = vec![("Q".to_string(), s.to_sql(d))];
    for (label, part) in ["p", "NOT p", "p IS NULL"].iter().zip(partitions(&p)) {
        out.push((format!("Q WHERE {label}"), with_where(s, part).to_sql(d)));
    }
    out
}

/// `Q` (the first result) against the union of the partitions (the rest). `collated`: columns
/// of a grouped or distinct result may show any member of a collation's class of equal values;
/// `distinct`: the union is deduplicated as Q's DISTINCT or GROUP BY would.
fn judge_partitions(
    case: &SqlCase,
    e: &dyn Engine,
    results: &[Rows],
    collated: bool,
    distinct: bool,
) -> Result<bool, Check> {
    let q = &results[0];
    let fold = if collated {
        fold_flags(&Collations::new(&case.setup).under(dialect_of(e)), &case.query.select, q)
    } else {
        Fold::none(q)
    };
    let union = crosscheck_core::bag::union_all(&results[1..]);
    let union = if distinct { dedup(&union, &fold) } else { union };
    if overflowed(q) || overflowed(&union) {
        // A float SUM in a grouped select that reached infinity depends on the order of
        // addition, which the HAVING partition may change: no verdict.
        return Err(Check::Skip("float overflow in an aggregate".into()));
    }
    if let Some(diff) = compare(q, &union, &fold) {
        let summary = format!(
            "Q returned {} row(s), the partitions {} ({} missing, {} extra)",
            q.len(),
            union.len(),
            diff.missing.len(),
            diff.extra.len()
        );
        // The direction is part of the failure: a reduction that turns lost rows into extra
        // ones has found another bug.
        let key = format!("rows-differ:{}", diff.relation().name());
        return Err(logic(e, case.oracle, &key, render(q), render(&union), summary));
    }
    Ok(!q.is_empty())
}

/// The aggregate of `Q` against the aggregate of its partitions' aggregates.
fn judge_aggregate(case: &SqlCase, e: &mut dyn Engine, results: &[Rows], opts: &CheckOptions) -> Result<bool, Check> {
    let (q, parts) = (&results[0], &results[1]);
    for (what, r) in [("Q", q), ("the partitions' query", parts)] {
        if r.len() != 1 {
            let summary = format!("{what} is an aggregate without GROUP BY but returned {} rows", r.len());
            return Err(logic(e, case.oracle, "aggregate-rows", "1 row".into(), render(r), summary));
        }
    }
    let fold = fold_flags(&Collations::new(&case.setup).under(dialect_of(e)), &case.query.select, q);
    let nan_as_null =
        |a: &Rows, b: &Rows| matches!((first_value(a), first_value(b)), (Some(Value::Null), Some(Value::Float(_))));
    if overflowed(q) || overflowed(parts) || nan_as_null(q, parts) || nan_as_null(parts, q) {
        // A float SUM that reached infinity (or inf - inf = NaN, which SQL shows as NULL)
        // depends on the order of addition: no verdict.
        return Err(Check::Skip("float overflow in an aggregate".into()));
    }
    if compare(q, parts, &fold).is_some() && !within_rounding(case, e, q, parts, opts)? {
        let summary = "the aggregate of Q differs from the aggregate of its partitions".to_string();
        return Err(logic(e, case.oracle, "aggregate-differs", render(q), render(parts), summary));
    }
    Ok(q.rows.first().and_then(|r| r.first()).is_some_and(|v| !v.is_null()))
}

/// Whether two float sums differ by no more than the order of their additions explains. A
/// float SUM is not associative: summed in any order, n values carry an error of at most
/// (n - 1) * eps/2 * sum(|x|) (Higham, *Accuracy and Stability of Numerical Algorithms*,
/// 4.2), so Q and the sum of its partitions' sums (each within that bound, plus two more
/// additions) may differ by (n + 1) * eps * sum(|x|), and cancellation makes that any share
/// of the result (1e16 + 1 - 1e16). The engine computes n and sum(|x|) over Q's rows; the
/// bound is doubled for the conversions of integer and text operands. No bound (an overflow,
/// an error): no verdict.
fn within_rounding(
    case: &SqlCase,
    e: &mut dyn Engine,
    q: &Rows,
    parts: &Rows,
    opts: &CheckOptions,
) -> Result<bool, Check> {
    let (Some(a), Some(b)) = (first_value(q).and_then(Value::as_f64), first_value(parts).and_then(Value::as_f64))
    else {
        return Ok(false);
    };
    let floats = [q, parts].iter().any(|r| matches!(first_value(r), Some(Value::Float(_))));
    let arg = match case.query.select.items.first().map(|i| &i.expr) {
        Some(Expr::Agg { func: Agg::Sum | Agg::Total, arg: Some(arg), distinct: false }) if floats => arg,
        _ => return Ok(false),
    };
    let mut bound = case.query.select.clone();
    let abs = Expr::Func(Func::Abs, vec![(**arg).clone()]);
    bound.items = vec![
        Item { expr: Expr::Agg { func: Agg::Sum, distinct: false, arg: Some(Box::new(abs)) }, alias: None },
        Item { expr: Expr::Agg { func: Agg::Count, distinct: false, arg: Some(arg.clone()) }, alias: None },
    ];
    let no_bound = || Check::Skip("a float sum without an error bound".into());
    let r = match e.run(&bound.to_sql(dialect_of(e)), opts.timeout) {
        Outcome::Rows(r) => r,
        _ => return Err(no_bound()),
    };
    let row = r.rows.first().ok_or_else(no_bound)?;
    let (Some(total), Some(n)) = (row.first().and_then(Value::as_f64), row.get(1).and_then(Value::as_f64)) else {
        return Err(no_bound());
    };
    if !total.is_finite() {
        return Err(no_bound());
    }
    Ok(rounding_explains(a, b, n, total))
}

/// Whether two sums of the same `n` values whose absolute values sum to `abs_sum` may differ
/// by `a - b` through the order of addition alone (see [`within_rounding`]).
fn rounding_explains(a: f64, b: f64, n: f64, abs_sum: f64) -> bool {
    (a - b).abs() <= 2.0 * (n + 4.0) * f64::EPSILON * abs_sum
}

/// Outside aggregates, only whole group keys may be used.
fn grouped_ok(e: &Expr, keys: &[Expr]) -> bool {
    keys.contains(e)
        || match e {
            Expr::Agg { .. } | Expr::Lit(_) => true,
            Expr::Col(_) => false,
            _ => e.subquery().is_none() && e.children().into_iter().all(|c| grouped_ok(c, keys)),
        }
}

/// A non-finite float, or a NULL SUM next to a float one (NaN shown as NULL).
fn overflowed(r: &Rows) -> bool {
    r.rows.iter().flatten().any(|v| matches!(v, Value::Float(f) if !f.is_finite()))
}

fn first_value(r: &Rows) -> Option<&Value> {
    r.rows.first().and_then(|row| row.first())
}

#[cfg(test)]
mod tests {
    use super::rounding_explains;

    #[test]
    fn rounding_explains_cancellation_but_not_a_wrong_sum() {
        // 1e16 + 1 - 1e16: 1 compensated, 0 in partitions.
        assert!(rounding_explains(1.0, 0.0, 3.0, 2e16 + 1.0));
        assert!(rounding_explains(0.30000000000000004, 0.3, 3.0, 0.6));
        // A row counted twice, or lost, is far beyond rounding.
        assert!(!rounding_explains(3.25, 4.75, 3.0, 4.25));
        assert!(!rounding_explains(100.0, 99.0, 6.0, 300.0));
    }
}
