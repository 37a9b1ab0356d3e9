//! Workload splitting of Datalog programs (issue 16, extraction D.2): SPLITMERGE with k = ∞ over
//! the precedence graph, each partition evaluated apart by the reference evaluator, loses no
//! derived tuple against the unsplit program; a size that cuts closures does lose tuples.

use crosscheck_datalog::eval::Limits;
use crosscheck_datalog::split::{dependencies, split_loss};
use crosscheck_split::{plan, DepGraph, Radius, Strategy};
use rand::SeedableRng;
use std::collections::BTreeSet;

fn partitions(g: &DepGraph, size: usize) -> Vec<BTreeSet<String>> {
    let parts = plan(g, &Strategy::SplitMerge { k: Radius::All, p: 0.1 }, size).unwrap_or_else(|e| panic!("{e}"));
    parts.iter().map(|p| p.iter().map(|&u| g.name(u).to_string()).collect()).collect()
}

#[test]
fn closures_lose_no_tuple_and_cut_closures_are_measured() {
    let caps = crosscheck_datalog::dialects::capabilities("souffle").iter().map(|s| s.to_string()).collect();
    let cfg = crosscheck_datalog::gen::GenConfig::new(caps);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
    let (mut checked, mut cut_losing) = (0, 0);
    for _ in 0..150 {
        let p = crosscheck_datalog::gen::program(&mut rng, &cfg, None);
        let (units, edges) = dependencies(&p);
        let g = DepGraph::new(units, edges).unwrap_or_else(|e| panic!("{e}"));
        let n = u32::try_from(g.len()).expect("a small program");
        let closure = (0..n).map(|u| g.within(u, Radius::All).len() + 1).max().unwrap_or(1);
        // Room for the largest closure: every relation is derived where all it needs is.
        let Ok(whole) = split_loss(&p, &partitions(&g, closure), Limits::default()) else { continue };
        assert_eq!((whole.lost, whole.extra), (0, 0), "{p}");
        checked += 1;
        if closure > 2 {
            let cut = split_loss(&p, &partitions(&g, closure / 2), Limits::default()).unwrap_or_else(|e| panic!("{e}"));
            cut_losing += usize::from(cut.lost > 0);
        }
    }
    assert!(checked > 100, "only {checked} programs evaluated");
    assert!(cut_losing > 0, "cutting closures never lost a tuple: the measure cannot fail");
}
