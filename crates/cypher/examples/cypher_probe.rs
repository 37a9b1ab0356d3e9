//! Loads a graph script and runs queries on each named engine, printing every answer with its
//! value types (`Int(1)`, `Float(1.0)`): the tool for checking a finding, or a dialect
//! question, on the real engines side by side. The script's statements end with `;` and a
//! newline (the leg's graph script; a schema-first engine needs its own DDL first).
//!
//! `cargo run --release -p crosscheck-cypher --example cypher_probe -- ENGINES SCRIPT QUERY...`
//! (ENGINES comma-separated engine specs; an argument that is not a file is the text itself;
//! grafeo needs `--features crosscheck-engines/grafeo`).

use crosscheck_core::{Engine, EngineSpec, Outcome};
use std::time::Duration;

fn text_of(arg: &str) -> String {
    std::fs::read_to_string(arg).unwrap_or_else(|_| arg.to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [engines, script, queries @ ..] = args.as_slice() else {
        eprintln!("usage: cypher_probe ENGINES SCRIPT QUERY...");
        std::process::exit(2);
    };
    let limit = Duration::from_secs(20);
    let script = text_of(script);
    for spec in engines.split(',') {
        let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("engine spec: {e}"));
        let mut e: Box<dyn Engine> = crosscheck_engines::open_engine(&crosscheck_engines::cypher::registry(), &spec)
            .unwrap_or_else(|e| panic!("engine opens: {e}"));
        println!("=== {} {}", e.info().label, e.info().version);
        e.reset().unwrap_or_else(|err| panic!("reset: {err}"));
        if !script.trim().is_empty() {
            match e.run(&script, limit) {
                Outcome::Done | Outcome::Rows(_) => {}
                other => println!("load: {other}"),
            }
        }
        for q in queries {
            match e.run(&text_of(q), limit) {
                Outcome::Rows(r) => {
                    println!("-- {} row(s) {:?}", r.rows.len(), r.columns);
                    for row in &r.rows {
                        println!("   {row:?}");
                    }
                }
                other => println!("-- {other}"),
            }
        }
    }
}
