//! A summary's test as one of the leg's own cases, so that a wrong answer is stored, replayed,
//! reduced and deduplicated exactly as a finding of `crosscheck run` is: the setup is the
//! schema and the database's rows, the query is the summary query's syntax tree, and the
//! oracle (`summary`, `summary-bag`) reads the test back from the case and asks the reference
//! evaluator for the expected answer.
//!
//! Reading back is what keeps the reducer honest: a candidate that left the summary fragment
//! (an expression the evaluator has no rule for, a row a constraint would refuse) is no test,
//! and the query is accepted only when it prints back to exactly the syntax tree it came
//! from, so the evaluator answers the query the engine ran.

use super::data::Val;
use super::eval::{evaluate, Unevaluable};
use super::query::{Cond, Field, HavingCond, Operand, SummaryQuery, Term};
use super::spec::{CmpOp, ColType, Column, Constant, JoinKind, Spec, Table};
use crate::ast::{BinOp, Expr, Item, Lit, Select, SqlType, Stmt};
use crate::case::{Query, SqlCase};
use crate::oracles::SqlOracle;
use crosscheck_core::Rows;
use std::sync::Arc;

/// The leg's case of a summary test: `setup` (schema and rows) and the query's syntax tree.
pub fn to_case(setup: Vec<Stmt>, select: Select, bag: bool) -> SqlCase {
    SqlCase {
        seed: 0,
        db: 0,
        index: 0,
        oracle: if bag { SqlOracle::SummaryBag } else { SqlOracle::Summary },
        strict: true,
        setup: Arc::new(setup),
        query: Query { select, pred: None, count_rows: false },
    }
}

/// A summary test read back from a case.
pub struct Test {
    pub spec: Spec,
    pub query: SummaryQuery,
    /// Rows per table, indexed like `spec.tables`.
    pub tables: Vec<Vec<Vec<Val>>>,
}

impl Test {
    /// The expected answer and whether it is compared as a bag (bag semantics, or an answer
    /// SQL keeps free of duplicates).
    pub fn expected(&self) -> Result<(Rows, bool), Unevaluable> {
        let rows = evaluate(&self.spec, &self.query, &self.tables)?;
        Ok((rows, self.spec.output.bag || self.query.duplicate_free()))
    }
}

/// The summary test `case` holds, or why it holds none.
pub fn read(case: &SqlCase, bag: bool) -> Result<Test, String> {
    let select = &case.query.select;
    // One table under NATURAL JOIN names its columns unqualified, as a join of several does.
    let natural = !select.joins.is_empty() || select.slots().into_iter().any(unqualified);
    let join = if natural { JoinKind::Natural } else { JoinKind::Cross };
    let mut tables = Vec::new();
    for s in case.setup.iter() {
        if let Stmt::CreateTable { name, columns } = s {
            tables.push(table(name, columns)?);
        }
    }
    let spec = Spec::of_schema(tables, join, bag);
    let mut rows: Vec<Vec<Vec<Val>>> = vec![Vec::new(); spec.tables.len()];
    for s in case.setup.iter() {
        match s {
            Stmt::CreateTable { .. } => {}
            Stmt::Insert { table, columns, values } => {
                let t = spec.tables.iter().position(|t| t.name == *table).ok_or("an insert into no table")?;
                rows[t].push(row(&spec.tables[t], columns, values)?);
            }
            _ => return Err("a statement other than CREATE TABLE and INSERT".into()),
        }
    }
    for (t, table) in spec.tables.iter().enumerate() {
        accepted(table, &rows[t])?;
    }
    let query = query_of(&spec, select).ok_or("a query outside the summary fragment")?;
    Ok(Test { spec, query, tables: rows })
}

fn table(name: &str, columns: &[crate::ast::ColumnDef]) -> Result<Table, String> {
    let mut out = Table { name: name.to_string(), columns: Vec::new(), key: Vec::new(), foreign: Vec::new() };
    for (i, c) in columns.iter().enumerate() {
        let ty = match c.ty {
            Some(SqlType::Int) => ColType::Int,
            Some(SqlType::Text) => ColType::Text,
            _ => return Err(format!("column {} has a type outside the summary fragment", c.name)),
        };
        if c.default.is_some() || c.collate.is_some() || c.unique {
            return Err(format!("column {} has a constraint outside the summary fragment", c.name));
        }
        if c.primary_key {
            out.key.push(i);
        }
        out.columns.push(Column { name: c.name.clone(), ty, not_null: c.not_null || c.primary_key });
    }
    Ok(out)
}

fn row(table: &Table, columns: &[String], values: &[Expr]) -> Result<Vec<Val>, String> {
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    if columns.iter().map(String::as_str).ne(names.iter().copied()) || values.len() != names.len() {
        return Err(format!("an insert into {} that does not list its columns in order", table.name));
    }
    values
        .iter()
        .zip(&table.columns)
        .map(|(v, c)| match (v, c.ty) {
            (Expr::Lit(Lit::Null), _) => Ok(Val::Null),
            (Expr::Lit(Lit::Int(i)), ColType::Int) => Ok(Val::Int(*i)),
            (Expr::Lit(Lit::Text(s)), ColType::Text) => atom(s).ok_or_else(|| format!("{s:?} is no atom")),
            _ => Err(format!("a value of {}.{} outside the summary fragment", table.name, c.name)),
        })
        .collect()
}

fn atom(s: &str) -> Option<Val> {
    let i: usize = s.strip_prefix('v')?.parse().ok()?;
    (Spec::atom(i) == s).then_some(Val::Atom(i))
}

/// Whether the engine keeps every row: a row its constraints refuse would be in the
/// evaluator's table and not in the engine's.
fn accepted(table: &Table, rows: &[Vec<Val>]) -> Result<(), String> {
    for (i, c) in table.columns.iter().enumerate() {
        if c.not_null && rows.iter().any(|r| r[i] == Val::Null) {
            return Err(format!("a NULL in {}.{}, which refuses it", table.name, c.name));
        }
    }
    if !table.key.is_empty() {
        let keys: Vec<Vec<Val>> = rows.iter().map(|r| table.key.iter().map(|&k| r[k]).collect()).collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        if unique.len() != keys.len() {
            return Err(format!("a duplicate key in {}", table.name));
        }
    }
    Ok(())
}

/// The summary query whose syntax tree is exactly `select`.
pub fn query_of(spec: &Spec, select: &Select) -> Option<SummaryQuery> {
    let mut from = Vec::new();
    for t in select.from.iter().map(|f| &f.name).chain(select.joins.iter().map(|j| &j.table.name)) {
        from.push(spec.tables.iter().position(|x| x.name == *t)?);
    }
    let field = |e: &Expr| match e {
        Expr::Col(c) => {
            let table =
                if c.table.is_empty() { None } else { Some(spec.tables.iter().position(|t| t.name == c.table)?) };
            Some(Field { table, column: c.column.clone() })
        }
        _ => None,
    };
    let term = |e: &Expr| match e {
        Expr::Agg { arg: None, .. } => Some(Term::CountStar),
        Expr::Agg { func, arg: Some(a), .. } => Some(Term::Agg(*func, field(a)?)),
        other => field(other).map(Term::Plain),
    };
    let terms: Vec<Term> = select.items.iter().map(|Item { expr, .. }| term(expr)).collect::<Option<_>>()?;
    let count_distinct = select.items.iter().any(|i| matches!(i.expr, Expr::Agg { distinct: true, .. }));
    let mut where_ = Vec::new();
    for c in conjuncts(select.where_.as_ref()) {
        let (op, l, r) = comparison(c)?;
        let right = field(r).map(Operand::Field).or_else(|| constant(r).map(Operand::Const))?;
        where_.push(Cond { left: field(l)?, op, right });
    }
    let mut having = Vec::new();
    for c in conjuncts(select.having.as_ref()) {
        let (op, l, r) = comparison(c)?;
        having.push(HavingCond { term: term(l)?, op, value: constant(r)? });
    }
    let group_by = select.group_by.iter().map(field).collect::<Option<_>>()?;
    let q = SummaryQuery { from, terms, distinct: select.distinct || count_distinct, where_, group_by, having };
    (q.to_select(spec) == *select).then_some(q)
}

fn unqualified(e: &Expr) -> bool {
    match e {
        Expr::Col(c) => c.table.is_empty(),
        Expr::Agg { arg, .. } => arg.as_deref().is_some_and(unqualified),
        Expr::Binary(_, a, b) => unqualified(a) || unqualified(b),
        _ => false,
    }
}

/// The members of an AND chain, left to right.
fn conjuncts(e: Option<&Expr>) -> Vec<&Expr> {
    match e {
        None => Vec::new(),
        Some(Expr::Binary(BinOp::And, a, b)) => {
            let mut out = conjuncts(Some(a));
            out.extend(conjuncts(Some(b)));
            out
        }
        Some(other) => vec![other],
    }
}

fn comparison(e: &Expr) -> Option<(CmpOp, &Expr, &Expr)> {
    let Expr::Binary(op, l, r) = e else { return None };
    let op = match op {
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        BinOp::Ge => CmpOp::Ge,
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        _ => return None,
    };
    Some((op, l, r))
}

fn constant(e: &Expr) -> Option<Constant> {
    match e {
        Expr::Lit(Lit::Int(i)) => Some(Constant::Int(*i)),
        Expr::Lit(Lit::Text(s)) => Some(Constant::Text(s.clone())),
        _ => None,
    }
}
