//! Nemo's rule language: `?X` variables, `~` negation, aggregates `#count/#sum/#min/#max` in
//! rule heads, `?Z = expr` assignments.

use super::{push_clauses, rel, AggForm, Spelling, TextDialect};
use crate::ast::{Program, Rule, Term};
use std::fmt::Write;

/// Nemo has no evaluation switches in its Python API; rule order must not matter.
pub const OPTIONS: &[&str] = &["reverse"];

const SPELLING: Spelling =
    Spelling { name: "nemo", var: "?", quote: '"', paren_negative: false, op_space: " ", arg_sep: ", ", end: " ." };

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let lines = SPELLING.clauses(p, agg_rule, |r| SPELLING.plain_rule(r, "~"))?;
    let mut s = String::new();
    push_clauses(&mut s, lines, option);
    let _ = writeln!(s, "% output: {}", rel(out));
    Ok(s)
}

/// Nemo's spelling facts and printer.
pub static NEMO: TextDialect = TextDialect::new("nemo", OPTIONS, "rls", "nmo repro.rls", "%", print);

/// The grouped aggregate form with the aggregate in the head, where Nemo takes it.
fn agg_rule(r: &Rule, a: &AggForm) -> String {
    let body = a.inner_args(|v| format!("?{v}"));
    let head: Vec<String> = r
        .head
        .args
        .iter()
        .map(|t| match t {
            Term::Var(v) if *v == a.result => format!("#{}(?{})", a.func.name(), a.value),
            other => SPELLING.term(other),
        })
        .collect();
    format!("{}({}) :- {}({}) .", rel(&r.head.rel), head.join(", "), rel(&a.src), body.join(", "))
}
