//! The SPARQL leg on real Oxigraph: the generated stream (parses, validity, non-empty rate),
//! the partition identity on known answers, the oracles against mutants they must catch and a
//! correct store that must pass, and reduction. One test binary for the crate: each file below
//! `tests/sparql/` is a module of it.

#[path = "sparql/common.rs"]
mod common;
#[path = "sparql/constructs.rs"]
mod constructs;
#[path = "sparql/jena.rs"]
mod jena;
#[path = "sparql/oracles.rs"]
mod oracles;
#[path = "sparql/order.rs"]
mod order;
#[path = "sparql/partition.rs"]
mod partition;
#[path = "sparql/reduce.rs"]
mod reduce;
#[path = "sparql/repeated.rs"]
mod repeated;
#[path = "sparql/stream.rs"]
mod stream;
