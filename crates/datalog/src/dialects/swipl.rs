//! SWI-Prolog with tabling, as a dialect: every relation is tabled, negation is `tnot/1`, aggregates are
//! `aggregate_all/3` over a completed table, bodies are printed in evaluation order (Prolog
//! needs bound variables for comparisons). The program prints the output relation itself.

use super::{flatten, AggForm, Spelling, TextDialect};
use crate::ast::{CmpOp, Literal, Program, Rule, Term};
use std::collections::BTreeSet;
use std::fmt::Write;

/// `subsumptive` tabling answers from more general tables; `reverse` reverses clause order.
pub const OPTIONS: &[&str] = &["subsumptive", "reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

const SPELLING: Spelling =
    Spelling { name: "swipl", var: "V_", quote: '\'', paren_negative: true, op_space: "", arg_sep: ", ", end: "." };

fn term(t: &Term) -> String {
    SPELLING.term(t)
}

fn atom(a: &crate::ast::Atom) -> String {
    SPELLING.atom(a)
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::new();
    s.push_str(":- style_check(-singleton).\n:- style_check(-discontiguous).\n");
    let how = if option == Some("subsumptive") { " as subsumptive" } else { "" };
    for d in &p.decls {
        let _ = writeln!(s, ":- table {}/{}{how}.", rel(&d.name), d.cols.len());
    }
    let mut lines = SPELLING.clauses(p, agg_rule, rule)?;
    let defined: BTreeSet<&str> =
        p.facts.iter().map(|f| f.rel.as_str()).chain(p.rules.iter().map(|r| r.head.rel.as_str())).collect();
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
    options: OPTIONS,
    extension: "pl",
    command: "swipl repro.pl",
    comment_prefix: "%",
    print,
};

/// The grouped aggregate form as `aggregate_all/3`.
fn agg_rule(r: &Rule, a: &AggForm) -> String {
    let inner = a.inner_args(|v| format!("V_{v}"));
    let guard = a.guard_args(|v| format!("V_{v}"));
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
