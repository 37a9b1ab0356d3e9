//! The Cypher leg on real Kuzu and FalkorDB: known answers, the generated stream (pure,
//! valid, non-empty), the oracles against a mutant they must catch and a correct engine that
//! must pass, and reduction. One test binary for the crate: each file below `tests/cypher/`
//! is a module of it.

#[path = "cypher/common.rs"]
mod common;
#[path = "cypher/grafeo.rs"]
mod grafeo;
#[path = "cypher/known.rs"]
mod known;
#[path = "cypher/oracles.rs"]
mod oracles;
#[path = "cypher/reduce.rs"]
mod reduce;
#[path = "cypher/stream.rs"]
mod stream;
#[path = "cypher/transform.rs"]
mod transform;
