//! `config`: one store, the same query with its optimizer on and off (the comparison
//! Oxigraph's own fuzz target makes). Only stores whose dialect names an optimizer switch
//! take part; the others are left alone.

use super::differential::{mode, same, unwindowed};
use super::{answer, render, Ran, Transcript};
use crate::dialect;
use crate::model::Case;
use crate::normalize::Norm;
use crate::print;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, FindingClass};

pub fn has_switch(e: &EngineInfo) -> bool {
    dialect::by_name(&e.dialect).and_then(|d| d.optimizer_off()).is_some()
}

pub fn check(case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let mut nonempty = false;
    let mut ran = false;
    for e in engines.iter_mut() {
        let Some(option) = dialect::by_name(&e.info().dialect).and_then(|d| d.optimizer_off()) else { continue };
        let label = e.info().label.clone();
        let texts =
            [print::query(&case.graph, &case.query, None), print::query(&case.graph, &case.query, Some(option))];
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
        if !same(&answers[0], &answers[1], m) {
            let errs = answers.iter().any(|a| matches!(a, Ran::Error(_)));
            let detail = Transcript {
                queries: texts.to_vec(),
                answers: vec![
                    (format!("{label} optimized"), render(&answers[0])),
                    (format!("{label} {option}"), render(&answers[1])),
                ],
            };
            return Check::finding(Evidence {
                class: if errs { FindingClass::Error } else { FindingClass::Logic },
                engines: vec![label.clone()],
                summary: format!("{label} answers differently with {option}"),
                expected: format!("optimized: {}", render(&answers[0])),
                actual: format!("{option}: {}", render(&answers[1])),
                key: format!("config:{option}"),
                detail: crosscheck_core::Detail::of(&detail),
            });
        }
    }
    if ran {
        Check::Pass { nonempty }
    } else {
        Check::Skip("no store with an optimizer switch".into())
    }
}
