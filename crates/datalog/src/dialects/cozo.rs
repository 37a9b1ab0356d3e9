//! CozoDB's dialect: CozoScript inline rules
//! (`h[a, b] := r[a, c], s[c, b]`), constant rules for facts, `not` for negation, aggregates
//! in rule heads, and an entry rule `?[...]` for the output relation.

use super::{agg_form, bound_body, push_clauses, rel, AggForm, Goal, TextDialect};
use crate::ast::{AggFn, CmpOp, Program, Rule, Term, Val};
use std::fmt::Write;

/// `no-magic` disables Cozo's magic-set rewrite; `stored` loads the facts into stored
/// relations first (another storage and join path); `reverse` prints the rules backwards;
/// `order-desc` asks for the answer sorted descending (`:order -c0, ...`, Cozo's sorting
/// operator instead of its default ascending key order): a set answer must not depend on it,
/// and a fault in how rows are delivered (a lost first or last row) shows up as a difference.
pub const OPTIONS: &[&str] = &["no-magic", "stored", "reverse", "order-desc"];

fn var(name: &str) -> String {
    format!("v_{name}")
}

fn val(v: &Val) -> String {
    match v {
        Val::Num(n) => n.to_string(),
        Val::Sym(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
    }
}

fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => var(v),
        Term::Const(c) => val(c),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({} {} {})", term(a), op.symbol(), term(b)),
    }
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        other => other.symbol(),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}[{}]", rel(&a.rel), args.join(", "))
}

fn cols(n: usize) -> String {
    (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>().join(", ")
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let stored = option == Some("stored");
    let mut s = String::new();
    let mut pre = String::new();
    let mut lines = facts(p, stored, &mut pre);
    for (i, r) in p.rules.iter().enumerate() {
        if let Some(a) = agg_form(r) {
            lines.extend(agg_rule(r, i, &a));
            continue;
        }
        if r.has_agg() {
            return Err("cozo: only the grouped aggregate form is supported".into());
        }
        lines.push(rule(r)?);
    }
    let n = p.cols(out).len();
    if stored {
        s.push_str("# crosscheck-option: stored\n");
        s.push_str(&pre);
        s.push_str("{\n");
    }
    push_clauses(&mut s, lines, option);
    let _ = writeln!(s, "?[{c}] := {}[{c}]", rel(out), c = cols(n));
    if option == Some("no-magic") {
        s.push_str(":disable_magic_rewrite true\n");
    }
    if option == Some("order-desc") && n > 0 {
        let keys: Vec<String> = (0..n).map(|i| format!("-c{i}")).collect();
        let _ = writeln!(s, ":order {}", keys.join(", "));
    }
    if stored {
        s.push_str("}\n");
    }
    Ok(s)
}

/// The facts of each relation, as rules; with `stored`, the statements that load them into
/// stored relations go to `pre`.
fn facts(p: &Program, stored: bool, pre: &mut String) -> Vec<String> {
    let mut lines = Vec::new();
    for d in &p.decls {
        let facts: Vec<String> = p
            .facts_of(&d.name)
            .map(|f| format!("[{}]", f.vals.iter().map(val).collect::<Vec<_>>().join(", ")))
            .collect();
        let has_rules = p.rules.iter().any(|r| r.head.rel == d.name);
        if stored && !facts.is_empty() {
            let spec: Vec<String> = (0..d.cols.len()).map(|i| format!("c{i}: Any")).collect();
            let _ = writeln!(pre, "{{:create s_{} {{{}}}}}", d.name, spec.join(", "));
            let _ = writeln!(
                pre,
                "{{?[{}] <- [{}] :put s_{} {{{}}}}}",
                cols(d.cols.len()),
                facts.join(", "),
                d.name,
                cols(d.cols.len())
            );
            lines.push(format!("{}[{c}] := *s_{}[{c}]", rel(&d.name), d.name, c = cols(d.cols.len())));
        } else if !facts.is_empty() || !has_rules {
            // Cozo does not mix constant rules and inline rules under one name: facts get
            // their own relation that the main relation reads.
            lines.push(format!("f_{}[{}] <- [{}]", d.name, cols(d.cols.len()), facts.join(", ")));
            lines.push(format!("{}[{c}] := f_{}[{c}]", rel(&d.name), d.name, c = cols(d.cols.len())));
        }
    }
    lines
}

/// The grouped aggregate rule `i` as an auxiliary rule and the rule that reads it back.
fn agg_rule(r: &Rule, i: usize, a: &AggForm) -> [String; 2] {
    // Cozo aggregates in the head of an auxiliary rule, read back by the real one: Cozo's
    // `sum` is a float (6.0 joins with no 6), so it goes through `to_int`, and without group
    // columns Cozo answers an empty input with one row (sum 0.0) where Soufflé derives
    // nothing, so the source relation guards the rule.
    let aux = format!("a_{}_{i}", r.head.rel);
    let group: Vec<String> = a.cols.iter().flatten().map(|g| var(g)).collect();
    let body = a.inner_args(var);
    let mut aux_head = group.clone();
    aux_head.push(format!("{}({})", a.func.name(), var(&a.value)));
    let first = format!("{aux}[{}] := {}[{}]", aux_head.join(", "), rel(&a.src), body.join(", "));
    let result = var(&a.result);
    let summed = a.func == AggFn::Sum;
    let mut read = group;
    read.push(if summed { format!("{result}_f") } else { result.clone() });
    let mut main = vec![format!("{aux}[{}]", read.join(", "))];
    if a.cols.iter().all(Option::is_none) {
        main.push(format!("{}[{}]", rel(&a.src), vec!["_"; a.cols.len()].join(", ")));
    }
    if summed {
        main.push(format!("{result} = to_int({result}_f)"));
    }
    let head: Vec<String> = r.head.args.iter().map(term).collect();
    [first, format!("{}[{}] := {}", rel(&r.head.rel), head.join(", "), main.join(", "))]
}

/// A rule without aggregates, its body in evaluation order, `=` binding an unbound variable.
fn rule(r: &Rule) -> Result<String, String> {
    let (head, body) = bound_body(r, "cozo", |g| match g {
        Goal::Atom(a) => atom(a),
        Goal::Neg(a) => format!("not {}", atom(a)),
        Goal::Assign(x, y) => format!("{} = {}", var(x), term(y)),
        Goal::Test(op, x, y) => format!("{} {} {}", term(x), cmp(op), term(y)),
    })?;
    let args: Vec<String> = head.args.iter().map(term).collect();
    Ok(format!("{}[{}] := {body}", rel(&head.rel), args.join(", ")))
}

/// Cozo's spelling facts and printer.
pub static COZO: TextDialect = TextDialect::new(
    "cozo",
    OPTIONS,
    "cozo",
    "paste into the Cozo REPL or `cozo` server's script endpoint",
    "#",
    print,
);
