//! The reference evaluator of a summary's queries: the expected output of each test, computed
//! from the generated database alone, never from an engine (the role of Alloy's `$query`
//! relation in seed 004 §4.5.3).
//!
//! Set semantics as the seed (its answers are Alloy sets; `[output] semantics = "set"`
//! compares answers with duplicates removed); bag semantics and NULLs with three-valued logic
//! are extensions, marked in the spec (`semantics = "bag"`, `[data] nulls = true`). The
//! fragment is small (atoms compared by name, small integers), so this is its own evaluator
//! rather than the PQS pivot evaluator (`crate::eval`), which judges one row, not a relation.

use super::data::Val;
use super::query::{Field, Operand, SummaryQuery, Term};
use super::spec::{CmpOp, Constant, JoinKind, Spec};
use crate::ast::Agg;
use crosscheck_core::{Rows, Value};
use std::cmp::Ordering;

/// Why a query has no single expected answer on a database (it is then not run there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unevaluable(pub String);

/// A relation in evaluation: named columns and rows.
struct Rel {
    cols: Vec<Field>,
    rows: Vec<Vec<Val>>,
}

/// A value in evaluation: a cell or an aggregate's result.
#[derive(Clone, Debug, PartialEq)]
enum Cell {
    Val(Val),
    Float(f64),
}

/// The expected answer of `q` over `tables` (rows per table, indexed like `Spec::tables`).
pub fn evaluate(spec: &Spec, q: &SummaryQuery, tables: &[Vec<Vec<Val>>]) -> Result<Rows, Unevaluable> {
    if q.mixes_without_group_by() {
        return Err(Unevaluable("aggregated and plain terms without GROUP BY".into()));
    }
    let rel = from(spec, q, tables);
    let mut kept = Vec::new();
    for row in &rel.rows {
        if where_holds(q, &rel, row)? {
            kept.push(row.clone());
        }
    }
    let grouped = !q.group_by.is_empty() || q.terms.iter().any(Term::is_agg);
    let mut out: Vec<Vec<Value>> = Vec::new();
    if grouped {
        for group in groups(q, &rel, kept) {
            if having_holds(q, &rel, &group)? {
                let row: Result<Vec<Value>, _> =
                    q.terms.iter().map(|t| term(q, &rel, &group, t).map(cell_value)).collect();
                out.push(row?);
            }
        }
    } else {
        for row in &kept {
            out.push(
                q.terms
                    .iter()
                    .map(|t| term(q, &rel, std::slice::from_ref(row), t).map(cell_value))
                    .collect::<Result<_, _>>()?,
            );
        }
    }
    if q.distinct || !spec.output.bag {
        out = super::check::distinct(out, &crosscheck_core::CompareOptions::default());
    }
    let columns = (0..q.terms.len()).map(|i| format!("c{i}")).collect();
    Ok(Rows::new(columns, out))
}

fn from(spec: &Spec, q: &SummaryQuery, tables: &[Vec<Vec<Val>>]) -> Rel {
    let mut rel = Rel { cols: Vec::new(), rows: vec![Vec::new()] };
    for &t in &q.from {
        let table = &spec.tables[t];
        let natural = spec.query.join == JoinKind::Natural;
        let names: Vec<Field> = table
            .columns
            .iter()
            .map(|c| Field { table: if natural { None } else { Some(t) }, column: c.name.clone() })
            .collect();
        // Pairs (column of rel, column of the table) a NATURAL JOIN equates.
        let common: Vec<(usize, usize)> = names
            .iter()
            .enumerate()
            .filter_map(|(j, f)| rel.cols.iter().position(|c| c == f).map(|i| (i, j)))
            .collect();
        let fresh: Vec<usize> = (0..names.len()).filter(|j| !common.iter().any(|(_, c)| c == j)).collect();
        let mut rows = Vec::new();
        for left in &rel.rows {
            for right in &tables[t] {
                // NULL never equals NULL, so a NULL join column drops the pair.
                let joins = common.iter().all(|&(i, j)| left[i] == right[j] && left[i] != Val::Null);
                if joins {
                    let mut row = left.clone();
                    row.extend(fresh.iter().map(|&j| right[j]));
                    rows.push(row);
                }
            }
        }
        rel.cols.extend(fresh.iter().map(|&j| names[j].clone()));
        rel.rows = rows;
    }
    rel
}

fn col(rel: &Rel, f: &Field) -> Result<usize, Unevaluable> {
    rel.cols.iter().position(|c| c == f).ok_or_else(|| Unevaluable(format!("no column {}", f.column)))
}

/// SQL comparison: `None` when either side is NULL; text and integers do not compare (engines
/// disagree on it: an error in PostgreSQL, an order of storage classes in SQLite).
fn compare(a: &Cell, b: &Cell) -> Result<Option<Ordering>, Unevaluable> {
    Ok(match (a, b) {
        (Cell::Val(Val::Null), _) | (_, Cell::Val(Val::Null)) => None,
        (Cell::Val(Val::Int(x)), Cell::Val(Val::Int(y))) => Some(x.cmp(y)),
        (Cell::Val(Val::Atom(x)), Cell::Val(Val::Atom(y))) => Some(Spec::atom(*x).cmp(&Spec::atom(*y))),
        (Cell::Float(x), Cell::Float(y)) => x.partial_cmp(y),
        (Cell::Float(x), Cell::Val(Val::Int(y))) => x.partial_cmp(&(*y as f64)),
        (Cell::Val(Val::Int(x)), Cell::Float(y)) => (*x as f64).partial_cmp(y),
        _ => return Err(Unevaluable("a comparison of text with a number".into())),
    })
}

fn constant_cell(k: &Constant) -> Result<Cell, Unevaluable> {
    match k {
        Constant::Int(i) => Ok(Cell::Val(Val::Int(*i))),
        // A constant text is an atom when it names one; any other text compares with none.
        Constant::Text(s) => s
            .strip_prefix('v')
            .and_then(|n| n.parse().ok())
            .map(|i| Cell::Val(Val::Atom(i)))
            .ok_or_else(|| Unevaluable(format!("the constant {s:?} is no atom"))),
    }
}

/// Three-valued result of `a op b`: `None` is UNKNOWN.
fn holds(op: CmpOp, a: &Cell, b: &Cell) -> Result<Option<bool>, Unevaluable> {
    Ok(compare(a, b)?.map(|o| match op {
        CmpOp::Lt => o == Ordering::Less,
        CmpOp::Le => o != Ordering::Greater,
        CmpOp::Gt => o == Ordering::Greater,
        CmpOp::Ge => o != Ordering::Less,
        CmpOp::Eq => o == Ordering::Equal,
        CmpOp::Ne => o != Ordering::Equal,
    }))
}

/// AND of the WHERE terms under 3VL: a row is kept only when the conjunction is TRUE.
fn where_holds(q: &SummaryQuery, rel: &Rel, row: &[Val]) -> Result<bool, Unevaluable> {
    for c in &q.where_ {
        let left = Cell::Val(row[col(rel, &c.left)?]);
        let right = match &c.right {
            Operand::Field(f) => Cell::Val(row[col(rel, f)?]),
            Operand::Const(k) => constant_cell(k)?,
        };
        if holds(c.op, &left, &right)? != Some(true) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The groups of `rows`: by the GROUP BY fields, or one group of everything (an aggregate
/// over no rows still answers one row).
fn groups(q: &SummaryQuery, rel: &Rel, rows: Vec<Vec<Val>>) -> Vec<Vec<Vec<Val>>> {
    if q.group_by.is_empty() {
        return vec![rows];
    }
    let idx: Vec<usize> = q.group_by.iter().filter_map(|f| rel.cols.iter().position(|c| c == f)).collect();
    let mut out: Vec<(Vec<Val>, Vec<Vec<Val>>)> = Vec::new();
    for row in rows {
        let key: Vec<Val> = idx.iter().map(|&i| row[i]).collect();
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(row),
            None => out.push((key, vec![row])),
        }
    }
    out.into_iter().map(|(_, g)| g).collect()
}

fn having_holds(q: &SummaryQuery, rel: &Rel, group: &[Vec<Val>]) -> Result<bool, Unevaluable> {
    for h in &q.having {
        let v = term(q, rel, group, &h.term)?;
        if holds(h.op, &v, &constant_cell(&h.value)?)? != Some(true) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A term's value over a group (a plain term: its value on the group's rows, all equal).
fn term(q: &SummaryQuery, rel: &Rel, group: &[Vec<Val>], t: &Term) -> Result<Cell, Unevaluable> {
    match t {
        Term::CountStar => Ok(Cell::Val(Val::Int(count(group.len())))),
        Term::Plain(f) => {
            let i = col(rel, f)?;
            group.first().map(|r| Cell::Val(r[i])).ok_or_else(|| Unevaluable("a plain term of no row".into()))
        }
        Term::Agg(a, f) => {
            let i = col(rel, f)?;
            let mut vals: Vec<Val> = group.iter().map(|r| r[i]).filter(|v| *v != Val::Null).collect();
            if q.distinct && *a == Agg::Count {
                vals.sort_unstable();
                vals.dedup();
            }
            aggregate(*a, &vals)
        }
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn aggregate(a: Agg, vals: &[Val]) -> Result<Cell, Unevaluable> {
    let ints = || -> Result<Vec<i64>, Unevaluable> {
        vals.iter()
            .map(|v| match v {
                Val::Int(i) => Ok(*i),
                _ => Err(Unevaluable(format!("{} of text", a.name()))),
            })
            .collect()
    };
    let extreme = |want: Ordering| -> Result<Cell, Unevaluable> {
        let mut best: Option<Cell> = None;
        for v in vals {
            let c = Cell::Val(*v);
            best = match best {
                Some(b) if compare(&c, &b)? != Some(want) => Some(b),
                _ => Some(c),
            };
        }
        Ok(best.unwrap_or(Cell::Val(Val::Null)))
    };
    match a {
        Agg::Count => Ok(Cell::Val(Val::Int(count(vals.len())))),
        Agg::Max => extreme(Ordering::Greater),
        Agg::Min => extreme(Ordering::Less),
        Agg::Sum | Agg::Total => {
            let xs = ints()?;
            Ok(if xs.is_empty() { Cell::Val(Val::Null) } else { Cell::Val(Val::Int(xs.iter().sum())) })
        }
        Agg::Avg => {
            let xs = ints()?;
            let n = xs.len() as f64;
            Ok(if xs.is_empty() { Cell::Val(Val::Null) } else { Cell::Float(xs.iter().sum::<i64>() as f64 / n) })
        }
    }
}

fn cell_value(c: Cell) -> Value {
    match c {
        Cell::Val(v) => v.value(),
        Cell::Float(f) => Value::Float(f),
    }
}
