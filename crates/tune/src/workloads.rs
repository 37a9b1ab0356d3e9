//! Generated workloads with known answers where the construction gives one, for the
//! benchmarks and tests of the tuner: SMT batches (bit-vector factoring, sat for a product of
//! two primes and unsat for a prime; pigeonhole in linear integer arithmetic, unsat; random
//! 3-SAT at the threshold ratio 4.26, status unknown) and ASP/Datalog batches for clingo
//! (pigeonhole, unsat; 3-colouring of random graphs near the threshold density; transitive
//! closure of a random graph, a Datalog program with one model).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// How hard the generated queries are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Milliseconds each: for tests.
    Tiny,
    /// From a fraction of a second to well past 10 s for default z3: for benchmarks.
    Hard,
}

/// `count` queries as (file name, text), a pure function of `seed`.
pub fn smt_batch(seed: u64, count: usize, size: Size) -> Vec<(String, String)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|i| {
            let (stem, text) = match i % 4 {
                0 | 1 => {
                    let w = match size {
                        Size::Tiny => rng.gen_range(6..=8),
                        Size::Hard => rng.gen_range(15..=19),
                    };
                    factoring(&mut rng, w, i % 4 == 0)
                }
                2 => pigeonhole(match size {
                    Size::Tiny => rng.gen_range(3..=4),
                    Size::Hard => rng.gen_range(6..=8),
                }),
                _ => {
                    let vars = match size {
                        Size::Tiny => 20,
                        Size::Hard => rng.gen_range(200..=320),
                    };
                    random_3sat(&mut rng, vars)
                }
            };
            (format!("q{i:03}-{stem}.smt2"), text)
        })
        .collect()
}

/// `count` clingo programs as (file name, text), a pure function of `seed`.
pub fn lp_batch(seed: u64, count: usize, size: Size) -> Vec<(String, String)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pick =
        |rng: &mut ChaCha8Rng, tiny: std::ops::RangeInclusive<u32>, hard: std::ops::RangeInclusive<u32>| match size {
            Size::Tiny => rng.gen_range(tiny),
            Size::Hard => rng.gen_range(hard),
        };
    (0..count)
        .map(|i| {
            let (stem, text) = match i % 3 {
                0 => {
                    let n = pick(&mut rng, 3..=5, 9..=11);
                    let text = format!(
                        "pigeon(1..{p}). hole(1..{n}).\n1 {{ p(I,H) : hole(H) }} 1 :- pigeon(I).\n:- p(I,H), p(J,H), I < J.\n",
                        p = n + 1
                    );
                    (format!("php{n}-unsat"), text)
                }
                1 => {
                    let n = pick(&mut rng, 12..=20, 300..=700);
                    let mut text = format!("node(0..{}).\ncol(1..3).\n", n - 1);
                    for (a, b) in random_edges(&mut rng, n, n * 23 / 10) {
                        let _ = write!(text, "edge({a},{b}). ");
                    }
                    text += "\n1 { c(N,C) : col(C) } 1 :- node(N).\n:- edge(A,B), c(A,C), c(B,C).\n";
                    (format!("colour{n}"), text)
                }
                _ => {
                    let n = pick(&mut rng, 8..=12, 300..=500);
                    let mut text = String::new();
                    for (a, b) in random_edges(&mut rng, n, n * 2) {
                        let _ = write!(text, "e({a},{b}). ");
                    }
                    text += "\np(X,Y) :- e(X,Y).\np(X,Z) :- p(X,Y), e(Y,Z).\nsym(X) :- p(X,X).\n#show sym/1.\n";
                    (format!("closure{n}"), text)
                }
            };
            (format!("p{i:03}-{stem}.lp"), text)
        })
        .collect()
}

/// `m` distinct undirected edges over `n` nodes (fewer when the graph is complete).
fn random_edges(rng: &mut ChaCha8Rng, n: u32, m: u32) -> Vec<(u32, u32)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    let most = n * (n - 1) / 2;
    while out.len() < m.min(most) as usize {
        let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
        if a != b && seen.insert((a.min(b), a.max(b))) {
            out.push((a.min(b), a.max(b)));
        }
    }
    out
}

/// `x·y = n` over 2w bits with `1 < x, y < 2^w`: sat when `n` is a product of two w-bit
/// primes, unsat when `n` is a prime.
fn factoring(rng: &mut ChaCha8Rng, w: u32, sat: bool) -> (String, String) {
    let n = if sat {
        prime_in(rng, 1 << (w - 1), 1 << w) * prime_in(rng, 1 << (w - 1), 1 << w)
    } else {
        prime_in(rng, 1 << (2 * w - 2), 1 << (2 * w - 1))
    };
    let b = 2 * w;
    let status = if sat { "sat" } else { "unsat" };
    let text = format!(
        "(set-info :status {status})\n(set-logic QF_BV)\n\
         (declare-fun x () (_ BitVec {b}))\n(declare-fun y () (_ BitVec {b}))\n\
         (assert (= (bvmul x y) (_ bv{n} {b})))\n\
         (assert (bvult x (_ bv{m} {b})))\n(assert (bvult y (_ bv{m} {b})))\n\
         (assert (bvugt x (_ bv1 {b})))\n(assert (bvugt y (_ bv1 {b})))\n(check-sat)\n",
        m = 1u64 << w
    );
    (format!("factor{w}-{status}"), text)
}

/// `n + 1` pigeons in `n` holes: unsat.
fn pigeonhole(n: u32) -> (String, String) {
    let mut text = String::from("(set-info :status unsat)\n(set-logic QF_LIA)\n");
    for i in 0..=n {
        let _ = write!(text, "(declare-fun p{i} () Int)\n(assert (and (>= p{i} 0) (< p{i} {n})))\n");
    }
    let all: Vec<String> = (0..=n).map(|i| format!("p{i}")).collect();
    let _ = write!(text, "(assert (distinct {}))\n(check-sat)\n", all.join(" "));
    (format!("php{n}-unsat"), text)
}

/// A random 3-SAT formula at clause/variable ratio 4.26 (status unknown).
fn random_3sat(rng: &mut ChaCha8Rng, vars: u32) -> (String, String) {
    let mut text = String::from("(set-logic QF_UF)\n");
    for v in 0..vars {
        let _ = writeln!(text, "(declare-fun v{v} () Bool)");
    }
    for _ in 0..vars * 426 / 100 {
        let lits: Vec<String> = (0..3)
            .map(|_| {
                let v = rng.gen_range(0..vars);
                if rng.gen_bool(0.5) {
                    format!("(not v{v})")
                } else {
                    format!("v{v}")
                }
            })
            .collect();
        let _ = writeln!(text, "(assert (or {}))", lits.join(" "));
    }
    text += "(check-sat)\n";
    (format!("rand3sat{vars}"), text)
}

/// A prime drawn uniformly from `[lo, hi)` (rejection sampling; the ranges are dense in primes).
fn prime_in(rng: &mut ChaCha8Rng, lo: u64, hi: u64) -> u64 {
    loop {
        let n = rng.gen_range(lo..hi) | 1;
        if is_prime(n) {
            return n;
        }
    }
}

/// Deterministic Miller–Rabin for 64-bit numbers.
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if let Some(&p) = BASES.iter().find(|&&p| n.is_multiple_of(p)) {
        return n == p;
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    let mul = |a: u64, b: u64| u64::try_from(u128::from(a) * u128::from(b) % u128::from(n)).unwrap_or(0);
    let pow = |mut b: u64, mut e: u64| {
        let mut r = 1;
        while e > 0 {
            if e & 1 == 1 {
                r = mul(r, b);
            }
            b = mul(b, b);
            e >>= 1;
        }
        r
    };
    BASES.iter().all(|&a| {
        let mut x = pow(a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        (1..s).any(|_| {
            x = mul(x, x);
            x == n - 1
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_batches() {
        let primes: Vec<u64> = (0..40).filter(|&n| is_prime(n)).collect();
        assert_eq!(primes, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]);
        assert!(is_prime(1_000_000_007) && !is_prime(1_000_000_007 * 3));
        let a = smt_batch(5, 8, Size::Tiny);
        assert_eq!(a, smt_batch(5, 8, Size::Tiny), "a pure function of the seed");
        assert_eq!(a.len(), 8);
        assert!(a[0].0.ends_with("-sat.smt2") && a[1].0.ends_with("-unsat.smt2") && a[2].0.contains("php"));
    }
}
