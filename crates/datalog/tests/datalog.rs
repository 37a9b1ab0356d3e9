//! The Datalog leg: transformations with known answers, the parser, and the oracles on every engine.
//! One test binary for the crate: each file below `tests/datalog/` is a module of it.

#[path = "datalog/campaign.rs"]
mod campaign;
#[path = "datalog/common.rs"]
mod common;
#[path = "datalog/engines.rs"]
mod engines;
#[path = "datalog/mutants.rs"]
mod mutants;
#[path = "datalog/parse.rs"]
mod parse;
#[path = "datalog/split.rs"]
mod split;
#[path = "datalog/timeouts.rs"]
mod timeouts;
#[path = "datalog/transformations.rs"]
mod transformations;
