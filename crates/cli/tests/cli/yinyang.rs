//! yinyang's oracles through the binary: each catches its planted fault in a short campaign
//! that STORM alone does not catch, and finds nothing on the real z3.

use crate::cli::run;
use std::path::Path;

fn z3_here() -> bool {
    crosscheck_engines::testing::available(&crosscheck_engines::smt::z3::FACTORY)
}

/// Findings and the reproducers of `crosscheck run smt <args> --json`.
fn campaign(args: &str) -> (u64, Vec<String>) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let line = format!("run smt {args} --seed 1 --workers 1 --out out --json");
    let o = run(&line.split_whitespace().collect::<Vec<_>>(), tmp.path());
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("summary: {e}: {err}"));
    let findings = s["findings"].as_u64().unwrap_or_else(|| panic!("findings in {s}"));
    // Exit 0 without findings, 1 with.
    assert_eq!(o.status.code(), Some(i32::from(findings > 0)), "{line}: {err}");
    (findings, repros(&tmp.path().join("out/findings")))
}

fn repros(dir: &Path) -> Vec<String> {
    let mut dirs: Vec<_> = std::fs::read_dir(dir).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    dirs.sort();
    dirs.iter().filter_map(|d| std::fs::read_to_string(d.join("repro.smt2")).ok()).collect()
}

/// Wrong answers among the reproducers: sampled options also reach real crashes of the
/// solver (z3 5.4.1's `smt.sls.enable` on strings: "NOT IMPLEMENTED YET"), which are the
/// solver's bugs, not the oracle's false alarms.
fn wrong_answers(repros: &[String]) -> Vec<&String> {
    repros.iter().filter(|r| r.contains("class: soundness")).collect()
}

#[test]
fn fusion_catches_a_solver_that_answers_sat_on_unsat_disjunctions() {
    if !z3_here() {
        return;
    }
    let (n, repros) = campaign("--engines mutant:z3:unsat-or-as-sat --oracle fusion --tests 100");
    assert!(n >= 1, "fusion missed the planted fault");
    let caught = |r: &&String| r.contains("expected: unsat") && r.contains("UNSAT fusion of two unsat seeds");
    assert!(repros.iter().any(|r| caught(&r)), "{repros:?}");
    // STORM's instances are satisfiable by construction: this fault never shows there.
    let storm = campaign("--engines mutant:z3:unsat-or-as-sat --oracle storm --tests 100").1;
    assert_eq!(wrong_answers(&storm), Vec::<&String>::new());
    assert_eq!(wrong_answers(&campaign("--engines z3 --oracle fusion --tests 100").1), Vec::<&String>::new());
}

#[test]
fn opfuzz_catches_a_misread_operator_against_the_correct_solver() {
    if !z3_here() {
        return;
    }
    // The shipped bit-vector seeds hold no bvuge (the generated ones do, and there every
    // oracle meets the fault); with only them, most mutants are of bit-vector operators.
    let seeds = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../smt/seeds");
    let entries = std::fs::read_dir(&shipped).unwrap_or_else(|e| panic!("{}: {e}", shipped.display()));
    for f in entries.flatten().map(|e| e.path()) {
        if f.file_name().is_some_and(|n| n.to_string_lossy().starts_with("bv_")) {
            let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert!(!text.contains("bvuge"), "{} holds bvuge", f.display());
            let copy = seeds.path().join(f.file_name().unwrap_or_default());
            std::fs::write(&copy, text).unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
        }
    }
    let seeds = seeds.path().display();
    let (n, repros) =
        campaign(&format!("--engines mutant:z3:bvuge-swapped,z3 --oracle opfuzz --tests 300 --seeds {seeds}"));
    assert!(n >= 1, "opfuzz missed the planted fault");
    let caught = |r: &String| {
        r.contains("Operator mutant of a seed") && r.contains(" -> bvuge") && r.contains("class: soundness")
    };
    assert!(repros.iter().any(caught), "{repros:?}");
    // STORM and the differential oracle on those seeds never see the fault.
    let others =
        format!("--engines mutant:z3:bvuge-swapped,z3 --oracle storm,differential --tests 200 --seeds {seeds}");
    assert_eq!(wrong_answers(&campaign(&others).1), Vec::<&String>::new());
    let real = campaign(&format!("--engines z3@a,z3@b --oracle opfuzz --tests 300 --seeds {seeds}")).1;
    assert_eq!(wrong_answers(&real), Vec::<&String>::new());
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
