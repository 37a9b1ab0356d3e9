//! How the generated seeds fare on real solvers: for each theory family, the share of its
//! seeds each solver accepts (answers sat, unsat or unknown without an error) and how many two
//! solvers answer differently.
//!
//! cargo run --release -p crosscheck-smt --example seedgen_check -- [--per 20] [--engines z3,cvc5]
//!     [--families QF_S,QF_FP] [--timeout 5] [--show-errors]

use crosscheck_core::engine::EngineSpec;
use crosscheck_core::{Outcome, Verdict};
use crosscheck_smt::seedgen::{seed_of, Allow, FAMILIES};
use crosscheck_smt::solvers;
use std::time::Duration;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let per: u64 = arg("--per").and_then(|s| s.parse().ok()).unwrap_or(20);
    let timeout = Duration::from_secs(arg("--timeout").and_then(|s| s.parse().ok()).unwrap_or(5));
    let names = arg("--engines").unwrap_or_else(|| "z3,cvc5".into());
    let only = arg("--families");
    let show = std::env::args().any(|a| a == "--show-errors");
    let registry = crosscheck_engines::smt::registry();
    let mut engines = Vec::new();
    for n in names.split(',') {
        let spec = match EngineSpec::parse(n) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{n}: {e}");
                std::process::exit(2);
            }
        };
        match crosscheck_engines::open_engine(&registry, &spec) {
            Ok(e) => engines.push(e),
            Err(e) => eprintln!("{n}: {}", e.message),
        }
    }
    print!("{:<12}", "family");
    for e in &engines {
        print!(" {:>16}", e.info().label);
    }
    println!(" {:>9}", "disagree");
    for f in FAMILIES {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|x| x == f.name)) {
            continue;
        }
        let mut accepted = vec![0u64; engines.len()];
        let mut offered = vec![0u64; engines.len()];
        let mut disagree = 0;
        for i in 0..per {
            let mut rng = crosscheck_core::rng(1, i);
            let text = seed_of(&mut rng, f, Allow { const_arrays: true, small_floats: false, wide_chars: true });
            let mut verdicts = Vec::new();
            for (k, e) in engines.iter_mut().enumerate() {
                let mut caps = crosscheck_smt::generator::required_caps(f.logic);
                caps.extend(f.caps);
                if !caps.iter().all(|c| solvers::has(e.info(), c)) {
                    continue;
                }
                offered[k] += 1;
                match e.run(&text, timeout) {
                    Outcome::Verdicts { answers, .. } => {
                        accepted[k] += 1;
                        if let Some(v @ (Verdict::Sat | Verdict::Unsat)) = answers.first() {
                            verdicts.push(*v);
                        }
                    }
                    Outcome::Timeout { .. } => accepted[k] += 1,
                    other => {
                        if show {
                            eprintln!("--- {} {}: {other}\n{text}", f.name, e.info().label);
                        }
                    }
                }
            }
            if verdicts.windows(2).any(|w| w[0] != w[1]) {
                disagree += 1;
                if show {
                    eprintln!("--- {} disagreement {verdicts:?}\n{text}", f.name);
                }
            }
        }
        print!("{:<12}", f.name);
        for k in 0..engines.len() {
            if offered[k] == 0 {
                print!(" {:>16}", "-");
            } else {
                print!(" {:>10}/{:<5}", accepted[k], offered[k]);
            }
        }
        println!(" {disagree:>9}");
    }
}
