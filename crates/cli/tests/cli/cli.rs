//! End-to-end tests of the `crosscheck` binary on the real embedded engine (SQLite).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_crosscheck"))
}

pub(crate) fn run(args: &[&str], cwd: &Path) -> Output {
    bin().args(args).current_dir(cwd).output().unwrap_or_else(|e| panic!("crosscheck runs: {e}"))
}

/// A command line written as one string, for arguments without spaces.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A user mistake: exit 2, one line on stderr that names the culprit, no panic.
pub(crate) fn check_usage_error(args: &[&str], needle: &str) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let o = run(args, tmp.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: more than one line: {err}");
    assert!(err.contains(needle), "{args:?}: {err:?} should mention {needle:?}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    check_usage_error(&["run", "nosql", "--tests", "1"], "unknown kind \"nosql\"");
    check_usage_error(&["run", "cypher", "--oracle", "tlp", "--tests", "1"], "unknown oracle \"tlp\"");
    check_usage_error(&["run", "sql", "--engines", "sqllite", "--tests", "1"], "unknown engine \"sqllite\"");
    check_usage_error(&["run", "sql", "--engines", "mutant:sqlite:nope", "--tests", "1"], "unknown fault");
    check_usage_error(&["run", "sql", "--oracle", "tlp-nope", "--tests", "1"], "unknown oracle \"tlp-nope\"");
    check_usage_error(&["run", "sql", "--time", "ten minutes"], "bad duration");
    check_usage_error(&["run", "sql", "--time", "10s", "--tests", "5"], "either --time or --tests");
    check_usage_error(&["run", "sql", "--workers", "0", "--tests", "5"], "--workers");
    check_usage_error(&["run", "sql", "--tests", "abc"], "--tests");
    check_usage_error(&["run", "sql", "--bogus-flag"], "--bogus-flag");
    check_usage_error(
        &["run", "sql", "--tests", "1", "--out", "/proc/crosscheck-cannot-write-here"],
        "output directory",
    );
    check_usage_error(&["replay", "/nonexistent/finding"], "not a finding directory");
    check_usage_error(&["reduce", "/nonexistent/finding"], "not a finding directory");
    check_usage_error(&["findings", "/nonexistent/campaign"], "no findings.db");
}

#[test]
fn corrupt_finding_is_a_clear_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::write(tmp.path().join("finding.json"), "{\"format\": 1, \"kind\": ").expect("write");
    let o = run(&["replay", "."], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("corrupt"), "{}", stderr(&o));
}

fn summary(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("summary JSON: {e}: {}", stderr(o)))
}

fn finding_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("finding.json")).unwrap_or_else(|e| panic!("read finding.json: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("finding.json parses: {e}"))
}

fn finding_dirs(out: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(out.join("findings"))
        .map(|it| {
            it.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_correct_sqlite_gives_no_finding_on_a_fixed_seed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(
        &words("run sql --engines sqlite --oracle tlp-where,norec --tests 4000 --seed 7 --workers 2 --out out --json"),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = summary(&o);
    assert_eq!(s["tests"], 4000);
    assert_eq!(s["findings"], 0);
    assert!(s["valid_pct"].as_f64().unwrap_or(0.0) > 50.0, "{s}");
    assert!(s["engines"][0]["version"].as_str().is_some_and(|v| !v.is_empty()), "{s}");
    for k in ["generate", "execute", "check"] {
        assert!(s["time"][k].as_f64().is_some(), "{s}");
    }
}

#[test]
fn the_same_seed_gives_the_same_stream() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let go = |out: &str| {
        let mut args = words("run sql --engines mutant:sqlite:where-drop --oracle norec --tests 300 --seed 11 --workers 1 --reduce-time 0 --out");
        args.extend([out, "--json"]);
        let o = run(&args, tmp.path());
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let dirs = finding_dirs(&tmp.path().join(out));
        dirs.iter()
            .map(|d| {
                let rec = finding_json(d);
                (rec["index"].clone(), rec["case"].clone())
            })
            .collect::<Vec<_>>()
    };
    let a = go("a");
    assert!(!a.is_empty());
    assert_eq!(a, go("b"));
}

#[test]
fn mutants_are_caught_replayed_reduced_and_deduplicated() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(
        &words("run sql --engines mutant:sqlite:drop-row --oracle tlp-where --tests 200 --seed 3 --workers 1 --reduce-time 10s --out out --json"),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let s = summary(&o);
    assert!(s["findings"].as_u64().unwrap_or(0) > 0, "{s}");
    assert!(s["distinct"].as_u64().unwrap_or(0) <= s["findings"].as_u64().unwrap_or(0));
    let out = tmp.path().join("out");
    let dirs = finding_dirs(&out);
    let first = &dirs[0];
    assert!(first.join("finding.json").is_file());
    assert!(first.join("repro.sql").is_file(), "{:?}", std::fs::read_dir(first).map(|d| d.count()));
    assert!(first.join("reduced.sql").is_file(), "the first finding is reduced automatically");
    // Replay: the bug is in the mutant, so it reproduces; on plain sqlite it does not.
    let r = run(&["replay", first.to_str().expect("utf8")], tmp.path());
    assert_eq!(r.status.code(), Some(1), "{}{}", String::from_utf8_lossy(&r.stdout), stderr(&r));
    let r = run(&["replay", first.to_str().expect("utf8"), "--engines", "sqlite"], tmp.path());
    assert_eq!(r.status.code(), Some(0), "{}{}", String::from_utf8_lossy(&r.stdout), stderr(&r));
    // Offline reduction keeps the verdict.
    let r = run(&["reduce", first.to_str().expect("utf8"), "--time", "20s"], tmp.path());
    assert_eq!(r.status.code(), Some(0), "{}", stderr(&r));
    let r = run(&["replay", first.to_str().expect("utf8")], tmp.path());
    assert_eq!(r.status.code(), Some(1));
    let f = run(&["findings", "out", "--json"], tmp.path());
    assert_eq!(f.status.code(), Some(0));
    let bugs: serde_json::Value = serde_json::from_slice(&f.stdout).expect("json");
    let counted: u64 = bugs.as_array().expect("array").iter().map(|b| b["count"].as_u64().unwrap_or(0)).sum();
    assert_eq!(counted, s["findings"].as_u64().unwrap_or(0));
}

#[test]
fn a_flood_of_one_fault_keeps_the_budget_and_the_disk_and_is_few_bugs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t = std::time::Instant::now();
    let o = run(
        &words("run sql --engines mutant:sqlite:drop-row --oracle tlp,norec --time 6s --seed 4 --workers 1 --out out --json"),
        tmp.path(),
    );
    let took = t.elapsed();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(took < std::time::Duration::from_secs(16), "a 6 s budget took {took:?}");
    let s = summary(&o);
    let (findings, distinct) = (s["findings"].as_u64().unwrap_or(0), s["distinct"].as_u64().unwrap_or(0));
    // Every check fails; one planted fault is one bug per kind of difference.
    assert!(findings > 200, "{s}");
    assert!((1..=4).contains(&distinct), "{s}");
    let out = tmp.path().join("out");
    let dirs = finding_dirs(&out);
    assert!(dirs.len() as u64 <= 4 * distinct + 8, "{} directories for {distinct} bugs", dirs.len());
    // The terminal names new bugs, not repeats. How many provisional bugs (from cases not
    // reduced yet) appear before the reduced ones absorb them depends on timing: a few dozen
    // at most, against thousands of findings.
    let news = stderr(&o).matches("NEW ").count() as u64;
    assert!(news * 10 < findings, "{news} NEW lines for {findings} findings: {}", stderr(&o));
    // A repeat kept as a row replays: its case is rebuilt from the worker's seed and index.
    let db = rusqlite::Connection::open(out.join("findings.db")).expect("db");
    let id: String = db
        .query_row("SELECT id FROM findings WHERE dir = '' ORDER BY seq DESC LIMIT 1", [], |r| r.get(0))
        .expect("a finding kept as a row");
    let row_dir = out.join("findings").join(&id);
    assert!(!row_dir.exists());
    let r = run(&["replay", row_dir.to_str().expect("utf8")], tmp.path());
    assert_eq!(r.status.code(), Some(1), "{}{}", String::from_utf8_lossy(&r.stdout), stderr(&r));
}

#[test]
fn a_crashing_engine_costs_a_worker_not_the_campaign() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(
        &words("run sql --engines mutant:sqlite:crash --oracle norec --tests 600 --seed 5 --workers 2 --reduce-time 0 --out out --json"),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let s = summary(&o);
    // Workers were restarted after each crash and went on with the stream.
    assert!(s["worker_restarts"].as_u64().unwrap_or(0) > 0, "{s}");
    assert!(s["tests"].as_u64().unwrap_or(0) > 100, "{s}");
    assert!(s["findings"].as_u64().unwrap_or(0) < 100, "one finding per crash, not one per case: {s}");
    let dirs = finding_dirs(&tmp.path().join("out"));
    let rec: serde_json::Value = finding_json(&dirs[0]);
    assert_eq!(rec["evidence"]["class"], "crash");
    assert_eq!(rec["evidence"]["key"], "signal 11");
    // The rebuilt case crashes again when replayed in a probe process.
    let r = run(&["replay", dirs[0].to_str().expect("utf8")], tmp.path());
    assert_eq!(r.status.code(), Some(1), "{}{}", String::from_utf8_lossy(&r.stdout), stderr(&r));
}

/// A worker killed by a case of an adaptive generator (the Cypher leg's mutants of queries
/// that returned rows): the finding holds the case that ran, which the worker left on its
/// board, not the fresh case of its index, so its replay crashes again.
#[test]
fn a_crash_on_a_mutated_case_keeps_the_case_that_ran() {
    let registry = crosscheck_engines::cypher::registry();
    let Some(kuzu) = registry.iter().find(|f| f.name() == "kuzu") else { panic!("kuzu is not registered") };
    if !crosscheck_engines::testing::available(*kuzu) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(
        &words("run cypher --engines mutant:kuzu:crash --oracle partition,equivalence --tests 400 --seed 3 --workers 1 --reduce-time 0 --out out --json"),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let mutated: Vec<PathBuf> = finding_dirs(&tmp.path().join("out"))
        .into_iter()
        .filter(|d| {
            let rec = finding_json(d);
            let mutated = rec["index"].as_u64().is_some_and(|i| i % 100 >= crosscheck_cypher::FRESH);
            rec["evidence"]["class"] == "crash" && rec["adaptive"] == true && mutated
        })
        .collect();
    assert!(!mutated.is_empty(), "no crash on a mutated case: {}", stderr(&o));
    // Two replays make the point; each starts a Kuzu host.
    for d in mutated.iter().take(2) {
        let r = run(&["replay", "--original", d.to_str().expect("utf8")], tmp.path());
        assert_eq!(r.status.code(), Some(1), "{}{}", String::from_utf8_lossy(&r.stdout), stderr(&r));
    }
}

#[test]
fn a_hanging_engine_becomes_a_hang_finding() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(
        &words("run sql --engines mutant:sqlite:hang --oracle norec --tests 300 --seed 5 --workers 1 --reduce-time 0 --hang-after 2s --out out --json"),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let dirs = finding_dirs(&tmp.path().join("out"));
    let rec: serde_json::Value = finding_json(&dirs[0]);
    assert_eq!(rec["evidence"]["class"], "hang");
}

#[test]
fn findings_survive_a_sigkill_of_the_supervisor() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut child = bin()
        .args(words("run sql --engines mutant:sqlite:dup-row --oracle tlp-where --time 60s --seed 9 --workers 2 --reduce-time 0 --out out"))
        .current_dir(tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let out = tmp.path().join("out");
    let start = Instant::now();
    while finding_dirs(&out).len() < 3 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let dirs = finding_dirs(&out);
    assert!(dirs.len() >= 3, "findings appeared before the kill");
    let conn = rusqlite::Connection::open(out.join("findings.db")).expect("db");
    let rows: i64 = conn.query_row("SELECT COUNT(*) FROM findings", [], |r| r.get(0)).expect("count");
    assert!(rows >= 2, "{rows}");
    let mut ids = conn.prepare("SELECT dir FROM findings WHERE dir != ''").expect("prep");
    let dirs_in_db: Vec<String> = ids.query_map([], |r| r.get(0)).expect("q").filter_map(|r| r.ok()).collect();
    for d in dirs_in_db {
        let text = std::fs::read_to_string(out.join(&d).join("finding.json")).expect("finding.json intact");
        let _: serde_json::Value = serde_json::from_str(&text).expect("finding.json parses");
        assert!(out.join(&d).join("repro.sql").is_file());
    }
    // The workers died with the supervisor.
    std::thread::sleep(Duration::from_millis(300));
    let ps = Command::new("pgrep").args(["-f", "crosscheck __worker"]).output();
    if let Ok(ps) = ps {
        let pids = String::from_utf8_lossy(&ps.stdout).to_string();
        for pid in pids.split_whitespace() {
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).unwrap_or_default();
            assert_ne!(cwd, tmp.path(), "worker {pid} outlived its supervisor");
        }
    }
}

#[test]
fn ctrl_c_stops_the_campaign_cleanly() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let child = bin()
        .args(words("run sql --engines sqlite --time 60s --seed 2 --workers 2 --out out --json"))
        .current_dir(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(1500));
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: sending SIGINT to our own child.
    unsafe {
        libc_kill(pid, 2);
    }
    let start = Instant::now();
    let o = child.wait_with_output().expect("wait");
    assert!(start.elapsed() < Duration::from_secs(10), "it stopped promptly");
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let s = summary(&o);
    assert_eq!(s["interrupted"], true, "{s}");
    assert!(s["tests"].as_u64().unwrap_or(0) > 0, "{s}");
}

extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}

/// An engine that does not answer: exit 2 at once, one line naming it, no finding.
fn check_no_answer(line: &str, needle: &str) {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let start = Instant::now();
    let o = run(&words(line), tmp.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{line}: {err}");
    assert!(start.elapsed() < Duration::from_secs(20), "{line}: took {:?}", start.elapsed());
    let said: Vec<&str> = err.lines().filter(|l| l.contains(needle)).collect();
    assert_eq!(said.len(), 1, "{line}: one line should say {needle:?}: {err}");
    assert!(!err.contains("panicked") && !err.contains("crash on"), "{line}: {err}");
    assert!(finding_dirs(&tmp.path().join("out")).is_empty(), "{line}: findings were stored: {err}");
}

#[test]
fn an_engine_that_does_not_answer_is_a_setup_error() {
    for fake in ["/bin/false", "/bin/true"] {
        check_no_answer(
            &format!("run smt --engines z3={fake} --time 10s --out out"),
            &format!("engine z3 ({fake}) did not answer its first probe"),
        );
        check_no_answer(
            &format!("run datalog --engines clingo={fake},reference --time 10s --out out"),
            &format!("engine clingo ({fake}) did not answer its first probe"),
        );
    }
    check_no_answer("run smt --engines cvc5=/usr/bin/yes --time 10s --out out", "engine cvc5 (/usr/bin/yes)");
    // A virtualenv without the solver's module.
    let venv = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    std::fs::create_dir(venv.path().join("bin")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    std::os::unix::fs::symlink("/usr/bin/python3", venv.path().join("bin/python"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    let venv = venv.path().to_str().unwrap_or_else(|| panic!("utf8 path"));
    check_no_answer(&format!("run smt --engines cvc5-py={venv} --time 10s --out out"), "No module named");
}

#[test]
fn a_correct_solver_passes_its_probe() {
    if !crosscheck_engines::testing::available(&crosscheck_engines::smt::z3::FACTORY) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(&words("run smt --engines z3 --tests 60 --seed 3 --workers 2 --out out --json"), tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = summary(&o);
    assert_eq!(s["findings"], 0);
    // Cases per label (the SMT leg: a generated seed's theory family), summed over both
    // workers: each ran 30 cases, 25 of one family and 5 of the next.
    let labels = s["by_label"].as_object().cloned().unwrap_or_default();
    let total: u64 = labels.values().map(|c| c["tests"].as_u64().unwrap_or(0)).sum();
    assert_eq!(total, 60, "{s}");
    assert!(labels.len() >= 2, "{s}");
    assert!(stderr(&o).contains("cases by label"), "{}", stderr(&o));
}

/// Two SQLite releases (the bundled one and the Python's, older on Debian 12) agree on a fixed
/// seed: what an older release does differently is the dialect layer's knowledge
/// (`crosscheck_sql::lacks_in_release`), not a finding.
#[test]
fn two_sqlite_releases_agree_on_a_fixed_seed() {
    let Some(python) = ["/usr/bin/python3", "/usr/local/bin/python3"].into_iter().find(|p| Path::new(p).is_file())
    else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let engines = format!("sqlite@new,sqlite@old={python}");
    let mut args = vec!["run", "sql", "--engines", engines.as_str()];
    args.extend(words("--oracle differential --tests 2000 --seed 3 --workers 2 --out out --json"));
    let o = run(&args, tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = summary(&o);
    assert_eq!(s["tests"], 2000, "{s}");
    assert_eq!(s["findings"], 0, "{s}");
    assert!(s["engines"][1]["version"].as_str().is_some_and(|v| v.starts_with("SQLite ")), "{s}");
}

/// A finding's sampled solver options are in finding.json and in repro.smt2, and `replay`
/// sends them: the same finding with an option the solver refuses no longer reproduces.
#[test]
fn an_smt_finding_replays_with_its_options() {
    if !crosscheck_engines::testing::available(&crosscheck_engines::smt::z3::FACTORY) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(
        &words(
            "run smt --engines mutant:z3:flip-verdict --tests 40 --seed 3 --workers 1 --reduce-time 0 --out out --json",
        ),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let label = "mutant:z3:flip-verdict";
    let with_options = finding_dirs(&tmp.path().join("out")).into_iter().find_map(|d| {
        let text = std::fs::read_to_string(d.join("finding.json")).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        let opts = json.pointer("/case/options")?.get(label)?.as_array()?.clone();
        (!opts.is_empty()).then_some((d, json, opts))
    });
    let Some((dir, mut json, opts)) = with_options else { panic!("no finding drew options") };
    let repro = std::fs::read_to_string(dir.join("repro.smt2")).expect("repro.smt2");
    for o in &opts {
        let line = format!("(set-option :{} {})", o[0].as_str().unwrap_or(""), o[1].as_str().unwrap_or(""));
        assert!(repro.contains(&line), "{line} not in repro.smt2:\n{repro}");
    }
    let d = dir.to_str().expect("utf8");
    assert_eq!(run(&["replay", d], tmp.path()).status.code(), Some(1), "reproduces with its options");
    json["case"]["options"][label] = serde_json::json!([["smt.no_such_option_here", "true"]]);
    std::fs::write(dir.join("finding.json"), json.to_string()).expect("write");
    let r = run(&["replay", d], tmp.path());
    assert_eq!(r.status.code(), Some(0), "z3 refuses the option, so nothing reproduces: {}", stderr(&r));
}
