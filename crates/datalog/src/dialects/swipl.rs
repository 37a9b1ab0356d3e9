//! SWI-Prolog with tabling, as a dialect: every relation is tabled, negation is `tnot/1`, aggregates are
//! `aggregate_all/3` over a completed table, bodies are printed in evaluation order (Prolog
//! needs bound variables for comparisons). The program prints the output relation itself.

use super::{agg_form, flatten, AggForm, TextDialect};
use crate::ast::{CmpOp, Literal, Program, Rule, Term, Val};
use std::collections::BTreeSet;
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

/// `subsumptive` tabling answers from more general tables; `reverse` reverses clause order.
pub const OPTIONS: &[&str] = &["subsumptive", "reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("V_{v}"),
        // `X*-5` is a syntax error in Prolog (`*-` reads as one operator): parenthesise.
        Term::Const(Val::Num(n)) if *n < 0 => format!("({n})"),
        Term::Const(Val::Num(n)) => n.to_string(),
        Term::Const(Val::Sym(s)) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({}{}{})", term(a), op.symbol(), term(b)),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}({})", rel(&a.rel), args.join(", "))
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::new();
    s.push_str(":- style_check(-singleton).\n:- style_check(-discontiguous).\n");
    let how = if option == Some("subsumptive") { " as subsumptive" } else { "" };
    for d in &p.decls {
        let _ = writeln!(s, ":- table {}/{}{how}.", rel(&d.name), d.cols.len());
    }
    let mut lines = Vec::new();
    for f in p.facts.iter() {
        let args: Vec<String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        lines.push(format!("{}({}).", rel(&f.rel), args.join(", ")));
    }
    let mut defined: BTreeSet<&str> = p.facts.iter().map(|f| f.rel.as_str()).collect();
    for r in &p.rules {
        defined.insert(&r.head.rel);
        if let Some(a) = agg_form(r) {
            lines.push(agg_rule(r, &a));
            continue;
        }
        if r.has_agg() {
            return Err("swipl: only the grouped aggregate form is supported".into());
        }
        lines.push(rule(r)?);
    }
    // A tabled predicate without clauses raises an existence error when called.
    for d in &p.decls {
        if !defined.contains(d.name.as_str()) {
            let args: Vec<String> = (0..d.cols.len()).map(|_| "_".to_string()).collect();
            lines.push(format!("{}({}) :- fail.", rel(&d.name), args.join(", ")));
        }
    }
    if option == Some("reverse") {
        lines.reverse();
    }
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    let n = p.cols(out).len();
    let vars: Vec<String> = (0..n).map(|i| format!("A{i}")).collect();
    let fmt: Vec<&str> = (0..n).map(|_| "~q").collect();
    let _ = writeln!(
        s,
        "main :- forall({}({}), format(\"{}~n\", [{}])).\n:- initialization(main, main).",
        rel(out),
        vars.join(", "),
        fmt.join("\\t"),
        vars.join(", ")
    );
    Ok(s)
}

/// Swipl's spelling facts and printer.
pub static SWIPL: TextDialect = TextDialect {
    name: "swipl",
    caps: CAPS,
    options: OPTIONS,
    extension: "pl",
    command: "swipl repro.pl",
    comment_prefix: "%",
    print,
};

/// The grouped aggregate form as `aggregate_all/3`.
fn agg_rule(r: &Rule, a: &AggForm) -> String {
    let inner: Vec<String> = a.cols.iter().map(|c| format!("V_{}", c.as_deref().unwrap_or(&a.value))).collect();
    let guard: Vec<String> =
        a.cols.iter().map(|c| c.as_ref().map(|v| format!("V_{v}")).unwrap_or("_".into())).collect();
    let spec = match a.func {
        crate::ast::AggFn::Count => "count".to_string(),
        f => format!("{}(V_{})", f.name(), a.value),
    };
    // The guard enumerates each group once per value: the table keeps one answer.
    format!(
        "{} :- {}({}), aggregate_all({spec}, {}({}), V_{}).",
        atom(&r.head),
        rel(&a.src),
        guard.join(", "),
        rel(&a.src),
        inner.join(", "),
        a.result
    )
}

/// A rule without aggregates, its body in evaluation order: Prolog compares bound values.
fn rule(r: &Rule) -> Result<String, String> {
    let r = flatten(r)?;
    let mut bound: BTreeSet<String> = BTreeSet::new();
    let mut body = Vec::new();
    for l in &r.body {
        body.push(match l {
            Literal::Pos(a) => {
                let mut vs = Vec::new();
                a.args.iter().for_each(|t| t.vars(&mut vs));
                bound.extend(vs.into_iter().map(str::to_string));
                atom(a)
            }
            Literal::Neg(a) => format!("tnot({})", atom(a)),
            Literal::Cmp(CmpOp::Eq, Term::Var(x), y) if !bound.contains(x) => {
                bound.insert(x.clone());
                let op = if matches!(y, Term::Bin(..)) { "is" } else { "=" };
                format!("V_{x} {op} {}", term(y))
            }
            Literal::Cmp(CmpOp::Eq, x, Term::Var(y)) if !bound.contains(y) => {
                bound.insert(y.clone());
                let op = if matches!(x, Term::Bin(..)) { "is" } else { "=" };
                format!("V_{y} {op} {}", term(x))
            }
            Literal::Cmp(op, x, y) => comparison(*op, x, y),
            Literal::Agg { .. } => return Err("swipl: aggregate in a body".into()),
        });
    }
    Ok(format!("{} :- {}.", atom(&r.head), body.join(", ")))
}

/// A comparison of bound values: arithmetic compares by value, terms by standard order.
fn comparison(op: CmpOp, x: &Term, y: &Term) -> String {
    let arith = matches!(x, Term::Bin(..)) || matches!(y, Term::Bin(..));
    let o = match op {
        CmpOp::Eq if arith => "=:=",
        CmpOp::Ne if arith => "=\\=",
        CmpOp::Eq => "==",
        CmpOp::Ne => "\\==",
        CmpOp::Lt => "<",
        CmpOp::Le => "=<",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    };
    format!("{} {o} {}", term(x), term(y))
}
