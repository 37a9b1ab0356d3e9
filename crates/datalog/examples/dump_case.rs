//! Prints one generated case in Soufflé syntax and in an engine's dialect, for investigation.
//!
//! ```text
//! cargo run -p crosscheck-datalog --example dump_case -- SEED INDEX ORACLE ENGINE
//! ```

use crosscheck_core::{EngineSpec, Generator};
use crosscheck_datalog::{common_caps, dialects, DatalogGen, Test};

/// The Datalog engines as the binary has them: the leg's reference evaluator, then the engines
/// layer's adapters.
fn registry() -> Vec<&'static dyn crosscheck_core::EngineFactory> {
    let mut r = vec![crosscheck_datalog::reference_engine()];
    r.extend(crosscheck_engines::datalog::registry());
    r
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(seed), Some(index), Some(oracle), Some(engine)) = (args.get(1), args.get(2), args.get(3), args.get(4))
    else {
        eprintln!("usage: dump_case SEED INDEX ORACLE ENGINE");
        std::process::exit(2);
    };
    let Some(oracle) = <crosscheck_datalog::DatalogOracle as crosscheck_core::Oracle>::parse(oracle) else {
        eprintln!("dump_case: unknown oracle {oracle}");
        std::process::exit(2);
    };
    let spec = EngineSpec { name: engine.clone(), location: None, label: None };
    let e: Box<dyn crosscheck_core::Engine> = match crosscheck_engines::open_engine(&registry(), &spec) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(2);
        }
    };
    let info = e.info().clone();
    let mut g = DatalogGen::new(seed.parse().unwrap_or(0), common_caps(std::slice::from_ref(&info)), vec![]);
    // `find` instead of an index: the first case with a finding (up to 5000).
    let index: u64 = if index == "find" {
        let mut es = vec![e];
        let opts = crosscheck_core::CheckOptions { timeout: std::time::Duration::from_secs(10) };
        let found = (0..5000u64).find(|&i| {
            let c = g.case(i, oracle);
            use crosscheck_core::Kind;
            matches!(crosscheck_datalog::DatalogKind.check(oracle, &c, &mut es, &opts), crosscheck_core::Check::Finding(ev) if { eprintln!("case {i}: {} | {} | {}", ev.summary, ev.expected, ev.actual); true })
        });
        found.unwrap_or(0)
    } else {
        index.parse().unwrap_or(0)
    };
    println!("// case {index}");
    let mut case = g.case(index, oracle);
    if std::env::var("REDUCE").is_ok() {
        use crosscheck_core::Kind;
        let spec = EngineSpec { name: engine.clone(), location: None, label: None };
        if let Ok(e) = crosscheck_engines::open_engine(&registry(), &spec) {
            let mut es = vec![e];
            let opts = crosscheck_core::CheckOptions { timeout: std::time::Duration::from_secs(10) };
            let k = crosscheck_datalog::DatalogKind;
            if let Some(ev) = crosscheck_core::worker::recheck(&k, oracle, &case, &mut es, &opts) {
                let (small, stats) = crosscheck_core::reduce::reduce(
                    case.clone(),
                    |c| k.shrink(c),
                    |c| k.size(c),
                    |c| {
                        crosscheck_core::worker::recheck(&k, oracle, c, &mut es, &opts)
                            .is_some_and(|e| e.same_failure(&ev))
                    },
                    std::time::Instant::now() + std::time::Duration::from_secs(120),
                );
                eprintln!("reduced {stats:?}");
                case = small;
            }
        }
    }
    let out = case.program.output().to_string();
    println!("// ---- original (Soufflé) ----\n{}", dialects::souffle::print(&case.program, &case.program.outputs));
    println!(
        "// ---- original ({}) ----\n{}",
        info.dialect,
        dialects::print(&info.dialect, &case.program, &out, None).unwrap_or_else(|e| e)
    );
    if let Test::Metamorphic { transformed, expect, steps, .. } = &case.test {
        println!(
            "// ---- transformed {expect:?} {steps:?} (Soufflé) ----\n{}",
            dialects::souffle::print(transformed, &transformed.outputs)
        );
        println!(
            "// ---- transformed ({}) ----\n{}",
            info.dialect,
            dialects::print(&info.dialect, transformed, &out, None).unwrap_or_else(|e| e)
        );
    }
}
