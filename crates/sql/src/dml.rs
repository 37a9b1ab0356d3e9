//! Data-modifying statements in a generated setup: `UPDATE ... WHERE`, `DELETE ... WHERE` and
//! `INSERT ... SELECT`, run after the rows are inserted, so that the engines reach the tested
//! state through DML (index entries updated, rows deleted, rows copied between tables). Their
//! printing, their generation, and the helpers the reducer and the `dqe` oracle share.

use crate::ast::{ColumnDef, Expr, Item, Select, SqlType, Stmt, TableRef, ToSql};
use crate::dialect::{cap, Dialect};
use crate::exprgen::{Env, ExprGen, ScopeCol};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Prints an UPDATE, DELETE or INSERT ... SELECT (any other statement prints nothing here).
pub fn write_dml(s: &Stmt, d: &dyn Dialect, out: &mut String) {
    match s {
        Stmt::Update { table, sets, where_ } => {
            out.push_str("UPDATE ");
            d.write_ident(out, table);
            out.push_str(" SET ");
            for (i, (column, e)) in sets.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                // The target is never qualified: PostgreSQL reads `t.c` as a field of a
                // composite column c.
                d.write_ident(out, column);
                out.push_str(" = ");
                e.write_sql(d, out);
            }
            write_where(where_.as_ref(), d, out);
        }
        Stmt::Delete { table, where_ } => {
            out.push_str("DELETE FROM ");
            d.write_ident(out, table);
            write_where(where_.as_ref(), d, out);
        }
        Stmt::InsertSelect { table, columns, select } => {
            out.push_str("INSERT INTO ");
            d.write_ident(out, table);
            out.push_str(" (");
            for (i, c) in columns.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                d.write_ident(out, c);
            }
            out.push_str(") ");
            select.write_sql(d, out);
        }
        _ => {}
    }
}

fn write_where(e: Option<&Expr>, d: &dyn Dialect, out: &mut String) {
    if let Some(e) = e {
        out.push_str(" WHERE ");
        e.write_sql(d, out);
    }
}

/// Whether `e` reads, in a subquery, the table `table` or any view (views are read through:
/// every view reads some base table, and MariaDB refuses one over the target as it refuses
/// the target itself, error 1443).
pub fn reads_table_or_view(e: &Expr, table: &str, env: &Env) -> bool {
    // Each select of a subquery: a compound's members and derived tables read tables too.
    fn reads(s: &Select, table: &str, env: &Env) -> bool {
        let mut names = s.from.iter().chain(s.joins.iter().map(|j| &j.table)).map(|t| t.name.as_str());
        names.any(|n| n == table || env.tables.iter().any(|t| t.view && t.name == n))
            || s.inner_selects().into_iter().any(|inner| reads(inner, table, env))
    }
    let mut found = false;
    e.visit(&mut |x| found |= x.subquery().is_some_and(|s| reads(s, table, env)));
    found
}

/// The columns of table `ti` as visible under `visible`.
pub fn scope_of(env: &Env, ti: usize, visible: &str) -> Vec<ScopeCol> {
    (0..env.tables[ti].columns.len()).map(|c| ScopeCol { visible: visible.to_string(), table: ti, column: c }).collect()
}

/// A predicate over the target table `ti` that an UPDATE or DELETE of it may use: where the
/// dialects refuse a subquery over the target ([`cap::DML_SELF_SUBQUERY`]), one that reads it
/// (or a view) is drawn again without subqueries; so is one that reads a view when `views` is
/// false (a query's scope also holds its own CTEs, which an UPDATE cannot read).
pub fn target_predicate(g: &mut ExprGen, ti: usize, depth: u32, views: bool) -> Expr {
    let p = g.predicate(depth);
    let name = &g.env.tables[ti].name;
    let self_read = !g.env.caps.has(cap::DML_SELF_SUBQUERY) && reads_table_or_view(&p, name, g.env);
    let view_read = !views && reads_table_or_view(&p, "", g.env);
    if !self_read && !view_read {
        return p;
    }
    let subqueries = std::mem::replace(&mut g.subqueries, false);
    let p = g.predicate(depth);
    g.subqueries = subqueries;
    p
}

/// Appends 0 to 4 DML statements to a database's setup, over its base tables (`setup` holds
/// their definitions).
pub fn gen_dml(rng: &mut ChaCha8Rng, env: &Env, setup: &mut Vec<Stmt>) {
    if !env.caps.has(cap::DML) {
        return;
    }
    for _ in 0..rng.gen_range(0..=4) {
        let stmt = gen_statement(rng, env, setup);
        setup.extend(stmt);
    }
}

/// One UPDATE, DELETE or INSERT ... SELECT over a base table of the database `setup` defines;
/// `None` when the dialect has no DML or the drawn statement cannot be written.
pub fn gen_statement(rng: &mut ChaCha8Rng, env: &Env, setup: &[Stmt]) -> Option<Stmt> {
    if !env.caps.has(cap::DML) {
        return None;
    }
    let base: Vec<usize> = (0..env.tables.len()).filter(|&t| !env.tables[t].view).collect();
    let &ti = base.choose(rng)?;
    match rng.gen_range(0..20) {
        0..=7 => gen_update(rng, env, ti),
        8..=11 => gen_delete(rng, env, ti),
        _ => gen_insert_select(rng, env, ti, setup),
    }
}

/// The type an expression assigned to a column must have (any, for an untyped column).
fn assigned_type(g: &mut ExprGen, ty: Option<SqlType>) -> SqlType {
    ty.unwrap_or_else(|| g.any_type())
}

fn gen_update(rng: &mut ChaCha8Rng, env: &Env, ti: usize) -> Option<Stmt> {
    let table = &env.tables[ti];
    let mut g = ExprGen::new(rng, env, scope_of(env, ti, &table.name));
    let n = if env.caps.has(cap::SIMULTANEOUS_SET) { g.rng.gen_range(1..=2) } else { 1 };
    let mut sets: Vec<(String, Expr)> = Vec::new();
    for _ in 0..n {
        let c = table.columns.choose(g.rng)?;
        if sets.iter().any(|(name, _)| *name == c.name) {
            continue;
        }
        // No subquery in an assignment: whether it sees the rows already updated differs
        // (SQLite evaluates it per row as it writes).
        g.subqueries = false;
        let t = assigned_type(&mut g, c.ty);
        let depth = g.rng.gen_range(0..=2);
        sets.push((c.name.clone(), g.expr(t, depth)));
    }
    g.subqueries = true;
    let where_ = if g.rng.gen_bool(0.9) {
        let depth = g.rng.gen_range(1..=2);
        Some(target_predicate(&mut g, ti, depth, true))
    } else {
        None
    };
    Some(Stmt::Update { table: table.name.clone(), sets, where_ })
}

/// A DELETE whose predicate reads a column: a constant one (`TRUE`) emptied the only table of a
/// database, and its 200 checks then tested nothing.
fn gen_delete(rng: &mut ChaCha8Rng, env: &Env, ti: usize) -> Option<Stmt> {
    let table = &env.tables[ti];
    let mut g = ExprGen::new(rng, env, scope_of(env, ti, &table.name));
    for _ in 0..3 {
        let depth = g.rng.gen_range(1..=2);
        let p = target_predicate(&mut g, ti, depth, true);
        if crate::gen::mentions_column(&p) {
            return Some(Stmt::Delete { table: table.name.clone(), where_: Some(p) });
        }
    }
    None
}

/// The definition of table `name` in `setup`.
fn definition<'a>(setup: &'a [Stmt], name: &str) -> Option<&'a [ColumnDef]> {
    setup.iter().find_map(|s| match s {
        Stmt::CreateTable { name: n, columns } if n == name => Some(columns.as_slice()),
        _ => None,
    })
}

/// `INSERT INTO t (...) SELECT ... FROM source [WHERE p]`, each item typed as its column.
fn gen_insert_select(rng: &mut ChaCha8Rng, env: &Env, ti: usize, setup: &[Stmt]) -> Option<Stmt> {
    let table = &env.tables[ti];
    let defs = definition(setup, &table.name)?;
    // A left-out or NULL INTEGER PRIMARY KEY takes a new rowid, a random one past
    // 9223372036854775807 (see `gen::rowid_safe`): copied rows would differ between runs.
    if env.caps.has(cap::ROWID_ALIAS) && defs.iter().any(|c| c.primary_key && c.ty == Some(SqlType::Int)) {
        return None;
    }
    let si = rng.gen_range(0..env.tables.len());
    let source = &env.tables[si];
    let mut g = ExprGen::new(rng, env, scope_of(env, si, &source.name));
    let mut columns = Vec::new();
    let mut items = Vec::new();
    for (c, def) in table.columns.iter().zip(defs) {
        // Required columns always, so that most rows are not refused for a missing value.
        if !(def.primary_key || def.not_null || g.rng.gen_bool(0.7)) {
            continue;
        }
        let t = assigned_type(&mut g, c.ty);
        let depth = g.rng.gen_range(0..=1);
        columns.push(c.name.clone());
        items.push(Item { expr: g.expr(t, depth), alias: None });
    }
    if columns.is_empty() {
        return None;
    }
    let where_ = if g.rng.gen_bool(0.6) { Some(g.predicate(1)) } else { None };
    let select = Select { items, from: vec![table_ref(&source.name)], where_, ..Select::default() };
    Some(Stmt::InsertSelect { table: table.name.clone(), columns, select: Box::new(select) })
}

/// A reference to a table or view by its name, without an alias (one place to build it, for
/// the day a table reference holds more).
pub fn table_ref(name: &str) -> TableRef {
    TableRef::named(name, None)
}

/// Whether a statement is one of the DML statements of this module.
pub fn is_dml(s: &Stmt) -> bool {
    matches!(s, Stmt::Update { .. } | Stmt::Delete { .. } | Stmt::InsertSelect { .. })
}

/// Whether a DML statement writes or reads table `name` (in its FROM or a subquery).
pub fn dml_mentions(s: &Stmt, name: &str) -> bool {
    let reads = |e: &Expr| {
        let mut found = false;
        e.visit(&mut |x| {
            if let Some(q) = x.subquery() {
                found |= q.from.iter().chain(q.joins.iter().map(|j| &j.table)).any(|t| t.name == name);
            }
        });
        found
    };
    match s {
        Stmt::Update { table, sets, where_ } => {
            table == name || sets.iter().any(|(_, e)| reads(e)) || where_.as_ref().is_some_and(reads)
        }
        Stmt::Delete { table, where_ } => table == name || where_.as_ref().is_some_and(reads),
        Stmt::InsertSelect { table, select, .. } => {
            let mut found = table == name || select.from.iter().any(|t| t.name == name);
            select.visit_exprs(&mut |e| found |= reads(e));
            found
        }
        _ => false,
    }
}

/// Removes column `column` of table `table` from the DML statements that write it (for the
/// reducer, which removes the column from the table); a statement left with no column goes.
pub fn drop_column(setup: &mut Vec<Stmt>, table: &str, column: &str) {
    for s in setup.iter_mut() {
        match s {
            Stmt::Update { table: t, sets, .. } if t == table => sets.retain(|(c, _)| c != column),
            Stmt::InsertSelect { table: t, columns, select } if t == table => {
                if let Some(k) = columns.iter().position(|c| c == column) {
                    columns.remove(k);
                    if k < select.items.len() {
                        select.items.remove(k);
                    }
                }
            }
            _ => {}
        }
    }
    setup.retain(|s| match s {
        Stmt::Update { sets, .. } => !sets.is_empty(),
        Stmt::InsertSelect { columns, .. } => !columns.is_empty(),
        _ => true,
    });
}
