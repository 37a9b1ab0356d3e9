//! Each solver's documented options, read from the installed solver when it opens: z3's
//! parameter descriptions (`z3 -pd`), the cvc5 and CVC4 command-line help with each mode's own
//! help (`--NAME=help`), the option info of the cvc5 and Bitwuzla Python APIs (through the
//! host's `--options`). Yices prints none of its `(set-option :yices-...)` parameters, so its
//! list is the documented one below. Read once per binary and version in a process: about
//! 10 ms for z3, 0.3 s for cvc5's 76 modes, 0.15-0.25 s for a Python host.

use crate::transport::{run_once, RunOnce};
use crosscheck_core::{EngineOption, OptionDomain};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// How a solver lists its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lister {
    /// `z3 -pd`.
    Z3,
    /// `--help`, then `--NAME=help` for each option taking a MODE (cvc5, CVC4).
    CvcHelp,
    /// The documented table ([`YICES`]).
    Yices,
}

const LIMIT: Duration = Duration::from_secs(20);

/// The options of the solver at `program` (reported `version`), read once per process.
pub fn list(lister: Lister, program: &Path, version: &str) -> Vec<EngineOption> {
    type Cache = Mutex<HashMap<(Lister, PathBuf, String), Vec<EngineOption>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (lister, program.to_path_buf(), version.to_string());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return found;
    }
    let found = match lister {
        Lister::Z3 => output(program, &["-pd"]).map(|t| parse_z3(&t)).unwrap_or_default(),
        Lister::CvcHelp => cvc_options(program),
        Lister::Yices => yices(),
    };
    if let Ok(mut c) = cache.lock() {
        c.insert(key, found.clone());
    }
    found
}

fn output(program: &Path, args: &[&str]) -> Option<String> {
    let mut cmd = Command::new(program);
    cmd.args(args);
    match run_once(&mut cmd, "", LIMIT) {
        Ok(RunOnce::Exited { stdout, stderr, .. }) => Some(format!("{stdout}\n{stderr}")),
        _ => None,
    }
}

/// `z3 -pd`: `[module] NAME, description: ...` headers, then `    param (type) text (default: V)`.
pub fn parse_z3(text: &str) -> Vec<EngineOption> {
    let mut module = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("[module] ") {
            module = rest.split(',').next().unwrap_or("").trim().to_string();
            continue;
        }
        if line.starts_with("Global parameters") {
            module.clear();
            continue;
        }
        let Some(body) = line.strip_prefix("    ") else { continue };
        let Some((name, rest)) = body.split_once(" (") else { continue };
        let Some((kind, text)) = rest.split_once(')') else { continue };
        if name.contains(' ') {
            continue;
        }
        let default = text.rsplit_once("(default: ").map(|(_, d)| d.trim_end_matches(')').trim().to_string());
        let domain = match kind {
            "bool" => OptionDomain::Bool,
            "unsigned int" => OptionDomain::Int { min: Some(0), max: Some(i64::from(u32::MAX)) },
            // A symbol whose description lists its values as `a|b|c`.
            "symbol" | "string" => match text.split_whitespace().find(|w| w.contains('|')) {
                Some(w) => OptionDomain::Choice(
                    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '|' && c != '_')
                        .split('|')
                        .map(str::to_string)
                        .collect(),
                ),
                None => OptionDomain::Other(kind.to_string()),
            },
            other => OptionDomain::Other(other.to_string()),
        };
        let name = if module.is_empty() { name.to_string() } else { format!("{module}.{name}") };
        out.push(EngineOption { name, group: module.clone(), domain, default, expert: false });
    }
    out
}

/// cvc5 and CVC4 `--help`, and the modes of each `--NAME=MODE` option from `--NAME=help`.
fn cvc_options(program: &Path) -> Vec<EngineOption> {
    let Some(help) = output(program, &["--help"]) else { return Vec::new() };
    let mut out = parse_cvc_help(&help);
    for o in &mut out {
        if let OptionDomain::Other(k) = &o.domain {
            if k == "MODE" {
                if let Some(text) = output(program, &[&format!("--{}=help", o.name)]) {
                    let (values, default) = parse_cvc_modes(&text);
                    if !values.is_empty() {
                        o.domain = OptionDomain::Choice(values);
                        o.default = default;
                    }
                }
            }
        }
    }
    out
}

/// `--help` of cvc5/CVC4: `From the X module:` headers, then `  --name[=ARG] | --alias  text`
/// with the text going on over indented lines; a `[*]` at its end marks a Boolean, an
/// `(EXPERTS only)` in it (wrapped or not) an expert option.
pub fn parse_cvc_help(text: &str) -> Vec<EngineOption> {
    let mut group = String::from("common");
    let mut out: Vec<EngineOption> = Vec::new();
    // Per option: its description so far, whitespace-normalized.
    let mut texts: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some(g) = line.strip_prefix("From the ").and_then(|l| l.strip_suffix(" module:")) {
            group = g.to_string();
            continue;
        }
        if let Some(body) = line.strip_prefix("  --") {
            let head = body.split([' ', '|']).next().unwrap_or("");
            let (name, arg) = match head.split_once('=') {
                Some((n, a)) => (n, Some(a)),
                None => (head, None),
            };
            let domain = match arg {
                None => OptionDomain::Bool,
                Some("N") => OptionDomain::Int { min: None, max: None },
                Some(a) => OptionDomain::Other(a.to_string()),
            };
            out.push(EngineOption {
                name: name.to_string(),
                group: group.clone(),
                domain,
                default: None,
                expert: false,
            });
            texts.push(String::new());
        }
        if let (true, Some(t)) = (line.starts_with("  "), texts.last_mut()) {
            t.push(' ');
            t.push_str(line.trim());
        }
    }
    // A flag without an argument and without `[*]` is an action (`--help`, `--version`).
    out.into_iter()
        .zip(texts)
        .filter(|(o, t)| t.ends_with("[*]") || o.domain != OptionDomain::Bool)
        .map(|(o, t)| {
            let expert = t.split_whitespace().collect::<Vec<_>>().join(" ").contains("(EXPERTS only)");
            EngineOption { expert, ..o }
        })
        .collect()
}

/// `--NAME=help`: `+ mode` lines, the default one marked `(default)`.
pub fn parse_cvc_modes(text: &str) -> (Vec<String>, Option<String>) {
    let mut values = Vec::new();
    let mut default = None;
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("+ ") else { continue };
        let word = rest.split_whitespace().next().unwrap_or("").to_string();
        if rest.contains("(default)") {
            default = Some(word.clone());
        }
        values.push(word);
    }
    (values, default)
}

/// The host's `--options` answer: `[{"name", "group", "kind": bool|int|choice|other, ...}]`.
pub fn parse_host_list(text: &str) -> Vec<EngineOption> {
    let Ok(Json::Array(items)) = serde_json::from_str::<Json>(text.trim()) else { return Vec::new() };
    let word = |v: &Json, k: &str| v.get(k).and_then(Json::as_str).map(str::to_string);
    items
        .iter()
        .filter_map(|v| {
            let domain = match v.get("kind").and_then(Json::as_str)? {
                "bool" => OptionDomain::Bool,
                "int" => OptionDomain::Int {
                    min: v.get("min").and_then(Json::as_i64),
                    max: v.get("max").and_then(Json::as_i64),
                },
                "choice" => OptionDomain::Choice(
                    v.get("values")?.as_array()?.iter().filter_map(|m| m.as_str().map(str::to_string)).collect(),
                ),
                _ => OptionDomain::Other(word(v, "type").unwrap_or_default()),
            };
            Some(EngineOption {
                name: word(v, "name")?,
                group: word(v, "group").unwrap_or_default(),
                domain,
                default: word(v, "default"),
                expert: v.get("expert").and_then(Json::as_bool).unwrap_or(false),
            })
        })
        .collect()
}

/// Yices 2's search parameters, set in SMT-LIB as `(set-option :yices-NAME value)` (the Yices
/// manual, "Parameters"; the names are those `yices-smt2` 2.6 accepts, an unknown one is
/// answered `unsupported`), with their documented types. Reals (`c-factor`, `d-factor`,
/// `r-fraction`, `var-decay`, ...) are left out: the leg samples Booleans, integers and choices.
const YICES: &[(&str, &str)] = &[
    ("var-elim", "bool"),
    ("arith-elim", "bool"),
    ("bvarith-elim", "bool"),
    ("flatten", "bool"),
    ("learn-eq", "bool"),
    ("keep-ite", "bool"),
    ("fast-restarts", "bool"),
    ("c-threshold", "int"),
    ("d-threshold", "int"),
    ("randomness", "other"),
    ("random-seed", "int"),
    ("branching", "default|negative|positive|theory|th-neg|th-pos"),
    ("cache-tclauses", "bool"),
    ("tclause-size", "int"),
    ("dyn-ack", "bool"),
    ("dyn-bool-ack", "bool"),
    ("optimistic-fcheck", "bool"),
    ("icheck", "bool"),
    ("icheck-period", "int"),
    ("eager-lemmas", "bool"),
    ("simplex-prop", "bool"),
    ("prop-threshold", "int"),
    ("simplex-adjust", "bool"),
    ("bland-threshold", "int"),
    ("max-ack", "int"),
    ("max-bool-ack", "int"),
    ("max-update-conflicts", "int"),
    ("max-extensionality", "int"),
    ("max-interface-eqs", "int"),
];

fn yices() -> Vec<EngineOption> {
    YICES
        .iter()
        .map(|(name, kind)| {
            let domain = match *kind {
                "bool" => OptionDomain::Bool,
                "int" => OptionDomain::Int { min: Some(1), max: None },
                k if k.contains('|') => OptionDomain::Choice(k.split('|').map(str::to_string).collect()),
                k => OptionDomain::Other(k.to_string()),
            };
            EngineOption { name: format!("yices-{name}"), group: "yices".into(), domain, default: None, expert: false }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_z3_descriptions() {
        let text = "Global parameters\n    timeout (unsigned int) (default: infty) timeout in milliseconds. (default: 4294967295)\n\
            [module] sat, description: propositional SAT solver\n    phase (symbol) phase selection strategy: always_false, always_true (default: caching)\n\
            [module] smt, description: smt\n    arith.solver (unsigned int) arithmetic solver (default: 6)\n    relevancy_lhs (bool) x (default: true)\n\
            encoding (string) string encoding used internally: unicode|bmp|ascii (default: unicode)\n";
        let o = parse_z3(text);
        assert_eq!(o[0].name, "timeout");
        assert_eq!(o[1].name, "sat.phase");
        assert_eq!(o[1].domain, OptionDomain::Other("symbol".into()));
        assert_eq!(o[2].name, "smt.arith.solver");
        assert_eq!(o[2].default.as_deref(), Some("6"));
        assert_eq!(o[3].domain, OptionDomain::Bool);
        assert_eq!(o.len(), 4, "a line without indentation is not a parameter");
        let enc = parse_z3("    encoding (string) encoding: unicode|bmp|ascii (default: unicode)\n");
        assert_eq!(enc[0].domain, OptionDomain::Choice(vec!["unicode".into(), "bmp".into(), "ascii".into()]));
    }

    #[test]
    fn reads_cvc_help_and_modes() {
        let help = "  --help | -h            full command line reference\n\nFrom the Arithmetic Theory module:\n  --arith-brab           whether to use simple rounding, similar to a unit-cube\n                         test, for integers [*]\n  --arith-prop=MODE      turns on arithmetic propagation\n  --dio-turns=N          turns in a row dio solver cutting gets (EXPERTS only)\n";
        let o = parse_cvc_help(help);
        let names: Vec<&str> = o.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["arith-brab", "arith-prop", "dio-turns"]);
        assert_eq!(o[0].domain, OptionDomain::Bool);
        assert_eq!(o[0].group, "Arithmetic Theory");
        assert_eq!(o[2].domain, OptionDomain::Int { min: None, max: None });
        assert_eq!(o.iter().map(|o| o.expert).collect::<Vec<_>>(), [false, false, true]);
        let wrapped = "  --bv-propagate         use bit-vector propagation in the bit-blaster (EXPERTS\n                         only) [*]\n";
        let o = parse_cvc_help(wrapped);
        assert!(o[0].expert && o[0].domain == OptionDomain::Bool, "{o:?}");
        let (modes, default) = parse_cvc_modes("Available modes:\n+ unate\n  text\n+ both (default)\n  text\n");
        assert_eq!(modes, ["unate", "both"]);
        assert_eq!(default.as_deref(), Some("both"));
    }
}
