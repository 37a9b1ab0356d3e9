//! A plan: the partitions of one input for one tool, with what it cost to find them. Written by
//! `crosscheck split plan` as JSON, read back by `crosscheck split run`.

use crate::deps::{source_files, DepError, Workload};
use crate::graph::{DepGraph, GraphError};
use crate::strategy::{plan, Partition, PlanError, Strategy};
use crate::tools::{Analyzer, Language, Tool};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Bumped when the JSON layout changes; a plan of another version is refused.
pub const PLAN_VERSION: u32 = 1;

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Plan {
    pub version: u32,
    pub tool: Tool,
    /// The input root, absolute: every unit is a path under it.
    pub input: PathBuf,
    pub strategy: Strategy,
    pub size: usize,
    pub units: Vec<String>,
    pub edges: usize,
    /// Seconds spent listing units and extracting dependencies (SIZELIMITING: listing only).
    pub dependency_seconds: f64,
    /// Seconds spent computing the partitions from the graph.
    pub planning_seconds: f64,
    pub partitions: Vec<Partition>,
    /// The dependency edges (unit numbers), kept so that a failed partition can be re-split.
    #[serde(default)]
    pub dependencies: Vec<(u32, u32)>,
}

#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    #[error(transparent)]
    Deps(#[from] DepError),
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("{0} has no dependency extractor here: its caller supplies the workload")]
    NoExtractor(&'static str),
}

impl Plan {
    /// Sum of partition sizes over the number of units: 1.0 for disjoint partitions.
    #[allow(clippy::cast_precision_loss)]
    pub fn replication(&self) -> f64 {
        let total: usize = self.partitions.iter().map(Vec::len).sum();
        total as f64 / self.units.len().max(1) as f64
    }

    /// The whole input as one partition: the unsplit baseline.
    pub fn unsplit(&self) -> Plan {
        let all = (0..self.units.len()).map(crate::graph::index).collect();
        Plan { partitions: vec![all], size: self.units.len(), ..self.clone() }
    }

    /// Whether every unit number the plan holds names one of its units (a plan is a file a
    /// person can edit); partitions are sorted and free of repeats.
    pub fn check(&self) -> Result<(), String> {
        let n = self.units.len();
        for (i, p) in self.partitions.iter().enumerate() {
            if p.iter().any(|&u| u as usize >= n) || !p.windows(2).all(|w| w[0] < w[1]) || p.is_empty() {
                return Err(format!("partition {i} is empty, unsorted or names a unit beyond the {n} units"));
            }
        }
        if self.dependencies.iter().any(|&(a, b)| a as usize >= n || b as usize >= n) {
            return Err(format!("a dependency names a unit beyond the {n} units"));
        }
        Ok(())
    }

    /// The dependency graph restricted to `partition`'s units, numbered in the same order
    /// (for a plan that passed [`Plan::check`]).
    pub fn subgraph(&self, partition: &[u32]) -> Result<DepGraph, GraphError> {
        let names = partition.iter().map(|&u| self.units[u as usize].clone());
        let inside = |u: &u32| partition.binary_search(u).is_ok();
        let edges = self
            .dependencies
            .iter()
            .filter(|(a, b)| inside(a) && inside(b))
            .map(|&(a, b)| (self.units[a as usize].clone(), self.units[b as usize].clone()));
        DepGraph::new(names, edges)
    }

    /// A partition's units by name.
    pub fn names(&self, partition: &[u32]) -> Vec<&str> {
        partition.iter().map(|&u| self.units[u as usize].as_str()).collect()
    }
}

/// Splits the input under `input` for `tool`. SIZELIMITING lists the units and reads nothing
/// else; SPLITMERGE extracts the dependency graph first, which is timed apart.
pub fn make_plan(
    tool: Tool,
    analyzer: &dyn Analyzer,
    input: &Path,
    strategy: Strategy,
    size: usize,
) -> Result<Plan, SplitError> {
    let started = Instant::now();
    let exts: &[&str] = match analyzer.language() {
        Language::Python => &["py"],
        Language::C => &["c", "h"],
        Language::Given => return Err(SplitError::NoExtractor(analyzer.name())),
    };
    let workload = match (strategy, analyzer.language()) {
        (Strategy::SizeLimiting, _) => Workload { units: source_files(input, exts)?, edges: vec![] },
        (Strategy::SplitMerge { .. }, Language::Python) => {
            let python = analyzer.python().unwrap_or_else(|| PathBuf::from("python3"));
            crate::python::workload(input, &python)?
        }
        (Strategy::SplitMerge { .. }, _) => crate::c::workload(input)?,
    };
    make_plan_from(tool, input, workload, started, strategy, size)
}

/// A plan over a workload the caller extracted (units are files under `input`); `started` is
/// when its dependency analysis began.
pub fn make_plan_from(
    tool: Tool,
    input: &Path,
    workload: Workload,
    started: Instant,
    strategy: Strategy,
    size: usize,
) -> Result<Plan, SplitError> {
    let input = std::fs::canonicalize(input)
        .map_err(|e| DepError::Read { path: input.to_path_buf(), reason: e.to_string() })?;
    let graph = workload.graph()?;
    let dependency_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let partitions = plan(&graph, &strategy, size)?;
    let dependencies = (0..graph.len())
        .flat_map(|u| graph.deps(crate::graph::index(u)).iter().map(move |&d| (crate::graph::index(u), d)));
    let dependencies = dependencies.collect();
    Ok(Plan {
        version: PLAN_VERSION,
        tool,
        input,
        strategy,
        size,
        edges: graph.edge_count(),
        units: graph.names().to_vec(),
        dependency_seconds,
        planning_seconds: started.elapsed().as_secs_f64(),
        partitions,
        dependencies,
    })
}
