//! clingo (ASP) as a subprocess (`clingo -V0 file`), running a program printed by
//! the Datalog leg's `clingo` dialect; a stratified program has exactly one answer set, its least
//! model.

use super::option_line;
use super::tool::{run, Exited, Tool};
use crate::Entry;
use crosscheck_core::{Outcome, Value};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

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

pub static FACTORY: Entry<Tool<()>> = Entry {
    name: "clingo",
    describe: "clingo ASP solver (Debian gringo), stratified programs as answer-set programs; clingo=/path/to/clingo for another build",
    opener: Tool {
        binary: "clingo",
        install: "apt-get install gringo (scripts/install-datalog-engines.sh)",
        version: |out| Some(out.lines().next()?.trim().strip_prefix("clingo version ")?.to_string()),
        probe: None,
        open: || Ok(()),
        run: run_clingo,
    },
};

/// The program's least model: its one answer set.
fn run_clingo(_: &mut (), bin: &Path, text: &str, limit: Duration) -> Outcome {
    let mut cmd = Command::new(bin);
    cmd.args(["-V0", "--warn=none", "--outf=0"]);
    if let Some(o) = option_line(text, "%") {
        cmd.arg(o);
    }
    cmd.arg(format!("--time-limit={}", limit.as_secs().max(1)));
    cmd.arg("-");
    let Exited { stdout, stderr, status } = match run(&mut cmd, text, limit + Duration::from_secs(2), limit, "clingo") {
        Ok(done) => done,
        Err(o) => return o,
    };
    use std::os::unix::process::ExitStatusExt;
    if let Some(sig) = status.signal() {
        return crate::transport::crash_from(Some(status), format!("signal {sig}\n{stderr}"));
    }
    let lines: Vec<&str> = stdout.lines().collect();
    let Some(end) = lines.iter().position(|l| l.starts_with("SATISFIABLE") || l.starts_with("UNSATISFIABLE")) else {
        if stdout.contains("UNKNOWN") || stderr.contains("Interrupted") {
            return Outcome::Timeout { after_ms: crosscheck_core::millis(limit) };
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
    super::numbered_rows(rows)
}
