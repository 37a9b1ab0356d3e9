//! How many options each installed solver lists and how many the leg may sample
//! (`crosscheck_smt::options`), with the time the listing took; `--list` prints the kept ones.
//!
//! `cargo run --release -p crosscheck-smt --example smt_options -- [--list] [ENGINE...]`

use crosscheck_core::EngineSpec;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    let mut specs: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    if specs.is_empty() {
        specs = vec!["z3", "z3=/usr/bin/z3", "cvc5", "cvc5-py", "cvc4", "yices", "bitwuzla"];
    }
    let factories = crosscheck_engines::smt::registry();
    println!("{:<18} {:>8} {:>6} {:>9}", "solver", "listed", "safe", "open ms");
    for s in specs {
        let Ok(spec) = EngineSpec::parse(s) else { continue };
        let start = Instant::now();
        match crosscheck_engines::open_engine(&factories, &spec) {
            Ok(e) => {
                let ms = start.elapsed().as_millis();
                let info = e.info();
                let safe = crosscheck_smt::options::safe(info);
                println!("{:<18} {:>8} {:>6} {:>9}   {}", s, info.options.len(), safe.len(), ms, info.version);
                if list {
                    for (k, v) in &safe {
                        println!("    {k} {}", v.join("|"));
                    }
                }
            }
            Err(e) => println!("{s:<18} cannot open: {e}"),
        }
    }
}
