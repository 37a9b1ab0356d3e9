//! clingo's ASP dialect: Prolog-style rules, `not` negation, strings for symbols,
//! `#count`/`#sum`/`#min`/`#max` set aggregates, `#show` for the output.

use super::{agg_form, flatten, TextDialect};
use crate::ast::{CmpOp, Literal, Program, Term, Val};
use std::fmt::Write;

pub const CAPS: &[&str] = &[
    "negation",
    "aggregates",
    "arithmetic",
    "comparisons",
    "symbols",
    "negative",
    "recursion",
    "mutual-recursion",
    "nonlinear-recursion",
];

/// Solver configurations and threads: none may change the answer set of a stratified program.
pub const OPTIONS: &[&str] = &["--configuration=crafty", "--configuration=jumpy", "--parallel-mode=2", "reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

pub fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("V_{v}"),
        Term::Const(Val::Num(n)) => n.to_string(),
        Term::Const(Val::Sym(s)) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({}{}{})", term(a), op.symbol(), term(b)),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}({})", rel(&a.rel), args.join(","))
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut lines = Vec::new();
    for f in p.facts.iter() {
        let args: Vec<String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        lines.push(format!("{}({}).", rel(&f.rel), args.join(",")));
    }
    for r in &p.rules {
        if let Some(a) = agg_form(r) {
            let inner: Vec<String> = a.cols.iter().map(|c| format!("V_{}", c.as_deref().unwrap_or(&a.value))).collect();
            let guard: Vec<String> =
                a.cols.iter().map(|c| c.as_ref().map(|v| format!("V_{v}")).unwrap_or("_".into())).collect();
            lines.push(format!(
                "{} :- {}({}), V_{} = #{}{{ V_{} : {}({}) }}.",
                atom(&r.head),
                rel(&a.src),
                guard.join(","),
                a.result,
                a.func.name(),
                a.value,
                rel(&a.src),
                inner.join(",")
            ));
            continue;
        }
        if r.has_agg() {
            return Err("clingo: only the grouped aggregate form is supported".into());
        }
        let r = flatten(r)?;
        let body: Vec<String> = r
            .body
            .iter()
            .map(|l| match l {
                Literal::Pos(a) => atom(a),
                Literal::Neg(a) => format!("not {}", atom(a)),
                Literal::Cmp(op, x, y) => {
                    let o = if *op == CmpOp::Eq { "=" } else { op.symbol() };
                    format!("{}{o}{}", term(x), term(y))
                }
                Literal::Agg { .. } => String::new(),
            })
            .collect();
        lines.push(format!("{} :- {}.", atom(&r.head), body.join(", ")));
    }
    if option == Some("reverse") {
        lines.reverse();
    }
    let mut s = String::new();
    if let Some(o) = option.filter(|o| o.starts_with("--")) {
        let _ = writeln!(s, "% crosscheck-option: {o}");
    }
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    let _ = writeln!(s, "#show {}/{}.", rel(out), p.cols(out).len());
    Ok(s)
}

/// Clingo's spelling facts and printer.
pub static CLINGO: TextDialect = TextDialect {
    name: "clingo",
    caps: CAPS,
    options: OPTIONS,
    extension: "lp",
    command: "clingo repro.lp",
    comment_prefix: "%",
    print,
};
