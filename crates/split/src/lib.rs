//! Input splitting (seed 001, chapter 6): split a workload's units into bounded partitions that an
//! analyzer runs on in parallel, merge the findings and measure what splitting lost against the
//! unsplit run.
//!
//! `graph` and `strategy` are language-neutral (units and dependency edges only); the dependency
//! extractors (`python`, `c`) and the analyzer targets (`tools`) know their inputs; `plan` ties
//! them to a plan file, `run` executes partitions as child processes with limits, `compare` sets
//! a run against its baseline. Nothing here writes to the terminal: progress goes through a
//! callback to the binary.

pub mod c;
pub mod compare;
pub mod deps;
pub mod graph;
pub mod plan;
pub mod python;
pub mod resplit;
pub mod run;
pub mod strategy;
pub mod tools;

pub use compare::{compare, Comparison};
pub use deps::{DepError, Workload};
pub use graph::{DepGraph, GraphError, Radius};
pub use plan::{make_plan, make_plan_from, Plan, SplitError};
pub use resplit::{resplit, ResplitError};
pub use run::{run_plan, Limits, PartitionRun, Run, Status};
pub use strategy::{plan, Partition, PlanError, Strategy};
pub use tools::{Analyzer, Finding, Tool};
