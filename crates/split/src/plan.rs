//! A plan: the partitions of one input for one tool, with what it cost to find them. Written by
//! `crosscheck split plan` as JSON, read back by `crosscheck split run`.

use crate::deps::{source_files, DepError, Workload};
use crate::graph::GraphError;
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
}

#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    #[error(transparent)]
    Deps(#[from] DepError),
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error(transparent)]
    Plan(#[from] PlanError),
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
    let input = std::fs::canonicalize(input)
        .map_err(|e| DepError::Read { path: input.to_path_buf(), reason: e.to_string() })?;
    let started = Instant::now();
    let workload = match (strategy, analyzer.language()) {
        (Strategy::SizeLimiting, Language::Python) => Workload { units: source_files(&input, &["py"])?, edges: vec![] },
        (Strategy::SizeLimiting, Language::C) => Workload { units: source_files(&input, &["c", "h"])?, edges: vec![] },
        (Strategy::SplitMerge { .. }, Language::Python) => {
            let python = analyzer.python().unwrap_or_else(|| PathBuf::from("python3"));
            crate::python::workload(&input, &python)?
        }
        (Strategy::SplitMerge { .. }, Language::C) => crate::c::workload(&input)?,
    };
    let graph = workload.graph()?;
    let dependency_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let partitions = plan(&graph, &strategy, size)?;
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
    })
}
