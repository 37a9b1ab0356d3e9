//! Z3's μZ Datalog engine through SMT-LIB's fixedpoint commands: `declare-rel` over finite
//! sorts, `rule`, `query :print-answer true`. The answer is a disjunction of
//! `(= (:var i) #x..)` conjunctions, one per tuple.
//!
//! Both column types are bit-vectors of one width (8 or 16 bits, the narrowest that holds the
//! program's constants): numbers 0..65535 as themselves (sort `N`), symbols as their rank among
//! the program's symbols (sort `S`, an alias of `N`). A `; symbols:` comment
//! lists them, so the adapter can turn codes back into text. Symbols are compared only with
//! `=` and `!=`: their order is engine-specific (Soufflé orders by interning), so the printer
//! refuses `<` on them.

use crate::ast::{CmpOp, Literal, Program, Rule, Term, Type, Val};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use crosscheck_engines::transport::{find_tool, run_once, RunOnce};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

pub const CAPS: &[&str] =
    &["negation", "comparisons", "symbols", "recursion", "mutual-recursion", "nonlinear-recursion"];

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

/// The widest sort: numbers beyond it are refused.
const MAX_BITS: u32 = 16;

fn rel(n: &str) -> String {
    format!("r_{n}")
}

/// How values are coded: each symbol by its rank (the order of the `; symbols:` comment), all
/// in bit-vectors of `bits` bits. Rules are safe and μZ gets no arithmetic, so every value is a
/// constant of the program and the width only has to hold those; it matters for speed: μZ
/// complements a negated relation over the whole sort, and a 2-column negation over 16 bits
/// took 2 s where 8 bits take 0.02 s.
struct Enc {
    syms: BTreeMap<String, i64>,
    bits: u32,
}

fn encoding(p: &Program) -> Result<Enc, String> {
    fn walk<'a>(t: &'a Term, all: &mut BTreeSet<&'a str>, max: &mut i64) {
        match t {
            Term::Const(Val::Sym(s)) => {
                all.insert(s);
            }
            Term::Const(Val::Num(n)) => *max = (*max).max(*n),
            Term::Bin(_, a, b) => {
                walk(a, all, max);
                walk(b, all, max);
            }
            _ => {}
        }
    }
    fn lits<'a>(ls: &'a [Literal], all: &mut BTreeSet<&'a str>, max: &mut i64) {
        for l in ls {
            match l {
                Literal::Pos(a) | Literal::Neg(a) => a.args.iter().for_each(|t| walk(t, all, max)),
                Literal::Cmp(_, x, y) => {
                    walk(x, all, max);
                    walk(y, all, max);
                }
                Literal::Agg { body, .. } => lits(body, all, max),
            }
        }
    }
    let (mut all, mut max) = (BTreeSet::new(), 0i64);
    for f in p.facts.iter() {
        for v in &f.vals {
            match v {
                Val::Sym(s) => {
                    all.insert(s.as_str());
                }
                Val::Num(n) => max = max.max(*n),
            }
        }
    }
    for r in &p.rules {
        r.head.args.iter().for_each(|t| walk(t, &mut all, &mut max));
        lits(&r.body, &mut all, &mut max);
    }
    let max = max.max(all.len() as i64 - 1);
    let Some(bits) = [8, MAX_BITS].into_iter().find(|b| max < 1i64 << b) else {
        return Err(format!("z3: {max} does not fit the finite sort"));
    };
    Ok(Enc { syms: all.into_iter().zip(0..).map(|(s, i)| (s.to_string(), i)).collect(), bits })
}

fn term(t: &Term, enc: &Enc) -> Result<String, String> {
    let bits = enc.bits;
    match t {
        Term::Var(v) => Ok(format!("v_{v}")),
        Term::Const(Val::Num(n)) if (0..(1i64 << bits)).contains(n) => Ok(format!("(_ bv{n} {bits})")),
        Term::Const(Val::Sym(s)) => {
            let code = enc.syms.get(s).ok_or_else(|| format!("z3: symbol {s:?} missing from the table"))?;
            Ok(format!("(_ bv{code} {bits})"))
        }
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

fn atom(a: &crate::ast::Atom, enc: &Enc, wild: &mut usize, vars: &mut BTreeSet<String>) -> Result<String, String> {
    let mut args = Vec::new();
    for t in &a.args {
        if matches!(t, Term::Wild) {
            *wild += 1;
            let v = format!("w{wild}");
            vars.insert(format!("v_{v}"));
            args.push(format!("v_{v}"));
        } else {
            args.push(term(t, enc)?);
        }
    }
    Ok(if args.is_empty() { rel(&a.rel) } else { format!("({} {})", rel(&a.rel), args.join(" ")) })
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::from("(set-option :fp.engine datalog)\n");
    if let Some((k, v)) = option.and_then(|o| o.split_once('=')) {
        let _ = writeln!(s, "(set-option :{k} {v})");
    }
    let syms = encoding(p)?;
    if !syms.syms.is_empty() {
        let list: Vec<&String> = syms.syms.keys().collect();
        let _ = writeln!(s, "; symbols: {}", serde_json::to_string(&list).map_err(|e| e.to_string())?);
    }
    let _ = writeln!(s, "(define-sort N () (_ BitVec {}))", syms.bits);
    let _ = writeln!(s, "(define-sort S () (_ BitVec {}))", syms.bits);
    for d in &p.decls {
        let cols: Vec<&str> = d.cols.iter().map(|c| if *c == Type::Symbol { "S" } else { "N" }).collect();
        let _ = writeln!(s, "(declare-rel {} ({}))", rel(&d.name), cols.join(" "));
    }
    let mut vars = BTreeSet::new();
    let mut rules = Vec::new();
    for f in p.facts.iter() {
        let args: Result<Vec<String>, String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()), &syms)).collect();
        rules.push(format!("(rule ({} {}))", rel(&f.rel), args?.join(" ")));
    }
    let mut wild = 0;
    for r in &p.rules {
        if r.has_agg() {
            return Err("z3: aggregates".into());
        }
        let types = p.var_types(r);
        let symbolic = |t: &Term| match t {
            Term::Var(v) => types.get(v) == Some(&Type::Symbol),
            Term::Const(c) => c.ty() == Type::Symbol,
            _ => false,
        };
        let ordered = |op: &CmpOp| !matches!(op, CmpOp::Eq | CmpOp::Ne);
        if r.body.iter().any(|l| matches!(l, Literal::Cmp(op, x, y) if ordered(op) && (symbolic(x) || symbolic(y)))) {
            return Err("z3: order on symbols".into());
        }
        let r = inline_equalities(r);
        r.vars().into_iter().for_each(|v| {
            vars.insert(format!("v_{v}"));
        });
        let head = atom(&r.head, &syms, &mut wild, &mut vars)?;
        let mut body = Vec::new();
        for l in &r.body {
            body.push(match l {
                Literal::Pos(a) => atom(a, &syms, &mut wild, &mut vars)?,
                Literal::Neg(a) if a.args.iter().any(|t| matches!(t, Term::Wild)) => {
                    return Err("z3: wildcard in a negated atom".into())
                }
                Literal::Neg(a) => format!("(not {})", atom(a, &syms, &mut wild, &mut vars)?),
                Literal::Cmp(op, x, y) => {
                    let (x, y) = (term(x, &syms)?, term(y, &syms)?);
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
            Some(list) => match serde_json::from_str(list) {
                Ok(v) => v,
                Err(e) => return Outcome::error(format!("z3: bad symbol table: {e}")),
            },
            None => vec![],
        };
        let arity = cols.len();
        let mut cmd = Command::new(&self.bin);
        cmd.arg("-in").arg(format!("-T:{}", limit.as_secs().max(1)));
        let (stdout, stderr, status) = match run_once(&mut cmd, text, limit + Duration::from_secs(2)) {
            Ok(RunOnce::Exited { status, stdout, stderr }) => (stdout, stderr, status),
            Ok(RunOnce::TimedOut { .. }) => return Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            Err(e) => return Outcome::error(format!("cannot run z3: {e}")),
        };
        use std::os::unix::process::ExitStatusExt;
        if status.signal().is_some() {
            return crosscheck_engines::transport::crash_from(Some(status), stderr);
        }
        if stdout.contains("timeout") || stdout.trim_start().starts_with("unknown") {
            return Outcome::Timeout { after_ms: limit.as_millis() as u64 };
        }
        if stdout.contains("(error") {
            return Outcome::error(format!("z3: {}", stdout.lines().find(|l| l.contains("(error")).unwrap_or("")));
        }
        let rows = parse_answer(&stdout, arity).and_then(|rows| {
            rows.into_iter()
                .map(|row| row.into_iter().zip(&cols).map(|(v, &sym)| decode(v, sym, &syms)).collect())
                .collect::<Result<Vec<Vec<Value>>, String>>()
        });
        match rows {
            Ok(rows) => Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows)),
            Err(e) => Outcome::error(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        crate::parse::parse(src).expect("parses")
    }

    #[test]
    fn symbols_are_coded_by_rank_and_listed() {
        let p = program(".decl p(x:symbol, n:number)\n.output p\np(\"b\", 1). p(\"a\", 2).\n");
        let text = print(&p, "p", None).expect("prints");
        assert!(text.contains("; symbols: [\"a\",\"b\"]"), "{text}");
        assert!(text.contains("(declare-rel r_p (S N))"), "{text}");
        assert!(text.contains("(rule (r_p (_ bv1 8) (_ bv1 8)))"), "{text}");
        assert_eq!(decode(Value::Int(1), true, &["a".into(), "b".into()]), Ok(Value::Text("b".into())));
        assert!(decode(Value::Int(2), true, &["a".into(), "b".into()]).is_err());
        assert_eq!(decode(Value::Int(2), false, &[]), Ok(Value::Int(2)));
    }

    #[test]
    fn order_on_symbols_is_refused() {
        let p = program(".decl p(x:symbol)\n.decl q(x:symbol)\n.output q\np(\"a\").\nq(X) :- p(X), X < \"b\".\n");
        assert_eq!(print(&p, "q", None), Err("z3: order on symbols".to_string()));
    }
}
