//! Which SQL constructs the generator writes for a set of engines, and how they fare: per
//! construct, the share of tests that contain it, and among those the share that ran (no
//! expected error skipped them, no unexpected error), the share that returned rows, and the
//! share that found something.
//!
//! `cargo run --release -p crosscheck-sql --example constructs -- ENGINES [ORACLES [CHECKS [SEED]]]`
//! e.g. `-- postgres tlp,norec,config 4000 1`. The construct names are those of
//! `signature::constructs` (the signature's features, set operations by name), plus `simple-case`
//! and `limit`. `WHY=construct` prints why each test holding that construct did not run
//! (`WHY='(all)'`: every test).

use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, EngineSpec, FindingClass, GenOptions, Kind, Oracle};
use crosscheck_sql::ast::{Expr, Select};
use crosscheck_sql::{SqlCase, SqlKind, SqlOracle};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Default)]
struct Tally {
    tests: u64,
    ran: u64,
    nonempty: u64,
    findings: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let names: Vec<&str> = args.get(1).map_or("sqlite", String::as_str).split(',').collect();
    let oracles: Vec<SqlOracle> = args
        .get(2)
        .map_or("tlp,norec", String::as_str)
        .split(',')
        .map(|o| SqlOracle::parse(o).unwrap_or_else(|| panic!("unknown oracle {o}")))
        .collect();
    let n: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let seed: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let opts = CheckOptions { timeout: Duration::from_secs(5) };
    // `WHY=construct` prints why the tests holding that construct did not run.
    let why = std::env::var("WHY").ok();
    let mut engines: Vec<Box<dyn Engine>> = names
        .iter()
        .map(|n| {
            let spec = EngineSpec::parse(n).unwrap_or_else(|e| panic!("engine spec: {e}"));
            crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
                .unwrap_or_else(|e| panic!("engine opens: {e}"))
        })
        .collect();
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let kind = SqlKind;
    let mut gen = kind.generator(&GenOptions { seed, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut prepared = None;
    for i in 0..n {
        let oracle = oracles[crosscheck_core::position(i, oracles.len())];
        let case = gen.case(i, oracle);
        if prepared != Some(kind.setup_id(&case)) {
            // A setup error shows as the first check's error; the database is loaded either way.
            let _ = kind.prepare(&case, &mut engines, &opts);
            prepared = Some(kind.setup_id(&case));
        }
        let check = kind.check(case.oracle, &case, &mut engines, &opts);
        let (ran, nonempty, found) = match &check {
            Check::Pass { nonempty } => (true, *nonempty, false),
            Check::Skip(_) => (false, false, false),
            Check::Finding(ev) => (ev.class != FindingClass::Error, false, true),
        };
        for c in constructs(&case) {
            if why.as_deref() == Some(c.as_str()) && !ran {
                match &check {
                    Check::Skip(reason) => println!("{c} skipped at check {i}: {reason}"),
                    Check::Finding(ev) => println!("{c} failed at check {i}: {} {}", ev.summary, ev.actual),
                    Check::Pass { .. } => {}
                }
            }
            let t = tallies.entry(c).or_default();
            t.tests += 1;
            t.ran += u64::from(ran);
            t.nonempty += u64::from(nonempty);
            t.findings += u64::from(found);
        }
    }
    println!("{} checks on {} ({})", n, names.join(","), args.get(2).map_or("tlp,norec", String::as_str));
    println!("{:<28} {:>8} {:>7} {:>7} {:>9} {:>8}", "construct", "tests", "share", "valid", "non-empty", "findings");
    let all = tallies.get("(all)").map_or(1, |t| t.tests.max(1)) as f64;
    for (name, t) in &tallies {
        let pct = |x: u64| 100.0 * x as f64 / t.tests.max(1) as f64;
        let share = 100.0 * t.tests as f64 / all;
        println!(
            "{name:<28} {:>8} {:>6.1}% {:>6.1}% {:>8.1}% {:>8}",
            t.tests,
            share,
            pct(t.ran),
            pct(t.nonempty),
            t.findings
        );
    }
}

/// The constructs of a case (`signature::constructs`), `simple-case` and `limit`.
fn constructs(case: &SqlCase) -> Vec<String> {
    let mut out: Vec<String> = crosscheck_sql::signature::constructs(case).into_iter().collect();
    let mut simple_case = false;
    case.query.select.visit_exprs(&mut |e| simple_case |= matches!(e, Expr::Case { operand: Some(_), .. }));
    if let Some(p) = &case.query.pred {
        p.visit(&mut |e| simple_case |= matches!(e, Expr::Case { operand: Some(_), .. }));
    }
    if simple_case {
        out.push("simple-case".into());
    }
    if limited(&case.query.select) {
        out.push("limit".into());
    }
    out.push("(all)".into());
    out
}

fn limited(s: &Select) -> bool {
    let mut found = s.limit.is_some() || s.offset.is_some();
    s.visit_exprs(&mut |e| found |= e.subquery().is_some_and(limited));
    found || s.inner_selects().into_iter().any(limited)
}
