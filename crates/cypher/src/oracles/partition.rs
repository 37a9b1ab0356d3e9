//! `partition`: GDBMeter's query partitioning for graphs, on one engine alone.
//!
//! A MATCH's WHERE keeps a row only when its condition is true (false and null both drop it).
//! For the MATCH's own condition w (true when it has none) and a predicate p, each row for
//! which w is true has exactly one of p, NOT p and p IS NULL true (Cypher's three-valued
//! logic), so
//!
//! ```text
//! Q(w) = Q(w AND p) ⊎ Q(w AND NOT p) ⊎ Q(w AND (p IS NULL))
//! ```
//!
//! as multisets, provided every clause after the MATCH maps each row on its own: MATCH,
//! OPTIONAL MATCH, UNWIND and a WITH without aggregates or DISTINCT, and a RETURN without
//! them, ORDER BY or LIMIT (the generator builds partition cases so). The split MATCH is never
//! OPTIONAL: there a WHERE is part of the pattern, not a filter.

use super::{dialect_of, error_finding, run, same_rows, Ran, Transcript};
use crate::dialect::Dialect;
use crate::model::{Expr, Split};
use crate::{print, Case};
use crosscheck_core::bag::union_all;
use crosscheck_core::groups::Partitioned;
use crosscheck_core::{Check, CheckOptions, Engine, Rows};

/// The unpartitioned query and its three parts, printed as `d` writes them.
pub fn texts(case: &Case, split: &Split, d: Option<&dyn Dialect>) -> [String; 4] {
    let own = case.query.clauses.get(split.clause).and_then(print::own_filter);
    let p = || Box::new(split.pred.clone());
    let with = |part: Expr| {
        let f = match own {
            Some(w) => Expr::And(Box::new(w.clone()), Box::new(part)),
            None => part,
        };
        print::query_in(&case.query, Some((split.clause, &f)), d)
    };
    [
        print::query_in(&case.query, None, d),
        with(split.pred.clone()),
        with(Expr::Not(p())),
        with(Expr::IsNull(p(), false)),
    ]
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let Some(split) = &case.split else { return Check::Skip("no MATCH to partition".into()) };
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let texts = texts(case, split, dialect_of(e.as_ref()));
        let label = e.info().label.clone();
        let mut parts: Vec<Rows> = Vec::new();
        for t in &texts {
            match run(e.as_mut(), &case.query, t, opts) {
                Ok(Ran::Rows(r)) => parts.push(r),
                Ok(Ran::Error(m)) => {
                    return error_finding(&label, &m, &Transcript { queries: vec![t.clone()], answers: vec![] })
                }
                Err(check) => return check,
            }
        }
        let whole = &parts[0];
        nonempty |= !whole.is_empty();
        let union = union_all(&parts[1..]);
        if same_rows(whole, &union, false) {
            continue;
        }
        let d = crosscheck_core::bag::diff(whole, &union, &super::compare_options());
        let relation = d.relation().name();
        return Partitioned {
            label: &label,
            names: &["unpartitioned", "p", "NOT p", "p IS NULL"],
            parts: &parts,
            union: &union,
            by: "p, NOT p and p IS NULL",
            relation,
            key: format!("partition:{relation}"),
            texts: texts.to_vec(),
        }
        .finding();
    }
    Check::Pass { nonempty }
}
