//! The Datalog engines (one line each in [`registry`]) and the answer parsing they share. The
//! printers and the program model live in the Datalog leg: an adapter only talks to its engine.
//!
//! Text protocol: an engine receives one program in its own dialect, printed by the leg, with
//! exactly one output relation; it answers `Outcome::Rows` with that relation's tuples
//! (numbers as `Value::Int`, symbols as `Value::Text`). Engine options for the `config`
//! oracle are part of the printed text (a `set-option`, a query option, or a first-line
//! comment the adapter reads with [`option_line`]), so `Engine::run(text)` is all it takes.
//! Engines report the dialect they speak; what a dialect can express is the leg's knowledge.
//! The leg's own reference evaluator is not here: the binary chains it onto this registry.

pub mod clingo;
pub mod cozo;
pub mod duckdb;
pub mod nemo;
pub mod postgres;
pub mod sqlite;
pub mod sqlleg;
pub mod swipl;
pub mod tool;
pub mod z3;
pub mod z3dl;

use crosscheck_core::{EngineFactory, Outcome, Rows, Value};

/// Every Datalog engine of this layer, one line each.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![
        &cozo::FACTORY,
        &nemo::FACTORY,
        &z3::FACTORY,
        &z3dl::FACTORY,
        &clingo::FACTORY,
        &swipl::FACTORY,
        &sqlite::FACTORY,
        &postgres::FACTORY,
        &duckdb::FACTORY,
    ]
}

/// The option named on a program's first line (`<prefix> crosscheck-option: NAME`), which the
/// leg's printers write for options an adapter applies itself.
pub fn option_line<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let first = text.lines().next()?;
    first.strip_prefix(prefix)?.trim().strip_prefix("crosscheck-option:").map(str::trim)
}

/// Rows named `c0`, `c1`, ... as every Datalog engine answers them (arity from the first row).
pub fn numbered_rows(rows: Vec<Vec<Value>>) -> Outcome {
    let arity = rows.first().map(Vec::len).unwrap_or(0);
    Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows))
}

/// One answer cell: a number, or a symbol bare or quoted (`"..."` or `'...'`).
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
