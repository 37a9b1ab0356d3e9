//! CODDTest (constant optimization driven testing, Zhang and Rigger, SIGMOD 2025): a subquery
//! whose value does not depend on the outer row is run on its own (the auxiliary query), its
//! answer is substituted for it as constants (the folded query), and the query must answer the
//! same bag of rows either way: the database does not change within a check, so the engine's
//! own constant folding and propagation is the only thing the two queries exercise differently.
//!
//! What is folded, and into what:
//! - a scalar subquery `(SELECT MIN(c) ...)` (MIN, MAX or COUNT, so it returns one row) into
//!   its value;
//! - `x [NOT] IN (SELECT c ...)` into `x [NOT] IN (v1, v2, ...)`, or FALSE (TRUE) when the
//!   subquery is empty, which the standard defines for any `x`, NULL included; in MariaDB into
//!   `x = v1 OR x = v2 ...`, since its IN list converts constants to the type of `x` first where
//!   the subquery compares as `=` does (<https://mariadb.com/kb/en/in/>);
//! - `[NOT] EXISTS (SELECT ...)` into TRUE or FALSE.
//!
//! A constant must be the value with the type the subquery gave it. In SQLite a bare column in
//! a subquery carries its column's affinity, which a literal has not, and a CAST gives one that
//! converts; so SQLite's subquery items have none (aggregates, and `+c` in IN subqueries) and
//! its constants are plain literals. The typed dialects get each constant as `CAST(v AS t)`
//! (DuckDB reads `1.5` as a DECIMAL and `5` as an INTEGER, MariaDB `1.5` as a DECIMAL and
//! `x'61'` as a number in arithmetic), except MariaDB's text, whose literal already has the
//! session's collation, and MariaDB's binary strings, which no constant spells (see
//! `constant`). A NULL outside SQLite is cast to the subquery column's declared type, and the
//! check is skipped where that type is unknown (a view's column). Values without a literal
//! (DECIMAL, HUGEINT) skip the check too. A real is written with as many digits as it needs:
//! each engine hands its doubles over exactly (PostgreSQL's and MariaDB's binary or shortest
//! round-trip text, measured `0.30000000000000004` on MariaDB 10.11; DuckDB's and SQLite's
//! in process), and a literal of 16 or 17 digits reads back as the same double (the edge
//! value 9.223372036854776e18 skipped one MariaDB check in twenty-five when such reals were
//! refused).

use super::{bool_as_int, differential, render, Detail, EngineRows, OracleRules};
use crate::ast::{Agg, BinOp, Expr, Item, Lit, Select, SqlType, Stmt, TableRef, ToSql, UnOp};
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare_with, fold_flags};
use crate::dialect::{cap, Dialect};
use crate::exec::{dialect_of, rows_of};
use crate::exprgen::{ExprGen, ScopeCol};
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Rows, Value};
use rand::seq::SliceRandom;
use rand::Rng;
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// `codd`.
pub struct Codd;

impl OracleRules for Codd {
    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        differential::whole_query(g, q);
        let Some(sub) = independent_predicate(g) else { return };
        q.select.where_ = Some(match (q.select.where_.take(), g.rng.gen_range(0..3)) {
            (Some(p), 0) => Expr::bin(BinOp::And, p, sub),
            (Some(p), 1) => Expr::bin(BinOp::Or, p, sub),
            _ => sub,
        });
    }

    /// The query and its auxiliary query; the folded query depends on the auxiliary query's
    /// answer, so a finding carries it as its failing statement.
    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        let sel = for_dialect(&q.select, d);
        let mut out = vec![("Q".to_string(), sel.to_sql(d))];
        if let Some(sub) = target(&sel).and_then(Expr::subquery) {
            out.push(("auxiliary".to_string(), auxiliary(&sel, sub).to_sql(d)));
        }
        out
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let mut nonempty = false;
        for e in engines.iter_mut() {
            match check_one(case, e.as_mut(), opts) {
                Ok(n) => nonempty |= n,
                Err(c) => return c,
            }
        }
        Check::Pass { nonempty }
    }

    fn keeps_shape(&self, q: &Query) -> bool {
        target(&q.select).is_some()
    }

    fn script(&self, case: &SqlCase, d: &dyn Dialect, out: &mut String) {
        for (label, sql) in self.plan(&case.query, d) {
            let _ = writeln!(out, "-- {label}:\n{sql};");
        }
        let _ = writeln!(
            out,
            "-- the folded query (the auxiliary query's answer substituted) is the failing statement below"
        );
    }
}

/// The subquery run on its own, with the CTEs of the query it sits in.
fn auxiliary(outer: &Select, sub: &Select) -> Select {
    Select { with: outer.with.clone(), ..sub.clone() }
}

/// A predicate over one subquery that reads no column of the outer query.
fn independent_predicate(g: &mut ExprGen) -> Option<Expr> {
    let env = g.env;
    // A derived table is visible only in the FROM that writes it.
    // MariaDB's binary strings have no constant (see `constant`).
    let spelled =
        |t: usize, c: usize| !(env.caps.has(cap::LOOSE_MARIADB) && env.tables[t].columns[c].ty == Some(SqlType::Blob));
    let all: Vec<(usize, usize)> = (0..env.tables.len())
        .filter(|&t| env.tables[t].body.is_none())
        .flat_map(|t| (0..env.tables[t].columns.len()).map(move |c| (t, c)))
        .filter(|&(t, c)| spelled(t, c))
        .collect();
    // Mostly a column whose answer the fold can spell as constants: a base table's, typed,
    // no binary string, of BINARY collation (`ColInfo::exact`). A view's computed column has
    // no known type, and a collation or MariaDB's binary string no constant carries: the
    // check declined one in nine cases for those.
    let exact: Vec<(usize, usize)> = all.iter().copied().filter(|&(t, c)| env.tables[t].columns[c].exact).collect();
    let pool = if !exact.is_empty() && g.rng.gen_bool(0.9) { exact } else { all };
    let &(ti, ci) = pool.choose(g.rng)?;
    let table = &env.tables[ti];
    let alias = format!("s{}", g.next_alias);
    g.next_alias += 1;
    let scope: Vec<ScopeCol> =
        (0..table.columns.len()).map(|c| ScopeCol { visible: alias.clone(), table: ti, column: c }).collect();
    let col = &table.columns[ci];
    let column = Expr::col(&alias, &col.name);
    let where_ = {
        let mut inner = ExprGen::new(&mut *g.rng, env, scope);
        inner.subqueries = false;
        inner.rng.gen_bool(0.7).then(|| inner.predicate(1))
    };
    let from = vec![TableRef::named(&table.name, Some(alias))];
    let select = |item: Expr| Select {
        items: vec![Item { expr: item, alias: None }],
        from: from.clone(),
        where_: where_.clone(),
        ..Select::default()
    };
    let ty = col.ty.or(env.loose.then_some(SqlType::Int))?;
    let not = g.rng.gen_bool(0.3);
    Some(match g.rng.gen_range(0..5) {
        0..=1 => {
            let func = if g.rng.gen() { Agg::Min } else { Agg::Max };
            let (item, ty) = if env.caps.has_agg(func, ty) {
                (Expr::Agg { func, distinct: false, arg: Some(Box::new(column)) }, ty)
            } else {
                (Expr::Agg { func: Agg::Count, distinct: false, arg: None }, SqlType::Int)
            };
            const OPS: &[BinOp] = &[BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
            let op = OPS[g.rng.gen_range(0..OPS.len())];
            let lhs = g.expr(ty, 1);
            Expr::bin(op, lhs, Expr::Subquery(Box::new(select(item))))
        }
        2..=3 => {
            let lhs = g.expr(ty, 1);
            Expr::InSelect { expr: Box::new(lhs), select: Box::new(select(column)), not }
        }
        _ => Expr::Exists { select: Box::new(select(column)), not },
    })
}

/// The query as a dialect runs it: SQLite's IN subqueries select `+c`, which has no affinity,
/// as the constants that replace it have none. So does each member of a compound: a compound's
/// column takes the affinity of any member's item (`SELECT +c ... UNION ALL SELECT CAST(0 AS
/// INTEGER)` compares '1' with 1 as numbers).
fn for_dialect(s: &Select, d: &dyn Dialect) -> Select {
    let mut s = s.clone();
    if d.has_cap(cap::UNTYPED) {
        if let Some(Expr::InSelect { select, .. }) = target_mut(&mut s) {
            let Select { items, compound, .. } = &mut **select;
            let members = compound.iter_mut().flat_map(|c| c.select.items.iter_mut());
            for item in items.iter_mut().chain(members) {
                if matches!(item.expr, Expr::Col(_) | Expr::Cast(..) | Expr::Func(..)) {
                    item.expr = Expr::un(UnOp::Pos, item.expr.clone());
                }
            }
        }
    }
    s
}

/// The first subquery of the outer query (not inside another subquery) that reads no column
/// of the outer query: the one the oracle folds.
fn target(s: &Select) -> Option<&Expr> {
    fn find(e: &Expr) -> Option<&Expr> {
        if e.subquery().is_some_and(independent) {
            return Some(e);
        }
        e.children().into_iter().find_map(find)
    }
    s.slots().into_iter().find_map(find)
}

fn target_mut(s: &mut Select) -> Option<&mut Expr> {
    fn find(e: &mut Expr) -> Option<&mut Expr> {
        if e.subquery().is_some_and(independent) {
            return Some(e);
        }
        e.children_mut().into_iter().find_map(find)
    }
    s.slots_mut().into_iter().find_map(find)
}

/// Whether every column a select reads belongs to a table of its own FROM clauses (its own or
/// a nested subquery's), and it selects one column.
fn independent(s: &Select) -> bool {
    let mut bound: Vec<String> = Vec::new();
    let mut add = |sel: &Select| {
        bound.extend(sel.from.iter().map(|t| t.visible().to_string()));
        bound.extend(sel.joins.iter().map(|j| j.table.visible().to_string()));
    };
    add(s);
    s.visit_exprs(&mut |e| {
        if let Some(q) = e.subquery() {
            add(q);
        }
    });
    let mut free = false;
    s.visit_exprs(&mut |e| {
        if let Expr::Col(c) = e {
            free |= !bound.contains(&c.table);
        }
    });
    s.items.len() == 1 && !free
}

/// The query, the auxiliary query and the folded query on one engine: whether the query
/// returned rows, or the check's end.
fn check_one(case: &SqlCase, e: &mut dyn Engine, opts: &CheckOptions) -> Result<bool, Check> {
    let d = dialect_of(e);
    let sel = for_dialect(&case.query.select, d);
    let Some(node) = target(&sel) else { return Err(Check::Skip("no subquery independent of the outer row".into())) };
    let Some(sub) = node.subquery() else { return Err(Check::Skip("no subquery".into())) };
    let original = rows_of(e, &sel.to_sql(d), opts)?;
    let aux = rows_of(e, &auxiliary(&sel, sub).to_sql(d), opts)?;
    let constant = fold(node, &aux, d, &case.setup).map_err(|why| Check::Skip(format!("not folded: {why}")))?;
    let mut folded = sel.clone();
    if let Some(slot) = target_mut(&mut folded) {
        *slot = constant;
    }
    super::order_follows_items(&sel, &mut folded);
    if folded.group_by.iter().any(|k| matches!(k, Expr::Lit(Lit::Int(_)))) {
        return Err(Check::Skip("not folded: an integer GROUP BY key names a column by position".into()));
    }
    let folded_sql = folded.to_sql(d);
    let after = rows_of(e, &folded_sql, opts)?;
    let colls = Collations::new(&case.setup).under(d);
    let flags = fold_flags(&colls, &sel, &original);
    let Some(diff) = compare_with(&original, &after, &flags, &bool_as_int()) else { return Ok(!original.is_empty()) };
    let how = diff.relation().name();
    let label = e.info().label.clone();
    Err(Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: vec![label],
        summary: format!(
            "codd: the query returns {} row(s), with its subquery folded into the auxiliary query's answer {} ({how})",
            original.len(),
            after.len()
        ),
        expected: render(&original),
        actual: render(&after),
        key: format!("codd:{how}"),
        detail: crosscheck_core::Detail::of(&Detail {
            sql: Some(folded_sql),
            results: vec![EngineRows { engine: "the auxiliary query".into(), rows: render(&aux) }],
            ..Detail::default()
        }),
    }))
}

/// The constant expression that stands for `node` (a subquery predicate or scalar subquery)
/// given the auxiliary query's answer, or why there is none.
fn fold(node: &Expr, aux: &Rows, d: &dyn Dialect, setup: &[Stmt]) -> Result<Expr, String> {
    let first = |r: &Vec<Value>| r.first().cloned().unwrap_or(Value::Null);
    // Outside SQLite a subquery's column passes its collation on to the comparison, and a
    // constant carries none ('-1' <= '_' under "und-x-icu" is false, under "C" true).
    if let Expr::Subquery(s) | Expr::InSelect { select: s, .. } = node {
        let items = Collations::new(setup).under(d).items(s).unwrap_or_default();
        if let Some(c) = items.first().filter(|c| **c != crate::ast::Collation::Binary) {
            return Err(format!("a subquery column of collation {c:?}"));
        }
    }
    match node {
        // A bare column has its column's affinity and collation in SQLite, which no literal has.
        Expr::Subquery(s)
            if d.has_cap(cap::UNTYPED) && !s.items.first().is_some_and(|i| matches!(i.expr, Expr::Agg { .. })) =>
        {
            Err("a scalar subquery of a column in SQLite".into())
        }
        Expr::Subquery(s) => {
            let v = match aux.rows.as_slice() {
                // A scalar subquery without rows is NULL.
                [] => Value::Null,
                [row] => first(row),
                more => return Err(format!("the scalar subquery returned {} rows", more.len())),
            };
            constant(&v, item_type(s, setup), d)
        }
        // `x IN (empty)` is FALSE for every x, NULL included.
        Expr::InSelect { not, .. } if aux.rows.is_empty() => Ok(Expr::Lit(Lit::Bool(*not))),
        Expr::InSelect { expr, select, not } => {
            let ty = item_type(select, setup);
            // SQLite stores an IN subquery's answer with the affinity of `x`, and REAL affinity
            // rounds an integer past 2^53 (`x IN (SELECT +c)` holds where `x = c` does not, for
            // x = 9.223372036854776e18 and c = 9223372036854775807, in 3.40.1 and 3.54.1): the
            // constants cannot show what the subquery compares.
            let lossy = |r: &Vec<Value>| matches!(r.first(), Some(Value::Int(i)) if i.unsigned_abs() > 1 << 53);
            if d.has_cap(cap::UNTYPED) && aux.rows.iter().any(lossy) {
                return Err("an integer that REAL affinity would round".into());
            }
            // `+c` keeps its column's collation, which a constant has not (a literal's is
            // BINARY, and a COLLATE on it would outrank the left operand's).
            if d.has_cap(cap::UNTYPED) && !binary_column(select, setup) {
                return Err("a subquery column of another collation than BINARY in SQLite".into());
            }
            let list = aux.rows.iter().map(|r| constant(&first(r), ty, d)).collect::<Result<Vec<_>, _>>()?;
            if !d.has_cap(cap::LOOSE_MARIADB) {
                return Ok(Expr::InList { expr: expr.clone(), list, not: *not });
            }
            let eq = |v: Expr| Expr::bin(BinOp::Eq, (**expr).clone(), v);
            let mut any = list.into_iter().map(eq);
            let head = any.next().ok_or("an empty list")?;
            let or = any.fold(head, |acc, x| Expr::bin(BinOp::Or, acc, x));
            Ok(if *not { Expr::negate(or) } else { or })
        }
        Expr::Exists { not, .. } => Ok(Expr::Lit(Lit::Bool(aux.rows.is_empty() == *not))),
        _ => Err("not a subquery".into()),
    }
}

/// A value as a constant of the subquery's type `ty` in the dialect (see the module's
/// comment), or why it has none.
fn constant(v: &Value, ty: Option<SqlType>, d: &dyn Dialect) -> Result<Expr, String> {
    let untyped = d.has_cap(cap::UNTYPED);
    let (lit, own) = match v {
        Value::Null => (Lit::Null, None),
        Value::Bool(b) => (Lit::Bool(*b), Some(SqlType::Bool)),
        Value::Int(i) => (Lit::Int(*i), Some(SqlType::Int)),
        Value::Float(f) if f.is_finite() && (untyped || !(*f == 0.0 && f.is_sign_negative())) => {
            (Lit::Real(*f), Some(SqlType::Real))
        }
        // SQLite's tokenizer ends a statement at a NUL byte; a replacement character stands
        // for bytes that were no UTF-8, which the engine holds and the literal would not.
        Value::Text(s) if !s.contains(['\0', '\u{FFFD}']) => (Lit::Text(s.clone()), Some(SqlType::Text)),
        Value::Bytes(b) => (Lit::Blob(b.clone()), Some(SqlType::Blob)),
        Value::Decimal(s) if ty == Some(SqlType::Decimal) => (Lit::Decimal(s.clone()), Some(SqlType::Decimal)),
        other => return Err(format!("no literal is exactly {other}")),
    };
    let loose = d.has_cap(cap::LOOSE_MARIADB);
    if untyped && lit == Lit::Int(i64::MIN) {
        // Printed as a CAST (see `Dialect::write_int`), it would carry INTEGER affinity.
        return Ok(Expr::bin(BinOp::Sub, Expr::Lit(Lit::Int(-i64::MAX)), Expr::Lit(Lit::Int(1))));
    }
    if untyped || (loose && own == Some(SqlType::Text)) {
        return Ok(Expr::Lit(lit));
    }
    if loose && own == Some(SqlType::Blob) {
        // MariaDB 10.11 compares a number with a CAST constant as integers (`3 = CAST('3.25' AS
        // BINARY)` and `3 = CAST('3.25' AS CHAR)` hold, `3 = '3.25'` does not), and reads
        // `x'..'` as a number there: no constant has the binary string's meaning.
        return Err("a binary string in MariaDB".into());
    }
    // A NULL too has the subquery's type: in MariaDB `IF(p, 0, NULL)` is an integer where
    // `IF(p, 0, (SELECT c))` of a VARCHAR column is a string.
    // A value of a column whose type is not known (of a view or CTE) may be a DATE that the
    // protocol shows as text: a text constant would not compare with it; a real may be a
    // DECIMAL shown as a float. An integer or a truth value is what it shows.
    let shown = own.filter(|t| matches!(t, SqlType::Int | SqlType::Bool));
    let t = ty.or(shown).ok_or(if own.is_some() { "a value of unknown type" } else { "a NULL of unknown type" })?;
    let lit = match (lit, t) {
        (Lit::Text(s), SqlType::Date) => Lit::Date(s),
        (Lit::Text(s), SqlType::Timestamp) => Lit::Timestamp(s),
        (lit, _) => lit,
    };
    Ok(Expr::Cast(Box::new(Expr::Lit(lit)), t))
}

/// Whether a one-column subquery selects a column of a table (not a view) declared without a
/// collation, under no COLLATE.
fn binary_column(s: &Select, setup: &[Stmt]) -> bool {
    let mut collated = false;
    for i in &s.items {
        i.expr.visit(&mut |x| collated |= matches!(x, Expr::Collate(..)));
    }
    let Some(Expr::Col(c)) = s.items.first().map(|i| match &i.expr {
        Expr::Unary(UnOp::Pos, a) => &**a,
        e => e,
    }) else {
        return !collated;
    };
    let tables = s.from.iter().chain(s.joins.iter().map(|j| &j.table));
    let Some(table) = tables.into_iter().find(|t| t.visible() == c.table) else { return false };
    let declared = setup.iter().find_map(|st| match st {
        Stmt::CreateTable { name, columns } if *name == table.name => columns.iter().find(|k| k.name == c.column),
        _ => None,
    });
    !collated && declared.is_some_and(|k| k.collate.is_none_or(|k| k == crate::ast::Collation::Binary))
}

/// The declared type of what a one-column subquery selects: COUNT is an integer, MIN and MAX
/// and a bare column have their column's type (a view's column, the type of the base column
/// it shows; none for one it computes).
fn item_type(s: &Select, setup: &[Stmt]) -> Option<SqlType> {
    column_type(s, &s.items.first()?.expr, setup, 0)
}

fn column_type(s: &Select, mut e: &Expr, setup: &[Stmt], depth: u32) -> Option<SqlType> {
    if let Expr::Agg { func, arg, .. } = e {
        match (func, arg) {
            (Agg::Min | Agg::Max, Some(a)) => e = a,
            (Agg::Count, _) => return Some(SqlType::Int),
            _ => return None,
        }
    }
    if let Expr::Unary(UnOp::Pos, a) = e {
        e = a;
    }
    let Expr::Col(c) = e else { return None };
    let tables = s.from.iter().chain(s.joins.iter().map(|j| &j.table));
    let table = &tables.into_iter().find(|t| t.visible() == c.table)?.name;
    setup.iter().find_map(|st| match st {
        Stmt::CreateTable { name, columns } if name == table => columns.iter().find(|k| k.name == c.column)?.ty,
        Stmt::CreateView { name, columns, select } if name == table && depth < 4 => {
            let i = columns.iter().position(|k| *k == c.column)?;
            column_type(select, &select.items.get(i)?.expr, setup, depth + 1)
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::constant;
    use crate::ast::{SqlType, ToSql};
    use crate::dialect::by_name;
    use crosscheck_core::Value;

    fn spelled(v: Value, ty: Option<SqlType>, dialect: &str) -> Result<String, String> {
        let d = by_name(dialect).ok_or("no dialect")?;
        constant(&v, ty, d).map(|e| e.to_sql(d))
    }

    #[test]
    fn constants_keep_the_subquery_type_or_refuse() {
        // SQLite: plain literals, which have no affinity, as an aggregate's value has none.
        assert_eq!(spelled(Value::Int(3), Some(SqlType::Int), "sqlite"), Ok("3".into()));
        assert_eq!(spelled(Value::Int(i64::MIN), None, "sqlite"), Ok("((-9223372036854775807) - 1)".into()));
        assert_eq!(spelled(Value::Null, None, "sqlite"), Ok("NULL".into()));
        assert!(spelled(Value::Text("a\0".into()), None, "sqlite").is_err());
        // Typed dialects: the subquery's type, a NULL's too.
        assert_eq!(spelled(Value::Int(3), Some(SqlType::Int), "duckdb"), Ok("CAST(3 AS BIGINT)".into()));
        assert_eq!(spelled(Value::Null, Some(SqlType::Text), "postgres"), Ok("CAST(NULL AS TEXT)".into()));
        assert!(spelled(Value::Null, None, "postgres").is_err());
        // A real needing 17 digits is written with them.
        let r = spelled(Value::Float(0.1 + 0.2), Some(SqlType::Real), "postgres").unwrap_or_else(|e| panic!("{e}"));
        assert!(r.contains("0.30000000000000004"), "{r}");
        assert!(spelled(Value::Float(-0.0), Some(SqlType::Real), "duckdb").is_err());
        assert_eq!(spelled(Value::Float(1.5), Some(SqlType::Real), "mariadb"), Ok("CAST(1.5 AS DOUBLE)".into()));
        assert_eq!(spelled(Value::Text("a".into()), Some(SqlType::Text), "mariadb"), Ok("'a'".into()));
        assert!(spelled(Value::Bytes(b"3.25".to_vec()), Some(SqlType::Blob), "mariadb").is_err());
    }
}
