//! CozoDB, in memory and in process (the embedded default). Dialect: CozoScript inline rules
//! (`h[a, b] := r[a, c], s[c, b]`), constant rules for facts, `not` for negation, aggregates
//! in rule heads, and an entry rule `?[...]` for the output relation.

use super::{agg_form, flatten};
use crate::ast::{AggFn, CmpOp, Literal, Program, Term, Type, Val};
use cozo::{DataValue, DbInstance, Num, ScriptMutability};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::time::Duration;

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

/// `no-magic` disables Cozo's magic-set rewrite; `stored` loads the facts into stored
/// relations first (another storage and join path); `reverse` prints the rules backwards;
/// `order-desc` asks for the answer sorted descending (`:order -c0, ...`, Cozo's sorting
/// operator instead of its default ascending key order): a set answer must not depend on it,
/// and a fault in how rows are delivered (a lost first or last row) shows up as a difference.
pub const OPTIONS: &[&str] = &["no-magic", "stored", "reverse", "order-desc"];

const VERSION: &str = "0.7.6";

fn rel(name: &str) -> String {
    format!("r_{name}")
}

fn var(name: &str) -> String {
    format!("v_{name}")
}

fn val(v: &Val) -> String {
    match v {
        Val::Num(n) => n.to_string(),
        Val::Sym(s) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
    }
}

fn term(t: &Term) -> Result<String, String> {
    Ok(match t {
        Term::Var(v) => var(v),
        Term::Const(c) => val(c),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({} {} {})", term(a)?, op.symbol(), term(b)?),
    })
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        other => other.symbol(),
    }
}

fn atom(a: &crate::ast::Atom) -> Result<String, String> {
    let args: Result<Vec<String>, String> = a.args.iter().map(term).collect();
    Ok(format!("{}[{}]", rel(&a.rel), args?.join(", ")))
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let stored = option == Some("stored");
    let mut s = String::new();
    let cols = |n: usize| (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>().join(", ");
    let mut lines = Vec::new();
    let mut defined = BTreeSet::new();
    let mut pre = String::new();
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
        defined.insert(d.name.clone());
    }
    for (i, r) in p.rules.iter().enumerate() {
        if let Some(a) = agg_form(r) {
            // Cozo aggregates in the head of an auxiliary rule, read back by the real one:
            // Cozo's `sum` is a float (6.0 joins with no 6), so it goes through `to_int`, and
            // without group columns Cozo answers an empty input with one row (sum 0.0) where
            // Soufflé derives nothing, so the source relation guards the rule.
            let aux = format!("a_{}_{i}", r.head.rel);
            let group: Vec<String> = a.cols.iter().flatten().map(|g| var(g)).collect();
            let body: Vec<String> =
                a.cols.iter().map(|c| c.as_deref().map(var).unwrap_or_else(|| var(&a.value))).collect();
            let mut aux_head = group.clone();
            aux_head.push(format!("{}({})", a.func.name(), var(&a.value)));
            lines.push(format!("{aux}[{}] := {}[{}]", aux_head.join(", "), rel(&a.src), body.join(", ")));
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
            let head: Result<Vec<String>, String> = r.head.args.iter().map(term).collect();
            lines.push(format!("{}[{}] := {}", rel(&r.head.rel), head?.join(", "), main.join(", ")));
            continue;
        }
        if r.has_agg() {
            return Err("cozo: only the grouped aggregate form is supported".into());
        }
        let r = flatten(r)?;
        let mut bound: BTreeSet<String> = BTreeSet::new();
        let mut body = Vec::new();
        for l in &r.body {
            body.push(match l {
                Literal::Pos(a) => {
                    let mut vs = Vec::new();
                    a.args.iter().for_each(|t| t.vars(&mut vs));
                    bound.extend(vs.into_iter().map(str::to_string));
                    atom(a)?
                }
                Literal::Neg(a) => format!("not {}", atom(a)?),
                Literal::Cmp(CmpOp::Eq, Term::Var(x), y) if !bound.contains(x) => {
                    bound.insert(x.clone());
                    format!("{} = {}", var(x), term(y)?)
                }
                Literal::Cmp(CmpOp::Eq, x, Term::Var(y)) if !bound.contains(y) => {
                    bound.insert(y.clone());
                    format!("{} = {}", var(y), term(x)?)
                }
                Literal::Cmp(op, x, y) => format!("{} {} {}", term(x)?, cmp(*op), term(y)?),
                Literal::Agg { .. } => return Err("cozo: aggregate in a body".into()),
            });
        }
        let head: Result<Vec<String>, String> = r.head.args.iter().map(term).collect();
        lines.push(format!("{}[{}] := {}", rel(&r.head.rel), head?.join(", "), body.join(", ")));
    }
    if option == Some("reverse") {
        lines.reverse();
    }
    let n = p.cols(out).len();
    if stored {
        s.push_str("# crosscheck-option: stored\n");
        s.push_str(&pre);
        s.push_str("{\n");
    }
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
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
    let _ = p.decl(out).map(|d| d.cols.contains(&Type::Symbol));
    Ok(s)
}

pub struct Factory;

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "cozo"
    }
    fn describe(&self) -> &'static str {
        "CozoDB 0.7 (crate, in-memory storage, in process)"
    }
    fn availability(&self) -> Availability {
        Availability { available: true, detail: VERSION.into(), install: "built in".into() }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let db = new_db()?;
        Ok(Box::new(Cozo { info: info_for(spec, VERSION.into(), "cozo", CAPS), db }))
    }
}

fn new_db() -> Result<DbInstance, SetupError> {
    DbInstance::new("mem", "", "").map_err(|e| SetupError::new(format!("cannot open an in-memory CozoDB: {e}")))
}

pub struct Cozo {
    info: EngineInfo,
    db: DbInstance,
}

fn convert(v: &DataValue) -> Value {
    match v {
        DataValue::Num(Num::Int(i)) => Value::Int(*i),
        DataValue::Num(Num::Float(f)) => Value::Float(*f),
        DataValue::Str(s) => Value::Text(s.to_string()),
        DataValue::Null => Value::Null,
        DataValue::Bool(b) => Value::Bool(*b),
        other => Value::Text(format!("{other:?}")),
    }
}

impl Engine for Cozo {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.db = new_db()?;
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        // Stored relations outlive the script: a fresh database keeps runs independent.
        if super::option_line(text, "#") == Some("stored") {
            match new_db() {
                Ok(db) => self.db = db,
                Err(e) => return Outcome::error(e.message),
            }
        }
        let script = format!("{text}:timeout {}\n", limit.as_secs().max(1));
        let script = if script.contains("{\n") {
            // In a chained script the options belong inside the last block.
            text.replacen("\n}\n", &format!("\n:timeout {}\n}}\n", limit.as_secs().max(1)), 1)
        } else {
            script
        };
        let db = &self.db;
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            db.run_script(&script, BTreeMap::new(), ScriptMutability::Mutable)
        }));
        match res {
            Ok(Ok(named)) => {
                let rows = named.rows.iter().map(|r| r.iter().map(convert).collect()).collect();
                Outcome::Rows(Rows::new(named.headers.clone(), rows))
            }
            Ok(Err(e)) => {
                let msg = format!("{e}");
                if msg.contains("killed") || msg.contains("timeout") {
                    Outcome::Timeout { after_ms: limit.as_millis() as u64 }
                } else {
                    Outcome::error(msg)
                }
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Outcome::Crash { signal: None, code: None, stderr_tail: format!("panic: {msg}") }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(src: &str, out: &str) -> Vec<Vec<Value>> {
        let p = crate::parse::parse(src).expect("parses");
        let text = print(&p, out, None).expect("prints");
        let mut e = Factory.open(&EngineSpec::parse("cozo").expect("spec")).expect("opens");
        match e.run(&text, Duration::from_secs(10)) {
            Outcome::Rows(r) => r.rows,
            other => panic!("{other:?}\n{text}"),
        }
    }

    #[test]
    fn sums_are_integers_and_empty_inputs_derive_nothing() {
        // Both were differences from Soufflé that a reference-vs-cozo differential found: a sum
        // joined back with the numbers it came from, and an ungrouped sum of an empty relation.
        let joined = ".decl h(x:number)\n.decl s(x:number)\n.decl y(x:number)\n.output y\nh(6).\n\
                      s(C) :- h(_), C = sum B : { h(B) }.\ny(A) :- s(A), h(A).\n";
        assert_eq!(answer(joined, "y"), vec![vec![Value::Int(6)]]);
        let empty = ".decl w(x:number)\n.decl s(x:number)\n.decl m(x:number)\n.output s\n.output m\n\
                     s(C) :- w(_), C = sum B : { w(B) }.\nm(C) :- w(_), C = min B : { w(B) }.\n";
        assert_eq!(answer(empty, "s"), Vec::<Vec<Value>>::new());
        assert_eq!(answer(empty, "m"), Vec::<Vec<Value>>::new());
        let grouped = ".decl p(g:symbol, x:number)\n.decl s(g:symbol, x:number)\n.output s\n\
                       p(\"a\", 2). p(\"a\", 3). p(\"b\", 4).\ns(G, C) :- p(G, _), C = sum B : { p(G, B) }.\n";
        assert_eq!(
            answer(grouped, "s"),
            vec![vec![Value::Text("a".into()), Value::Int(5)], vec![Value::Text("b".into()), Value::Int(4)]]
        );
    }
}
