//! `config`: one store, the same query with its optimizer on and off (the comparison
//! Oxigraph's own fuzz target makes). Only stores whose dialect names an optimizer switch
//! take part; the others are left alone.

use super::differential::{mode, same, unwindowed};
use super::{answer, Ran, Transcript};
use crate::dialect;
use crate::model::Case;
use crate::normalize::Norm;
use crate::print;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, FindingClass, Groups};

pub fn has_switch(e: &EngineInfo) -> bool {
    dialect::by_name(&e.dialect).and_then(|d| d.optimizer_off()).is_some()
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let mut nonempty = false;
    let mut ran = false;
    for e in engines.iter_mut() {
        let Some(option) = dialect::by_name(&e.info().dialect).and_then(|d| d.optimizer_off()) else { continue };
        let label = e.info().label.clone();
        let variants = [("optimized", None), (option, Some(option))];
        let texts: Vec<String> = variants.iter().map(|(_, o)| print::query(&case.graph, &case.query, *o)).collect();
        let mut answers = Vec::new();
        for t in &texts {
            match answer(e.as_mut(), case, t, opts, Norm::default(), false) {
                Ok(a) => answers.push(a),
                Err(check) => return check,
            }
        }
        ran = true;
        nonempty |= answers.iter().any(|a| matches!(a, Ran::Rows(r) if !r.is_empty()));
        let full = match unwindowed(case, e.as_mut(), opts) {
            Ok(f) => f,
            Err(check) => return check,
        };
        let m = mode(&case.query, &answers, full.as_ref());
        let groups = Groups::of(&answers, |a, b| same(a, b, m));
        if !groups.agree() {
            let names: Vec<String> = variants.iter().map(|(v, _)| format!("{label} {v}")).collect();
            return Check::finding(evidence(&label, option, &names, texts, &answers, &groups));
        }
    }
    if ran {
        Check::Pass { nonempty }
    } else {
        Check::Skip("no store with an optimizer switch".into())
    }
}

/// The finding: every variant's answer, the majority's named where there is one (with one
/// option there is none: the optimized answer is no more right than the unoptimized one).
fn evidence(
    label: &str,
    option: &str,
    names: &[String],
    texts: Vec<String>,
    answers: &[Ran],
    groups: &Groups,
) -> Evidence {
    let name = |i: usize| names[i].as_str();
    let errs = answers.iter().any(|a| matches!(a, Ran::Error(_)));
    let (expected, actual) = groups.expected_actual(name, |i| answers[i].render());
    let detail = Transcript::of(texts, names, answers);
    Evidence {
        class: if errs { FindingClass::Error } else { FindingClass::Logic },
        engines: vec![label.to_string()],
        summary: format!(
            "{label} answers differently with {option}: {}",
            groups.summary(name, |i| answers[i].describe())
        ),
        expected,
        actual,
        key: format!("config:{option}"),
        detail: crosscheck_core::Detail::of(&detail),
    }
}
