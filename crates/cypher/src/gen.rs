//! GDsmith's schema and graph generation (extraction §2.2): labels and relationship types with
//! globally unique typed property keys, the label pairs each type may connect, and a graph
//! whose property values come from small per-key pools, so that equality predicates hit.
//! Sizes follow the seed's non-empty experiments (small graphs) rather than the repository's
//! 128 nodes: a small graph keeps most multi-pattern queries cheap and non-empty.

use crate::model::{Graph, Index, Lit, Node, Prop, Rel, RelType, Schema, Ty};
use rand::Rng;
use std::collections::BTreeMap;

/// Values per property key: the repository's pools hold 20; fewer make equalities hit on
/// graphs this small.
const POOL: usize = 6;

fn pick_ty<R: Rng + ?Sized>(rng: &mut R) -> Ty {
    [Ty::Int, Ty::Str, Ty::Bool][rng.gen_range(0..3)]
}

pub fn schema(rng: &mut impl Rng) -> Schema {
    let mut key = 0;
    let mut props = |rng: &mut dyn rand::RngCore, lo: usize, hi: usize| -> Vec<Prop> {
        let n = rng.gen_range(lo..=hi);
        (0..n)
            .map(|_| {
                key += 1;
                Prop { key: format!("k{}", key - 1), ty: pick_ty(&mut *rng) }
            })
            .collect()
    };
    let nl = rng.gen_range(3..=5);
    let labels: Vec<Vec<Prop>> = (0..nl).map(|_| props(rng, 2, 4)).collect();
    let nt = rng.gen_range(3..=5);
    let mut types = Vec::new();
    for _ in 0..nt {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for _ in 0..rng.gen_range(1..=3) {
            let p = (rng.gen_range(0..nl), rng.gen_range(0..nl));
            if !pairs.contains(&p) {
                pairs.push(p);
            }
        }
        types.push(RelType { props: props(rng, 1, 3), pairs });
    }
    Schema { labels, types }
}

/// A random value of `ty`: integers in the 32-bit range (so that a sum of a few cannot
/// overflow 64 bits) with the special values GDsmith favours, short alphanumeric strings.
pub fn value(rng: &mut impl Rng, ty: Ty) -> Lit {
    match ty {
        Ty::Int => Lit::Int(match rng.gen_range(0..4) {
            0 => [0, 1, -1, i64::from(i32::MAX), i64::from(i32::MIN)][rng.gen_range(0..5)],
            1 => rng.gen_range(-10..10),
            _ => rng.gen_range(i64::from(i32::MIN)..=i64::from(i32::MAX)),
        }),
        Ty::Str => {
            const CHARS: &[u8] = b"abcABC019xyz";
            let n = rng.gen_range(0..=4);
            Lit::Str((0..n).map(|_| char::from(CHARS[rng.gen_range(0..CHARS.len())])).collect())
        }
        Ty::Bool => Lit::Bool(rng.gen_bool(0.5)),
    }
}

/// Each property key's pool of values.
pub type Pools = BTreeMap<String, Vec<Lit>>;

pub fn pools(rng: &mut impl Rng, schema: &Schema) -> Pools {
    let all = schema.labels.iter().flatten().chain(schema.types.iter().flat_map(|t| &t.props));
    all.map(|p| (p.key.clone(), (0..POOL).map(|_| value(rng, p.ty)).collect())).collect()
}

fn fill(rng: &mut impl Rng, props: &[&Prop], pools: &Pools) -> Vec<(String, Lit)> {
    let mut out = Vec::new();
    for p in props {
        if let Some(pool) = pools.get(&p.key).filter(|_| rng.gen_bool(0.9)) {
            out.push((p.key.clone(), pool[rng.gen_range(0..pool.len())].clone()));
        }
    }
    out
}

/// The graph of `round`: 6 to 14 nodes, each with one label (up to two where `multi_label`),
/// then relationships whose type allows their endpoints' labels (no self-loop unless
/// `self_loops`: the dialects count them differently in undirected patterns).
pub fn graph(rng: &mut impl Rng, round: u64, multi_label: bool, self_loops: bool) -> (Graph, Pools) {
    let schema = schema(rng);
    let pools = pools(rng, &schema);
    let nl = schema.labels.len();
    let mut nodes = Vec::new();
    for id in 0..rng.gen_range(6..=14) {
        let mut labels = vec![rng.gen_range(0..nl)];
        if multi_label && rng.gen_bool(0.2) {
            let l = rng.gen_range(0..nl);
            if !labels.contains(&l) {
                labels.push(l);
            }
        }
        let props: Vec<&Prop> = labels.iter().flat_map(|l| &schema.labels[*l]).collect();
        let props = fill(rng, &props, &pools);
        nodes.push(Node { id, labels, props });
    }
    let mut rels = Vec::new();
    let mut next = nodes.len() as i64;
    for _ in 0..rng.gen_range(6..=20) {
        let ty = rng.gen_range(0..schema.types.len());
        let t = &schema.types[ty];
        let (a, b) = t.pairs[rng.gen_range(0..t.pairs.len())];
        let from: Vec<i64> = nodes.iter().filter(|n| n.labels.first() == Some(&a)).map(|n| n.id).collect();
        let to: Vec<i64> = nodes.iter().filter(|n| n.labels.first() == Some(&b)).map(|n| n.id).collect();
        if from.is_empty() || to.is_empty() {
            continue;
        }
        let (from, to) = (from[rng.gen_range(0..from.len())], to[rng.gen_range(0..to.len())]);
        if from == to && !self_loops {
            continue;
        }
        let props: Vec<&Prop> = t.props.iter().collect();
        rels.push(Rel { id: next, ty, from, to, props: fill(rng, &props, &pools) });
        next += 1;
    }
    let indexes = indexes(rng, &schema);
    (Graph { round, schema, nodes, rels, indexes }, pools)
}

/// 0 to 4 distinct property indexes, on labels' and relationship types' keys (drawn after the
/// elements, so that a seed's graphs do not depend on them).
fn indexes(rng: &mut impl Rng, schema: &Schema) -> Vec<Index> {
    let mut all: Vec<Index> = schema
        .labels
        .iter()
        .enumerate()
        .flat_map(|(l, ps)| ps.iter().map(move |p| Index::Node(l, p.key.clone())))
        .collect();
    all.extend(
        schema.types.iter().enumerate().flat_map(|(t, r)| r.props.iter().map(move |p| Index::Rel(t, p.key.clone()))),
    );
    let mut out = Vec::new();
    for _ in 0..rng.gen_range(0..=4) {
        if all.is_empty() {
            break;
        }
        out.push(all.swap_remove(rng.gen_range(0..all.len())));
    }
    out
}
