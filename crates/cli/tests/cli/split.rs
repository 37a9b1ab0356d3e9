//! `crosscheck split plan|run|compare` on the split crate's mypy fixture: the JSON contract, the
//! exit codes, and one clear line for each bad input.

use crate::cli::{check_usage_error as usage_error, run};
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../split/tests/fixtures/py")
}

fn mypy_here() -> bool {
    if crosscheck_engines::transport::find_tool("mypy").is_some() {
        return true;
    }
    assert!(!crosscheck_engines::testing::required("mypy"), "mypy is required but not installed");
    println!("skipped: mypy is not installed here; install: scripts/install-split-tools.sh");
    false
}

#[test]
fn split_bad_input_gets_one_line_and_exit_2() {
    let fx = fixture();
    let fx = fx.to_str().unwrap_or_default();
    usage_error(
        &["split", "plan", "--tool", "mypyy", "--strategy", "sizelimiting", "--size", "2", fx, "--out", "p"],
        "mypyy",
    );
    usage_error(
        &[
            "split",
            "plan",
            "--tool",
            "bandit",
            "--strategy",
            "sizelimiting",
            "--size",
            "2",
            "/nonexistent",
            "--out",
            "p",
        ],
        "not a directory",
    );
    usage_error(
        &["split", "plan", "--tool", "mypy", "--strategy", "splitmerge", "--size", "2", "--k", "0", fx, "--out", "p"],
        "--k",
    );
    usage_error(&["split", "run", "/nonexistent/plan.json"], "cannot read plan");
    usage_error(&["split", "compare", "/nonexistent/run.json"], "cannot read run");
    if !mypy_here() {
        return;
    }
    usage_error(
        &["split", "plan", "--tool", "mypy", "--strategy", "sizelimiting", "--size", "0", fx, "--out", "p"],
        "at least 1",
    );
    usage_error(
        &["split", "plan", "--tool", "mypy", "--strategy", "splitmerge", "--size", "2", "--p", "1.5", fx, "--out", "p"],
        "hub fraction",
    );
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    std::fs::write(tmp.path().join("bad.json"), "{\"version\": 1").unwrap_or_else(|e| panic!("{e}"));
    let o = run(&["split", "run", "bad.json"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a plan written by this crosscheck"));
}

#[test]
fn split_plan_run_compare_on_the_mypy_fixture() {
    if !mypy_here() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let fx = fixture();
    let fx = fx.to_str().unwrap_or_default();
    let json = |o: &Output| -> serde_json::Value {
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
    };
    let o = run(
        &[
            "split",
            "plan",
            "--tool",
            "mypy",
            "--strategy",
            "sizelimiting",
            "--size",
            "2",
            fx,
            "--out",
            "p.json",
            "--json",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!((json(&o)["units"].as_u64(), json(&o)["partitions"].as_u64()), (Some(5), Some(3)));
    let o = run(&["split", "run", "p.json", "--jobs", "2", "--out", "r.json", "--json"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(json(&o)["findings"].as_u64(), Some(2), "b.py:6 and c.py:6 survive the split");
    assert!(String::from_utf8_lossy(&o.stderr).contains("split: 3/3"), "progress on stderr");
    // The two findings of a.py need pkg.base, which sits in another partition: exit 1.
    let o = run(&["split", "compare", "r.json", "--baseline", "nosplit", "--json"], tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let c = json(&o);
    assert_eq!(c["lost"].as_array().map(Vec::len), Some(2));
    assert_eq!(c["baseline"]["findings"].as_u64(), Some(4));
    assert!(tmp.path().join("r.json.nosplit.json").exists(), "the baseline is kept for the next compare");
}

#[test]
fn split_datalog_by_relation_keeps_closures_whole() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    std::fs::write(
        tmp.path().join("prog.dl"),
        ".decl e(x:number, y:number)\n.decl tc(x:number, y:number)\n.decl far(x:number)\n.decl solo(x:number)\n\
         .output tc, far, solo\ne(1,2). e(2,3). e(3,4). solo(9).\ntc(X,Y) :- e(X,Y).\ntc(X,Z) :- tc(X,Y), e(Y,Z).\n\
         far(X) :- tc(X,4), !e(X,4).\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let lost = |strategy: &[&str]| -> (Option<i32>, serde_json::Value) {
        let mut plan = vec!["split", "plan", "--tool", "datalog", "--size"];
        plan.extend_from_slice(strategy);
        plan.extend_from_slice(&["prog.dl", "--out", "p.json"]);
        let o = run(&plan, tmp.path());
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        let o = run(&["split", "run", "p.json", "--jobs", "2", "--out", "r.json"], tmp.path());
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        let _ = std::fs::remove_file(tmp.path().join("r.json.nosplit.json"));
        let o = run(&["split", "compare", "r.json", "--json"], tmp.path());
        let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"));
        (o.status.code(), c)
    };
    // {e, tc, far} is far's closure: room for it loses nothing (12 tuples).
    let (code, c) = lost(&["3", "--strategy", "splitmerge", "--k", "inf"]);
    assert_eq!(
        (code, c["baseline"]["findings"].as_u64(), c["lost"].as_array().map(Vec::len)),
        (Some(0), Some(12), Some(0))
    );
    // Sorted pairs {e, far} {solo, tc}: tc lacks e and far lacks tc; only e and solo survive.
    let (code, c) = lost(&["2", "--strategy", "sizelimiting"]);
    assert_eq!((code, c["lost"].as_array().map(Vec::len)), (Some(1), Some(8)));
}

#[test]
fn split_smt_by_shared_symbols_keeps_the_verdict() {
    if crosscheck_engines::transport::find_tool("z3").is_none() {
        assert!(!crosscheck_engines::testing::required("z3"), "z3 is required but not installed");
        println!("skipped: z3 is not installed here; install: scripts/install-smt-solvers.sh");
        return;
    }
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    // Two components: {x > 0, x < y} is satisfiable, {a > b, b > a} is not.
    std::fs::write(
        tmp.path().join("f.smt2"),
        "(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n(declare-const a Int)\n(declare-const b Int)\n\
         (assert (> x 0))\n(assert (< x y))\n(assert (> a b))\n(assert (> b a))\n(check-sat)\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let compare = |strategy: &[&str]| -> (Option<i32>, usize) {
        let mut plan = vec!["split", "plan", "--tool", "smt"];
        plan.extend_from_slice(strategy);
        plan.extend_from_slice(&["f.smt2", "--out", "p.json"]);
        let o = run(&plan, tmp.path());
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        let o = run(&["split", "run", "p.json", "--out", "r.json"], tmp.path());
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        let o = run(&["split", "compare", "r.json", "--json"], tmp.path());
        let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c["baseline"]["findings"].as_u64(), Some(1), "the whole script is unsat");
        (o.status.code(), c["lost"].as_array().map_or(0, Vec::len))
    };
    // Components kept whole: the unsat one is found in its partition.
    assert_eq!(compare(&["--strategy", "splitmerge", "--k", "inf", "--size", "2"]), (Some(0), 0));
    // {x > 0, x < y, a > b} and {b > a}: both satisfiable, the unsat verdict is lost.
    assert_eq!(compare(&["--strategy", "sizelimiting", "--size", "3"]), (Some(1), 1));
}

#[test]
fn split_sql_by_statement_needs_whole_view_closures() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    std::fs::write(
        tmp.path().join("w.sql"),
        "CREATE TABLE t(a INT, b TEXT);\nINSERT INTO t VALUES (1, 'x'), (2, 'v'), (3, 'w');\n\
         CREATE VIEW v AS SELECT a FROM t WHERE b <> 'v';\nCREATE TABLE u(c INT);\nINSERT INTO u VALUES (7);\n\
         SELECT * FROM v;\nSELECT count(*) FROM u;\nSELECT a, c FROM v, u ORDER BY a;\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let compare = |strategy: &[&str]| -> (Option<i32>, usize, usize) {
        let mut plan = vec!["split", "plan", "--tool", "sql"];
        plan.extend_from_slice(strategy);
        plan.extend_from_slice(&["w.sql", "--out", "p.json"]);
        assert_eq!(run(&plan, tmp.path()).status.code(), Some(0));
        assert_eq!(run(&["split", "run", "p.json", "--out", "r.json"], tmp.path()).status.code(), Some(0));
        let o = run(&["split", "compare", "r.json", "--json"], tmp.path());
        let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c["baseline"]["findings"].as_u64(), Some(3), "three queries answer");
        let n = |k: &str| c[k].as_array().map_or(0, Vec::len);
        (o.status.code(), n("lost"), n("extra"))
    };
    assert_eq!(compare(&["--strategy", "splitmerge", "--k", "inf", "--size", "6"]), (Some(0), 0, 0));
    // Chunks of three statements part every query from its view or table: three answers lost,
    // three "no such table" errors instead.
    assert_eq!(compare(&["--strategy", "sizelimiting", "--size", "3"]), (Some(1), 3, 3));
}
