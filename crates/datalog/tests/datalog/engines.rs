//! Each engine adapter against the reference evaluator on a fixed suite.

use super::common;
use common::*;
use crosscheck_datalog::dialects::capabilities;
use crosscheck_datalog::oracles::supports;

#[test]
fn reference_known_answers() {
    let mut e = open("reference").expect("reference is built in");
    let p = parse(SUITE[0].1);
    assert_eq!(
        run(&mut e, &p, "reachable").expect("runs"),
        tuples(&["(1,2)", "(1,3)", "(1,5)", "(2,3)", "(2,5)", "(4,2)", "(4,3)", "(4,5)"])
    );
    let p = parse(SUITE[3].1);
    // 5 nodes, 25 pairs; path holds the 9 pairs of the 1-2-3 cycle plus (4,5) and (5,5).
    assert_eq!(run(&mut e, &p, "unreach").expect("runs").len(), 14);
    let p = parse(SUITE[4].1);
    assert_eq!(run(&mut e, &p, "all").expect("runs"), tuples(&["('a',8,2,3,5)", "('b',9,3,-2,7)", "('c',1,1,1,1)"]));
    let p = parse(SUITE[5].1);
    assert_eq!(run(&mut e, &p, "r").expect("runs"), tuples(&["(1,12)", "(1,14)", "(2,24)", "(3,34)"]));
}

fn against_reference(name: &str) {
    let Some(e) = open(name) else { return };
    engine_against_reference(name, e);
}

fn engine_against_reference(name: &str, mut e: Box<dyn crosscheck_core::Engine>) {
    let mut r = open("reference").unwrap_or_else(|| panic!("reference is built in"));
    let mut ran = 0;
    for (what, src, out) in SUITE {
        let p = parse(src);
        if !supports(e.info(), &p) {
            eprintln!(
                "{name}: skipping {what} (needs {:?}, has {:?})",
                crosscheck_datalog::analysis::features(&p),
                capabilities(&e.info().dialect)
            );
            continue;
        }
        let want = run(&mut r, &p, out).unwrap_or_else(|e| panic!("reference runs: {e}"));
        let got = run(&mut e, &p, out).unwrap_or_else(|err| panic!("{name} on {what}: {err}"));
        assert_eq!(got, want, "{name} on {what}");
        ran += 1;
    }
    assert!(ran >= 2, "{name} ran only {ran} programs of the suite");
}

#[test]
fn cozo_matches_reference() {
    against_reference("cozo");
}
#[test]
fn nemo_matches_reference() {
    against_reference("nemo");
}
#[test]
fn z3_matches_reference() {
    against_reference("z3");
}

/// A z3 at `bin` as the native-format engine, if that z3 is installed.
fn native_z3(bin: &str) -> Option<Result<Box<dyn crosscheck_core::Engine>, String>> {
    if !std::path::Path::new(bin).exists() {
        eprintln!("SKIP z3-datalog: no {bin}");
        return None;
    }
    let spec = crosscheck_core::EngineSpec { name: "z3-datalog".into(), location: Some(bin.into()), label: None };
    Some(crosscheck_engines::open_engine(&registry(), &spec).map_err(|e| e.to_string()))
}

#[test]
fn z3_native_format_matches_reference() {
    // Debian's z3 (4.8.12 here) reads the .datalog format; the suite has recursion, mutual
    // recursion and negation within what μZ takes.
    let Some(e) = native_z3("/usr/bin/z3") else { return };
    let e = e.unwrap_or_else(|e| panic!("z3-datalog=/usr/bin/z3 does not open: {e}"));
    assert_eq!(e.info().dialect, "z3-datalog");
    engine_against_reference("z3-datalog", e);
}

#[test]
fn z3_native_format_is_refused_by_a_release_that_does_not_read_it() {
    // PyPI's z3 5.x parses no .datalog file: opening it as z3-datalog says so.
    let bin = format!("{}/bin/z3", std::env::var("CROSSCHECK_VENV").unwrap_or_else(|_| ".venv".into()));
    let Some(opened) = native_z3(&bin) else { return };
    let version = std::process::Command::new(&bin).arg("--version").output().expect("z3 --version");
    if !String::from_utf8_lossy(&version.stdout).contains("version 5.") {
        eprintln!("SKIP: {bin} is not a 5.x release");
        return;
    }
    let err = opened.err().expect("a 5.x z3 is refused as z3-datalog");
    assert!(err.contains("reads no native .datalog program"), "{err}");
}

#[test]
fn clingo_matches_reference() {
    against_reference("clingo");
}
#[test]
fn swipl_matches_reference() {
    against_reference("swipl");
}
#[test]
fn sqlite_matches_reference() {
    against_reference("sqlite");
}
#[test]
fn postgres_matches_reference() {
    against_reference("postgres");
}
#[test]
fn duckdb_matches_reference() {
    against_reference("duckdb");
}

#[test]
fn sql_engines_compute_with_64_bit_integers() {
    let p = parse(WIDE);
    let want = tuples(&["(1,9442450941)", "(2,4294967289)"]);
    assert_eq!(run(&mut open("reference").expect("built in"), &p, "r").expect("reference runs"), want);
    for name in ["sqlite", "postgres", "duckdb"] {
        let Some(mut e) = open(name) else { continue };
        assert_eq!(run(&mut e, &p, "r").unwrap_or_else(|err| panic!("{name}: {err}")), want, "{name}");
    }
    // Past 64 bits the reference evaluator stops with an error; PostgreSQL and DuckDB do too, and
    // that is an expected refusal (the differential skips it), not an engine's fault.
    let big = parse(".decl e(x:number)\n.decl r(x:number)\n.output r\ne(4000000000).\nr(Y) :- e(X), Y = X * X.\n");
    assert!(run(&mut open("reference").expect("built in"), &big, "r").is_err());
    for name in ["postgres", "duckdb"] {
        let Some(mut e) = open(name) else { continue };
        let text = crosscheck_datalog::dialects::print(name, &big, "r", None).expect("prints");
        match e.run(&text, std::time::Duration::from_secs(20)) {
            crosscheck_core::Outcome::Error { class: crosscheck_core::ErrorClass::Expected, .. } => {}
            other => panic!("{name}: overflow gave {other:?}"),
        }
    }
}

/// A `config` option's session setting holds for its own program only: it is in force for the
/// program (the probe after the setup sees it) and the next program runs with the defaults.
#[test]
fn sql_engine_options_are_undone() {
    let p = parse(SUITE[2].1);
    let probes: &[(&str, &str)] = &[
        ("postgres", "SELECT current_setting('enable_hashjoin') || current_setting('enable_mergejoin') || current_setting('enable_nestloop') || current_setting('enable_hashagg') || current_setting('enable_memoize')"),
        ("duckdb", "SELECT current_setting('disabled_optimizers') || current_setting('threads')"),
    ];
    let limit = std::time::Duration::from_secs(20);
    for (name, probe) in probes {
        let Some(mut e) = open(name) else { continue };
        let setting = |e: &mut Box<dyn crosscheck_core::Engine>, text: &str| match e.run(text, limit) {
            crosscheck_core::Outcome::Rows(r) => r.rows.first().and_then(|r| r.first()).map(|v| v.to_string()),
            other => panic!("{name}: {text}: {other:?}"),
        };
        let before = setting(&mut e, probe);
        let want = run(&mut e, &p, "sg").expect("runs");
        for opt in crosscheck_datalog::dialects::options(&e.info().dialect) {
            let text = crosscheck_datalog::dialects::print(name, &p, "sg", Some(opt)).expect("prints");
            match e.run(&text, limit) {
                crosscheck_core::Outcome::Rows(r) => {
                    let set = crosscheck_datalog::oracles::as_set(&r);
                    let mut got: Vec<String> = set.rows.iter().map(|row| row_str(row)).collect();
                    got.sort();
                    assert_eq!(got, want, "{name} with {opt}");
                }
                other => panic!("{name} with {opt}: {other:?}\n{text}"),
            }
            assert_eq!(setting(&mut e, probe), before, "{name}: a setting of {opt} outlives its program");
            let setup = text.split("WITH RECURSIVE").next().unwrap_or_default();
            if setup.contains("SET ") && !setup.contains("PRAGMA") {
                let during = setting(&mut e, &format!("{setup}{probe}"));
                assert_ne!(during, before, "{name}: {opt} changes no setting");
                assert_eq!(setting(&mut e, probe), before, "{name}: a setting of {opt} outlives its program");
            }
        }
    }
}

/// The answer of `engine` to `src` printed for output `out`, as rows.
fn answer(engine: &str, src: &str, out: &str) -> Option<Vec<Vec<crosscheck_core::Value>>> {
    let mut e = open(engine)?;
    let text = crosscheck_datalog::dialects::print(&e.info().dialect, &parse(src), out, None)
        .unwrap_or_else(|e| panic!("prints: {e}"));
    match e.run(&text, std::time::Duration::from_secs(10)) {
        crosscheck_core::Outcome::Rows(r) => Some(r.rows),
        other => panic!("{other:?}\n{text}"),
    }
}

#[test]
fn cozo_sums_are_integers_and_empty_inputs_derive_nothing() {
    use crosscheck_core::Value;
    // Both were differences from Soufflé that a reference-vs-cozo differential found: a sum
    // joined back with the numbers it came from, and an ungrouped sum of an empty relation.
    let joined = ".decl h(x:number)\n.decl s(x:number)\n.decl y(x:number)\n.output y\nh(6).\n\
                  s(C) :- h(_), C = sum B : { h(B) }.\ny(A) :- s(A), h(A).\n";
    let Some(rows) = answer("cozo", joined, "y") else { return };
    assert_eq!(rows, vec![vec![Value::Int(6)]]);
    let empty = ".decl w(x:number)\n.decl s(x:number)\n.decl m(x:number)\n.output s\n.output m\n\
                 s(C) :- w(_), C = sum B : { w(B) }.\nm(C) :- w(_), C = min B : { w(B) }.\n";
    assert_eq!(answer("cozo", empty, "s"), Some(vec![]));
    assert_eq!(answer("cozo", empty, "m"), Some(vec![]));
    let grouped = ".decl p(g:symbol, x:number)\n.decl s(g:symbol, x:number)\n.output s\n\
                   p(\"a\", 2). p(\"a\", 3). p(\"b\", 4).\ns(G, C) :- p(G, _), C = sum B : { p(G, B) }.\n";
    assert_eq!(
        answer("cozo", grouped, "s"),
        Some(vec![vec![Value::Text("a".into()), Value::Int(5)], vec![Value::Text("b".into()), Value::Int(4)]])
    );
}

/// Forms of the μZ bug of `crates/datalog/ENGINE-BUGS.md`, each with its right output (empty)
/// and what z3 4.8.12 and 5.4.1 answer: a rule with an atom and its own negation (with a
/// repeated variable, or a join), and one whose join makes the negated tuple one it reads.
const NEGATED_BESIDE_ITSELF: &[(&str, &str, &str)] = &[
    (
        "repeated variable",
        ".decl q(a:number, b:number, c:number)\n.decl r(a:number)\n.output r\nq(0, 1, 1).\n\
         r(A) :- q(A, B, B), !q(A, B, B).\n",
        "(0)",
    ),
    (
        "join",
        ".decl y(a:number, b:number)\n.decl v(a:number, b:number)\n.decl r(a:number)\n.output r\n\
         y(10, 0). v(10, 8).\nr(A) :- v(A, B), y(A, C), !y(A, C).\n",
        "(10)",
    ),
    (
        "negated tuple met through a join",
        ".decl w(a:number, b:number, c:number)\n.decl x(a:number, b:number)\n.decl r(a:number)\n.output r\n\
         w(0, 1, 6). x(0, 0).\nr(A) :- w(B, C, A), x(B, D), !w(D, C, A).\n",
        "(6)",
    ),
];

#[test]
fn a_rule_negating_what_it_reads_derives_nothing_but_on_z3() {
    for (what, src, wrong) in NEGATED_BESIDE_ITSELF {
        let p = parse(src);
        for name in ["reference", "clingo", "swipl", "sqlite"] {
            let Some(mut e) = open(name) else { continue };
            assert_eq!(run(&mut e, &p, "r"), Ok(vec![]), "{name} on the {what} form");
        }
        let Some(mut z3) = open("z3") else { continue };
        let version = z3.info().version.clone();
        let got = run(&mut z3, &p, "r").unwrap_or_else(|e| panic!("z3 on the {what} form: {e}"));
        // The releases the triage checked; another release may have it fixed.
        if ["4.8.12", "5.4.1"].contains(&version.as_str()) {
            assert_eq!(got, tuples(&[wrong]), "z3 {version} on the {what} form: update ENGINE-BUGS.md if fixed");
        } else {
            eprintln!(
                "z3 {version} on the {what} form answers {got:?} (4.8.12 and 5.4.1 answer a row; the answer is empty)"
            );
        }
    }
}
