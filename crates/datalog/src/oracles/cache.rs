//! Answers to original programs, per engine label and program text: queryFuzz runs ten
//! transformations of each program, and `config` ten options, and the original's answer does
//! not change in between. What a run gave is kept whatever it was (rows, a timeout, a
//! refusal): an original that keeps μZ past the timeout once would keep it there for each of
//! its ten transformations, 100 s on one program.

use super::{run, Ran};
use crate::ast::Program;
use crate::dialects::print;
use crosscheck_core::{Check, CheckOptions, Engine, Rows};
use std::cell::RefCell;
use std::collections::HashMap;

/// The skip reason of a check whose original program timed out: its transformations are not
/// run (the summary counts them under this reason).
pub const ORIGINAL_TIMED_OUT: &str = "original timed out, transformations not run";

/// What an original gave, as much of it as a later check needs.
#[derive(Clone)]
enum Known {
    Rows(Rows),
    Refused(String),
    Skip(String),
}

thread_local! {
    static ORIGINALS: RefCell<HashMap<(String, String), Known>> = Default::default();
}

/// [`run`] without an option, answered from the cache when the same engine ran the same text.
/// A crash is not kept: it is a finding each time.
pub(crate) fn run_cached(e: &mut Box<dyn Engine>, p: &Program, out: &str, opts: &CheckOptions) -> Ran {
    let Ok(text) = print(&e.info().dialect, p, out, None) else { return run(e, p, out, None, opts) };
    let key = (e.info().label.clone(), text);
    if let Some(k) = ORIGINALS.with(|c| c.borrow().get(&key).cloned()) {
        return ran(k);
    }
    let known = match run(e, p, out, None, opts) {
        Ran::Rows(r) => Known::Rows(r),
        Ran::Refused(m) => Known::Refused(m),
        Ran::Stop(Check::Skip(m)) if m == super::TIMED_OUT => Known::Skip(ORIGINAL_TIMED_OUT.into()),
        Ran::Stop(Check::Skip(m)) => Known::Skip(m),
        other @ Ran::Stop(_) => return other,
    };
    ORIGINALS.with(|c| {
        let mut c = c.borrow_mut();
        // A worker moves on from a program for good: a small cache is all it needs.
        if c.len() > 64 {
            c.clear();
        }
        c.insert(key, known.clone());
    });
    ran(known)
}

fn ran(k: Known) -> Ran {
    match k {
        Known::Rows(r) => Ran::Rows(r),
        Known::Refused(m) => Ran::Refused(m),
        Known::Skip(m) => Ran::Stop(Check::Skip(m)),
    }
}
