//! The precision poset of a target's domains: which domain is more precise than which, the
//! immediate neighbours Algorithm 7 moves along, and the least precise domains incomparable with
//! a recipe, which DARS and ADD draw from. For Eva the poset is the lattice of domain sets
//! (inclusion); for solvers it is mostly an antichain (strategies that are incomparable).

use rand::seq::SliceRandom;
use rand::Rng;

/// A finite partial order over named domains, stored as its reflexive-transitive closure.
#[derive(Clone, Debug)]
pub struct Poset {
    names: Vec<String>,
    /// `leq[a][b]`: `a` is at most as precise as `b`.
    leq: Vec<Vec<bool>>,
    /// Each domain's height, when random draws pick a height first ([`Poset::draw`]).
    by_height: Option<Vec<usize>>,
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
        Poset { names: names.iter().map(|s| s.to_string()).collect(), leq, by_height: None }
    }

    /// Every domain incomparable with every other.
    pub fn antichain(names: &[&str]) -> Poset {
        Poset::from_edges(names, &[])
    }

    /// The lattice of subsets of `parts` ordered by inclusion: the element for a set is named by
    /// its parts joined with `+`, the empty set by `empty`. Element `k` is the subset whose bit
    /// `i` is set when `parts[i]` is in it. Its random draws pick a height (a number of parts)
    /// first: a uniform draw over the 2^n sets holds n/2 parts on average, almost never few,
    /// where the seed's lists of domains spread over their heights, cheap ones included.
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
        let mut p = Poset { names, leq, by_height: None };
        p.by_height = Some(p.heights());
        p
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

    /// A random domain of the whole poset: see [`Poset::draw`].
    pub fn draw_any(&self, rng: &mut impl Rng) -> usize {
        if self.by_height.is_some() {
            let all: Vec<usize> = (0..self.len()).collect();
            self.draw(&all, rng).unwrap_or(0)
        } else {
            rng.gen_range(0..self.len())
        }
    }

    /// A random one of `cands`: uniform, or for a poset drawn by height (a power set), a
    /// height uniform among the candidates' heights, then a candidate of that height.
    pub fn draw(&self, cands: &[usize], rng: &mut impl Rng) -> Option<usize> {
        let Some(height) = &self.by_height else {
            return cands.choose(rng).copied();
        };
        let mut levels: Vec<usize> = cands.iter().map(|&c| height[c]).collect();
        levels.sort_unstable();
        levels.dedup();
        let level = *levels.choose(rng)?;
        let at: Vec<usize> = cands.iter().copied().filter(|&c| height[c] == level).collect();
        at.choose(rng).copied()
    }

    /// Each domain's height: the length of the longest chain below it.
    fn heights(&self) -> Vec<usize> {
        let n = self.len();
        let below = |d: usize| (0..n).filter(move |&a| a != d && self.leq[a][d]);
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&d| below(d).count());
        let mut height = vec![0; n];
        for d in order {
            height[d] = below(d).map(|a| height[a] + 1).max().unwrap_or(0);
        }
        height
    }

    /// The least precise of `cands` (those with no other candidate strictly below them).
    pub fn minimal(&self, cands: &[usize]) -> Vec<usize> {
        cands.iter().copied().filter(|&c| !cands.iter().any(|&o| o != c && self.leq[o][c])).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

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
    fn heights_are_longest_chains_and_a_power_set_draws_sizes_evenly() {
        let p = crab();
        let h = p.heights();
        let i = |s| p.index(s).unwrap_or(usize::MAX);
        assert_eq!([h[i("bool")], h[i("intervals")], h[i("zones")], h[i("polyhedra")], h[i("boxes")]], [0, 0, 1, 3, 2]);
        let lattice = Poset::powerset(&["a", "b", "c", "d", "e", "f", "g", "h"], "base");
        assert!(lattice.heights().iter().enumerate().all(|(k, &h)| h == k.count_ones() as usize));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let n = 90_000;
        let mut sizes = [0usize; 9];
        for _ in 0..n {
            sizes[lattice.draw_any(&mut rng).count_ones() as usize] += 1;
        }
        // Uniform over the 256 sets, a set of none or of all eight would come once in 256.
        assert!(sizes.iter().all(|&c| (c as f64 / n as f64 - 1.0 / 9.0).abs() < 0.01), "{sizes:?}");
        let odd = [1, 2, 3, 7];
        let mut seen = [0usize; 4];
        for _ in 0..n {
            let d = lattice.draw(&odd, &mut rng).unwrap_or(0);
            seen[odd.iter().position(|&x| x == d).unwrap_or(0)] += 1;
        }
        // Heights 1 (a, b), 2 (a+b) and 3 (a+b+c): each height a third, shared within it.
        let share = |c: usize| c as f64 / n as f64;
        assert!((share(seen[0]) - 1.0 / 6.0).abs() < 0.01 && (share(seen[2]) - 1.0 / 3.0).abs() < 0.01, "{seen:?}");
        assert_eq!(lattice.draw(&[], &mut rng), None);
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
