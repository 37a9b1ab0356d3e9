//! Datalog campaigns through the binary: skipped checks counted in the summary (issue 18).

use super::cli::run;
use std::path::PathBuf;

/// A z3 binary: the project virtualenv's, else Debian's.
fn z3() -> Option<PathBuf> {
    let venv = std::env::var("CROSSCHECK_VENV").unwrap_or_else(|_| ".venv".into());
    let found = [PathBuf::from(venv).join("bin/z3"), PathBuf::from("/usr/bin/z3")].into_iter().find(|p| p.exists());
    if found.is_none() {
        eprintln!("SKIP: no z3 binary");
    }
    found
}

#[test]
fn originals_past_the_timeout_skip_their_transformations_and_are_counted() {
    let Some(z3) = z3() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    // No μZ program answers within 1 ms: every original times out, once per program.
    let engines = format!("z3={}", z3.display());
    let args = [
        "run",
        "datalog",
        "--engines",
        &engines,
        "--oracle",
        "queryfuzz",
        "--tests",
        "20",
        "--timeout",
        "1ms",
        "--workers",
        "1",
        "--seed",
        "3",
        "--out",
        "out",
        "--json",
    ];
    let o = run(&args, tmp.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("summary: {e}: {err}"));
    let skipped = s["skipped"]["original timed out, transformations not run"].as_u64().unwrap_or(0);
    assert!(skipped >= 10, "{s}");
    assert_eq!(s["valid_pct"], 0.0, "{s}");
    assert!(err.contains("skipped checks: ") && err.contains("original timed out, transformations not run"), "{err}");
}
