//! Reproducers: `<stem>.dl` in Soufflé syntax (and `<stem>-transformed.dl`), plus the failing
//! engines' own dialect, each with the oracle, the expected and the actual answer in comments.

use crate::ast::Program;
use crate::dialects::{by_name, print, souffle::SOUFFLE, Dialect};
use crate::oracles::{DatalogOracle, Detail};
use crate::{Case, Test};
use crosscheck_core::{EngineInfo, Evidence};

fn commented(prefix: &str, text: &str) -> String {
    text.lines().map(|l| format!("{prefix} {l}\n")).collect()
}

/// The dialect of a name; an unknown one writes its files as Soufflé's would be named.
fn dialect(name: &str) -> &'static dyn Dialect {
    by_name(name).unwrap_or(&SOUFFLE)
}

/// The file name of a reproducer and the header that says how to run it.
fn named(d: &dyn Dialect, stem: &str, suffix: &str, header: &str) -> (String, String) {
    let ext = d.extension();
    let name = format!("{stem}{suffix}.{ext}");
    let cmd = d.command().replace(&format!("repro.{ext}"), &name);
    let head = commented(d.comment_prefix(), &format!("{header}run: {cmd}"));
    (name, head)
}

struct Files<'a> {
    stem: &'a str,
    header: String,
    out: String,
    files: Vec<(String, String)>,
}

impl Files<'_> {
    /// `p` printed in `dialect`, when that dialect can print it.
    fn emit(&mut self, dialect: &str, suffix: &str, p: &Program, opt: Option<&str>) {
        if let Ok(text) = print(dialect, p, &self.out, opt) {
            let (name, mut s) = named(self::dialect(dialect), self.stem, suffix, &self.header);
            s.push_str(&text);
            self.files.push((name, s));
        }
    }

    /// A program as it ran, in `dialect`'s spelling.
    fn ran(&mut self, dialect: &str, suffix: &str, text: &str) {
        let (name, s) = named(self::dialect(dialect), self.stem, suffix, &self.header);
        self.files.push((name, s + text));
    }
}

pub fn reproducers(
    stem: &str,
    oracle: DatalogOracle,
    case: &Case,
    ev: &Evidence,
    engines: &[EngineInfo],
) -> Vec<(String, String)> {
    let detail: Detail = ev.detail.read();
    let steps = if detail.steps.is_empty() {
        String::new()
    } else {
        format!("steps ({}): {}\n", detail.steps.len(), detail.steps.join(", "))
    };
    let header = format!(
        "crosscheck datalog reproducer — oracle {oracle}\n{}\nexpected: {}\nactual:   {}\n{steps}",
        ev.summary, ev.expected, ev.actual
    );
    let out = detail.output.unwrap_or_else(|| case.program.output().to_string());
    let option = detail.option.as_deref();
    let mut f = Files { stem, header, out, files: Vec::new() };
    let transformed = match &case.test {
        Test::Metamorphic { transformed, .. } => Some(transformed),
        _ => None,
    };
    f.emit("souffle", "", &case.program, None);
    let ran_souffle = detail.transformed_souffle.as_deref();
    let ran_native = detail.transformed_program.as_deref();
    if let Some(t) = ran_souffle {
        let s = commented("//", &format!("{}run: souffle {stem}-transformed.dl", f.header));
        f.files.push((format!("{stem}-transformed.dl"), s + t));
    } else if let Some(t) = transformed {
        f.emit("souffle", "-transformed", t, None);
    }
    for info in engines {
        if !ev.engines.contains(&info.label) || info.dialect == "souffle" {
            continue;
        }
        let suffix = format!("-{}", info.name.replace(':', "_"));
        f.emit(&info.dialect, &suffix, &case.program, None);
        if let Some(t) = ran_native {
            f.ran(&info.dialect, &format!("{suffix}-transformed"), t);
        } else if let Some(t) = transformed {
            f.emit(&info.dialect, &format!("{suffix}-transformed"), t, None);
        }
        if let Some(o) = option {
            f.emit(&info.dialect, &format!("{suffix}-option"), &case.program, Some(o));
        }
    }
    f.files
}
