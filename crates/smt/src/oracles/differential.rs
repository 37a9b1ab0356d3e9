//! The differential oracle: `sat` against `unsat` on the same check-sat between any two
//! engines (solvers, versions or option sets).

use super::{run, verdicts_of, Detail};
use crate::case::SmtCase;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Groups, Verdict};

/// `sat` against `unsat` on the same check-sat between any two engines.
pub fn check(case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    if case.steps.is_empty() {
        return Check::Skip("no usable seed".into());
    }
    let mut all: Vec<(String, Vec<Verdict>)> = Vec::new();
    for e in engines.iter_mut() {
        let label = e.info().label.clone();
        let out = run(e.as_mut(), case, opts);
        match verdicts_of(&label, &out, case) {
            Ok(a) => all.push((label, a)),
            // A crash is a finding; a timeout or a rejected input leaves the others to compare.
            Err(c @ Check::Finding(_)) => return c,
            Err(_) => {}
        }
    }
    let n = case.check_sats();
    for i in 0..n {
        // Only decided answers take sides: `unknown` agrees with anything.
        let decided: Vec<(&str, Verdict)> = all
            .iter()
            .filter_map(|(l, a)| a.get(i).filter(|v| **v != Verdict::Unknown).map(|v| (l.as_str(), *v)))
            .collect();
        let groups = Groups::of(&decided, |a, b| a.1 == b.1);
        if !groups.agree() {
            let side = |v: Verdict| decided.iter().filter(|d| d.1 == v).map(|d| d.0).collect::<Vec<_>>();
            let (sat, unsat) = (side(Verdict::Sat), side(Verdict::Unsat));
            // With a witness M the unsat side is wrong; otherwise both are suspects.
            let engines = if case.sat_by_construction {
                unsat.iter().map(|l| l.to_string()).collect()
            } else {
                vec![sat.join(","), unsat.join(",")]
            };
            return Check::finding(Evidence {
                class: FindingClass::Soundness,
                engines,
                summary: format!(
                    "solvers disagree on check-sat #{}: sat ({}) vs unsat ({})",
                    i + 1,
                    sat.join(", "),
                    unsat.join(", ")
                ),
                expected: if case.sat_by_construction { "sat".into() } else { "one answer".into() },
                actual: all.iter().map(|(l, a)| format!("{l}: {a:?}")).collect::<Vec<_>>().join("; "),
                key: "sat-vs-unsat".into(),
                detail: Detail {
                    answers: all.clone(),
                    check_sat: Some(i + 1),
                    sat_by_construction: Some(case.sat_by_construction),
                    ..Detail::default()
                }
                .into_core(),
            });
        }
    }
    let nonempty = all.iter().any(|(_, a)| a.contains(&Verdict::Sat));
    if all.len() < 2 {
        return Check::Skip("fewer than two engines answered".into());
    }
    Check::Pass { nonempty }
}
