//! False alarms that self-checks (each engine against itself with `tlp,norec`, and against a
//! second instance with `differential`) met, each on the real engine: a float SUM whose
//! partitions round differently, aggregates a strict dialect does not have, MariaDB's HAVING,
//! and SQLite's random rowid past i64::MAX.
//!
//! An engine that is not installed here is skipped with a printed line, unless it is listed in
//! `CROSSCHECK_REQUIRE_ENGINES` (`crosscheck_engines::testing`).

use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, FindingClass, GenOptions, Kind};
use crosscheck_engines::testing::open_sql;
use crosscheck_sql::ast::*;
use crosscheck_sql::{Query, SqlCase, SqlKind, SqlOracle};
use std::time::Duration;

const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(20) };

fn open(name: &str) -> Box<dyn Engine> {
    let spec = EngineSpec { name: name.into(), location: None, label: None };
    crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
        .unwrap_or_else(|e| panic!("{name} opens: {e}"))
}

fn check(engines: &mut [Box<dyn Engine>], case: &SqlCase) -> Check {
    match SqlKind.prepare(case, engines, &OPTS) {
        Check::Pass { .. } => SqlKind.check(case.oracle, case, engines, &OPTS),
        other => other,
    }
}

/// `SELECT SUM(c0) FROM t0 WHERE ...` over t0(c0 REAL) holding `values`, partitioned by
/// `c0 > 0`.
fn float_sum(values: &[f64]) -> SqlCase {
    let mut setup = vec![Stmt::CreateTable { name: "t0".into(), columns: vec![ColumnDef::plain("c0", SqlType::Real)] }];
    for v in values {
        setup.push(Stmt::Insert {
            table: "t0".into(),
            columns: vec!["c0".into()],
            values: vec![Expr::Lit(Lit::Real(*v))],
        });
    }
    let sum = Expr::Agg { func: Agg::Sum, distinct: false, arg: Some(Box::new(Expr::col("t0", "c0"))) };
    let select = Select {
        items: vec![Item { expr: sum, alias: Some("agg".into()) }],
        from: vec![TableRef::named("t0", None)],
        ..Select::default()
    };
    let pred = Expr::bin(BinOp::Gt, Expr::col("t0", "c0"), Expr::Lit(Lit::Real(0.0)));
    SqlCase {
        seed: 0,
        db: 0,
        index: 0,
        oracle: SqlOracle::TlpAggregate,
        strict: false,
        setup: setup.into(),
        query: Query { select, pred: Some(pred), count_rows: false },
    }
}

/// SQLite sums 1e15, 0.1 and -1e15 to 0.1 (it compensates rounding), the partitions to
/// 1000000000000000.1 (rounded to ...0.125) and -1e15, whose sum is 0.125: a float SUM is not
/// associative, so this is no bug.
#[test]
fn tlp_aggregate_float_sums_differ_by_rounding_without_a_finding() {
    let case = float_sum(&[1e15, 0.1, -1e15]);
    assert_eq!(check(&mut [open("sqlite")], &case), Check::Pass { nonempty: true });
}

/// Generated cases of the oracles that write aggregates run on each engine alone without an
/// error finding: PostgreSQL has no min(boolean), max(bytea) or sum(text), DuckDB no
/// sum(BLOB) or sum(VARCHAR), and MariaDB's HAVING cannot name a column inside a group key
/// expression.
#[test]
fn generated_aggregates_and_having_are_accepted_by_each_engine() {
    for name in ["postgres", "duckdb", "mariadb"] {
        let Some(engine) = open_sql(name) else { continue };
        let mut engines = vec![engine];
        let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
        let mut gen = SqlKind.generator(&GenOptions { seed: 5, seeds_dir: None }, &infos).expect("generator");
        let per_db = crosscheck_sql::gen::CHECKS_PER_DB;
        for db in 0..12 {
            let mut prepared = false;
            for i in 0..12 {
                let oracle = if i % 2 == 0 { SqlOracle::TlpAggregate } else { SqlOracle::TlpHaving };
                let case = gen.case(db * per_db + i, oracle);
                if !prepared {
                    if !matches!(SqlKind.prepare(&case, &mut engines, &OPTS), Check::Pass { .. }) {
                        break;
                    }
                    prepared = true;
                }
                if let Check::Finding(e) = SqlKind.check(oracle, &case, &mut engines, &OPTS) {
                    assert_ne!(e.class, FindingClass::Error, "{name}: {}\n{:?}", e.summary, case.query);
                }
            }
        }
    }
}

/// Seed 5's differential run of SQLite against a second SQLite met a table whose INTEGER
/// PRIMARY KEY held 9223372036854775807 and a row with a NULL key: each instance picked
/// another random rowid. The generator keeps rowid keys below that limit, so both agree.
#[test]
fn two_sqlite_instances_agree_where_a_rowid_key_was_at_its_limit() {
    let mut engines = vec![open("sqlite"), open("sqlite")];
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let mut gen =
        SqlKind.generator(&GenOptions { seed: 6303508680818792179, seeds_dir: None }, &infos).expect("generator");
    let case = gen.case(216804, SqlOracle::Differential);
    let keys = case.setup.iter().filter_map(|s| match s {
        Stmt::CreateTable { columns, .. } => Some(columns.iter().filter(|c| c.primary_key).count()),
        _ => None,
    });
    assert!(keys.sum::<usize>() > 0, "the case still has a keyed table");
    assert!(matches!(check(&mut engines, &case), Check::Pass { .. }));
}

/// One statement crashed MariaDB's private server (a self-check met such a crash every few
/// thousand cases): that check is a crash finding, the later checks of the same database are
/// skipped (the database is gone), and the next preparation starts a new server. Before, each
/// later check was a "cannot connect" crash finding, thousands per crash.
#[test]
fn a_crashed_private_server_is_one_finding_then_skips_until_prepared_again() {
    use crosscheck_engines::sql::mariadb::MariaDbEngine;
    if !crosscheck_engines::testing::sql_available("mariadb") {
        return;
    }
    let spec = EngineSpec { name: "mariadb".into(), location: None, label: None };
    let e = MariaDbEngine::open(&spec).unwrap_or_else(|e| panic!("mariadb opens: {e}"));
    let pid = e.server_pid().expect("a private server");
    let mut engines: Vec<Box<dyn Engine>> = vec![Box::new(e)];
    let case = float_sum(&[1.5, 2.5]);
    assert_eq!(check(&mut engines, &case), Check::Pass { nonempty: true });
    let killed = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
    assert!(killed.is_ok_and(|s| s.success()), "kill {pid}");
    match SqlKind.check(case.oracle, &case, &mut engines, &OPTS) {
        Check::Finding(e) => assert_eq!(e.class, FindingClass::Crash, "{e:?}"),
        other => panic!("expected a crash finding, got {other:?}"),
    }
    for _ in 0..3 {
        assert!(matches!(SqlKind.check(case.oracle, &case, &mut engines, &OPTS), Check::Skip(_)));
    }
    assert_eq!(check(&mut engines, &case), Check::Pass { nonempty: true });
}

/// Seed 7's tlp run on SQLite grouped `-9223372036854775808 - (- c0)` over a REAL 0.0 and a
/// blob: the real -9.223372036854775808e18 and the integer -9223372036854775808 are one group
/// for SQLite, so the partitions' union must fold them into one row too.
#[test]
fn an_overflowed_real_and_its_equal_integer_are_one_group() {
    let mut engines = vec![open("sqlite")];
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let mut gen =
        SqlKind.generator(&GenOptions { seed: 3289223769585499172, seeds_dir: None }, &infos).expect("generator");
    let case = gen.case(258428, SqlOracle::Tlp);
    assert_eq!(case.oracle, SqlOracle::TlpGroupBy);
    assert_eq!(check(&mut engines, &case), Check::Pass { nonempty: true });
}
