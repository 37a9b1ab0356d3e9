//! The dependency graph of a workload's units (files, modules, rules, queries): a directed edge
//! (x, y) says x depends on y. Units are numbered in name order, so "sorted by name" (the seed's
//! tie-break and SIZELIMITING's order) is plain index order.

use std::collections::VecDeque;

/// How far SPLITMERGE follows dependencies from a unit: k hops, or the whole closure (k = ∞, which
/// a Datalog program or a SQL workload needs: a missing rule or view is an error, not a lost
/// finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Radius {
    Hops(u32),
    All,
}

impl std::fmt::Display for Radius {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Radius::Hops(k) => write!(f, "{k}"),
            Radius::All => f.write_str("inf"),
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GraphError {
    #[error("unit {0:?} appears twice")]
    DuplicateUnit(String),
    #[error("dependency {from:?} -> {to:?} names a unit that is not in the workload")]
    UnknownUnit { from: String, to: String },
}

/// Units and their direct dependencies; `deps[i]` is sorted, without duplicates or `i` itself.
#[derive(Debug, Clone)]
pub struct DepGraph {
    names: Vec<String>,
    deps: Vec<Vec<u32>>,
}

impl DepGraph {
    /// A graph over `units` with `edges` (from, to) by name. Self-edges and repeated edges are
    /// dropped; an edge naming an unknown unit is an error (an extractor resolves names first).
    pub fn new<I, E>(units: I, edges: E) -> Result<DepGraph, GraphError>
    where
        I: IntoIterator<Item = String>,
        E: IntoIterator<Item = (String, String)>,
    {
        let mut names: Vec<String> = units.into_iter().collect();
        names.sort();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(GraphError::DuplicateUnit(w[0].clone()));
        }
        let mut deps = vec![Vec::new(); names.len()];
        for (from, to) in edges {
            let (Ok(a), Ok(b)) = (names.binary_search(&from), names.binary_search(&to)) else {
                return Err(GraphError::UnknownUnit { from, to });
            };
            if a != b {
                deps[a].push(index(b));
            }
        }
        for d in &mut deps {
            d.sort_unstable();
            d.dedup();
        }
        Ok(DepGraph { names, deps })
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn name(&self, unit: u32) -> &str {
        &self.names[unit as usize]
    }

    pub fn deps(&self, unit: u32) -> &[u32] {
        &self.deps[unit as usize]
    }

    pub fn edge_count(&self) -> usize {
        self.deps.iter().map(Vec::len).sum()
    }

    /// The units reachable from `unit` over 1..=k dependency edges (VERTICESWITHINDISTANCE),
    /// sorted, without `unit` itself even on a cycle.
    pub fn within(&self, unit: u32, radius: Radius) -> Vec<u32> {
        let limit = match radius {
            Radius::Hops(k) => k,
            Radius::All => u32::MAX,
        };
        let mut seen = vec![false; self.len()];
        seen[unit as usize] = true;
        let mut queue = VecDeque::from([(unit, 0u32)]);
        let mut out = Vec::new();
        while let Some((v, d)) = queue.pop_front() {
            if d == limit {
                continue;
            }
            for &w in self.deps(v) {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    out.push(w);
                    queue.push_back((w, d + 1));
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Unit numbers are u32 to halve the memory of partitions; a workload of more than 4 billion
/// units is not one this crate will see.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn index(i: usize) -> u32 {
    i as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(units: &str, edges: &[(&str, &str)]) -> DepGraph {
        DepGraph::new(units.chars().map(String::from), edges.iter().map(|(a, b)| ((*a).to_string(), (*b).to_string())))
            .unwrap()
    }

    #[test]
    fn within_counts_hops_and_skips_the_start_on_a_cycle() {
        let g = graph("ABCD", &[("A", "B"), ("B", "C"), ("C", "D"), ("D", "A")]);
        assert_eq!(g.within(0, Radius::Hops(1)), vec![1]);
        assert_eq!(g.within(0, Radius::Hops(2)), vec![1, 2]);
        assert_eq!(g.within(0, Radius::All), vec![1, 2, 3]);
    }

    #[test]
    fn bad_edges_and_duplicate_units_are_errors() {
        let e = DepGraph::new(["a".to_string()], [("a".to_string(), "b".to_string())]).unwrap_err();
        assert_eq!(e, GraphError::UnknownUnit { from: "a".into(), to: "b".into() });
        let e = DepGraph::new(["a".to_string(), "a".to_string()], []).unwrap_err();
        assert_eq!(e, GraphError::DuplicateUnit("a".into()));
    }
}
