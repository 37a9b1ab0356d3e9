//! The SMT leg on real solvers: STORM, the differential and model oracles, the seed budget, the reply readers.
//! One test binary for the crate: each file below `tests/smt/` is a module of it.

#[path = "smt/budget.rs"]
mod budget;
#[path = "smt/common.rs"]
mod common;
#[path = "smt/dedup.rs"]
mod dedup;
#[path = "smt/model_fallback.rs"]
mod model_fallback;
#[path = "smt/options.rs"]
mod options;
#[path = "smt/reply_reader.rs"]
mod reply_reader;
#[path = "smt/seeds.rs"]
mod seeds;
#[path = "smt/solvers.rs"]
mod solvers;
#[path = "smt/split.rs"]
mod split;
#[path = "smt/yinyang.rs"]
mod yinyang;
