//! `NAME=LOCATION` for every engine: an engine either takes the LOCATION it documents (a
//! virtualenv or its python for the engines behind the Python host, a binary for the solvers
//! and one-shot tools) or refuses it in one line that says what it takes. Server addresses
//! and builds are `sql`'s tests.

use crosscheck_core::{Engine, EngineFactory, EngineSpec, Outcome, Value};
use crosscheck_engines::testing::{available, LIMIT};
use crosscheck_engines::transport::find_tool;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The setup error `open_engine` gives `text` from `factories`: one line, and soon.
pub fn setup_error_in(factories: &[&'static dyn EngineFactory], text: &str) -> String {
    let s = EngineSpec::parse(text).unwrap_or_else(|e| panic!("spec: {e}"));
    let t = Instant::now();
    let msg = match crosscheck_engines::open_engine(factories, &s) {
        Ok(_) => panic!("{text}: opened, expected a setup error"),
        Err(e) => e.message,
    };
    let took = t.elapsed();
    assert!(took < Duration::from_secs(12), "{text}: took {took:?}");
    assert!(!msg.contains('\n'), "{text}: more than one line: {msg}");
    eprintln!("{text}\n  -> {msg} ({took:?})");
    msg
}

/// The engine of that name in one of the three registries, with its registry.
fn entry(name: &str, kind: &str) -> (Vec<&'static dyn EngineFactory>, &'static dyn EngineFactory) {
    let factories = match kind {
        "sql" => crosscheck_engines::sql::registry(),
        "smt" => crosscheck_engines::smt::registry(),
        _ => crosscheck_engines::datalog::registry(),
    };
    let f = factories.iter().copied().find(|f| f.name() == name).unwrap_or_else(|| panic!("{kind} {name}"));
    (factories, f)
}

/// The engine opened as `text`, where it is available here.
fn opened(kind: &str, text: &str) -> Option<Box<dyn Engine>> {
    let s = EngineSpec::parse(text).unwrap_or_else(|e| panic!("spec: {e}"));
    let (factories, f) = entry(&s.name, kind);
    if !available(f) {
        return None;
    }
    Some(crosscheck_engines::open_engine(&factories, &s).unwrap_or_else(|e| panic!("{text}: {e}")))
}

/// The engines hosted in Python, by registry.
const BRIDGED: [(&str, &str); 5] =
    [("sql", "duckdb"), ("sql", "turso"), ("smt", "cvc5-py"), ("smt", "bitwuzla"), ("datalog", "nemo")];

/// The engines that run a binary, by registry, with the binary.
const BINARIES: [(&str, &str, &str); 7] = [
    ("smt", "z3", "z3"),
    ("smt", "cvc5", "cvc5"),
    ("smt", "yices", "yices-smt2"),
    ("smt", "cvc4", "cvc4"),
    ("datalog", "z3", "z3"),
    ("datalog", "clingo", "clingo"),
    ("datalog", "swipl", "swipl"),
];

#[test]
fn sqlite_and_cozo_say_what_location_they_take() {
    for (kind, name) in [("sql", "sqlite"), ("datalog", "cozo"), ("datalog", "sqlite")] {
        let (factories, _) = entry(name, kind);
        let m = setup_error_in(&factories, &format!("{name}=/no/such/venv"));
        assert!(m.contains("no such file") && m.contains("give a virtualenv with the"), "{kind} {name}: {m}");
    }
    let (factories, _) = entry("sqlite", "sql");
    let m = setup_error_in(&factories, "sqlite=/no/such/libsqlite3.so.0");
    assert!(m.contains("no such file") && m.contains("SQLite shared library"), "{m}");
    // A file that is no SQLite library: the host refuses to start rather than run the SQLite
    // its Python links to.
    let dir = tempfile::tempdir().expect("tempdir");
    let fake = dir.path().join("libsqlite3.so.0");
    std::fs::write(&fake, "not a library").expect("write");
    if find_tool("python3").is_some() {
        let m = setup_error_in(&factories, &format!("sqlite={}", fake.display()));
        assert!(m.contains("is not a SQLite shared library"), "{m}");
    }
}

/// A query with a value of every storage class, and what the bundled SQLite answers.
const TYPED: &str = "SELECT 1, -9223372036854775808, 2.5, 'é', x'00ff', NULL, CAST(x'ff' AS TEXT), 1e999";

fn typed_values() -> Vec<Value> {
    vec![
        Value::Int(1),
        Value::Int(i64::MIN),
        Value::Float(2.5),
        Value::Text("é".into()),
        Value::Bytes(vec![0, 255]),
        Value::Null,
        Value::Text("\u{fffd}".into()),
        Value::Float(f64::INFINITY),
    ]
}

/// SQLite opened at `location` reports `version`, answers as the bundled one does, keeps
/// errors errors, and starts empty after a reset.
fn check_sqlite_at(location: &str, version: &str) {
    let text = format!("sqlite={location}");
    let Some(mut e) = opened("sql", &text) else { return };
    assert_eq!(e.info().version, format!("SQLite {version}"), "{text}");
    let mut bundled = opened("sql", "sqlite").unwrap_or_else(|| panic!("the bundled sqlite"));
    for engine in [&mut e, &mut bundled] {
        let o = engine.run(TYPED, LIMIT);
        assert!(matches!(&o, Outcome::Rows(r) if r.rows == vec![typed_values()]), "{text}: {o:?}");
        assert!(matches!(engine.run("CREATE TABLE t(a)", LIMIT), Outcome::Done), "{text}");
        assert!(matches!(engine.run("INSERT INTO t VALUES (1)", LIMIT), Outcome::Done), "{text}");
        assert!(matches!(engine.run("SELECT * FROM nope", LIMIT), Outcome::Error { .. }), "{text}");
        let slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
        let o = engine.run(slow, Duration::from_millis(300));
        assert!(matches!(o, Outcome::Timeout { .. }), "{text}: {o:?}");
        engine.reset().unwrap_or_else(|e| panic!("{text}: reset: {e}"));
        let o = engine.run("SELECT count(*) FROM sqlite_master", LIMIT);
        assert!(matches!(&o, Outcome::Rows(r) if r.rows == vec![vec![Value::Int(0)]]), "{text}: {o:?}");
    }
}

/// The SQLite version `python` carries in its sqlite3 module (with `preload` preloaded).
fn sqlite_version_of(python: &str, preload: Option<&str>) -> Option<String> {
    let mut cmd = std::process::Command::new(python);
    cmd.args(["-I", "-c", "import sqlite3; print(sqlite3.sqlite_version)"]);
    if let Some(lib) = preload {
        cmd.env("LD_PRELOAD", lib);
    }
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn sqlite_takes_a_python_or_a_virtualenv() {
    let Some(python) = find_tool("python3") else { return };
    let python = python.display().to_string();
    let Some(version) = sqlite_version_of(&python, None) else { return };
    check_sqlite_at(&python, &version);
    if let Some(venv) = venv().filter(|v| v.join("bin/python").is_file()) {
        let version = sqlite_version_of(&venv.join("bin/python").display().to_string(), None).expect("venv sqlite");
        check_sqlite_at(&venv.display().to_string(), &version);
    }
}

#[test]
fn sqlite_takes_a_shared_library() {
    let Some(python) = find_tool("python3") else { return };
    let python = python.display().to_string();
    let debian = "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0";
    // Another release than the system's, where the project virtualenv has one (cozo-embedded
    // ships its own libsqlite3), shows that the preload, not the link, decides.
    let wheel = venv().and_then(|v| {
        let lib = std::fs::read_dir(v.join("lib")).ok()?.flatten().next()?.path();
        let libs = lib.join("site-packages/cozo_embedded.libs");
        std::fs::read_dir(libs)
            .ok()?
            .flatten()
            .map(|f| f.path())
            .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("libsqlite3")))
    });
    for lib in [Some(PathBuf::from(debian)), wheel].into_iter().flatten().filter(|l| l.is_file()) {
        let lib = lib.display().to_string();
        let Some(version) = sqlite_version_of(&python, Some(&lib)) else { continue };
        eprintln!("{lib}: SQLite {version}");
        check_sqlite_at(&lib, &version);
    }
}

#[test]
fn cozo_takes_a_virtualenv_with_cozo_embedded() {
    let Some(venv) = venv() else { return };
    let Some(mut e) = opened("datalog", &format!("cozo={}", venv.display())) else { return };
    if !e.info().version.starts_with("CozoDB") {
        return;
    }
    let mut bundled = opened("datalog", "cozo").expect("bundled cozo");
    let rule = "e[x, y] <- [[1, 2], [2, 3]]\np[x, y] := e[x, y]\np[x, z] := p[x, y], e[y, z]\n?[x, y] := p[x, y]\n";
    let want: Vec<Vec<Value>> =
        [(1, 2), (1, 3), (2, 3)].iter().map(|&(a, b)| vec![Value::Int(a), Value::Int(b)]).collect();
    for engine in [&mut e, &mut bundled] {
        let o = engine.run(rule, LIMIT);
        assert!(matches!(&o, Outcome::Rows(r) if r.rows == want), "{o:?}");
        let o = engine.run("?[a] := b = 1\n", LIMIT);
        assert!(matches!(&o, Outcome::Error { message, .. } if message.contains("unbound")), "{o:?}");
        engine.reset().expect("reset");
    }
    // A Python without the module: how to install it.
    let (factories, _) = entry("cozo", "datalog");
    let system = std::path::Path::new("/usr/bin/python3");
    let bare = std::process::Command::new(system).args(["-I", "-c", "import cozo_embedded"]).output();
    if bare.is_ok_and(|o| !o.status.success()) {
        let m = setup_error_in(&factories, "cozo=/usr/bin/python3");
        assert!(m.contains("cannot import the cozo_embedded module") && m.contains("pip install cozo-embedded"), "{m}");
    }
}

/// The project's virtualenv: `$CROSSCHECK_VENV`, else the one of the Python crosscheck finds.
fn venv() -> Option<PathBuf> {
    match std::env::var_os("CROSSCHECK_VENV") {
        Some(v) => Some(PathBuf::from(v)),
        None => find_tool("python3")?.parent()?.parent().map(PathBuf::from),
    }
}

#[test]
fn bridged_engines_take_a_virtualenv_or_its_python() {
    let Some(venv) = venv() else { return };
    let python = ["bin/python3", "bin/python"].iter().map(|p| venv.join(p)).find(|p| p.is_file());
    let Some(python) = python else { return };
    for (kind, name) in BRIDGED {
        for location in [&venv, &python] {
            let text = format!("{name}={}", location.display());
            let Some(mut e) = opened(kind, &text) else { continue };
            assert_eq!(e.info().location.as_deref(), Some(location.to_string_lossy().as_ref()), "{text}");
            if kind == "sql" {
                let o = e.run("SELECT 42", LIMIT);
                assert!(matches!(&o, Outcome::Rows(r) if r.rows == vec![vec![Value::Int(42)]]), "{text}: {o:?}");
            }
        }
    }
}

#[test]
fn bridged_engines_say_what_location_they_take() {
    let empty = tempfile::tempdir().expect("tempdir");
    for (kind, name) in BRIDGED {
        let (factories, _) = entry(name, kind);
        let m = setup_error_in(&factories, &format!("{name}=/no/such/venv"));
        assert!(m.contains("no such file") && m.contains("give a virtualenv with the"), "{name}: {m}");
        let m = setup_error_in(&factories, &format!("{name}={}", empty.path().display()));
        assert!(m.contains("no bin/python") && m.contains("give a virtualenv with the"), "{name}: {m}");
    }
}

#[test]
fn binaries_take_a_path_or_a_command() {
    for (kind, name, binary) in BINARIES {
        let Some(path) = find_tool(binary) else { continue };
        for location in [path.display().to_string(), binary.to_string()] {
            let text = format!("{name}={location}");
            let Some(e) = opened(kind, &text) else { continue };
            assert!(!e.info().version.is_empty(), "{text}");
        }
    }
}

#[test]
fn binaries_say_what_location_they_take() {
    let empty = tempfile::tempdir().expect("tempdir");
    for (kind, name, binary) in BINARIES {
        let (factories, _) = entry(name, kind);
        let m = setup_error_in(&factories, &format!("{name}=/no/such/{binary}"));
        assert!(m.contains("no such file") && m.contains(&format!("give the path of a {binary} binary")), "{m}");
        let m = setup_error_in(&factories, &format!("{name}={}", empty.path().display()));
        assert!(m.contains("a directory") && m.contains("give the path of a"), "{m}");
    }
}
