//! The engine registry (one line per engine), printer dispatch by dialect, and helpers the
//! printers share.
//!
//! Text protocol: an engine receives one program in its own dialect, printed by its printer,
//! with exactly one output relation; it answers `Outcome::Rows` with that relation's tuples
//! (numbers as `Value::Int`, symbols as `Value::Text`). Engine options for the `config`
//! oracle are part of the printed text (a `set-option`, a query option, or a first-line
//! comment the adapter reads), so `Engine::run(text)` is all the core needs.

pub mod clingo;
pub mod cozo;
pub mod duckdb;
pub mod nemo;
pub mod postgres;
pub mod recsql;
pub mod reference;
pub mod souffle;
pub mod sqlite;
pub mod swipl;
pub mod z3;

use crate::ast::{AggFn, CmpOp, Literal, Program, Rule, Term, Val};
use crosscheck_core::{EngineFactory, Value};

/// Every engine of the datalog leg, one line each.
pub fn factories() -> Vec<&'static dyn EngineFactory> {
    vec![
        &reference::Factory,
        &cozo::Factory,
        &nemo::Factory,
        &z3::Factory,
        &clingo::Factory,
        &swipl::Factory,
        &sqlite::Factory,
        &postgres::FACTORY,
        &duckdb::FACTORY,
    ]
}

/// Capabilities of a dialect: what its printer and engine support.
pub fn capabilities(dialect: &str) -> &'static [&'static str] {
    match dialect {
        "souffle" => reference::CAPS,
        "cozo" => cozo::CAPS,
        "nemo" => nemo::CAPS,
        "z3" => z3::CAPS,
        "clingo" => clingo::CAPS,
        "swipl" => swipl::CAPS,
        "sqlite" => sqlite::CAPS,
        "postgres" => postgres::CAPS,
        "duckdb" => duckdb::CAPS,
        _ => &[],
    }
}

/// Options each dialect's `config` oracle may set (none of them may change a result).
pub fn options(dialect: &str) -> &'static [&'static str] {
    match dialect {
        "souffle" => reference::OPTIONS,
        "cozo" => cozo::OPTIONS,
        "nemo" => nemo::OPTIONS,
        "z3" => z3::OPTIONS,
        "clingo" => clingo::OPTIONS,
        "swipl" => swipl::OPTIONS,
        "sqlite" => sqlite::OPTIONS,
        "postgres" => postgres::OPTIONS,
        "duckdb" => duckdb::OPTIONS,
        _ => &[],
    }
}

/// The file extension of a dialect's reproducer and the command that runs it.
pub fn native(dialect: &str) -> (&'static str, &'static str) {
    match dialect {
        "cozo" => ("cozo", "paste into the Cozo REPL or `cozo` server's script endpoint"),
        "nemo" => ("rls", "nmo repro.rls"),
        "z3" => ("smt2", "z3 repro.smt2"),
        "clingo" => ("lp", "clingo repro.lp"),
        "swipl" => ("pl", "swipl repro.pl"),
        "sqlite" => ("sql", "sqlite3 < repro.sql"),
        "postgres" => ("sql", "psql -f repro.sql"),
        "duckdb" => ("sql", "duckdb < repro.sql"),
        _ => ("dl", "souffle repro.dl"),
    }
}

/// Prints `p` in `dialect` with `out` as the output relation and an optional engine option.
pub fn print(dialect: &str, p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let missing: Vec<&str> =
        crate::analysis::features(p).into_iter().filter(|f| !capabilities(dialect).contains(f)).collect();
    if !missing.is_empty() {
        return Err(format!("{dialect} does not support {}", missing.join(", ")));
    }
    match dialect {
        "souffle" => Ok(reference::print(p, out, option)),
        "cozo" => cozo::print(p, out, option),
        "nemo" => nemo::print(p, out, option),
        "z3" => z3::print(p, out, option),
        "clingo" => clingo::print(p, out, option),
        "swipl" => swipl::print(p, out, option),
        "sqlite" => sqlite::print(p, out, option),
        "postgres" => postgres::print(p, out, option),
        "duckdb" => duckdb::print(p, out, option),
        other => Err(format!("no printer for dialect {other}")),
    }
}

/// The aggregate rule shape every dialect can express:
/// `h(G.., R) :- p(G.., _), R = f V : { p(G.., V) }`, grouping `p` by the columns `G`.
pub struct AggForm {
    pub src: String,
    /// For each column of `p`: the group variable, or `None` at the aggregated column.
    pub cols: Vec<Option<String>>,
    pub value: String,
    pub func: AggFn,
    pub result: String,
}

/// Recognises [`AggForm`] in a rule whose head holds every group variable and the result once.
pub fn agg_form(r: &Rule) -> Option<AggForm> {
    let [Literal::Pos(guard), Literal::Agg { result, func, value, body }] = r.body.as_slice() else { return None };
    let [Literal::Pos(inner)] = body.as_slice() else { return None };
    if guard.rel != inner.rel || guard.args.len() != inner.args.len() {
        return None;
    }
    let mut cols = Vec::new();
    let mut value_var = None;
    for (g, i) in guard.args.iter().zip(&inner.args) {
        match (g, i) {
            (Term::Wild, Term::Var(v)) if value_var.is_none() => {
                value_var = Some(v.clone());
                cols.push(None);
            }
            // `count : { p(G, _) }` counts the distinct values of the wildcard column.
            (Term::Wild, Term::Wild) if value_var.is_none() && *func == AggFn::Count => {
                value_var = Some("AGGV".to_string());
                cols.push(None);
            }
            (Term::Var(a), Term::Var(b)) if a == b => cols.push(Some(a.clone())),
            _ => return None,
        }
    }
    let value_var = value_var?;
    match (func, value) {
        (AggFn::Count, None) => {}
        (_, Some(Term::Var(v))) if *v == value_var => {}
        _ => return None,
    }
    let group: Vec<&String> = cols.iter().flatten().collect();
    let mut head: Vec<&String> = Vec::new();
    for t in &r.head.args {
        let Term::Var(v) = t else { return None };
        head.push(v);
    }
    let mut expect: Vec<&String> = group.clone();
    expect.push(result);
    let (mut a, mut b) = (head.clone(), expect);
    a.sort();
    b.sort();
    let distinct = a.windows(2).all(|w| w[0] != w[1]);
    if a != b || !distinct || group.contains(&result) || group.contains(&&value_var) {
        return None;
    }
    Some(AggForm { src: guard.rel.clone(), cols, value: value_var, func: *func, result: result.clone() })
}

/// A copy of `r` for dialects that want plain variables in atoms and distinct head variables:
/// constants in atoms become fresh variables bound by `V = c`, a repeated head variable
/// becomes a fresh variable equal to the first. The body comes back in evaluation order.
pub fn flatten(r: &Rule) -> Result<Rule, String> {
    let mut r = r.clone();
    let mut n = 0;
    let mut extra = Vec::new();
    for l in r.body.iter_mut() {
        if let Literal::Pos(a) | Literal::Neg(a) = l {
            for t in a.args.iter_mut() {
                if matches!(t, Term::Const(_) | Term::Bin(..)) {
                    n += 1;
                    let v = format!("K{n}");
                    let old = std::mem::replace(t, Term::Var(v.clone()));
                    extra.push(Literal::Cmp(CmpOp::Eq, Term::Var(v), old));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for t in r.head.args.iter_mut() {
        if let Term::Var(v) = t {
            if !seen.insert(v.clone()) {
                n += 1;
                let fresh = format!("K{n}");
                extra.push(Literal::Cmp(CmpOp::Eq, Term::Var(fresh.clone()), Term::Var(v.clone())));
                *v = fresh;
            }
        }
    }
    r.body.extend(extra);
    let order = crate::analysis::plan(&r)?;
    r.body = order.into_iter().map(|i| r.body[i].clone()).collect();
    Ok(r)
}

/// Converts a model value into a core value.
pub fn value(v: &Val) -> Value {
    match v {
        Val::Num(n) => Value::Int(*n),
        Val::Sym(s) => Value::Text(s.clone()),
    }
}

/// Column names of an output relation.
pub fn columns(p: &Program, rel: &str) -> Vec<String> {
    (0..p.cols(rel).len()).map(|i| format!("c{i}")).collect()
}

/// The option named on a first-line comment `<prefix> crosscheck-option: X`.
pub fn option_line<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let first = text.lines().next()?;
    first.strip_prefix(prefix)?.trim().strip_prefix("crosscheck-option:").map(str::trim)
}

/// Parses the answer text of engines that print one tuple per line, tab-separated, with
/// numbers bare and symbols quoted (`"..."` or `'...'`).
pub fn parse_tsv_rows(text: &str, arity: usize) -> Result<Vec<Vec<Value>>, String> {
    let mut rows = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() != arity {
            return Err(format!("unexpected answer line: {line}"));
        }
        rows.push(cells.iter().map(|c| parse_cell(c)).collect());
    }
    Ok(rows)
}

pub fn parse_cell(c: &str) -> Value {
    let c = c.trim();
    if let Ok(n) = c.parse::<i64>() {
        return Value::Int(n);
    }
    for q in ['"', '\''] {
        if c.len() >= 2 && c.starts_with(q) && c.ends_with(q) {
            return Value::Text(unescape(&c[1..c.len() - 1]));
        }
    }
    Value::Text(c.to_string())
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How a line comment starts in a dialect.
pub fn comment_prefix(dialect: &str) -> &'static str {
    match dialect {
        "cozo" => "#",
        "z3" => ";",
        "sqlite" | "postgres" | "duckdb" => "--",
        "nemo" | "clingo" | "swipl" => "%",
        _ => "//",
    }
}
