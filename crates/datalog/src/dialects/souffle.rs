//! Soufflé syntax: printed for every reproducer (most Datalog users have Soufflé, though it
//! cannot be installed here) and spoken by the reference evaluator, which parses it back. Its
//! capabilities are the reference evaluator's: everything the model has.

use super::TextDialect;
use crate::ast::{Literal, Program, Rule, Term, Type, Val};
use std::fmt::Write;

pub fn type_name(t: Type) -> &'static str {
    match t {
        Type::Number => "number",
        Type::Symbol => "symbol",
    }
}

pub fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => v.clone(),
        Term::Const(c) => c.to_string(),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({} {} {})", term(a), op.symbol(), term(b)),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}({})", a.rel, args.join(", "))
}

pub fn literal(l: &Literal) -> String {
    match l {
        Literal::Pos(a) => atom(a),
        Literal::Neg(a) => format!("!{}", atom(a)),
        Literal::Cmp(op, x, y) => format!("{} {} {}", term(x), op.symbol(), term(y)),
        Literal::Agg { result, func, value, body } => {
            let inner: Vec<String> = body.iter().map(literal).collect();
            let v = value.as_ref().map(|v| format!(" {}", term(v))).unwrap_or_default();
            format!("{result} = {}{v} : {{ {} }}", func.name(), inner.join(", "))
        }
    }
}

pub fn rule(r: &Rule) -> String {
    if r.body.is_empty() {
        return format!("{}.", atom(&r.head));
    }
    let body: Vec<String> = r.body.iter().map(literal).collect();
    format!("{} :- {}.", atom(&r.head), body.join(", "))
}

pub fn fact_line(rel: &str, vals: &[Val]) -> String {
    let v: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
    format!("{rel}({}).", v.join(", "))
}

/// The whole program with `outputs` as its `.output` relations.
pub fn print(p: &Program, outputs: &[String]) -> String {
    let mut s = String::new();
    for d in &p.decls {
        let cols: Vec<String> = d.cols.iter().enumerate().map(|(i, t)| format!("c{i}:{}", type_name(*t))).collect();
        let _ = writeln!(s, ".decl {}({})", d.name, cols.join(", "));
    }
    for o in outputs {
        let _ = writeln!(s, ".output {o}");
    }
    for f in p.facts.iter() {
        let _ = writeln!(s, "{}", fact_line(&f.rel, &f.vals));
    }
    for r in &p.rules {
        let _ = writeln!(s, "{}", rule(r));
    }
    s
}

/// `naive` re-evaluates every rule on the full relations each round instead of semi-naively.
pub const OPTIONS: &[&str] = &["naive"];

fn print_one(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::new();
    if let Some(o) = option {
        let _ = writeln!(s, "// crosscheck-option: {o}");
    }
    s.push_str(&print(p, &[out.to_string()]));
    Ok(s)
}

/// Souffle's spelling facts and printer.
pub static SOUFFLE: TextDialect = TextDialect::new("souffle", OPTIONS, "dl", "souffle repro.dl", "//", print_one);
