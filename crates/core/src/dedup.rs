//! Which bug a finding is. A bug is a bucket (leg, oracle, class, engine and the leg's kind of
//! difference) and the features of the smallest cases known to show it. A finding whose case
//! has every feature of one of a bug's cases is that bug: the smaller case already shows the
//! failure without the rest. A reduced case that is a neighbour of one of a bug's cases (see
//! [`neighbours`]) joins that bug as one more of its cases. A finding that no bug explains
//! starts one, and the bugs with a case that includes its features are merged into its bug.
//! The worker asks the same question before it reduces, so a flood of one failure is reduced a
//! few times, not thousands.

use crate::kind::Shape;
use std::collections::{BTreeSet, HashMap};

/// One bug: the signature the store keys it by and the features of its smallest cases, none
/// of which includes another bug's.
#[derive(Clone, Debug)]
struct Bug {
    signature: String,
    cases: Vec<BTreeSet<String>>,
    /// The ways its findings' answers differed (`Shape::direction`).
    directions: BTreeSet<String>,
}

impl Bug {
    /// How specific the most specific of this bug's cases that `features` include is.
    fn explains(&self, features: &BTreeSet<String>) -> Option<usize> {
        self.cases.iter().filter(|c| c.is_subset(features)).map(BTreeSet::len).max()
    }

    /// Whether `features` are a case of this bug by a case it includes.
    fn shown_by(&self, features: &BTreeSet<String>) -> bool {
        self.cases.iter().any(|c| features.is_subset(c))
    }
}

/// Where a finding goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The signature of the bug the finding belongs to.
    pub signature: String,
    /// Whether the finding starts that bug.
    pub new: bool,
    /// Signatures of known bugs that the finding's smaller case shows to be this one.
    pub merged: Vec<String>,
}

/// The bugs of one campaign (or one worker's share of it).
#[derive(Debug, Default)]
pub struct Dedup {
    buckets: HashMap<String, Vec<Bug>>,
}

impl Dedup {
    /// The bug that explains a finding of `shape` in `bucket`: the one with the most specific
    /// case whose features the finding's case has.
    fn explaining(&self, key: &str, shape: &Shape) -> Option<&Bug> {
        let at = self.explaining_at(key, shape)?;
        self.buckets.get(key)?.get(at)
    }

    /// Where that bug is in its bucket.
    fn explaining_at(&self, key: &str, shape: &Shape) -> Option<usize> {
        let bugs = self.buckets.get(key)?;
        let explained = bugs.iter().enumerate().filter_map(|(i, b)| Some((b.explains(&shape.features)?, i)));
        explained.max_by_key(|(n, _)| *n).map(|(_, i)| i)
    }

    /// Whether a known bug explains the finding (and reducing it would tell nothing new): one
    /// whose case it contains and that failed the same way before. A case with every feature
    /// of a small bug's case may show another bug too (in one campaign, three of seven such
    /// cases reduced to another bug); one that fails the other way is reduced to see which.
    /// Neighbours do not count: an unreduced case is rarely one, and the worker's books must
    /// not skip a reduction that the supervisor's would not.
    pub fn covers(&self, bucket: &str, shape: &Shape) -> bool {
        self.explaining(&bucket_key(bucket, shape), shape).is_some_and(|b| b.directions.contains(&shape.direction))
    }

    /// Files a finding of `shape` (of its reduced case when there is one) under a bug: one
    /// that explains it, else one it neighbours, else a new one. Bugs it shows join that bug.
    pub fn place(&mut self, bucket: &str, shape: &Shape) -> Placement {
        let key = bucket_key(bucket, shape);
        if let Some(at) = self.explaining_at(&key, shape) {
            if let Some(b) = self.buckets.get_mut(&key).and_then(|bugs| bugs.get_mut(at)) {
                b.directions.insert(shape.direction.clone());
                return Placement { signature: b.signature.clone(), new: false, merged: Vec::new() };
            }
        }
        let fresh = format!("{key}|{}", shape.features.iter().cloned().collect::<Vec<_>>().join(","));
        let bugs = self.buckets.entry(key).or_default();
        let (shown, mut kept): (Vec<Bug>, Vec<Bug>) = bugs.drain(..).partition(|b| b.shown_by(&shape.features));
        let near = kept.iter().position(|b| b.cases.iter().any(|c| neighbours(c, &shape.features)));
        let at = near.unwrap_or_else(|| {
            kept.push(Bug { signature: fresh, cases: Vec::new(), directions: BTreeSet::new() });
            kept.len() - 1
        });
        let bug = &mut kept[at];
        // The cases of the bugs this one shows are larger than its new case: dropped.
        bug.cases.retain(|c| !shape.features.is_subset(c));
        bug.cases.push(shape.features.clone());
        bug.directions.insert(shape.direction.clone());
        bug.directions.extend(shown.iter().flat_map(|b| b.directions.iter().cloned()));
        let signature = bug.signature.clone();
        *bugs = kept;
        Placement { signature, new: near.is_none(), merged: shown.into_iter().map(|b| b.signature).collect() }
    }

    /// How many distinct bugs there are.
    pub fn len(&self) -> usize {
        self.buckets.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The fewest features two neighbouring cases share.
const NEIGHBOUR_SHARED: usize = 3;

/// Two reduced cases of one kind of difference that share their context (at least
/// [`NEIGHBOUR_SHARED`] features) and differ in one feature each: the operator that fills one
/// slot of the failing construct. Each minimal case needs *some* operator there (a strict
/// dialect takes only a predicate in a WHERE), so no case is a subset of the other, and one
/// MariaDB outer-join bug, met through `>=`, `IS NOT NULL` and a CAST in its subquery, was
/// three bugs. Less context is too little: `where, case, compare` and `where, coalesce,
/// compare` would join a CASE bug to a COALESCE bug. In four 10-minute campaigns (115 finding
/// directories) every neighbouring pair lay within one hand-triaged bug.
/// A case that includes the other is no neighbour: the subset rule files it.
fn neighbours(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    a.difference(b).count() == 1 && b.difference(a).count() == 1 && a.intersection(b).count() >= NEIGHBOUR_SHARED
}

fn bucket_key(bucket: &str, shape: &Shape) -> String {
    format!("{bucket}|{}", shape.head)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(head: &str, features: &[&str]) -> Shape {
        Shape::new(head, features.iter().map(|f| f.to_string()))
    }

    #[test]
    fn a_smaller_case_explains_larger_ones_and_absorbs_their_bugs() {
        let mut d = Dedup::default();
        let view = d.place("sql|tlp|logic|e", &shape("rows-differ", &["view", "where"]));
        assert!(view.new);
        let pk = d.place("sql|tlp|logic|e", &shape("rows-differ", &["pk", "where"]));
        assert!(pk.new && pk.merged.is_empty());
        assert_eq!(d.len(), 2);
        // A case with a view and more is the view bug; nothing is reduced for it.
        assert!(d.covers("sql|tlp|logic|e", &shape("rows-differ", &["view", "where", "distinct"])));
        assert!(!d.covers("sql|tlp|logic|e", &shape("rows-differ", &["distinct"])));
        // Another kind of difference, or another engine, is another bug.
        assert!(!d.covers("sql|tlp|logic|e", &shape("aggregate-rows", &["view", "where"])));
        assert!(!d.covers("sql|tlp|logic|f", &shape("rows-differ", &["view", "where"])));
        // The plain case shows both: they were one bug.
        let plain = d.place("sql|tlp|logic|e", &shape("rows-differ", &["where"]));
        assert!(plain.new);
        assert_eq!(plain.merged, vec![view.signature, pk.signature]);
        assert_eq!(d.len(), 1);
        assert_eq!(plain.signature, "sql|tlp|logic|e|rows-differ|where");
        let again = d.place("sql|tlp|logic|e", &shape("rows-differ", &["where", "pk"]));
        assert_eq!((again.new, again.signature), (false, plain.signature));
    }

    #[test]
    fn cases_one_operator_apart_in_a_shared_context_are_one_bug() {
        let mut d = Dedup::default();
        let b = "sql|differential|logic|m";
        let ctx = ["view", "outer-join", "where", "subquery-predicate"];
        let with = |op: &str| shape("differential:m", &ctx.iter().copied().chain([op]).collect::<Vec<_>>());
        let first = d.place(b, &with("compare"));
        let second = d.place(b, &with("null-test"));
        assert_eq!((second.new, &second.signature), (false, &first.signature));
        // A neighbour is not asked about before reduction: the worker reduces it.
        assert!(!d.covers(b, &with("cast")));
        // Two features apart, or too small a shared context: apart.
        assert!(d.place(b, &shape("differential:m", &["view", "outer-join", "where", "cast", "case"])).new);
        assert!(d.place(b, &shape("differential:m", &["where", "case", "compare"])).new);
        assert!(d.place(b, &shape("differential:m", &["where", "case", "like"])).new);
        assert_eq!(d.len(), 4);
        // The case that joined as a neighbour explains what contains it, as the first does.
        let mut grown = with("null-test");
        grown.features.insert("pk".into());
        assert!(d.covers(b, &grown));
        // A case smaller than the one that joined as a neighbour shows the whole bug.
        let smaller = shape("differential:m", &["view", "outer-join", "where", "null-test"]);
        let p = d.place(b, &smaller);
        assert_eq!((p.new, p.merged), (true, vec![first.signature]));
        assert_eq!(d.len(), 4);
    }

    #[test]
    fn a_case_that_fails_another_way_is_reduced_before_it_is_filed() {
        let mut d = Dedup::default();
        let b = "sql|differential|logic|m";
        let way = |direction: &str, features: &[&str]| Shape {
            direction: direction.into(),
            ..shape("differential:m", features)
        };
        d.place(b, &way("superset", &["distinct", "Mul"]));
        let larger = ["distinct", "Mul", "view", "null-safe-compare"];
        assert!(d.covers(b, &way("superset", &larger)));
        assert!(!d.covers(b, &way("subset", &larger)));
        // Filed all the same (as an unreduced case is once reduction is out of budget), it
        // makes the bug one that failed both ways.
        assert!(!d.place(b, &way("subset", &larger)).new);
        assert!(d.covers(b, &way("subset", &larger)));
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn a_smaller_case_than_a_neighbour_absorbs_its_bug() {
        let mut d = Dedup::default();
        let b = "sql|differential|logic|m";
        let like = d.place(b, &shape("differential:m", &["case", "compare", "like", "where"]));
        // `where, case, compare` shows the LIKE case's bug (it is a subset, not a neighbour).
        let plain = d.place(b, &shape("differential:m", &["case", "compare", "where"]));
        assert!(plain.new);
        assert_eq!(plain.merged, vec![like.signature]);
        assert!(d.covers(b, &shape("differential:m", &["case", "compare", "where", "index", "pk"])));
        assert_eq!(d.len(), 1);
    }

    #[test]
    fn configurations_that_do_not_include_each_other_stay_apart() {
        let mut d = Dedup::default();
        d.place("smt|storm|soundness|z3", &shape("unsat", &["logic=QF_LIA", "one-shot"]));
        let bv = d.place("smt|storm|soundness|z3", &shape("unsat", &["logic=QF_BV", "one-shot"]));
        assert!(bv.new && bv.merged.is_empty());
        assert_eq!(d.len(), 2);
    }
}
