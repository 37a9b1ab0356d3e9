//! The precision poset of a target's domains: which domain is more precise than which, the
//! immediate neighbours Algorithm 7 moves along, and the least precise domains incomparable with
//! a recipe, which DARS and ADD draw from. For Eva the poset is the lattice of domain sets
//! (inclusion); for solvers it is mostly an antichain (strategies that are incomparable).

use serde::{Deserialize, Serialize};

/// A finite partial order over named domains, stored as its reflexive-transitive closure.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Poset {
    names: Vec<String>,
    /// `leq[a][b]`: `a` is at most as precise as `b`.
    leq: Vec<Vec<bool>>,
}

impl Poset {
    /// A poset from names and edges `(less, more)` meaning "more is more precise than less";
    /// the closure is computed here. Edges naming an unknown domain are ignored.
    pub fn from_edges(names: &[&str], edges: &[(&str, &str)]) -> Poset {
        let n = names.len();
        let mut leq = vec![vec![false; n]; n];
        for (i, row) in leq.iter_mut().enumerate() {
            row[i] = true;
        }
        let idx = |s: &str| names.iter().position(|x| *x == s);
        for (a, b) in edges {
            if let (Some(a), Some(b)) = (idx(a), idx(b)) {
                leq[a][b] = true;
            }
        }
        // Floyd–Warshall closure: the posets here have at most a few hundred elements.
        for k in 0..n {
            let via = leq[k].clone();
            for row in leq.iter_mut().filter(|row| row[k]) {
                for (cell, &v) in row.iter_mut().zip(&via) {
                    *cell |= v;
                }
            }
        }
        Poset { names: names.iter().map(|s| s.to_string()).collect(), leq }
    }

    /// Every domain incomparable with every other.
    pub fn antichain(names: &[&str]) -> Poset {
        Poset::from_edges(names, &[])
    }

    /// The lattice of subsets of `parts` ordered by inclusion: the element for a set is named by
    /// its parts joined with `+`, the empty set by `empty`. Element `k` is the subset whose bit
    /// `i` is set when `parts[i]` is in it.
    pub fn powerset(parts: &[&str], empty: &str) -> Poset {
        let n = 1usize << parts.len();
        let names = (0..n)
            .map(|k| {
                let chosen: Vec<&str> =
                    parts.iter().enumerate().filter(|(i, _)| k & (1 << i) != 0).map(|(_, p)| *p).collect();
                if chosen.is_empty() {
                    empty.to_string()
                } else {
                    chosen.join("+")
                }
            })
            .collect();
        let leq = (0..n).map(|a| (0..n).map(|b| a & b == a).collect()).collect();
        Poset { names, leq }
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn name(&self, d: usize) -> &str {
        &self.names[d]
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    pub fn leq(&self, a: usize, b: usize) -> bool {
        self.leq[a][b]
    }

    pub fn comparable(&self, a: usize, b: usize) -> bool {
        self.leq[a][b] || self.leq[b][a]
    }

    /// The domains immediately more precise than `d` (covers: nothing strictly in between).
    pub fn greater(&self, d: usize) -> Vec<usize> {
        (0..self.len()).filter(|&b| b != d && self.leq[d][b] && !self.between(d, b)).collect()
    }

    /// The domains immediately less precise than `d`.
    pub fn less(&self, d: usize) -> Vec<usize> {
        (0..self.len()).filter(|&a| a != d && self.leq[a][d] && !self.between(a, d)).collect()
    }

    fn between(&self, a: usize, b: usize) -> bool {
        (0..self.len()).any(|c| c != a && c != b && self.leq[a][c] && self.leq[c][b])
    }

    /// No two of `ds` are comparable (POSETCOMPATIBLE).
    pub fn compatible(&self, ds: &[usize]) -> bool {
        ds.iter().enumerate().all(|(i, &a)| ds[i + 1..].iter().all(|&b| !self.comparable(a, b)))
    }

    /// The domains incomparable with every one of `ds`.
    pub fn incomparable_with(&self, ds: &[usize]) -> Vec<usize> {
        (0..self.len()).filter(|&c| ds.iter().all(|&d| !self.comparable(c, d))).collect()
    }

    /// The least precise of `cands` (those with no other candidate strictly below them).
    pub fn minimal(&self, cands: &[usize]) -> Vec<usize> {
        cands.iter().copied().filter(|&c| !cands.iter().any(|&o| o != c && self.leq[o][c])).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CRAB's poset (the seed's Fig. 5.3, as the extraction reconstructs it).
    fn crab() -> Poset {
        Poset::from_edges(
            &[
                "bool",
                "intervals",
                "zones",
                "octagons",
                "polyhedra",
                "ric",
                "term-int",
                "disint",
                "boxes",
                "term-disint",
            ],
            &[
                ("intervals", "zones"),
                ("zones", "octagons"),
                ("octagons", "polyhedra"),
                ("intervals", "ric"),
                ("intervals", "term-int"),
                ("intervals", "disint"),
                ("disint", "boxes"),
                ("disint", "term-disint"),
            ],
        )
    }

    #[test]
    fn closure_covers_and_minimal_elements() {
        let p = crab();
        let i = |s| p.index(s).unwrap_or(usize::MAX);
        assert!(p.leq(i("intervals"), i("polyhedra")), "transitive");
        assert!(!p.comparable(i("bool"), i("intervals")));
        assert_eq!(p.greater(i("zones")), vec![i("octagons")], "immediate, not transitive");
        assert_eq!(p.less(i("boxes")), vec![i("disint")]);
        assert!(p.compatible(&[i("bool"), i("zones"), i("disint")]));
        assert!(!p.compatible(&[i("zones"), i("polyhedra")]));
        let inc = p.incomparable_with(&[i("zones")]);
        assert_eq!(p.minimal(&inc), vec![i("bool"), i("ric"), i("term-int"), i("disint")]);
    }

    #[test]
    fn powerset_is_inclusion() {
        let p = Poset::powerset(&["a", "b", "c"], "base");
        assert_eq!(p.len(), 8);
        assert_eq!(p.name(0), "base");
        assert_eq!(p.name(5), "a+c");
        assert!(p.leq(1, 3) && !p.leq(3, 1) && !p.comparable(1, 2));
        assert_eq!(p.greater(0), vec![1, 2, 4]);
        assert_eq!(p.less(7), vec![3, 5, 6]);
    }
}
