//! The comparison queryFuzz and DLSmith share: on each engine that supports both programs,
//! every output of the original against the transformed program's, in the relation the
//! transformation expects (equal, superset or subset).

use super::cache::{run_cached_timed, transformed_limit};
use super::{relation_name, render, rows_json, run, supports, DatalogOracle, Detail, TIMED_OUT};
use crate::ast::Program;
use crate::dialects::print;
use crate::qf::Expect;
use crosscheck_core::bag::{diff, Diff};
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, Evidence, FindingClass, Relation, Rows};

/// A transformed program and what the check expects of it.
pub struct Transformed<'a> {
    pub program: &'a Program,
    pub expect: Expect,
    pub steps: &'a [String],
    /// EQU-FACTINLINE: relations whose rules the check replaces with the facts the engine
    /// itself computed for them in the original program.
    pub inline: &'a [String],
}

/// The skip reason of a transformed program past its limit (see [`transformed_limit`]).
pub const TRANSFORMED_TIMED_OUT: &str = "transformed program timed out";

/// Runs the check. `prepare` turns the transformed program into the one an engine runs
/// (DLSmith's fact inlining needs the engine's own answers), or stops the check.
pub(crate) fn check(
    oracle: DatalogOracle,
    orig: &Program,
    t: &Transformed,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
    prepare: impl Fn(&mut Box<dyn Engine>) -> Result<Program, Check>,
) -> Check {
    let mut ran = false;
    let mut nonempty = false;
    for e in engines.iter_mut() {
        if !supports(e.info(), orig) || !supports(e.info(), t.program) {
            continue;
        }
        let trans = match prepare(e) {
            Ok(p) => p,
            Err(c) => return c,
        };
        for out in &orig.outputs {
            let (a, took) = run_cached_timed(e, orig, out, opts);
            let a = match a.rows() {
                Ok(r) => r,
                Err(c) => return c,
            };
            let limit = CheckOptions { timeout: transformed_limit(took, opts.timeout) };
            let b = match run(e, &trans, out, None, &limit).rows() {
                Ok(r) => r,
                Err(Check::Skip(m)) if m == TIMED_OUT => return Check::Skip(TRANSFORMED_TIMED_OUT.into()),
                Err(c) => return c,
            };
            ran = true;
            nonempty |= !a.is_empty();
            if let Some(c) = compare(oracle, e, out, t, &trans, &a, &b) {
                return c;
            }
        }
    }
    if ran {
        Check::Pass { nonempty }
    } else {
        Check::Skip("no engine supports the program".into())
    }
}

/// A finding when `b`, the transformed output, is not in the expected relation to `a`.
fn compare(
    oracle: DatalogOracle,
    e: &mut Box<dyn Engine>,
    out: &String,
    t: &Transformed,
    trans: &Program,
    a: &Rows,
    b: &Rows,
) -> Option<Check> {
    let d = diff(a, b, &CompareOptions::default());
    let rel = d.relation();
    let ok = match t.expect {
        Expect::Equal => rel == Relation::Equal,
        Expect::Expand => matches!(rel, Relation::Equal | Relation::Superset),
        Expect::Contract => matches!(rel, Relation::Equal | Relation::Subset),
    };
    if ok {
        return None;
    }
    let label = e.info().label.clone();
    let dialect = e.info().dialect.clone();
    let rel_name = relation_name(&d);
    let expect = t.expect;
    Some(Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: vec![label.clone()],
        summary: summary(oracle, &label, out, expect, t.steps.len(), &d),
        expected: format!("original: {}", render(a)),
        actual: format!("transformed: {}", render(b)),
        key: format!("{oracle}:{}:{rel_name}", expect.name()),
        detail: Detail {
            output: Some(out.clone()),
            missing: rows_json(&d.missing),
            extra: rows_json(&d.extra),
            dialect: Some(dialect.clone()),
            transformed_program: Some(print(&dialect, trans, out, None).unwrap_or_default()),
            transformed_souffle: Some(crate::dialects::souffle::print(trans, std::slice::from_ref(out))),
            steps: t.steps.to_vec(),
            ..Detail::default()
        }
        .into_core(),
    }))
}

/// A finding's headline: which relation's answer changed and how (rows missing and extra),
/// the kind of transformation and how many steps it took; the steps themselves are in the
/// detail and the reproducers.
fn summary(oracle: DatalogOracle, label: &str, out: &str, expect: Expect, steps: usize, d: &Diff) -> String {
    let (kind, promise) = match expect {
        Expect::Equal => ("an equivalence", "the same answer"),
        Expect::Expand => ("an expansion", "a superset"),
        Expect::Contract => ("a contraction", "a subset"),
    };
    let rows = |n: usize| if n == 1 { "1 row".to_string() } else { format!("{n} rows") };
    let change = match (d.missing.len(), d.extra.len()) {
        (0, x) => format!("{} extra", rows(x)),
        (m, 0) => format!("{} missing", rows(m)),
        (m, x) => format!("{} missing, {} extra", rows(m), rows(x)),
    };
    let s = if steps == 1 { "" } else { "s" };
    format!("{oracle}: {label} answers {out} with {change} after {kind} ({steps} step{s}; expected {promise})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosscheck_core::Value;

    #[test]
    fn a_summary_names_the_relation_the_change_and_the_kind() {
        let a = Rows::new(vec!["c0".into()], vec![vec![Value::Int(1)], vec![Value::Int(2)]]);
        let b = Rows::new(vec!["c0".into()], vec![vec![Value::Int(2)], vec![Value::Int(3)], vec![Value::Int(4)]]);
        let d = diff(&a, &b, &CompareOptions::default());
        assert_eq!(
            summary(DatalogOracle::Queryfuzz, "z3", "p", Expect::Expand, 45, &d),
            "queryfuzz: z3 answers p with 1 row missing, 2 rows extra after an expansion (45 steps; expected a superset)"
        );
        let d = diff(&b, &a, &CompareOptions::default());
        assert!(summary(DatalogOracle::Dlsmith, "z3", "p", Expect::Equal, 1, &d)
            .ends_with("(1 step; expected the same answer)"));
    }
}
