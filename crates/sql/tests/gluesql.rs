//! GlueSQL (cargo feature `gluesql`) as a real engine: known answers in its dialect, and a short
//! generated differential run against SQLite whose setup and queries GlueSQL accepts.
#![cfg(feature = "gluesql")]

use crosscheck_core::{
    Check, CheckOptions, Engine, EngineFactory, EngineInfo, EngineSpec, FindingClass, GenOptions, Kind, Outcome, Value,
};
use crosscheck_sql::dialect::{by_name, cap};
use crosscheck_sql::engines::gluesql::GlueSqlFactory;
use crosscheck_sql::engines::sqlite::SqliteFactory;
use crosscheck_sql::SqlKind;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(20);

fn spec(name: &str) -> EngineSpec {
    EngineSpec { name: name.into(), location: None, label: None }
}

fn open_glue() -> Box<dyn Engine> {
    let a = GlueSqlFactory.availability();
    assert!(a.available, "gluesql is built in: {}", a.detail);
    GlueSqlFactory.open(&spec("gluesql")).expect("gluesql opens")
}

fn rows(e: &mut dyn Engine, sql: &str) -> Vec<Vec<Value>> {
    match e.run(sql, LIMIT) {
        Outcome::Rows(r) => r.rows,
        other => panic!("{sql} -> {other:?}"),
    }
}

fn done(e: &mut dyn Engine, sql: &str) {
    let o = e.run(sql, LIMIT);
    assert!(matches!(o, Outcome::Done), "{sql} -> {o:?}");
}

#[test]
fn known_answers() {
    let mut g = open_glue();
    assert_eq!(g.info().dialect, "gluesql");
    done(g.as_mut(), "CREATE TABLE t0 (c0 INT NULL, c1 FLOAT NULL, c2 TEXT NULL)");
    done(g.as_mut(), "INSERT INTO t0 (c0, c1, c2) VALUES (1, 1.5, 'a')");
    done(g.as_mut(), "INSERT INTO t0 (c0, c1, c2) VALUES ((-7), NULL, NULL)");
    let r = rows(g.as_mut(), "SELECT t0.c0, t0.c1, t0.c2 FROM t0 WHERE (t0.c0 > 0)");
    assert_eq!(r, vec![vec![Value::Int(1), Value::Float(1.5), Value::Text("a".into())]]);
    // Integer division truncates toward zero, as in SQLite.
    let r = rows(g.as_mut(), "SELECT (t0.c0 / 2) FROM t0 WHERE (t0.c0 < 0)");
    assert_eq!(r, vec![vec![Value::Int(-3)]]);
    // NULLs, booleans and text.
    let r = rows(g.as_mut(), "SELECT (t0.c1 IS NULL), (t0.c2 || 'b') FROM t0 WHERE (t0.c0 < 0)");
    assert_eq!(r, vec![vec![Value::Bool(true), Value::Null]]);
    let r = rows(g.as_mut(), "SELECT COUNT(*), SUM(t0.c0) FROM t0");
    assert_eq!(r, vec![vec![Value::Int(2), Value::Int(-6)]]);
    // An error is an error outcome, not a panic.
    assert!(matches!(g.run("SELECT * FROM nowhere", LIMIT), Outcome::Error { .. }));
    // A reset empties the database.
    g.reset().expect("reset");
    assert!(matches!(g.run("SELECT * FROM t0", LIMIT), Outcome::Error { .. }));
}

/// The dialect's spellings: `IS [NOT] DISTINCT FROM` through COALESCE, and integer literals
/// typed, so that `7 / 2` divides integers.
#[test]
fn null_safe_equality_and_integer_literals_as_printed() {
    use crosscheck_sql::ast::{BinOp, Expr, Lit, ToSql};
    let d = by_name("gluesql").expect("dialect");
    let mut g = open_glue();
    done(g.as_mut(), "CREATE TABLE t0 (c0 INT NULL)");
    done(g.as_mut(), "INSERT INTO t0 (c0) VALUES (1)");
    done(g.as_mut(), "INSERT INTO t0 (c0) VALUES (NULL)");
    let col = Expr::col("t0", "c0");
    for (op, rhs, want) in [
        (BinOp::Is, Lit::Null, vec![false, true]),
        (BinOp::IsNot, Lit::Null, vec![true, false]),
        (BinOp::Is, Lit::Int(1), vec![true, false]),
        (BinOp::IsNot, Lit::Int(1), vec![false, true]),
    ] {
        let e = Expr::bin(op, col.clone(), Expr::Lit(rhs));
        let sql = format!("SELECT {} FROM t0 ORDER BY t0.c0 ASC", e.to_sql(d));
        let got: Vec<Value> = rows(g.as_mut(), &sql).into_iter().map(|r| r[0].clone()).collect();
        // GlueSQL sorts NULL last ascending: the row holding 1 comes first.
        assert_eq!(got, want.into_iter().map(Value::Bool).collect::<Vec<_>>(), "{sql}");
    }
    let div = Expr::bin(BinOp::IntDiv, Expr::Lit(Lit::Int(7)), Expr::Lit(Lit::Int(2)));
    let sql = format!("SELECT {}", div.to_sql(d));
    assert_eq!(rows(g.as_mut(), &sql), vec![vec![Value::Int(3)]], "{sql}");
}

#[test]
fn the_dialect_leaves_out_what_gluesql_lacks() {
    let caps = by_name("gluesql").expect("dialect").capabilities();
    for lacking in [cap::VIEWS, cap::INDEXES, cap::CROSS_JOIN, cap::RIGHT_JOIN, cap::FULL_JOIN, cap::NATURAL_JOIN] {
        assert!(!caps.iter().any(|c| c == lacking), "{lacking}");
    }
    // The others still have the common capabilities.
    assert!(by_name("sqlite").expect("dialect").capabilities().iter().any(|c| c == cap::VIEWS));
}

/// A short generated differential run against SQLite: every setup statement runs on both (the
/// dialect prints only what GlueSQL accepts), most checks agree, and the only errors GlueSQL
/// reports are its known `NULL LIKE` and join-ON bugs. Wrong answers are not asserted away:
/// GlueSQL 0.20's three-valued logic and `NOT IN` bugs (see `dialects::GlueSql`) make some
/// checks disagree.
#[test]
fn a_generated_differential_run_against_sqlite_prints_only_what_gluesql_accepts() {
    let mut engines: Vec<Box<dyn Engine>> =
        vec![SqliteFactory.open(&spec("sqlite")).expect("sqlite opens"), open_glue()];
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let opts = GenOptions { seed: 7, seeds_dir: None, oracles: vec!["differential".into()] };
    let mut gen = SqlKind.generator(&opts, &infos).expect("generator");
    let check = CheckOptions { timeout: Duration::from_secs(10) };
    let per_db = crosscheck_sql::gen::CHECKS_PER_DB;
    let (mut passed, mut disagreed) = (0, 0);
    for db in 0..20 {
        let first = gen.case(db * per_db, "differential");
        if let Check::Finding(f) = SqlKind.prepare(&first, &mut engines, &check) {
            panic!("setup: {}\n{}\n{}", f.summary, f.expected, f.actual);
        }
        for i in 0..20 {
            let case = gen.case(db * per_db + i, "differential");
            match SqlKind.check("differential", &case, &mut engines, &check) {
                Check::Finding(f) if f.class == FindingClass::Error => {
                    // The NULL LIKE and join-ON bugs of GlueSQL 0.20 (see dialects::GlueSql).
                    let known = ["Null LIKE", "identifier not found"];
                    assert!(known.iter().any(|k| f.actual.contains(k)), "{}\n{}", f.summary, f.actual)
                }
                Check::Finding(_) => disagreed += 1,
                Check::Pass { .. } => passed += 1,
                Check::Skip(_) => {}
            }
        }
    }
    assert!(passed > 200, "only {passed} of 400 checks passed ({disagreed} disagreed)");
}
