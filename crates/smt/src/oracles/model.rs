//! The model oracle: a solver's model must satisfy every assertion, checked by crosscheck's
//! evaluator where it covers the theory, otherwise by a helper solver evaluating the model.

use super::{run, verdicts_of, Detail};
use crate::case::SmtCase;
use crate::eval::{self, Env};
use crate::term::Arena;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Helpers, Outcome, Verdict};

/// Evaluates each assertion under a solver's model: the first one that is false, or `None`
/// for all true; `Err` when the evaluator does not cover some assertion.
pub fn model_violation(case: &SmtCase, model: &str) -> Result<Option<String>, String> {
    let mut arena = Arena::new();
    let mut env = Env::default();
    for d in &case.decls {
        if let Ok(s) = crate::sexp::parse_one(d) {
            if s.head() == Some("define-fun") {
                env.add_define(&mut arena, s.list().unwrap_or(&[]))?;
            }
        }
    }
    env.add_model(&mut arena, model)?;
    let mut uncovered = None;
    for a in case.asserts() {
        let t = arena.parse_term(a).map_err(|e| e.to_string())?;
        match eval::truth(&arena, &env, t) {
            Some(true) => {}
            Some(false) => return Ok(Some(a.clone())),
            None => uncovered = Some(a.clone()),
        }
    }
    match uncovered {
        Some(a) => Err(format!("the evaluator does not cover {}", a.chars().take(80).collect::<String>())),
        None => Ok(None),
    }
}

/// The solver's model must satisfy every assertion (checked by crosscheck's evaluator where
/// it covers the theory; otherwise by a second engine of the run evaluating the model).
pub fn check(case: &SmtCase, engines: &mut [Box<dyn Engine>], helpers: &mut Helpers<'_>, opts: &CheckOptions) -> Check {
    if case.steps.is_empty() {
        return Check::Skip("no usable seed".into());
    }
    let mut checked = false;
    let mut unchecked = "no model could be checked".to_string();
    for k in 0..engines.len() {
        let label = engines[k].info().label.clone();
        let out = run(engines[k].as_mut(), case, opts);
        let answers = match verdicts_of(&label, &out, case) {
            Ok(a) => a,
            Err(c) => return c,
        };
        if answers.first() == Some(&Verdict::Unsat) && case.sat_by_construction {
            return Check::finding(Evidence {
                class: FindingClass::Soundness,
                engines: vec![label.clone()],
                summary: format!("{label} says unsat for an instance satisfiable by construction"),
                expected: "sat".into(),
                actual: out.to_string(),
                key: "unsat".into(),
                detail: Detail::answers(&label, &answers).into_core(),
            });
        }
        let Outcome::Verdicts { model: Some(m), .. } = &out else { continue };
        if answers.first() != Some(&Verdict::Sat) {
            continue;
        }
        let m = &crate::solvers::model_in_smtlib26(engines[k].info(), m).into_owned();
        if crate::solvers::model_is_approximate(engines[k].info(), m) {
            unchecked = format!("{label}: a model value printed as a decimal approximation");
            continue;
        }
        let violated = match model_violation(case, m) {
            Ok(v) => v,
            Err(_) => match second_opinion(case, m, engines, k, helpers, opts) {
                Some(v) => v,
                None => continue,
            },
        };
        checked = true;
        if let Some(a) = violated {
            return Check::finding(Evidence {
                class: FindingClass::InvalidModel,
                engines: vec![label.clone()],
                summary: format!("{label}'s model violates an assertion"),
                expected: "every assertion true under the model".into(),
                actual: format!("false: {}", a.chars().take(200).collect::<String>()),
                key: "invalid-model".into(),
                detail: Detail { model: Some(m.clone()), assertion: Some(a), ..Detail::default() }.into_core(),
            });
        }
    }
    if checked {
        Check::Pass { nonempty: true }
    } else {
        Check::Skip(unchecked)
    }
}

/// Asks another engine of the run whether the model satisfies the assertions: the model's
/// definitions replace the declarations, so the check is an evaluation. `Some(Some(a))`: the
/// assertions are false under the model.
pub fn second_opinion(
    case: &SmtCase,
    m: &str,
    engines: &mut [Box<dyn Engine>],
    skip: usize,
    helpers: &mut Helpers<'_>,
    opts: &CheckOptions,
) -> Option<Option<String>> {
    let mut probe = case.clone();
    probe.model = crate::case::normalize_model(m);
    let text = probe.witness_script();
    for (i, e) in engines.iter_mut().enumerate() {
        if i == skip {
            continue;
        }
        if let Some(v) = judge(e.run(&text, opts.timeout)) {
            return Some(v);
        }
    }
    // No other engine in the run: a checker solver of the leg's helpers, not the one under test.
    let tested = crate::solvers::base_name(&engines[skip].info().name).to_string();
    let name =
        ["z3", "cvc5", "cvc4"].into_iter().filter(|n| *n != tested).chain(["z3"]).find(|n| helpers.get(n).is_some())?;
    judge(helpers.get(name)?.run(&text, opts.timeout))
}

fn judge(out: Outcome) -> Option<Option<String>> {
    match out {
        Outcome::Verdicts { answers, .. } if answers.first() == Some(&Verdict::Sat) => Some(None),
        Outcome::Verdicts { answers, .. } if answers.first() == Some(&Verdict::Unsat) => {
            Some(Some("(the conjunction of the assertions)".into()))
        }
        _ => None,
    }
}
