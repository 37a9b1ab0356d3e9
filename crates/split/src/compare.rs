//! A split run set against its baseline (the unsplit run, the seed's NoSplit): findings lost and
//! extra, latency, cost, memory, partitions, replication and dependency-analysis time.

use crate::run::Run;
use crate::tools::Finding;

#[derive(Debug, Clone, serde::Serialize)]
pub struct Side {
    pub findings: usize,
    pub partitions: usize,
    pub failed_partitions: usize,
    pub best_latency_seconds: f64,
    pub total_seconds: f64,
    pub peak_rss_kib: u64,
    pub replication: f64,
    pub dependency_seconds: f64,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Comparison {
    pub tool: String,
    pub strategy: crate::Strategy,
    pub size: usize,
    pub units: usize,
    pub split: Side,
    pub baseline: Side,
    /// Baseline findings no partition reported (false negatives of splitting).
    pub lost: Vec<Finding>,
    /// Findings of the split run the baseline does not have (false positives of splitting).
    pub extra: Vec<Finding>,
    pub lost_pct: f64,
    /// Peak RSS of the largest partition over the baseline's.
    pub rss_ratio: f64,
    /// Per partition: units and peak RSS, as the run recorded them.
    pub partition_rss_kib: Vec<u64>,
}

impl Comparison {
    /// True when splitting changed the findings (lost or extra ones), or a partition failed.
    pub fn differs(&self) -> bool {
        !self.lost.is_empty() || !self.extra.is_empty() || self.split.failed_partitions > 0
    }
}

fn side(run: &Run, dependency_seconds: f64) -> Side {
    Side {
        findings: run.findings().len(),
        partitions: run.partitions.len(),
        failed_partitions: run.failed(),
        best_latency_seconds: run.best_latency(),
        total_seconds: run.total_time(),
        peak_rss_kib: run.peak_rss_kib(),
        replication: run.plan.replication(),
        dependency_seconds,
    }
}

/// Compares `split` with `baseline` (both runs of the same tool on the same input).
#[allow(clippy::cast_precision_loss)]
pub fn compare(split: &Run, baseline: &Run) -> Comparison {
    let ours = split.findings();
    let theirs = baseline.findings();
    let lost: Vec<Finding> = theirs.difference(&ours).cloned().collect();
    let extra: Vec<Finding> = ours.difference(&theirs).cloned().collect();
    let base = side(baseline, 0.0);
    let lost_pct = if theirs.is_empty() { 0.0 } else { 100.0 * lost.len() as f64 / theirs.len() as f64 };
    Comparison {
        tool: split.plan.tool.name().to_string(),
        strategy: split.plan.strategy,
        size: split.plan.size,
        units: split.plan.units.len(),
        split: side(split, split.plan.dependency_seconds),
        rss_ratio: split.peak_rss_kib() as f64 / base.peak_rss_kib.max(1) as f64,
        baseline: base,
        lost,
        extra,
        lost_pct,
        partition_rss_kib: split.partitions.iter().map(|p| p.max_rss_kib).collect(),
    }
}
