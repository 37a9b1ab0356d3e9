//! Z3's μZ through its native Datalog format (`z3 file.datalog`), printed by the Datalog leg's
//! `z3-datalog` dialect: the input format queryFuzz and Deopt used. z3 reads it up to 4.13; a
//! 5.x release parses nothing and prints nothing, so opening the engine runs a two-tuple
//! program first and refuses a z3 that does not answer it. The answer is
//! `Tuples in r_p:` followed by one `\t(c0=v(code),c1=...)` line per tuple: a symbol is its
//! text `v`, a number its code.

use super::swipl::Programs;
use super::tool::{run, Exited, Tool};
use crate::Entry;
use crosscheck_core::{Outcome, Value};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

pub static FACTORY: Entry<Tool<Programs>> = Entry {
    name: "z3-datalog",
    describe: "Z3's μZ through its native .datalog format (z3 up to 4.13; Debian's z3 4.8.12 reads it, PyPI's 5.x does not); z3-datalog=/path/to/z3 for another build",
    opener: Tool {
        binary: "z3",
        install: "apt-get install z3, or a z3 release up to 4.13 (z3-datalog=/path/to/z3)",
        version: super::z3::version_of,
        probe: Some(accepts_native),
        open: || Programs::new("datalog"),
        run: run_native,
    },
};

/// A program every release that reads the format answers with its two tuples.
const PROBE: &str = "Z 4\nS 1\n\nr_e(c0 : Z) input\nr_p(c0 : Z) printtuples\nr_e(1).\nr_e(2).\nr_p(vX) :- r_e(vX).\n";

/// Whether the z3 at `bin` reads the native format.
fn accepts_native(bin: &Path) -> Result<(), String> {
    let mut programs = Programs::new("datalog").map_err(|e| e.message)?;
    match run_native(&mut programs, bin, PROBE, Duration::from_secs(10)) {
        Outcome::Rows(r) if r.rows.len() == 2 => Ok(()),
        // 5.4.1 fails on every file: `domain name at line 1 '90' found '<id>'` (on stderr, exit 0).
        other => Err(format!(
            "reads no native .datalog program (z3 up to 4.13 does; the z3 engine speaks SMT-LIB fixedpoint): {}",
            crate::described(&other)
        )),
    }
}

/// The output relation (the `printtuples` one) and whether each column holds symbols.
fn output(text: &str) -> Option<(&str, Vec<bool>)> {
    let decl = text.lines().find_map(|l| l.strip_suffix(" printtuples"))?;
    let (name, cols) = decl.split_once('(')?;
    let cols = cols.trim_end_matches(')').split(',').map(|c| c.trim().ends_with(": S")).collect();
    Some((name, cols))
}

/// One `\t(c0=v(code),...)` line.
fn tuple(line: &str, cols: &[bool]) -> Result<Vec<Value>, String> {
    let inner = line.trim().strip_prefix('(').and_then(|l| l.strip_suffix(')')).ok_or("unexpected tuple line")?;
    let cells: Vec<&str> = inner.split(',').collect();
    if cells.len() != cols.len() {
        return Err(format!("z3-datalog: {} columns where {} were declared", cells.len(), cols.len()));
    }
    cells
        .iter()
        .zip(cols)
        .map(|(c, &sym)| {
            let v = c.split_once('=').map(|(_, v)| v).ok_or("a cell without =")?;
            let (name, code) = v.rsplit_once('(').ok_or("a cell without its code")?;
            if sym {
                Ok(Value::Text(name.to_string()))
            } else {
                // A number's value is its code: the name z3 prints beside it can be another
                // constant of the program (`10(0)` for 0 in a program that mentions 10).
                let code = code.trim_end_matches(')');
                code.parse().map(Value::Int).map_err(|_| format!("z3-datalog: bad number {code}"))
            }
        })
        .collect()
}

/// The tuples of relation `name` in z3's answer.
pub fn parse_answer(stdout: &str, name: &str, cols: &[bool]) -> Result<Vec<Vec<Value>>, String> {
    let header = format!("Tuples in {name}:");
    let mut lines = stdout.lines().skip_while(|l| l.trim() != header);
    if lines.next().is_none() {
        return Err(format!("z3-datalog: no `{header}` in the answer"));
    }
    lines.take_while(|l| l.starts_with('\t')).map(|l| tuple(l, cols)).collect()
}

fn run_native(programs: &mut Programs, bin: &Path, text: &str, limit: Duration) -> Outcome {
    let Some((name, cols)) = output(text) else { return Outcome::error("z3-datalog: no printtuples relation") };
    let path = match programs.write(text) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let mut cmd = Command::new(bin);
    cmd.arg(format!("-T:{}", limit.as_secs().max(1))).arg(&path);
    let Exited { stdout, stderr, status } = match run(&mut cmd, "", limit + Duration::from_secs(2), limit, "z3") {
        Ok(done) => done,
        Err(o) => return o,
    };
    use std::os::unix::process::ExitStatusExt;
    if status.signal().is_some() {
        return crate::transport::crash_from(Some(status), stderr);
    }
    if stdout.contains("timeout") || stderr.contains("timeout") {
        return Outcome::Timeout { after_ms: crosscheck_core::millis(limit) };
    }
    if stdout.contains("ERROR") || stderr.contains("ERROR") || !status.success() {
        let said = stdout.lines().chain(stderr.lines()).find(|l| !l.trim().is_empty()).unwrap_or("no answer");
        return Outcome::error(format!("z3-datalog: {said}"));
    }
    match parse_answer(&stdout, name, &cols) {
        Ok(rows) => super::numbered_rows(rows),
        Err(e) => Outcome::error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_of_numbers_and_symbols() {
        let out =
            "Tuples in r_q: \n\t(c0=7(7))\nTuples in r_p: \n\t(c0=b(0),c1=1(1))\n\t(c0=a(1),c1=3(3))\nTime: 0ms\n";
        let rows = parse_answer(out, "r_p", &[true, false]).expect("parses");
        assert_eq!(
            rows,
            vec![vec![Value::Text("b".into()), Value::Int(1)], vec![Value::Text("a".into()), Value::Int(3)]]
        );
        assert_eq!(parse_answer("Tuples in r_p: \nTime: 0ms\n", "r_p", &[true]), Ok(vec![]));
        assert!(parse_answer("Time: 0ms\n", "r_p", &[true]).is_err());
    }

    #[test]
    fn the_output_relation_is_the_printtuples_one() {
        let text = "Z 3\nS 1\n\nr_e(c0 : Z) input\nr_p(c0 : S, c1 : Z) printtuples\n";
        assert_eq!(output(text), Some(("r_p", vec![true, false])));
    }
}
