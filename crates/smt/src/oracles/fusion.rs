//! Semantic fusion's oracle: the fused formula's status is known by construction
//! (`crate::fusion`), so an answer that contradicts it is a soundness bug; `unknown` and
//! timeouts say nothing.

use super::{run, verdicts_of, Detail};
use crate::case::SmtCase;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Verdict};

pub fn check(case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let Some(expected) = case.derived.as_ref().and_then(|d| d.expected) else {
        return Check::Skip("no fusable pair of seeds".into());
    };
    let mut any_sat = false;
    for e in engines.iter_mut() {
        let label = e.info().label.clone();
        let out = run(e.as_mut(), case, opts);
        let answers = match verdicts_of(&label, &out, case) {
            Ok(a) => a,
            Err(c) => return c,
        };
        let wrong = answers.iter().position(|v| *v != expected && *v != Verdict::Unknown);
        if let Some(i) = wrong {
            let kind = if expected == Verdict::Sat { "SAT" } else { "UNSAT" };
            return Check::finding(Evidence {
                class: FindingClass::Soundness,
                engines: vec![label.clone()],
                summary: format!("{label} says {} for an {kind} fusion of two {expected} seeds", answers[i]),
                expected: expected.to_string(),
                actual: out.to_string(),
                key: format!("fusion-{expected}-answered-{}", answers[i]),
                detail: Detail {
                    check_sat: Some(i + 1),
                    options: case.options.get(&label).cloned().unwrap_or_default(),
                    ..Detail::answers(&label, &answers)
                }
                .into_core(),
            });
        }
        any_sat |= answers.contains(&Verdict::Sat);
    }
    Check::Pass { nonempty: any_sat }
}
