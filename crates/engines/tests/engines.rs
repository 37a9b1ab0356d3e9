//! The engines against the real thing, one integration-test binary: SQL engines (`sql`, and
//! `gluesql` with the cargo feature) and SMT solvers (`smt`). A missing engine skips its tests
//! unless `CROSSCHECK_REQUIRE_ENGINES` names it (`crosscheck_engines::testing`).

#[cfg(feature = "gluesql")]
#[path = "engines/gluesql.rs"]
mod gluesql;
#[path = "engines/smt.rs"]
mod smt;
#[path = "engines/sql.rs"]
mod sql;
