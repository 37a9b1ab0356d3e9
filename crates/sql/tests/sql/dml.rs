//! DML in setups (`UPDATE`, `DELETE`, `INSERT ... SELECT`) and the `dqe` oracle on the real
//! engines: each statement printed in each dialect, generated databases whose DML loads without
//! an unexpected error on every engine, DQE passing a correct engine and catching planted
//! faults.
//!
//! An engine that is not installed here is skipped with a printed line, unless it is listed in
//! `CROSSCHECK_REQUIRE_ENGINES` (`crosscheck_engines::testing`).

use crate::leg::{col, int, select_from};
use crosscheck_core::{Check, CheckOptions, EngineInfo, GenOptions, Kind};
use crosscheck_engines::testing::open_sql;
use crosscheck_sql::ast::*;
use crosscheck_sql::dialect::by_name;
use crosscheck_sql::exec::exec;
use crosscheck_sql::{SqlKind, SqlOracle};
use std::time::Duration;

const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(20) };

fn update() -> Stmt {
    Stmt::Update {
        table: "t0".into(),
        sets: vec![
            ("c0".into(), Expr::bin(BinOp::IntDiv, col("t0", "c0"), int(2))),
            ("c1".into(), Expr::bin(BinOp::Concat, col("t0", "c1"), Expr::Lit(Lit::Text("x".into())))),
        ],
        where_: Some(Expr::bin(BinOp::Is, col("t0", "c0"), int(1))),
    }
}

fn delete() -> Stmt {
    Stmt::Delete { table: "t0".into(), where_: Some(Expr::is_null(col("t0", "c1"))) }
}

fn insert_select() -> Stmt {
    let mut select = select_from(vec![Expr::un(UnOp::Neg, col("t0", "c0")), col("t0", "c1")], "t0");
    select.where_ = Some(Expr::bin(BinOp::Gt, col("t0", "c0"), int(0)));
    Stmt::InsertSelect { table: "t0".into(), columns: vec!["c0".into(), "c1".into()], select }
}

#[test]
fn dml_prints_in_each_dialect() {
    let print = |d: &str, s: &Stmt| s.to_sql(by_name(d).unwrap_or_else(|| panic!("dialect {d}")));
    assert_eq!(print("sqlite", &update()), "UPDATE t0 SET c0 = (t0.c0 / 2), c1 = (t0.c1 || 'x') WHERE (t0.c0 IS 1)");
    assert_eq!(
        print("postgres", &update()),
        "UPDATE t0 SET c0 = (t0.c0 / 2), c1 = (t0.c1 || 'x') WHERE (t0.c0 IS NOT DISTINCT FROM 1)"
    );
    assert_eq!(
        print("duckdb", &update()),
        "UPDATE t0 SET c0 = (t0.c0 // 2), c1 = (t0.c1 || 'x') WHERE (t0.c0 IS NOT DISTINCT FROM 1)"
    );
    assert_eq!(
        print("mariadb", &update()),
        "UPDATE t0 SET c0 = (t0.c0 DIV 2), c1 = CONCAT(t0.c1, 'x') WHERE (t0.c0 <=> 1)"
    );
    for d in ["sqlite", "postgres", "duckdb", "mariadb"] {
        assert_eq!(print(d, &delete()), "DELETE FROM t0 WHERE (t0.c1 IS NULL)");
        assert_eq!(
            print(d, &insert_select()),
            "INSERT INTO t0 (c0, c1) SELECT (- t0.c0), t0.c1 FROM t0 WHERE (t0.c0 > 0)",
            "{d}"
        );
    }
}

/// The hand-written statements run on every engine and change the rows as SQL says.
#[test]
fn dml_runs_and_changes_the_rows_on_each_engine() {
    for name in ["sqlite", "duckdb", "postgres", "mariadb"] {
        let Some(mut e) = open_sql(name) else { continue };
        let d = by_name(&e.info().dialect).unwrap_or_else(|| panic!("dialect"));
        let columns = vec![ColumnDef::plain("c0", SqlType::Int), ColumnDef::plain("c1", SqlType::Text)];
        let mut setup = vec![Stmt::CreateTable { name: "t0".into(), columns }];
        for (a, b) in
            [(Lit::Int(1), Lit::Text("a".into())), (Lit::Int(4), Lit::Null), (Lit::Int(3), Lit::Text("b".into()))]
        {
            let values = vec![Expr::Lit(a), Expr::Lit(b)];
            setup.push(Stmt::Insert { table: "t0".into(), columns: vec!["c0".into(), "c1".into()], values });
        }
        setup.extend([update(), delete(), insert_select()]);
        for s in &setup {
            let sql = s.to_sql(d);
            assert!(exec(e.as_mut(), &sql, &OPTS).is_ok(), "{name}: {sql}");
        }
        let q = select_from(vec![col("t0", "c0"), col("t0", "c1")], "t0");
        let rows = crosscheck_engines::testing::rows(e.as_mut(), &q.to_sql(d));
        let mut got: Vec<String> =
            rows.rows.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("|")).collect();
        got.sort();
        assert_eq!(got, vec!["-3|'b'", "0|'ax'", "3|'b'"], "{name}");
    }
}

/// Per engine, over generated databases: DML statements run, refused with an error the
/// dialect expects, and refused unexpectedly (which must be none).
fn dml_validity(name: &str, dbs: u64) -> (usize, usize, Vec<String>) {
    let Some(mut e) = open_sql(name) else { return (0, 0, Vec::new()) };
    let infos: Vec<EngineInfo> = vec![e.info().clone()];
    let d = by_name(&e.info().dialect).unwrap_or_else(|| panic!("dialect"));
    let kind = SqlKind;
    let mut gen = kind.generator(&GenOptions { seed: 17, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let (mut ran, mut expected, mut unexpected) = (0, 0, Vec::new());
    for db in 0..dbs {
        let case = gen.case(db * crosscheck_sql::gen::CHECKS_PER_DB, SqlOracle::Norec);
        e.reset().unwrap_or_else(|err| panic!("{name}: reset: {err}"));
        for s in case.setup.iter() {
            let sql = s.to_sql(d);
            let r = exec(e.as_mut(), &sql, &OPTS);
            if !crosscheck_sql::dml::is_dml(s) {
                continue;
            }
            match r {
                Ok(_) => ran += 1,
                Err(Check::Skip(_)) => expected += 1,
                Err(other) => unexpected.push(format!("{sql}: {other:?}")),
            }
        }
    }
    (ran, expected, unexpected)
}

#[test]
fn generated_dml_loads_without_an_unexpected_error_on_every_engine() {
    for name in ["sqlite", "duckdb", "postgres", "mariadb"] {
        let (ran, expected, unexpected) = dml_validity(name, 150);
        let total = ran + expected + unexpected.len();
        println!(
            "{name}: {total} DML statements: {ran} ran, {expected} refused as expected, {} unexpected",
            unexpected.len()
        );
        assert!(unexpected.is_empty(), "{name}: {}", unexpected.join("\n"));
        if total > 0 {
            assert!(ran * 2 > total, "{name}: only {ran} of {total} DML statements ran");
        }
    }
}
