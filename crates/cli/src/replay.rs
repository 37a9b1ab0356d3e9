//! `crosscheck replay` and `crosscheck reduce`: both re-run a stored case with its own oracle.
//!
//! A replay runs in a throwaway child process (`__probe`), so a case that crashes or hangs an
//! in-process engine is observed, not suffered.

use crate::errors::{user, Result, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE};
use crate::kinds::with_kind;
use crosscheck_core::engine::EngineSpec;
use crosscheck_core::kind::{CheckOptions, Evidence, FindingClass, GenOptions, Kind, Oracle};
use crosscheck_core::reduce::reduce as reduce_case;
use crosscheck_core::store::{self, load_finding, FindingRecord, Reduced, Store};
use crosscheck_core::worker::{self, open_engines, reduce_offline, ProbeInput};
use crosscheck_engines::transport::{run_once, RunOnce};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// A finding directory (<out>/findings/<id>)
    dir: PathBuf,
    /// Replay the original case even when a reduced one exists
    #[arg(long)]
    original: bool,
    /// Replay on other engines than those of the finding (e.g. a newer build)
    #[arg(long)]
    engines: Option<String>,
}

#[derive(clap::Args)]
pub struct ReduceArgs {
    /// A finding directory (<out>/findings/<id>)
    dir: PathBuf,
    /// Time bound for the reduction
    #[arg(long, default_value = "120s")]
    time: String,
}

/// What a probe saw.
enum Seen {
    Finding(Evidence),
    Nothing,
    Crash(String),
    Hang,
}

fn probe_input(rec: &FindingRecord, case: &serde_json::Value, engines: &[EngineSpec]) -> ProbeInput {
    ProbeInput {
        kind: rec.kind.clone(),
        oracle: rec.oracle.clone(),
        engines: engines.to_vec(),
        case: case.clone(),
        timeout: Duration::from_millis(rec.timeout_ms.max(1)),
    }
}

fn run_probe(input: &ProbeInput, limit: Duration) -> Result<Seen> {
    let exe = std::env::current_exe().map_err(|e| user(format!("cannot find the crosscheck executable: {e}")))?;
    let text = serde_json::to_string(input).map_err(|e| user(format!("cannot encode the case: {e}")))?;
    let r = run_once(Command::new(exe).arg("__probe"), &text, limit)
        .map_err(|e| user(format!("cannot start a probe process: {e}")))?;
    Ok(match r {
        RunOnce::TimedOut { .. } => Seen::Hang,
        RunOnce::Exited { status, stdout, stderr } => {
            if let Some(sig) = status.signal() {
                Seen::Crash(format!("signal {sig}"))
            } else if status.code() == Some(EXIT_USAGE) {
                let line = stderr.lines().next().unwrap_or("the probe failed").trim_start_matches("crosscheck: ");
                return Err(user(line.to_string()));
            } else if status.code() != Some(0) {
                Seen::Crash(format!("exit code {}", status.code().unwrap_or(-1)))
            } else {
                match serde_json::from_str::<Option<Evidence>>(stdout.trim()) {
                    Ok(Some(e)) => Seen::Finding(e),
                    Ok(None) => Seen::Nothing,
                    Err(e) => return Err(user(format!("the probe answered nonsense: {e}"))),
                }
            }
        }
    })
}

/// Whether what a probe saw is the recorded failure.
fn reproduces(seen: &Seen, expected: &Evidence) -> bool {
    match seen {
        Seen::Finding(e) => e.same_failure(expected),
        Seen::Crash(key) => expected.class == FindingClass::Crash && &expected.key == key,
        Seen::Hang => expected.class == FindingClass::Hang,
        Seen::Nothing => false,
    }
}

fn specs_of(rec: &FindingRecord, over: Option<&str>) -> Result<Vec<EngineSpec>> {
    match over {
        Some(e) => EngineSpec::parse_list(e).map_err(|e| user(format!("--engines: {e}"))),
        None => rec
            .engine_specs
            .iter()
            .map(|s| EngineSpec::parse(s).map_err(|e| user(format!("finding.json: engine {s}: {e}"))))
            .collect(),
    }
}

fn probe_limit(rec: &FindingRecord) -> Duration {
    Duration::from_millis(rec.timeout_ms).saturating_mul(4).max(Duration::from_secs(30))
}

/// A stored finding with its case: a finding kept as a row has none, and its leg's generator
/// rebuilds it from the worker's seed and the case's index, as the supervisor does.
fn load_with_case(dir: &Path) -> Result<FindingRecord> {
    let mut rec = load_finding(dir)?;
    if rec.case.is_null() {
        if rec.adaptive {
            return Err(user(format!(
                "{}: the finding's case came from an adaptive generator and was not kept, so it cannot be rebuilt",
                dir.display()
            )));
        }
        let kind = rec.kind.clone();
        rec.case = with_kind!(kind.as_str(), |k| rebuild_case(k, &rec))?;
    }
    Ok(rec)
}

fn rebuild_case<K: Kind>(kind: &K, rec: &FindingRecord) -> Result<serde_json::Value> {
    let oracle = K::Oracle::parse(&rec.oracle)
        .ok_or_else(|| user(format!("the finding's oracle \"{}\" is not one of the {} leg's", rec.oracle, rec.kind)))?;
    let opts = GenOptions { seed: rec.worker_seed, seeds_dir: None };
    let mut gen = kind.generator(&opts, &rec.engines).map_err(|e| user(format!("cannot rebuild the case: {e}")))?;
    serde_json::to_value(gen.case(rec.index, oracle)).map_err(|e| user(format!("cannot encode the case: {e}")))
}

pub fn replay(args: ReplayArgs) -> Result<i32> {
    let rec = load_with_case(&args.dir)?;
    let (case, ev) = if args.original { (&rec.case, &rec.evidence) } else { rec.best_case() };
    let specs = specs_of(&rec, args.engines.as_deref())?;
    let seen = run_probe(&probe_input(&rec, case, &specs), probe_limit(&rec))?;
    let what = match &seen {
        Seen::Finding(e) => format!("{} on {}: {}", e.class, e.engine_label(), e.summary),
        Seen::Nothing => "the oracle holds".into(),
        Seen::Crash(k) => format!("the engine process died ({k})"),
        Seen::Hang => "no answer within the limit".into(),
    };
    if reproduces(&seen, ev) {
        println!("reproduces: {what}");
        Ok(EXIT_FINDINGS)
    } else {
        println!("does not reproduce: {what} (recorded: {} {})", ev.class, ev.key);
        Ok(EXIT_OK)
    }
}

pub fn reduce_cmd<K: Kind>(kind: &K, dir: &Path, mut rec: FindingRecord, time: Duration) -> Result<i32> {
    let case: K::Case = serde_json::from_value(rec.case.clone())
        .map_err(|e| user(format!("{}: the case does not fit the {} leg: {e}", dir.display(), rec.kind)))?;
    let specs = specs_of(&rec, None)?;
    let ev = rec.evidence.clone();
    let deadline = Instant::now() + time;
    let opts = CheckOptions { timeout: Duration::from_millis(rec.timeout_ms.max(1)) };
    let reduced = if matches!(ev.class, FindingClass::Crash | FindingClass::Hang) {
        // The case kills or stalls the engine: every candidate runs in its own probe process.
        let limit = probe_limit(&rec);
        let mut last = None;
        // An engine that no longer answers fails every candidate: say so, not "no smaller case".
        let mut setup = None;
        let (small, stats) = reduce_case(
            case,
            |c| kind.shrink_lazy(c),
            |c| kind.size(c),
            |c| {
                let Ok(json) = serde_json::to_value(c) else { return false };
                match run_probe(&probe_input(&rec, &json, &specs), limit) {
                    Ok(seen) if reproduces(&seen, &ev) => {
                        last = Some(ev.clone());
                        true
                    }
                    Ok(_) => false,
                    Err(e) => {
                        setup.get_or_insert(e);
                        false
                    }
                }
            },
            deadline,
        );
        if let (None, Some(e)) = (&last, setup) {
            return Err(e);
        }
        match (last, serde_json::to_value(&small)) {
            (Some(evidence), Ok(case)) => Some(Reduced { case, evidence, stats }),
            _ => None,
        }
    } else {
        let mut engines = open_engines(&crate::kinds::opener(K::NAME), &specs).map_err(|e| user(e.message))?;
        let oracle = K::Oracle::parse(&rec.oracle).ok_or_else(|| {
            user(format!("the finding's oracle \"{}\" is not one of the {} leg's", rec.oracle, rec.kind))
        })?;
        reduce_offline(kind, oracle, &case, &ev, &mut engines, &opts, deadline)
    };
    let Some(reduced) = reduced else {
        println!("no smaller case shows the same failure ({} {})", ev.class, ev.key);
        return Ok(EXIT_OK);
    };
    let stats = reduced.stats;
    rec.reduced = Some(reduced);
    rec.signature = crosscheck_core::books::signature(kind, &rec);
    let files: Vec<(String, String)> = crosscheck_core::books::reproducer_files(kind, &rec)
        .into_iter()
        .filter(|(name, _)| name.starts_with("reduced"))
        .collect();
    for (name, contents) in &files {
        store::replace_file(dir, name, contents)?;
    }
    let json = serde_json::to_string_pretty(&rec).map_err(|e| user(format!("cannot encode the finding: {e}")))?;
    store::replace_file(dir, "finding.json", &json)?;
    if let Some(out) = store::store_of(dir) {
        Store::open(&out)?.update_reduced(&rec)?;
    }
    println!(
        "reduced {} -> {} in {} step(s), {} tr{}{}: {}",
        stats.size_before,
        stats.size_after,
        stats.steps,
        stats.tries,
        if stats.tries == 1 { "y" } else { "ies" },
        if stats.timed_out { " (time bound reached)" } else { "" },
        files.iter().map(|(n, _)| dir.join(n).display().to_string()).collect::<Vec<_>>().join(" ")
    );
    Ok(EXIT_OK)
}

pub fn reduce(args: ReduceArgs) -> Result<i32> {
    let time = crate::duration::parse(&args.time).map_err(|e| user(format!("--time: {e}")))?;
    let rec = load_with_case(&args.dir)?;
    let kind = rec.kind.clone();
    with_kind!(kind.as_str(), |k| reduce_cmd(k, &args.dir, rec, time))
}

/// The hidden `__probe` entry point: a [`ProbeInput`] on stdin, the evidence (or null) on stdout.
pub fn probe() -> Result<i32> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).map_err(|e| user(format!("probe: cannot read its input: {e}")))?;
    let input: ProbeInput = serde_json::from_str(&text).map_err(|e| user(format!("probe: bad input: {e}")))?;
    let kind = input.kind.clone();
    let ev = with_kind!(kind.as_str(), |k| worker::probe(k, &crate::kinds::opener(&kind), &input).map_err(user))?;
    println!("{}", serde_json::to_string(&ev).unwrap_or_else(|_| "null".into()));
    Ok(EXIT_OK)
}
