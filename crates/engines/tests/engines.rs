//! The engines against the real thing, one integration-test binary: SQL engines (`sql`) and
//! SMT solvers (`smt`). A missing engine skips its tests unless `CROSSCHECK_REQUIRE_ENGINES`
//! names it (`crosscheck_engines::testing`).

#[path = "engines/smt.rs"]
mod smt;
#[path = "engines/sql.rs"]
mod sql;
