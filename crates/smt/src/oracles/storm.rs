//! STORM's oracle: an instance is satisfiable by construction, so any `unsat` is a soundness
//! bug; `unknown` on a decidable logic (without a tactic) is a finding of its own.

use super::{run, verdicts_of, Detail, DECIDABLE};
use crate::case::SmtCase;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Verdict};

/// STORM's oracle on every engine of the run.
pub fn check(case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    if case.steps.is_empty() {
        return Check::Skip("no usable seed".into());
    }
    let mut any_sat = false;
    for e in engines.iter_mut() {
        let label = e.info().label.clone();
        let out = run(e.as_mut(), case, opts);
        let answers = match verdicts_of(&label, &out, case) {
            Ok(a) => a,
            Err(c) => return c,
        };
        if let Some(i) = answers.iter().position(|v| *v == Verdict::Unsat) {
            return Check::finding(Evidence {
                class: FindingClass::Soundness,
                engines: vec![label.clone()],
                summary: format!(
                    "{label} says unsat for an instance satisfiable by construction (check-sat #{})",
                    i + 1
                ),
                expected: "sat".into(),
                actual: out.to_string(),
                key: "unsat".into(),
                detail: Detail {
                    check_sat: Some(i + 1),
                    options: case.options.get(&label).cloned().unwrap_or_default(),
                    ..Detail::answers(&label, &answers)
                }
                .into_core(),
            });
        }
        let decidable = case.logic.as_deref().is_some_and(|l| DECIDABLE.contains(&l));
        // Sampled options may make a solver incomplete by design (`smt.arith.nl=false`):
        // only its defaults owe an answer.
        let defaults = case.options.get(&label).is_none_or(|o| o.is_empty());
        if decidable && defaults && case.tactic.is_none() && answers.contains(&Verdict::Unknown) {
            return Check::finding(Evidence {
                class: FindingClass::Unknown,
                engines: vec![label.clone()],
                summary: format!("{label} says unknown on a decidable logic ({})", case.logic.as_deref().unwrap_or("")),
                expected: "sat".into(),
                actual: out.to_string(),
                key: "unknown".into(),
                detail: Detail::answers(&label, &answers).into_core(),
            });
        }
        any_sat |= answers.contains(&Verdict::Sat);
    }
    Check::Pass { nonempty: any_sat }
}
