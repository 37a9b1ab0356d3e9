//! Which bug a finding is. A bug is a bucket (leg, oracle, class, engine and the leg's kind of
//! difference) and the features of the smallest case known to show it. A finding whose case
//! has every feature of a bug's case is that bug: the smaller case already shows the failure
//! without the rest. A finding that no bug explains starts one, and the bugs whose cases include
//! its features are merged into it. The worker asks the same question before it reduces, so a
//! flood of one failure is reduced a few times, not thousands.

use crate::kind::Shape;
use std::collections::{BTreeSet, HashMap};

/// One bug: the signature the store keys it by and the features of its smallest case.
#[derive(Clone, Debug)]
struct Bug {
    signature: String,
    features: BTreeSet<String>,
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
    /// The bug that explains a finding of `shape` in `bucket`: the most specific one whose
    /// features the finding's case has.
    fn explaining<'a>(&'a self, bucket: &str, shape: &Shape) -> Option<&'a Bug> {
        let bugs = self.buckets.get(&bucket_key(bucket, shape))?;
        bugs.iter().filter(|b| b.features.is_subset(&shape.features)).max_by_key(|b| b.features.len())
    }

    /// Whether a known bug explains the finding (and reducing it would tell nothing new).
    pub fn covers(&self, bucket: &str, shape: &Shape) -> bool {
        self.explaining(bucket, shape).is_some()
    }

    /// Files a finding of `shape` (of its reduced case when there is one) under a bug.
    pub fn place(&mut self, bucket: &str, shape: &Shape) -> Placement {
        if let Some(b) = self.explaining(bucket, shape) {
            return Placement { signature: b.signature.clone(), new: false, merged: Vec::new() };
        }
        let key = bucket_key(bucket, shape);
        let signature = format!("{key}|{}", shape.features.iter().cloned().collect::<Vec<_>>().join(","));
        let bugs = self.buckets.entry(key).or_default();
        let (merged, kept): (Vec<Bug>, Vec<Bug>) = bugs.drain(..).partition(|b| shape.features.is_subset(&b.features));
        *bugs = kept;
        bugs.push(Bug { signature: signature.clone(), features: shape.features.clone() });
        Placement { signature, new: true, merged: merged.into_iter().map(|b| b.signature).collect() }
    }

    /// How many distinct bugs there are.
    pub fn len(&self) -> usize {
        self.buckets.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
    fn configurations_that_do_not_include_each_other_stay_apart() {
        let mut d = Dedup::default();
        d.place("smt|storm|soundness|z3", &shape("unsat", &["logic=QF_LIA", "one-shot"]));
        let bv = d.place("smt|storm|soundness|z3", &shape("unsat", &["logic=QF_BV", "one-shot"]));
        assert!(bv.new && bv.merged.is_empty());
        assert_eq!(d.len(), 2);
    }
}
