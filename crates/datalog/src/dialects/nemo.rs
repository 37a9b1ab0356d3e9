//! Nemo's rule language: `?X` variables, `~` negation, aggregates `#count/#sum/#min/#max` in
//! rule heads, `?Z = expr` assignments.

use super::{AggForm, Spelling, TextDialect};
use crate::ast::{Program, Rule, Term};
use std::fmt::Write;

/// Nemo has no evaluation switches in its Python API; rule order must not matter.
pub const OPTIONS: &[&str] = &["reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

const SPELLING: Spelling =
    Spelling { name: "nemo", var: "?", quote: '"', paren_negative: false, op_space: " ", arg_sep: ", ", end: " ." };

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut lines = SPELLING.clauses(p, agg_rule, |r| SPELLING.plain_rule(r, "~"))?;
    if option == Some("reverse") {
        lines.reverse();
    }
    let mut s = String::new();
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    let _ = writeln!(s, "% output: {}", rel(out));
    Ok(s)
}

/// Nemo's spelling facts and printer.
pub static NEMO: TextDialect = TextDialect {
    name: "nemo",
    options: OPTIONS,
    extension: "rls",
    command: "nmo repro.rls",
    comment_prefix: "%",
    print,
};

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
