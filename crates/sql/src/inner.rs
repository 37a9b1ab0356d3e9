//! Selects inside a query: common table expressions, derived tables, and the members of
//! compound selects (`UNION`, `INTERSECT`, `EXCEPT`), each where the run's dialects have it.
//!
//! A CTE or derived table becomes a table of a per-query copy of the database's [`Env`], so
//! the rest of the generator reads it like any table. Its columns are canonical in loose runs
//! (each a `CAST` to one type, text compared by bytes): a set operation, DISTINCT or LIMIT
//! keeps one of several equal values (`0` and `0.0`, `'a'` and `'A'`), and which one is up
//! to the plan. The partitioned query of TLP is planned differently from the whole one, so a
//! kept value that `typeof()` could tell apart would be a difference that is no bug.

use crate::ast::{
    Agg, Collation, Compound, Cte, Expr, Frame, Item, Order, Select, SetOp, SqlType, TableRef, WinFunc, Window,
};
use crate::dialect::cap;
use crate::exprgen::{ColInfo, Env, ExprGen, ScopeCol, TableInfo};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The query's CTEs and derived tables, as tables of a copy of `env`, or `None` when the query
/// draws neither.
pub fn sources(rng: &mut ChaCha8Rng, env: &Env) -> Option<(Env, Vec<Cte>)> {
    let ctes = env.caps.has(cap::CTE) && rng.gen_bool(0.15);
    let derived = env.caps.has(cap::DERIVED_TABLE) && rng.gen_bool(0.15);
    if !ctes && !derived {
        return None;
    }
    let mut qenv = env.clone();
    let mut with = Vec::new();
    for k in 0..if ctes { rng.gen_range(1..=2) } else { 0 } {
        // A later CTE may read an earlier one: `qenv` holds it already.
        let name = format!("w{k}");
        let Some((select, info)) = body(rng, &qenv, &name) else { continue };
        let materialized = (env.caps.has(cap::CTE_MATERIALIZED) && rng.gen_bool(0.3)).then(|| rng.gen());
        let columns = info.columns.iter().map(|c| c.name.clone()).collect();
        with.push(Cte { name, columns, materialized, select });
        qenv.tables.push(info);
    }
    if derived {
        if let Some((select, mut info)) = body(rng, &qenv, "d0") {
            info.body = Some(Box::new(select));
            qenv.tables.push(info);
        }
    }
    qenv.own = qenv.tables.len() - env.tables.len();
    Some((qenv, with))
}

/// A table's worth of rows: one to three typed columns over one table of `env`, sometimes a
/// compound of several such selects or a top-N under a total order. Its columns are named
/// `c0...` (the CTE's column list, or the caller's item aliases).
fn body(rng: &mut ChaCha8Rng, env: &Env, name: &str) -> Option<(Select, TableInfo)> {
    let ti = readable(rng, env)?;
    let n = rng.gen_range(1..=3);
    let types: Vec<SqlType> = (0..n).map(|_| column_type(rng, &env.tables[ti])).collect();
    let mut select = member(rng, env, ti, &types);
    if env.caps.has(cap::SET_OPS) && rng.gen_bool(0.35) {
        for _ in 0..rng.gen_range(1..=2) {
            add_compound(rng, env, &types, &mut select);
        }
    } else if rng.gen_bool(0.2) {
        top_n(rng, &mut select);
    }
    // Named in the body too: MariaDB names an unnamed item by its text and refuses two of
    // the same name ("Duplicate column name"), even under a CTE's column list.
    for (i, item) in select.items.iter_mut().enumerate() {
        item.alias = Some(format!("c{i}"));
    }
    let columns = types
        .iter()
        .enumerate()
        .map(|(i, &t)| ColInfo {
            name: format!("c{i}"),
            ty: Some(canonical_type(env, t)),
            values: Vec::new(),
            exact: false,
        })
        .collect();
    Some((select, TableInfo { name: name.to_string(), columns, view: true, body: None }))
}

/// A further member of `s`, a compound select: items of `types` over a table of `env`. In a
/// loose run only `UNION ALL` when `s` is not canonical (its items are the caller's).
pub fn add_compound(rng: &mut ChaCha8Rng, env: &Env, types: &[SqlType], s: &mut Select) {
    let Some(ti) = readable(rng, env) else { return };
    if env.loose && !s.items.iter().all(|i| matches!(i.expr, Expr::Cast(..) | Expr::Collate(..))) {
        s.compound.push(Compound { op: SetOp::Union, all: true, select: member(rng, env, ti, types) });
        return;
    }
    // INTERSECT binds tighter than UNION and EXCEPT in the standard, while SQLite applies
    // compound operators left to right: as the first operator it means the same in both.
    let ops: &[SetOp] = if s.compound.is_empty() {
        &[SetOp::Union, SetOp::Union, SetOp::Intersect, SetOp::Except]
    } else {
        &[SetOp::Union, SetOp::Union, SetOp::Except]
    };
    let op = *ops.choose(rng).unwrap_or(&SetOp::Union);
    // INTERSECT ALL and EXCEPT ALL only where the dialects have them; UNION ALL everywhere.
    let mut all = op == SetOp::Union && rng.gen() || env.caps.has(cap::SET_OPS_ALL) && rng.gen_bool(0.3);
    let after_intersect_all = s.compound.last().is_some_and(|c| c.op == SetOp::Intersect && c.all);
    if op == SetOp::Except && after_intersect_all && !env.caps.has(cap::INTERSECT_ALL_THEN_EXCEPT_ALL) {
        all = false;
    }
    s.compound.push(Compound { op, all, select: member(rng, env, ti, types) });
}

/// `ORDER BY` every item, then `LIMIT` and maybe `OFFSET`: which rows are kept is decided,
/// as ties are whole equal rows (and items are canonical where values can be equal and
/// differ).
fn top_n(rng: &mut ChaCha8Rng, s: &mut Select) {
    // A constant is the same in every row, so leaving it out leaves the order total; and an
    // integer constant in ORDER BY is a column number.
    let keys = s.items.iter().filter(|i| crate::gen::mentions_column(&i.expr));
    s.order_by = keys.map(|i| Order { expr: i.expr.clone(), desc: rng.gen() }).collect();
    if s.order_by.is_empty() {
        return;
    }
    s.limit = Some(rng.gen_range(0..4));
    s.offset = rng.gen_bool(0.3).then(|| rng.gen_range(0..3));
}

/// A table a body may read: a base table, a view or an earlier CTE, never a derived table
/// (visible only in the FROM that writes it).
fn readable(rng: &mut ChaCha8Rng, env: &Env) -> Option<usize> {
    let ok: Vec<usize> =
        (0..env.tables.len()).filter(|&t| env.tables[t].body.is_none() && !env.tables[t].columns.is_empty()).collect();
    ok.choose(rng).copied()
}

/// The type of one of the table's columns, so that the body's values come from data.
fn column_type(rng: &mut ChaCha8Rng, t: &TableInfo) -> SqlType {
    t.columns.choose(rng).and_then(|c| c.ty).unwrap_or(SqlType::Int)
}

/// One select of a body: items of the given types over table `ti`, maybe a WHERE.
fn member(rng: &mut ChaCha8Rng, env: &Env, ti: usize, types: &[SqlType]) -> Select {
    let table = &env.tables[ti];
    let scope: Vec<ScopeCol> =
        (0..table.columns.len()).map(|c| ScopeCol { visible: table.name.clone(), table: ti, column: c }).collect();
    let mut g = ExprGen::new(rng, env, scope);
    // No subquery in an item: MariaDB merges the body into the query that reads it, and a
    // subquery then inside a row value is "not yet supported" (error 1235).
    g.subqueries = false;
    g.merged = true;
    let items = types
        .iter()
        .map(|&t| {
            // Depth 0: a column of type `t` (or a literal).
            let depth = if g.rng.gen_bool(0.6) { 0 } else { 1 };
            let e = g.expr(t, depth);
            Item { expr: canonical(env, e, t), alias: None }
        })
        .collect();
    g.subqueries = true;
    g.merged = false;
    let where_ = g.rng.gen_bool(0.5).then(|| g.predicate(1));
    Select { items, from: vec![TableRef::named(&table.name, None)], where_, ..Select::default() }
}

/// In a loose run, `e` as one type with byte-wise text comparison (see the module comment);
/// else `e` itself, which the strict generator made of type `t`.
fn canonical(env: &Env, e: Expr, t: SqlType) -> Expr {
    if !env.loose {
        return e;
    }
    let to = canonical_type(env, t);
    let cast = Expr::Cast(Box::new(e), to);
    if to == SqlType::Text && env.collations.len() > 1 {
        Expr::Collate(Box::new(cast), Collation::Binary)
    } else {
        cast
    }
}

/// The type of a canonical column of type `t`.
fn canonical_type(env: &Env, t: SqlType) -> SqlType {
    match t {
        SqlType::Bool | SqlType::Int if env.loose => SqlType::Int,
        SqlType::Text | SqlType::Blob if env.loose => SqlType::Text,
        t => t,
    }
}

/// The end of a query whose answer is compared as a whole (`differential`, `config`): maybe a
/// compound of further selects of the items' types, a top-N, or a window function item.
pub fn whole_tail(g: &mut ExprGen, q: &mut crate::case::Query) {
    let env = g.env;
    let s = &mut q.select;
    let draw = g.rng.gen_range(0..10);
    if draw < 2 && env.caps.has(cap::SET_OPS) {
        let types: Vec<SqlType> = (0..s.items.len()).map(|_| g.any_type()).collect();
        s.items = types.iter().map(|&t| Item { expr: canonical(env, g.expr(t, 1), t), alias: None }).collect();
        for _ in 0..g.rng.gen_range(1..=2) {
            add_compound(g.rng, env, &types, s);
        }
    } else if draw < 4 {
        if env.loose {
            let types: Vec<SqlType> = (0..s.items.len()).map(|_| g.any_type()).collect();
            s.items = types.iter().map(|&t| Item { expr: canonical(env, g.expr(t, 1), t), alias: None }).collect();
        }
        top_n(g.rng, s);
    } else if draw < 6 && env.caps.has(cap::WINDOW) && !env.loose && !g.scope.is_empty() {
        let w = window(g);
        s.items.push(Item { expr: w, alias: None });
    }
}

/// A window function ordered by every column in scope: rows tie only where they are equal
/// in every column, so which of them gets which rank or frame leaves the answer's rows the
/// same, and the answer is one bag on every engine.
fn window(g: &mut ExprGen) -> Expr {
    let cols: Vec<(Expr, Option<SqlType>)> = g
        .scope
        .iter()
        .map(|sc| {
            let c = &g.env.tables[sc.table].columns[sc.column];
            (Expr::col(&sc.visible, &c.name), c.ty)
        })
        .collect();
    let order_by = cols.iter().map(|(e, _)| Order { expr: e.clone(), desc: g.rng.gen() }).collect();
    let partition_by =
        if g.rng.gen_bool(0.4) { cols.choose(g.rng).map(|(e, _)| e.clone()).into_iter().collect() } else { Vec::new() };
    let (func, args) = match g.rng.gen_range(0..6) {
        0 => (WinFunc::RowNumber, Vec::new()),
        1 => (WinFunc::Rank, Vec::new()),
        2 => (WinFunc::DenseRank, Vec::new()),
        3 => (WinFunc::Agg(Agg::Count), Vec::new()),
        _ => {
            let func = if g.rng.gen() { Agg::Min } else { Agg::Max };
            match cols.choose(g.rng) {
                Some((e, Some(t))) if g.env.caps.has_agg(func, *t) => (WinFunc::Agg(func), vec![e.clone()]),
                _ => (WinFunc::Agg(Agg::Count), Vec::new()),
            }
        }
    };
    let frame = if matches!(func, WinFunc::Agg(_)) && g.rng.gen() {
        Some(Frame { preceding: g.rng.gen_bool(0.7).then(|| g.rng.gen_range(0..3)) })
    } else {
        None
    };
    Expr::Window(Box::new(Window { func, args, partition_by, order_by, frame }))
}

/// Whether the answer of `s` is decided by the data alone, as the generator makes it: a LIMIT
/// or OFFSET under an ORDER BY of every item that reads a column, window functions ordered by
/// every column the items read, INTERSECT only as the first set operation (SQLite and the
/// standard then agree on the grouping). The reducer keeps it so: a reduced case that lost it
/// could differ for no bug.
pub fn decided(s: &Select) -> bool {
    let reading = |e: &&Expr| crate::gen::mentions_column(e);
    let keys: Vec<&Expr> = s.order_by.iter().map(|o| uncollated(&o.expr)).collect();
    let limited = s.limit.is_some() || s.offset.is_some();
    if limited && !s.items.iter().map(|i| &i.expr).filter(reading).all(|e| keys.contains(&e)) {
        return false;
    }
    if s.compound.iter().skip(1).any(|c| c.op == SetOp::Intersect) {
        return false;
    }
    let mut read: Vec<&Expr> = Vec::new();
    for i in &s.items {
        collect_columns(&i.expr, &mut read);
    }
    let windows_total = s.items.iter().all(|i| match &i.expr {
        Expr::Window(w) => read.iter().all(|c| w.order_by.iter().any(|o| &uncollated(&o.expr) == c)),
        _ => true,
    });
    windows_total && s.inner_selects().into_iter().all(decided)
}

/// An ORDER BY key without the `COLLATE BINARY` a subquery's LIMIT orders under.
fn uncollated(e: &Expr) -> &Expr {
    match e {
        Expr::Collate(inner, Collation::Binary) => inner,
        e => e,
    }
}

fn collect_columns<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    if matches!(e, Expr::Col(_)) {
        out.push(e);
    }
    for c in e.children() {
        collect_columns(c, out);
    }
}
