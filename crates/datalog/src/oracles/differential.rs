//! The differential oracle: one program on every engine that supports it, the reference
//! evaluator first when it is in the run; every other engine must give its answer.

use super::{relation_name, render, rows_json, run, supports, Detail, Ran};
use crate::ast::Program;
use crate::dialects::print;
use crosscheck_core::bag::diff;
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, Evidence, FindingClass, Groups, Rows};

pub(crate) fn check(p: &Program, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    // The reference evaluator is the expected side when it is in the run.
    let mut order: Vec<usize> = (0..engines.len()).filter(|&i| supports(engines[i].info(), p)).collect();
    order.sort_by_key(|&i| engines[i].info().name != "reference");
    if order.len() < 2 {
        return Check::Skip("fewer than two engines support the program".into());
    }
    let mut nonempty = false;
    for out in &p.outputs {
        let answers = match answers(p, out, engines, &order, opts) {
            Ok(a) => a,
            Err(c) => return c,
        };
        nonempty |= !answers[0].1.is_empty();
        let groups = Groups::of(&answers, |a, b| diff(&a.1, &b.1, &CompareOptions::default()).is_empty());
        if let Some(second) = groups.0.get(1) {
            return disagreement(p, out, engines, &answers[0], &answers[second[0]]);
        }
    }
    Check::Pass { nonempty }
}

/// Every engine's answer on `out`, in `order` (the expected engine first); an engine that
/// refuses a program the expected engine ran is a finding.
fn answers(
    p: &Program,
    out: &str,
    engines: &mut [Box<dyn Engine>],
    order: &[usize],
    opts: &CheckOptions,
) -> Result<Vec<(usize, Rows)>, Check> {
    let mut answers: Vec<(usize, Rows)> = Vec::new();
    for &i in order {
        match (run(&mut engines[i], p, out, None, opts), answers.first()) {
            (Ran::Rows(r), _) => answers.push((i, r)),
            (Ran::Refused(msg), Some((first, expected))) => return Err(rejected(engines, *first, i, expected, &msg)),
            (Ran::Refused(msg), None) => return Err(Check::Skip(msg)),
            (Ran::Stop(c), _) => return Err(c),
        }
    }
    Ok(answers)
}

/// Engine `b` answers `out` differently from the expected engine `a`.
fn disagreement(
    p: &Program,
    out: &str,
    engines: &[Box<dyn Engine>],
    (first, expected): &(usize, Rows),
    (i, actual): &(usize, Rows),
) -> Check {
    let text = print(&engines[*i].info().dialect, p, out, None).unwrap_or_default();
    let d = diff(expected, actual, &CompareOptions::default());
    let (a, b) = (engines[*first].info().label.clone(), engines[*i].info().label.clone());
    let rel = relation_name(&d);
    Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: vec![a.clone(), b.clone()],
        summary: format!("{b} and {a} disagree on {out}: {b}'s answer is {rel}"),
        expected: format!("{a}: {}", render(expected)),
        actual: format!("{b}: {}", render(actual)),
        key: format!("differential:{rel}"),
        detail: Detail {
            output: Some(out.to_string()),
            missing: rows_json(&d.missing),
            extra: rows_json(&d.extra),
            program: Some(text),
            ..Detail::default()
        }
        .into_core(),
    })
}

/// Engine `i` refused a program the expected engine ran: the error is the engine's (or a
/// printer's).
fn rejected(engines: &[Box<dyn Engine>], first: usize, i: usize, expected: &Rows, msg: &str) -> Check {
    // The message is "label: adapter: text"; the key is the start of the text, up to its own
    // first colon (which often precedes a relation name). Keying on the adapter's name lumped
    // SQLite's "circular reference" and "nested too deep" together, and reduction slid from
    // one to the other.
    let body = msg.splitn(3, ": ").last().unwrap_or("");
    let head = body.split(':').next().unwrap_or("");
    let first_words: String = head.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    Check::finding(Evidence {
        class: FindingClass::Error,
        engines: vec![engines[i].info().label.clone()],
        summary: format!("{} rejects a program {} runs", engines[i].info().label, engines[first].info().label),
        expected: render(expected),
        actual: msg.to_string(),
        key: format!("error:{first_words}"),
        detail: Detail { program: Some(body.to_string()), ..Detail::default() }.into_core(),
    })
}
