//! The Cypher leg's figures that GDsmith reports: the non-empty rate by query length (GDsmith:
//! 74/71/70/65% at 3/4/5/6 clauses on graphs of at most 10 entities), and queries/s with the
//! generate / execute / check split and the harness's share of wall time (target ≤ 25%). One
//! thread, the leg's own graphs (6–14 nodes, up to 20 relationships, a new graph every
//! `QUERIES_PER_ROUND` queries).
//!
//! `cargo run --release -p crosscheck-cypher --example cypher_bench [-- QUERIES [ENGINES [ORACLE]]]`
//! (default `3000 kuzu,falkordb differential`). A query's length counts its clauses and its
//! RETURN, as GDsmith's does.

use crosscheck_core::timed::Timed;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, GenOptions, Kind, Oracle};
use crosscheck_cypher::{CypherKind, CypherOracle};
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
    let exec = Arc::new(AtomicU64::new(0));
    let mut engines = open(specs, &exec);
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let kind = CypherKind;
    kind.validate(&[oracle], &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut gen = kind.generator(&GenOptions { seed: 1, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
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
            kind.prepare(&case, &mut engines, &opts);
        }
        let len = case.query.clauses.len() + 1;
        match kind.check(oracle, &case, &mut engines, &opts) {
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
    println!("{n} queries, oracle {oracle_name}, engines {specs}: {wall:.1} s, {:.1} queries/s", n as f64 / wall);
    println!(
        "generate {generate:.2} s, execute {execute:.2} s, check {check:.2} s: harness {:.1}% of wall time",
        100.0 * (generate + check) / wall
    );
    println!("passed {}, skipped {skips}, findings {findings}", by_len.values().map(|v| v.0).sum::<u64>());
    println!("length  checks  non-empty");
    for (len, (ran, nonempty)) in &by_len {
        println!("{len:>6}  {ran:>6}  {:>8.1}%", 100.0 * *nonempty as f64 / (*ran).max(1) as f64);
    }
}
