//! Recursive SQL on SQLite (rusqlite, bundled, in process): one CTE per relation in `WITH
//! RECURSIVE`, in stratification order; facts as `VALUES`, rules as `SELECT`s joined by
//! `UNION` (set semantics), negation as `NOT EXISTS`, aggregates as `GROUP BY`. SQLite allows
//! only linear self-recursion, so the generator gives this dialect neither mutual nor
//! non-linear recursion.

use super::{agg_form, flatten};
use crate::ast::{CmpOp, Literal, Program, Rule, Term, Val};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

pub const CAPS: &[&str] = &["negation", "aggregates", "arithmetic", "comparisons", "symbols", "negative", "recursion"];

/// `no-autoindex` turns off automatic indexes; `materialized` forces CTE materialization;
/// `reverse` reverses the SELECTs of each union; `order-desc` sorts the answer descending.
pub const OPTIONS: &[&str] = &["no-autoindex", "materialized", "reverse", "order-desc"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

fn lit(v: &Val) -> String {
    match v {
        Val::Num(n) => n.to_string(),
        Val::Sym(s) => format!("'{}'", s.replace('\'', "''")),
    }
}

/// A term as SQL, with variables replaced by the column (or expression) that binds them.
fn expr(t: &Term, env: &BTreeMap<String, String>) -> Result<String, String> {
    Ok(match t {
        Term::Var(v) => env.get(v).cloned().ok_or_else(|| format!("sqlite: unbound variable {v}"))?,
        Term::Const(c) => lit(c),
        Term::Wild => return Err("sqlite: wildcard in an expression".into()),
        Term::Bin(op, a, b) => format!("({} {} {})", expr(a, env)?, op.symbol(), expr(b, env)?),
    })
}

fn select(r: &Rule, n_alias: &mut usize) -> Result<String, String> {
    if let Some(a) = agg_form(r) {
        let group: Vec<String> =
            a.cols.iter().enumerate().filter(|(_, c)| c.is_some()).map(|(i, _)| format!("c{i}")).collect();
        let k = a.cols.iter().position(Option::is_none).unwrap_or(0);
        let mut env = BTreeMap::new();
        for (i, c) in a.cols.iter().enumerate() {
            if let Some(v) = c {
                env.insert(v.clone(), format!("c{i}"));
            }
        }
        env.insert(a.result.clone(), format!("{}(c{k})", a.func.name().to_uppercase()));
        let cols: Result<Vec<String>, String> = r.head.args.iter().map(|t| expr(t, &env)).collect();
        let by = if group.is_empty() { String::new() } else { format!(" GROUP BY {}", group.join(", ")) };
        return Ok(format!("SELECT {} FROM {}{by} HAVING COUNT(*) > 0", cols?.join(", "), rel(&a.src)));
    }
    if r.has_agg() {
        return Err("sqlite: only the grouped aggregate form is supported".into());
    }
    let r = flatten(r)?;
    let mut env: BTreeMap<String, String> = BTreeMap::new();
    let mut from = Vec::new();
    let mut conds = Vec::new();
    for l in &r.body {
        match l {
            Literal::Pos(a) => {
                *n_alias += 1;
                let t = format!("t{n_alias}");
                from.push(format!("{} AS {t}", rel(&a.rel)));
                for (i, arg) in a.args.iter().enumerate() {
                    let col = format!("{t}.c{i}");
                    match arg {
                        Term::Var(v) => match env.get(v) {
                            Some(prev) => conds.push(format!("{col} = {prev}")),
                            None => {
                                env.insert(v.clone(), col);
                            }
                        },
                        Term::Wild => {}
                        other => conds.push(format!("{col} = {}", expr(other, &env)?)),
                    }
                }
            }
            Literal::Neg(a) => {
                *n_alias += 1;
                let t = format!("t{n_alias}");
                let mut sub = Vec::new();
                for (i, arg) in a.args.iter().enumerate() {
                    if !matches!(arg, Term::Wild) {
                        sub.push(format!("{t}.c{i} = {}", expr(arg, &env)?));
                    }
                }
                let w = if sub.is_empty() { String::new() } else { format!(" WHERE {}", sub.join(" AND ")) };
                conds.push(format!("NOT EXISTS (SELECT 1 FROM {} AS {t}{w})", rel(&a.rel)));
            }
            Literal::Cmp(CmpOp::Eq, Term::Var(x), y) if !env.contains_key(x) => {
                let e = expr(y, &env)?;
                env.insert(x.clone(), e);
            }
            Literal::Cmp(CmpOp::Eq, x, Term::Var(y)) if !env.contains_key(y) => {
                let e = expr(x, &env)?;
                env.insert(y.clone(), e);
            }
            Literal::Cmp(op, x, y) => {
                let o = if *op == CmpOp::Ne { "<>" } else { op.symbol() };
                conds.push(format!("{} {o} {}", expr(x, &env)?, expr(y, &env)?));
            }
            Literal::Agg { .. } => return Err("sqlite: aggregate in a body".into()),
        }
    }
    let cols: Result<Vec<String>, String> = r.head.args.iter().map(|t| expr(t, &env)).collect();
    let mut s = format!("SELECT {}", cols?.join(", "));
    if !from.is_empty() {
        let _ = write!(s, " FROM {}", from.join(", "));
    }
    if !conds.is_empty() {
        let _ = write!(s, " WHERE {}", conds.join(" AND "));
    }
    Ok(s)
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut ctes = Vec::new();
    let mut n_alias = 0;
    for comp in crate::analysis::strata(p)? {
        if comp.len() > 1 {
            return Err("sqlite: mutual recursion".into());
        }
        let name = &comp[0];
        let Some(d) = p.decl(name) else { continue };
        let cols: Vec<String> = (0..d.cols.len()).map(|i| format!("c{i}")).collect();
        let mut parts = Vec::new();
        let facts: Vec<String> =
            p.facts_of(name).map(|f| format!("({})", f.vals.iter().map(lit).collect::<Vec<_>>().join(", "))).collect();
        if !facts.is_empty() {
            parts.push(format!("VALUES {}", facts.join(", ")));
        }
        // SQLite wants the non-recursive SELECTs before the recursive ones.
        let (mut base, mut rec): (Vec<&Rule>, Vec<&Rule>) = (Vec::new(), Vec::new());
        for r in p.rules.iter().filter(|r| r.head.rel == *name) {
            if r.deps().iter().any(|(d, _)| d == name) {
                rec.push(r);
            } else {
                base.push(r);
            }
        }
        if option == Some("reverse") {
            base.reverse();
            rec.reverse();
        }
        // A recursive CTE must start with a non-recursive SELECT ("circular reference"
        // otherwise); a relation with only recursive rules and no facts is empty, and so is
        // this start (a differential campaign found it).
        if parts.is_empty() && base.is_empty() && !rec.is_empty() {
            parts.push(format!("SELECT {} WHERE 0", vec!["NULL"; cols.len()].join(", ")));
        }
        for r in base.into_iter().chain(rec) {
            parts.push(select(r, &mut n_alias)?);
        }
        if parts.is_empty() {
            parts.push(format!("SELECT {} WHERE 0", vec!["NULL"; cols.len()].join(", ")));
        }
        let mat = if option == Some("materialized")
            && !p.rules.iter().any(|r| r.head.rel == *name && r.deps().iter().any(|(d, _)| d == name))
        {
            "MATERIALIZED "
        } else {
            ""
        };
        ctes.push(format!("{}({}) AS {mat}(\n  {}\n)", rel(name), cols.join(", "), parts.join("\n  UNION\n  ")));
    }
    let mut s = String::new();
    if option == Some("no-autoindex") {
        s.push_str("PRAGMA automatic_index = OFF;\n");
    }
    let n = p.cols(out).len();
    let cols: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    // `order-desc`: the answer through SQLite's sorter, descending; a set must not change.
    let order = if option == Some("order-desc") && n > 0 {
        format!(" ORDER BY {}", (1..=n).map(|i| format!("{i} DESC")).collect::<Vec<_>>().join(", "))
    } else {
        String::new()
    };
    let _ = write!(s, "WITH RECURSIVE\n{}\nSELECT {} FROM {}{order};\n", ctes.join(",\n"), cols.join(", "), rel(out));
    Ok(s)
}

/// SQLite's messages for its documented limits (sqlite.org/limits.html) that a big program can
/// reach.
const LIMITS: &[&str] = &[
    "nested too deep",
    "Expression tree is too large",
    "too many terms in compound SELECT",
    "too many FROM clause terms",
];

pub struct Factory;

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "sqlite"
    }
    fn describe(&self) -> &'static str {
        "recursive SQL (WITH RECURSIVE) on SQLite via rusqlite, in process"
    }
    fn availability(&self) -> Availability {
        Availability { available: true, detail: rusqlite::version().to_string(), install: "built in".into() }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let conn = rusqlite::Connection::open_in_memory()
            .map_err(|e| SetupError::new(format!("cannot open an in-memory SQLite database: {e}")))?;
        Ok(Box::new(Sqlite { info: info_for(spec, rusqlite::version().to_string(), "sqlite", CAPS), conn }))
    }
}

pub struct Sqlite {
    info: EngineInfo,
    conn: rusqlite::Connection,
}

impl Engine for Sqlite {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let _ = self.conn.execute_batch("PRAGMA automatic_index = ON;");
        let mut query = text;
        if let Some(rest) = text.strip_prefix("PRAGMA automatic_index = OFF;\n") {
            let _ = self.conn.execute_batch("PRAGMA automatic_index = OFF;");
            query = rest;
        }
        // A watchdog thread interrupts the query at the limit (no `hooks` feature needed).
        let handle = self.conn.get_interrupt_handle();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            if wait.recv_timeout(limit) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                handle.interrupt();
            }
        });
        let res = (|| -> rusqlite::Result<Vec<Vec<Value>>> {
            let mut st = self.conn.prepare(query.trim_end().trim_end_matches(';'))?;
            let n = st.column_count();
            let mut rows = st.query([])?;
            let mut out = Vec::new();
            while let Some(r) = rows.next()? {
                let mut row = Vec::with_capacity(n);
                for i in 0..n {
                    row.push(match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Integer(v) => Value::Int(v),
                        rusqlite::types::ValueRef::Real(f) => Value::Float(f),
                        rusqlite::types::ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                        rusqlite::types::ValueRef::Null => Value::Null,
                        rusqlite::types::ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
                    });
                }
                out.push(row);
            }
            Ok(out)
        })();
        let _ = done.send(());
        let _ = watchdog.join();
        match res {
            Ok(rows) => {
                let arity = rows.first().map(Vec::len).unwrap_or(0);
                Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows))
            }
            Err(e) if e.to_string().contains("interrupted") => Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            // SQLite's documented limits on a statement's nesting: a large program printed as
            // one query of nested views can pass them; that is a refusal, not a wrong answer.
            Err(e) if LIMITS.iter().any(|l| e.to_string().contains(l)) => {
                Outcome::Error { message: format!("sqlite: {e}"), class: crosscheck_core::ErrorClass::Expected }
            }
            Err(e) => Outcome::error(format!("sqlite: {e}")),
        }
    }
}
