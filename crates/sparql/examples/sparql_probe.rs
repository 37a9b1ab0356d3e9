//! Runs one update (the data) and then queries on each named store, printing every answer as
//! the store gave it: the tool for checking a finding, or a dialect question, on the real
//! stores side by side.
//!
//! `cargo run --release -p crosscheck-sparql --example sparql_probe -- STORES DATA.ru QUERY.rq...`
//! (STORES comma-separated engine specs; a query argument that is not a file is the text).

use crosscheck_core::{Engine, EngineSpec, Outcome};
use std::time::Duration;

fn text_of(arg: &str) -> String {
    std::fs::read_to_string(arg).unwrap_or_else(|_| arg.to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [stores, data, queries @ ..] = args.as_slice() else {
        eprintln!("usage: sparql_probe STORES DATA.ru QUERY.rq...");
        std::process::exit(2);
    };
    let limit = Duration::from_secs(20);
    let data = text_of(data);
    for spec in stores.split(',') {
        let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("engine spec: {e}"));
        let mut e: Box<dyn Engine> = crosscheck_engines::open_engine(&crosscheck_engines::sparql::registry(), &spec)
            .unwrap_or_else(|e| panic!("engine opens: {e}"));
        println!("=== {} {}", e.info().label, e.info().version);
        if !data.trim().is_empty() {
            match e.run(&data, limit) {
                Outcome::Done | Outcome::Rows(_) => {}
                other => println!("load: {other}"),
            }
        }
        for q in queries {
            let text = text_of(q);
            match e.run(&text, limit) {
                Outcome::Rows(r) => {
                    println!("-- {} row(s) {:?}", r.rows.len(), r.columns);
                    for row in &r.rows {
                        let cells: Vec<String> = row.iter().map(ToString::to_string).collect();
                        println!("   {}", cells.join(" | "));
                    }
                }
                other => println!("-- {other}"),
            }
        }
    }
}
