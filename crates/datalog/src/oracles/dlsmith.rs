//! The DLSmith oracle: a layered program and its transformation by DLSmith's steps
//! (`crate::dlsmith`) must give outputs in the relation the steps promise. EQU-FACTINLINE
//! replaces relations by the facts the engine itself derived for them in the original.

use super::cache::run_cached;
use super::metamorphic::Transformed;
use crate::ast::{Fact, Program, Type, Val};
use crosscheck_core::{Check, CheckOptions, Engine, Rows, Value};

/// The transformed program as engine `e` runs it: each relation to inline replaced by the
/// facts `e` itself derived for it in the original (none for queryFuzz's transformations).
pub(crate) fn prepare(
    e: &mut Box<dyn Engine>,
    orig: &Program,
    t: &Transformed,
    opts: &CheckOptions,
) -> Result<Program, Check> {
    let mut trans = t.program.clone();
    for rel in t.inline {
        let rows = run_cached(e, orig, rel, opts).rows()?;
        match inline_facts(&trans, rel, &rows) {
            Some(q) => trans = q,
            None => return Err(Check::Skip("facts of an inlined relation do not fit its types".into())),
        }
    }
    Ok(trans)
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
