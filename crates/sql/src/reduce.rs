//! Reduction candidates for SQL cases, most aggressive first.
//!
//! Candidates keep each oracle's invariants (the oracle's `keeps_shape` and `keep`: a
//! `tlp-group-by` query keeps its GROUP BY equal to its select list, a `tlp-distinct` query
//! stays DISTINCT), so that a reduced case shows the
//! same failure and not an artefact of the reduction. Candidates that break the setup or the
//! query simply fail the re-check and are dropped by the reducer.

use crate::ast::{ColumnDef, Expr, Lit, Select, Stmt, TableRef};
use crate::case::{Query, SqlCase};
use crosscheck_core::reduce::cuts;
use std::collections::BTreeSet;
use std::sync::Arc;

/// In the preorder of `Select::visit_exprs`: slots, then inner selects.
fn walk_select_mut(s: &mut Select, f: &mut dyn FnMut(&mut Expr)) {
    for e in s.slots_mut() {
        walk_expr_mut(e, f);
    }
    for inner in s.inner_selects_mut() {
        walk_select_mut(inner, f);
    }
}

fn walk_expr_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    f(e);
    for c in e.children_mut() {
        walk_expr_mut(c, f);
    }
    if let Some(s) = e.subquery_mut() {
        walk_select_mut(s, f);
    }
}

/// Every expression node of a query, in the preorder `walk_query_mut` uses.
fn nodes(q: &Query) -> Vec<Expr> {
    let mut out = Vec::new();
    let mut push = |e: &Expr| out.push(e.clone());
    q.select.visit_exprs(&mut push);
    if let Some(p) = &q.pred {
        p.visit(&mut push);
    }
    out
}

fn walk_query_mut(q: &mut Query, f: &mut dyn FnMut(&mut Expr)) {
    walk_select_mut(&mut q.select, f);
    if let Some(p) = &mut q.pred {
        walk_expr_mut(p, f);
    }
}

/// Simpler literals than `l`.
fn simpler_lits(l: &Lit) -> Vec<Lit> {
    match l {
        Lit::Int(i) if *i != 0 => vec![Lit::Int(0), Lit::Int(1)].into_iter().filter(|x| x != l).collect(),
        Lit::Real(f) if *f != 0.0 || f.is_sign_negative() => {
            let mut v = vec![Lit::Real(0.0)];
            if f.fract() != 0.0 && f.abs() < 1e15 {
                v.push(Lit::Real(f.trunc()));
            }
            v
        }
        Lit::Text(s) if !s.is_empty() => {
            let mut v = vec![Lit::Text(String::new())];
            if s.chars().count() > 1 {
                v.push(Lit::Text(s.chars().take(1).collect()));
            }
            v
        }
        Lit::Blob(b) if !b.is_empty() => vec![Lit::Blob(Vec::new())],
        Lit::Bool(true) => vec![Lit::Bool(false)],
        _ => vec![],
    }
}

/// Whether an expression is a predicate by its form (strict dialects take nothing else where a
/// condition is expected).
fn boolish(e: &Expr) -> bool {
    use crate::ast::{BinOp::*, UnOp};
    match e {
        Expr::Binary(op, ..) => {
            matches!(op, Eq | Ne | Lt | Le | Gt | Ge | Is | IsNot | And | Or | Like | NotLike | Glob | NotGlob)
        }
        Expr::Unary(UnOp::Not, _)
        | Expr::Postfix(..)
        | Expr::Between { .. }
        | Expr::InList { .. }
        | Expr::InSelect { .. }
        | Expr::Exists { .. }
        | Expr::Lit(Lit::Bool(_) | Lit::Null) => true,
        _ => false,
    }
}

/// Smaller expressions that may stand for `e`: its children, NULL, simpler constants, and its
/// subquery without WHERE. In a strict case, a predicate is replaced only by a predicate.
fn replacements(e: &Expr, strict: bool) -> Vec<Expr> {
    let mut v: Vec<Expr> = e.children().into_iter().filter(|c| !strict || boolish(c) == boolish(e)).cloned().collect();
    match e {
        Expr::Lit(l) => v.extend(simpler_lits(l).into_iter().map(Expr::Lit)),
        Expr::Col(_) => v.push(Expr::Lit(Lit::Null)),
        _ if boolish(e) => v.push(Expr::Lit(Lit::Null)),
        // A computed value the failure needs only as a value (a `c - c` that is zero) becomes
        // the simplest constant of each type: otherwise a reduced case kept arithmetic or a
        // function that says nothing of the bug, and one MariaDB signed-zero bug ended in
        // three groups. The wrong type fails the re-check.
        _ => v.extend([Lit::Null, Lit::Int(0), Lit::Real(0.0), Lit::Text(String::new())].map(Expr::Lit)),
    }
    // A list with one member fewer: replacing a member by NULL changes what IN answers.
    if let Expr::InList { list, .. } = e {
        for shorter in cuts(list, 1) {
            let mut e2 = e.clone();
            if let Expr::InList { list, .. } = &mut e2 {
                *list = shorter;
            }
            v.push(e2);
        }
    }
    if let Some(s) = e.subquery() {
        if s.where_.is_some() {
            let mut e2 = e.clone();
            if let Some(s2) = e2.subquery_mut() {
                s2.where_ = None;
            }
            v.push(e2);
        }
    }
    v
}

/// Visits every expression node of a `T` mutably, in preorder.
type Walk<T> = fn(&mut T, &mut dyn FnMut(&mut Expr));

/// `target` with one of its expression nodes (`nodes`, in the preorder `walk` visits them)
/// replaced by something smaller, each way [`replacements`] offers.
fn node_replacements<T: Clone>(target: &T, nodes: &[Expr], walk: Walk<T>, strict: bool) -> Vec<T> {
    let mut out = Vec::new();
    for (k, node) in nodes.iter().enumerate() {
        for r in replacements(node, strict) {
            let mut t = target.clone();
            let mut i = 0;
            walk(&mut t, &mut |e| {
                if i == k {
                    *e = r.clone();
                }
                i += 1;
            });
            out.push(t);
        }
    }
    out
}

fn with_query(case: &SqlCase, q: Query) -> SqlCase {
    SqlCase { query: q, ..case.clone() }
}

/// Clause-level candidates for the query, leaving alone what the oracle's argument needs.
fn clause_candidates(case: &SqlCase) -> Vec<Query> {
    let q = &case.query;
    let s = &q.select;
    let keep = case.oracle.rules().keep(q);
    let mut out = Vec::new();
    let mut push = |f: &dyn Fn(&mut Query)| {
        let mut c = q.clone();
        f(&mut c);
        out.push(c);
    };
    for i in 0..s.joins.len() {
        push(&|c| {
            c.select.joins.remove(i);
        });
    }
    let tables = s.from.len() + s.joins.len();
    for i in (0..s.from.len()).filter(|_| tables > 1) {
        push(&|c| {
            c.select.from.remove(i);
            // The first joined table takes the place of a FROM list left empty.
            if c.select.from.is_empty() && !c.select.joins.is_empty() {
                let first = c.select.joins.remove(0);
                c.select.from.push(first.table);
            }
        });
    }
    if s.where_.is_some() {
        push(&|c| c.select.where_ = None);
    }
    if !s.order_by.is_empty() {
        push(&|c| c.select.order_by.clear());
    }
    if s.distinct && !keep.distinct {
        push(&|c| c.select.distinct = false);
    }
    if !s.group_by.is_empty() && !keep.group_by {
        push(&|c| c.select.group_by.clear());
    }
    if s.having.is_some() {
        push(&|c| c.select.having = None);
    }
    for i in 0..s.joins.len() {
        if s.joins[i].on.is_some() {
            push(&|c| c.select.joins[i].on = None);
        }
    }

    if keep.min_items.is_some_and(|m| s.items.len() > m) {
        for i in 0..s.items.len() {
            push(&|c| {
                c.select.items.remove(i);
                if keep.items_are_keys && i < c.select.group_by.len() {
                    c.select.group_by.remove(i);
                }
            });
        }
    }
    out.extend(self_join_merges(q));
    out.extend(compound_candidates(q));
    out
}

/// The query without each compound member, each CTE, a CTE's MATERIALIZED hint, and with each
/// inner select (CTE body, derived table, compound member) one clause smaller. An unread CTE
/// kept otherwise; a candidate that breaks the query fails the re-check.
fn compound_candidates(q: &Query) -> Vec<Query> {
    let s = &q.select;
    let mut out = Vec::new();
    for i in 0..s.compound.len() {
        let mut c = q.clone();
        c.select.compound.remove(i);
        out.push(c);
    }
    for i in 0..s.with.len() {
        let mut c = q.clone();
        c.select.with.remove(i);
        out.push(c);
        if s.with[i].materialized.is_some() {
            let mut c = q.clone();
            c.select.with[i].materialized = None;
            out.push(c);
        }
    }
    for i in 0..s.inner_selects().len() {
        for cut in INNER_CUTS {
            let mut c = q.clone();
            if let Some(inner) = c.select.inner_selects_mut().into_iter().nth(i) {
                if cut(inner) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Clause cuts of an inner select; each says whether it changed anything.
const INNER_CUTS: &[fn(&mut Select) -> bool] = &[
    |s| s.where_.take().is_some(),
    |s| std::mem::take(&mut s.distinct),
    |s| !std::mem::take(&mut s.compound).is_empty(),
    |s| s.having.take().is_some(),
    |s| s.limit.take().is_some() | s.offset.take().is_some(),
    |s| !std::mem::take(&mut s.joins).is_empty(),
];

/// A join of a table that the query already reads, dropped with its alias's columns read from
/// the other occurrence. Dropping such a join alone leaves references to its alias and never
/// passes the re-check, so self-joins the failure does not need stayed in reduced cases.
fn self_join_merges(q: &Query) -> Vec<Query> {
    let s = &q.select;
    let tables: Vec<&TableRef> = s.from.iter().chain(s.joins.iter().map(|j| &j.table)).collect();
    let mut out = Vec::new();
    for (i, join) in s.joins.iter().enumerate() {
        let gone = join.table.visible().to_string();
        let Some(other) = tables.iter().find(|t| t.name == join.table.name && t.visible() != gone) else { continue };
        let other = other.visible().to_string();
        let mut c = q.clone();
        c.select.joins.remove(i);
        walk_query_mut(&mut c, &mut |e| {
            if let Expr::Col(r) = e {
                if r.table == gone {
                    r.table = other.clone();
                }
            }
        });
        out.push(c);
    }
    out
}

/// Reduction candidates, most aggressive first.
pub fn shrink(case: &SqlCase) -> Vec<SqlCase> {
    let mut out = Vec::new();
    // Whole tables with everything that mentions them.
    for s in case.setup.iter() {
        if let Stmt::CreateTable { name, .. } = s {
            let setup: Vec<Stmt> = case.setup.iter().filter(|st| !mentions(st, name)).cloned().collect();
            out.push(SqlCase { setup: Arc::new(setup), ..case.clone() });
        }
    }
    // Statements and rows, in delta-debugging order; tables are dropped only whole.
    let removable: Vec<usize> =
        (0..case.setup.len()).filter(|&i| !matches!(case.setup[i], Stmt::CreateTable { .. })).collect();
    for keep in cuts(&removable, 0) {
        let keep: BTreeSet<usize> = keep.into_iter().collect();
        let setup = case
            .setup
            .iter()
            .enumerate()
            .filter(|(i, s)| matches!(s, Stmt::CreateTable { .. }) || keep.contains(i))
            .map(|(_, s)| s.clone())
            .collect();
        out.push(SqlCase { setup: Arc::new(setup), ..case.clone() });
    }
    let rules = case.oracle.rules();
    let keeps = |q: &Query| rules.keeps_shape(q) && crate::inner::decided(&q.select);
    out.extend(clause_candidates(case).into_iter().filter(|q| keeps(q)).map(|q| with_query(case, q)));
    out.extend(column_candidates(case));
    out.extend(constraint_candidates(case));
    out.extend(view_candidates(case));
    out.extend(dml_candidates(case));
    out.extend(view_inlines(case));
    // Expressions: each node replaced by something smaller.
    for q in node_replacements(&case.query, &nodes(&case.query), walk_query_mut, case.strict) {
        if keeps(&q) {
            out.push(with_query(case, q));
        }
    }
    // Constants in the rows and setup expressions.
    for (si, s) in case.setup.iter().enumerate() {
        if let Stmt::Insert { values, .. } = s {
            for (vi, v) in values.iter().enumerate() {
                for r in replacements(v, case.strict) {
                    let mut c = case.clone();
                    if let Stmt::Insert { values, .. } = &mut Arc::make_mut(&mut c.setup)[si] {
                        values[vi] = r;
                    }
                    out.push(c);
                }
            }
        }
    }
    // A strict dialect refuses a COLLATE over a value of another type than text; a case
    // without one keeps none (see `collation::collates_non_text`).
    let non_text =
        |c: &SqlCase| c.strict && crate::collation::collates_non_text(&c.setup, &c.query.select, c.query.pred.as_ref());
    if !non_text(case) {
        out.retain(|c| !non_text(c));
    }
    out
}

/// A DML statement made smaller: without its WHERE, an assignment or an inserted column, or
/// one expression node replaced.
fn dml_candidates(case: &SqlCase) -> Vec<SqlCase> {
    let mut out = Vec::new();
    for (si, s) in case.setup.iter().enumerate() {
        for smaller in smaller_dml(s, case.strict) {
            let mut c = case.clone();
            Arc::make_mut(&mut c.setup)[si] = smaller;
            out.push(c);
        }
    }
    out
}

/// Smaller forms of one DML statement (none for another statement).
fn smaller_dml(s: &Stmt, strict: bool) -> Vec<Stmt> {
    let exprs = |e: &Expr| {
        let mut nodes = Vec::new();
        e.visit(&mut |x| nodes.push(x.clone()));
        node_replacements(e, &nodes, walk_expr_mut, strict)
    };
    let mut out = Vec::new();
    match s {
        Stmt::Update { table, sets, where_ } => {
            let with =
                |sets: Vec<(String, Expr)>, where_: Option<Expr>| Stmt::Update { table: table.clone(), sets, where_ };
            if let Some(w) = where_ {
                out.push(with(sets.clone(), None));
                out.extend(exprs(w).into_iter().map(|w| with(sets.clone(), Some(w))));
            }
            for i in (0..sets.len()).filter(|_| sets.len() > 1) {
                let mut fewer = sets.clone();
                fewer.remove(i);
                out.push(with(fewer, where_.clone()));
            }
            for (i, (_, e)) in sets.iter().enumerate() {
                for r in exprs(e) {
                    let mut other = sets.clone();
                    other[i].1 = r;
                    out.push(with(other, where_.clone()));
                }
            }
        }
        Stmt::Delete { table, where_: Some(w) } => {
            out.extend(exprs(w).into_iter().map(|w| Stmt::Delete { table: table.clone(), where_: Some(w) }));
        }
        Stmt::InsertSelect { table, columns, select } => {
            let with = |columns: Vec<String>, select: Select| Stmt::InsertSelect {
                table: table.clone(),
                columns,
                select: Box::new(select),
            };
            if select.where_.is_some() {
                out.push(with(columns.clone(), Select { where_: None, ..(**select).clone() }));
            }
            for i in (0..columns.len()).filter(|&i| columns.len() > 1 && i < select.items.len()) {
                let (mut cols, mut sel) = (columns.clone(), (**select).clone());
                cols.remove(i);
                sel.items.remove(i);
                out.push(with(cols, sel));
            }
            let mut nodes = Vec::new();
            select.visit_exprs(&mut |e| nodes.push(e.clone()));
            let bodies = node_replacements(&**select, &nodes, walk_select_mut, strict);
            out.extend(bodies.into_iter().map(|b| with(columns.clone(), b)));
        }
        _ => {}
    }
    out
}

/// A view's body made smaller: without its WHERE or DISTINCT, or one expression node
/// replaced. Reductions otherwise kept whatever expression a view happened to compute (a
/// MariaDB outer-join bug that needs only a constant view column ended as five cases, each
/// with another function in its view).
fn view_candidates(case: &SqlCase) -> Vec<SqlCase> {
    let mut out = Vec::new();
    for (si, s) in case.setup.iter().enumerate() {
        let Stmt::CreateView { select, .. } = s else { continue };
        let mut bodies: Vec<Select> = Vec::new();
        if select.where_.is_some() {
            bodies.push(Select { where_: None, ..(**select).clone() });
        }
        if select.distinct {
            bodies.push(Select { distinct: false, ..(**select).clone() });
        }
        let mut nodes = Vec::new();
        select.visit_exprs(&mut |e| nodes.push(e.clone()));
        bodies.extend(node_replacements(&**select, &nodes, walk_select_mut, case.strict));
        for body in bodies {
            let mut c = case.clone();
            if let Stmt::CreateView { select, .. } = &mut Arc::make_mut(&mut c.setup)[si] {
                **select = body;
            }
            out.push(c);
        }
    }
    out
}

/// A view the query reads once, at its top level, replaced by the view's table with the
/// view's expressions in place of its columns, and its statement dropped. A failure that does
/// not need the view then ends without it: a MariaDB DISTINCT bug met through a view was a
/// group of its own.
fn view_inlines(case: &SqlCase) -> Vec<SqlCase> {
    let mut out = Vec::new();
    for (si, st) in case.setup.iter().enumerate() {
        let Stmt::CreateView { name, columns, select: body } = st else { continue };
        if !inlinable(body) || reads(&case.query, name) != 1 {
            continue;
        }
        let others = case.setup.iter().enumerate().filter(|(i, _)| *i != si);
        if others.clone().any(|(_, o)| matches!(o, Stmt::CreateView { select, .. } if reads_select(select, name) > 0)) {
            continue;
        }
        let s = &case.query.select;
        let Some(tref) = s.from.iter().chain(s.joins.iter().map(|j| &j.table)).find(|t| t.name == *name) else {
            continue;
        };
        let q = inline_view(&case.query, tref.visible(), columns, body);
        let setup = others.map(|(_, o)| o.clone()).collect();
        out.push(SqlCase { setup: Arc::new(setup), query: q, ..case.clone() });
    }
    out
}

/// A view body that is one table's rows, each mapped by plain expressions.
fn inlinable(body: &Select) -> bool {
    !body.distinct
        && body.from.len() == 1
        && body.joins.is_empty()
        && body.where_.is_none()
        && body.group_by.is_empty()
        && body.having.is_none()
        && body.order_by.is_empty()
        && body.limit.is_none()
        && body.offset.is_none()
        && !body.items.is_empty()
        && !body.items.iter().any(|i| i.expr.contains_agg())
}

/// `q` with the table reference whose visible name is `vis` (a view with `columns` and `body`)
/// replaced by the body's table under the same visible name.
fn inline_view(q: &Query, vis: &str, columns: &[String], body: &Select) -> Query {
    // The view's expressions name a placeholder table first, so that the walk, which enters
    // what it has just put in place, never substitutes into its own output.
    const MARK: &str = "\u{0}inlined";
    let exprs: Vec<Expr> = body.items.iter().map(|i| renamed(&i.expr, body.from[0].visible(), MARK)).collect();
    let base = &body.from[0].name;
    let table = TableRef::named(base, (vis != base).then(|| vis.to_string()));
    let mut q = q.clone();
    let s = &mut q.select;
    for t in s.from.iter_mut().chain(s.joins.iter_mut().map(|j| &mut j.table)) {
        if t.visible() == vis {
            *t = table.clone();
        }
    }
    walk_query_mut(&mut q, &mut |e| {
        if let Expr::Col(r) = e {
            if r.table == vis {
                if let Some(k) = columns.iter().position(|c| *c == r.column).filter(|k| *k < exprs.len()) {
                    *e = exprs[k].clone();
                }
            }
        }
    });
    walk_query_mut(&mut q, &mut |e| rename_col(e, MARK, vis));
    q
}

fn renamed(e: &Expr, from: &str, to: &str) -> Expr {
    let mut e = e.clone();
    walk_expr_mut(&mut e, &mut |x| rename_col(x, from, to));
    e
}

fn rename_col(e: &mut Expr, from: &str, to: &str) {
    if let Expr::Col(r) = e {
        if r.table == from {
            r.table = to.to_string();
        }
    }
}

/// How many times the query reads a table or view, subqueries included.
fn reads(q: &Query, name: &str) -> usize {
    let mut n = reads_select(&q.select, name);
    if let Some(p) = &q.pred {
        // `visit` enters nested subqueries itself.
        p.visit(&mut |e| n += e.subquery().map_or(0, |s| reads_here(s, name)));
    }
    n
}

fn reads_select(s: &Select, name: &str) -> usize {
    let mut n = reads_here(s, name);
    s.visit_exprs(&mut |e| n += e.subquery().map_or(0, |sub| reads_here(sub, name)));
    n
}

/// The references in one select's own FROM and joins.
fn reads_here(s: &Select, name: &str) -> usize {
    s.from.iter().chain(s.joins.iter().map(|j| &j.table)).filter(|t| t.name == name).count()
}

/// Clears one constraint of a column.
type Clear = fn(&mut ColumnDef);

/// One column constraint, default or collation dropped. Without this a one-column table kept
/// them all, and a reduced case's signature named features the failure does not need.
fn constraint_candidates(case: &SqlCase) -> Vec<SqlCase> {
    let mut out = Vec::new();
    for (si, s) in case.setup.iter().enumerate() {
        let Stmt::CreateTable { columns, .. } = s else { continue };
        for (ci, col) in columns.iter().enumerate() {
            let drops: [(bool, Clear); 5] = [
                (col.primary_key, |c| c.primary_key = false),
                (col.unique, |c| c.unique = false),
                (col.not_null, |c| c.not_null = false),
                (col.default.is_some(), |c| c.default = None),
                (col.collate.is_some(), |c| c.collate = None),
            ];
            for (present, drop) in drops {
                if !present {
                    continue;
                }
                let mut c = case.clone();
                if let Stmt::CreateTable { columns, .. } = &mut Arc::make_mut(&mut c.setup)[si] {
                    drop(&mut columns[ci]);
                }
                out.push(c);
            }
        }
    }
    out
}

/// A table column (with its values in every row), or a view column, removed.
fn column_candidates(case: &SqlCase) -> Vec<SqlCase> {
    let mut out = Vec::new();
    for (si, s) in case.setup.iter().enumerate() {
        match s {
            Stmt::CreateTable { name, columns } if columns.len() > 1 => {
                for ci in 0..columns.len() {
                    let mut c = case.clone();
                    let col = columns[ci].name.clone();
                    if let Stmt::CreateTable { columns, .. } = &mut Arc::make_mut(&mut c.setup)[si] {
                        columns.remove(ci);
                    }
                    crate::dml::drop_column(Arc::make_mut(&mut c.setup), name, &col);
                    for st in Arc::make_mut(&mut c.setup).iter_mut() {
                        if let Stmt::Insert { table, columns, values } = st {
                            if table == name {
                                if let Some(k) = columns.iter().position(|x| *x == col) {
                                    columns.remove(k);
                                    values.remove(k);
                                }
                            }
                        }
                    }
                    out.push(c);
                }
            }
            Stmt::CreateView { columns, .. } if columns.len() > 1 => {
                for ci in 0..columns.len() {
                    let mut c = case.clone();
                    if let Stmt::CreateView { columns, select, .. } = &mut Arc::make_mut(&mut c.setup)[si] {
                        columns.remove(ci);
                        if ci < select.items.len() {
                            select.items.remove(ci);
                        }
                    }
                    out.push(c);
                }
            }
            _ => {}
        }
    }
    out
}

fn mentions(s: &Stmt, table: &str) -> bool {
    match s {
        Stmt::CreateTable { name, .. } | Stmt::Insert { table: name, .. } => name == table,
        Stmt::CreateIndex { table: t, .. } => t == table,
        Stmt::CreateView { select, .. } => select.from.iter().any(|t| t.name == table),
        Stmt::Analyze => false,
        dml => crate::dml::dml_mentions(dml, table),
    }
}
