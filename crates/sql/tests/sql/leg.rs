//! The SQL leg on the real SQLite (no mocks): the printer, the oracles' query construction,
//! oracle verdicts on known cases, the fault-injecting mutants each oracle must catch, a
//! fixed-seed run that must find nothing, reduction and reproducers.

use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, Evidence, FindingClass, GenOptions, Kind};
use crosscheck_sql::ast::*;
use crosscheck_sql::dialect::{by_name, Sqlite};
use crosscheck_sql::oracles::plan;
use crosscheck_sql::{Query, SqlCase, SqlKind};
use std::time::{Duration, Instant};

pub(crate) const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(10) };

/// Engine errors that are the engine's bugs, not crosscheck's: a fixed-seed run that meets one
/// still finds nothing of crosscheck's making.
pub(crate) const KNOWN_ENGINE_ERRORS: &[&str] = &[
    // DuckDB 2.0.0 (1.1.3 answers): CREATE TABLE t0(c0 DOUBLE, c1 DOUBLE); INSERT INTO t0
    // VALUES (0, 3.25); SELECT 1 FROM t0 WHERE 'a' = (CASE WHEN t0.c1 < 3 THEN 'b' END);
    "BindBuiltinScalarFunction did not return a BoundFunctionExpression",
    // DuckDB 1.1.3 and 2.0.0: CREATE TABLE t0 (c0 VARCHAR); INSERT INTO t0 VALUES ('a');
    // SELECT MIN((SELECT c0 FROM t0) COLLATE NOCASE) FROM t0;
    "Cannot copy BoundSubqueryExpression",
    // DuckDB 1.1.3 (2.0.0 answers NULL): SELECT ('0' || CAST(NULL AS VARCHAR)) COLLATE NOCASE;
    "collations are only supported for type varchar",
];

/// An engine as `--engines` names it (`sqlite`, `sqlite@b`, `duckdb=/path/to/venv`).
pub(crate) fn engine(name: &str) -> Box<dyn Engine> {
    let spec = EngineSpec::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
        .unwrap_or_else(|e| panic!("engine opens: {e}"))
}

pub(crate) fn col(t: &str, c: &str) -> Expr {
    Expr::col(t, c)
}

pub(crate) fn int(i: i64) -> Expr {
    Expr::Lit(Lit::Int(i))
}

pub(crate) fn select_from(items: Vec<Expr>, table: &str) -> Select {
    Select {
        items: items.into_iter().map(|expr| Item { expr, alias: None }).collect(),
        from: vec![TableRef::named(table, None)],
        ..Select::default()
    }
}

#[test]
fn printer_spells_each_dialect() {
    let mut s = select_from(
        vec![col("t0", "c0"), Expr::bin(BinOp::Concat, col("t0", "c1"), Expr::Lit(Lit::Text("it's".into())))],
        "t0",
    );
    s.distinct = true;
    s.joins.push(Join {
        kind: JoinKind::Left,
        table: TableRef::named("t1", Some("a1".into())),
        on: Some(Expr::bin(BinOp::Is, col("t0", "c0"), col("a1", "c0"))),
    });
    s.where_ =
        Some(Expr::bin(BinOp::And, Expr::is_null(col("t0", "c1")), Expr::bin(BinOp::IntDiv, col("t0", "c0"), int(-2))));
    s.order_by = vec![Order { expr: col("t0", "c0"), desc: true }];
    let print = |d: &str| s.to_sql(by_name(d).expect("dialect"));
    assert_eq!(
        print("sqlite"),
        "SELECT DISTINCT t0.c0, (t0.c1 || 'it''s') FROM t0 LEFT JOIN t1 AS a1 ON (t0.c0 IS a1.c0) \
         WHERE ((t0.c1 IS NULL) AND (t0.c0 / (-2))) ORDER BY t0.c0 DESC NULLS LAST"
    );
    assert_eq!(
        print("postgres"),
        "SELECT DISTINCT t0.c0, (t0.c1 || 'it''s') FROM t0 LEFT JOIN t1 AS a1 ON (t0.c0 IS NOT DISTINCT FROM a1.c0) \
         WHERE ((t0.c1 IS NULL) AND (t0.c0 / (-2))) ORDER BY t0.c0 DESC NULLS LAST"
    );
    assert!(print("duckdb").contains("(t0.c0 // (-2))"));
    let m = print("mariadb");
    assert!(m.contains("CONCAT(t0.c1, 'it''s')") && m.contains("(t0.c0 <=> a1.c0)") && m.contains("DIV"), "{m}");
    assert!(m.ends_with("ORDER BY t0.c0 DESC"), "{m}");
    // Literals that would read differently elsewhere.
    let lits = |d: &str, l: Lit| Expr::Lit(l).to_sql(by_name(d).expect("dialect"));
    assert_eq!(lits("sqlite", Lit::Real(-0.0)), "(-0.0)");
    assert_eq!(lits("sqlite", Lit::Real(1e308)), "1e308");
    assert_eq!(lits("sqlite", Lit::Blob(vec![0, 255])), "x'00FF'");
    assert_eq!(lits("postgres", Lit::Blob(vec![0, 255])), "'\\x00ff'::bytea");
    assert_eq!(lits("postgres", Lit::Real(1.5)), "'1.5'::float8");
    assert_eq!(lits("mariadb", Lit::Text("a\\b".into())), "'a\\\\b'");
    let t = Stmt::CreateTable {
        name: "t0".into(),
        columns: vec![ColumnDef {
            name: "c0".into(),
            ty: Some(SqlType::Text),
            primary_key: false,
            unique: true,
            not_null: true,
            default: Some(Lit::Int(-1)),
            collate: Some(Collation::NoCase),
        }],
    };
    assert_eq!(t.to_sql(&Sqlite), "CREATE TABLE t0 (c0 TEXT UNIQUE NOT NULL DEFAULT (-1) COLLATE NOCASE)");
}

fn where_query() -> Query {
    Query {
        select: select_from(vec![col("t0", "c0")], "t0"),
        pred: Some(Expr::bin(BinOp::Gt, col("t0", "c0"), int(1))),
        count_rows: false,
    }
}

#[test]
fn tlp_partitions_are_p_not_p_and_p_is_null() {
    let p = plan(crosscheck_sql::SqlOracle::TlpWhere, &where_query(), &Sqlite);
    let sql: Vec<&str> = p.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(
        sql,
        vec![
            "SELECT t0.c0 FROM t0",
            "SELECT t0.c0 FROM t0 WHERE (t0.c0 > 1)",
            "SELECT t0.c0 FROM t0 WHERE (NOT (t0.c0 > 1))",
            "SELECT t0.c0 FROM t0 WHERE ((t0.c0 > 1) IS NULL)",
        ]
    );
    let mut q = where_query();
    q.select.group_by = vec![col("t0", "c0")];
    q.select.items.push(Item { expr: Expr::Agg { func: Agg::Count, distinct: false, arg: None }, alias: None });
    let h = plan(crosscheck_sql::SqlOracle::TlpHaving, &q, &Sqlite);
    assert_eq!(h[3].1, "SELECT t0.c0, COUNT(*) FROM t0 GROUP BY t0.c0 HAVING ((t0.c0 > 1) IS NULL)");
}

#[test]
fn tlp_aggregate_combines_partitions_with_the_outer_aggregate() {
    let mut q = where_query();
    let arg = Expr::Collate(Box::new(col("t0", "c0")), Collation::NoCase);
    q.select.items = vec![Item {
        expr: Expr::Agg { func: Agg::Min, distinct: false, arg: Some(Box::new(arg)) },
        alias: Some("agg".into()),
    }];
    let p = plan(crosscheck_sql::SqlOracle::TlpAggregate, &q, &Sqlite);
    assert_eq!(p[0].1, "SELECT MIN((t0.c0 COLLATE NOCASE)) AS agg FROM t0");
    assert_eq!(
        p[1].1,
        "SELECT MIN(agg COLLATE NOCASE) FROM (SELECT MIN((t0.c0 COLLATE NOCASE)) AS agg FROM t0 WHERE (t0.c0 > 1) \
         UNION ALL SELECT MIN((t0.c0 COLLATE NOCASE)) AS agg FROM t0 WHERE (NOT (t0.c0 > 1)) \
         UNION ALL SELECT MIN((t0.c0 COLLATE NOCASE)) AS agg FROM t0 WHERE ((t0.c0 > 1) IS NULL)) AS tlp"
    );
    q.select.items[0].expr = Expr::Agg { func: Agg::Count, distinct: false, arg: None };
    assert!(plan(crosscheck_sql::SqlOracle::TlpAggregate, &q, &Sqlite)[1].1.starts_with("SELECT SUM(agg) FROM ("));
}

#[test]
fn norec_counts_rows_against_an_unoptimizable_sum() {
    let p = plan(crosscheck_sql::SqlOracle::Norec, &where_query(), &Sqlite);
    assert_eq!(p[0].1, "SELECT COUNT(*) FROM t0 WHERE (t0.c0 > 1)");
    assert_eq!(p.len(), 2);
    assert_eq!(p[1].1, "SELECT SUM(((t0.c0 > 1) IS TRUE)) AS norec FROM t0");
    // Strict dialects get a CASE instead of summing booleans.
    let pg = plan(crosscheck_sql::SqlOracle::Norec, &where_query(), by_name("postgres").expect("postgres"));
    assert_eq!(pg[1].1, "SELECT SUM((CASE WHEN (t0.c0 > 1) THEN 1 ELSE 0 END)) AS norec FROM t0");
}

/// `CREATE TABLE t0 (columns)`, then one INSERT of every column per row.
pub(crate) fn t0(columns: Vec<ColumnDef>, rows: Vec<Vec<Lit>>) -> Vec<Stmt> {
    let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    let inserts = rows.into_iter().map(|r| Stmt::Insert {
        table: "t0".into(),
        columns: names.clone(),
        values: r.into_iter().map(Expr::Lit).collect(),
    });
    std::iter::once(Stmt::CreateTable { name: "t0".into(), columns }).chain(inserts).collect()
}

/// t0(c0 INTEGER) holding 1, 2, 3 and NULL.
pub(crate) fn known_case(oracle: &str) -> SqlCase {
    let oracle = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle)
        .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
    let rows = [Lit::Int(1), Lit::Int(2), Lit::Int(3), Lit::Null].map(|v| vec![v]).to_vec();
    let setup = t0(vec![ColumnDef::plain("c0", SqlType::Int)], rows);
    SqlCase { seed: 0, db: 0, index: 0, oracle, strict: false, setup: setup.into(), query: where_query() }
}

pub(crate) fn check(engine_name: &str, oracle: &str, case: &SqlCase) -> Check {
    let oracle = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle)
        .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
    let mut engines = vec![engine(engine_name)];
    let kind = SqlKind;
    match kind.prepare(case, &mut engines, &OPTS) {
        Check::Pass { .. } => kind.check(oracle, case, &mut engines, &OPTS),
        other => other,
    }
}

#[test]
fn known_cases_pass_on_sqlite_and_fail_on_mutants() {
    for oracle in ["tlp-where", "norec"] {
        let case = known_case(oracle);
        assert_eq!(check("sqlite", oracle, &case), Check::Pass { nonempty: true }, "{oracle}");
        for m in ["mutant:sqlite:where-drop", "mutant:sqlite:drop-row", "mutant:sqlite:dup-row"] {
            match check(m, oracle, &case) {
                Check::Finding(e) => assert_eq!(e.class, FindingClass::Logic),
                other => panic!("{m} not caught by {oracle}: {other:?}"),
            }
        }
    }
}

#[test]
fn unexpected_errors_are_findings_and_expected_ones_skip() {
    let mut case = known_case("tlp-where");
    case.query.select.items = vec![Item { expr: col("t0", "nope"), alias: None }];
    match check("sqlite", "tlp-where", &case) {
        Check::Finding(e) => {
            assert_eq!(e.class, FindingClass::Error);
            assert_eq!(e.key, "error:no such column");
        }
        other => panic!("{other:?}"),
    }
    // abs(-9223372036854775808) overflows in SQLite: on the dialect's list, so a skip.
    case.query.select.items = vec![Item { expr: Expr::Func(Func::Abs, vec![int(i64::MIN)]), alias: None }];
    assert!(matches!(check("sqlite", "tlp-where", &case), Check::Skip(_)));
}

/// Runs `n` generated checks of `oracle`; the findings.
pub(crate) fn campaign(
    engine_name: &str,
    oracle: &str,
    seed: u64,
    n: u64,
    stop_at_first: bool,
) -> (u64, Vec<(SqlCase, Evidence)>) {
    let oracle = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle)
        .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
    let kind = SqlKind;
    let mut engines = vec![engine(engine_name)];
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let opts = GenOptions { seed, seeds_dir: None };
    let mut gen = kind.generator(&opts, &infos).unwrap_or_else(|e| panic!("generator: {e}"));
    let mut setup: Option<(u64, bool)> = None;
    let mut findings = Vec::new();
    let mut nonempty = 0;
    for i in 0..n {
        let case = gen.case(i, oracle);
        let id = kind.setup_id(&case);
        if setup.map(|s| s.0) != Some(id) {
            let p = kind.prepare(&case, &mut engines, &OPTS);
            if let Check::Finding(e) = &p {
                findings.push((case.clone(), (**e).clone()));
            }
            setup = Some((id, matches!(p, Check::Pass { .. })));
        }
        if !setup.is_some_and(|s| s.1) {
            continue;
        }
        match kind.check(oracle, &case, &mut engines, &OPTS) {
            Check::Finding(e) => {
                findings.push((case, *e));
                if stop_at_first {
                    break;
                }
            }
            Check::Pass { nonempty: true } => nonempty += 1,
            _ => {}
        }
    }
    (nonempty, findings)
}

const ALL: &[&str] = &["tlp-where", "tlp-distinct", "tlp-group-by", "tlp-having", "tlp-aggregate", "norec"];

#[test]
fn each_mutant_is_caught_by_the_oracles_that_claim_it() {
    for fault in ["where-drop", "drop-row", "dup-row"] {
        for oracle in ALL {
            let (_, found) = campaign(&format!("mutant:sqlite:{fault}"), oracle, 3, 400, true);
            let logic = found.iter().any(|(_, e)| e.class == FindingClass::Logic);
            assert!(logic, "{oracle} did not catch {fault} in 400 checks: {found:?}");
        }
    }
}

#[test]
fn plain_sqlite_gives_no_finding_on_a_fixed_seed() {
    // 20,000 checks over every oracle, the same stream on every run.
    let mut total_nonempty = 0;
    for (k, oracle) in ALL.iter().enumerate() {
        let n = 20_000 / ALL.len() as u64;
        let (nonempty, found) = campaign("sqlite", oracle, 7 + k as u64, n, false);
        let shown: Vec<String> =
            found.iter().take(3).map(|(c, e)| format!("{}: {} {:?}", e.summary, e.key, c.query)).collect();
        assert!(found.is_empty(), "{oracle}: {} finding(s) on a correct SQLite:\n{}", found.len(), shown.join("\n"));
        total_nonempty += nonempty;
    }
    // Constants come from the data: most queries return rows.
    assert!(total_nonempty * 2 > 20_000, "only {total_nonempty} of 20000 checks returned rows");
}

#[test]
fn the_generator_is_a_pure_function_of_seed_and_index() {
    let kind = SqlKind;
    let infos = vec![engine("sqlite").info().clone()];
    let opts = GenOptions { seed: 11, seeds_dir: None };
    let mut a = kind.generator(&opts, &infos).expect("generator");
    let mut b = kind.generator(&opts, &infos).expect("generator");
    let forward: Vec<SqlCase> = (0..450).map(|i| a.case(i, crosscheck_sql::SqlOracle::Tlp)).collect();
    for i in (0..450usize).rev().step_by(37) {
        assert_eq!(b.case(i as u64, crosscheck_sql::SqlOracle::Tlp), forward[i]);
    }
    // One database's checks share a setup id while no DML statement changed it between them.
    let per_state = crosscheck_core::position(crosscheck_sql::gen::CHECKS_PER_STATE, usize::MAX);
    assert_eq!(kind.setup_id(&forward[0]), kind.setup_id(&forward[per_state - 1]));
    assert_ne!(kind.setup_id(&forward[0]), kind.setup_id(&forward[200]));
}

#[test]
fn reduction_keeps_the_failure_and_ends_small() {
    let kind = SqlKind;
    let (_, found) = campaign("mutant:sqlite:where-drop", "tlp-where", 5, 400, true);
    let (mut case, ev) = found.into_iter().next().expect("a finding");
    // Defaults the fault does not need: reduction must drop every one of them.
    for st in std::sync::Arc::make_mut(&mut case.setup) {
        if let Stmt::CreateTable { columns, .. } = st {
            columns.iter_mut().for_each(|c| c.default = Some(Lit::Int(7)));
        }
    }
    let mut engines = vec![engine("mutant:sqlite:where-drop")];
    let deadline = Instant::now() + Duration::from_secs(60);
    let oracle = crosscheck_sql::SqlOracle::TlpWhere;
    let r = crosscheck_core::worker::reduce_offline(&kind, oracle, &case, &ev, &mut engines, &OPTS, deadline)
        .expect("a smaller case that fails the same way");
    let (stats, small): (_, SqlCase) = (r.stats, serde_json::from_value(r.case).expect("a reduced SQL case"));
    eprintln!("reduced {} -> {} in {} tries: {:?}", stats.size_before, stats.size_after, stats.tries, small);
    assert!(stats.size_after < stats.size_before);
    // The fault needs one table, one row and a predicate that keeps it: a handful of nodes.
    assert!(stats.size_after <= 12, "reduced case still has size {}: {small:?}", stats.size_after);
    let kept = small.setup.iter().filter_map(|s| match s {
        Stmt::CreateTable { columns, .. } => Some(columns.iter().filter(|c| c.size() > 1).count()),
        _ => None,
    });
    assert_eq!(kept.sum::<usize>(), 0, "constraints or defaults survived reduction: {small:?}");
    let inserts = small.setup.iter().filter(|s| matches!(s, Stmt::Insert { .. })).count();
    assert_eq!(inserts, 1, "{small:?}");
    // The reproducer runs in the sqlite3 shell as it is, when the shell is installed.
    let infos = vec![engines[0].info().clone()];
    let files = kind.reproducers("repro", crosscheck_sql::SqlOracle::TlpWhere, &small, &ev, &infos);
    assert_eq!(files[0].0, "repro.sql");
    assert!(files[0].1.contains("-- expected:") && files[0].1.contains("CREATE TABLE"));
    if let Ok(out) = std::process::Command::new("sqlite3")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(files[0].1.as_bytes())?;
            child.wait_with_output()
        })
    {
        assert!(out.status.success(), "sqlite3 rejected the reproducer: {}", String::from_utf8_lossy(&out.stderr));
    } else {
        eprintln!("sqlite3 shell not installed: reproducer not run");
    }
}

#[test]
fn signatures_ignore_constants_and_names() {
    let a = known_case("tlp-where");
    let mut b = a.clone();
    b.query.pred = Some(Expr::bin(BinOp::Gt, col("t0", "c0"), int(42)));
    let ev = |k: &str| Evidence {
        class: FindingClass::Logic,
        engines: vec!["sqlite".into()],
        summary: String::new(),
        expected: String::new(),
        actual: String::new(),
        key: k.into(),
        detail: crosscheck_core::Detail::none(),
    };
    let kind = SqlKind;
    assert_eq!(
        kind.signature(crosscheck_sql::SqlOracle::Tlp, &a, &ev("rows-differ")),
        kind.signature(crosscheck_sql::SqlOracle::Tlp, &b, &ev("rows-differ"))
    );
    b.query.pred = Some(Expr::bin(BinOp::Like, col("t0", "c0"), Expr::Lit(Lit::Text("a%".into()))));
    assert_ne!(
        kind.signature(crosscheck_sql::SqlOracle::Tlp, &a, &ev("rows-differ")),
        kind.signature(crosscheck_sql::SqlOracle::Tlp, &b, &ev("rows-differ"))
    );
    // NULLIF is a CASE and IN a disjunction of comparisons by definition: one DuckDB bug met
    // as `nullif(c0, 1) IN (2)` and as `CASE WHEN c0 = 1 THEN NULL ELSE c0 END = 2` is one.
    let nullif = Expr::Func(Func::Nullif, vec![col("t0", "c0"), int(1)]);
    b.query.pred = Some(Expr::InList { expr: Box::new(nullif), list: vec![int(2)], not: false });
    let mut c = a.clone();
    let case = Expr::Case {
        operand: None,
        whens: vec![(Expr::bin(BinOp::Eq, col("t0", "c0"), int(1)), Expr::Lit(Lit::Null))],
        otherwise: Some(Box::new(col("t0", "c0"))),
    };
    c.query.pred = Some(Expr::bin(BinOp::Eq, case.clone(), int(2)));
    let plain = kind.signature(crosscheck_sql::SqlOracle::Tlp, &c, &ev("rows-differ"));
    assert_eq!(kind.signature(crosscheck_sql::SqlOracle::Tlp, &b, &ev("rows-differ")), plain);
    // The same CASE read through a view: the view's expressions are features of the case, so
    // the plain case's bug explains it.
    let mut v = a.clone();
    let body = Select {
        items: vec![Item { expr: case, alias: None }],
        from: vec![TableRef::named("t0", None)],
        ..Select::default()
    };
    std::sync::Arc::make_mut(&mut v.setup).push(Stmt::CreateView {
        name: "v0".into(),
        columns: vec!["c0".into()],
        select: Box::new(body),
    });
    v.query.pred = Some(Expr::bin(BinOp::Eq, col("v0", "c0"), int(2)));
    let viewed = kind.signature(crosscheck_sql::SqlOracle::Tlp, &v, &ev("rows-differ"));
    assert!(plain.features.is_subset(&viewed.features), "{plain:?} vs {viewed:?}");
}

#[test]
fn sqlite_against_itself_and_under_planner_settings_agrees() {
    // The quality bar: an engine checked against itself, and a configuration that must not
    // change answers, report nothing.
    let kind = SqlKind;
    for (oracle, engines) in [
        (crosscheck_sql::SqlOracle::Differential, vec!["sqlite", "sqlite"]),
        (crosscheck_sql::SqlOracle::Config, vec!["sqlite"]),
    ] {
        let mut es: Vec<Box<dyn Engine>> = engines.iter().map(|n| engine(n)).collect();
        let infos: Vec<EngineInfo> = es.iter().map(|e| e.info().clone()).collect();
        kind.validate(&[oracle], &infos).expect("valid run");
        let opts = GenOptions { seed: 5, seeds_dir: None };
        let mut gen = kind.generator(&opts, &infos).expect("generator");
        let mut db = None;
        for i in 0..1500 {
            let case = gen.case(i, oracle);
            if db != Some(kind.setup_id(&case)) {
                db = Some(kind.setup_id(&case));
                assert!(!matches!(kind.prepare(&case, &mut es, &OPTS), Check::Finding(_)));
            }
            if let Check::Finding(e) = kind.check(oracle, &case, &mut es, &OPTS) {
                panic!("{oracle}: {} in {:?}", e.summary, case.query);
            }
        }
    }
    // One engine is not a differential run.
    let one = vec![engine("sqlite").info().clone()];
    assert!(kind.validate(&[crosscheck_sql::SqlOracle::Differential], &one).is_err());
}

#[test]
fn a_run_generates_only_what_every_engine_supports() {
    use crosscheck_sql::dialect::cap;
    let info = |d: &str| EngineInfo { dialect: d.into(), ..EngineInfo::default() };
    let caps = crosscheck_sql::run_caps(&[info("sqlite"), info("postgres")]);
    assert!(!caps.has(cap::LOOSE) && !caps.has(cap::GLOB) && !caps.has(cap::SQLITE_COLLATIONS));
    assert!(caps.has(cap::IS_TRUE) && caps.has_fn(Func::Coalesce) && !caps.has_fn(Func::Typeof));
    // A strict run: every generated query prints without SQLite-only constructs.
    let kind = SqlKind;
    let opts = GenOptions { seed: 1, seeds_dir: None };
    let mut gen = kind.generator(&opts, &[info("sqlite"), info("postgres")]).expect("generator");
    let pg = by_name("postgres").expect("postgres");
    for i in 0..300 {
        let case = gen.case(i, crosscheck_sql::SqlOracle::Differential);
        let sql = case.query.select.to_sql(pg);
        for bad in ["GLOB", "NOCASE", "typeof(", "quote(", "TOTAL("] {
            assert!(!sql.contains(bad), "{bad} in a SQLite+PostgreSQL run: {sql}");
        }
        assert!(case.strict);
    }
}

/// An engine of the engines layer, or `None` (a printed skip) when it is not installed here
/// and `CROSSCHECK_REQUIRE_ENGINES` does not name it.
fn engine_if_here(name: &str) -> Option<Box<dyn Engine>> {
    let factories = crosscheck_engines::sql::registry();
    let f = factories.iter().find(|f| f.name() == name).unwrap_or_else(|| panic!("engine in the registry"));
    if !crosscheck_engines::testing::available(*f) {
        return None;
    }
    Some(engine(name))
}

/// Two engines that refused different setup statements hold different data: the database is
/// skipped, not compared.
#[test]
fn engines_that_refuse_different_setup_statements_are_not_compared() {
    let (Some(sqlite), Some(pg)) = (engine_if_here("sqlite"), engine_if_here("postgres")) else { return };
    let mut engines = vec![sqlite, pg];
    let column = ColumnDef::plain("c0", SqlType::Int);
    let insert = |v: Lit| Stmt::Insert { table: "t0".into(), columns: vec!["c0".into()], values: vec![Expr::Lit(v)] };
    let case = |rows: Vec<Stmt>| {
        let mut setup = vec![Stmt::CreateTable { name: "t0".into(), columns: vec![column.clone()] }];
        setup.extend(rows);
        SqlCase {
            seed: 0,
            db: 0,
            index: 0,
            oracle: crosscheck_sql::SqlOracle::Differential,
            strict: true,
            setup: setup.into(),
            query: Query { select: Default::default(), pred: None, count_rows: false },
        }
    };
    let opts = CheckOptions { timeout: Duration::from_secs(20) };
    let kind = crosscheck_sql::SqlKind;
    let same = case(vec![insert(Lit::Int(1))]);
    assert!(matches!(kind.prepare(&same, &mut engines, &opts), Check::Pass { .. }));
    // 1e300 is out of BIGINT's range in PostgreSQL (an expected error); SQLite stores a real.
    let diverged = case(vec![insert(Lit::Int(1)), insert(Lit::Real(1e300))]);
    match kind.prepare(&diverged, &mut engines, &opts) {
        Check::Skip(why) => assert!(why.contains("setup diverged: setup statement 3"), "{why}"),
        other => panic!("expected a skip, got {other:?}"),
    }
}

/// A differential finding calls the majority's answer expected, and with no majority (one
/// engine against one) names no winner: the first engine is no more right than the second.
#[test]
fn a_disagreement_names_the_majority_or_no_winner() {
    let case = known_case("differential");
    let run = |names: &[&str]| {
        let mut engines: Vec<Box<dyn Engine>> = names.iter().map(|n| engine(n)).collect();
        let kind = SqlKind;
        assert!(matches!(kind.prepare(&case, &mut engines, &OPTS), Check::Pass { .. }));
        match kind.check(crosscheck_sql::SqlOracle::Differential, &case, &mut engines, &OPTS) {
            Check::Finding(e) => e,
            other => panic!("{names:?}: {other:?}"),
        }
    };
    let two = run(&["sqlite", "mutant:sqlite:drop-row"]);
    assert!(two.expected.starts_with("no majority"), "{}", two.expected);
    assert!(two.actual.contains("sqlite:") && two.actual.contains("mutant:sqlite:drop-row:"), "{}", two.actual);
    assert!(two.key.ends_with(":subset"), "{}", two.key);
    let three = run(&["mutant:sqlite:drop-row", "sqlite", "sqlite@b"]);
    assert!(three.expected.starts_with("sqlite, b (the majority):"), "{}", three.expected);
    assert!(three.actual.starts_with("mutant:sqlite:drop-row:"), "{}", three.actual);
    // Which way the odd one differs from the majority, whichever engine came first.
    assert!(three.key.ends_with(":subset"), "{}", three.key);
}

/// The smallest 64-bit integer is printed as a 64-bit integer: written plainly, PostgreSQL,
/// DuckDB and MariaDB read `-9223372036854775808` as a wider number whose negation fits, while
/// SQLite's negation overflows to a REAL, a difference every 4-engine campaign reported.
#[test]
fn the_smallest_integer_is_a_64_bit_integer_in_every_dialect() {
    let (Some(sqlite), Some(pg)) = (engine_if_here("sqlite"), engine_if_here("postgres")) else { return };
    let mut engines = vec![sqlite, pg];
    let mut case = known_case("differential");
    std::sync::Arc::make_mut(&mut case.setup).push(Stmt::Insert {
        table: "t0".into(),
        columns: vec!["c0".into()],
        values: vec![int(i64::MIN)],
    });
    let item = Expr::bin(BinOp::Rem, Expr::un(UnOp::Neg, int(i64::MIN)), col("t0", "c0"));
    case.query.select = select_from(vec![item], "t0");
    case.query.pred = None;
    let kind = SqlKind;
    assert!(matches!(kind.prepare(&case, &mut engines, &OPTS), Check::Pass { .. }));
    // PostgreSQL's bigint negation overflows, an error its dialect expects: no verdict.
    let verdict = kind.check(crosscheck_sql::SqlOracle::Differential, &case, &mut engines, &OPTS);
    assert!(matches!(verdict, Check::Skip(_)), "{verdict:?}");
    assert_eq!(
        case.query
            .select
            .to_sql(by_name("postgres").expect("dialect"))
            .matches("CAST(-9223372036854775808 AS BIGINT)")
            .count(),
        1
    );
}

/// An older DuckDB release is tested in the language it speaks: 1.1.3 (installed by
/// `scripts/install-sql-engines.sh` into `.venvs/duckdb-1.1.3`) has no `sum(BOOLEAN)` and does
/// not parse `NOT GLOB`, and a campaign on it met both as errors (59 and 111 findings in 30 s).
#[test]
fn an_older_duckdb_release_gets_only_what_it_speaks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venvs/duckdb-1.1.3");
    if !dir.join("bin/python").exists() {
        let missing = format!("{} is missing; run scripts/install-sql-engines.sh", dir.display());
        assert!(!crosscheck_engines::testing::required("duckdb-1.1.3"), "duckdb-1.1.3 is required but {missing}");
        println!("skipped: {missing}");
        return;
    }
    let spec = format!("duckdb={}", dir.display());
    let info = engine(&spec).info().clone();
    assert_eq!(info.version, "DuckDB 1.1.3");
    assert!(!crosscheck_sql::run_caps(&[info]).has(crosscheck_sql::dialect::cap::SUM_BOOL));
    for oracle in ["tlp-aggregate", "tlp-where", "norec"] {
        let (_, found) = campaign(&spec, oracle, 3, 3000, false);
        let known = |s: &str| KNOWN_ENGINE_ERRORS.iter().any(|k| s.contains(k));
        let errors: Vec<&str> =
            found.iter().map(|(_, e)| e.summary.as_str()).filter(|s| s.contains("Error") && !known(s)).collect();
        assert!(errors.is_empty(), "{oracle} on DuckDB 1.1.3: {errors:?}");
    }
}

/// The release an engine reports decides its language: SQLite before 3.45 gets no JSON (it ends
/// JSON text at a NUL where 3.54 keeps it) and before 3.44 no LIKE over blobs.
#[test]
fn an_older_sqlite_release_gets_no_json() {
    let info = |version: &str| EngineInfo {
        name: "sqlite".into(),
        dialect: "sqlite".into(),
        label: "sqlite".into(),
        version: version.into(),
        ..Default::default()
    };
    let old = crosscheck_sql::run_caps(&[info("SQLite 3.40.1")]);
    let new = crosscheck_sql::run_caps(&[info("3.54.1")]);
    for f in [Func::JsonValue, Func::JsonArrayGet, Func::JsonArrayLength] {
        assert!(!old.has_fn(f) && new.has_fn(f), "{f:?}");
    }
    assert!(!old.has(crosscheck_sql::dialect::cap::BLOB_PATTERNS));
}
