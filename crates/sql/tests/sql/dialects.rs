//! The dialect layer against the real engines: statements each dialect used to refuse, and
//! generated four-engine runs that must print only what every engine accepts.
//!
//! An engine that is not installed here is skipped with a printed line, unless it is listed in
//! `CROSSCHECK_REQUIRE_ENGINES` (`crosscheck_engines::testing`).

use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, GenOptions, Kind, Outcome, Value};
use crosscheck_engines::testing::{open_sql, sql_available};
use crosscheck_sql::ast::*;
use crosscheck_sql::dialect::{by_name, cap};
use crosscheck_sql::SqlKind;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(20);
const ENGINES: [&str; 4] = ["sqlite", "duckdb", "postgres", "mariadb"];

fn spec(name: &str) -> EngineSpec {
    EngineSpec { name: name.into(), location: None, label: None }
}

fn dialect_info(d: &str) -> EngineInfo {
    EngineInfo { dialect: d.into(), ..EngineInfo::default() }
}

/// Runs statements printed in the engine's dialect; the last one's rows.
fn run(e: &mut dyn Engine, stmts: &[Stmt], query: &Select) -> Vec<Vec<Value>> {
    let d = by_name(&e.info().dialect).unwrap_or_else(|| panic!("dialect"));
    for s in stmts {
        let sql = s.to_sql(d);
        let o = e.run(&sql, LIMIT);
        assert!(matches!(o, Outcome::Done | Outcome::Rows(_)), "{}: {sql} -> {o:?}", e.info().name);
    }
    let sql = query.to_sql(d);
    match e.run(&sql, LIMIT) {
        Outcome::Rows(r) => r.rows,
        other => panic!("{}: {sql} -> {other:?}", e.info().name),
    }
}

/// A table with a unique blob and a unique text column, an index over both, a row of defaults
/// and a negative-free `substr`: MariaDB refused the first three (no key on a BLOB, no
/// `DEFAULT VALUES`), PostgreSQL's `sign(bigint)` was a double.
#[test]
fn keyed_blobs_default_rows_and_integer_sign_run_everywhere() {
    let mut blob = ColumnDef::plain("c0", SqlType::Blob);
    blob.unique = true;
    let mut text = ColumnDef::plain("c1", SqlType::Text);
    text.unique = true;
    let mut int = ColumnDef::plain("c2", SqlType::Int);
    int.default = Some(Lit::Int(-7));
    let setup = vec![
        Stmt::CreateTable { name: "t0".into(), columns: vec![blob, text, int] },
        Stmt::CreateIndex {
            name: "i0".into(),
            table: "t0".into(),
            unique: false,
            keys: vec![
                IndexKey { expr: Expr::col("", "c0"), desc: false },
                IndexKey { expr: Expr::col("", "c1"), desc: true },
            ],
            where_: None,
        },
        Stmt::Insert {
            table: "t0".into(),
            columns: vec!["c0".into(), "c1".into()],
            values: vec![Expr::Lit(Lit::Blob(b"ab".to_vec())), Expr::Lit(Lit::Text("Ab".into()))],
        },
        Stmt::Insert { table: "t0".into(), columns: vec![], values: vec![] },
    ];
    let sign = Expr::Func(Func::Sign, vec![Expr::col("t0", "c2")]);
    let query = Select {
        items: vec![
            Item { expr: Expr::bin(BinOp::Rem, sign, Expr::Lit(Lit::Int(2))), alias: None },
            Item {
                expr: Expr::Func(
                    Func::Substr,
                    vec![Expr::col("t0", "c1"), Expr::Lit(Lit::Int(2)), Expr::Lit(Lit::Int(1))],
                ),
                alias: None,
            },
        ],
        from: vec![TableRef::named("t0", None)],
        order_by: vec![Order { expr: Expr::col("t0", "c1"), desc: false }],
        ..Select::default()
    };
    for name in ENGINES {
        let Some(mut e) = open_sql(name) else { continue };
        let rows = run(e.as_mut(), &setup, &query);
        let want = vec![vec![Value::Int(-1), Value::Null], vec![Value::Int(-1), Value::Text("b".into())]];
        assert_eq!(rows, want, "{name}");
    }
}

/// A text CAST stored in a view, coalesced with a text column: MariaDB stores the cast as
/// utf8mb4_bin beside the session's utf8mb4_nopad_bin and refused the mix (error 1267).
#[test]
fn a_text_cast_in_a_view_mixes_with_text_columns() {
    let setup = vec![
        Stmt::CreateTable { name: "t0".into(), columns: vec![ColumnDef::plain("c0", SqlType::Text)] },
        Stmt::Insert { table: "t0".into(), columns: vec!["c0".into()], values: vec![Expr::Lit(Lit::Text("a".into()))] },
        Stmt::CreateView {
            name: "v0".into(),
            columns: vec!["c1".into()],
            select: Box::new(Select {
                items: vec![Item { expr: Expr::Cast(Box::new(Expr::Lit(Lit::Null)), SqlType::Text), alias: None }],
                from: vec![TableRef::named("t0", None)],
                ..Select::default()
            }),
        },
    ];
    let query = Select {
        items: vec![Item {
            expr: Expr::Func(Func::Coalesce, vec![Expr::col("v0", "c1"), Expr::col("t0", "c0")]),
            alias: None,
        }],
        from: vec![TableRef::named("t0", None), TableRef::named("v0", None)],
        ..Select::default()
    };
    for name in ENGINES {
        let Some(mut e) = open_sql(name) else { continue };
        assert_eq!(run(e.as_mut(), &setup, &query), vec![vec![Value::Text("a".into())]], "{name}");
    }
}

/// The capabilities of a four-engine run leave out what MariaDB or PostgreSQL spell or
/// evaluate differently.
#[test]
fn a_four_engine_run_has_no_subquery_limit_and_no_nonpositive_substr() {
    let infos: Vec<EngineInfo> = ENGINES.iter().map(|d| dialect_info(d)).collect();
    let caps = crosscheck_sql::run_caps(&infos);
    assert!(!caps.has(cap::LIMIT_IN_SUBQUERY) && !caps.has(cap::SUBSTR_NONPOSITIVE));
    let opts = GenOptions { seed: 3, seeds_dir: None };
    let mut gen = SqlKind.generator(&opts, &infos).expect("generator");
    let my = by_name("mariadb").expect("mariadb");
    for i in 0..2000 {
        let case = gen.case(i, crosscheck_sql::SqlOracle::Differential);
        case.query.select.visit_exprs(&mut |e| match e {
            Expr::InSelect { select, .. } => assert!(select.limit.is_none(), "{}", case.query.select.to_sql(my)),
            Expr::Func(Func::Substr, args) => {
                assert!(!matches!(args.get(1), Some(Expr::Lit(Lit::Int(s))) if *s <= 0), "{e:?}")
            }
            _ => {}
        });
    }
}

/// Generated four-engine cases (setup and query) run on every engine here without an error
/// the dialect does not expect: the dialect layer prints only what every engine accepts.
#[test]
fn generated_four_engine_cases_run_without_unexpected_errors() {
    let mut engines: Vec<Box<dyn Engine>> = ENGINES.iter().filter_map(|n| open_sql(n)).collect();
    if engines.len() < 2 {
        return;
    }
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let opts = GenOptions { seed: 11, seeds_dir: None };
    let mut gen = SqlKind.generator(&opts, &infos).expect("generator");
    let check = CheckOptions { timeout: Duration::from_secs(10) };
    let per_db = crosscheck_sql::gen::CHECKS_PER_DB;
    for db in 0..25 {
        let first = gen.case(db * per_db, crosscheck_sql::SqlOracle::Differential);
        match SqlKind.prepare(&first, &mut engines, &check) {
            Check::Finding(f) => panic!("setup: {}\n{:?}", f.summary, f.detail),
            // A failed reset is a skip for a campaign, but here it would leave the queries to
            // run on a half-reset engine and fail with a misleading error (issue 11).
            Check::Skip(why) if why.starts_with("cannot reset") => panic!("setup: {why}"),
            _ => {}
        }
        for i in 0..8 {
            let case = gen.case(db * per_db + i, crosscheck_sql::SqlOracle::Differential);
            for e in engines.iter_mut() {
                let d = by_name(&e.info().dialect).expect("dialect");
                let sql = case.query.select.to_sql(d);
                if let Err(Check::Finding(f)) = crosscheck_sql::exec::exec(e.as_mut(), &sql, &check) {
                    panic!("{}: {}\n{sql}", e.info().name, f.summary);
                }
            }
        }
    }
}

/// A one-table case whose query returns `2|b`, with a finding around it, for reproducers.
fn small_case() -> (crosscheck_sql::SqlCase, crosscheck_core::Evidence) {
    let setup = vec![
        Stmt::CreateTable {
            name: "t0".into(),
            columns: vec![ColumnDef::plain("c0", SqlType::Int), ColumnDef::plain("c1", SqlType::Text)],
        },
        Stmt::Insert {
            table: "t0".into(),
            columns: vec!["c0".into(), "c1".into()],
            values: vec![Expr::Lit(Lit::Int(2)), Expr::Lit(Lit::Text("b".into()))],
        },
    ];
    let select = Select {
        items: vec![
            Item { expr: Expr::col("t0", "c0"), alias: None },
            Item { expr: Expr::col("t0", "c1"), alias: None },
        ],
        from: vec![TableRef::named("t0", None)],
        ..Select::default()
    };
    let case = crosscheck_sql::SqlCase {
        seed: 1,
        db: 0,
        index: 0,
        oracle: crosscheck_sql::SqlOracle::Differential,
        strict: true,
        setup: std::sync::Arc::new(setup),
        query: crosscheck_sql::Query { select, pred: None, count_rows: false },
    };
    let ev = crosscheck_core::Evidence {
        class: crosscheck_core::FindingClass::Logic,
        engines: vec!["a".into(), "b".into()],
        summary: "engines disagree".into(),
        expected: "2|b".into(),
        actual: "(no rows)".into(),
        key: "differential:a|b".into(),
        detail: crosscheck_core::Detail::none(),
    };
    (case, ev)
}

/// The client's output of a reproducer, or None when the client is not installed here.
fn run_client(client: &str, args: &[&str], script: &str) -> Option<String> {
    use std::io::Write;
    let path = crosscheck_engines::transport::find_tool(client)?;
    let mut child = std::process::Command::new(path)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("client starts: {e}"));
    child
        .stdin
        .take()
        .unwrap_or_else(|| panic!("stdin"))
        .write_all(script.as_bytes())
        .unwrap_or_else(|e| panic!("script written: {e}"));
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("client ends: {e}"));
    assert!(out.status.success(), "{client}: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The DuckDB reproducer prints its rows as the comments quote them; the MariaDB one makes its
/// own database, so `mariadb < FILE` runs it on a bare server.
#[test]
fn reproducers_run_in_the_engines_own_clients() {
    let (case, ev) = small_case();
    let engines: Vec<EngineInfo> = ["duckdb", "mariadb"].iter().map(|d| dialect_info(d)).collect();
    let script = |d: &str| {
        crosscheck_sql::repro::script(
            &case,
            crosscheck_sql::SqlOracle::Differential,
            &ev,
            &engines,
            by_name(d).expect("dialect"),
        )
    };
    match run_client("duckdb", &[], &script("duckdb")) {
        Some(out) => assert_eq!(out.trim(), "2|b"),
        None => eprintln!("skipped: no duckdb CLI here (pip install duckdb-cli)"),
    }
    if !sql_available("mariadb") {
        return;
    }
    let my = crosscheck_engines::sql::mariadb::MariaDbEngine::open(&spec("mariadb")).expect("mariadb opens");
    let url = my.url();
    let port = url.rsplit(':').next().expect("port");
    let args = ["-h", "127.0.0.1", "-P", port, "-u", "root", "-N", "-B"];
    match run_client("mariadb", &args, &script("mariadb")) {
        Some(out) => assert_eq!(out.trim(), "2\tb"),
        None => eprintln!("skipped: no mariadb client here"),
    }
}

/// Outside SQLite alone an expression index key does no arithmetic: an overflow is a real in
/// SQLite and an error in DuckDB or PostgreSQL, which would drop the row on one engine only.
#[test]
fn expression_index_keys_cannot_overflow_outside_sqlite() {
    let infos: Vec<EngineInfo> = ["sqlite", "duckdb"].iter().map(|d| dialect_info(d)).collect();
    let opts = GenOptions { seed: 5, seeds_dir: None };
    let mut gen = SqlKind.generator(&opts, &infos).expect("generator");
    let mut expression_keys = 0;
    for db in 0..400 {
        let case = gen.case(db * crosscheck_sql::gen::CHECKS_PER_DB, crosscheck_sql::SqlOracle::Differential);
        for s in case.setup.iter() {
            let Stmt::CreateIndex { keys, .. } = s else { continue };
            for k in keys.iter().filter(|k| !matches!(k.expr, Expr::Col(_))) {
                expression_keys += 1;
                k.expr.visit(&mut |e| {
                    let arithmetic = matches!(
                        e,
                        Expr::Binary(
                            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::IntDiv | BinOp::Rem,
                            ..
                        ) | Expr::Unary(UnOp::Neg, _)
                    );
                    assert!(!arithmetic, "{:?}", k.expr);
                });
            }
        }
    }
    assert!(expression_keys > 20, "only {expression_keys} expression keys");
}

/// The differential oracle over every engine here, and the config oracle on each engine, run
/// generated cases to a verdict: they compare real answers rather than skip. Findings are
/// printed, not refused: the engines have known bugs these cases may meet (README, SQL).
#[test]
fn differential_and_config_oracles_reach_verdicts_on_every_engine() {
    let check = CheckOptions { timeout: Duration::from_secs(10) };
    let per_db = crosscheck_sql::gen::CHECKS_PER_DB;
    let verdicts = |oracle: &str, mut engines: Vec<Box<dyn Engine>>, seed: u64| {
        let oracle = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle)
            .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
        let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
        let names: Vec<String> = infos.iter().map(|i| i.label.clone()).collect();
        let opts = GenOptions { seed, seeds_dir: None };
        let mut gen = SqlKind.generator(&opts, &infos).expect("generator");
        let (mut ran, mut decided) = (0, 0);
        for db in 0..6 {
            let first = gen.case(db * per_db, oracle);
            if !matches!(SqlKind.prepare(&first, &mut engines, &check), Check::Pass { .. }) {
                continue;
            }
            for i in 0..6 {
                let case = gen.case(db * per_db + i, oracle);
                ran += 1;
                match SqlKind.check(oracle, &case, &mut engines, &check) {
                    Check::Pass { .. } => decided += 1,
                    Check::Finding(f) => {
                        decided += 1;
                        eprintln!("{oracle} on {names:?}: {} [{}]", f.summary, f.key);
                    }
                    Check::Skip(_) => {}
                }
            }
        }
        assert!(ran >= 24 && decided * 10 >= ran * 8, "{oracle} on {names:?}: {decided} verdicts in {ran} checks");
    };
    let all: Vec<Box<dyn Engine>> = ENGINES.iter().filter_map(|n| open_sql(n)).collect();
    if all.len() >= 2 {
        verdicts("differential", all, 21);
    }
    for name in ENGINES {
        if let Some(e) = open_sql(name) {
            verdicts("config", vec![e], 22);
        }
    }
}
