//! Nemo's rule language: `?X` variables, `~` negation, aggregates `#count/#sum/#min/#max` in
//! rule heads, `?Z = expr` assignments.

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

/// Nemo has no evaluation switches in its Python API; rule order must not matter.
pub const OPTIONS: &[&str] = &["reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("?{v}"),
        Term::Const(Val::Num(n)) => n.to_string(),
        Term::Const(Val::Sym(s)) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({} {} {})", term(a), op.symbol(), term(b)),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}({})", rel(&a.rel), args.join(", "))
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut lines = Vec::new();
    for f in p.facts.iter() {
        let args: Vec<String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        lines.push(format!("{}({}) .", rel(&f.rel), args.join(", ")));
    }
    for r in &p.rules {
        if let Some(a) = agg_form(r) {
            let body: Vec<String> = a.cols.iter().map(|c| format!("?{}", c.as_deref().unwrap_or(&a.value))).collect();
            let head: Vec<String> = r
                .head
                .args
                .iter()
                .map(|t| match t {
                    Term::Var(v) if *v == a.result => format!("#{}(?{})", a.func.name(), a.value),
                    other => term(other),
                })
                .collect();
            lines.push(format!("{}({}) :- {}({}) .", rel(&r.head.rel), head.join(", "), rel(&a.src), body.join(", ")));
            continue;
        }
        if r.has_agg() {
            return Err("nemo: only the grouped aggregate form is supported".into());
        }
        let r = flatten(r)?;
        let body: Vec<String> = r
            .body
            .iter()
            .map(|l| match l {
                Literal::Pos(a) => atom(a),
                Literal::Neg(a) => format!("~{}", atom(a)),
                Literal::Cmp(op, x, y) => {
                    let o = if *op == CmpOp::Eq { "=" } else { op.symbol() };
                    format!("{} {o} {}", term(x), term(y))
                }
                Literal::Agg { .. } => String::new(),
            })
            .collect();
        lines.push(format!("{} :- {} .", atom(&r.head), body.join(", ")));
    }
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
    caps: CAPS,
    options: OPTIONS,
    extension: "rls",
    command: "nmo repro.rls",
    comment_prefix: "%",
    print,
};
