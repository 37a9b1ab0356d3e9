//! The queryFuzz oracle: a program and its transformation by queryFuzz's steps
//! (`crate::qf`) must give outputs in the relation the steps promise.

use super::metamorphic::{self, Transformed};
use super::DatalogOracle;
use crate::ast::Program;
use crosscheck_core::{Check, CheckOptions, Engine};

pub(crate) fn check(
    oracle: DatalogOracle,
    orig: &Program,
    t: &Transformed,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
) -> Check {
    metamorphic::check(oracle, orig, t, engines, opts, |_| Ok(t.program.clone()))
}
