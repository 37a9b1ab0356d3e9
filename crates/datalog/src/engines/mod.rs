//! The engine registry (one line per engine) and the answer parsing adapters share. Printers
//! live in `crate::dialects`: an adapter only talks to its engine.
//!
//! Text protocol: an engine receives one program in its own dialect, printed by its printer,
//! with exactly one output relation; it answers `Outcome::Rows` with that relation's tuples
//! (numbers as `Value::Int`, symbols as `Value::Text`). Engine options for the `config`
//! oracle are part of the printed text (a `set-option`, a query option, or a first-line
//! comment the adapter reads), so `Engine::run(text)` is all the core needs.

pub mod clingo;
pub mod cozo;
pub mod duckdb;
pub mod nemo;
pub mod postgres;
pub mod recsql;
pub mod reference;
pub mod sqlite;
pub mod swipl;
pub mod z3;

use crosscheck_core::{EngineFactory, Value};

/// Every engine of the datalog leg, one line each.
pub fn factories() -> Vec<&'static dyn EngineFactory> {
    vec![
        &reference::Factory,
        &cozo::Factory,
        &nemo::Factory,
        &z3::Factory,
        &clingo::Factory,
        &swipl::Factory,
        &sqlite::Factory,
        &postgres::FACTORY,
        &duckdb::FACTORY,
    ]
}

/// Parses the answer text of engines that print one tuple per line, tab-separated, with
/// numbers bare and symbols quoted (`"..."` or `'...'`).
pub fn parse_tsv_rows(text: &str, arity: usize) -> Result<Vec<Vec<Value>>, String> {
    let mut rows = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != arity {
            return Err(format!("unexpected answer line: {line}"));
        }
        rows.push(cells.iter().map(|c| parse_cell(c)).collect());
    }
    Ok(rows)
}

pub fn parse_cell(c: &str) -> Value {
    let c = c.trim();
    if let Ok(n) = c.parse::<i64>() {
        return Value::Int(n);
    }
    for q in ['"', '\''] {
        if c.len() >= 2 && c.starts_with(q) && c.ends_with(q) {
            return Value::Text(unescape(&c[1..c.len() - 1]));
        }
    }
    Value::Text(c.to_string())
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}
