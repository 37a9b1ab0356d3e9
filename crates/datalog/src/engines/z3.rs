//! Z3's μZ Datalog engine through SMT-LIB's fixedpoint commands: `declare-rel` over a finite
//! sort (16-bit vectors: numbers 0..65535, no symbols), `rule`, `query :print-answer true`.
//! The answer is a disjunction of `(= (:var i) #x..)` conjunctions, one per tuple.

use crate::ast::{CmpOp, Literal, Program, Rule, Term, Val};
use crosscheck_core::engine::info_for;
use crosscheck_core::process::{find_tool, run_once, RunOnce};
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

pub const CAPS: &[&str] = &["negation", "comparisons", "recursion", "mutual-recursion", "nonlinear-recursion"];

/// μZ's rule transformations and relation back-ends: none may change an answer.
pub const OPTIONS: &[&str] = &[
    "fp.xform.slice=false",
    "fp.xform.inline_linear=false",
    "fp.xform.coi=false",
    "fp.xform.compress_unbound=false",
    "fp.datalog.unbound_compressor=false",
    "fp.datalog.magic_sets_for_queries=true",
    "fp.xform.inline_linear_branch=true",
];

const BITS: u32 = 16;

fn rel(n: &str) -> String {
    format!("r_{n}")
}

fn term(t: &Term) -> Result<String, String> {
    match t {
        Term::Var(v) => Ok(format!("v_{v}")),
        Term::Const(Val::Num(n)) if (0..(1i64 << BITS)).contains(n) => Ok(format!("(_ bv{n} {BITS})")),
        Term::Const(c) => Err(format!("z3: constant {c} outside the finite sort")),
        Term::Wild => Err("z3: wildcard".into()),
        Term::Bin(..) => Err("z3: arithmetic".into()),
    }
}

/// Substitutes `X = t` (t a variable or constant, X a variable) into the rest of the rule, so
/// heads and atoms carry the terms directly.
fn inline_equalities(r: &Rule) -> Rule {
    let mut r = r.clone();
    loop {
        let pos = r
            .body
            .iter()
            .position(|l| matches!(l, Literal::Cmp(CmpOp::Eq, Term::Var(_), Term::Var(_) | Term::Const(_))));
        let Some(i) = pos else { return r };
        let Literal::Cmp(_, Term::Var(x), t) = r.body.remove(i) else { return r };
        let sub = |term: &mut Term| {
            if matches!(term, Term::Var(v) if *v == x) {
                *term = t.clone();
            }
        };
        r.head.args.iter_mut().for_each(sub);
        for l in r.body.iter_mut() {
            match l {
                Literal::Pos(a) | Literal::Neg(a) => a.args.iter_mut().for_each(sub),
                Literal::Cmp(_, a, b) => {
                    sub(a);
                    sub(b);
                }
                Literal::Agg { .. } => {}
            }
        }
    }
}

fn atom(a: &crate::ast::Atom, wild: &mut usize, vars: &mut BTreeSet<String>) -> Result<String, String> {
    let mut args = Vec::new();
    for t in &a.args {
        if matches!(t, Term::Wild) {
            *wild += 1;
            let v = format!("w{wild}");
            vars.insert(format!("v_{v}"));
            args.push(format!("v_{v}"));
        } else {
            args.push(term(t)?);
        }
    }
    Ok(if args.is_empty() { rel(&a.rel) } else { format!("({} {})", rel(&a.rel), args.join(" ")) })
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::from("(set-option :fp.engine datalog)\n");
    if let Some((k, v)) = option.and_then(|o| o.split_once('=')) {
        let _ = writeln!(s, "(set-option :{k} {v})");
    }
    let _ = writeln!(s, "(define-sort N () (_ BitVec {BITS}))");
    for d in &p.decls {
        let _ = writeln!(s, "(declare-rel {} ({}))", rel(&d.name), vec!["N"; d.cols.len()].join(" "));
    }
    let mut vars = BTreeSet::new();
    let mut rules = Vec::new();
    for f in p.facts.iter() {
        let args: Result<Vec<String>, String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        rules.push(format!("(rule ({} {}))", rel(&f.rel), args?.join(" ")));
    }
    let mut wild = 0;
    for r in &p.rules {
        if r.has_agg() {
            return Err("z3: aggregates".into());
        }
        let r = inline_equalities(r);
        r.vars().into_iter().for_each(|v| {
            vars.insert(format!("v_{v}"));
        });
        let head = atom(&r.head, &mut wild, &mut vars)?;
        let mut body = Vec::new();
        for l in &r.body {
            body.push(match l {
                Literal::Pos(a) => atom(a, &mut wild, &mut vars)?,
                Literal::Neg(a) if a.args.iter().any(|t| matches!(t, Term::Wild)) => {
                    return Err("z3: wildcard in a negated atom".into())
                }
                Literal::Neg(a) => format!("(not {})", atom(a, &mut wild, &mut vars)?),
                Literal::Cmp(op, x, y) => {
                    let (x, y) = (term(x)?, term(y)?);
                    match op {
                        CmpOp::Eq => format!("(= {x} {y})"),
                        CmpOp::Ne => format!("(not (= {x} {y}))"),
                        CmpOp::Lt => format!("(bvult {x} {y})"),
                        CmpOp::Le => format!("(bvule {x} {y})"),
                        CmpOp::Gt => format!("(bvugt {x} {y})"),
                        CmpOp::Ge => format!("(bvuge {x} {y})"),
                    }
                }
                Literal::Agg { .. } => return Err("z3: aggregates".into()),
            });
        }
        rules.push(match body.len() {
            0 => format!("(rule {head})"),
            1 => format!("(rule (=> {} {head}))", body[0]),
            _ => format!("(rule (=> (and {}) {head}))", body.join(" ")),
        });
    }
    for v in &vars {
        let _ = writeln!(s, "(declare-var {v} N)");
    }
    for r in rules {
        s.push_str(&r);
        s.push('\n');
    }
    let _ = writeln!(s, "(query {} :print-answer true)", rel(out));
    Ok(s)
}

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

pub struct Factory;

fn binary(loc: Option<&str>) -> Option<PathBuf> {
    loc.map(PathBuf::from).or_else(|| find_tool("z3"))
}

fn version(bin: &PathBuf) -> Option<String> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.split_whitespace().nth(2).map(str::to_string)
}

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "z3"
    }
    fn describe(&self) -> &'static str {
        "Z3's μZ Datalog engine (SMT-LIB fixedpoint; PyPI z3-solver binary or Debian z3)"
    }
    fn availability(&self) -> Availability {
        let install =
            "pip install z3-solver into .venv or apt-get install z3 (scripts/install-datalog-engines.sh)".to_string();
        match binary(None).and_then(|b| version(&b)) {
            Some(v) => Availability { available: true, detail: v, install },
            None => Availability { available: false, detail: "z3 not found".into(), install },
        }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let bin = binary(spec.location.as_deref())
            .ok_or_else(|| SetupError::new("z3 not found: run scripts/install-datalog-engines.sh"))?;
        let v = version(&bin).ok_or_else(|| SetupError::new(format!("{} does not run", bin.display())))?;
        Ok(Box::new(Z3 { info: info_for(spec, v, "z3", CAPS), bin }))
    }
}

pub struct Z3 {
    info: EngineInfo,
    bin: PathBuf,
}

impl Engine for Z3 {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let arity = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("(query "))
            .and_then(|q| q.split_whitespace().next())
            .and_then(|name| {
                let decl = format!("(declare-rel {name} (");
                text.lines().find_map(|l| l.strip_prefix(&decl)).map(|cols| cols.split_whitespace().count())
            })
            .unwrap_or(0);
        let mut cmd = Command::new(&self.bin);
        cmd.arg("-in").arg(format!("-T:{}", limit.as_secs().max(1)));
        let (stdout, stderr, status) = match run_once(&mut cmd, text, limit + Duration::from_secs(2)) {
            Ok(RunOnce::Exited { status, stdout, stderr }) => (stdout, stderr, status),
            Ok(RunOnce::TimedOut { .. }) => return Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            Err(e) => return Outcome::error(format!("cannot run z3: {e}")),
        };
        use std::os::unix::process::ExitStatusExt;
        if status.signal().is_some() {
            return crosscheck_core::process::crash_from(Some(status), stderr);
        }
        if stdout.contains("timeout") || stdout.trim_start().starts_with("unknown") {
            return Outcome::Timeout { after_ms: limit.as_millis() as u64 };
        }
        if stdout.contains("(error") {
            return Outcome::error(format!("z3: {}", stdout.lines().find(|l| l.contains("(error")).unwrap_or("")));
        }
        match parse_answer(&stdout, arity) {
            Ok(rows) => Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows)),
            Err(e) => Outcome::error(e),
        }
    }
}
