//! `crosscheck summary` on real engines: the seed's counts through the binary, the 57 queries
//! of §4.6.1 over every database at two text atoms without a wrong answer on SQLite,
//! PostgreSQL, MariaDB and DuckDB, each planted fault caught, clustering at least halving the
//! engine calls of the seed's per-query loop.

use super::cli::{check_usage_error, run};
use std::path::{Path, PathBuf};

fn spec(name: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../sql/summaries").join(name);
    root.to_string_lossy().into_owned()
}

fn json(args: &[&str], cwd: &Path) -> (Option<i32>, serde_json::Value) {
    let o = run(args, cwd);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: JSON: {e}: {err}"));
    (o.status.code(), v)
}

#[test]
fn count_reproduces_the_seed_through_the_binary() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (code, v) = json(&["summary", "count", &spec("natural-join.toml"), "--json"], tmp.path());
    assert_eq!(code, Some(0));
    assert_eq!(v["queries"], 57);
    assert_eq!(v["databases"], 378);
    assert_eq!(v["tests"], 57 * 378);
    let (_, v) = json(&["summary", "count", &spec("case1.toml"), "--queries-only", "--json"], tmp.path());
    assert_eq!((v["queries"].as_u64(), v["mixed_without_group_by"].as_u64()), (Some(186), Some(76)));
}

#[test]
fn a_bad_spec_is_one_line_naming_the_line() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let path = tmp.path().join("bad.toml");
    let text = "[[table]]\nname = \"t\"\ncolumns = [{ name = \"a\", type = \"float\" }]\n[query]\n";
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("write: {e}"));
    check_usage_error(&["summary", "count", &path.to_string_lossy()], "line 3:");
    check_usage_error(&["summary", "run", &spec("natural-join.toml"), "--undo", "sometimes"], "--undo");
    check_usage_error(&["summary", "list", &spec("natural-join.toml"), "--dialect", "oracle"], "unknown dialect");
}

/// Runs the spec on one engine and returns (exit code, tests, wrong answers, engine JSON).
fn run_on(spec_file: &str, engine: &str, extra: &[&str]) -> (Option<i32>, u64, u64, serde_json::Value) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let out = tmp.path().join("out");
    let out = out.to_string_lossy();
    let mut args = vec!["summary", "run", spec_file, "--engines", engine, "--json", "--out", &out];
    args.extend_from_slice(extra);
    let (code, v) = json(&args, tmp.path());
    let mut e = v["engines"][0].clone();
    let (tests, wrong) = (e["tests"].as_u64().unwrap_or(0), e["wrong"].as_u64().unwrap_or(0));
    if wrong > 0 {
        let dirs: Vec<PathBuf> = std::fs::read_dir(tmp.path().join("out/findings"))
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        assert!(!dirs.is_empty(), "{engine}: wrong answers but no finding in the store");
        // The first of each bug is reduced (later ones a known bug explains are not): a
        // dropped or duplicated row needs at most one row per joined table.
        let reduced: Vec<String> =
            dirs.iter().filter_map(|d| std::fs::read_to_string(d.join("reduced.sql")).ok()).collect();
        assert!(!reduced.is_empty(), "{engine}: no reduced finding");
        for repro in &reduced {
            let inserts = repro.lines().filter(|l| l.starts_with("INSERT")).count();
            assert!(repro.contains("SELECT") && inserts <= 3, "{engine}: {repro}");
        }
        for dir in &dirs {
            // The store's finding replays as any finding of `run` does.
            let o = run(&["replay", &dir.to_string_lossy()], tmp.path());
            let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            assert!(said.contains("reproduces"), "{engine}: replay of {}: {said}", dir.display());
        }
        let o = run(&["findings", &out, "--json"], tmp.path());
        assert!(o.status.success(), "{engine}: findings: {}", String::from_utf8_lossy(&o.stderr));
        e["reduced_sql"] = reduced.join("\n").into();
    }
    (code, tests, wrong, e)
}

#[test]
fn the_57_queries_at_two_atoms_find_nothing_on_four_engines() {
    for engine in ["sqlite", "postgres", "mariadb", "duckdb"] {
        if !crosscheck_engines::testing::sql_available(engine) {
            eprintln!("SKIP {engine}: not available here");
            continue;
        }
        let (code, tests, wrong, e) = run_on(&spec("natural-join.toml"), engine, &[]);
        assert_eq!((code, tests, wrong), (Some(0), 57 * 378, 0), "{engine}: {e}");
        let calls = e["clustered"]["calls"].as_u64().unwrap_or(u64::MAX);
        let per_query = e["clustered"]["per_query_loop_calls"].as_u64().unwrap_or(0);
        assert!(2 * calls <= per_query, "{engine}: {calls} calls vs {per_query} for the per-query loop");
    }
}

#[test]
fn each_planted_fault_is_caught() {
    let cases = [("natural-join.toml", "drop-row"), ("natural-join.toml", "dup-row"), ("where.toml", "where-drop")];
    for (file, fault) in cases {
        let (code, _, wrong, e) = run_on(&spec(file), &format!("mutant:sqlite:{fault}"), &[]);
        assert_eq!(code, Some(1), "{fault}: {e}");
        assert!(wrong > 0, "{fault}: {e}");
        if fault == "drop-row" {
            // Query terms reduced too: one row of one table shows a dropped row, no join needed.
            let reduced = e["reduced_sql"].as_str().unwrap_or_default();
            assert!(!reduced.contains("NATURAL JOIN"), "{reduced}");
        }
    }
    // The same spec on the correct engine, unclustered: no finding, and the seed's loop.
    let (code, tests, wrong, e) = run_on(&spec("where.toml"), "sqlite", &["--no-cluster"]);
    assert_eq!((code, wrong), (Some(0), 0), "{e}");
    assert!(tests > 0);
    assert_eq!(e["unclustered"]["calls"], e["unclustered"]["per_query_loop_calls"]);
}

#[test]
fn undo_strategies_and_workers_agree() {
    let mut seen = Vec::new();
    for extra in [&["--undo", "inverse"][..], &["--undo", "savepoint"], &["--undo", "reset"], &["--workers", "2"]] {
        let (code, tests, wrong, e) = run_on(&spec("mixed.toml"), "sqlite", extra);
        assert_eq!((code, wrong), (Some(0), 0), "{extra:?}: {e}");
        seen.push(tests);
    }
    assert!(seen.iter().all(|&t| t == seen[0] && t > 0), "{seen:?}");
}
