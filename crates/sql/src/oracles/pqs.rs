//! Pivoted Query Synthesis (Rigger and Su, OSDI 2020), as SQLancer runs it: one row of each
//! table of a cross product (the pivot, read from the engine at check time, since the setup's
//! DML decides the data), a random predicate evaluated on the pivot by crosscheck's own
//! evaluator (`eval.rs`, never the engine), rectified to be true there (`p`, `NOT p` or `p IS
//! NULL` as it is TRUE, FALSE or NULL), and the query `SELECT * FROM tables WHERE rectified`,
//! whose answer must contain the pivot. A predicate the evaluator cannot evaluate with
//! certainty skips the check.
//!
//! PQS generates its own predicates (`PredGen`) over what the evaluator knows: columns of
//! INTEGER, REAL, TEXT, BLOB and BOOLEAN types and their literals, comparisons, IS [NOT]
//! DISTINCT FROM, BETWEEN, IN lists, IS [NOT] NULL, IS [NOT] TRUE/FALSE, AND, OR, NOT, CASE,
//! LIKE, COALESCE, NULLIF and integer `+ - *`; where the run is SQLite's loose typing, literals of other types than the
//! column's, so that affinities and storage-class order are exercised.

use super::{render, Keep, OracleRules};
use crate::ast::{BinOp, ColumnDef, Expr, Func, Lit, PostOp, Select, SqlType, Stmt, TableRef, ToSql};
use crate::case::{Query, SqlCase};
use crate::dialect::{by_name, cap, Dialect};
use crate::eval::{self, PivotCol, Truth};
use crate::exec::{dialect_of, rows_of};
use crate::exprgen::ExprGen;
use crosscheck_core::value::Canon;
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, EngineInfo, Evidence, FindingClass, Rows, Value};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// `pqs`.
pub struct Pqs;

const KEY: &str = "pqs:pivot-missing:";

impl OracleRules for Pqs {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        for e in engines {
            if by_name(&e.dialect).and_then(|d| d.semantics()).is_none() {
                return Err(format!(
                    "pqs: crosscheck's evaluator has no rules for dialect {} (engine {})",
                    e.dialect, e.label
                ));
            }
        }
        Ok(())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, depth: u32) {
        let mut base: Vec<usize> =
            (0..g.env.tables.len()).filter(|&t| !g.env.tables[t].view && g.env.tables[t].body.is_none()).collect();
        // A table the setup inserted into, if there is one: an empty table has no pivot (DML
        // may still empty one; that check is skipped).
        let filled: Vec<usize> =
            base.iter().copied().filter(|&t| g.env.tables[t].columns.iter().any(|c| !c.values.is_empty())).collect();
        if !filled.is_empty() {
            base = filled;
        }
        let n = if base.len() > 1 && g.rng.gen_bool(0.4) { 2 } else { 1 };
        let chosen: Vec<usize> = base.choose_multiple(g.rng, n).copied().collect();
        let mut cols = Vec::new();
        for &ti in &chosen {
            let t = &g.env.tables[ti];
            for c in &t.columns {
                let known = matches!(
                    c.ty,
                    None | Some(SqlType::Int | SqlType::Real | SqlType::Text | SqlType::Blob | SqlType::Bool)
                );
                if known {
                    cols.push((Expr::col(&t.name, &c.name), c.ty));
                }
            }
        }
        let from = chosen.iter().map(|&ti| TableRef::named(&g.env.tables[ti].name, None)).collect();
        q.select = Select { from, ..Select::default() };
        q.count_rows = false;
        let mixed = g.env.caps.has(cap::LOOSE) && g.env.caps.has(cap::UNTYPED);
        q.pred = Some(PredGen { g, cols, mixed }.pred(depth));
    }

    /// The reads of the pivot's tables; the containment query depends on what they return.
    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        q.select.from.iter().map(|t| (format!("rows of {}", t.name), read(t).to_sql(d))).collect()
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let Some(pred) = &case.query.pred else {
            return Check::Skip("pqs: no predicate".into());
        };
        for e in engines.iter_mut() {
            let d = dialect_of(e.as_ref());
            let Some(sem) = d.semantics() else {
                return Check::Skip(format!("pqs: no evaluator for dialect {}", d.name()));
            };
            let pivot = match pivot_row(case, e.as_mut(), d, opts) {
                Ok(p) => p,
                Err(c) => return c,
            };
            let truth = match eval::truth(pred, &pivot, sem) {
                Ok(t) => t,
                Err(u) => return Check::Skip(format!("pqs: the evaluator cannot tell: {}", u.0)),
            };
            let sql = containment(&case.query, pred, truth).to_sql(d);
            let rows = match rows_of(e.as_mut(), &sql, opts) {
                Ok(r) => r,
                Err(c) => return c,
            };
            if !contains(&rows, &pivot) {
                return missing(e.as_ref(), case, &pivot, truth, &rows, sql);
            }
        }
        Check::Pass { nonempty: true }
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        let s = &q.select;
        q.pred.is_some()
            && (1..=2).contains(&s.from.len())
            && s.from.iter().all(|t| t.body.is_none() && t.alias.is_none())
            && s.joins.is_empty()
            && s.with.is_empty()
            && s.items.is_empty()
            && s.where_.is_none()
    }

    fn keep(&self, _q: &Query) -> Keep {
        Keep { min_items: None, ..Keep::default() }
    }

    fn finding_script(&self, case: &SqlCase, ev: &Evidence, d: &dyn Dialect, out: &mut String) {
        self.script(case, d, out);
        let truth = match ev.key.strip_prefix(KEY) {
            Some("true") => Truth::True,
            Some("false") => Truth::False,
            Some("null") => Truth::Null,
            _ => return,
        };
        let Some(pred) = &case.query.pred else { return };
        let query = containment(&case.query, pred, truth);
        let _ =
            writeln!(out, "-- the predicate is {} on the pivot row, so its rectification is true there:", name(truth));
        let _ = writeln!(out, "-- the rows below must include the pivot row ({})", ev.expected.replace('\n', " "));
        let _ = writeln!(out, "{};", query.to_sql(d));
        let detail: PqsDetail = ev.detail.read();
        if let Some(pivot) = pivot_query(case, query, &detail.pivot) {
            let _ = writeln!(out, "-- and this query must return the pivot row:\n{};", pivot.to_sql(d));
        }
    }
}

/// What a PQS finding keeps for its reproducer: the failing query (read as the SQL leg's
/// `Detail` by the reproducer) and the pivot row's values.
#[derive(Debug, Default, Serialize, Deserialize)]
struct PqsDetail {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sql: Option<String>,
    #[serde(default)]
    pivot: Vec<Value>,
}

/// The containment query narrowed to the pivot: each of its columns `IS NOT DISTINCT FROM` its
/// value as a literal (`None` where a value has no literal).
fn pivot_query(case: &SqlCase, mut query: Select, pivot: &[Value]) -> Option<Select> {
    let mut values = pivot.iter();
    let mut cond = query.where_.take()?;
    for t in &case.query.select.from {
        for c in columns_of(&case.setup, &t.name)? {
            let l = match values.next()? {
                Value::Null => Lit::Null,
                Value::Bool(b) => Lit::Bool(*b),
                Value::Int(i) => Lit::Int(*i),
                Value::Float(f) if f.is_finite() => Lit::Real(*f),
                Value::Text(s) => Lit::Text(s.clone()),
                Value::Bytes(b) => Lit::Blob(b.clone()),
                _ => return None,
            };
            cond = Expr::bin(BinOp::And, cond, Expr::bin(BinOp::Is, Expr::col(t.visible(), &c.name), Expr::Lit(l)));
        }
    }
    query.where_ = Some(cond);
    Some(query)
}

fn read(t: &TableRef) -> Select {
    Select { from: vec![TableRef::named(&t.name, None)], ..Select::default() }
}

/// `SELECT * FROM tables WHERE` the predicate rectified to be true on the pivot.
fn containment(q: &Query, pred: &Expr, truth: Truth) -> Select {
    let rectified = match truth {
        Truth::True => pred.clone(),
        Truth::False => Expr::negate(pred.clone()),
        Truth::Null => Expr::is_null(pred.clone()),
    };
    Select { from: q.select.from.clone(), where_: Some(rectified), ..Select::default() }
}

fn name(t: Truth) -> &'static str {
    match t {
        Truth::True => "true",
        Truth::False => "false",
        Truth::Null => "null",
    }
}

/// The columns of table `table` as the setup creates it.
fn columns_of<'a>(setup: &'a [Stmt], table: &str) -> Option<&'a [ColumnDef]> {
    setup.iter().find_map(|s| match s {
        Stmt::CreateTable { name, columns } if name == table => Some(columns.as_slice()),
        _ => None,
    })
}

/// The pivot: one row of each table, read from the engine, in the order crosscheck sorts them
/// and at a position drawn from the case's seed and index.
fn pivot_row(case: &SqlCase, e: &mut dyn Engine, d: &dyn Dialect, opts: &CheckOptions) -> Result<Vec<PivotCol>, Check> {
    let canon = CompareOptions::default();
    let mut pivot = Vec::new();
    for (k, t) in case.query.select.from.iter().enumerate() {
        let Some(columns) = columns_of(&case.setup, &t.name) else {
            return Err(Check::Skip(format!("pqs: {} is no table of the setup", t.name)));
        };
        let mut rows = rows_of(e, &read(t).to_sql(d), opts)?.rows;
        if rows.is_empty() {
            return Err(Check::Skip(format!("pqs: {} is empty, no pivot row", t.name)));
        }
        rows.sort_by_cached_key(|r| r.iter().map(|v| v.canon(&canon)).collect::<Vec<Canon>>());
        let at = crosscheck_core::position(mix(case.seed ^ mix(case.index) ^ (k as u64)), rows.len());
        let row = rows.swap_remove(at);
        if row.len() != columns.len() {
            return Err(Check::Skip(format!("pqs: {} has {} columns, its rows {}", t.name, columns.len(), row.len())));
        }
        for (c, value) in columns.iter().zip(row) {
            let table = t.visible().to_string();
            pivot.push(PivotCol { table, column: c.name.clone(), value, ty: c.ty, collate: c.collate });
        }
    }
    Ok(pivot)
}

/// SplitMix64's finalizer: neighbouring checks pick unrelated rows.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Whether a row of the answer is the pivot, value for value under the shared value policy.
fn contains(rows: &Rows, pivot: &[PivotCol]) -> bool {
    let o = CompareOptions::default();
    let want: Vec<Canon> = pivot.iter().map(|c| c.value.canon(&o)).collect();
    rows.rows.iter().any(|r| r.len() == want.len() && r.iter().zip(&want).all(|(v, w)| v.canon(&o) == *w))
}

fn missing(e: &dyn Engine, case: &SqlCase, pivot: &[PivotCol], truth: Truth, rows: &Rows, sql: String) -> Check {
    let values: Vec<Value> = pivot.iter().map(|c| c.value.clone()).collect();
    let shown = render(&Rows::new(pivot.iter().map(|c| c.column.clone()).collect(), vec![values]));
    Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: vec![e.info().label.clone()],
        summary: format!(
            "{}: the pivot row {shown} is missing from the rows where the predicate, {} on it, is rectified to true",
            case.oracle,
            name(truth)
        ),
        expected: format!("a row {shown}"),
        actual: render(rows),
        key: format!("{KEY}{}", name(truth)),
        detail: crosscheck_core::Detail::of(&PqsDetail {
            sql: Some(sql),
            pivot: pivot.iter().map(|c| c.value.clone()).collect(),
        }),
    })
}

/// PQS's predicates: only what the evaluator knows, typed as the run needs.
struct PredGen<'g, 'a> {
    g: &'g mut ExprGen<'a>,
    /// The columns of the FROM clause of known types.
    cols: Vec<(Expr, Option<SqlType>)>,
    /// Literals of other types than the column's (SQLite's loose typing).
    mixed: bool,
}

const MIXED: &[SqlType] = &[SqlType::Int, SqlType::Real, SqlType::Text];

impl PredGen<'_, '_> {
    fn pred(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.g.rng.gen_bool(0.3) {
            return self.leaf();
        }
        let d = depth - 1;
        match self.g.rng.gen_range(0..5) {
            0 => Expr::negate(self.pred(d)),
            1 => Expr::bin(BinOp::And, self.pred(d), self.pred(d)),
            2 => Expr::bin(BinOp::Or, self.pred(d), self.pred(d)),
            3 if self.g.env.caps.has(cap::IS_TRUE) => {
                let ops = [PostOp::IsTrue, PostOp::IsFalse, PostOp::IsNotTrue, PostOp::IsNotFalse];
                let op = ops[self.g.rng.gen_range(0..ops.len())];
                Expr::post(op, self.pred(d))
            }
            4 => {
                let when = self.pred(d);
                let then = self.pred(d);
                let otherwise = if self.g.rng.gen() { Some(Box::new(self.pred(d))) } else { None };
                Expr::Case { operand: None, whens: vec![(when, then)], otherwise }
            }
            _ => self.leaf(),
        }
    }

    fn leaf(&mut self) -> Expr {
        let (x, t) = self.operand();
        match self.g.rng.gen_range(0..10) {
            0 => {
                if self.g.rng.gen() {
                    Expr::is_null(x)
                } else {
                    Expr::post(PostOp::NotNull, x)
                }
            }
            1 => {
                let (low, high) = (self.other(t), self.other(t));
                Expr::Between { expr: Box::new(x), low: Box::new(low), high: Box::new(high), not: self.g.rng.gen() }
            }
            2 => {
                let n = self.g.rng.gen_range(1..=3);
                let list = (0..n).map(|_| self.literal(t)).collect();
                Expr::InList { expr: Box::new(x), list, not: self.g.rng.gen() }
            }
            3 if self.g.env.caps.has(cap::NULL_SAFE_EQ) => {
                let op = if self.g.rng.gen() { BinOp::Is } else { BinOp::IsNot };
                let y = self.other(t);
                Expr::bin(op, x, y)
            }
            4 if t == SqlType::Bool => x,
            5 if t == SqlType::Text => {
                let p = self.pattern();
                Expr::bin(if self.g.rng.gen_bool(0.8) { BinOp::Like } else { BinOp::NotLike }, x, p)
            }
            _ => {
                let ops = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
                let op = ops[self.g.rng.gen_range(0..ops.len())];
                let y = self.other(t);
                if self.g.rng.gen() {
                    Expr::bin(op, x, y)
                } else {
                    Expr::bin(op, y, x)
                }
            }
        }
    }

    /// A column (sometimes in integer arithmetic) or a literal, and the type it has.
    fn operand(&mut self) -> (Expr, SqlType) {
        if self.cols.is_empty() || self.g.rng.gen_bool(0.1) {
            let t = MIXED[self.g.rng.gen_range(0..MIXED.len())];
            return (self.literal(t), t);
        }
        let (c, ty) = self.cols[self.g.rng.gen_range(0..self.cols.len())].clone();
        let t = ty.unwrap_or_else(|| MIXED[self.g.rng.gen_range(0..MIXED.len())]);
        let funcs = [Func::Coalesce, Func::Nullif];
        if self.g.rng.gen_bool(0.1) {
            let f = funcs[self.g.rng.gen_range(0..funcs.len())];
            if self.g.env.caps.has_fn(f) {
                let y = self.other(t);
                return (Expr::Func(f, vec![c, y]), t);
            }
        }
        // Arithmetic over a declared INTEGER column only: an untyped SQLite column read as an
        // integer here may hold text, whose arithmetic the evaluator does not know (one SQLite
        // check in sixty was skipped for it).
        if t == SqlType::Int && ty == Some(SqlType::Int) && self.g.rng.gen_bool(0.2) {
            let ops = [BinOp::Add, BinOp::Sub, BinOp::Mul];
            let op = ops[self.g.rng.gen_range(0..ops.len())];
            let y = self.other(t);
            return (Expr::bin(op, c, y), t);
        }
        (c, t)
    }

    /// The other side of a comparison with an operand of type `t`: a column of that type or a
    /// literal; where typing is loose, sometimes a literal of another type.
    fn other(&mut self, t: SqlType) -> Expr {
        if self.g.rng.gen_bool(0.3) {
            let same: Vec<Expr> =
                self.cols.iter().filter(|(_, ct)| self.mixed || *ct == Some(t)).map(|(e, _)| e.clone()).collect();
            if let Some(c) = same.choose(self.g.rng) {
                return c.clone();
            }
        }
        self.literal(t)
    }

    /// A LIKE pattern: a stored string with a wildcard before, after or in place of its first
    /// character.
    fn pattern(&mut self) -> Expr {
        let mut p = match self.g.literal(SqlType::Text) {
            Expr::Lit(Lit::Text(s)) => s,
            _ => String::new(),
        };
        match self.g.rng.gen_range(0..4) {
            0 => p.push('%'),
            1 => p.insert(0, '%'),
            2 if !p.is_empty() => p.replace_range(0..p.chars().next().map_or(1, char::len_utf8), "_"),
            _ => {}
        }
        Expr::Lit(Lit::Text(p))
    }

    fn literal(&mut self, t: SqlType) -> Expr {
        if self.mixed && self.g.rng.gen_bool(0.3) {
            let mut other = MIXED[self.g.rng.gen_range(0..MIXED.len())];
            if self.g.env.caps.has(cap::BLOB) && self.g.rng.gen_bool(0.1) {
                other = SqlType::Blob;
            }
            return self.g.literal(other);
        }
        self.g.literal(t)
    }
}
