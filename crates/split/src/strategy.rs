//! The seed's two splitting strategies (001 ch. 6, extraction section B.3–B.4): SIZELIMITING
//! (sorted disjoint chunks) and SPLITMERGE (k-hop closures, split by replicating hubs, subsumed
//! partitions removed, next-fit packing), with the extraction's corrections to the printed
//! pseudocode, each marked where it is made.
//!
//! Guarantees, for any graph and parameters accepted by [`plan`]: every partition has at most S
//! units, the partitions cover every unit, none is a subset of another, and the same input gives
//! the same partitions in the same order.

use crate::graph::{index, DepGraph, Radius};

/// A partition: unit numbers, sorted ascending.
pub type Partition = Vec<u32>;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "name", rename_all = "lowercase")]
pub enum Strategy {
    /// Lexicographically sorted units in disjoint chunks of at most S: no dependency analysis.
    SizeLimiting,
    /// Dependency-guided, overlapping partitions: radius k, hub fraction p.
    SplitMerge { k: Radius, p: f64 },
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlanError {
    #[error("the partition size must be at least 1")]
    ZeroSize,
    #[error("the neighbourhood radius k must be at least 1 (or inf)")]
    ZeroRadius,
    #[error("the hub fraction p must be in [0, 1), got {0}")]
    BadFraction(f64),
}

/// The partitions of `graph` under `strategy`, each of at most `size` units.
pub fn plan(graph: &DepGraph, strategy: &Strategy, size: usize) -> Result<Vec<Partition>, PlanError> {
    if size == 0 {
        return Err(PlanError::ZeroSize);
    }
    match *strategy {
        Strategy::SizeLimiting => Ok(size_limiting(graph.len(), size)),
        Strategy::SplitMerge { k, p } => {
            if k == Radius::Hops(0) {
                return Err(PlanError::ZeroRadius);
            }
            if !(0.0..1.0).contains(&p) {
                return Err(PlanError::BadFraction(p));
            }
            let aug = augmented(graph, k);
            let initial = initial_partitions(&aug);
            let split = split_partitions(&aug, initial, p, size);
            Ok(merge(split, size))
        }
    }
}

/// SIZELIMITING: units are numbered in name order, so sorted chunks are index ranges.
fn size_limiting(n: usize, size: usize) -> Vec<Partition> {
    (0..n).step_by(size).map(|s| (s..(s + size).min(n)).map(index).collect()).collect()
}

/// Alg. 8's first loop: each unit's dependency edges augmented with every unit within k hops.
fn augmented(graph: &DepGraph, k: Radius) -> Vec<Vec<u32>> {
    (0..graph.len()).map(|v| graph.within(index(v), k)).collect()
}

/// Alg. 8's second loop, as corrected in the extraction (the printed lines 9 and 12–13 reset E
/// and loop over V instead of over v's edges): one partition per unit, the unit and its
/// augmented dependencies.
fn initial_partitions(aug: &[Vec<u32>]) -> Vec<Partition> {
    aug.iter()
        .enumerate()
        .map(|(v, deps)| {
            let mut r = deps.clone();
            let at = r.binary_search(&index(v)).unwrap_or_else(|i| i);
            r.insert(at, index(v));
            r
        })
        .collect()
}

/// Alg. 9 SPLITPARTITIONS: every oversize partition replaced by its SPLIT.
fn split_partitions(aug: &[Vec<u32>], parts: Vec<Partition>, p: f64, size: usize) -> Vec<Partition> {
    let mut out = Vec::with_capacity(parts.len());
    for r in parts {
        if r.len() > size {
            out.extend(split(aug, &r, p, size));
        } else {
            out.push(r);
        }
    }
    out
}

/// Alg. 9 SPLIT, with the extraction's corrections: the hubs are the first p_r units by degree
/// (in + out edges of the augmented graph inside r, ties by name), p_r = ⌊p·|r|⌋ falling back to
/// ⌊p·S⌋ only when ⌊p·|r|⌋ leaves no room in a partition of S (the printed guard `|r| > S` is
/// always true there and contradicts the worked example, which keeps ⌊6/3⌋ = 2 hubs at S = 4);
/// the rest is cut into ⌈|ldn| / (S − p_r)⌉ contiguous, even chunks (the printed ⌊·⌋ + 1 makes 3
/// subsets where the example makes 2).
fn split(aug: &[Vec<u32>], r: &[u32], p: f64, size: usize) -> Vec<Partition> {
    let mut degree = vec![0usize; r.len()];
    for (i, &u) in r.iter().enumerate() {
        for w in &aug[u as usize] {
            if let Ok(j) = r.binary_search(w) {
                degree[i] += 1;
                degree[j] += 1;
            }
        }
    }
    let mut order: Vec<usize> = (0..r.len()).collect();
    order.sort_by(|&a, &b| degree[b].cmp(&degree[a]).then(r[a].cmp(&r[b])));
    let mut hubs = floor_fraction(p, r.len());
    if hubs >= size {
        hubs = floor_fraction(p, size);
    }
    let hdn: Vec<u32> = order[..hubs].iter().map(|&i| r[i]).collect();
    let ldn: Vec<u32> = order[hubs..].iter().map(|&i| r[i]).collect();
    let room = size - hubs;
    let subsets = ldn.len().div_ceil(room);
    let (base, extra) = (ldn.len() / subsets, ldn.len() % subsets);
    let mut out = Vec::with_capacity(subsets);
    let mut at = 0;
    for j in 0..subsets {
        let len = base + usize::from(j < extra);
        let mut part: Vec<u32> = hdn.iter().chain(&ldn[at..at + len]).copied().collect();
        part.sort_unstable();
        out.push(part);
        at += len;
    }
    out
}

/// ⌊p·n⌋, robust to p = 1/3 being stored a hair below a third (1/3 · 6 must be 2).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
fn floor_fraction(p: f64, n: usize) -> usize {
    (p * n as f64 + 1e-9).floor() as usize
}

/// Alg. 10 MERGE with the extraction's notes: equal partitions deduplicated before the subset
/// test (two equal sets would otherwise remove each other), then NEXTFIT packing; and one
/// correction of our own: subsumed partitions are removed again after packing, since a packed
/// bin can cover a partition that no single input partition covered.
fn merge(parts: Vec<Partition>, size: usize) -> Vec<Partition> {
    let kept = remove_subsumed(parts);
    remove_subsumed(next_fit(kept, size))
}

/// Drops every partition that is a subset of another (equal ones kept once), keeping order.
fn remove_subsumed(mut parts: Vec<Partition>) -> Vec<Partition> {
    let mut seen = std::collections::HashSet::new();
    parts.retain(|p| seen.insert(p.clone()));
    // Only a partition holding r's first unit can contain r.
    let mut holding: std::collections::HashMap<u32, Vec<usize>> = std::collections::HashMap::new();
    for (i, p) in parts.iter().enumerate() {
        for &u in p {
            holding.entry(u).or_default().push(i);
        }
    }
    let subsumed: Vec<bool> = parts
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let Some(first) = r.first() else { return true };
            holding[first].iter().any(|&j| j != i && parts[j].len() > r.len() && is_subset(r, &parts[j]))
        })
        .collect();
    parts.into_iter().zip(subsumed).filter(|(_, s)| !s).map(|(p, _)| p).collect()
}

fn is_subset(small: &[u32], big: &[u32]) -> bool {
    let mut it = big.iter();
    small.iter().all(|x| it.by_ref().any(|y| y == x))
}

/// NEXTFIT (Alg. 10, lines 6–17): partitions by ascending size (ties by content, for
/// determinism) packed into the current bin while the sizes' sum stays within S. The printed
/// `r ← {t}` means r ← t; an empty bin is never emitted.
fn next_fit(mut parts: Vec<Partition>, size: usize) -> Vec<Partition> {
    parts.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    let mut out = Vec::new();
    let mut bin: Partition = Vec::new();
    for t in parts {
        if bin.len() + t.len() <= size {
            bin.extend(t);
            bin.sort_unstable();
            bin.dedup();
        } else {
            if !bin.is_empty() {
                out.push(std::mem::take(&mut bin));
            }
            bin = t;
        }
    }
    if !bin.is_empty() {
        out.push(bin);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_fit_packs_by_sum_and_emits_no_empty_bin() {
        let parts = vec![vec![5, 6], vec![1], vec![2, 3, 4]];
        assert_eq!(next_fit(parts, 3), vec![vec![1, 5, 6], vec![2, 3, 4]]);
        assert!(next_fit(Vec::new(), 3).is_empty());
    }

    #[test]
    fn subsumed_partitions_go_and_equal_ones_stay_once() {
        let parts = vec![vec![1, 2], vec![1, 2], vec![2], vec![0, 1, 2], vec![3]];
        assert_eq!(remove_subsumed(parts), vec![vec![0, 1, 2], vec![3]]);
    }

    #[test]
    fn a_packed_bin_can_subsume_a_later_partition() {
        // {0,1} and {0,2} pack into one bin that covers {1,2}, which no input partition did.
        let parts = vec![vec![0, 1], vec![0, 2], vec![1, 2]];
        assert_eq!(next_fit(remove_subsumed(parts.clone()), 4), vec![vec![0, 1, 2], vec![1, 2]]);
        assert_eq!(merge(parts, 4), vec![vec![0, 1, 2]]);
    }

    #[test]
    fn a_third_of_six_is_two() {
        assert_eq!(floor_fraction(1.0 / 3.0, 6), 2);
        assert_eq!(floor_fraction(0.1, 50), 5);
        assert_eq!(floor_fraction(0.0, 50), 0);
    }
}
