//! The SPARQL stores (one file each, one line each in [`registry`]). The leg prints queries and
//! normalizes answers; an adapter only talks to its store.
//!
//! Text protocol (shared by every store): `Engine::run` takes a SPARQL 1.1 Update (the leg
//! loads its graph with one `INSERT DATA`), answered `Outcome::Done`, or a SPARQL 1.1 query: a
//! SELECT is answered `Outcome::Rows` with the projected variables (no `?`) in projection order,
//! an ASK as one column `ask` holding `Value::Bool`. Terms come back raw: IRIs as `Value::Iri`,
//! blank nodes as `Value::Blank` with the store's own label, every literal as `Value::Literal`
//! with its lexical form as the store gave it (a simple literal has the datatype `xsd:string`, a
//! language-tagged one no datatype), unbound as `Value::Null`. A store's options for the leg's
//! `config` oracle travel in the text as a first line `# crosscheck-option: NAME`, a SPARQL
//! comment that every other store ignores.

pub mod bridged;
pub mod comunica;
pub mod jena;
pub mod oxigraph;
pub mod pyoxigraph;
pub mod rdflib;
pub mod results;
pub mod virtuoso;

use crosscheck_core::EngineFactory;

/// Every SPARQL store of this layer, one line each.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![
        &oxigraph::FACTORY,
        &rdflib::FACTORY,
        &pyoxigraph::FACTORY,
        &comunica::FACTORY,
        &virtuoso::FACTORY,
        &jena::FACTORY,
    ]
}

/// The option named on a query's first line (`# crosscheck-option: NAME`), if any.
pub fn option_line(text: &str) -> Option<&str> {
    crate::datalog::option_line(text, "#")
}

/// The datatype IRI of simple literals (RDF 1.1: every literal without a language has one).
pub const XSD_STRING: &str = "http://www.w3.org/2001/XMLSchema#string";
