//! The crosscheck binary on real engines (campaigns, replay, reduce, report) and the rules of the codebase (tidy).
//! One test binary for the crate: each file below `tests/cli/` is a module of it.

#[path = "cli/cli.rs"]
mod cli;
#[path = "cli/cluster.rs"]
mod cluster;
#[path = "cli/datalog.rs"]
mod datalog;
#[path = "cli/report.rs"]
mod report;
#[path = "cli/split.rs"]
mod split;
#[path = "cli/summary.rs"]
mod summary;
#[path = "cli/tidy.rs"]
mod tidy;
#[path = "cli/tune.rs"]
mod tune;
#[path = "cli/yinyang.rs"]
mod yinyang;
