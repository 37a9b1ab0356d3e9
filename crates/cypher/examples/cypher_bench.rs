//! The Cypher leg's figures that GDsmith reports: the non-empty rate by query length (GDsmith:
//! 74/71/70/65% at 3/4/5/6 clauses on graphs of at most 10 entities), and queries/s with the
//! generate / execute / check split and the harness's share of wall time (target ≤ 25%). One
//! thread, the leg's own graphs (6–14 nodes, up to 20 relationships, a new graph every
//! `QUERIES_PER_ROUND` queries).
//!
//! `cargo run --release -p crosscheck-cypher --example cypher_bench [-- QUERIES [ENGINES [ORACLE [VARIANTS]]]]`
//! (default `3000 kuzu,falkordb differential gdsmith`). VARIANTS is a comma-separated list of
//! `gdsmith` (mutations and frequency feedback), `!m` (no mutations), `!f` (no frequency
//! feedback) and `!mf` (neither), the seed's ablations; each runs the same seed anew. A
//! query's length counts its clauses and its RETURN, as GDsmith's does.

use crosscheck_core::timed::Timed;
use crosscheck_core::Generator;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, Kind, Oracle};
use crosscheck_cypher::{dialect, CypherGen, CypherKind, CypherOracle};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn open(specs: &str, exec: &Arc<AtomicU64>) -> Vec<Box<dyn Engine>> {
    let reg = crosscheck_engines::cypher::registry();
    specs
        .split(',')
        .map(|s| {
            let spec = EngineSpec::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            let e = crosscheck_engines::open_engine(&reg, &spec).unwrap_or_else(|e| panic!("{s} does not open: {e}"));
            Box::new(Timed::new(e, exec.clone())) as Box<dyn Engine>
        })
        .collect()
}

/// Checks that ran and those that returned rows, by query length.
type ByLength = BTreeMap<usize, (u64, u64)>;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3000);
    let specs = args.get(2).map_or("kuzu,falkordb", String::as_str);
    let oracle_name = args.get(3).map_or("differential", String::as_str);
    let oracle = CypherOracle::ALL
        .iter()
        .copied()
        .find(|o| o.name() == oracle_name)
        .unwrap_or_else(|| panic!("no oracle {oracle_name}"));
    let variants = args.get(4).map_or("gdsmith", String::as_str);
    let exec = Arc::new(AtomicU64::new(0));
    let mut engines = open(specs, &exec);
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    CypherKind.validate(&[oracle], &infos).unwrap_or_else(|e| panic!("{e}"));
    for variant in variants.split(',') {
        let (mutate, feedback) = match variant {
            "gdsmith" => (true, true),
            "!m" => (false, true),
            "!f" => (true, false),
            "!mf" => (false, false),
            v => panic!("unknown variant {v}: gdsmith, !m, !f or !mf"),
        };
        let dialects = infos.iter().filter_map(|e| dialect::by_name(&e.dialect)).collect();
        let mut gen = CypherGen::new(1, dialects);
        (gen.mutate, gen.feedback) = (mutate, feedback);
        println!("== {variant}");
        run(&mut gen, n, oracle, &mut engines, &exec, specs);
    }
}

fn run(
    gen: &mut CypherGen,
    n: u64,
    oracle: CypherOracle,
    engines: &mut [Box<dyn Engine>],
    exec: &AtomicU64,
    specs: &str,
) {
    let kind = CypherKind;
    let opts = CheckOptions { timeout: Duration::from_secs(10) };
    let (mut gen_ns, mut round, mut by_len) = (0u64, None, ByLength::new());
    let (mut skips, mut findings) = (0u64, 0u64);
    exec.store(0, Ordering::Relaxed);
    let start = Instant::now();
    for i in 0..n {
        let t0 = Instant::now();
        let case = gen.case(i, oracle);
        gen_ns += crosscheck_core::nanos(t0.elapsed());
        if round != Some(kind.setup_id(&case)) {
            round = Some(kind.setup_id(&case));
            kind.prepare(&case, engines, &opts);
        }
        let len = case.query.clauses.len() + 1;
        let check = kind.check(oracle, &case, engines, &opts);
        gen.observe(i, &case, matches!(check, Check::Pass { nonempty: true }));
        match check {
            Check::Pass { nonempty } => {
                let e = by_len.entry(len).or_default();
                e.0 += 1;
                e.1 += u64::from(nonempty);
            }
            Check::Skip(_) => skips += 1,
            Check::Finding(_) => findings += 1,
        }
    }
    let wall = start.elapsed().as_secs_f64();
    let execute = Duration::from_nanos(exec.load(Ordering::Relaxed)).as_secs_f64();
    let generate = Duration::from_nanos(gen_ns).as_secs_f64();
    let check = (wall - execute - generate).max(0.0);
    println!("{n} queries, oracle {}, engines {specs}: {wall:.1} s, {:.1} queries/s", oracle.name(), n as f64 / wall);
    println!(
        "generate {generate:.2} s, execute {execute:.2} s, check {check:.2} s: harness {:.1}% of wall time",
        100.0 * (generate + check) / wall
    );
    let passed: u64 = by_len.values().map(|v| v.0).sum();
    let nonempty: u64 = by_len.values().map(|v| v.1).sum();
    println!(
        "passed {passed} ({:.1}% non-empty), skipped {skips}, findings {findings}",
        100.0 * nonempty as f64 / passed.max(1) as f64
    );
    println!("length  checks  non-empty");
    for (len, (ran, nonempty)) in &by_len {
        println!("{len:>6}  {ran:>6}  {:>8.1}%", 100.0 * *nonempty as f64 / (*ran).max(1) as f64);
    }
}
