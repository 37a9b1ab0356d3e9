//! yinyang's oracles through the binary: each catches its planted fault in a short campaign
//! that STORM alone does not catch, and finds nothing on the real z3.

use crate::cli::run;
use std::path::Path;

fn z3_here() -> bool {
    crosscheck_engines::testing::available(&crosscheck_engines::smt::z3::FACTORY)
}

/// Findings and the first finding's reproducer of `crosscheck run smt <args> --json`.
fn campaign(args: &str) -> (u64, String) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let line = format!("run smt {args} --seed 1 --workers 1 --out out --json");
    let o = run(&line.split_whitespace().collect::<Vec<_>>(), tmp.path());
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("summary: {e}: {err}"));
    let findings = s["findings"].as_u64().unwrap_or_else(|| panic!("findings in {s}"));
    // Exit 0 without findings, 1 with.
    assert_eq!(o.status.code(), Some(i32::from(findings > 0)), "{line}: {err}");
    let repro = first_repro(&tmp.path().join("out/findings"));
    (findings, repro)
}

fn first_repro(dir: &Path) -> String {
    let mut dirs: Vec<_> = std::fs::read_dir(dir).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    dirs.sort();
    dirs.iter().find_map(|d| std::fs::read_to_string(d.join("repro.smt2")).ok()).unwrap_or_default()
}

#[test]
fn fusion_catches_a_solver_that_answers_sat_on_unsat_disjunctions() {
    if !z3_here() {
        return;
    }
    let (n, repro) = campaign("--engines mutant:z3:unsat-or-as-sat --oracle fusion --tests 100");
    assert!(n >= 1, "fusion missed the planted fault");
    assert!(repro.contains("expected: unsat") && repro.contains("UNSAT fusion of two unsat seeds"), "{repro}");
    // STORM's instances are satisfiable by construction: this fault never shows there.
    assert_eq!(campaign("--engines mutant:z3:unsat-or-as-sat --oracle storm --tests 100").0, 0);
    assert_eq!(campaign("--engines z3 --oracle fusion --tests 100").0, 0);
}

#[test]
fn opfuzz_catches_a_misread_operator_against_the_correct_solver() {
    if !z3_here() {
        return;
    }
    let (n, repro) = campaign("--engines mutant:z3:bvuge-swapped,z3 --oracle opfuzz --tests 500");
    assert!(n >= 1, "opfuzz missed the planted fault");
    assert!(repro.contains("Operator mutant of a seed") && repro.contains(" -> bvuge"), "{repro}");
    // The generated seeds hold no bvuge: STORM (and the differential oracle) on them never see it.
    assert_eq!(campaign("--engines mutant:z3:bvuge-swapped,z3 --oracle storm,differential --tests 200").0, 0);
    assert_eq!(campaign("--engines z3@a,z3@b --oracle opfuzz --tests 300").0, 0);
}

#[test]
fn opfuzz_needs_two_engines() {
    // The campaign's header line comes first (as for `differential`), then the refusal.
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let o = run(&["run", "smt", "--engines", "z3", "--oracle", "opfuzz", "--tests", "1"], tmp.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("opfuzz oracle") && err.contains("needs two or more engines"), "{err}");
}
