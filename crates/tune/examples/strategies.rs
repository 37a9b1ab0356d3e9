//! Benchmark: the four strategies over several seeds on one target, with default vs tuned
//! resolved counts and the tuning cost (evaluations, tool runs, CPU charged, wall time).
//!
//! ```text
//! cargo run --release -p crosscheck-tune --example strategies -- \
//!     z3|z3-counter|cvc5|clingo|eva WORKLOAD LIMIT SEEDS [MAX_LEN I_DOM I_SET WORKERS [ALGOS]]
//! ```
//! ALGOS (default `rs,dars,sa,hc`) lets two processes share the strategies of one comparison.
//! For eva every program of the workload is tuned on its own and the figures are summed.
//! `z3-counter` charges z3's `rlimit` units (LIMIT is then a number of units): its runs are
//! deterministic, so every search of a unit shares one evaluator and a recipe evaluated by an
//! earlier search is not run again (`runs` and `cpu_s` count only the runs a search added;
//! `evaluations` counts what the search asked for), and the winner is not measured again.

use crosscheck_tune::targets::{clingo::Clingo, eva, smt};
use crosscheck_tune::{optimize, Algo, Evaluator, Params, Target};
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 4 {
        eprintln!(
            "usage: strategies z3|cvc5|clingo|eva WORKLOAD LIMIT_SECS SEEDS [MAX_LEN I_DOM I_SET WORKERS [ALGOS]]"
        );
        std::process::exit(2);
    }
    let num = |i: usize, d: usize| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let counter = a[0] == "z3-counter";
    let limit = if counter {
        Duration::from_nanos(a[2].parse().unwrap_or(50_000_000))
    } else {
        Duration::from_secs_f64(a[2].parse().unwrap_or(10.0))
    };
    let seeds = num(3, 5) as u64;
    let (max_len, i_dom, i_set, workers) = (num(4, 3), num(5, 5), num(6, 10), num(7, 1));
    let units = match targets(&a[0], Path::new(&a[1])) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("strategies: {e}");
            std::process::exit(2);
        }
    };
    let mut shared: Vec<Evaluator<'_>> = units.iter().map(|u| Evaluator::new(u.as_ref(), limit, workers)).collect();
    println!("algo seed default tuned evaluations runs {} wall_s recipe", if counter { "units" } else { "cpu_s" });
    let chosen = a.get(8).map_or("rs,dars,sa,hc", String::as_str);
    for algo in Algo::ALL.into_iter().filter(|x| chosen.split(',').any(|c| c == x.name())) {
        for seed in 0..seeds {
            let confirm = usize::from(!counter);
            let p = Params { algo, seed, max_len, i_dom, i_set, confirm, ..Params::default() };
            let (mut d, mut t, mut evals, mut runs, mut cpu) = (0, 0, 0, 0, 0.0);
            let mut recipe = String::new();
            let start = Instant::now();
            for (k, unit) in units.iter().enumerate() {
                let mut fresh = Evaluator::new(unit.as_ref(), limit, workers);
                let ev = if counter { &mut shared[k] } else { &mut fresh };
                let before = (ev.evaluations, ev.runs, ev.charged);
                match optimize(ev, &p) {
                    Ok(r) => {
                        d += r.default.resolved();
                        t += r.best.resolved();
                        recipe = unit.space().describe(&r.best.recipe);
                    }
                    Err(e) => eprintln!("strategies: {}: {e}", unit.name()),
                }
                evals += ev.evaluations - before.0;
                runs += ev.runs - before.1;
                let charged = ev.charged - before.2;
                cpu += if counter { charged.as_nanos() as f64 } else { charged.as_secs_f64() };
                if !ev.findings.is_empty() {
                    eprintln!("strategies: {}: {} disagreements", unit.name(), ev.findings.len());
                }
            }
            let wall = start.elapsed().as_secs_f64();
            println!("{} {seed} {d} {t} {evals} {runs} {cpu:.1} {wall:.1} {recipe}", algo.name());
        }
    }
}

fn targets(kind: &str, workload: &Path) -> Result<Vec<Box<dyn Target>>, String> {
    let tool = match kind {
        "eva" => "frama-c",
        "z3-counter" => "z3",
        k => k,
    };
    let bin = crosscheck_engines::transport::process::find_tool(tool).ok_or(format!("{tool} not found"))?;
    let e = |e: crosscheck_tune::TargetError| e.to_string();
    Ok(match kind {
        "z3" => vec![Box::new(smt::Smt::new(smt::Solver::Z3, &bin, workload).map_err(e)?)],
        "z3-counter" => {
            vec![Box::new(smt::Smt::new(smt::Solver::Z3, &bin, workload).map_err(e)?.counting().map_err(e)?)]
        }
        "cvc5" => vec![Box::new(smt::Smt::new(smt::Solver::Cvc5, &bin, workload).map_err(e)?)],
        "clingo" => vec![Box::new(Clingo::new(&bin, workload).map_err(e)?)],
        "eva" => {
            let mut v: Vec<Box<dyn Target>> = Vec::new();
            for (name, files, extra) in eva::programs(workload).map_err(e)? {
                v.push(Box::new(eva::Eva::new(&bin, &name, &files, &extra).map_err(e)?));
            }
            v
        }
        other => return Err(format!("unknown target {other}")),
    })
}
