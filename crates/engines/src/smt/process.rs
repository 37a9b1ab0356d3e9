//! One long-lived SMT-LIB solver process, reused for many instances.
//!
//! Spawning a solver costs 13-22 ms, more than solving most STORM instances, so each engine
//! keeps one process, separates instances with `(reset)`, and ends each script with
//! `(echo "<marker>")` so it knows when the answers are complete without closing stdin. A
//! timeout kills the process (the next call re-spawns it); a process that died is a crash with
//! its stderr tail; a solver that exits after an error (cvc4, cvc5) is simply re-spawned.

use super::sexp::{self, Sexp};
use crate::transport::{run_once, LineProcess, ReadError, RunOnce};
use crosscheck_core::engine::{info_for, Availability, EngineInfo, EngineSpec, SetupError};
use crosscheck_core::{Engine, ErrorClass, Outcome, Verdict};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

const MARKER: &str = "@@crosscheck-end@@";

/// How to start one solver.
#[derive(Clone, Debug)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// `(set-option ...)` lines sent at the start of every script (from the engine location).
    pub options: Vec<String>,
}

/// What a user wrote as LOCATION: `[PATH][+OPTION...]`, where an option starting with `-` is a
/// command-line flag (`+--mcsat`) and `key=value` becomes `(set-option :key value)`.
pub fn split_location(location: Option<&str>) -> (Option<String>, Vec<String>, Vec<String>) {
    let Some(loc) = location else { return (None, Vec::new(), Vec::new()) };
    let mut parts = loc.split('+');
    let path = parts.next().filter(|p| !p.is_empty()).map(str::to_string);
    let (mut flags, mut opts) = (Vec::new(), Vec::new());
    for p in parts.filter(|p| !p.is_empty()) {
        if p.starts_with('-') {
            flags.push(p.to_string());
        } else if let Some((k, v)) = p.split_once('=') {
            opts.push(format!("(set-option :{} {})", k.trim_start_matches(':'), v));
        } else {
            opts.push(format!("(set-option :{} true)", p.trim_start_matches(':')));
        }
    }
    (path, flags, opts)
}

/// The first `N.N[.N]` in a version banner.
pub fn version_number(banner: &str) -> Option<String> {
    banner
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .find(|w| {
            let w = w.trim_start_matches('v');
            w.contains('.') && w.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|w| w.trim_start_matches('v').to_string())
}

/// Runs `program args` once to read its version.
pub fn probe_version(program: &PathBuf, args: &[&str]) -> Result<String, String> {
    let mut cmd = Command::new(program);
    cmd.args(args);
    match run_once(&mut cmd, "", Duration::from_secs(20)) {
        Ok(RunOnce::Exited { stdout, stderr, .. }) => {
            let text = format!("{stdout}\n{stderr}");
            // The last line of what it printed says why (a Python traceback ends with its error).
            let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("nothing").trim();
            version_number(&text).ok_or_else(|| format!("{} printed no version: {last}", program.display()))
        }
        Ok(RunOnce::TimedOut { .. }) => Err(format!("{} --version did not answer", program.display())),
        Err(e) => Err(format!("cannot run {}: {e}", program.display())),
    }
}

/// Availability of a binary tool, with `install` as the hint when it is missing.
pub fn binary_availability(tool: &str, version_args: &[&str], install: &str) -> Availability {
    match crate::transport::find_tool(tool) {
        Some(p) => match probe_version(&p, version_args) {
            Ok(v) => {
                Availability { available: true, detail: format!("{v} ({})", p.display()), install: install.into() }
            }
            Err(e) => Availability { available: false, detail: e, install: install.into() },
        },
        None => Availability { available: false, detail: format!("{tool} not found"), install: install.into() },
    }
}

/// The first request to every solver: `(check-sat)` on an empty script, whose one right answer
/// is `sat` (QF_BV because yices wants a logic and it is the one every solver here takes). Its
/// process is the one the first case reuses, so the probe costs one round trip.
pub const PROBE: &str = "(set-logic QF_BV)\n(check-sat)";

/// Time for a solver (or its Python host) to start and answer [`PROBE`].
pub const PROBE_LIMIT: Duration = Duration::from_secs(20);

/// Whether a solver's answer to [`PROBE`] is a solver's.
pub fn probe_answer(out: &Outcome) -> Result<(), String> {
    match out {
        Outcome::Verdicts { answers, .. } if answers.as_slice() == [Verdict::Sat] => Ok(()),
        Outcome::Verdicts { .. } => Err(format!("(check-sat) on an empty script: {}", crate::described(out))),
        _ => Err(crate::described(out)),
    }
}

/// A solver engine over one long-lived process.
pub struct SolverProcess {
    info: EngineInfo,
    launch: Launch,
    proc: Option<LineProcess>,
    /// The process has seen a script since it started, so the next one needs `(reset)`.
    used: bool,
}

impl SolverProcess {
    pub fn new(spec: &EngineSpec, version: String, dialect: &str, launch: Launch) -> SolverProcess {
        let info = info_for(spec, version, dialect, &[]);
        SolverProcess { info, launch, proc: None, used: false }
    }

    /// The options the solver listed (see `options`).
    pub fn set_options(&mut self, options: Vec<crosscheck_core::EngineOption>) {
        self.info.options = options;
    }

    fn spawn(&mut self) -> Result<(), Outcome> {
        let mut cmd = Command::new(&self.launch.program);
        cmd.args(&self.launch.args);
        match LineProcess::spawn(&mut cmd) {
            Ok(p) => {
                self.proc = Some(p);
                self.used = false;
                Ok(())
            }
            Err(e) => Err(Outcome::Error {
                message: format!("cannot start {}: {e}", self.launch.program.display()),
                class: ErrorClass::Unexpected,
            }),
        }
    }

    /// Runs one script and collects everything the solver printed before the marker.
    fn exchange(&mut self, text: &str, limit: Duration) -> Outcome {
        if self.proc.as_mut().is_some_and(|p| !p.is_alive()) {
            self.proc = None;
        }
        if self.proc.is_none() {
            if let Err(o) = self.spawn() {
                return o;
            }
        }
        let Some(proc) = self.proc.as_mut() else { return Outcome::error("no solver process") };
        let script = script(self.used, &self.launch.options, text, &format!("\n(echo \"{MARKER}\")\n"));
        self.used = true;
        let start = Instant::now();
        if proc.send(&script).is_err() {
            let out = proc.crash_outcome();
            self.proc = None;
            return out;
        }
        let deadline = start + limit;
        let mut lines: Vec<String> = Vec::new();
        loop {
            match proc.recv_line(deadline) {
                Ok(l) => {
                    let t = l.trim();
                    if t == MARKER || t == format!("\"{MARKER}\"") {
                        break;
                    }
                    lines.push(l);
                }
                Err(ReadError::Timeout) => {
                    // The only way to stop a solver mid-check is to kill it.
                    self.proc = None;
                    return Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) };
                }
                Err(ReadError::Closed) => {
                    let crash = proc.crash_outcome();
                    self.proc = None;
                    let out = lines.join("\n");
                    // cvc4/cvc5 (status 1) and yices (status 0) exit after some `(error ...)`s:
                    // an answer, not a crash.
                    if let Outcome::Crash { signal: None, code: Some(0 | 1), .. } = crash {
                        if let Some(m) = first_error(&out) {
                            return Outcome::Error { message: m, class: ErrorClass::Unclassified };
                        }
                    }
                    return crash;
                }
            }
        }
        if sets_lasting_option(text) {
            // z3 keeps module parameters across `(reset)` (`smt.random_seed`, `smt.arith.nl`):
            // the next script must not run under this one's options.
            self.proc = None;
        }
        parse_answers(&lines.join("\n"))
    }
}

/// Whether a script sets an option besides those every script sets for itself, which a
/// solver might keep past `(reset)`.
fn sets_lasting_option(text: &str) -> bool {
    text.match_indices("(set-option :").any(|(i, m)| {
        let name = text[i + m.len()..].split(|c: char| c.is_whitespace() || c == ')').next().unwrap_or("");
        !matches!(name, "produce-models" | "print-success")
    })
}

/// `text` as a script for a solver that has run one before (`used`: it starts with `(reset)`),
/// with the engine's options, then `tail`.
pub(super) fn script(used: bool, options: &[String], text: &str, tail: &str) -> String {
    let mut script = String::with_capacity(text.len() + 256);
    if used {
        script.push_str("(reset)\n");
    }
    script.push_str("(set-option :print-success false)\n");
    for o in options {
        script.push_str(o);
        script.push('\n');
    }
    script.push_str(text);
    script.push_str(tail);
    script
}

fn first_error(out: &str) -> Option<String> {
    let i = out.find("(error")?;
    let rest = &out[i..];
    Some(match sexp::parse_all(rest) {
        Ok(items) => items.first().and_then(|e| e.list()?.get(1).map(|m| unquote(&m.to_string()))).unwrap_or_default(),
        Err(_) => rest.lines().next().unwrap_or("").to_string(),
    })
}

fn unquote(s: &str) -> String {
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(|s| s.replace("\"\"", "\"")).unwrap_or_else(|| s.into())
}

/// Turns a solver's output into verdicts, a model (everything that is neither a verdict nor an
/// error: `get-model` and `get-value` answers), or the first error.
pub fn parse_answers(out: &str) -> Outcome {
    let items = match sexp::parse_all(out) {
        Ok(i) => i,
        // Output we cannot read is reported as such: it may be a crash message.
        Err(e) => return Outcome::error(format!("unreadable solver output ({e}): {}", out.trim())),
    };
    let mut answers = Vec::new();
    let mut model: Option<String> = None;
    for it in &items {
        match it {
            Sexp::Atom(a) => match a.as_str() {
                "sat" => answers.push(Verdict::Sat),
                "unsat" => answers.push(Verdict::Unsat),
                "unknown" | "timeout" => answers.push(Verdict::Unknown),
                // `success` (yices after reset), `unsupported` (z3, an option it ignores).
                _ => {}
            },
            Sexp::List(l) if l.first().and_then(Sexp::atom) == Some("error") => {
                let msg = l.get(1).map(|m| unquote(&m.to_string())).unwrap_or_default();
                return Outcome::Error { message: msg, class: ErrorClass::Unclassified };
            }
            Sexp::List(_) => {
                let m = model.get_or_insert_with(String::new);
                if !m.is_empty() {
                    m.push('\n');
                }
                m.push_str(&it.to_string());
            }
        }
    }
    Outcome::Verdicts { answers, model }
}

impl Engine for SolverProcess {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        // The next script starts with `(reset)`; a dead process is re-spawned then.
        Ok(())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.exchange(text, limit)
    }

    fn probe(&mut self) -> Result<(), String> {
        probe_answer(&self.exchange(PROBE, PROBE_LIMIT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_answers_models_and_errors() {
        let o = parse_answers("sat\n(\n  (define-fun x () Int\n    4)\n)\nunsat\nsuccess");
        assert_eq!(
            o,
            Outcome::Verdicts {
                answers: vec![Verdict::Sat, Verdict::Unsat],
                model: Some("((define-fun x () Int 4))".into())
            }
        );
        assert!(
            matches!(parse_answers("(error \"line 1: bad\")"), Outcome::Error { message, .. } if message == "line 1: bad")
        );
    }

    #[test]
    fn a_script_with_its_own_options_needs_a_fresh_process() {
        assert!(!sets_lasting_option("(set-option :produce-models true)\n(check-sat)"));
        assert!(sets_lasting_option("(set-option :produce-models true)\n(set-option :smt.random_seed 5)"));
        assert!(!sets_lasting_option("(assert (= x 1))\n(check-sat)"));
    }

    #[test]
    fn splits_locations_and_versions() {
        let (p, f, o) = split_location(Some("/opt/z3+smt.arith.solver=6+--mcsat"));
        assert_eq!(p.as_deref(), Some("/opt/z3"));
        assert_eq!(f, vec!["--mcsat"]);
        assert_eq!(o, vec!["(set-option :smt.arith.solver 6)"]);
        assert_eq!(version_number("Z3 version 5.4.0 - 64 bit").as_deref(), Some("5.4.0"));
        assert_eq!(version_number("This is cvc5 version 1.0.3 [git tag 1.0.3 branch HEAD]").as_deref(), Some("1.0.3"));
    }
}
