//! Throughput of the SQL leg on SQLite in memory, one thread: checks per second and the
//! generate / execute / check split per oracle, medians over several seeds.
//!
//! `cargo run --release -p crosscheck-sql --example sql_bench [-- CHECKS_PER_RUN [SEEDS [ORACLES]]]`
//! A "check" is one completed oracle check, as SQLancer counts them. Execute time is the time
//! spent inside engine calls (`Engine::run` and `reset`); check time is everything else after
//! generation (printing queries, comparing results).

use crosscheck_core::timed::Timed;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, GenOptions, Kind};
use crosscheck_sql::SqlKind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The allocator of the `crosscheck` binary, so figures match a campaign's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU time of this thread: the machine is shared, so wall-clock rates understate.
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

struct Run {
    per_sec: f64,
    per_cpu_sec: f64,
    gen: f64,
    exec: f64,
    check: f64,
    valid: f64,
    nonempty: f64,
    findings: u64,
}

fn run(oracle: &str, seed: u64, n: u64) -> Run {
    let oracle = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle)
        .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
    let spec = EngineSpec { name: "sqlite".into(), location: None, label: None };
    let engine = crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
        .unwrap_or_else(|e| panic!("sqlite opens: {e}"));
    let mut engines: Vec<Box<dyn Engine>> = vec![Box::new(Timed::new(engine, EXEC_NS.clone()))];
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let opts = GenOptions { seed, seeds_dir: None };
    let kind = SqlKind;
    let mut gen = kind.generator(&opts, &infos).unwrap_or_else(|e| panic!("generator: {e}"));
    let copts = CheckOptions { timeout: Duration::from_secs(5) };
    let (mut gen_ns, mut other_ns) = (0u64, 0u64);
    let (mut valid, mut nonempty, mut findings) = (0u64, 0u64, 0u64);
    EXEC_NS.store(0, Ordering::Relaxed);
    let mut setup = None;
    let start = Instant::now();
    let cpu0 = thread_cpu();
    for i in 0..n {
        let t0 = Instant::now();
        let case = gen.case(i, oracle);
        let t1 = Instant::now();
        gen_ns += crosscheck_core::nanos(t1 - t0);
        let id = kind.setup_id(&case);
        // As the campaign worker does: prepare once per database; a failed setup skips its checks.
        let mut res = None;
        if setup.map(|(s, _)| s) != Some(id) {
            let p = kind.prepare(&case, &mut engines, &copts);
            setup = Some((id, matches!(p, Check::Pass { .. })));
            if let Check::Finding(_) = p {
                res = Some(p);
            }
        }
        let res = match res {
            Some(r) => r,
            None if setup.is_some_and(|(_, ok)| ok) => kind.check(oracle, &case, &mut engines, &copts),
            None => Check::Skip("setup failed".into()),
        };
        other_ns += crosscheck_core::nanos(t1.elapsed());
        match res {
            Check::Pass { nonempty: ne } => {
                valid += 1;
                nonempty += ne as u64;
            }
            Check::Skip(_) => {}
            Check::Finding(ev) => {
                valid += 1;
                findings += 1;
                if findings <= 3 {
                    eprintln!(
                        "finding ({oracle}, seed {seed}, check {i}): {} [{}] {:?}",
                        ev.summary,
                        ev.key,
                        ev.detail.read::<crosscheck_sql::oracles::Detail>()
                    );
                    if std::env::var("BENCH_SHOW").is_ok() {
                        for (_, text) in kind.reproducers("repro", oracle, &case, &ev, &infos) {
                            eprintln!("{text}");
                        }
                    }
                }
            }
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = thread_cpu() - cpu0;
    let exec = EXEC_NS.swap(0, Ordering::Relaxed);
    let s = 1e-9;
    Run {
        per_sec: n as f64 / wall,
        per_cpu_sec: n as f64 / cpu,
        gen: gen_ns as f64 * s,
        exec: exec as f64 * s,
        check: (other_ns as f64 - exec as f64) * s,
        valid: valid as f64 / n as f64 * 100.0,
        nonempty: nonempty as f64 / valid.max(1) as f64 * 100.0,
        findings,
    }
}

/// Nanoseconds the engine spent: the bench runs one campaign at a time.
static EXEC_NS: std::sync::LazyLock<Arc<AtomicU64>> = std::sync::LazyLock::new(|| Arc::new(AtomicU64::new(0)));

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    // As the campaign worker does.
    crosscheck_core::process::keep_freed_heap();
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let seeds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let oracles: Vec<String> = match args.get(3) {
        Some(o) => o.split(',').map(str::to_string).collect(),
        None => ["tlp-where", "tlp-distinct", "tlp-group-by", "tlp-having", "tlp-aggregate", "norec"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
    };
    println!("SQLite {} in memory, one thread, {n} checks x {seeds} seeds per oracle (medians)", rusqlite_version());
    println!(
        "{:<14} {:>10} {:>10} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9}",
        "oracle", "checks/s", "per CPU-s", "gen %", "exec %", "check %", "valid %", "nonempty%", "findings"
    );
    for o in &oracles {
        let runs: Vec<Run> = (0..seeds).map(|s| run(o, 1000 + s, n)).collect();
        let tot = |r: &Run| r.gen + r.exec + r.check;
        println!(
            "{:<14} {:>10.0} {:>10.0} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>9.1} {:>9}",
            o,
            median(runs.iter().map(|r| r.per_sec).collect()),
            median(runs.iter().map(|r| r.per_cpu_sec).collect()),
            median(runs.iter().map(|r| r.gen / tot(r) * 100.0).collect()),
            median(runs.iter().map(|r| r.exec / tot(r) * 100.0).collect()),
            median(runs.iter().map(|r| r.check / tot(r) * 100.0).collect()),
            median(runs.iter().map(|r| r.valid).collect()),
            median(runs.iter().map(|r| r.nonempty).collect()),
            runs.iter().map(|r| r.findings).sum::<u64>(),
        );
    }
}

fn rusqlite_version() -> String {
    let spec = EngineSpec { name: "sqlite".into(), location: None, label: None };
    crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
        .map(|e| e.info().version.clone())
        .unwrap_or_default()
}
