//! Benchmark of the datalog leg.
//!
//! ```text
//! cargo run --release -p crosscheck-datalog --example datalog_bench -- [--secs S] [--engines a,b] [--oracles o,p]
//! ```
//! Prints (1) generation alone: queryFuzz-style programs/s, queryFuzz transformations/s (and
//! micro-steps/s), DLSmith programs/s and transformed graphs/s, against queryFuzz's published
//! 47.6 programs/s and 303 transformations/s; (2) per engine and oracle, end to end: checks/s
//! with the generate / execute / check split, % valid, % non-empty and the findings' keys.

use crosscheck_core::timed::Timed;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, Generator, Kind};
use crosscheck_datalog::gen::{self, GenConfig};
use crosscheck_datalog::{common_caps, dialects, dlsmith, qf, DatalogGen, DatalogKind};
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The allocator of the `crosscheck` binary, so figures match a campaign's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

/// CPU seconds of this thread (user + system, from /proc; 0 where unavailable): the machine
/// is often shared, and rates per CPU second compare across loaded and quiet runs.
fn cpu_secs() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else { return 0.0 };
    // Fields after the parenthesised command name start at field 3 (state); utime and stime
    // are fields 14 and 15 of proc(5), in clock ticks (100 per second on Linux).
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return 0.0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    match (f.get(11).and_then(|x| x.parse::<f64>().ok()), f.get(12).and_then(|x| x.parse::<f64>().ok())) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => 0.0,
    }
}

/// Runs `step` for `secs` wall seconds; returns (calls, successes, steps, wall s, CPU s).
fn timed(secs: f64, mut step: impl FnMut(usize) -> Option<u64>) -> (u64, u64, u64, f64, f64) {
    let (t, c) = (Instant::now(), cpu_secs());
    let (mut i, mut ok, mut steps) = (0usize, 0u64, 0u64);
    while t.elapsed().as_secs_f64() < secs {
        if let Some(s) = step(i) {
            ok += 1;
            steps += s;
        }
        i += 1;
    }
    (u64::try_from(i).unwrap_or(u64::MAX), ok, steps, t.elapsed().as_secs_f64(), cpu_secs() - c)
}

/// Runs `make` for `secs` wall seconds, keeping its first `keep` results for the next step;
/// returns them with (calls, wall s, CPU s).
fn generated<T>(secs: f64, keep: usize, mut make: impl FnMut() -> T) -> (Vec<T>, u64, f64, f64) {
    let mut kept = Vec::new();
    let (n, _, _, el, cpu) = timed(secs, |_| {
        let p = make();
        if kept.len() < keep {
            kept.push(p);
        }
        None
    });
    (kept, n, el, cpu)
}

fn generation(secs: f64) {
    let caps = dialects::capabilities("souffle").iter().map(|s| s.to_string()).collect();
    let cfg = GenConfig::new(caps);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let per = |n: u64, el: f64, cpu: f64| format!("{:.0}/s wall, {:.0}/s CPU", n as f64 / el, n as f64 / cpu.max(1e-9));
    let (programs, n, el, cpu) = generated(secs, 200, || gen::program(&mut rng, &cfg, None));
    println!(
        "generation (queryFuzz-style): {} programs ({:.0}x queryFuzz's 47.6 per CPU s)",
        per(n, el, cpu),
        n as f64 / cpu.max(1e-9) / 47.6
    );
    // Ten transformations per program, as a campaign draws them (TRANSFORMATIONS_PER_PROGRAM),
    // with the program's analysis done once per ten, as the generator caches it.
    // A count that does not fit a `usize` cannot be reached either: then prepare every time.
    let per_program = usize::try_from(crosscheck_datalog::TRANSFORMATIONS_PER_PROGRAM).unwrap_or(1);
    let mut prep: Option<(usize, qf::Prepared)> = None;
    let (i, tr, steps, el, cpu) = timed(secs, |i| {
        let k = (i / per_program) % programs.len();
        if prep.as_ref().is_none_or(|(j, _)| *j != k) {
            prep = Some((k, qf::Prepared::new(&programs[k])));
        }
        let (_, pr) = prep.as_ref()?;
        qf::transform_prepared(&mut rng, &programs[k], pr, &cfg.caps, 20).map(|x| x.steps.len() as u64)
    });
    println!(
        "transformation (queryFuzz):    {} transformed programs ({:.0}x queryFuzz's 303 per CPU s), {:.0} micro-steps/s CPU, {:.0}% of attempts applicable",
        per(tr, el, cpu),
        tr as f64 / cpu.max(1e-9) / 303.0,
        steps as f64 / cpu.max(1e-9),
        100.0 * tr as f64 / i.max(1) as f64
    );
    let (dl, n, el, cpu) = generated(secs, 100, || dlsmith::generate(&mut rng, &cfg, None));
    println!("generation (DLSmith graphs):  {} programs (DLSmith: 163/s)", per(n, el, cpu));
    let (_, tr, steps, el, cpu) =
        timed(secs, |i| dlsmith::transform(&mut rng, &dl[i % dl.len()], &cfg, 100).map(|x| x.steps.len() as u64));
    println!(
        "transformation (DLSmith):     {} transformed graphs (DLSmith: 2857/s, sequences up to 100), {:.0} steps/s CPU",
        per(tr, el, cpu),
        steps as f64 / cpu.max(1e-9)
    );
}

fn end_to_end(names: &[String], oracle: &str, secs: f64) {
    let Some(oracle) = <crosscheck_datalog::DatalogOracle as crosscheck_core::Oracle>::parse(oracle) else {
        println!("{:<28} {oracle:<12} skipped: no such oracle", names.join(","));
        return;
    };
    let ns = Arc::new(AtomicU64::new(0));
    let factories = registry();
    let mut es: Vec<Box<dyn Engine>> = Vec::new();
    for n in names {
        let spec = match EngineSpec::parse(n) {
            Ok(s) => s,
            Err(e) => {
                println!("{n}: {e}");
                return;
            }
        };
        match crosscheck_engines::open_engine(&factories, &spec) {
            Ok(e) => es.push(Box::new(Timed::new(e, ns.clone()))),
            Err(e) => {
                println!("{:<28} {oracle:<12} skipped: {e}", names.join(","));
                return;
            }
        }
    }
    let infos: Vec<EngineInfo> = es.iter().map(|e| e.info().clone()).collect();
    if DatalogKind.validate(&[oracle], &infos).is_err() {
        return;
    }
    let mut g = DatalogGen::new(17, common_caps(&infos), vec![]);
    let opts = CheckOptions { timeout: Duration::from_secs(5) };
    let (mut tests, mut valid, mut nonempty) = (0u64, 0u64, 0u64);
    let (mut gen_ns, mut other_ns) = (0u64, 0u64);
    let mut findings: BTreeMap<String, u64> = BTreeMap::new();
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < secs {
        let t0 = Instant::now();
        let case = g.case(tests, oracle);
        let t1 = Instant::now();
        gen_ns += crosscheck_core::nanos(t1 - t0);
        let r = DatalogKind.check(oracle, &case, &mut es, &opts);
        other_ns += crosscheck_core::nanos(t1.elapsed());
        tests += 1;
        match r {
            Check::Pass { nonempty: ne } => {
                valid += 1;
                nonempty += ne as u64;
            }
            Check::Skip(_) => {}
            Check::Finding(ev) => {
                valid += 1;
                *findings.entry(format!("{} {}", ev.engine_label(), ev.key)).or_default() += 1;
            }
        }
    }
    let el = t.elapsed().as_secs_f64();
    let exec = ns.load(Ordering::Relaxed) as f64 / 1e9;
    let check = (other_ns as f64 / 1e9 - exec).max(0.0);
    println!(
        "{:<28} {oracle:<12} {:>8.1} checks/s  generate {:>5.2}s execute {:>6.2}s check {:>5.2}s  valid {:>3.0}% non-empty {:>3.0}%  findings {:?}",
        names.join(","),
        tests as f64 / el,
        gen_ns as f64 / 1e9,
        exec,
        check,
        100.0 * valid as f64 / tests.max(1) as f64,
        100.0 * nonempty as f64 / valid.max(1) as f64,
        findings
    );
}

/// The Datalog engines as the binary has them: the leg's reference evaluator, then the engines
/// layer's adapters.
fn registry() -> Vec<&'static dyn crosscheck_core::EngineFactory> {
    let mut r = vec![crosscheck_datalog::reference_engine()];
    r.extend(crosscheck_engines::datalog::registry());
    r
}

fn main() {
    let secs: f64 = arg("--secs").and_then(|s| s.parse().ok()).unwrap_or(3.0);
    if arg("--no-gen").is_none() {
        generation(secs);
    }
    let engines: Vec<String> = arg("--engines")
        .unwrap_or_else(|| "reference,cozo,sqlite,nemo,z3,clingo,swipl".into())
        .split(',')
        .map(str::to_string)
        .collect();
    let oracles: Vec<String> =
        arg("--oracles").unwrap_or_else(|| "queryfuzz,dlsmith,config".into()).split(',').map(str::to_string).collect();
    // `--oracles none` measures generation and transformation alone.
    for o in oracles.iter().filter(|o| *o != "none") {
        if o == "differential" {
            end_to_end(&engines, o, secs);
            continue;
        }
        for e in &engines {
            end_to_end(std::slice::from_ref(e), o, secs);
        }
    }
}
