//! The DLSmith oracle: a layered program and its transformation by DLSmith's steps
//! (`crate::dlsmith`) must give outputs in the relation the steps promise. EQU-FACTINLINE
//! replaces relations by the facts the engine itself derived for them in the original.

use super::cache::run_cached;
use super::metamorphic::{self, Transformed};
use super::DatalogOracle;
use crate::ast::{Fact, Program, Type, Val};
use crosscheck_core::{Check, CheckOptions, Engine, Rows, Value};

pub(crate) fn check(
    oracle: DatalogOracle,
    orig: &Program,
    t: &Transformed,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
) -> Check {
    let prepare = |e: &mut Box<dyn Engine>| {
        let mut trans = t.program.clone();
        for rel in t.inline {
            let rows = match run_cached(e, orig, rel, opts).rows() {
                Ok(r) => r,
                Err(c) => return Err(c),
            };
            match inline_facts(&trans, rel, &rows) {
                Some(q) => trans = q,
                None => return Err(Check::Skip("facts of an inlined relation do not fit its types".into())),
            }
        }
        Ok(trans)
    };
    metamorphic::check(oracle, orig, t, engines, opts, prepare)
}

/// Replaces the rules of `rel` in `p` by the given tuples (EQU-FACTINLINE).
pub fn inline_facts(p: &Program, rel: &str, rows: &Rows) -> Option<Program> {
    let cols = p.cols(rel).to_vec();
    let mut q = p.clone();
    q.rules.retain(|r| r.head.rel != rel);
    for row in &rows.rows {
        let vals: Option<Vec<Val>> = row
            .iter()
            .zip(&cols)
            .map(|(v, t)| match (v, t) {
                (Value::Int(n), Type::Number) => Some(Val::Num(*n)),
                (Value::Float(f), Type::Number) if f.fract() == 0.0 => {
                    Some(Val::Num(crosscheck_core::value::trunc_i64(*f)))
                }
                (Value::Text(s), Type::Symbol) => Some(Val::Sym(s.clone())),
                _ => None,
            })
            .collect();
        let f = Fact { rel: rel.to_string(), vals: vals? };
        if !q.facts.contains(&f) {
            q.facts_mut().push(f);
        }
    }
    Some(q)
}
