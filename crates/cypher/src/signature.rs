//! The deduplication signature of a Cypher finding: what the oracle saw (its key, without the
//! way the answers differed) and the shape of the (reduced) case, so that findings of one bug
//! on differently sized cases group together.

use crate::model::{Case, Clause, Expr, Query};
use crate::print;
use crosscheck_core::{Evidence, FindingClass, Shape};
use std::collections::BTreeSet;

/// The shape of a reduced case: the finding's key, the query's clauses, pattern features and
/// operators; names and values stripped. The graph is left out: a reduced graph keeps what the
/// bug did not need removed.
pub fn signature(case: &Case, evidence: &Evidence) -> Shape {
    // An engine's error or crash is its message (digits stripped), as in the other legs: the
    // shape of each query that met it would split one bug into as many as queries (LadybugDB's
    // `unordered_map::at` made 25 distinct findings of a 60-s run).
    if matches!(evidence.class, FindingClass::Error | FindingClass::Crash) {
        return Shape::new(evidence.key.clone(), []);
    }
    let mut f = BTreeSet::new();
    query_features(&case.query, true, &mut f);
    // The clauses and patterns the transformation wrote, not its name: one engine fault met
    // through several transformations is one bug (FalkorDB's collapse of parallel
    // relationships made 16 buckets when each transformation and relation had its own), while
    // a fault only the rewritten query has (a WITH, a reversed hop) keeps that construct among
    // its features. The tautology's operators are the oracle's, not the bug's.
    if let Some(t) = case.transform.as_ref().and_then(|t| t.apply(&case.query)) {
        query_features(&t, false, &mut f);
    }
    if let Some(s) = &case.split {
        ops(&s.pred, &mut f);
    }
    let (head, direction) = split_key(&evidence.key);
    Shape { head, features: f, direction }
}

/// A wrong answer's key without what does not tell bugs apart, and the way the answers
/// differed. The relation (rows lost, extra or changed) keeps a reduction on its failure but
/// does not split bugs: one wrong evaluation loses rows on some graphs and adds them on
/// others. Nor does a transformation's name (see [`signature`]) or the differential's
/// comparison mode, which the case's ORDER BY and LIMIT features already say.
fn split_key(key: &str) -> (String, String) {
    const RELATIONS: [&str; 3] = ["subset", "superset", "different"];
    let parts: Vec<&str> = key.split(':').collect();
    match parts.as_slice() {
        ["equivalence", _transform, rel] => ("equivalence".into(), (*rel).into()),
        ["partition", rel] => ("partition".into(), (*rel).into()),
        ["differential", _mode, rest @ .., last] if RELATIONS.contains(last) => {
            (format!("differential:{}", rest.join(":")), (*last).into())
        }
        ["differential", _mode, rest @ ..] => (format!("differential:{}", rest.join(":")), String::new()),
        _ => (key.to_string(), String::new()),
    }
}

/// The clauses and pattern features of `q`, and its operators when `with_ops`.
fn query_features(q: &Query, with_ops: bool, f: &mut BTreeSet<String>) {
    let mut add = |s: &str| {
        f.insert(s.to_string());
    };
    for c in &q.clauses {
        match c {
            Clause::Match { optional, patterns, .. } => {
                add(if *optional { "optional-match" } else { "match" });
                if patterns.len() > 1 {
                    add("pattern-tuple");
                }
                for p in patterns {
                    for (r, _) in &p.hops {
                        add(&format!("hop:{:?}", r.dir).to_lowercase());
                        if r.len.is_some() {
                            add("var-length");
                        }
                    }
                }
            }
            Clause::With { distinct, .. } => add(if *distinct { "with-distinct" } else { "with" }),
            Clause::Unwind { .. } => add("unwind"),
        }
    }
    for (on, name) in [(q.ret.distinct, "return-distinct"), (q.ret.order, "order"), (q.ret.limit.is_some(), "limit")] {
        if on {
            add(name);
        }
    }
    if !with_ops {
        return;
    }
    let mut exprs: Vec<&Expr> = q.ret.items.iter().map(|i| &i.expr).collect();
    for c in &q.clauses {
        match c {
            Clause::Match { filter, .. } => exprs.extend(filter.iter()),
            Clause::With { items, filter, .. } => {
                exprs.extend(items.iter().map(|i| &i.expr));
                exprs.extend(filter.iter());
            }
            Clause::Unwind { list, .. } => exprs.extend(list.iter()),
        }
    }
    for e in exprs {
        ops(e, f);
    }
}

fn ops(e: &Expr, out: &mut BTreeSet<String>) {
    let name = match e {
        Expr::Lit(_) | Expr::Var(_) | Expr::Prop(..) => String::new(),
        Expr::Not(_) => "NOT".into(),
        Expr::And(..) => "AND".into(),
        Expr::Or(..) => "OR".into(),
        Expr::Cmp(op, ..) => print::cmp_op(*op).into(),
        Expr::Str(op, ..) => print::str_op(*op).into(),
        Expr::IsNull(..) => "IS NULL".into(),
        Expr::Add(..) => "+".into(),
        Expr::Sub(..) => "-".into(),
        Expr::Concat(..) => "concat".into(),
        Expr::Call(func, _) => print::func(*func).into(),
        Expr::Agg(a, _) => format!("agg:{a:?}").to_lowercase(),
    };
    if !name.is_empty() {
        out.insert(name);
    }
    for c in e.children() {
        ops(c, out);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::Lit;
    use crate::reduce::tests::{case, matching};
    use crate::transform::Transform;

    pub(crate) fn evidence(class: FindingClass, key: &str) -> Evidence {
        Evidence {
            class,
            engines: vec!["e".into()],
            summary: String::new(),
            expected: String::new(),
            actual: String::new(),
            key: key.into(),
            detail: crosscheck_core::Detail::none(),
        }
    }

    /// An error or crash is one bug whatever query met it; a wrong answer is told apart by
    /// its query's shape.
    #[test]
    fn an_engine_error_is_one_bug_whatever_the_query() {
        use FindingClass::{Crash, Error, Logic};
        let unwind = Clause::Unwind { list: vec![Expr::Lit(Lit::Int(1))], alias: "a1".into() };
        let two = case(vec![matching("n0"), unwind], "n0", None);
        let one = case(vec![matching("n0")], "n0", None);
        for class in [Error, Crash] {
            let e = evidence(class, "error:unordered_map::at");
            assert_eq!(signature(&one, &e), signature(&two, &e));
        }
        let e = evidence(Logic, "partition:subset");
        assert_ne!(signature(&one, &e), signature(&two, &e));
    }

    /// One query whose rows an engine gets wrong, met through two transformations and both
    /// ways, is one bug; the differential's comparison mode does not split one either.
    #[test]
    fn transformations_relations_and_modes_do_not_split_a_bug() {
        let mut starred = case(vec![matching("n0"), matching("n1")], "n0", None);
        starred.transform = Some(Transform::WithStar { at: 1 });
        let mut tautology = starred.clone();
        let pred =
            Expr::Cmp(crate::model::CmpOp::Eq, Box::new(Expr::Var("n0".into())), Box::new(Expr::Var("n1".into())));
        tautology.transform = Some(Transform::Tautology { clause: 0, pred });
        let a = signature(&starred, &evidence(FindingClass::Logic, "equivalence:with-star:subset"));
        let b = signature(&tautology, &evidence(FindingClass::Logic, "equivalence:tautology:superset"));
        assert_eq!(
            (a.head.as_str(), a.direction.as_str(), b.direction.as_str()),
            ("equivalence", "subset", "superset")
        );
        // The WITH that WITH * wrote is a feature; the tautology's operators are not.
        assert!(a.features.contains("with") && !b.features.contains("OR"), "{a:?} {b:?}");
        let mut books = crosscheck_core::dedup::Dedup::default();
        let first = books.place("cypher|equivalence|logic|e", &a);
        // The smaller case shows the first bug: it takes it in.
        assert_eq!(books.place("cypher|equivalence|logic|e", &b).merged, vec![first.signature]);
        assert_eq!(books.len(), 1);
        let bag = signature(&starred, &evidence(FindingClass::Logic, "differential:bag:kuzu|ladybug"));
        let seq = signature(&starred, &evidence(FindingClass::Logic, "differential:sequence:kuzu|ladybug"));
        assert_eq!(bag.head, "differential:kuzu|ladybug");
        assert_eq!(bag, seq);
        let lost = signature(&starred, &evidence(FindingClass::Logic, "differential:bag:kuzu|ladybug:subset"));
        assert_eq!((lost.head.as_str(), lost.direction.as_str()), ("differential:kuzu|ladybug", "subset"));
    }
}
