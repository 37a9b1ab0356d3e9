//! clingo (ASP): a stratified program has exactly one answer set, its least model. Dialect:
//! Prolog-style rules, `not` negation, strings for symbols, `#count`/`#sum`/`#min`/`#max`
//! set aggregates, `#show` for the output. Run as a subprocess (`clingo -V0 file`).

use super::{agg_form, flatten};
use crate::ast::{CmpOp, Literal, Program, Term, Val};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use crosscheck_engines::transport::{find_tool, run_once, RunOnce};
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

/// Solver configurations and threads: none may change the answer set of a stratified program.
pub const OPTIONS: &[&str] = &["--configuration=crafty", "--configuration=jumpy", "--parallel-mode=2", "reverse"];

fn rel(n: &str) -> String {
    format!("r_{n}")
}

pub fn term(t: &Term) -> String {
    match t {
        Term::Var(v) => format!("V_{v}"),
        Term::Const(Val::Num(n)) => n.to_string(),
        Term::Const(Val::Sym(s)) => format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        Term::Wild => "_".into(),
        Term::Bin(op, a, b) => format!("({}{}{})", term(a), op.symbol(), term(b)),
    }
}

fn atom(a: &crate::ast::Atom) -> String {
    let args: Vec<String> = a.args.iter().map(term).collect();
    format!("{}({})", rel(&a.rel), args.join(","))
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut lines = Vec::new();
    for f in p.facts.iter() {
        let args: Vec<String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        lines.push(format!("{}({}).", rel(&f.rel), args.join(",")));
    }
    for r in &p.rules {
        if let Some(a) = agg_form(r) {
            let inner: Vec<String> = a.cols.iter().map(|c| format!("V_{}", c.as_deref().unwrap_or(&a.value))).collect();
            let guard: Vec<String> =
                a.cols.iter().map(|c| c.as_ref().map(|v| format!("V_{v}")).unwrap_or("_".into())).collect();
            lines.push(format!(
                "{} :- {}({}), V_{} = #{}{{ V_{} : {}({}) }}.",
                atom(&r.head),
                rel(&a.src),
                guard.join(","),
                a.result,
                a.func.name(),
                a.value,
                rel(&a.src),
                inner.join(",")
            ));
            continue;
        }
        if r.has_agg() {
            return Err("clingo: only the grouped aggregate form is supported".into());
        }
        let r = flatten(r)?;
        let body: Vec<String> = r
            .body
            .iter()
            .map(|l| match l {
                Literal::Pos(a) => atom(a),
                Literal::Neg(a) => format!("not {}", atom(a)),
                Literal::Cmp(op, x, y) => {
                    let o = if *op == CmpOp::Eq { "=" } else { op.symbol() };
                    format!("{}{o}{}", term(x), term(y))
                }
                Literal::Agg { .. } => String::new(),
            })
            .collect();
        lines.push(format!("{} :- {}.", atom(&r.head), body.join(", ")));
    }
    if option == Some("reverse") {
        lines.reverse();
    }
    let mut s = String::new();
    if let Some(o) = option.filter(|o| o.starts_with("--")) {
        let _ = writeln!(s, "% crosscheck-option: {o}");
    }
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    let _ = writeln!(s, "#show {}/{}.", rel(out), p.cols(out).len());
    Ok(s)
}

/// Splits `r_x(1,"a,b")` into its argument texts.
pub fn split_args(inner: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut escaped = false;
    let mut depth = 0;
    for c in inner.chars() {
        if escaped {
            cur.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\\' if quoted => {
                cur.push(c);
                escaped = true;
            }
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            '(' if !quoted => {
                depth += 1;
                cur.push(c);
            }
            ')' if !quoted => {
                depth -= 1;
                cur.push(c);
            }
            ',' if !quoted && depth == 0 => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Atoms `name(args)` separated by spaces on one line (strings may hold spaces).
pub fn split_atoms(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut escaped = false;
    for c in line.chars() {
        if escaped {
            escaped = false;
            cur.push(c);
            continue;
        }
        match c {
            '\\' if quoted => {
                escaped = true;
                cur.push(c);
            }
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

pub struct Factory;

fn binary(spec_location: Option<&str>) -> Option<PathBuf> {
    spec_location.map(PathBuf::from).or_else(|| find_tool("clingo"))
}

fn version(bin: &PathBuf) -> Option<String> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(text.lines().next()?.trim().trim_start_matches("clingo version ").to_string())
}

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "clingo"
    }
    fn describe(&self) -> &'static str {
        "clingo ASP solver (Debian gringo), stratified programs as answer-set programs"
    }
    fn availability(&self) -> Availability {
        let install = "apt-get install gringo (scripts/install-datalog-engines.sh)".to_string();
        match binary(None).and_then(|b| version(&b)) {
            Some(v) => Availability { available: true, detail: v, install },
            None => Availability { available: false, detail: "clingo not found".into(), install },
        }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let bin = binary(spec.location.as_deref())
            .ok_or_else(|| SetupError::new("clingo not found: run scripts/install-datalog-engines.sh"))?;
        let v = version(&bin).ok_or_else(|| SetupError::new(format!("{} does not run", bin.display())))?;
        Ok(Box::new(Clingo { info: info_for(spec, v, "clingo", CAPS), bin }))
    }
}

pub struct Clingo {
    info: EngineInfo,
    bin: PathBuf,
}

impl Engine for Clingo {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let mut cmd = Command::new(&self.bin);
        cmd.args(["-V0", "--warn=none", "--outf=0"]);
        if let Some(o) = super::option_line(text, "%") {
            cmd.arg(o);
        }
        cmd.arg(format!("--time-limit={}", limit.as_secs().max(1)));
        cmd.arg("-");
        let (stdout, stderr, status) = match run_once(&mut cmd, text, limit + Duration::from_secs(2)) {
            Ok(RunOnce::Exited { status, stdout, stderr }) => (stdout, stderr, status),
            Ok(RunOnce::TimedOut { .. }) => return Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            Err(e) => return Outcome::error(format!("cannot run clingo: {e}")),
        };
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return crosscheck_engines::transport::crash_from(Some(status), format!("signal {sig}\n{stderr}"));
        }
        let lines: Vec<&str> = stdout.lines().collect();
        let Some(end) = lines.iter().position(|l| l.starts_with("SATISFIABLE") || l.starts_with("UNSATISFIABLE"))
        else {
            if stdout.contains("UNKNOWN") || stderr.contains("Interrupted") {
                return Outcome::Timeout { after_ms: limit.as_millis() as u64 };
            }
            return Outcome::error(format!("clingo: {}", stderr.lines().take(3).collect::<Vec<_>>().join(" ")));
        };
        if lines[end].starts_with("UNSATISFIABLE") {
            return Outcome::error("clingo: unsatisfiable (the program is not stratified?)");
        }
        let model = if end == 0 { "" } else { lines[end - 1] };
        let mut rows = Vec::new();
        for a in split_atoms(model) {
            let Some(open) = a.find('(') else { continue };
            let inner = a[open + 1..].strip_suffix(')').unwrap_or(&a[open + 1..]);
            rows.push(split_args(inner).iter().map(|c| super::parse_cell(c)).collect::<Vec<Value>>());
        }
        let arity = rows.first().map(Vec::len).unwrap_or(0);
        Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows))
    }
}
