//! The SPARQL stores (one line each in [`registry`]); the contract they follow is the SPARQL
//! leg's: updates answer `Done`, SELECT answers rows of raw terms in projection order, ASK one
//! column `ask`.

pub mod bridged;
pub mod comunica;
pub mod pyoxigraph;
pub mod rdflib;
pub mod results;
pub mod virtuoso;

use crosscheck_core::EngineFactory;

/// Every SPARQL store of this layer, one line each.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![&rdflib::FACTORY, &pyoxigraph::FACTORY, &comunica::FACTORY, &virtuoso::FACTORY]
}
