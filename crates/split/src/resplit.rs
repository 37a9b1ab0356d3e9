//! The seed's future work made concrete (extraction D.2, "adaptive splitting"): a partition that
//! timed out or crashed is split again, by the plan's own strategy on its own units and
//! dependencies, with half the size, and the pieces run; for up to `rounds` rounds. A crash that
//! one unit causes ends isolated in a partition of that unit alone.

use crate::graph::GraphError;
use crate::run::{run_all, PartitionRun, Run, Status};
use crate::strategy::{plan, Partition, PlanError};
use crate::tools::Analyzer;

#[derive(Debug, thiserror::Error)]
pub enum ResplitError {
    #[error(transparent)]
    Graph(#[from] GraphError),
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// Re-splits the failed partitions of `run` in place; `done` hears of every piece that ends.
pub fn resplit(
    run: &mut Run,
    tool: &dyn Analyzer,
    rounds: u32,
    done: &(dyn Fn(&PartitionRun) + Sync),
) -> Result<(), ResplitError> {
    let mut size = run.plan.size;
    for _ in 0..rounds {
        let failed: Vec<usize> = (0..run.partitions.len())
            .filter(|&i| run.partitions[i].status != Status::Ok && run.partitions[i].units > 1)
            .collect();
        if failed.is_empty() {
            break;
        }
        size = (size / 2).max(1);
        let mut pieces: Vec<Partition> = Vec::new();
        let mut waited = Vec::new();
        for &i in &failed {
            let part = &run.plan.partitions[i];
            // A partition already smaller than S/2 still halves, so every round makes progress.
            let s = size.min(part.len() / 2).max(1);
            for local in plan(&run.plan.subgraph(part)?, &run.plan.strategy, s)? {
                pieces.push(local.iter().map(|&u| part[u as usize]).collect());
                waited.push(run.partitions[i].wall_seconds + run.partitions[i].waited_seconds);
            }
        }
        let mut fresh = run_all(&run.plan, &pieces, tool, run.jobs, run.limits, done);
        for (r, w) in fresh.iter_mut().zip(waited) {
            r.waited_seconds = w;
        }
        for &i in failed.iter().rev() {
            run.replaced.push(run.partitions.remove(i));
            run.plan.partitions.remove(i);
        }
        run.plan.partitions.extend(pieces);
        run.partitions.extend(fresh);
        for (i, p) in run.partitions.iter_mut().enumerate() {
            p.index = i;
        }
    }
    Ok(())
}
