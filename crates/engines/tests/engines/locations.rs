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
fn built_in_engines_refuse_a_location() {
    for (kind, name) in [("sql", "sqlite"), ("datalog", "cozo"), ("datalog", "sqlite")] {
        let (factories, _) = entry(name, kind);
        let m = setup_error_in(&factories, &format!("{name}=/tmp/libsqlite3.so"));
        assert!(m.contains("built into crosscheck") && m.contains("takes no LOCATION"), "{kind} {name}: {m}");
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
