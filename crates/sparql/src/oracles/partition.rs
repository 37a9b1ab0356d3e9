//! `partition`: ternary logic partitioning adapted to SPARQL, on one store alone.
//!
//! A FILTER keeps a solution only when its condition's effective boolean value is true; false
//! and error both drop it. So for the solutions Ω of a query's group and a predicate p:
//!
//! ```text
//! Ω = Filter(p, Ω) ⊎ Filter(!p, Ω) ⊎ Filter(!COALESCE(p || !p, false), Ω)
//! ```
//!
//! as multisets. Proof per solution μ, by the value of EBV(p) under μ: true → only the first
//! keeps μ (`!p` is false; `p || !p` is true, so the third is `!true`); false → only the
//! second (`!p` is true; `p || !p` is true); error → `p` and `!p` are errors, and `p || !p` is
//! an error too (`||` is true only if a side is true), so COALESCE falls through to `false` and
//! only the third keeps μ. A group's FILTERs apply to the whole group (SPARQL §18.2.2), so the
//! added FILTER sees the same solutions as the unfiltered query, OPTIONAL and UNION included;
//! an existing FILTER f becomes `f && p`, which is true exactly when both are. Projection maps
//! each side alike; under DISTINCT the union is made distinct again. The generator leaves
//! ORDER BY, LIMIT and OFFSET out of partition cases (a window of each part is not a part of
//! the window).
//!
//! A store whose dialect lacks `Cap::ErrorPartition` (Virtuoso: its COALESCE turns an error
//! into a value) cannot select the error part; there the oracle checks what holds whatever
//! errors do: Filter(p, Ω) ⊎ Filter(!p, Ω) ⊆ Ω (a solution cannot make both p and !p true).

use super::{answer, error_finding, Ran, Transcript};
use crate::dialect::{self, Cap};
use crate::model::{Case, Expr, Func, Lit, Query};
use crate::normalize::{compare, Norm};
use crate::print;
use crosscheck_core::bag::{union_all, Relation};
use crosscheck_core::groups::Partitioned;
use crosscheck_core::{Check, CheckOptions, Engine, Rows};

/// The key of a two-part finding: a solution kept by both FILTER(p) and FILTER(!p). However
/// the query reached it, the cause is one: the store's `!` is not the complement of its
/// FILTER (Virtuoso: `FILTER(!?unbound)` keeps a solution `FILTER(?unbound)` keeps too), so it
/// is one bug (`reduce::signature`), not one per operator mix.
pub const OVERLAP: &str = "partition:negation-overlap";

/// `!COALESCE(p || !p, false)`: true exactly where p's effective boolean value is an error.
pub fn errs(p: &Expr) -> Expr {
    let total = Expr::Or(Box::new(p.clone()), Box::new(Expr::negate(p.clone())));
    Expr::negate(Expr::call(Func::Coalesce, vec![total, Expr::Lit(Lit::typed("false", "boolean"))]))
}

/// The unfiltered query and its three parts, printed.
pub fn texts(case: &Case, p: &Expr) -> [String; 4] {
    let with = |f: Expr| {
        let mut q: Query = case.query.clone();
        q.group.filters.push(f);
        print::query(&case.graph, &q, None)
    };
    [print::query(&case.graph, &case.query, None), with(p.clone()), with(Expr::Not(Box::new(p.clone()))), with(errs(p))]
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let Some(p) = &case.pred else { return Check::Skip("no partition predicate (a store lacks COALESCE)".into()) };
    let texts = texts(case, p);
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let label = e.info().label.clone();
        let three = dialect::by_name(&e.info().dialect).is_some_and(|d| d.has(Cap::ErrorPartition));
        let run = if three { &texts[..] } else { &texts[..3] };
        let mut parts: Vec<Rows> = Vec::new();
        for t in run {
            // Within one store its own blank-node labels are stable, so no mapping is needed;
            // terms stay as the store wrote them, so that DISTINCT below, like the store's,
            // keeps `"0"^^xsd:int` and `"0"^^xsd:integer` apart.
            let exact = Norm { numeric_canon: false, ..Norm::default() };
            match answer(e.as_mut(), case, t, opts, exact, false) {
                Ok(Ran::Rows(r)) => parts.push(r),
                Ok(Ran::Error(m)) => {
                    return error_finding(&label, &m, &Transcript { queries: vec![t.clone()], answers: vec![] })
                }
                Err(check) => return check,
            }
        }
        let whole = &parts[0];
        nonempty |= !whole.is_empty();
        let mut union = union_all(&parts[1..]);
        if case.query.distinct {
            // Solutions of different parts may project to one row.
            let mut seen = std::collections::HashSet::new();
            let opts = crosscheck_core::CompareOptions::default();
            union.rows.retain(|r| seen.insert(r.iter().map(|v| v.canon(&opts)).collect::<Vec<_>>()));
        }
        let d = compare(whole, &union, false);
        let holds = d.is_empty() || !three && d.relation() == Relation::Subset;
        if !holds {
            let relation = d.relation().name();
            return Partitioned {
                label: &label,
                names: &["unfiltered", "p", "!p", "error(p)"],
                parts: &parts,
                union: &union,
                by: if three { "p, !p and error(p)" } else { "p and !p" },
                relation,
                key: if three { format!("partition:{relation}") } else { OVERLAP.to_string() },
                texts: texts.to_vec(),
            }
            .finding();
        }
    }
    Check::Pass { nonempty }
}
