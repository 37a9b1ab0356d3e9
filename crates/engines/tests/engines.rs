//! The engines against the real thing, one integration-test binary: SQL engines (`sql`, and
//! `gluesql` with the cargo feature), Grafeo (`grafeo`, with or without its feature), the graph engines run as children (`graph`), SMT solvers (`smt`), SPARQL stores (`sparql`), and the LOCATION every engine takes
//! or refuses (`locations`). A missing engine skips its tests
//! unless `CROSSCHECK_REQUIRE_ENGINES` names it (`crosscheck_engines::testing`).

#[cfg(feature = "gluesql")]
#[path = "engines/gluesql.rs"]
mod gluesql;
#[path = "engines/grafeo.rs"]
mod grafeo;
#[path = "engines/graph.rs"]
mod graph;
#[path = "engines/locations.rs"]
mod locations;
#[path = "engines/smt.rs"]
mod smt;
#[path = "engines/sparql.rs"]
mod sparql;
#[path = "engines/sql.rs"]
mod sql;
