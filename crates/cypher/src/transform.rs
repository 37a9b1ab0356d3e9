//! GraphGenie's graph query transformations (ICSE'24): a query rewritten so that its answer
//! keeps a known relation to the original's — the same multiset (equivalent), or one that
//! contains it (a superset). The `equivalence` oracle runs both on one engine and checks the
//! relation, so an engine is tested alone.
//!
//! Why each relation holds:
//! - [`Transform::Reverse`]: a path read backwards (`(a)-[r]->(b)` as `(b)<-[r]-(a)`) binds the
//!   same variables to the same elements: equivalent.
//! - [`Transform::Tautology`]: `p OR NOT p OR p IS NULL` is true for every row in three-valued
//!   logic, so conjoined to a WHERE it drops nothing: equivalent.
//! - [`Transform::WithStar`]: `WITH *` passes every variable of every row on: equivalent.
//! - [`Transform::Undirect`]: an undirected hop matches each relationship the directed one
//!   matched (and those of the other direction): every binding of the original is one of the
//!   new pattern's, so a superset. Only for a MATCH that is not OPTIONAL (there, a new match
//!   replaces a row of nulls).
//! - [`Transform::SplitMatch`]: a MATCH's last pattern (or the tail of its one path) moved into
//!   a MATCH of its own, which takes the WHERE: one MATCH may bind a relationship once only
//!   (Cypher's relationship uniqueness; Kuzu does not apply it, and then the two are equal),
//!   two may bind it twice, so a superset.
//!
//! A superset of a clause's rows stays a superset at the end only when every later clause maps
//! rows one by one or keeps them as a set: MATCH, OPTIONAL MATCH, UNWIND, WITH and RETURN
//! without aggregates (DISTINCT is fine) and no LIMIT ([`monotone_after`]).

use crate::model::{Clause, Dir, Expr, NodePat, Pattern, Query};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Transform {
    /// Every pattern of MATCH clause `clause` read backwards.
    Reverse { clause: usize },
    /// The WHERE of MATCH clause `clause` conjoined with `p OR NOT p OR p IS NULL`.
    Tautology { clause: usize, pred: Expr },
    /// `WITH *` inserted before clause `at` (never the first).
    WithStar { at: usize },
    /// Every directed hop of MATCH clause `clause` made undirected.
    Undirect { clause: usize },
    /// MATCH clause `clause` split in two.
    SplitMatch { clause: usize },
}

/// The relation the transformed query's answer has to the original's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Equal,
    Superset,
}

impl Transform {
    pub fn expect(&self) -> Expect {
        match self {
            Transform::Reverse { .. } | Transform::Tautology { .. } | Transform::WithStar { .. } => Expect::Equal,
            Transform::Undirect { .. } | Transform::SplitMatch { .. } => Expect::Superset,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Transform::Reverse { .. } => "reverse",
            Transform::Tautology { .. } => "tautology",
            Transform::WithStar { .. } => "with-star",
            Transform::Undirect { .. } => "undirect",
            Transform::SplitMatch { .. } => "split-match",
        }
    }

    /// The clause the transformation rewrites (or is inserted before).
    pub fn clause(&self) -> usize {
        match self {
            Transform::Reverse { clause }
            | Transform::Tautology { clause, .. }
            | Transform::Undirect { clause }
            | Transform::SplitMatch { clause } => *clause,
            Transform::WithStar { at } => *at,
        }
    }

    pub fn clause_mut(&mut self) -> &mut usize {
        match self {
            Transform::Reverse { clause }
            | Transform::Tautology { clause, .. }
            | Transform::Undirect { clause }
            | Transform::SplitMatch { clause } => clause,
            Transform::WithStar { at } => at,
        }
    }

    /// The transformed query, or `None` when the transformation does not apply to `q` (its
    /// clause is gone or of another kind, the relation would not hold, or nothing changes).
    pub fn apply(&self, q: &Query) -> Option<Query> {
        let at = self.clause();
        let mut out = q.clone();
        match self {
            Transform::WithStar { at } => {
                if *at == 0 || *at > q.clauses.len() {
                    return None;
                }
                out.clauses.insert(*at, Clause::With { distinct: false, items: Vec::new(), filter: None });
                return Some(out);
            }
            Transform::Undirect { .. } | Transform::SplitMatch { .. } if !monotone_after(q, at) => return None,
            _ => {}
        }
        let Some(Clause::Match { optional, patterns, filter }) = out.clauses.get_mut(at) else { return None };
        match self {
            Transform::Reverse { .. } => patterns.iter_mut().for_each(reverse),
            Transform::Tautology { pred, .. } => {
                let p = || Box::new(pred.clone());
                let taut =
                    Expr::Or(Box::new(Expr::Or(p(), Box::new(Expr::Not(p())))), Box::new(Expr::IsNull(p(), false)));
                *filter = Some(match filter.take() {
                    Some(w) => Expr::And(Box::new(w), Box::new(taut)),
                    None => taut,
                });
            }
            Transform::Undirect { .. } if !*optional => {
                patterns.iter_mut().flat_map(|p| &mut p.hops).for_each(|(r, _)| r.dir = Dir::Both)
            }
            Transform::SplitMatch { .. } if !*optional => {
                let tail = split_off(patterns)?;
                let second = Clause::Match { optional: false, patterns: vec![tail], filter: filter.take() };
                out.clauses.insert(at + 1, second);
            }
            _ => return None,
        }
        (out != *q).then_some(out)
    }
}

/// A path read backwards.
fn reverse(p: &mut Pattern) {
    let mut nodes = vec![p.start.clone()];
    let mut rels = Vec::new();
    for (r, n) in p.hops.drain(..) {
        rels.push(r);
        nodes.push(n);
    }
    nodes.reverse();
    rels.reverse();
    let mut nodes = nodes.into_iter();
    let Some(start) = nodes.next() else { return };
    p.start = start;
    p.hops = rels
        .into_iter()
        .zip(nodes)
        .map(|(mut r, n)| {
            r.dir = match r.dir {
                Dir::Out => Dir::In,
                Dir::In => Dir::Out,
                Dir::Both => Dir::Both,
            };
            (r, n)
        })
        .collect();
}

/// Removes what goes into the second MATCH: the last pattern if there are several, else the
/// one path's last hop, which then starts at the variable of the node before it.
fn split_off(patterns: &mut Vec<Pattern>) -> Option<Pattern> {
    if patterns.len() > 1 {
        return patterns.pop();
    }
    let path = patterns.first_mut()?;
    if path.hops.len() < 2 {
        return None;
    }
    let (r, n) = path.hops.pop()?;
    let joint = path.hops.last().map(|(_, n)| n.var.clone())?;
    Some(Pattern { start: NodePat { var: joint, label: None, props: Vec::new() }, hops: vec![(r, n)] })
}

/// Whether a superset of clause `at`'s rows stays a superset of the query's answer.
pub fn monotone_after(q: &Query, at: usize) -> bool {
    let later_ok = q.clauses.iter().skip(at + 1).all(|c| match c {
        Clause::With { items, .. } => !items.iter().any(|i| i.expr.has_agg()),
        Clause::Match { .. } | Clause::Unwind { .. } => true,
    });
    later_ok && q.ret.limit.is_none() && !q.ret.items.iter().any(|i| i.expr.has_agg())
}
