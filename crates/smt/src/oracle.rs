//! The oracles: `storm` (any `unsat` on a satisfiable-by-construction instance is a soundness
//! bug; crashes, internal errors and `unknown` on decidable logics are their own classes),
//! `differential` (`sat` against `unsat` between solvers, versions or option sets) and `model`
//! (the solver's model must satisfy every assertion).

use crate::case::SmtCase;
use crate::eval::{self, Env};
use crate::term::Arena;
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Helpers, Outcome, Verdict};
use serde_json::json;

/// Logics with a decision procedure: `unknown` there (without a tactic) is a finding.
const DECIDABLE: &[&str] = &[
    "QF_LIA",
    "QF_LRA",
    "QF_BV",
    "QF_UF",
    "QF_AUFLIA",
    "QF_AX",
    "QF_ABV",
    "QF_AUFBV",
    "QF_UFBV",
    "QF_UFLIA",
    "QF_UFLRA",
    "QF_IDL",
    "QF_RDL",
    "QF_UFIDL",
    "QF_ALIA",
    "QF_FP",
    "QF_BVFP",
    "QF_LIRA",
    "QF_DT",
];

/// Substrings of solver messages that mean an internal failure, not a rejected input.
const INTERNAL: &[&str] = &[
    "ASSERTION VIOLATION",
    "Assertion failure",
    "assertion failed",
    "Fatal failure",
    "Internal error",
    "internal error",
    "UNREACHABLE",
    "NULL pointer",
    "Segmentation",
    "std::bad_alloc",
    "uncaught exception",
    "invalid model",
];

/// Common handling of one engine's outcome: `Err(check)` ends the oracle with that check.
fn verdicts_of(engine: &str, out: &Outcome, case: &SmtCase) -> Result<Vec<Verdict>, Check> {
    match out {
        Outcome::Verdicts { answers, .. } => {
            if answers.len() < case.check_sats() {
                return Err(Check::Skip(format!(
                    "{engine} gave {} answers for {} check-sat",
                    answers.len(),
                    case.check_sats()
                )));
            }
            Ok(answers.clone())
        }
        Outcome::Crash { .. } => Err(Check::finding(Evidence::crash(engine, out, json!({})))),
        Outcome::Timeout { .. } => Err(Check::Skip(format!("{engine}: timeout"))),
        Outcome::Error { message, .. } => {
            if INTERNAL.iter().any(|m| message.contains(m)) {
                let key: String = message.chars().filter(|c| !c.is_ascii_digit()).take(60).collect();
                Err(Check::finding(Evidence {
                    class: FindingClass::Error,
                    engines: vec![engine.to_string()],
                    summary: format!("{engine} reported an internal error"),
                    expected: "sat".into(),
                    actual: format!("error: {message}"),
                    key: format!("error:{key}"),
                    detail: json!({}),
                }))
            } else {
                Err(Check::Skip(format!("{engine}: {message}")))
            }
        }
        other => Err(Check::Skip(format!("{engine}: unexpected outcome {other}"))),
    }
}

fn run(engine: &mut dyn Engine, case: &SmtCase, opts: &CheckOptions) -> Outcome {
    let text = case.script_for(engine.info());
    let t = std::time::Instant::now();
    let out = engine.run(&text, opts.timeout);
    crate::budget::record(case, matches!(out, Outcome::Timeout { .. }), t.elapsed().as_secs_f64());
    out
}

/// STORM's oracle on every engine of the run.
pub fn storm(case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
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
                detail: json!({ "answers": answers, "check_sat": i + 1, "options": case.options.get(&label) }),
            });
        }
        let decidable = case.logic.as_deref().is_some_and(|l| DECIDABLE.contains(&l));
        if decidable && case.tactic.is_none() && answers.contains(&Verdict::Unknown) {
            return Check::finding(Evidence {
                class: FindingClass::Unknown,
                engines: vec![label.clone()],
                summary: format!("{label} says unknown on a decidable logic ({})", case.logic.as_deref().unwrap_or("")),
                expected: "sat".into(),
                actual: out.to_string(),
                key: "unknown".into(),
                detail: json!({ "answers": answers }),
            });
        }
        any_sat |= answers.contains(&Verdict::Sat);
    }
    Check::Pass { nonempty: any_sat }
}

/// `sat` against `unsat` on the same check-sat between any two engines.
pub fn differential(case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
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
        let sat: Vec<&str> =
            all.iter().filter(|(_, a)| a.get(i) == Some(&Verdict::Sat)).map(|(l, _)| l.as_str()).collect();
        let unsat: Vec<&str> =
            all.iter().filter(|(_, a)| a.get(i) == Some(&Verdict::Unsat)).map(|(l, _)| l.as_str()).collect();
        if !sat.is_empty() && !unsat.is_empty() {
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
                detail: json!({ "answers": all, "check_sat": i + 1, "sat_by_construction": case.sat_by_construction }),
            });
        }
    }
    let nonempty = all.iter().any(|(_, a)| a.contains(&Verdict::Sat));
    if all.len() < 2 {
        return Check::Skip("fewer than two engines answered".into());
    }
    Check::Pass { nonempty }
}

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
pub fn model(case: &SmtCase, engines: &mut [Box<dyn Engine>], helpers: &mut Helpers<'_>, opts: &CheckOptions) -> Check {
    if case.steps.is_empty() {
        return Check::Skip("no usable seed".into());
    }
    let mut checked = false;
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
                detail: json!({ "answers": answers }),
            });
        }
        let Outcome::Verdicts { model: Some(m), .. } = &out else { continue };
        if answers.first() != Some(&Verdict::Sat) {
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
                detail: json!({ "model": m, "assertion": a }),
            });
        }
    }
    if checked {
        Check::Pass { nonempty: true }
    } else {
        Check::Skip("no model could be checked".into())
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
