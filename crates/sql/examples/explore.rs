//! Runs checks of one oracle on one engine until the first finding, reduces it with the
//! finding's own oracle and prints the reduced reproducer: the tool for investigating a finding.
//!
//! `cargo run --release -p crosscheck-sql --example explore -- ORACLE SEED [CHECKS [ENGINE]]`

use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, GenOptions, Kind};
use crosscheck_sql::SqlKind;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let oracle = args.get(1).map_or("tlp", String::as_str);
    let Some(oracle) = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle) else {
        eprintln!("explore: unknown oracle {oracle}");
        std::process::exit(2);
    };
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let n: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let names: Vec<&str> = args.get(4).map_or("sqlite", String::as_str).split(',').collect();
    let opts = CheckOptions { timeout: Duration::from_secs(5) };
    let kind = SqlKind;
    let mut engines: Vec<Box<dyn Engine>> = names
        .iter()
        .map(|n| {
            let spec = EngineSpec::parse(n).unwrap_or_else(|e| panic!("engine spec: {e}"));
            crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
                .unwrap_or_else(|e| panic!("engine opens: {e}"))
        })
        .collect();
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let gopts = GenOptions { seed, seeds_dir: None };
    let mut gen = kind.generator(&gopts, &infos).unwrap_or_else(|e| panic!("generator: {e}"));
    let mut setup: Option<(u64, bool)> = None;
    for i in 0..n {
        let case = gen.case(i, oracle);
        if setup.map(|s| s.0) != Some(kind.setup_id(&case)) {
            let p = kind.prepare(&case, &mut engines, &opts);
            setup = Some((kind.setup_id(&case), matches!(p, Check::Pass { .. })));
            if let Check::Finding(e) = p {
                println!("setup finding at {i}: {}", e.summary);
            }
        }
        if !setup.is_some_and(|s| s.1) {
            continue;
        }
        if let Check::Finding(ev) = kind.check(oracle, &case, &mut engines, &opts) {
            println!("finding at check {i}: {} [{}]", ev.summary, ev.key);
            let deadline = Instant::now() + Duration::from_secs(60);
            let reduced =
                crosscheck_core::worker::reduce_offline(&kind, oracle, &case, &ev, &mut engines, &opts, deadline);
            // Without an accepted step there is nothing smaller: the found case is the reproducer.
            let (small, ev2) = match reduced {
                Some(r) => {
                    println!("reduced {} -> {} ({} tries)", r.stats.size_before, r.stats.size_after, r.stats.tries);
                    (serde_json::from_value(r.case).unwrap_or_else(|e| panic!("reduced case: {e}")), r.evidence)
                }
                None => (case.clone(), *ev),
            };
            for (name, text) in kind.reproducers("reduced", oracle, &small, &ev2, &infos) {
                println!("==== {name}\n{text}");
            }
            println!("signature: {}", kind.signature(oracle, &small, &ev2));
            return;
        }
    }
    println!("no finding in {n} checks");
}
