//! Answers to original programs, per engine label and program text: queryFuzz runs ten
//! transformations of each program, and `config` ten options, and the original's answer does
//! not change in between.

use super::{run, Ran};
use crate::ast::Program;
use crate::dialects::print;
use crosscheck_core::{CheckOptions, Engine, Rows};
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    static ORIGINALS: RefCell<HashMap<(String, String), Rows>> = Default::default();
}

/// [`run`] without an option, answered from the cache when the same engine ran the same text.
pub(crate) fn run_cached(e: &mut Box<dyn Engine>, p: &Program, out: &str, opts: &CheckOptions) -> Ran {
    let Ok(text) = print(&e.info().dialect, p, out, None) else { return run(e, p, out, None, opts) };
    let key = (e.info().label.clone(), text);
    if let Some(r) = ORIGINALS.with(|c| c.borrow().get(&key).cloned()) {
        return Ran::Rows(r);
    }
    let r = run(e, p, out, None, opts);
    if let Ran::Rows(rows) = &r {
        ORIGINALS.with(|c| {
            let mut c = c.borrow_mut();
            // A worker moves on from a program for good: a small cache is all it needs.
            if c.len() > 64 {
                c.clear();
            }
            c.insert(key, rows.clone());
        });
    }
    r
}
