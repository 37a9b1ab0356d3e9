//! `crosscheck tune` and `tune eval` end to end on real solvers with tiny batches and limits:
//! the recipe replays, a disagreement between configurations exits 1, bad input exits 2 with
//! one line.

use crosscheck_tune::workloads::{smt_batch, Size};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crosscheck"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap_or_else(|e| panic!("crosscheck runs: {e}"))
}

fn z3() -> Option<PathBuf> {
    let found = crosscheck_engines::transport::process::find_tool("z3");
    if found.is_none() {
        assert!(!crosscheck_engines::testing::required("z3"), "z3 is required but not installed");
        println!("skipped: z3 is not installed");
    }
    found
}

fn batch(dir: &Path, seed: u64) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{e}"));
    for (name, text) in smt_batch(seed, 4, Size::Tiny) {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn summary(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("summary: {e}: {}", String::from_utf8_lossy(&o.stdout)))
}

const SMALL: &str = "--limit 3s --max-len 2 --i-dom 1 --i-set 2 --workers 2 --json";

#[test]
fn tune_writes_a_recipe_that_replays_on_another_batch() {
    let Some(_) = z3() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    batch(&tmp.path().join("a"), 1);
    batch(&tmp.path().join("b"), 2);
    let mut args = vec!["tune", "--target", "z3", "--workload", "a", "--out", "out"];
    args.extend(SMALL.split(' '));
    let o = run(&args, tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert_eq!(s["items"], 4);
    assert_eq!(s["default_resolved"], 4);
    assert_eq!(s["tuned_resolved"], 4);
    assert_eq!(s["evaluations"].as_u64(), Some(1 + 3 + 2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("eval 1:"), "progress on stderr");
    assert!(tmp.path().join("out/table.tsv").is_file());
    let o = run(&["tune", "eval", "out/recipe.json", "--workload", "b", "--out", "replay", "--json"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert_eq!(s["evaluations"], 2, "the default and the recipe");
    assert_eq!(s["tuned_resolved"], 4);
    let v = &s["versus_default"];
    assert_eq!(v["better"], 0, "both resolve every query: {v}");
    assert_eq!(v["equal"].as_u64().zip(v["worse"].as_u64()).map(|(e, w)| e + w), Some(4), "{v}");
}

/// Charged by z3's rlimit counter, a tuning run is the same run twice: the same recipe and
/// the same units, whatever else the machine is doing.
#[test]
fn a_counter_limited_tuning_repeats_exactly() {
    let Some(_) = z3() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    batch(&tmp.path().join("a"), 3);
    let once = |out: &str| {
        let line = format!("tune --target z3 --workload a --resource counter --limit 50000000 --max-len 2 --i-dom 1 --i-set 2 --workers 2 --json --out {out}");
        let o = run(&line.split(' ').collect::<Vec<_>>(), tmp.path());
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        summary(&o)
    };
    let (a, b) = (once("x"), once("y"));
    assert_eq!(a["resource"], "counter");
    assert_eq!(a["tuned_resolved"], 4);
    assert!(a["units"][0]["default_used"].as_f64().is_some_and(|u| u > 0.0), "{a}");
    for key in ["default_used", "tuned_used", "recipe"] {
        assert_eq!(a["units"][0][key], b["units"][0][key], "{key}");
    }
}

/// A run resumed from its own --out directory reads every evaluation back from the journal:
/// the same recipe, the same units, and no solver run but the ones the search never made.
#[test]
fn a_resumed_tuning_runs_nothing_it_already_ran() {
    let Some(_) = z3() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    batch(&tmp.path().join("a"), 3);
    let line = "tune --target z3 --workload a --resource counter --limit 50000000 --max-len 2 --i-dom 1 --i-set 2 --seeds 2 --json";
    let go = |extra: &str| {
        let all = format!("{line} {extra}");
        let o = run(&all.split(' ').collect::<Vec<_>>(), tmp.path());
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        summary(&o)
    };
    let first = go("--out x");
    let journal = std::fs::read_to_string(tmp.path().join("x/evals/z3.jsonl")).expect("journal");
    let measured = journal.lines().count() - 1;
    assert!(measured >= 2 && first["resumed"] == 0, "{first}");
    assert_eq!(first["seeds"], 2);
    let again = go("--resume x");
    assert_eq!(again["resumed"].as_u64(), Some(measured as u64), "{again}");
    assert_eq!(again["units"][0]["recipe"], first["units"][0]["recipe"]);
    assert_eq!(again["units"][0]["tuned_used"], first["units"][0]["tuned_used"]);
    let reruns = again["runs"].as_u64().unwrap_or(u64::MAX);
    assert!(reruns < first["runs"].as_u64().unwrap_or(0), "{reruns} runs again: only the winner's re-measurement");
}

#[test]
fn a_configuration_that_flips_answers_exits_1() {
    let Some(z3) = z3() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    batch(&tmp.path().join("a"), 1);
    // A z3 that answers the opposite whenever it runs with any smt.relevancy.
    let fake = tmp.path().join("flipping-z3");
    let z3 = z3.display();
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *smt.relevancy*) {z3} \"$@\" | sed -e s/^sat/X/ -e s/^unsat/sat/ -e s/^X/unsat/ ;; *) exec {z3} \"$@\" ;; esac\n"
    );
    std::fs::write(&fake, script).expect("write");
    Command::new("chmod").arg("+x").arg(&fake).status().expect("chmod");
    let fake = fake.to_string_lossy().into_owned();
    let args = format!(
        "tune --target z3 --workload a --tool {fake} --seed 2 --limit 3s --max-len 1 --i-dom 1 --i-set 12 --json"
    );
    let o = run(&args.split(' ').collect::<Vec<_>>(), tmp.path());
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert!(s["disagreements"].as_u64().unwrap_or(0) > 0);
    assert!(!s["units"][0]["recipe"].as_str().unwrap_or("").contains("smt.relevancy"), "{s}");
}

#[test]
fn bad_tune_input_gets_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(tmp.path().join("empty")).expect("mkdir");
    std::fs::write(tmp.path().join("bad.json"), "{").expect("write");
    let cases: &[(&str, &str)] = &[
        ("tune --target nope --workload .", "nope"),
        ("tune --workload .", "--target"),
        ("tune --target z3", "--workload"),
        ("tune --target z3 --workload missing", "missing"),
        ("tune --target z3 --workload empty", "no .smt2 file"),
        ("tune --target z3 --workload . --limit 10x", "bad duration"),
        ("tune --target z3 --workload . --resource counter", "a number of units"),
        ("tune --target cvc5 --workload . --resource counter --limit 1000", "only z3"),
        ("tune --target z3 --workload . --algo ga", "ga"),
        ("tune --target z3 --workload . --max-len 0", "--max-len"),
        ("tune --target z3 --workload . --seeds 0", "--seeds"),
        ("tune --target z3 --workload . --resume nowhere", "no evals/"),
        ("tune --target z3 --workload . --tool /no/such/z3", "/no/such/z3"),
        ("tune eval bad.json --workload .", "not a recipe file"),
        ("tune eval none.json --workload .", "none.json"),
    ];
    for (line, needle) in cases {
        let o = run(&line.split(' ').collect::<Vec<_>>(), tmp.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{line}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{line}: {err}");
        assert!(err.contains(needle), "{line}: {err:?} should mention {needle:?}");
    }
}

/// A temporary directory holding the named fixtures of crates/tune/tests/fixtures/eva, or
/// `None` when frama-c is not installed (and not required).
fn eva_fixtures(names: &[&str]) -> Option<tempfile::TempDir> {
    if crosscheck_engines::transport::process::find_tool("frama-c").is_none() {
        assert!(!crosscheck_engines::testing::required("frama-c"), "frama-c is required but not installed");
        println!("skipped: frama-c is not installed");
        return None;
    }
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tune/tests/fixtures/eva");
    for f in names {
        std::fs::copy(fixtures.join(f), tmp.path().join(f)).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
    Some(tmp)
}

/// Replayed on bug.c, a recipe with slevel 10 unrolls the loop to the write past the end:
/// Eva calls it invalid for that state and stops there (a red status the default does not
/// show), which makes code dead. That recipe is refused there and credited nothing.
#[test]
fn a_replayed_recipe_that_stops_propagation_is_credited_nothing() {
    let Some(tmp) = eva_fixtures(&["bug.c"]) else { return };
    let recipe = r#"{"target":"eva","stages":[{"domain":"cvalue","settings":[["slevel","10"]],"slice":0.5}]}"#;
    std::fs::write(tmp.path().join("r.json"), recipe).expect("recipe");
    let o =
        run(&["tune", "eval", "r.json", "--workload", "bug.c", "--limit", "20s", "--out", "out", "--json"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert_eq!((s["default_resolved"].as_u64(), s["tuned_resolved"].as_u64()), (Some(7), Some(0)));
    let why = s["units"][0]["tuned_refused"].as_str().unwrap_or_default();
    assert!(why.contains("red: bug.c:6:main:index_bound:i < 4"), "{why}");
    assert_eq!(s["versus_default"]["worse"], 7);
    let table = std::fs::read_to_string(tmp.path().join("out/table.tsv")).expect("table");
    assert!(table.lines().skip(1).all(|l| l.split('\t').nth(5) == Some("refused")), "{table}");
}

#[test]
fn eva_programs_get_a_recipe_each() {
    let Some(tmp) = eva_fixtures(&["loops.c", "bits.c"]) else { return };
    let args =
        "tune --target eva --workload . --limit 20s --max-len 1 --i-dom 1 --i-set 1 --workers 2 --out out --json";
    let o = run(&args.split(' ').collect::<Vec<_>>(), tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&o);
    assert_eq!(s["items"], 23 + 13);
    assert_eq!(s["default_resolved"], 20 + 13, "the fixtures' known statuses");
    assert!(tmp.path().join("out/recipes/loops.c.json").is_file());
    assert!(tmp.path().join("out/recipes/bits.c.json").is_file());
}
