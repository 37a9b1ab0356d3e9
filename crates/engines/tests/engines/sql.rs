//! The external SQL engines (DuckDB, PostgreSQL, MariaDB) against the real thing: results and
//! their types, reset, timeouts, crashes, servers that die with crosscheck, and bad input.
//!
//! An engine that is not installed here is skipped with a printed line, unless it is listed in
//! `CROSSCHECK_REQUIRE_ENGINES` (comma-separated; CI sets it after installing), where it must be
//! available. Figures (start, query and reset times): `cargo test --release -p crosscheck-engines
//! --test engines -- --nocapture measure`.

use crosscheck_core::{bag, CompareOptions, Engine, EngineSpec, ErrorClass, Outcome, Rows, SetupError, Value};
use crosscheck_engines::sql::duckdb::DuckDbEngine;
use crosscheck_engines::sql::mariadb::{MariaDb, MariaDbEngine};
use crosscheck_engines::sql::postgres::{Postgres, PostgresEngine};
use crosscheck_engines::sql::served::{Driver, ServerEngine};
use crosscheck_engines::testing::{open_sql, rows, sql_available, sql_factory, LIMIT};
use crosscheck_engines::transport::server::proc_stat;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn spec(text: &str) -> EngineSpec {
    EngineSpec::parse(text).unwrap_or_else(|e| panic!("spec: {e}"))
}

/// The engine `open` makes of the default spec of `name`, or `None` where it is not available.
fn opened<E>(name: &str, open: fn(&EngineSpec) -> Result<E, SetupError>) -> Option<E> {
    if !sql_available(name) {
        return None;
    }
    Some(open(&spec(name)).unwrap_or_else(|e| panic!("{name} does not open: {e}")))
}

fn ok(e: &mut dyn Engine, sql: &str) {
    let o = e.run(sql, LIMIT);
    assert!(matches!(o, Outcome::Done | Outcome::Rows(_)), "{}: {sql} -> {o:?}", e.info().name);
}

fn same_bag(name: &str, actual: &Rows, expected: Vec<Vec<Value>>) {
    let opts = CompareOptions { unify_numbers: false, ..CompareOptions::default() };
    let want = Rows::new(actual.columns.clone(), expected);
    let d = bag::diff(&want, actual, &opts);
    assert!(d.is_empty(), "{name}: rows differ: {d:?}\nexpected {:?}\nactual   {:?}", want.rows, actual.rows);
}

/// A small script: NULLs, integers, floats, decimals, text and booleans, with their types.
fn known_script(name: &str) {
    let Some(mut e) = open_sql(name) else { return };
    let e = e.as_mut();
    ok(e, "CREATE TABLE t (i INTEGER, f DOUBLE PRECISION, d DECIMAL(10,2), s VARCHAR(20), b BOOLEAN)");
    ok(e, "INSERT INTO t VALUES (1, 1.5, 12.50, 'a', TRUE), (NULL, NULL, NULL, NULL, NULL), (-3, 0.25, -0.05, 'b c', FALSE)");
    let r = rows(e, "SELECT i, f, d, s, b FROM t");
    assert_eq!(r.columns, ["i", "f", "d", "s", "b"]);
    // MariaDB has no boolean type (BOOLEAN is TINYINT(1)); Turso, like SQLite, stores 1 and 0
    // and has no exact decimals (DECIMAL has numeric affinity: 12.5 is a REAL).
    let ints = name == "mariadb" || name == "turso";
    let b = |v: bool| if ints { Value::Int(v as i64) } else { Value::Bool(v) };
    let dec = |d: &str, f: f64| if name == "turso" { Value::Float(f) } else { Value::Decimal(d.into()) };
    same_bag(
        name,
        &r,
        vec![
            vec![Value::Int(1), Value::Float(1.5), dec("12.50", 12.5), Value::Text("a".into()), b(true)],
            vec![Value::Null, Value::Null, Value::Null, Value::Null, Value::Null],
            vec![Value::Int(-3), Value::Float(0.25), dec("-0.05", -0.05), Value::Text("b c".into()), b(false)],
        ],
    );
    let r = rows(e, "SELECT COUNT(*), SUM(i), MIN(s) FROM t WHERE b IS NOT NULL");
    assert_eq!(r.rows.len(), 1);
    assert_eq!(r.rows[0][0].as_f64(), Some(2.0), "{name}: {:?}", r.rows);
    assert_eq!(r.rows[0][1].as_f64(), Some(-2.0), "{name}: {:?}", r.rows);
    assert_eq!(r.rows[0][2], Value::Text("a".into()));
    // A query with no rows is still rows (with columns), not "done".
    let r = rows(e, "SELECT i FROM t WHERE 1 = 0");
    assert!(r.rows.is_empty());
    assert_eq!(r.columns, ["i"]);
    // An error is an outcome, and the engine goes on.
    let o = e.run("SELECT * FROM no_such_table", LIMIT);
    assert!(o.is_error(), "{name}: {o:?}");
    assert_eq!(rows(e, "SELECT COUNT(*) FROM t").rows[0][0].as_f64(), Some(3.0));
    assert!(!e.info().version.is_empty());
    eprintln!("{name}: version {}", e.info().version);
}

fn reset_empties(name: &str) {
    let Some(mut e) = open_sql(name) else { return };
    let e = e.as_mut();
    ok(e, "CREATE TABLE t (a INTEGER)");
    ok(e, "INSERT INTO t VALUES (1)");
    e.reset().unwrap_or_else(|e| panic!("reset: {e}"));
    let o = e.run("SELECT a FROM t", LIMIT);
    assert!(o.is_error(), "{name}: the table survived the reset: {o:?}");
    ok(e, "CREATE TABLE t (a INTEGER)");
    assert!(rows(e, "SELECT a FROM t").rows.is_empty());
}

fn times_out(name: &str, slow: &str) {
    let Some(mut e) = open_sql(name) else { return };
    let e = e.as_mut();
    ok(e, "CREATE TABLE keep (a INTEGER)");
    ok(e, "INSERT INTO keep VALUES (7)");
    let t = Instant::now();
    let o = e.run(slow, Duration::from_millis(500));
    let took = t.elapsed();
    assert!(matches!(o, Outcome::Timeout { .. }), "{name}: {slow} -> {o:?}");
    assert!(took < Duration::from_secs(4), "{name}: the timeout took {took:?}");
    // Usable afterwards, with its data.
    let r = rows(e, "SELECT a FROM keep");
    same_bag(name, &r, vec![vec![Value::Int(7)]]);
    eprintln!("{name}: timed out after {took:?}");
}

#[test]
fn duckdb_known_script() {
    known_script("duckdb");
}

#[test]
fn postgres_known_script() {
    known_script("postgres");
}

#[test]
fn mariadb_known_script() {
    known_script("mariadb");
}

#[test]
fn turso_known_script() {
    known_script("turso");
}

#[test]
fn turso_reset_empties() {
    reset_empties("turso");
}

#[test]
fn turso_times_out() {
    times_out("turso", RECURSE);
}

#[test]
fn duckdb_reset_empties() {
    reset_empties("duckdb");
}

#[test]
fn postgres_reset_empties() {
    reset_empties("postgres");
}

#[test]
fn mariadb_reset_empties() {
    reset_empties("mariadb");
}

const RECURSE: &str = "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT COUNT(*) FROM r";

#[test]
fn duckdb_times_out() {
    times_out("duckdb", RECURSE);
}

#[test]
fn postgres_times_out() {
    times_out("postgres", "SELECT pg_sleep(30)");
    times_out("postgres", RECURSE);
}

#[test]
fn mariadb_times_out() {
    times_out("mariadb", "SELECT COUNT(*) FROM seq_1_to_100000 a, seq_1_to_100000 b");
}

#[test]
fn duckdb_crash_is_an_outcome_and_reset_recovers() {
    let Some(mut e) = opened("duckdb", DuckDbEngine::open) else { return };
    ok(&mut e, "CREATE TABLE t (a INTEGER)");
    let pid = e.bridge_pid().expect("bridge runs");
    // SAFETY: signals a process this test owns (the bridge).
    unsafe {
        libc::kill(pid as i32, libc::SIGSEGV);
    }
    match e.run("SELECT 1", LIMIT) {
        Outcome::Crash { signal, .. } => assert_eq!(signal, Some(libc::SIGSEGV)),
        other => panic!("expected a crash, got {other:?}"),
    }
    // Until the next reset the state is gone: an expected error, not a finding.
    assert!(matches!(e.run("SELECT 1", LIMIT), Outcome::Error { class: ErrorClass::Expected, .. }));
    e.reset().expect("reset starts a new bridge");
    assert_eq!(rows(&mut e, "SELECT 41 + 1 AS x").rows, vec![vec![Value::Int(42)]]);
}

fn kill_with(pid: i64, signal: i32) {
    let pid = libc::pid_t::try_from(pid).unwrap_or_else(|e| panic!("pid {pid}: {e}"));
    // SAFETY: signals a process this test's engine started.
    unsafe {
        libc::kill(pid, signal);
    }
}

fn kill(pid: i64) {
    kill_with(pid, libc::SIGKILL);
}

#[test]
fn postgres_crash_is_an_outcome_and_reset_recovers() {
    let Some(mut e) = opened("postgres", PostgresEngine::open) else { return };
    // A backend dies: the server restarts every backend; the connection is lost.
    let Value::Int(backend) = rows(&mut e, "SELECT pg_backend_pid()").rows[0][0] else { panic!("a pid") };
    kill(backend);
    match e.run("SELECT 1", LIMIT) {
        Outcome::Crash { stderr_tail, .. } => assert!(stderr_tail.contains("connection lost"), "{stderr_tail}"),
        other => panic!("expected a crash, got {other:?}"),
    }
    e.reset().expect("reset reconnects");
    assert_eq!(rows(&mut e, "SELECT 41 + 1 AS x").rows, vec![vec![Value::Int(42)]]);
    // The server dies: the next reset starts a new one.
    // (SIGQUIT: an immediate shutdown; a SIGKILL would leave a SysV shared memory segment.)
    let old = e.server_pid().expect("private server");
    kill_with(old.into(), libc::SIGQUIT);
    let end = Instant::now() + Duration::from_secs(5);
    while alive(old as i32) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(5));
    }
    // The backend may still answer before it notices that its server is gone.
    let o = e.run("SELECT 1", LIMIT);
    assert!(matches!(o, Outcome::Crash { .. } | Outcome::Rows(_)), "{o:?}");
    e.reset().expect("reset starts a new server");
    assert_ne!(e.server_pid(), Some(old));
    ok(&mut e, "CREATE TABLE t (a int)");
    assert!(rows(&mut e, "SELECT a FROM t").rows.is_empty());
}

#[test]
fn mariadb_crash_is_an_outcome_and_reset_recovers() {
    let Some(mut e) = opened("mariadb", MariaDbEngine::open) else { return };
    ok(&mut e, "CREATE TABLE t (a int)");
    kill(e.server_pid().expect("private server").into());
    match e.run("SELECT 1", LIMIT) {
        Outcome::Crash { stderr_tail, .. } => assert!(stderr_tail.contains("connection lost"), "{stderr_tail}"),
        other => panic!("expected a crash, got {other:?}"),
    }
    // Until the next reset the database is gone: an expected error, not a crash finding for
    // every later statement (a self-check met thousands, "cannot connect", after one crash).
    for _ in 0..3 {
        assert!(matches!(e.run("SELECT 1", LIMIT), Outcome::Error { class: ErrorClass::Expected, .. }));
    }
    e.reset().expect("reset starts a new server");
    ok(&mut e, "CREATE TABLE t (a int)");
    assert_eq!(rows(&mut e, "SELECT 41 + 1 AS x").rows, vec![vec![Value::Int(42)]]);
}

/// A private server that stops answering (here SIGSTOPped: the cancel gets no answer either,
/// as MariaDB's `INTERSECT ALL ... EXCEPT ALL` runs on through `KILL QUERY`): the watchdog
/// stops the server, the statement is a timeout, not a wait without end, and the next reset
/// starts a new server.
fn a_server_that_stops_answering_is_stopped(name: &str, mut e: impl Engine, stop: u32, pid: u32) {
    ok(&mut e, "CREATE TABLE t (a int)");
    kill_with(stop.into(), libc::SIGSTOP);
    wait_stopped(stop);
    let started = Instant::now();
    let o = e.run("SELECT 1", Duration::from_millis(500));
    let took = started.elapsed();
    assert!(matches!(o, Outcome::Timeout { .. }), "{name}: {o:?}");
    // Limit, cancel grace, and one or two stop stages (4 s apart); PostgreSQL's postmaster
    // waits up to 5 s more for its stopped backend before it kills it.
    assert!(took < Duration::from_secs(20), "{name}: stopped after {took:?}");
    assert!(!alive(pid as i32), "{name}: the server still runs");
    assert!(matches!(e.run("SELECT 1", LIMIT), Outcome::Error { class: ErrorClass::Expected, .. }));
    e.reset().unwrap_or_else(|err| panic!("{name}: reset starts a new server: {err}"));
    ok(&mut e, "CREATE TABLE t (a int)");
    assert_eq!(rows(&mut e, "SELECT 41 + 1 AS x").rows, vec![vec![Value::Int(42)]], "{name}");
}

/// Waits until every thread of `pid` has stopped (a thread busy on another core stops a
/// moment after the signal).
fn wait_stopped(pid: u32) {
    // A thread's stat is also at /proc/<tid>/stat.
    let stopped = |tid: Option<u32>| state(tid.unwrap_or(0)).as_deref() == Some("T");
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap_or_else(|e| panic!("{pid}: {e}"));
        let all = tasks.flatten().all(|t| stopped(t.file_name().to_str().and_then(|n| n.parse().ok())));
        if all {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("{pid} did not stop");
}

#[test]
fn mariadb_server_that_stops_answering_is_stopped() {
    let Some(e) = opened("mariadb", MariaDbEngine::open) else { return };
    let pid = e.server_pid().expect("private server");
    a_server_that_stops_answering_is_stopped("mariadb", e, pid, pid);
}

/// MariaDB 10.11 runs this query on through `KILL QUERY`, writing temporary tables until the
/// disk is full (a campaign filled 17 GB): the watchdog stops the server 2 s + 1 s + 4 s in.
#[test]
fn mariadb_query_that_survives_kill_query_is_stopped() {
    let Some(mut e) = opened("mariadb", MariaDbEngine::open) else { return };
    for stmt in [
        "CREATE TABLE t0 (c0 VARCHAR(100), c1 DOUBLE, c2 VARCHAR(100))",
        "CREATE TABLE t1 (c0 BIGINT, c1 VARBINARY(100) PRIMARY KEY NOT NULL, c2 VARCHAR(100))",
        "INSERT INTO t0 (c1, c2) VALUES (3.25, '-1'), (9.2e18, NULL)",
        "INSERT INTO t1 (c0, c1, c2) VALUES (-128, 3, 'b'), (1, x'', 'b'), (-128, x'FF', NULL)",
    ] {
        ok(&mut e, stmt);
    }
    let hang = "SELECT 'a' FROM (SELECT CAST(t1.c1 AS CHAR) AS c0, CAST(x'' AS CHAR) AS c1 FROM t1 \
        INTERSECT ALL SELECT CAST(x'6162' AS CHAR), CAST(x'FF' AS CHAR) FROM t0 \
        EXCEPT ALL SELECT CAST(x'FF' AS CHAR), CAST(x'' AS CHAR) FROM t0) AS d0 \
        WHERE d0.c0 IN (SELECT s0.c2 FROM t1 AS s0 WHERE s0.c2 <> 'A' \
        UNION ALL SELECT CAST(t1.c2 AS CHAR) FROM t1 WHERE t1.c2 LIKE '')";
    let started = Instant::now();
    let o = e.run(hang, Duration::from_secs(2));
    // A release that fixed the hang answers; one that has it must not hang crosscheck.
    assert!(matches!(o, Outcome::Timeout { .. } | Outcome::Rows(_)), "{o:?}");
    assert!(started.elapsed() < Duration::from_secs(15), "stopped after {:?}", started.elapsed());
    e.reset().unwrap_or_else(|err| panic!("reset starts a new server: {err}"));
    assert_eq!(rows(&mut e, "SELECT 41 + 1 AS x").rows, vec![vec![Value::Int(42)]]);
}

#[test]
fn postgres_backend_that_stops_answering_is_stopped() {
    let Some(mut e) = opened("postgres", PostgresEngine::open) else { return };
    let Value::Int(backend) = rows(&mut e, "SELECT pg_backend_pid()").rows[0][0] else { panic!("a pid") };
    let server = e.server_pid().expect("private server");
    let backend = u32::try_from(backend).unwrap_or_else(|err| panic!("pid {backend}: {err}"));
    a_server_that_stops_answering_is_stopped("postgres", e, backend, server);
}

/// A connection killed from outside (`KILL <id>`, as an administrator or a watchdog might):
/// the engine reconnects, and the new connection is in the campaign's database again, with
/// its tables, not in none (error 1046 "No database selected": issue 11).
#[test]
fn mariadb_reconnects_into_the_campaign_database() {
    let Some(mut e) = opened("mariadb", MariaDbEngine::open) else { return };
    ok(&mut e, "CREATE TABLE t (a int)");
    ok(&mut e, "INSERT INTO t VALUES (7)");
    let id = match rows(&mut e, "SELECT CONNECTION_ID()").rows.first().and_then(|r| r.first()) {
        Some(Value::Int(i)) => *i,
        other => panic!("connection id: {other:?}"),
    };
    let mut admin =
        MariaDbEngine::open(&spec(&format!("mariadb={}", e.url()))).unwrap_or_else(|e| panic!("second: {e}"));
    ok(&mut admin, &format!("KILL {id}"));
    // The first statement may still meet the dead connection (a crash outcome: connection lost).
    match e.run("SELECT a FROM t", LIMIT) {
        Outcome::Rows(r) => assert_eq!(r.rows, vec![vec![Value::Int(7)]]),
        Outcome::Crash { stderr_tail, .. } => assert!(stderr_tail.contains("connection lost"), "{stderr_tail}"),
        other => panic!("after KILL: {other:?}"),
    }
    for _ in 0..2 {
        assert_eq!(rows(&mut e, "SELECT a FROM t").rows, vec![vec![Value::Int(7)]]);
    }
    ok(&mut e, "CREATE TABLE u (b int)");
    let dbs = rows(&mut e, "SELECT DATABASE()");
    assert_eq!(dbs.rows, vec![vec![Value::Text("crosscheck".into())]]);
}

#[test]
fn duckdb_output_of_its_own_does_not_shift_replies() {
    // DuckDB draws a progress bar on stdout for a query past 2 s (here at once). Before the
    // bridge kept stdout for its replies, the bar's lines were read as the answer to the next
    // request, and every later answer was the one before it (a 10-minute Datalog campaign
    // reported 136 findings from that).
    let Some(mut e) = open_sql("duckdb") else { return };
    let t = Duration::from_secs(30);
    for s in ["SET enable_progress_bar = true", "SET enable_progress_bar_print = true", "SET progress_bar_time = 0"] {
        assert!(matches!(e.run(s, t), Outcome::Done), "{s}");
    }
    let slow = e.run("SELECT count(*) FROM range(50000000) AS t(i) WHERE hash(i) % 7 = 1", t);
    assert!(matches!(slow, Outcome::Rows(_)), "{slow:?}");
    assert_eq!(rows(e.as_mut(), "SELECT 42").rows, vec![vec![Value::Int(42)]]);
}

/// A query per engine and the one row it answers, with each value typed as the engine types it.
fn typed_rows() -> [(&'static str, &'static str, Vec<Value>); 3] {
    let text = |s: &str| Value::Text(s.into());
    let big = |s: &str| Value::BigInt(s.into());
    let dec = |s: &str| Value::Decimal(s.into());
    [
        (
            "duckdb",
            "SELECT 1::HUGEINT * 170141183460469231731687303715884105727, 0.1::FLOAT, 'inf'::DOUBLE, '\\x01\\xff'::BLOB, DATE '2020-01-02', 2.50::DECIMAL(5,2)",
            vec![
                big("170141183460469231731687303715884105727"),
                Value::Float(0.1),
                Value::Float(f64::INFINITY),
                Value::Bytes(vec![1, 255]),
                text("2020-01-02"),
                dec("2.50"),
            ],
        ),
        (
            "postgres",
            "SELECT 1::int2, 2::int8, 0.1::float4, 'NaN'::float8, 123456789.000100::numeric, -0.5::numeric(4,2), 'x'::char(3), '\\x01ff'::bytea, DATE '2020-01-02', ARRAY[1,2], NULL::int",
            vec![
                Value::Int(1),
                Value::Int(2),
                Value::Float(0.1),
                Value::Float(f64::NAN),
                dec("123456789.000100"),
                dec("-0.50"),
                text("x  "),
                Value::Bytes(vec![1, 255]),
                text("2020-01-02"),
                text("{1,2}"),
                Value::Null,
            ],
        ),
        (
            "mariadb",
            "SELECT 1, 18446744073709551615, CAST(0.1 AS FLOAT), 1e300 * 10, 2.50, X'01FF', CAST('x' AS BINARY), DATE '2020-01-02', NULL, 'é'",
            vec![
                Value::Int(1),
                big("18446744073709551615"),
                Value::Float(0.1),
                Value::Float(1e301),
                dec("2.50"),
                Value::Bytes(vec![1, 255]),
                Value::Bytes(vec![b'x']),
                text("2020-01-02"),
                Value::Null,
                text("é"),
            ],
        ),
    ]
}

#[test]
fn values_keep_their_types() {
    for (name, sql, want) in typed_rows() {
        let Some(mut e) = open_sql(name) else { continue };
        let got = rows(e.as_mut(), sql).rows.remove(0);
        // Debug forms, so that NaN is NaN.
        assert_eq!(format!("{got:?}"), format!("{want:?}"), "{name}");
    }
}

#[test]
fn duckdb_statements_without_rows_are_done() {
    let Some(mut e) = open_sql("duckdb") else { return };
    // DDL and DML are "done", not a status row.
    assert_eq!(e.run("CREATE TABLE u (a INTEGER)", LIMIT), Outcome::Done);
    assert_eq!(e.run("INSERT INTO u VALUES (1), (2)", LIMIT), Outcome::Done);
    assert_eq!(rows(e.as_mut(), "INSERT INTO u VALUES (3) RETURNING a").rows, vec![vec![Value::Int(3)]]);
}

#[test]
fn server_scripts_answer_with_their_last_statement() {
    for name in ["postgres", "mariadb"] {
        let Some(mut e) = open_sql(name) else { continue };
        let r = rows(e.as_mut(), "CREATE TABLE s (a int); INSERT INTO s VALUES (5); SELECT a FROM s");
        assert_eq!(r.rows, vec![vec![Value::Int(5)]], "{name}");
        assert_eq!(e.run("INSERT INTO s VALUES (6)", LIMIT), Outcome::Done, "{name}");
    }
}

#[test]
fn mariadb_text_compares_as_in_c() {
    // No padding, case matters, as in SQLite and PostgreSQL (C); also after a reset.
    let Some(mut e) = open_sql("mariadb") else { return };
    e.reset().expect("reset");
    ok(e.as_mut(), "CREATE TABLE u (s VARCHAR(10))");
    ok(e.as_mut(), "INSERT INTO u VALUES ('a'), ('A'), ('a ')");
    let r = rows(e.as_mut(), "SELECT '' = ' ', 'a' = 'A', (SELECT COUNT(*) FROM u WHERE s = 'a')");
    assert_eq!(r.rows, vec![vec![Value::Int(0), Value::Int(0), Value::Int(1)]]);
}

// ---- servers die with crosscheck -------------------------------------------------------------

/// Run in a child copy of this test binary: opens the engine, prints the server's pid, waits.
#[test]
fn helper_hold_server() {
    let Ok(name) = std::env::var("CROSSCHECK_TEST_HOLD") else { return };
    let pid = match name.as_str() {
        "postgres" => PostgresEngine::open(&spec("postgres")).map(|e| (e.server_pid(), Box::new(e) as Box<dyn Engine>)),
        "mariadb" => MariaDbEngine::open(&spec("mariadb")).map(|e| (e.server_pid(), Box::new(e) as Box<dyn Engine>)),
        _ => DuckDbEngine::open(&spec("duckdb")).map(|mut e| (e.bridge_pid(), Box::new(e) as Box<dyn Engine>)),
    };
    let (pid, _engine) = pid.expect("engine opens");
    println!("PID {}", pid.expect("a server pid"));
    std::io::stdout().flush().expect("flush");
    std::thread::sleep(Duration::from_secs(120));
}

/// A process's state letter (`R`, `S`, `T`, `Z` ...), `None` once it is gone.
fn state(pid: u32) -> Option<String> {
    proc_stat(pid)?.into_iter().next()
}

fn alive(pid: i32) -> bool {
    // A zombie still answers kill(0): read its state.
    u32::try_from(pid).ok().and_then(state).is_some_and(|s| s != "Z")
}

fn server_dies_with_crosscheck(name: &str, signal: i32) {
    if !sql_available(name) {
        return;
    }
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("test binary: {e}"));
    let mut child = Command::new(exe)
        .args(["--exact", "sql::helper_hold_server", "--nocapture", "--test-threads=1"])
        .env("CROSSCHECK_TEST_HOLD", name)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("helper starts: {e}"));
    let out = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let mut pid = None;
    for line in BufReader::new(out).lines() {
        let line = line.unwrap_or_else(|e| panic!("line: {e}"));
        // libtest may print "test helper_hold_server ... " on the same line.
        if let Some((_, p)) = line.split_once("PID ") {
            pid = Some(p.trim().parse::<i32>().unwrap_or_else(|e| panic!("pid: {e}")));
            break;
        }
    }
    let pid = pid.unwrap_or_else(|| panic!("the helper printed the server pid"));
    assert!(alive(pid));
    // SAFETY: signals the helper process this test started.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let _ = child.wait();
    let end = Instant::now() + Duration::from_secs(5);
    while alive(pid) && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(pid), "{name}: server {pid} survived a {signal} of crosscheck");
}

#[test]
fn postgres_server_dies_with_crosscheck_on_sigkill() {
    server_dies_with_crosscheck("postgres", libc::SIGKILL);
}

#[test]
fn mariadb_server_dies_with_crosscheck_on_sigint() {
    server_dies_with_crosscheck("mariadb", libc::SIGINT);
}

#[test]
fn duckdb_bridge_dies_with_crosscheck_on_sigterm() {
    server_dies_with_crosscheck("duckdb", libc::SIGTERM);
}

// ---- bad input: one clear line, never a hang -------------------------------------------------

fn setup_error(text: &str) -> String {
    crate::locations::setup_error_in(&crosscheck_engines::sql::registry(), text)
}

/// A port with something listening that is not a database: it greets with HTTP.
fn impostor() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("bind: {e}"));
    let port = l.local_addr().unwrap_or_else(|e| panic!("addr: {e}")).port();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let mut s = s;
            let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n");
        }
    });
    port
}

fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap_or_else(|e| panic!("bind: {e}"))
        .local_addr()
        .unwrap_or_else(|e| panic!("addr: {e}"))
        .port()
}

/// What a server engine says to locations that cannot work, each in one line: nothing
/// listening, something else listening, a malformed address, no such path, a directory without
/// the server; then a user the server does not know, and the right address, where it works in
/// a scratch database of its own. `scheme` is the one of the engine's addresses.
fn server_bad_input<D: Driver>(scheme: &str) {
    let name = D::NAME;
    let at = |port: &str| format!("{name}={scheme}://u@127.0.0.1:{port}/db");
    let m = setup_error(&at(&closed_port().to_string()));
    assert!(m.contains("cannot connect"), "{m}");
    let m = setup_error(&at(&impostor().to_string()));
    assert!(m.contains("but it is not a"), "{m}");
    let m = setup_error(&at("notaport"));
    assert!(m.contains("not a valid address"), "{m}");
    let m = setup_error(&format!("{name}=/no/such/dir/bin"));
    assert!(m.contains("no such file"), "{m}");
    let empty = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let m = setup_error(&format!("{name}={}", empty.path().display()));
    assert!(m.contains(&format!("{name}={}: no ", empty.path().display())), "{m}");
    if !sql_available(name) {
        return;
    }
    let e = ServerEngine::<D>::open(&spec(name)).unwrap_or_else(|e| panic!("private server: {e}"));
    let url = e.url();
    let host = url.split_once('@').map_or_else(|| panic!("{url}: no user"), |(_, host)| host);
    let m = setup_error(&format!("{name}={scheme}://nobody@{host}"));
    assert!(m.contains("cannot log in") && m.contains("nobody"), "{m}");
    let mut other =
        sql_factory(name).open(&spec(&format!("{name}={url}"))).unwrap_or_else(|e| panic!("existing server: {e}"));
    ok(other.as_mut(), "CREATE TABLE t (a int)");
    other.reset().unwrap_or_else(|e| panic!("reset: {e}"));
}

#[test]
fn postgres_bad_input() {
    server_bad_input::<Postgres>("postgres");
}

#[test]
fn postgres_unroutable_address_gives_up() {
    // 192.0.2.0/24 is TEST-NET-1: nothing answers, packets may be dropped.
    let m = setup_error("postgres=postgres://u@192.0.2.1:5432/db");
    assert!(m.contains("cannot connect"), "{m}");
}

#[test]
fn mariadb_bad_input() {
    server_bad_input::<MariaDb>("mysql");
    let m = setup_error("mariadb=http://root@127.0.0.1:3306");
    assert!(m.contains("not a server address"), "{m}");
}

#[test]
fn duckdb_bad_input() {
    let m = setup_error("duckdb=/no/such/venv");
    assert!(m.contains("no such file"), "{m}");
    let empty = tempfile::tempdir().expect("tempdir");
    let m = setup_error(&format!("duckdb={}", empty.path().display()));
    assert!(m.contains("no bin/python"), "{m}");
    // The DuckDB shell instead of a Python environment.
    let m = setup_error("duckdb=/usr/bin/env");
    assert!(m.contains("exited at start"), "{m}");
    let shell = empty.path().join("duckdb");
    std::fs::write(&shell, "").expect("write");
    let m = setup_error(&format!("duckdb={}", shell.display()));
    assert!(m.contains("command-line shell"), "{m}");
    // A program that is not a Python with DuckDB.
    let m = setup_error("duckdb=/bin/true");
    assert!(m.contains("exited at start"), "{m}");
    // A Python without the duckdb module: a fresh virtualenv without packages.
    let venv = tempfile::tempdir().expect("tempdir");
    let made = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(venv.path())
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let m = setup_error(&format!("duckdb={}", venv.path().display()));
        assert!(m.contains("cannot import the duckdb module"), "{m}");
    }
}

// ---- figures -----------------------------------------------------------------------------------

#[test]
fn measure() {
    for name in ["duckdb", "postgres", "mariadb", "turso"] {
        if !sql_available(name) {
            continue;
        }
        let t = Instant::now();
        let mut e = sql_factory(name).open(&spec(name)).expect("opens");
        let start = t.elapsed();
        let n = 300;
        let t = Instant::now();
        for _ in 0..n {
            rows(e.as_mut(), "SELECT 1");
        }
        let query = t.elapsed() / n;
        ok(e.as_mut(), "CREATE TABLE t (a INTEGER, b VARCHAR(10))");
        let t = Instant::now();
        for i in 0..n {
            ok(e.as_mut(), &format!("INSERT INTO t VALUES ({i}, 'x')"));
        }
        let insert = t.elapsed() / n;
        let t = Instant::now();
        for _ in 0..n {
            rows(e.as_mut(), "SELECT a, b FROM t WHERE a < 100");
        }
        let select = t.elapsed() / n;
        let m = 20;
        let t = Instant::now();
        for _ in 0..m {
            e.reset().expect("reset");
            ok(e.as_mut(), "CREATE TABLE t (a INTEGER)");
        }
        let reset = t.elapsed() / m;
        eprintln!(
            "measure {name} ({}): start {start:.2?}, SELECT 1 {query:.2?}, INSERT {insert:.2?}, SELECT 100 rows {select:.2?}, reset+CREATE TABLE {reset:.2?}",
            e.info().version
        );
    }
}
