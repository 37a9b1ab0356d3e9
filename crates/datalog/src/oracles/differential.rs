//! The differential oracle: one program on every engine that supports it, the reference
//! evaluator first when it is in the run; every other engine must give its answer.

use super::{relation_name, render, rows_json, run, supports, Ran};
use crate::ast::Program;
use crate::dialects::print;
use crosscheck_core::bag::diff;
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, Evidence, FindingClass, Rows};
use serde_json::json;

pub(crate) fn check(p: &Program, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    // The reference evaluator is the expected side when it is in the run.
    let mut order: Vec<usize> = (0..engines.len()).filter(|&i| supports(engines[i].info(), p)).collect();
    order.sort_by_key(|&i| engines[i].info().name != "reference");
    if order.len() < 2 {
        return Check::Skip("fewer than two engines support the program".into());
    }
    let mut nonempty = false;
    for out in &p.outputs {
        let first = order[0];
        let expected = match run(&mut engines[first], p, out, None, opts).rows() {
            Ok(r) => r,
            Err(c) => return c,
        };
        nonempty |= !expected.is_empty();
        for &i in &order[1..] {
            if let Some(c) = compare(p, out, engines, first, i, &expected, opts) {
                return c;
            }
        }
    }
    Check::Pass { nonempty }
}

/// Engine `i` against the expected answer of engine `first`: a finding, a stop, or `None`.
fn compare(
    p: &Program,
    out: &String,
    engines: &mut [Box<dyn Engine>],
    first: usize,
    i: usize,
    expected: &Rows,
    opts: &CheckOptions,
) -> Option<Check> {
    let text = print(&engines[i].info().dialect, p, out, None).unwrap_or_default();
    let actual = match run(&mut engines[i], p, out, None, opts) {
        Ran::Rows(r) => r,
        Ran::Refused(msg) => return Some(rejected(engines, first, i, expected, &msg)),
        Ran::Stop(c) => return Some(c),
    };
    let d = diff(expected, &actual, &CompareOptions::default());
    if d.is_empty() {
        return None;
    }
    let (a, b) = (engines[first].info().label.clone(), engines[i].info().label.clone());
    let rel = relation_name(&d);
    Some(Check::finding(Evidence {
        class: FindingClass::Logic,
        engines: vec![a.clone(), b.clone()],
        summary: format!("{b} and {a} disagree on {out}: {b}'s answer is {rel}"),
        expected: format!("{a}: {}", render(expected)),
        actual: format!("{b}: {}", render(&actual)),
        key: format!("differential:{rel}"),
        detail: json!({
            "output": out,
            "missing": rows_json(&d.missing),
            "extra": rows_json(&d.extra),
            "program": text,
        }),
    }))
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
        // As before the move: the detail's "program" holds the error text, not the program.
        detail: json!({ "program": body }),
    })
}
