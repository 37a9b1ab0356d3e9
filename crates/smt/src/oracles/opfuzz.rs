//! Type-aware operator mutation's oracle: a mutant's status is unknown, so two or more engines
//! (solvers, versions or option sets) judge it as the differential oracle does; the finding's
//! key names the mutations, so different mutated operators stay different findings.

use super::differential;
use crate::case::SmtCase;
use crosscheck_core::{Check, CheckOptions, Engine};

pub fn check(case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let Some(d) = case.derived.as_ref() else { return Check::Skip("no seed with an operator to mutate".into()) };
    match differential::check(case, engines, opts) {
        Check::Finding(mut ev) if ev.key == "sat-vs-unsat" => {
            let mut ops = d.steps.clone();
            ops.sort();
            ev.key = format!("opfuzz:{}", ops.join(","));
            ev.summary = format!("{} after {}", ev.summary, d.steps.join(", "));
            Check::Finding(ev)
        }
        other => other,
    }
}
