//! Benchmark of the SMT leg on the shipped seeds (not a timed test): instances/s, solver
//! calls/s, the generation / solving / checking split, and the share of calls that can reveal
//! a bug (a decided `sat`/`unsat`, as opposed to `unknown`, timeouts and errors).
//!
//! cargo run --release -p crosscheck-smt --example smt_bench -- [--engines z3] [--oracle storm]
//!     [--cases 2000] [--seeds DIR | --random] [--seed 1] [--logics QF_LIA,QF_BV] [--timeout-ms 10000]
//!     [--per-seed N] (instances per seed; STORM's NM = 1000)
//!     [--one-shot]   (STORM's way: a fresh z3 process per instance, for comparison)
//!     [--planted]    (a planted soundness bug: unsat on a Boolean shape)
//!     [--reduce N]   (reduce the first N findings and print the size reduction, as STORM's RQ4)
//!     [--reduce-secs 60] (time bound of each reduction)
//!     [--storm-only] (STORM's bound search alone: no fast ddmin phase before it, no steps after)
//!     [--fast-only]  (the fast ddmin phase alone: no STORM search after it)

use crosscheck_core::engine::{EngineInfo, EngineSpec, SetupError};
use crosscheck_core::{Check, CheckOptions, Engine, GenOptions, Kind, Outcome, Verdict};
use crosscheck_smt::SmtKind;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a bench engine runs a script: through the engines layer, or STORM's way, for
/// comparison: one fresh `z3 -in` process per instance.
enum Runner {
    Engine(Box<dyn Engine>),
    OneShot(std::path::PathBuf),
}

/// A solver as the bench runs it: counts solver time and decided answers, and with `planted`
/// plants a soundness bug for measuring the minimizer: `unsat` whenever the script holds at
/// least four negated conjunctions and a disjunction (a shape, not a single operator, so the
/// minimizer has to keep part of the Boolean structure).
struct Bench {
    info: EngineInfo,
    runner: Runner,
    planted: bool,
    counters: Arc<Counters>,
}

#[derive(Default)]
struct Counters {
    ns: AtomicU64,
    calls: AtomicU64,
    decided: AtomicU64,
}

impl Bench {
    fn solve(&mut self, text: &str, limit: Duration) -> Outcome {
        let out = match &mut self.runner {
            Runner::Engine(e) => e.run(text, limit),
            Runner::OneShot(program) => {
                let mut cmd = std::process::Command::new(program);
                cmd.arg("-in");
                match crosscheck_engines::transport::run_once(&mut cmd, text, limit) {
                    Ok(crosscheck_engines::transport::RunOnce::Exited { stdout, .. }) => {
                        crosscheck_engines::smt::process::parse_answers(&stdout)
                    }
                    Ok(_) => Outcome::Timeout { after_ms: crosscheck_core::millis(limit) },
                    Err(e) => Outcome::error(e.to_string()),
                }
            }
        };
        match out {
            Outcome::Verdicts { answers, model }
                if self.planted && text.matches("(not (and").count() >= 4 && text.contains("(or ") =>
            {
                Outcome::Verdicts { answers: answers.iter().map(|_| Verdict::Unsat).collect(), model }
            }
            o => o,
        }
    }
}

impl Engine for Bench {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        match &mut self.runner {
            Runner::Engine(e) => e.reset(),
            Runner::OneShot(_) => Ok(()),
        }
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let t = Instant::now();
        let out = self.solve(text, limit);
        let c = &self.counters;
        c.ns.fetch_add(crosscheck_core::nanos(t.elapsed()), Ordering::Relaxed);
        c.calls.fetch_add(1, Ordering::Relaxed);
        if let Outcome::Verdicts { answers, .. } = &out {
            if !answers.is_empty() && answers.iter().all(|a| *a != Verdict::Unknown) {
                c.decided.fetch_add(1, Ordering::Relaxed);
            }
        }
        out
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

/// Stops the bench: it cannot run without what `what` names.
fn die(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("bench: {what}: {e}");
    std::process::exit(2);
}

/// The seeds to mutate: `--seeds DIR` or the shipped ones, and with `--logics` only those that
/// set one of them, copied to `scratch`.
fn seeds_dir(args: &[String], scratch: &std::path::Path) -> std::path::PathBuf {
    let logics: Option<Vec<String>> = arg(args, "--logics").map(|l| l.split(',').map(str::to_string).collect());
    let seeds_dir = arg(args, "--seeds").map(Into::into).unwrap_or_else(crosscheck_smt::generator::shipped_seeds_dir);
    let Some(ls) = &logics else { return seeds_dir };
    for e in std::fs::read_dir(&seeds_dir).unwrap_or_else(|e| die("seeds dir", e)).flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        if ls.iter().any(|l| text.contains(&format!("(set-logic {l})"))) {
            std::fs::write(scratch.join(e.file_name()), text).unwrap_or_else(|e| die("copy seed", e));
        }
    }
    scratch.to_path_buf()
}

/// The solvers of `--engines`, each wrapped for counting (and `--one-shot`, `--planted`).
fn open_solvers(
    args: &[String],
    factories: &[&'static dyn crosscheck_core::engine::EngineFactory],
    counters: &Arc<Counters>,
) -> Vec<Box<dyn Engine>> {
    let engines = arg(args, "--engines").unwrap_or_else(|| "z3".into());
    let mut engs: Vec<Box<dyn Engine>> = Vec::new();
    for s in EngineSpec::parse_list(&engines).unwrap_or_else(|e| die("engine list", e)) {
        let e = crosscheck_engines::open_engine(factories, &s).unwrap_or_else(|e| panic!("cannot open {s}: {e}"));
        let info = e.info().clone();
        let runner = if args.iter().any(|a| a == "--one-shot") {
            let program =
                crosscheck_engines::transport::find_tool("z3").unwrap_or_else(|| die("z3 for --one-shot", "not found"));
            Runner::OneShot(program)
        } else {
            Runner::Engine(e)
        };
        let planted = args.iter().any(|a| a == "--planted");
        engs.push(Box::new(Bench { info, runner, planted, counters: counters.clone() }));
    }
    engs
}

/// What the cases came to.
#[derive(Default)]
struct Tally {
    gen_ns: u64,
    check_total_ns: u64,
    results: BTreeMap<String, u64>,
    found: Vec<(crosscheck_smt::SmtCase, crosscheck_core::Evidence)>,
    /// Where the time goes: per logic and seed, (instances, seconds, timeouts, skipped
    /// instances).
    by_logic: BTreeMap<String, (u64, f64, u64, u64)>,
}

impl Tally {
    fn add(&mut self, case: &crosscheck_smt::SmtCase, r: Check, secs: f64, reduce_n: usize) {
        let key = format!("{} {}", case.logic.as_deref().unwrap_or("-"), case.seed);
        let slot = self.by_logic.entry(key).or_default();
        slot.0 += 1;
        slot.1 += secs;
        slot.2 += u64::from(matches!(&r, Check::Skip(s) if s.contains("timeout")));
        slot.3 += u64::from(matches!(&r, Check::Skip(s) if s.contains("skipped")));
        let key = match r {
            Check::Pass { nonempty: true } => "pass(sat)".to_string(),
            Check::Pass { nonempty: false } => {
                format!("pass(no sat) tactic {}", case.tactic.as_deref().unwrap_or("none"))
            }
            Check::Skip(s) => format!("skip: {}", s.chars().take(60).collect::<String>()),
            Check::Finding(e) => {
                let k = format!("FINDING {} {} {}", e.class, e.engine_label(), e.key);
                if self.found.len() < reduce_n {
                    self.found.push((case.clone(), *e));
                }
                k
            }
        };
        *self.results.entry(key).or_default() += 1;
    }
}

fn print_report(tally: &Tally, counters: &Counters, infos: &[EngineInfo], head: &str, cases: u64, wall: f64) {
    let solve = counters.ns.load(Ordering::Relaxed) as f64 / 1e9;
    let gen_s = tally.gen_ns as f64 / 1e9;
    let check_s = (tally.check_total_ns as f64 / 1e9 - solve).max(0.0);
    let n_calls = counters.calls.load(Ordering::Relaxed);
    let versions: Vec<String> = infos.iter().map(|i| format!("{} {}", i.label, i.version)).collect();
    println!("engines: {}   {head}", versions.join(", "));
    println!("instances/s:       {:.1}", cases as f64 / wall);
    println!("solver calls/s:    {:.1}", n_calls as f64 / wall);
    println!("time split:        generate {gen_s:.3}s  solve {solve:.3}s  check {check_s:.3}s  (wall {wall:.3}s)");
    println!("harness/solver:    {:.1}%", 100.0 * (gen_s + check_s) / solve.max(1e-9));
    println!(
        "decided calls:     {:.1}% (sat/unsat, can reveal a bug)",
        100.0 * counters.decided.load(Ordering::Relaxed) as f64 / n_calls.max(1) as f64
    );
    for (k, v) in &tally.results {
        println!("  {v:6}  {k}");
    }
    println!("time by logic and seed (instances, seconds, timeouts, skipped):");
    for (l, (n, secs, t, sk)) in &tally.by_logic {
        println!("  {l:32} {n:6} {secs:8.1}s {t:5} {sk:5}");
    }
}

/// STORM's RQ4 measure: size (bytes of the instance, assertions) before and after reducing
/// each finding within `reduce_secs`.
fn reduce_findings(
    found: Vec<(crosscheck_smt::SmtCase, crosscheck_core::Evidence)>,
    oracle: crosscheck_smt::SmtOracle,
    engs: &mut [Box<dyn Engine>],
    infos: &[EngineInfo],
    copts: &CheckOptions,
    args: &[String],
) {
    let kind = SmtKind;
    let storm_only = args.iter().any(|a| a == "--storm-only");
    let fast_only = args.iter().any(|a| a == "--fast-only");
    let reduce_secs: u64 = arg(args, "--reduce-secs").and_then(|c| c.parse().ok()).unwrap_or(60);
    let mut reductions = Vec::new();
    for (case, ev) in found {
        let deadline = Instant::now() + Duration::from_secs(reduce_secs);
        let shrink_time = std::cell::Cell::new(0.0f64);
        let t = Instant::now();
        let (small, stats) = crosscheck_core::reduce::reduce(
            case.clone(),
            |c| {
                let mut it = kind.shrink_lazy(c);
                let shrink_time = &shrink_time;
                std::iter::from_fn(move || {
                    let t = Instant::now();
                    let v = it.next();
                    shrink_time.set(shrink_time.get() + t.elapsed().as_secs_f64());
                    v
                })
            },
            |c| kind.size(c),
            |c| {
                use crosscheck_smt::minimize::MinState;
                let fast = matches!(c.min, Some(MinState::Ddmin { .. } | MinState::Syntax { .. }));
                if (storm_only && fast) || (fast_only && !fast) {
                    return false;
                }
                matches!(kind.check(oracle, c, engs, copts), Check::Finding(e) if e.same_failure(&ev))
            },
            deadline,
        );
        let (b0, b1) = (case.script_for(&infos[0]).len(), small.script_for(&infos[0]).len());
        let r = 100.0 * (1.0 - b1 as f64 / b0.max(1) as f64);
        println!(
            "reduced: {b0} -> {b1} bytes ({r:.1}%), size {} -> {}, {} -> {} assertions, {} tries, {:.1}s (shrink {:.1}s){}, ends at {:?}",
            stats.size_before,
            stats.size_after,
            case.asserts().count(),
            small.asserts().count(),
            stats.tries,
            t.elapsed().as_secs_f64(),
            shrink_time.get(),
            if stats.timed_out { " (time bound)" } else { "" },
            small.min,
        );
        reductions.push(r);
    }
    if !reductions.is_empty() {
        reductions.sort_by(|a, b| a.total_cmp(b));
        println!("median size reduction: {:.1}% over {} findings", reductions[reductions.len() / 2], reductions.len());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let oracle_name = arg(&args, "--oracle").unwrap_or_else(|| "storm".into());
    let Some(oracle) = <crosscheck_smt::SmtOracle as crosscheck_core::Oracle>::parse(&oracle_name) else {
        eprintln!("bench: unknown oracle {oracle_name}");
        std::process::exit(2);
    };
    let cases: u64 = arg(&args, "--cases").and_then(|c| c.parse().ok()).unwrap_or(2000);
    let seed: u64 = arg(&args, "--seed").and_then(|c| c.parse().ok()).unwrap_or(1);
    let timeout = Duration::from_millis(arg(&args, "--timeout-ms").and_then(|c| c.parse().ok()).unwrap_or(10_000));
    let scratch = tempfile::tempdir().unwrap_or_else(|e| die("temp dir", e));
    let seeds_dir = seeds_dir(&args, scratch.path());
    let kind = SmtKind;
    let factories = crosscheck_engines::smt::registry();
    let open = |s: &EngineSpec| crosscheck_engines::open_engine(&factories, s);
    let counters = Arc::new(Counters::default());
    let mut engs = open_solvers(&args, &factories, &counters);
    let infos: Vec<EngineInfo> = engs.iter().map(|e| e.info().clone()).collect();
    let random = args.iter().any(|a| a == "--random");
    let reduce_n: usize = arg(&args, "--reduce").and_then(|c| c.parse().ok()).unwrap_or(0);
    let opts = GenOptions { seed, seeds_dir: (!random).then_some(seeds_dir) };
    let mut smt_gen =
        crosscheck_smt::generator::SmtGenerator::new(&opts, &infos).unwrap_or_else(|e| die("generator", e));
    if let Some(n) = arg(&args, "--per-seed").and_then(|c| c.parse().ok()) {
        smt_gen.params.mutants_per_seed = n;
    }
    let mut gen: Box<dyn crosscheck_core::Generator<crosscheck_smt::SmtCase, crosscheck_smt::SmtOracle>> =
        Box::new(smt_gen);
    let copts = CheckOptions { timeout };
    // The reference solvers, as a worker has them.
    let mut helpers = crosscheck_core::Helpers::new(&open, kind.helpers(&infos));
    let mut tally = Tally::default();
    let start = Instant::now();
    for i in 0..cases {
        let t0 = Instant::now();
        let case = kind.materialize(gen.case(i, oracle), &infos, &mut helpers, &copts);
        if std::env::var_os("BENCH_DUMP").is_some() {
            eprintln!(
                "case {i}: seed {} asserts {} bytes {} tactic {:?} incr {}",
                case.seed,
                case.asserts().count(),
                case.script_for(&infos[0]).len(),
                case.tactic,
                case.incremental
            );
        }
        let t1 = Instant::now();
        tally.gen_ns += crosscheck_core::nanos(t1 - t0);
        let r = kind.check_with(oracle, &case, &mut engs, &mut helpers, &copts);
        tally.check_total_ns += crosscheck_core::nanos(t1.elapsed());
        tally.add(&case, r, t1.elapsed().as_secs_f64(), reduce_n);
    }
    let wall = start.elapsed().as_secs_f64();
    let head = format!("oracle: {oracle}   cases: {cases}   seed: {seed}");
    print_report(&tally, &counters, &infos, &head, cases, wall);
    let found = std::mem::take(&mut tally.found);
    reduce_findings(found, oracle, &mut engs, &infos, &copts, &args);
}
