//! Query enumeration (seed 004 §4.4): every query the spec's input constraints allow, each
//! isomorphism class once. Two queries are isomorphic when they differ only in the order of
//! their SELECT terms or FROM tables (§4.2's footnote), so terms, tables, WHERE terms, GROUP BY
//! terms and HAVING terms are all drawn as sets: combinations in one fixed pool order.
//!
//! The seed's semantic facts, as filters on the draw: a selected field belongs to a FROM
//! table (`field_in_table`), terms are distinct by (field, aggregate) (`unique_select_terms`),
//! no table twice (`unique_tables`), GROUP BY terms are plain SELECT terms, HAVING terms are
//! aggregated SELECT terms, a WHERE term never compares a term with itself.

use super::spec::{CmpOp, Constant, JoinKind, QuerySpec, Spec};
use crate::ast::{self, Agg, BinOp, ColRef, Expr, Item, Lit, Select, TableRef};

/// A column as a query names it: qualified by its table under a cross join, by its name
/// alone under NATURAL JOIN (where same-named columns are one).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub table: Option<usize>,
    pub column: String,
}

/// A SELECT term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Plain(Field),
    Agg(Agg, Field),
    CountStar,
}

impl Term {
    pub fn is_agg(&self) -> bool {
        !matches!(self, Term::Plain(_))
    }
}

/// The right side of a WHERE term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Field(Field),
    Const(Constant),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    pub left: Field,
    pub op: CmpOp,
    pub right: Operand,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HavingCond {
    pub term: Term,
    pub op: CmpOp,
    pub value: Constant,
}

/// One enumerated query.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SummaryQuery {
    /// Indices into `Spec::tables`, ascending.
    pub from: Vec<usize>,
    pub terms: Vec<Term>,
    /// `SELECT DISTINCT` on plain terms, `COUNT(DISTINCT c)` on counted columns.
    pub distinct: bool,
    /// ANDed (the seed leaves the connective open; AND is the one ADUSA's example starts with).
    pub where_: Vec<Cond>,
    pub group_by: Vec<Field>,
    pub having: Vec<HavingCond>,
}

impl SummaryQuery {
    /// Aggregated and plain terms together without GROUP BY: kept by the seed's generator (Fig.
    /// 4.2), rejected by PostgreSQL, DuckDB and strict MariaDB, answered with an arbitrary row
    /// by SQLite. Such a query has no single expected output, so it is counted but never run.
    pub fn mixes_without_group_by(&self) -> bool {
        self.group_by.is_empty() && self.terms.iter().any(Term::is_agg) && self.terms.iter().any(|t| !t.is_agg())
    }

    /// Whether SQL itself says the answer has no duplicate rows (SELECT DISTINCT, or one row
    /// per group): such an answer is compared exactly even under set semantics, so a
    /// duplicated row is wrong.
    pub fn duplicate_free(&self) -> bool {
        let grouped = !self.group_by.is_empty() || self.terms.iter().any(Term::is_agg);
        grouped || self.distinct
    }

    /// Text constants the query names: atoms that must stay fixed under isomorphism.
    pub fn text_constants(&self) -> Vec<String> {
        let wh = self.where_.iter().filter_map(|c| match &c.right {
            Operand::Const(Constant::Text(s)) => Some(s.clone()),
            _ => None,
        });
        let hv = self.having.iter().filter_map(|h| match &h.value {
            Constant::Text(s) => Some(s.clone()),
            Constant::Int(_) => None,
        });
        wh.chain(hv).collect()
    }

    /// The query as the leg's syntax tree, printed by the dialect printers.
    pub fn to_select(&self, spec: &Spec) -> Select {
        let col = |f: &Field| {
            let table = f.table.map(|t| spec.tables[t].name.clone()).unwrap_or_default();
            Expr::Col(ColRef { table, column: f.column.clone() })
        };
        let term = |t: &Term| match t {
            Term::Plain(f) => col(f),
            Term::Agg(a, f) => {
                Expr::Agg { func: *a, distinct: self.distinct && *a == Agg::Count, arg: Some(Box::new(col(f))) }
            }
            Term::CountStar => Expr::Agg { func: Agg::Count, distinct: false, arg: None },
        };
        let tables: Vec<TableRef> = self.from.iter().map(|&t| TableRef::named(&spec.tables[t].name, None)).collect();
        let (from, joins) = match spec.query.join {
            JoinKind::Cross => (tables, Vec::new()),
            JoinKind::Natural => {
                let mut it = tables.into_iter();
                let first: Vec<TableRef> = it.next().into_iter().collect();
                let joins = it.map(|table| ast::Join { kind: ast::JoinKind::Natural, table, on: None }).collect();
                (first, joins)
            }
        };
        let conds: Vec<Expr> = self
            .where_
            .iter()
            .map(|c| {
                let right = match &c.right {
                    Operand::Field(f) => col(f),
                    Operand::Const(k) => constant(k),
                };
                Expr::Binary(bin(c.op), Box::new(col(&c.left)), Box::new(right))
            })
            .collect();
        let having: Vec<Expr> = self
            .having
            .iter()
            .map(|h| Expr::Binary(bin(h.op), Box::new(term(&h.term)), Box::new(constant(&h.value))))
            .collect();
        Select {
            distinct: self.distinct && self.terms.iter().any(|t| !t.is_agg()),
            items: self.terms.iter().map(|t| Item { expr: term(t), alias: None }).collect(),
            from,
            joins,
            where_: conjunction(conds),
            group_by: self.group_by.iter().map(col).collect(),
            having: conjunction(having),
            ..Select::default()
        }
    }
}

fn constant(k: &Constant) -> Expr {
    Expr::Lit(match k {
        Constant::Int(i) => Lit::Int(*i),
        Constant::Text(s) => Lit::Text(s.clone()),
    })
}

fn bin(op: CmpOp) -> BinOp {
    match op {
        CmpOp::Lt => BinOp::Lt,
        CmpOp::Le => BinOp::Le,
        CmpOp::Gt => BinOp::Gt,
        CmpOp::Ge => BinOp::Ge,
        CmpOp::Eq => BinOp::Eq,
        CmpOp::Ne => BinOp::Ne,
    }
}

fn conjunction(mut es: Vec<Expr>) -> Option<Expr> {
    let last = es.pop()?;
    Some(es.into_iter().rev().fold(last, |acc, e| Expr::Binary(BinOp::And, Box::new(e), Box::new(acc))))
}

/// Every subset of `pool` with `min..=max` members, in pool order (each set once).
pub fn subsets<T: Clone>(pool: &[T], min: usize, max: usize) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn go<T: Clone>(pool: &[T], start: usize, min: usize, max: usize, cur: &mut Vec<T>, out: &mut Vec<Vec<T>>) {
        if cur.len() >= min {
            out.push(cur.clone());
        }
        if cur.len() == max {
            return;
        }
        for i in start..pool.len() {
            cur.push(pool[i].clone());
            go(pool, i + 1, min, max, cur, out);
            cur.pop();
        }
    }
    go(pool, 0, min, max, &mut cur, &mut out);
    out
}

/// The queries of one FROM set.
#[derive(Clone, Debug)]
pub struct FromGroup {
    pub from: Vec<usize>,
    /// `S`, `S NATURAL JOIN C`, `students, grades`.
    pub label: String,
    pub queries: Vec<SummaryQuery>,
}

/// All queries, grouped by FROM set (single tables first, then pairs, ...).
pub fn enumerate(spec: &Spec) -> Vec<FromGroup> {
    let q = &spec.query;
    let indices: Vec<usize> = (0..spec.tables.len()).collect();
    let mut froms = subsets(&indices, 1, q.max_tables);
    froms.sort_by_key(Vec::len);
    froms
        .into_iter()
        .map(|from| {
            let sep = if q.join == JoinKind::Natural { " NATURAL JOIN " } else { ", " };
            let label = from.iter().map(|&t| spec.tables[t].name.as_str()).collect::<Vec<_>>().join(sep);
            let queries = queries_over(spec, &from);
            FromGroup { from, label, queries }
        })
        .collect()
}

/// The fields visible over a FROM set.
pub fn fields(spec: &Spec, from: &[usize]) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for &t in from {
        for c in &spec.tables[t].columns {
            let f = match spec.query.join {
                JoinKind::Cross => Field { table: Some(t), column: c.name.clone() },
                JoinKind::Natural => Field { table: None, column: c.name.clone() },
            };
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

fn term_pool(q: &QuerySpec, fields: &[Field]) -> Vec<Term> {
    let mut pool = Vec::new();
    for f in fields {
        if q.plain {
            pool.push(Term::Plain(f.clone()));
        }
        pool.extend(q.aggregates.iter().map(|&a| Term::Agg(a, f.clone())));
    }
    if q.count_star {
        pool.push(Term::CountStar);
    }
    pool
}

fn queries_over(spec: &Spec, from: &[usize]) -> Vec<SummaryQuery> {
    let q = &spec.query;
    let fields = fields(spec, from);
    let pool = term_pool(q, &fields);
    let wheres = where_sets(q, &fields);
    let mut out = Vec::new();
    for terms in subsets(&pool, 1, q.max_terms) {
        let aggs = terms.iter().filter(|t| t.is_agg()).count();
        if q.aggregate_alone && aggs > 0 && terms.len() > 1 {
            continue;
        }
        for group_by in group_by_sets(q, &terms) {
            for having in having_sets(q, &terms) {
                for where_ in &wheres {
                    let (terms, group_by, having) = (terms.clone(), group_by.clone(), having.clone());
                    let where_ = where_.clone();
                    out.push(SummaryQuery {
                        from: from.to_vec(),
                        terms,
                        distinct: q.distinct,
                        where_,
                        group_by,
                        having,
                    });
                }
            }
        }
    }
    out
}

fn where_sets(q: &QuerySpec, fields: &[Field]) -> Vec<Vec<Cond>> {
    let mut out = Vec::new();
    if q.where_.allows_absent() {
        out.push(Vec::new());
    }
    if q.where_.allows_present() {
        let mut pool = Vec::new();
        for left in fields {
            for &op in &q.operators {
                let others = fields.iter().filter(|f| *f != left).map(|f| Operand::Field(f.clone()));
                let consts = q.values.iter().map(|v| Operand::Const(v.clone()));
                for right in others.chain(consts) {
                    pool.push(Cond { left: left.clone(), op, right });
                }
            }
        }
        out.extend(subsets(&pool, 1, q.max_where_terms));
    }
    out
}

fn group_by_sets(q: &QuerySpec, terms: &[Term]) -> Vec<Vec<Field>> {
    let plain: Vec<Field> = terms
        .iter()
        .filter_map(|t| match t {
            Term::Plain(f) => Some(f.clone()),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if q.group_by.allows_absent() {
        out.push(Vec::new());
    }
    if q.group_by.allows_present() {
        out.extend(subsets(&plain, 1, plain.len()));
    }
    out
}

fn having_sets(q: &QuerySpec, terms: &[Term]) -> Vec<Vec<HavingCond>> {
    let mut out = Vec::new();
    if q.having.allows_absent() {
        out.push(Vec::new());
    }
    if q.having.allows_present() {
        let mut pool = Vec::new();
        for t in terms.iter().filter(|t| t.is_agg()) {
            for &op in &q.operators {
                for v in &q.values {
                    pool.push(HavingCond { term: t.clone(), op, value: v.clone() });
                }
            }
        }
        out.extend(subsets(&pool, 1, q.max_having_terms));
    }
    out
}
