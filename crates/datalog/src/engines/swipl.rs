//! SWI-Prolog with tabling: every relation is tabled, negation is `tnot/1`, aggregates are
//! `aggregate_all/3` over a completed table, bodies are printed in evaluation order (Prolog
//! needs bound variables for comparisons). The program prints the output relation itself.

use super::{agg_form, flatten};
use crate::ast::{CmpOp, Literal, Program, Term, Val};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError};
use crosscheck_engines::transport::{find_tool, run_once, RunOnce};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::Command;
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

/// `subsumptive` tabling answers from more general tables; `reverse` reverses clause order.
pub const OPTIONS: &[&str] = &["subsumptive", "reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("V_{v}"),
        // `X*-5` is a syntax error in Prolog (`*-` reads as one operator): parenthesise.
        Term::Const(Val::Num(n)) if *n < 0 => format!("({n})"),
        Term::Const(Val::Num(n)) => n.to_string(),
        Term::Const(Val::Sym(s)) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({}{}{})", term(a), op.symbol(), term(b)),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}({})", rel(&a.rel), args.join(", "))
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::new();
    s.push_str(":- style_check(-singleton).\n:- style_check(-discontiguous).\n");
    let how = if option == Some("subsumptive") { " as subsumptive" } else { "" };
    for d in &p.decls {
        let _ = writeln!(s, ":- table {}/{}{how}.", rel(&d.name), d.cols.len());
    }
    let mut lines = Vec::new();
    for f in p.facts.iter() {
        let args: Vec<String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        lines.push(format!("{}({}).", rel(&f.rel), args.join(", ")));
    }
    let mut defined: BTreeSet<&str> = p.facts.iter().map(|f| f.rel.as_str()).collect();
    for r in &p.rules {
        defined.insert(&r.head.rel);
        if let Some(a) = agg_form(r) {
            let inner: Vec<String> = a.cols.iter().map(|c| format!("V_{}", c.as_deref().unwrap_or(&a.value))).collect();
            let guard: Vec<String> =
                a.cols.iter().map(|c| c.as_ref().map(|v| format!("V_{v}")).unwrap_or("_".into())).collect();
            let spec = match a.func {
                crate::ast::AggFn::Count => "count".to_string(),
                f => format!("{}(V_{})", f.name(), a.value),
            };
            // The guard enumerates each group once per value: the table keeps one answer.
            lines.push(format!(
                "{} :- {}({}), aggregate_all({spec}, {}({}), V_{}).",
                atom(&r.head),
                rel(&a.src),
                guard.join(", "),
                rel(&a.src),
                inner.join(", "),
                a.result
            ));
            continue;
        }
        if r.has_agg() {
            return Err("swipl: only the grouped aggregate form is supported".into());
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
                Literal::Cmp(op, x, y) => {
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
                Literal::Agg { .. } => return Err("swipl: aggregate in a body".into()),
            });
        }
        lines.push(format!("{} :- {}.", atom(&r.head), body.join(", ")));
    }
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

pub struct Factory;

fn binary(loc: Option<&str>) -> Option<PathBuf> {
    loc.map(PathBuf::from).or_else(|| find_tool("swipl"))
}

fn version(bin: &PathBuf) -> Option<String> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.split_whitespace().find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit())).map(str::to_string)
}

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "swipl"
    }
    fn describe(&self) -> &'static str {
        "SWI-Prolog with tabling (Debian swi-prolog-nox)"
    }
    fn availability(&self) -> Availability {
        let install = "apt-get install swi-prolog-nox (scripts/install-datalog-engines.sh)".to_string();
        match binary(None).and_then(|b| version(&b)) {
            Some(v) => Availability { available: true, detail: v, install },
            None => Availability { available: false, detail: "swipl not found".into(), install },
        }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let bin = binary(spec.location.as_deref())
            .ok_or_else(|| SetupError::new("swipl not found: run scripts/install-datalog-engines.sh"))?;
        let v = version(&bin).ok_or_else(|| SetupError::new(format!("{} does not run", bin.display())))?;
        let dir = tempfile_dir()?;
        Ok(Box::new(Swipl { info: info_for(spec, v, "swipl", CAPS), bin, dir, n: 0 }))
    }
}

/// A private directory for program files (swipl loads files, not stdin).
pub fn tempfile_dir() -> Result<PathBuf, SetupError> {
    let dir = std::env::temp_dir().join(format!("crosscheck-datalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| SetupError::new(format!("cannot create {}: {e}", dir.display())))?;
    Ok(dir)
}

pub struct Swipl {
    info: EngineInfo,
    bin: PathBuf,
    dir: PathBuf,
    n: u64,
}

impl Engine for Swipl {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.n += 1;
        let path = self.dir.join(format!("p{}.pl", self.n % 4));
        if let Err(e) = std::fs::write(&path, text) {
            return Outcome::error(format!("cannot write {}: {e}", path.display()));
        }
        let mut cmd = Command::new(&self.bin);
        cmd.arg("-q").arg(&path);
        let (stdout, stderr, status) = match run_once(&mut cmd, "", limit) {
            Ok(RunOnce::Exited { status, stdout, stderr }) => (stdout, stderr, status),
            Ok(RunOnce::TimedOut { .. }) => return Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            Err(e) => return Outcome::error(format!("cannot run swipl: {e}")),
        };
        use std::os::unix::process::ExitStatusExt;
        if status.signal().is_some() {
            return crosscheck_engines::transport::crash_from(Some(status), stderr);
        }
        if !status.success() || stderr.contains("Warning:") || stderr.contains("ERROR") {
            return Outcome::error(format!("swipl: {}", stderr.lines().take(4).collect::<Vec<_>>().join(" ")));
        }
        let rows: Vec<Vec<crosscheck_core::Value>> =
            stdout.lines().filter(|l| !l.is_empty()).map(|l| l.split('\t').map(super::parse_cell).collect()).collect();
        let arity = rows.first().map(Vec::len).unwrap_or(0);
        Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows))
    }
}

impl Drop for Swipl {
    fn drop(&mut self) {
        for i in 0..4 {
            let _ = std::fs::remove_file(self.dir.join(format!("p{i}.pl")));
        }
    }
}
