//! Z3's μZ Datalog engine through SMT-LIB's fixedpoint commands: `declare-rel` over finite
//! sorts, `rule`, `query :print-answer true`. The answer is a disjunction of
//! `(= (:var i) #x..)` conjunctions, one per tuple.
//!
//! The text comes from the Datalog leg's `z3` dialect. Both column types are bit-vectors of one width (8 or 16 bits, the narrowest that holds the
//! program's constants): numbers 0..65535 as themselves (sort `N`), symbols as their rank among
//! the program's symbols (sort `S`, an alias of `N`). A `; symbols:` comment
//! lists them, so the adapter can turn codes back into text. Symbols are compared only with
//! `=` and `!=`: their order is engine-specific (Soufflé orders by interning), so the printer
//! refuses `<` on them.

use super::tool::Tool;
use crate::transport::process::{LineProcess, ReadError};
use crate::Entry;
use crosscheck_core::{Outcome, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// An s-expression of μZ's answer.
#[derive(Debug)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

fn sexp(tokens: &[String], i: &mut usize) -> Result<Sx, String> {
    let t = tokens.get(*i).ok_or("truncated answer")?;
    *i += 1;
    if t == "(" {
        let mut items = Vec::new();
        while tokens.get(*i).map(String::as_str) != Some(")") {
            items.push(sexp(tokens, i)?);
        }
        *i += 1;
        Ok(Sx::List(items))
    } else {
        Ok(Sx::Atom(t.clone()))
    }
}

fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if c == '(' || c == ')' || c.is_whitespace() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn bv(x: &Sx) -> Result<i64, String> {
    match x {
        Sx::Atom(a) if a.starts_with("#x") => i64::from_str_radix(&a[2..], 16).map_err(|e| e.to_string()),
        Sx::Atom(a) if a.starts_with("#b") => i64::from_str_radix(&a[2..], 2).map_err(|e| e.to_string()),
        Sx::List(l) => match l.as_slice() {
            [Sx::Atom(u), Sx::Atom(b), _] if u == "_" && b.starts_with("bv") => {
                b[2..].parse().map_err(|_| "bad bv".into())
            }
            _ => Err(format!("unexpected value {x:?}")),
        },
        other => Err(format!("unexpected value {other:?}")),
    }
}

/// One `(= (:var i) v)` equality.
fn equality(x: &Sx) -> Result<(usize, i64), String> {
    if let Sx::List(l) = x {
        if let [Sx::Atom(eq), Sx::List(var), v] = l.as_slice() {
            if let [Sx::Atom(k), Sx::Atom(i)] = var.as_slice() {
                if eq == "=" && k == ":var" {
                    return Ok((i.parse().map_err(|_| "bad :var")?, bv(v)?));
                }
            }
        }
    }
    Err(format!("compressed μZ answer not supported: {x:?}").chars().take(200).collect())
}

fn tuple(x: &Sx, arity: usize) -> Result<Vec<Value>, String> {
    let eqs: Vec<(usize, i64)> = match x {
        Sx::List(l) if matches!(l.first(), Some(Sx::Atom(a)) if a == "and") => {
            l[1..].iter().map(equality).collect::<Result<_, _>>()?
        }
        other => vec![equality(other)?],
    };
    let m: BTreeMap<usize, i64> = eqs.into_iter().collect();
    if m.len() != arity || !(0..arity).all(|k| m.contains_key(&k)) {
        return Err("μZ answer leaves a column unconstrained".into());
    }
    Ok(m.into_values().map(Value::Int).collect())
}

/// Parses μZ's answer into tuples of `arity` columns.
pub fn parse_answer(text: &str, arity: usize) -> Result<Vec<Vec<Value>>, String> {
    let t = text.trim_start();
    if t.starts_with("unsat") {
        return Ok(vec![]);
    }
    let Some(rest) = t.strip_prefix("sat") else {
        return Err(format!("unexpected answer: {}", t.lines().next().unwrap_or("")));
    };
    let tokens = tokenize(rest);
    if tokens.is_empty() || (tokens.len() == 1 && tokens[0] == "true") {
        return Err("μZ answer without tuples".into());
    }
    let mut i = 0;
    let root = sexp(&tokens, &mut i)?;
    match &root {
        Sx::List(l) if matches!(l.first(), Some(Sx::Atom(a)) if a == "or") => {
            l[1..].iter().map(|x| tuple(x, arity)).collect()
        }
        other => Ok(vec![tuple(other, arity)?]),
    }
}

/// A symbol column's code back to its text.
fn decode(v: Value, symbol: bool, syms: &[String]) -> Result<Value, String> {
    match v {
        Value::Int(code) if symbol => usize::try_from(code)
            .ok()
            .and_then(|i| syms.get(i))
            .map(|s| Value::Text(s.clone()))
            .ok_or_else(|| format!("z3: symbol code {code} outside the table")),
        v => Ok(v),
    }
}

pub static FACTORY: Entry<Tool<Session>> = Entry {
    name: "z3",
    describe: "Z3's μZ Datalog engine (SMT-LIB fixedpoint; PyPI z3-solver binary or Debian z3), one long-lived `z3 -in`; z3=/path/to/z3 for another build (z3-datalog for its native .datalog format)",
    opener: Tool {
        binary: "z3",
        install: "pip install z3-solver into .venv or apt-get install z3 (scripts/install-datalog-engines.sh)",
        version: version_of,
        probe: None,
        open: || Ok(Session::default()),
        run: run_z3,
    },
};

/// What `z3 --version` says.
pub fn version_of(out: &str) -> Option<String> {
    out.trim_start().strip_prefix("Z3 version ")?.split_whitespace().next().map(str::to_string)
}

/// Printed after each program: the end of its answer.
const MARKER: &str = "@@crosscheck-end@@";

/// One `z3 -in` kept across programs, each after a `(reset)`. Starting z3 takes about 12 ms,
/// most of what a small program costs: a process per program held μZ campaigns to ~50
/// programs/s. A run past its limit kills the process (the only way to stop μZ), and so does
/// a program that sets an option, since options outlive `(reset)`.
#[derive(Default)]
pub struct Session {
    proc: Option<LineProcess>,
    used: bool,
}

impl Session {
    /// Everything z3 printed for `text`, or the outcome that ended the run.
    fn exchange(&mut self, bin: &Path, text: &str, limit: Duration) -> Result<String, Outcome> {
        if self.proc.as_mut().is_some_and(|p| !p.is_alive()) {
            self.proc = None;
        }
        if self.proc.is_none() {
            let proc = LineProcess::spawn(Command::new(bin).arg("-in"))
                .map_err(|e| Outcome::error(format!("cannot run z3: {e}")))?;
            self.proc = Some(proc);
            self.used = false;
        }
        let proc = self.proc.as_mut().ok_or_else(|| Outcome::error("no z3 process"))?;
        let reset = if self.used { "(reset)\n" } else { "" };
        self.used = true;
        let start = Instant::now();
        if proc.send(&format!("{reset}{text}\n(echo \"{MARKER}\")\n")).is_err() {
            let crash = proc.crash_outcome();
            self.proc = None;
            return Err(crash);
        }
        let mut lines: Vec<String> = Vec::new();
        loop {
            match proc.recv_line(start + limit) {
                Ok(l) if l.trim().trim_matches('"') == MARKER => break,
                Ok(l) => lines.push(l),
                Err(ReadError::Timeout) => {
                    self.proc = None;
                    return Err(Outcome::Timeout { after_ms: crosscheck_core::millis(limit) });
                }
                Err(ReadError::Closed) => {
                    let crash = proc.crash_outcome();
                    self.proc = None;
                    return Err(crash);
                }
            }
        }
        if sets_option(text) {
            self.proc = None;
        }
        Ok(lines.join("\n"))
    }
}

/// Whether a program sets an option besides the engine (the `config` oracle's).
fn sets_option(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("(set-option :") && !l.starts_with("(set-option :fp.engine "))
}

/// The output relation's columns (whether each holds symbols) and the symbol table.
fn columns(text: &str) -> Result<(Vec<bool>, Vec<String>), Outcome> {
    let cols: Vec<bool> = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("(query "))
        .and_then(|q| q.split_whitespace().next())
        .and_then(|name| {
            let decl = format!("(declare-rel {name} (");
            text.lines().find_map(|l| l.strip_prefix(&decl))
        })
        .map(|cols| cols.split_whitespace().map(|c| c.trim_end_matches(')') == "S").collect())
        .unwrap_or_default();
    let syms: Vec<String> = match text.lines().find_map(|l| l.strip_prefix("; symbols: ")) {
        Some(list) => serde_json::from_str(list).map_err(|e| Outcome::error(format!("z3: bad symbol table: {e}")))?,
        None => vec![],
    };
    Ok((cols, syms))
}

/// The query's answer, with symbol codes turned back into text.
fn run_z3(session: &mut Session, bin: &Path, text: &str, limit: Duration) -> Outcome {
    let (cols, syms) = match columns(text) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let stdout = match session.exchange(bin, text, limit) {
        Ok(s) => s,
        Err(o) => return o,
    };
    if stdout.contains("timeout") || stdout.trim_start().starts_with("unknown") {
        return Outcome::Timeout { after_ms: crosscheck_core::millis(limit) };
    }
    if stdout.contains("(error") {
        return Outcome::error(format!("z3: {}", stdout.lines().find(|l| l.contains("(error")).unwrap_or("")));
    }
    let rows = parse_answer(&stdout, cols.len()).and_then(|rows| {
        rows.into_iter()
            .map(|row| row.into_iter().zip(&cols).map(|(v, &sym)| decode(v, sym, &syms)).collect())
            .collect::<Result<Vec<Vec<Value>>, String>>()
    });
    match rows {
        Ok(rows) => super::numbered_rows(rows),
        Err(e) => Outcome::error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbol_codes_turn_back_into_text() {
        assert_eq!(decode(Value::Int(1), true, &["a".into(), "b".into()]), Ok(Value::Text("b".into())));
        assert!(decode(Value::Int(2), true, &["a".into(), "b".into()]).is_err());
        assert_eq!(decode(Value::Int(2), false, &[]), Ok(Value::Int(2)));
    }
}
