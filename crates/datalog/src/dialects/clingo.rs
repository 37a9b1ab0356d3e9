//! clingo's ASP dialect: Prolog-style rules, `not` negation, strings for symbols,
//! `#count`/`#sum`/`#min`/`#max` set aggregates, `#show` for the output.

use super::{push_clauses, rel, AggForm, Spelling, TextDialect};
use crate::ast::{Program, Rule};
use std::fmt::Write;

/// Solver configurations and threads: none may change the answer set of a stratified program.
pub const OPTIONS: &[&str] = &["--configuration=crafty", "--configuration=jumpy", "--parallel-mode=2", "reverse"];

const SPELLING: Spelling =
    Spelling { name: "clingo", var: "V_", quote: '"', paren_negative: false, op_space: "", arg_sep: ",", end: "." };

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let lines = SPELLING.clauses(p, agg_rule, |r| SPELLING.plain_rule(r, "not "))?;
    let mut s = String::new();
    if let Some(o) = option.filter(|o| o.starts_with("--")) {
        let _ = writeln!(s, "% crosscheck-option: {o}");
    }
    push_clauses(&mut s, lines, option);
    let _ = writeln!(s, "#show {}/{}.", rel(out), p.cols(out).len());
    Ok(s)
}

/// Clingo's spelling facts and printer.
pub static CLINGO: TextDialect = TextDialect::new("clingo", OPTIONS, "lp", "clingo repro.lp", "%", print);

/// The grouped aggregate form as a `#count`/`#sum`/`#min`/`#max` set aggregate.
fn agg_rule(r: &Rule, a: &AggForm) -> String {
    let inner = a.inner_args(|v| format!("V_{v}"));
    let guard = a.guard_args(|v| format!("V_{v}"));
    format!(
        "{} :- {}({}), V_{} = #{}{{ V_{} : {}({}) }}.",
        SPELLING.atom(&r.head),
        rel(&a.src),
        guard.join(","),
        a.result,
        a.func.name(),
        a.value,
        rel(&a.src),
        inner.join(",")
    )
}
