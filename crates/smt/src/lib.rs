//! The SMT leg of crosscheck: an SMT-LIB 2 front end, an evaluator, the STORM generator
//! (satisfiable-by-construction instances), solver engines and the storm / differential /
//! model oracles.

pub mod engines;
pub mod eval;
pub mod sexp;
pub mod term;
