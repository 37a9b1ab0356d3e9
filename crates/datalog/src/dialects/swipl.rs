//! SWI-Prolog with tabling, as a dialect: every relation is tabled, negation is `tnot/1`, aggregates are
//! `aggregate_all/3` over a completed table, bodies are printed in evaluation order (Prolog
//! needs bound variables for comparisons). The program prints the output relation itself.

use super::{bound_body, push_clauses, rel, AggForm, Goal, Spelling, TextDialect};
use crate::ast::{CmpOp, Program, Rule, Term};
use std::collections::BTreeSet;
use std::fmt::Write;

/// `subsumptive` tabling answers from more general tables; `reverse` reverses clause order.
pub const OPTIONS: &[&str] = &["subsumptive", "reverse"];

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
    push_clauses(&mut s, lines, option);
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
pub static SWIPL: TextDialect = TextDialect::new("swipl", OPTIONS, "pl", "swipl repro.pl", "%", print);

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
    let (head, body) = bound_body(r, "swipl", |g| match g {
        Goal::Atom(a) => atom(a),
        Goal::Neg(a) => format!("tnot({})", atom(a)),
        Goal::Assign(x, y) => {
            let op = if matches!(y, Term::Bin(..)) { "is" } else { "=" };
            format!("V_{x} {op} {}", term(y))
        }
        Goal::Test(op, x, y) => comparison(op, x, y),
    })?;
    Ok(format!("{} :- {body}.", atom(&head)))
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
