//! NoREC as SQLancer defines it: the number of rows a query with `WHERE p` returns (the
//! optimized query) must equal the number of rows on which `p` is true when `p` is evaluated in
//! the select list (the unoptimized one), where no optimizer can use it to skip rows.

use super::{logic, on_each_engine, render, Keep, OracleRules};
use crate::ast::{Agg, Expr, Item, Lit, Order, PostOp, ToSql};
use crate::case::{Query, SqlCase};
use crate::dialect::{cap, Dialect};
use crate::exprgen::ExprGen;
use crate::gen::plain_items;
use crosscheck_core::{Check, CheckOptions, Engine, Rows, Value};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// `norec`.
pub struct Norec;

impl OracleRules for Norec {
    fn predicate_depth(&self, rng: &mut ChaCha8Rng) -> u32 {
        // The predicate filters the rows counted, so keep it shallower: a deep random
        // predicate is mostly false or NULL and the check would count nothing.
        rng.gen_range(0..=2)
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        q.count_rows = g.rng.gen();
        if q.count_rows && g.rng.gen_bool(0.3) {
            let n = g.rng.gen_range(1..=2);
            q.select.items = plain_items(g, n);
            q.select.order_by = q.select.items.iter().map(|i| Order { expr: i.expr.clone(), desc: false }).collect();
        }
    }

    /// The optimized query filters with `p`; the unoptimized one sums the truth of `p` on
    /// every row. (SQLancer wraps that select in a derived table; summing in place is the same
    /// count and spares the engine a subquery flattening on every check.)
    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        let s = &q.select;
        let p = q.pred.clone().unwrap_or(Expr::Lit(Lit::Bool(true)));
        // One copy of the select serves both queries: copying and dropping the tree cost as
        // much as printing it.
        let mut sel = s.clone();
        if !q.count_rows {
            sel.items = vec![Item { expr: Expr::Agg { func: Agg::Count, distinct: false, arg: None }, alias: None }];
            sel.order_by.clear();
        }
        sel.where_ = Some(p);
        let optimized = sel.to_sql(d);
        let p = std::mem::replace(&mut sel.where_, s.where_.clone()).unwrap_or(Expr::Lit(Lit::Bool(true)));
        let truth = if d.has_cap(cap::LOOSE) || d.has_cap(cap::LOOSE_MARIADB) {
            Expr::post(PostOp::IsTrue, p)
        } else {
            Expr::Case {
                operand: None,
                whens: vec![(p, Expr::Lit(Lit::Int(1)))],
                otherwise: Some(Box::new(Expr::Lit(Lit::Int(0)))),
            }
        };
        sel.items = vec![Item {
            expr: Expr::Agg { func: Agg::Sum, distinct: false, arg: Some(Box::new(truth)) },
            alias: Some("norec".into()),
        }];
        sel.order_by.clear();
        vec![("optimized".into(), optimized), ("unoptimized".into(), sel.to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        on_each_engine(self, case, engines, opts, |e, results| judge(case, e, results))
    }

    fn keep(&self, q: &Query) -> Keep {
        // A query that lists its rows may list them all (`SELECT *`).
        Keep { min_items: Some(if q.count_rows { 0 } else { 1 }), ..Keep::default() }
    }
}

fn judge(case: &SqlCase, e: &dyn Engine, results: &[Rows]) -> Result<bool, Check> {
    let (opt, unopt) = (&results[0], &results[1]);
    match compare(case.query.count_rows, opt, unopt) {
        Ok(c) => Ok(c > 0),
        Err((how, summary)) => {
            let key = format!("count-differs:{how}");
            Err(logic(e, case.oracle, &key, render(unopt), render(opt), summary))
        }
    }
}

/// The count both queries agree on, or the finding's direction (the optimized query counts
/// `fewer` or `more`, or one count is `unreadable`) and summary: what each query returned.
fn compare(count_rows: bool, opt: &Rows, unopt: &Rows) -> Result<i64, (&'static str, String)> {
    let count = if count_rows { Some(opt.len() as i64) } else { single_int(opt) };
    let reference = match unopt.rows.as_slice() {
        // SUM over no rows.
        [row] if row.len() == 1 && row[0] == Value::Null => Some(0),
        _ => single_int(unopt),
    };
    match (count, reference) {
        (Some(c), Some(r)) if c == r => Ok(c),
        (Some(c), Some(r)) => {
            let how = if c < r { "fewer" } else { "more" };
            Err((how, format!("the optimized query counts {c}, the unoptimized one {r}")))
        }
        // A count that cannot be read (an aggregate that returned no row, or two) is told as
        // what came back, so that a reduced finding reads right.
        _ => Err((
            "unreadable",
            format!("the optimized query {}, the unoptimized one {}", answer(count, opt), answer(reference, unopt)),
        )),
    }
}

/// What a query answered, for a summary: its count if it has one, else its shape.
fn answer(count: Option<i64>, rows: &Rows) -> String {
    if let Some(c) = count {
        return format!("counts {c}");
    }
    match rows.rows.as_slice() {
        [] => "returned no row".into(),
        [row] => match row.as_slice() {
            [Value::Null] => "returned a NULL".into(),
            [v] => format!("returned {v}"),
            values => format!("returned a row of {} values", values.len()),
        },
        many => format!("returned {} rows", many.len()),
    }
}

fn single_int(rows: &Rows) -> Option<i64> {
    match rows.rows.as_slice() {
        [row] if row.len() == 1 => match &row[0] {
            Value::Int(i) => Some(*i),
            other => other.as_f64().map(crosscheck_core::value::trunc_i64),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::compare;
    use crosscheck_core::{Rows, Value};

    fn rows(values: Vec<Vec<Value>>) -> Rows {
        let n = values.first().map_or(1, Vec::len);
        Rows::new((0..n).map(|i| format!("c{i}")).collect(), values)
    }

    #[test]
    fn the_summary_tells_what_each_query_returned() {
        let one = |v: Value| rows(vec![vec![v]]);
        let none = rows(vec![]);
        assert_eq!(compare(false, &one(Value::Int(2)), &one(Value::Int(2))), Ok(2));
        assert_eq!(compare(false, &one(Value::Int(0)), &one(Value::Null)), Ok(0));
        let said = |opt: &Rows, unopt: &Rows| compare(false, opt, unopt).err().unwrap_or_default().1;
        assert_eq!(
            said(&one(Value::Int(2)), &one(Value::Int(3))),
            "the optimized query counts 2, the unoptimized one 3"
        );
        let how = |opt: &Rows, unopt: &Rows| compare(false, opt, unopt).err().unwrap_or_default().0;
        assert_eq!(how(&one(Value::Int(2)), &one(Value::Int(3))), "fewer");
        assert_eq!(how(&one(Value::Int(4)), &one(Value::Int(3))), "more");
        assert_eq!(how(&none, &one(Value::Int(3))), "unreadable");
        assert_eq!(said(&none, &none), "the optimized query returned no row, the unoptimized one returned no row");
        assert_eq!(
            said(&one(Value::Int(0)), &none),
            "the optimized query counts 0, the unoptimized one returned no row"
        );
        let two = rows(vec![vec![Value::Int(1)], vec![Value::Int(1)]]);
        assert_eq!(
            said(&two, &one(Value::Int(2))),
            "the optimized query returned 2 rows, the unoptimized one counts 2"
        );
        assert_eq!(
            said(&one(Value::Null), &one(Value::Text("x".into()))),
            "the optimized query returned a NULL, the unoptimized one returned 'x'"
        );
        // A listing query counts its rows, whatever they hold.
        assert_eq!(compare(true, &two, &one(Value::Int(2))), Ok(2));
    }
}
