//! Prints one generated case in Soufflé syntax and in an engine's dialect, for investigation.
//!
//! ```text
//! cargo run -p crosscheck-datalog --example dump_case -- SEED INDEX ORACLE ENGINE
//! ```

use crosscheck_core::{EngineSpec, Generator};
use crosscheck_datalog::{common_caps, engines, DatalogGen, Test};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(seed), Some(index), Some(oracle), Some(engine)) = (args.get(1), args.get(2), args.get(3), args.get(4))
    else {
        eprintln!("usage: dump_case SEED INDEX ORACLE ENGINE");
        std::process::exit(2);
    };
    let spec = EngineSpec { name: engine.clone(), location: None, label: None };
    let e = match crosscheck_core::open_engine(&engines::factories(), &spec) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(2);
        }
    };
    let info = e.info().clone();
    let mut g = DatalogGen::new(seed.parse().unwrap_or(0), common_caps(std::slice::from_ref(&info)), vec![]);
    let case = g.case(index.parse().unwrap_or(0), oracle);
    let out = case.program.output().to_string();
    println!("// ---- original (Soufflé) ----\n{}", engines::souffle::print(&case.program, &case.program.outputs));
    println!(
        "// ---- original ({}) ----\n{}",
        info.dialect,
        engines::print(&info.dialect, &case.program, &out, None).unwrap_or_else(|e| e)
    );
    if let Test::Metamorphic { transformed, expect, steps, .. } = &case.test {
        println!(
            "// ---- transformed {expect:?} {steps:?} (Soufflé) ----\n{}",
            engines::souffle::print(transformed, &transformed.outputs)
        );
        println!(
            "// ---- transformed ({}) ----\n{}",
            info.dialect,
            engines::print(&info.dialect, transformed, &out, None).unwrap_or_else(|e| e)
        );
    }
}
