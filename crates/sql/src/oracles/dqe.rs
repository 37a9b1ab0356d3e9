//! DQE, Differential Query Execution (Song et al., ICSE 2023): SELECT, UPDATE and DELETE with
//! the same predicate `p` on one table must touch the same rows.
//!
//! SQLancer's DQE adds two columns to every table (a row id and an `updated` flag) to name the
//! rows each statement touched. Here the schema stays as generated, so the three statements are
//! compared on whole rows as bags, on the database every other oracle of the run sees:
//! - the rows `SELECT * FROM t WHERE p` returns: `S`;
//! - `DELETE FROM t WHERE p` in a transaction rolled back: the rows of `t` before less those
//!   after must be `S`;
//! - `UPDATE t SET c = m WHERE p` (a marker constant `m` of the column's type), rolled back
//!   too: the rows that changed must be the rows of `S` whose `c` was not already `m`, and
//!   they must have become those rows with `m` in `c`.
//!
//! The query stores `t`, `c` and `m` as `SELECT m AS c FROM t`, with `p` as its predicate.

use super::{bool_as_int, logic, render, OracleRules};
use crate::ast::{ColumnDef, Expr, Item, Lit, Select, SqlType, Stmt, ToSql};
use crate::case::{Query, SqlCase};
use crate::dialect::{by_name, cap, Dialect, Sqlite};
use crate::dml::{scope_of, table_ref, target_predicate};
use crate::exec::{dialect_of, exec};
use crate::exprgen::ExprGen;
use crosscheck_core::bag::diff;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Rows, Value};
use rand::seq::SliceRandom;
use rand::Rng;
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// `dqe`.
pub struct Dqe;

const BEGIN: &str = "BEGIN";
const ROLLBACK: &str = "ROLLBACK";
/// Where the plan's answers are: all rows, the SELECT's, after the UPDATE, after the DELETE.
const ALL: usize = 0;
const SELECTED: usize = 1;
const AFTER_UPDATE: usize = 4;
const AFTER_DELETE: usize = 8;

impl OracleRules for Dqe {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        for e in engines {
            if !by_name(&e.dialect).unwrap_or(&Sqlite).has_cap(cap::DML) {
                return Err(format!("the dqe oracle needs UPDATE, DELETE and transactions, which {} lacks", e.label));
            }
        }
        Ok(())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, depth: u32) {
        // The statements have no WITH: the predicate's subqueries read no CTE or derived table
        // of the query (a UNION member reading `w1` was "no such table" in SQLite).
        let mut env = g.env.clone();
        env.tables.truncate(env.tables.len() - env.own);
        env.own = 0;
        let base: Vec<usize> = (0..env.tables.len()).filter(|&t| !env.tables[t].view).collect();
        let Some(&ti) = base.choose(g.rng) else { return };
        let table = &env.tables[ti];
        if table.columns.is_empty() {
            return;
        }
        let mut g = ExprGen::new(&mut *g.rng, &env, scope_of(&env, ti, &table.name));
        let pred = target_predicate(&mut g, ti, depth, false);
        let c = &table.columns[g.rng.gen_range(0..table.columns.len())];
        q.select = Select {
            items: vec![Item { expr: Expr::Lit(marker(c.ty)), alias: Some(c.name.clone()) }],
            from: vec![table_ref(&table.name)],
            ..Select::default()
        };
        q.pred = Some(pred);
    }

    /// All rows, the SELECT, then the UPDATE and the DELETE each in a transaction rolled back,
    /// with the rows it left.
    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        let Some((table, column, m, p)) = parts(q) else { return Vec::new() };
        let all = Select { from: vec![table_ref(table)], ..Select::default() };
        let selected = Select { where_: Some(p.clone()), ..all.clone() };
        let sets = vec![(column.to_string(), Expr::Lit(m.clone()))];
        let update = Stmt::Update { table: table.into(), sets, where_: Some(p.clone()) };
        let delete = Stmt::Delete { table: table.into(), where_: Some(p.clone()) };
        let all = all.to_sql(d);
        // The three read the predicate alike; the marker is of the column's type, so no
        // value is stored differently where the change is lenient.
        let dml = |s: Stmt| d.lenient_change(s.to_sql(d));
        [
            ("all rows", all.clone()),
            ("SELECT with the predicate", selected.to_sql(d)),
            ("begin", BEGIN.into()),
            ("UPDATE with the predicate", dml(update)),
            ("rows after the UPDATE", all.clone()),
            ("rollback", ROLLBACK.into()),
            ("begin", BEGIN.into()),
            ("DELETE with the predicate", dml(delete)),
            ("rows after the DELETE", all),
            ("rollback", ROLLBACK.into()),
        ]
        .into_iter()
        .map(|(l, s)| (l.to_string(), s))
        .collect()
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let case = &unkeyed(case);
        let keyed = marker_keyed(case);
        let mut nonempty = false;
        for e in engines.iter_mut() {
            let results = match run_plan(self, case, e.as_mut(), opts, keyed) {
                Ok(r) => r,
                Err(c) => return c,
            };
            match judge(case, e.as_ref(), &results, !update_left_out(keyed, &results)) {
                Ok(n) => nonempty |= n,
                Err(c) => return c,
            }
        }
        Check::Pass { nonempty }
    }

    /// The plan as the check runs it (the marker column moved off a key).
    fn script(&self, case: &SqlCase, d: &dyn Dialect, out: &mut String) {
        for (label, sql) in self.plan(&unkeyed(case).query, d) {
            let _ = writeln!(out, "-- {label}:\n{sql};");
        }
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        let s = &q.select;
        parts(q).is_some()
            && s.from.len() == 1
            && s.joins.is_empty()
            && s.where_.is_none()
            && s.group_by.is_empty()
            && s.having.is_none()
            && !s.distinct
    }
}

/// The table, the marker column, the marker and the predicate a DQE query holds.
fn parts(q: &Query) -> Option<(&str, &str, &Lit, &Expr)> {
    let s = &q.select;
    let (Some(t), [Item { expr: Expr::Lit(m), alias: Some(c) }], Some(p)) =
        (s.from.first(), s.items.as_slice(), &q.pred)
    else {
        return None;
    };
    Some((&t.name, c, m, p))
}

/// The case with its marker column moved to the first column of the table that no key
/// covers, if it is on one: the same marker on two rows of a PRIMARY KEY, a UNIQUE column or a
/// unique index is a duplicate, and most checks were skipped for it. The generator does not
/// know the keys; the setup does, and the check and the reproducer both read it here.
fn unkeyed(case: &SqlCase) -> std::borrow::Cow<'_, SqlCase> {
    use std::borrow::Cow;
    let Some((table, column, _, _)) = parts(&case.query) else { return Cow::Borrowed(case) };
    let Some(columns) = case.setup.iter().find_map(|s| match s {
        Stmt::CreateTable { name, columns } if name == table => Some(columns),
        _ => None,
    }) else {
        return Cow::Borrowed(case);
    };
    let keyed = |c: &ColumnDef| is_keyed(&case.setup, table, c);
    if !columns.iter().any(|c| c.name == column && keyed(c)) {
        return Cow::Borrowed(case);
    }
    let Some(free) = columns.iter().find(|c| !keyed(c)) else { return Cow::Borrowed(case) };
    let mut moved = case.clone();
    moved.query.select.items = vec![Item { expr: Expr::Lit(marker(free.ty)), alias: Some(free.name.clone()) }];
    Cow::Owned(moved)
}

/// Whether a key of `table` covers column `c`: a PRIMARY KEY, a UNIQUE column, a unique index.
fn is_keyed(setup: &[Stmt], table: &str, c: &ColumnDef) -> bool {
    c.primary_key || c.unique || setup.iter().any(|s| unique_index_reads(s, table, &c.name))
}

/// Whether the marker column is on a key (every column of its table is, see [`unkeyed`]).
fn marker_keyed(case: &SqlCase) -> bool {
    let Some((table, column, _, _)) = parts(&case.query) else { return false };
    case.setup.iter().any(|s| match s {
        Stmt::CreateTable { name, columns } if name == table => {
            columns.iter().any(|c| c.name == column && is_keyed(&case.setup, table, c))
        }
        _ => false,
    })
}

/// Whether the UPDATE is left out: the marker on a key of two rows would be a duplicate (one
/// in twenty-five DuckDB checks was skipped for it); the DELETE is still compared. Decided by
/// the table's rows, not by the SELECT's, whose answer is under test.
fn update_left_out(keyed: bool, results: &[Rows]) -> bool {
    keyed && results.get(ALL).is_some_and(|r| r.len() >= 2)
}

/// Whether `s` is a unique index on `table` whose keys read `column`.
fn unique_index_reads(s: &Stmt, table: &str, column: &str) -> bool {
    let Stmt::CreateIndex { table: t, unique: true, keys, .. } = s else { return false };
    let mut found = false;
    for k in keys.iter().filter(|_| t == table) {
        k.expr.visit(&mut |e| found |= matches!(e, Expr::Col(c) if c.column == column));
    }
    found
}

/// A constant of the column's type that generated data seldom holds.
fn marker(ty: Option<SqlType>) -> Lit {
    match ty {
        Some(SqlType::Int) => Lit::Int(4242),
        Some(SqlType::Real) => Lit::Real(42.125),
        Some(SqlType::Bool) => Lit::Bool(true),
        Some(SqlType::Blob) => Lit::Blob(b"dqe".to_vec()),
        Some(SqlType::Decimal) => Lit::Decimal("4242.12".into()),
        Some(SqlType::Date) => Lit::Date("2042-04-02".into()),
        Some(SqlType::Timestamp) => Lit::Timestamp("2042-04-02 04:02:42".into()),
        Some(SqlType::Text) | None => Lit::Text("dqe".into()),
    }
}

/// Runs the plan on one engine; a transaction a failing statement leaves open is rolled back,
/// so the next check finds the database as the setup left it.
fn run_plan(
    rules: &Dqe,
    case: &SqlCase,
    e: &mut dyn Engine,
    opts: &CheckOptions,
    keyed: bool,
) -> Result<Vec<Rows>, Check> {
    let steps = rules.plan(&case.query, dialect_of(e));
    if steps.is_empty() {
        return Err(Check::Skip("not a DQE query".into()));
    }
    let mut results = Vec::with_capacity(steps.len());
    let mut open = false;
    for (i, (_, sql)) in steps.iter().enumerate() {
        if (SELECTED + 1..=AFTER_UPDATE + 1).contains(&i) && update_left_out(keyed, &results) {
            results.push(Rows::default());
            continue;
        }
        match exec(e, sql, opts) {
            Ok(r) => results.push(r.unwrap_or_default()),
            Err(c) => {
                if open {
                    let _ = e.run(ROLLBACK, opts.timeout);
                }
                return Err(c);
            }
        }
        open = match sql.as_str() {
            BEGIN => true,
            ROLLBACK => false,
            _ => open,
        };
    }
    Ok(results)
}

fn judge(case: &SqlCase, e: &dyn Engine, r: &[Rows], updated: bool) -> Result<bool, Check> {
    let (all, selected) = (&r[ALL], &r[SELECTED]);
    let o = bool_as_int();
    let d = diff(all, &r[AFTER_DELETE], &o);
    let removed = Rows::new(all.columns.clone(), d.missing);
    if let Some(how) = mismatch(selected, &removed, !d.extra.is_empty()) {
        let summary =
            format!("DELETE removed {} row(s), SELECT with its predicate returned {}", removed.len(), selected.len());
        return Err(logic(e, case.oracle, &format!("dqe-delete:{how}"), render(selected), render(&removed), summary));
    }
    let Some((_, column, m, _)) = parts(&case.query).filter(|_| updated) else { return Ok(!selected.is_empty()) };
    let Some(ci) = all.columns.iter().position(|n| n.eq_ignore_ascii_case(column)) else {
        return Err(Check::Skip(format!("no column {column} in the answer")));
    };
    let d = diff(all, &r[AFTER_UPDATE], &o);
    let (before, after) = (Rows::new(all.columns.clone(), d.missing), Rows::new(all.columns.clone(), d.extra));
    // The marker as the engine stores it in that column (7 in a REAL column reads 7.0).
    let stored = after.rows.first().map_or_else(|| lit_value(m), |row| row[ci].clone());
    let same = |v: &Value| diff(&one(v.clone()), &one(stored.clone()), &o).is_empty();
    // Rows that already held the marker are left as they were.
    let changing =
        Rows::new(all.columns.clone(), selected.rows.iter().filter(|row| !same(&row[ci])).cloned().collect());
    let mut marked = changing.clone();
    marked.rows.iter_mut().for_each(|row| row[ci] = stored.clone());
    let wrong_values = !diff(&marked, &after, &o).is_empty();
    if let Some(how) = mismatch(&changing, &before, wrong_values) {
        let summary = format!(
            "UPDATE changed {} row(s), SELECT with its predicate returned {} to change",
            before.len(),
            changing.len()
        );
        let actual = format!("{}\nbecame:\n{}", render(&before), render(&after));
        return Err(logic(e, case.oracle, &format!("dqe-update:{how}"), render(&changing), actual, summary));
    }
    Ok(!selected.is_empty())
}

/// How the rows a statement touched differ from those the SELECT named: `fewer`, `more` or
/// `different` (both, or right rows changed wrongly), `None` when they agree.
fn mismatch(expected: &Rows, touched: &Rows, otherwise_wrong: bool) -> Option<&'static str> {
    use crosscheck_core::bag::Relation;
    match diff(expected, touched, &bool_as_int()).relation() {
        Relation::Equal if otherwise_wrong => Some("different"),
        Relation::Equal => None,
        Relation::Subset => Some("fewer"),
        Relation::Superset => Some("more"),
        Relation::Different => Some("different"),
    }
}

fn one(v: Value) -> Rows {
    Rows::new(vec!["v".into()], vec![vec![v]])
}

fn lit_value(l: &Lit) -> Value {
    match l {
        Lit::Null => Value::Null,
        Lit::Bool(b) => Value::Bool(*b),
        Lit::Int(i) => Value::Int(*i),
        Lit::Real(f) => Value::Float(*f),
        Lit::Text(s) => Value::Text(s.clone()),
        Lit::Blob(b) => Value::Bytes(b.clone()),
        Lit::Decimal(d) => Value::Decimal(d.clone()),
        // Every engine with dates shows them as ISO text.
        Lit::Date(d) | Lit::Timestamp(d) => Value::Text(d.clone()),
    }
}
