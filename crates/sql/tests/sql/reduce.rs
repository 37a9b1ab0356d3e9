//! The SQL reducer's steps on known cases: what a reduction must remove when the failure does
//! not need it, checked on SQLite mutants whose fault needs none of it.

use crate::leg::{check, col, engine, int, known_case, select_from, OPTS};
use crosscheck_core::Check;
use crosscheck_sql::ast::*;
use crosscheck_sql::{SqlCase, SqlKind, SqlOracle};
use std::time::{Duration, Instant};

/// Reduces a `tlp-where` case that the where-drop mutant fails.
fn reduce_on_where_drop(case: &SqlCase) -> SqlCase {
    let Check::Finding(ev) = check("mutant:sqlite:where-drop", "tlp-where", case) else {
        panic!("where-drop not caught: {case:?}");
    };
    let mut engines = vec![engine("mutant:sqlite:where-drop")];
    let deadline = Instant::now() + Duration::from_secs(60);
    let r = crosscheck_core::worker::reduce_offline(
        &SqlKind,
        SqlOracle::TlpWhere,
        case,
        &ev,
        &mut engines,
        &OPTS,
        deadline,
    )
    .unwrap_or_else(|| panic!("no smaller case"));
    serde_json::from_value(r.case).unwrap_or_else(|e| panic!("not a SQL case: {e}"))
}

fn table(name: &str) -> TableRef {
    TableRef::named(name, None)
}

/// A view whose body the failure does not need ends inlined: the query reads the view's table,
/// the view's statement is gone, and so are its WHERE and function.
#[test]
fn a_view_the_failure_does_not_need_is_inlined_away() {
    let mut case = known_case("tlp-where");
    let body = Select {
        where_: Some(Expr::bin(BinOp::Gt, col("t0", "c0"), int(-100))),
        ..select_from(vec![Expr::Func(Func::Abs, vec![col("t0", "c0")])], "t0")
    };
    let view = Stmt::CreateView { name: "v0".into(), columns: vec!["c0".into()], select: Box::new(body) };
    std::sync::Arc::make_mut(&mut case.setup).push(view);
    case.query.select = select_from(vec![col("v0", "c0")], "v0");
    case.query.pred = Some(Expr::bin(BinOp::Gt, col("v0", "c0"), int(1)));
    let small = reduce_on_where_drop(&case);
    assert!(!small.setup.iter().any(|s| matches!(s, Stmt::CreateView { .. })), "view kept: {small:?}");
    assert_eq!(small.query.select.from, vec![TableRef::named("t0", Some("v0".into()))]);
    let mut funcs = 0;
    small.query.select.visit_exprs(&mut |e| funcs += usize::from(matches!(e, Expr::Func(..))));
    assert_eq!(funcs, 0, "function kept: {small:?}");
}

/// The first table of a cross join goes when the failure does not read it; only later tables
/// could go before, so an unread first table stayed in every reduced case.
#[test]
fn an_unread_first_table_of_a_join_is_dropped() {
    let mut case = known_case("tlp-where");
    let setup = std::sync::Arc::make_mut(&mut case.setup);
    setup.push(Stmt::CreateTable { name: "t1".into(), columns: vec![ColumnDef::plain("c0", SqlType::Text)] });
    setup.push(Stmt::Insert {
        table: "t1".into(),
        columns: vec!["c0".into()],
        values: vec![Expr::Lit(Lit::Text("".into()))],
    });
    case.query.select = select_from(vec![col("t0", "c0")], "t1");
    case.query.select.joins = vec![Join { kind: JoinKind::Cross, table: table("t0"), on: None }];
    let small = reduce_on_where_drop(&case);
    assert_eq!(small.query.select.from, vec![table("t0")], "{small:?}");
    assert!(small.query.select.joins.is_empty(), "{small:?}");
    assert!(!small.setup.iter().any(|s| matches!(s, Stmt::CreateTable { name, .. } if name == "t1")), "{small:?}");
}

/// A computed value is offered as the simplest constant of each type: `(c - c) * c` may become
/// `0.0 * c`, which is how a signed-zero failure reads once reduced.
#[test]
fn a_computed_value_is_offered_as_a_constant() {
    let mut case = known_case("differential");
    let c = || col("t0", "c0");
    let item = Expr::bin(BinOp::Mul, Expr::bin(BinOp::Sub, c(), c()), c());
    case.query.select = Select { distinct: true, ..select_from(vec![item], "t0") };
    let want = Expr::bin(BinOp::Mul, Expr::Lit(Lit::Real(0.0)), c());
    let offered = crosscheck_sql::reduce::shrink(&case);
    assert!(offered.iter().any(|o| o.query.select.items[0].expr == want), "no candidate reads {want:?}");
    // The subtraction becomes `0` once.
    let zeroed = offered.iter().filter(
        |o| matches!(&o.query.select.items[0].expr, Expr::Binary(BinOp::Mul, a, _) if **a == Expr::Lit(Lit::Int(0))),
    );
    assert_eq!(zeroed.count(), 1, "the subtraction alone becomes 0");
    // A column is not a computation: it is offered NULL only, never another constant.
    let column_as_constant = offered.iter().any(|o| {
        matches!(&o.query.select.items[0].expr, Expr::Binary(BinOp::Mul, _, b) if matches!(**b, Expr::Lit(ref l) if *l != Lit::Null))
    });
    assert!(!column_as_constant, "the column c0 was offered a constant");
}

fn reduce_on(
    engine_name: &str,
    oracle: SqlOracle,
    case: &SqlCase,
    ev: &crosscheck_core::Evidence,
) -> crosscheck_core::store::Reduced {
    let mut engines = vec![engine(engine_name)];
    let deadline = Instant::now() + Duration::from_secs(60);
    crosscheck_core::worker::reduce_offline(&SqlKind, oracle, case, ev, &mut engines, &OPTS, deadline)
        .unwrap_or_else(|| panic!("no smaller case"))
}

/// An error finding reduces only to cases that fail with the same message: dropping the table
/// the query reads would give a smaller case with another error ("no such table"), which is
/// another finding, not this one.
#[test]
fn an_error_finding_reduces_to_the_same_message() {
    let mut case = known_case("tlp-where");
    let setup = std::sync::Arc::make_mut(&mut case.setup);
    setup.push(Stmt::CreateTable { name: "t1".into(), columns: vec![ColumnDef::plain("c0", SqlType::Int)] });
    case.query.select = select_from(vec![col("t0", "nope"), col("t1", "c0")], "t0");
    case.query.select.joins = vec![Join { kind: JoinKind::Cross, table: table("t1"), on: None }];
    let Check::Finding(ev) = check("sqlite", "tlp-where", &case) else { panic!("no error finding") };
    assert_eq!(ev.key, "error:no such column");
    let r = reduce_on("sqlite", SqlOracle::TlpWhere, &case, &ev);
    assert_eq!(r.evidence.key, ev.key);
    let small: SqlCase = serde_json::from_value(r.case).unwrap_or_else(|e| panic!("not a SQL case: {e}"));
    assert!(r.stats.size_after < r.stats.size_before, "{small:?}");
    assert!(small.setup.iter().any(|s| matches!(s, Stmt::CreateTable { name, .. } if name == "t0")), "{small:?}");
}

/// A logic finding's key carries its direction, and reduction keeps it: a planted row loss is
/// `subset` (rows missing), a planted duplicate `superset`, and neither turns into the other or
/// into a changed row while it shrinks.
#[test]
fn a_logic_finding_reduces_in_the_same_direction() {
    for (mutant, oracle, want) in [
        ("mutant:sqlite:drop-row", "tlp-where", "rows-differ:subset"),
        ("mutant:sqlite:dup-row", "tlp-where", "rows-differ:superset"),
    ] {
        let (_, found) = crate::leg::campaign(mutant, oracle, 11, 600, false);
        let (case, ev) = found.iter().find(|(_, e)| e.key == want).unwrap_or_else(|| {
            let keys: std::collections::BTreeSet<&str> = found.iter().map(|(_, e)| e.key.as_str()).collect();
            panic!("{mutant} {oracle}: no {want} among {keys:?}")
        });
        let r = reduce_on(mutant, case.oracle, case, ev);
        assert_eq!(r.evidence.key, want, "{mutant} {oracle}");
    }
}
