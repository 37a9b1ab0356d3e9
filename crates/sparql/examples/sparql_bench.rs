//! Throughput of the SPARQL leg's differential oracle on RD²'s work shape: 10,000 generated
//! queries, each run on every store (RD²: 10 rounds x 50 triples x 1,000 queries over three
//! stores in 94.5 s, about 10.6 queries/s), one thread, with the generate / execute / check
//! split. The leg's rounds are its own (a new graph every `QUERIES_PER_ROUND` queries), so the
//! query count is RD²'s and the graphs are the leg's.
//!
//! `cargo run --release -p crosscheck-sparql --example sparql_bench [-- QUERIES [ENGINES]]`
//! (default `10000 oxigraph,jena,virtuoso`). Execute time is the time spent inside engine calls
//! (loading each round's graph included), also printed per store; check time is everything
//! else after generation (printing, normalizing, comparing). With `SPARQL_BENCH_SLOW=DIR`, every call of a
//! second or more is written to DIR (the query and the graph it ran on).

use crosscheck_core::timed::Timed;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, GenOptions, Kind};
use crosscheck_sparql::{SparqlKind, SparqlOracle};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Tally {
    pass: u64,
    nonempty: u64,
    skip: u64,
    findings: u64,
    /// Why checks were skipped, with numbers masked, and how often: a store that stalls
    /// shows here as timeouts.
    reasons: BTreeMap<String, u64>,
}

fn reason_key(why: &str) -> String {
    let mut key = String::new();
    for c in why.chars().take(100) {
        if !c.is_ascii_digit() {
            key.push(c);
        } else if !key.ends_with('#') {
            key.push('#');
        }
    }
    key
}

/// A store's own time, and its queries that ran past a second, written to `$SPARQL_BENCH_SLOW/`
/// when that is set: a store that stalls shows which shapes stall it.
struct PerStore {
    inner: Box<dyn Engine>,
    ns: Arc<AtomicU64>,
    slow: Arc<AtomicU64>,
    /// The graph the store holds, written with a slow query so it can be run again by hand.
    data: String,
}

impl Engine for PerStore {
    fn info(&self) -> &EngineInfo {
        self.inner.info()
    }

    fn reset(&mut self) -> Result<(), crosscheck_core::SetupError> {
        let t = Instant::now();
        let r = self.inner.reset();
        self.ns.fetch_add(crosscheck_core::nanos(t.elapsed()), Ordering::Relaxed);
        r
    }

    fn run(&mut self, text: &str, limit: Duration) -> crosscheck_core::Outcome {
        let t = Instant::now();
        if text.contains("INSERT DATA") {
            self.data = text.to_string();
        }
        let r = self.inner.run(text, limit);
        let took = t.elapsed();
        self.ns.fetch_add(crosscheck_core::nanos(took), Ordering::Relaxed);
        if took >= Duration::from_secs(1) {
            let k = self.slow.fetch_add(1, Ordering::Relaxed);
            if let Ok(dir) = std::env::var("SPARQL_BENCH_SLOW") {
                let stem = format!("{dir}/{}-{k}", self.inner.info().label);
                let note = format!("# {:.2} s: {}\n{text}\n", took.as_secs_f64(), r.to_string().replace('\n', " "));
                let _ = std::fs::write(format!("{stem}.rq"), note);
                let _ = std::fs::write(format!("{stem}.ru"), &self.data);
            }
        }
        r
    }
}

/// A store's own counters: nanoseconds spent, calls of a second or more.
type Own = (Arc<AtomicU64>, Arc<AtomicU64>);

/// The stores, each counting into the shared execute time and its own.
fn open(specs: &str, exec: &Arc<AtomicU64>) -> (Vec<Box<dyn Engine>>, Vec<Own>) {
    let reg = crosscheck_engines::sparql::registry();
    let mut own = vec![];
    let engines = specs
        .split(',')
        .map(|s| {
            let spec = EngineSpec::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            let e = crosscheck_engines::open_engine(&reg, &spec).unwrap_or_else(|e| panic!("{s} does not open: {e}"));
            let (ns, slow) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
            own.push((ns.clone(), slow.clone()));
            let e = Box::new(PerStore { inner: e, ns, slow, data: String::new() });
            Box::new(Timed::new(e, exec.clone())) as Box<dyn Engine>
        })
        .collect();
    (engines, own)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let specs = args.get(2).map_or("oxigraph,jena,virtuoso", String::as_str);
    let exec = Arc::new(AtomicU64::new(0));
    let (mut engines, own) = open(specs, &exec);
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let kind = SparqlKind;
    let oracle = SparqlOracle::Differential;
    let mut gen = kind.generator(&GenOptions { seed: 1, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let opts = CheckOptions { timeout: Duration::from_secs(10) };
    let (mut gen_ns, mut other_ns, mut t, mut round) = (0u64, 0u64, Tally::default(), None);
    exec.store(0, Ordering::Relaxed);
    for (ns, _) in &own {
        ns.store(0, Ordering::Relaxed);
    }
    let start = Instant::now();
    for i in 0..n {
        let t0 = Instant::now();
        let case = gen.case(i, oracle);
        let t1 = Instant::now();
        gen_ns += crosscheck_core::nanos(t1 - t0);
        // As the campaign worker does: load the round's graph once.
        if round != Some(kind.setup_id(&case)) {
            round = Some(kind.setup_id(&case));
            kind.prepare(&case, &mut engines, &opts);
        }
        match kind.check(oracle, &case, &mut engines, &opts) {
            Check::Pass { nonempty } => {
                t.pass += 1;
                t.nonempty += u64::from(nonempty);
            }
            Check::Skip(why) => {
                t.skip += 1;
                *t.reasons.entry(reason_key(&why)).or_default() += 1;
            }
            Check::Finding(_) => t.findings += 1,
        }
        other_ns += crosscheck_core::nanos(t1.elapsed());
    }
    let wall = start.elapsed().as_secs_f64();
    let exec_s = exec.load(Ordering::Relaxed) as f64 * 1e-9;
    let (gen_s, check_s) = (gen_ns as f64 * 1e-9, other_ns as f64 * 1e-9 - exec_s);
    let versions: Vec<String> = infos.iter().map(|i| format!("{} {}", i.name, i.version)).collect();
    println!("SPARQL differential over {} (seed 1), one thread, {n} queries", versions.join(", "));
    println!(
        "{:.1} s: {:.1} queries/s ({:.1}x RD²'s 10.6/s); generate {:.2} s, execute {:.2} s, check {:.2} s",
        wall,
        n as f64 / wall,
        n as f64 / wall / 10.6,
        gen_s,
        exec_s,
        check_s
    );
    let valid = t.pass + t.findings;
    println!(
        "valid {:.1}%  non-empty {:.1}%  findings {}  skipped {}",
        valid as f64 / n as f64 * 100.0,
        t.nonempty as f64 / t.pass.max(1) as f64 * 100.0,
        t.findings,
        t.skip
    );
    for (info, (ns, slow)) in infos.iter().zip(&own) {
        let s = ns.load(Ordering::Relaxed) as f64 * 1e-9;
        println!("  {}: execute {s:.2} s, {} call(s) of 1 s or more", info.label, slow.load(Ordering::Relaxed));
    }
    let mut reasons: Vec<_> = t.reasons.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1));
    for (why, count) in reasons.iter().take(5) {
        println!("  skipped x{count}: {why}");
    }
}
