//! The oracles, one module each, and what they share: running a printed query on a store
//! (parsed back first), normalizing its answer, rendering answers for findings.

pub mod config;
pub mod differential;
pub mod partition;

use crate::model::Case;
use crate::normalize::{self, Norm};
use crate::print;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Oracle};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SparqlOracle {
    /// The same query on every store (RD²): answers grouped by agreement, errors a class.
    Differential,
    /// Ternary logic partitioning with SPARQL's error semantics, on each store alone.
    Partition,
    /// One store with its optimizer on and off (Oxigraph's own fuzzing comparison).
    Config,
}

impl Oracle for SparqlOracle {
    const ALL: &'static [SparqlOracle] = &[SparqlOracle::Differential, SparqlOracle::Partition, SparqlOracle::Config];

    fn name(self) -> &'static str {
        match self {
            SparqlOracle::Differential => "differential",
            SparqlOracle::Partition => "partition",
            SparqlOracle::Config => "config",
        }
    }
}

impl SparqlOracle {
    pub fn validate(self, engines: &[EngineInfo]) -> Result<(), String> {
        match self {
            SparqlOracle::Differential if engines.len() < 2 => Err(
                "the differential oracle needs two or more stores (e.g. --engines oxigraph,rdflib, or oxigraph,oxigraph@b)"
                    .into(),
            ),
            SparqlOracle::Config if !engines.iter().any(config::has_switch) => {
                Err("the config oracle needs a store with an optimizer switch (oxigraph, jena)".into())
            }
            _ => Ok(()),
        }
    }

    pub fn check(self, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        match self {
            SparqlOracle::Differential => {
                let dialects: Vec<_> =
                    engines.iter().filter_map(|e| crate::dialect::by_name(&e.info().dialect)).collect();
                differential::check(case, engines, opts, Norm::of(&dialects))
            }
            SparqlOracle::Partition => partition::check(case, engines, opts),
            SparqlOracle::Config => config::check(case, engines, opts),
        }
    }
}

pub use crosscheck_core::groups::{Ran, Transcript};

/// Runs `text` on `e` after parsing it back. `Err` carries the check to return at once: a
/// generator bug (skipped, never blamed on a store), a timeout (skipped) or a crash.
pub fn run(e: &mut dyn Engine, text: &str, opts: &CheckOptions) -> Result<Ran, Check> {
    if let Err(why) = print::parses(text) {
        return Err(Check::Skip(format!("generator bug: spargebra rejects the generated text: {why}")));
    }
    let out = e.run(text, opts.timeout);
    let dialect = crate::dialect::by_name(&e.info().dialect);
    let expected = |m: &str| dialect.is_some_and(|d| d.expected_error(m));
    Ran::read(&e.info().label, text, out, expected)
}

/// Runs and normalizes a query's answer on one store; blank nodes mapped to generator ids
/// when `map_bnodes` (stores label them their own way), else kept as the store's labels.
pub fn answer(
    e: &mut dyn Engine,
    case: &Case,
    text: &str,
    opts: &CheckOptions,
    norm: Norm,
    map_bnodes: bool,
) -> Result<Ran, Check> {
    let rows = match run(e, text, opts)? {
        Ran::Rows(r) => r,
        err @ Ran::Error(_) => return Ok(err),
    };
    let has_blank = rows.rows.iter().flatten().any(|v| matches!(v, crosscheck_core::Value::Blank(_)));
    let map = if map_bnodes && has_blank {
        match run(e, &normalize::bnode_query(), opts)? {
            Ran::Rows(m) => Some(normalize::bnode_map(&m)),
            Ran::Error(why) => return Ok(Ran::Error(format!("the blank-node mapping query failed: {why}"))),
        }
    } else {
        None
    };
    let project: Vec<String> = case.query.project.iter().map(|v| format!("v{v}")).collect();
    Ok(match normalize::normalize(&rows, &project, map.as_ref(), norm) {
        Some(mut r) => {
            normalize::settle(&mut r, &normalize::columns(&case.query));
            Ran::Rows(r)
        }
        None => Ran::Error(format!("answered columns {:?} for the projection {project:?}", rows.columns)),
    })
}

/// A message with each RDF literal it quotes (`"peter"@en-US`, `"1"^^<...#int>`) as `"_"`:
/// Jena names the term in "Unidentified predicate: ...", which made one bug 146 keys.
fn mask_literals(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        let Some(len) = rest[open + 1..].find('"') else { break };
        let after = &rest[open + len + 2..];
        out.push_str(&rest[..open]);
        if after.starts_with('@') || after.starts_with("^^") {
            out.push_str("\"_\"");
            let end = after.find(|c: char| c.is_whitespace() || c == ',' || c == ')').unwrap_or(after.len());
            rest = &after[end..];
        } else {
            out.push_str(&rest[open..open + len + 2]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// A store's message with numbers and quoted literals masked, its first 60 characters: one
/// message, one key.
pub fn message_key(message: &str) -> String {
    crosscheck_core::mask_numbers(&mask_literals(message), 60)
}

/// An engine's error on a valid query, as a finding of class `error`.
pub fn error_finding(label: &str, message: &str, detail: &Transcript) -> Check {
    crosscheck_core::groups::rejected(label, message, &message_key(message), detail)
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_error_key_masks_the_literals_a_message_names() {
        let key = |m: &str| super::mask_literals(m);
        assert_eq!(
            key("Unidentified predicate: \"peter\"@en-US (in sameTerm)"),
            key("Unidentified predicate: \"12\"^^<http://www.w3.org/2001/XMLSchema#int> (in sameTerm)")
        );
        assert_eq!(key("near \"AND\": syntax error"), "near \"AND\": syntax error");
    }
}
