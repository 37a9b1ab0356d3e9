//! The config oracle: one engine with and without one of its dialect's options (none of them
//! may change a result); the cases of one program try its options in turn.

use super::cache::run_cached;
use super::{relation_name, render, run, supports, Detail};
use crate::ast::Program;
use crate::dialects::{options, print};
use crosscheck_core::bag::diff;
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, Evidence, FindingClass};

pub(crate) fn check(p: &Program, option: usize, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
    let mut ran = false;
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let options = options(&e.info().dialect);
        if options.is_empty() || !supports(e.info(), p) {
            continue;
        }
        let opt = options[option % options.len()];
        for out in &p.outputs {
            // The cases of one program try its options in turn: the default answer is the
            // same for all of them.
            let a = match run_cached(e, p, out, opts).rows() {
                Ok(r) => r,
                Err(c) => return c,
            };
            let b = match run(e, p, out, Some(opt), opts).rows() {
                Ok(r) => r,
                Err(c) => return c,
            };
            ran = true;
            nonempty |= !a.is_empty();
            let d = diff(&a, &b, &CompareOptions::default());
            if !d.is_empty() {
                let label = e.info().label.clone();
                let rel = relation_name(&d);
                return Check::finding(Evidence {
                    class: FindingClass::Logic,
                    engines: vec![label.clone()],
                    summary: format!("{label} answers {out} differently with option {opt}: {rel}"),
                    expected: format!("default: {}", render(&a)),
                    actual: format!("{opt}: {}", render(&b)),
                    key: format!("config:{opt}:{rel}"),
                    detail: Detail {
                        option: Some(opt.to_string()),
                        output: Some(out.clone()),
                        program: Some(print(&e.info().dialect, p, out, Some(opt)).unwrap_or_default()),
                        ..Detail::default()
                    }
                    .into_core(),
                });
            }
        }
    }
    if ran {
        Check::Pass { nonempty }
    } else {
        Check::Skip("no engine with options supports the program".into())
    }
}
