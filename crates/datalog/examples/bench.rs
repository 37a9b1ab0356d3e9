//! Benchmark of the datalog leg.
//!
//! ```text
//! cargo run --release -p crosscheck-datalog --example bench -- [--secs S] [--engines a,b] [--oracles o,p]
//! ```
//! Prints (1) generation alone: queryFuzz-style programs/s, queryFuzz transformations/s (and
//! micro-steps/s), DLSmith programs/s and transformed graphs/s, against queryFuzz's published
//! 47.6 programs/s and 303 transformations/s; (2) per engine and oracle, end to end: checks/s
//! with the generate / execute / check split, % valid, % non-empty and the findings' keys.

use crosscheck_core::{
    Check, CheckOptions, Engine, EngineInfo, EngineSpec, Generator, Kind, KindInfo, Outcome, SetupError,
};
use crosscheck_datalog::gen::{self, GenConfig};
use crosscheck_datalog::{common_caps, dlsmith, engines, qf, DatalogGen, DatalogKind};
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Timed {
    inner: Box<dyn Engine>,
    ns: Arc<AtomicU64>,
}

impl Engine for Timed {
    fn info(&self) -> &EngineInfo {
        self.inner.info()
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let t = Instant::now();
        let r = self.inner.run(text, limit);
        self.ns.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        r
    }
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn generation(secs: f64) {
    let caps = engines::reference::CAPS.iter().map(|s| s.to_string()).collect();
    let cfg = GenConfig::new(caps);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t = Instant::now();
    let mut programs = Vec::new();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        let p = gen::program(&mut rng, &cfg, None);
        if programs.len() < 200 {
            programs.push(p);
        }
        n += 1;
    }
    let pps = n as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (mut tr, mut steps, mut i) = (0u64, 0u64, 0usize);
    while t.elapsed().as_secs_f64() < secs {
        if let Some(x) = qf::transform(&mut rng, &programs[i % programs.len()], &cfg.caps, 20) {
            tr += 1;
            steps += x.steps.len() as u64;
        }
        i += 1;
    }
    let tps = tr as f64 / t.elapsed().as_secs_f64();
    let sps = steps as f64 / t.elapsed().as_secs_f64();
    println!("generation (queryFuzz-style): {pps:.0} programs/s ({:.0}x queryFuzz's 47.6)", pps / 47.6);
    println!(
        "transformation (queryFuzz):    {tps:.0} transformed programs/s ({:.0}x queryFuzz's 303), {sps:.0} micro-steps/s, {:.0}% of attempts applicable",
        tps / 303.0,
        100.0 * tr as f64 / i.max(1) as f64
    );
    let t = Instant::now();
    let mut dl = Vec::new();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        let p = dlsmith::generate(&mut rng, &cfg, None);
        if dl.len() < 100 {
            dl.push(p);
        }
        n += 1;
    }
    let dps = n as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (mut tr, mut steps, mut i) = (0u64, 0u64, 0usize);
    while t.elapsed().as_secs_f64() < secs {
        if let Some(x) = dlsmith::transform(&mut rng, &dl[i % dl.len()], &cfg, 100) {
            tr += 1;
            steps += x.steps.len() as u64;
        }
        i += 1;
    }
    let el = t.elapsed().as_secs_f64();
    println!("generation (DLSmith graphs):  {dps:.0} programs/s (DLSmith: 163/s)");
    println!(
        "transformation (DLSmith):     {:.0} transformed graphs/s (DLSmith: 2857/s, sequences up to 100), {:.0} steps/s",
        tr as f64 / el,
        steps as f64 / el
    );
}

fn end_to_end(names: &[String], oracle: &str, secs: f64) {
    let ns = Arc::new(AtomicU64::new(0));
    let factories = engines::factories();
    let mut es: Vec<Box<dyn Engine>> = Vec::new();
    for n in names {
        let spec = match EngineSpec::parse(n) {
            Ok(s) => s,
            Err(e) => {
                println!("{n}: {e}");
                return;
            }
        };
        match crosscheck_core::open_engine(&factories, &spec) {
            Ok(e) => es.push(Box::new(Timed { inner: e, ns: ns.clone() })),
            Err(e) => {
                println!("{:<28} {oracle:<12} skipped: {e}", names.join(","));
                return;
            }
        }
    }
    let infos: Vec<EngineInfo> = es.iter().map(|e| e.info().clone()).collect();
    if DatalogKind.validate(&[oracle.to_string()], &infos).is_err() {
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
        gen_ns += (t1 - t0).as_nanos() as u64;
        let r = DatalogKind.check(oracle, &case, &mut es, &opts);
        other_ns += t1.elapsed().as_nanos() as u64;
        tests += 1;
        match r {
            Check::Pass { nonempty: ne } => {
                valid += 1;
                nonempty += ne as u64;
            }
            Check::Skip(_) => {}
            Check::Finding(ev) => {
                valid += 1;
                *findings.entry(format!("{} {}", ev.engine, ev.key)).or_default() += 1;
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
    for o in &oracles {
        if o == "differential" {
            end_to_end(&engines, o, secs);
            continue;
        }
        for e in &engines {
            end_to_end(std::slice::from_ref(e), o, secs);
        }
    }
}
