//! The SQL leg on real engines: dialects printed and run per engine, the oracles against mutants they must catch and correct engines that must pass, GlueSQL when built in.
//! One test binary for the crate: each file below `tests/sql/` is a module of it.

#[path = "sql/collations.rs"]
mod collations;
#[path = "sql/dialects.rs"]
mod dialects;
#[path = "sql/dml.rs"]
mod dml;
#[path = "sql/gluesql.rs"]
mod gluesql;
#[path = "sql/leg.rs"]
mod leg;
#[path = "sql/oracles.rs"]
mod oracles;
#[path = "sql/pqs.rs"]
mod pqs;
#[path = "sql/reach.rs"]
mod reach;
#[path = "sql/reduce.rs"]
mod reduce;
#[path = "sql/selfcheck.rs"]
mod selfcheck;
#[path = "sql/validity.rs"]
mod validity;
