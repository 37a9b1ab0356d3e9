//! What the SMT leg knows about each solver, keyed by its registry name: the theories and
//! commands it takes (the generator asks these). Solver adapters (in `crosscheck-engines`)
//! only report what they are; these facts are the leg's (and `options.rs` has which of a
//! solver's own options may be sampled).

use crosscheck_core::EngineInfo;
use std::fmt::Write as _;

const ALL: &[&str] = &["z3", "cvc5", "yices", "bitwuzla", "cvc4"];
/// The solvers with integer and real arithmetic (Bitwuzla has neither).
const ARITH: &[&str] = &["z3", "cvc5", "yices", "cvc4"];

/// Which solvers (registry names, `cvc5-py` as `cvc5`) have each capability. Debian builds
/// CVC4 without SymFPU, so floating point stops it with a "Fatal failure": no `theory:fp`.
/// Yices has no strings, floating point or quantifiers, and needs a set-logic.
///
/// Every solver also has `custom-options`: the adapters set it when their command line had
/// an argument starting with `-`, and every default command line has one (`-in`,
/// `--incremental`, the bridge's `-c`). Nothing reads it; it stays so capability sets match.
const CAPABILITIES: &[(&str, &[&str])] = &[
    ("check-sat-using", &["z3"]),
    ("z3-extensions", &["z3"]),
    ("theory:int", ARITH),
    ("theory:real", ARITH),
    ("theory:nia", ARITH),
    ("theory:bv", ALL),
    ("theory:array", ALL),
    ("theory:string", &["z3", "cvc5", "cvc4"]),
    ("theory:fp", &["z3", "cvc5", "bitwuzla"]),
    ("theory:uf", ALL),
    ("theory:sorts", ARITH),
    ("quantifiers", &["z3", "cvc5", "bitwuzla", "cvc4"]),
    // Generated seeds (`crate::seedgen`): measured with examples/seedgen_check.rs on z3 5.4 and
    // 4.8.12, cvc5 1.0.3 and 1.4, cvc4 1.8, Yices 2.6.5, Bitwuzla 0.9. CVC4 takes
    // str.replace_re(_all) only with --strings-exp and has no fp.to_real; `ubv_to_int`,
    // `sbv_to_int` and `int_to_bv` are SMT-LIB 2.7 (z3 5.x, cvc5 1.4; not cvc5 1.0 or z3 4.8,
    // which reject such a seed and have it skipped with a note, see `crate::rejected`).
    ("theory:datatypes", &["z3", "cvc5", "cvc4"]),
    ("theory:string-ext", &["z3", "cvc5"]),
    // String literals with code points above 0xFF (`\u{1F600}`); z3 before 4.8.11 had 8-bit
    // characters and reads such an escape as its nine characters (see `SINCE`).
    ("unicode-strings", &["z3", "cvc5", "cvc4"]),
    ("theory:fp-real", &["z3", "cvc5"]),
    ("theory:int-bv", &["z3", "cvc5", "cvc4"]),
    ("theory:ubv-to-int", &["z3", "cvc5-py"]),
    // Yices has no `as const`; cvc5 1.4 takes it only with --arrays-exp (cvc5 1.0 without).
    ("const-arrays", &["z3", "cvc5", "cvc4", "bitwuzla"]),
    // Float16 and (_ FloatingPoint 3 5); cvc5 takes only Float32 and Float64 without --fp-exp.
    ("fp-small", &["z3", "bitwuzla"]),
    ("needs-logic", &["yices"]),
    ("incremental", ALL),
    ("custom-options", ALL),
];

/// What cvc5 1.0 (the CLI) takes and cvc5 1.4 (cvc5-py) does not in its default mode.
const CVC5_PY_LACKS: &[&str] = &["const-arrays"];

/// The capabilities of a solver; an unknown solver has none.
pub fn capabilities(engine_name: &str) -> Vec<&'static str> {
    // cvc5-py has cvc5's capabilities, and a few of its own (a newer release).
    let name = base_name(engine_name);
    let alias = if name == "cvc5-py" { "cvc5" } else { name };
    CAPABILITIES
        .iter()
        .filter(|(c, _)| !(name == "cvc5-py" && CVC5_PY_LACKS.contains(c)))
        .filter(|(_, solvers)| solvers.contains(&name) || solvers.contains(&alias))
        .map(|(c, _)| *c)
        .collect()
}

/// Capabilities a solver gained at a version: older releases lack them.
const SINCE: &[(&str, &str, &[u32])] = &[("z3", "unicode-strings", &[4, 8, 11])];

/// Whether the solver of `info` has `capability` (what it declares itself, or the leg's table
/// for its version).
pub fn has(info: &EngineInfo, capability: &str) -> bool {
    let name = base_name(&info.name);
    let too_old = SINCE.iter().any(|(s, c, v)| *s == name && *c == capability && version_below(&info.version, v));
    info.has(capability) || (capabilities(&info.name).contains(&capability) && !too_old)
}

pub use crosscheck_core::engine::base_name;

/// A model as SMT-LIB 2.6 reads it. z3 before 4.8.11 wrote string literals with C escapes
/// (`"77\xe9"` is three characters to it, `\n` a newline, `\\` one backslash), where 2.6 has
/// only `\u{..}`: read as 2.6 by the checking solver, its own correct model looked violated.
pub fn model_in_smtlib26<'a>(info: &EngineInfo, model: &'a str) -> std::borrow::Cow<'a, str> {
    if base_name(&info.name) == "z3" && version_below(&info.version, &[4, 8, 11]) {
        std::borrow::Cow::Owned(c_escapes_to_smtlib26(model))
    } else {
        std::borrow::Cow::Borrowed(model)
    }
}

/// Whether a model holds an approximation rather than a value. Yices prints an irrational
/// algebraic number (a root, in nonlinear real arithmetic) as a decimal with six digits
/// (`-2.738613` for -√7.5) and every rational exactly, as an integer or `(/ a b)`: under a
/// fractional decimal the assertions are evaluated at a point near the solution, not at it
/// (105 false "invalid models" in a 10-minute model run on Yices 2.6.5).
pub fn model_is_approximate(info: &EngineInfo, model: &str) -> bool {
    let fractional = |t: &str| {
        let t = t.trim_start_matches('-');
        t.split_once('.').is_some_and(|(int, frac)| {
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            digits(int) && digits(frac) && frac.bytes().any(|b| b != b'0')
        })
    };
    base_name(&info.name) == "yices" && model.split(|c: char| c.is_whitespace() || c == '(' || c == ')').any(fractional)
}

/// Whether a dotted version (`4.8.10`, `4.8.10 - 64 bit`) is below `bound`; an unreadable one
/// is not.
fn version_below(version: &str, bound: &[u32]) -> bool {
    let digits = version.split(|c: char| !c.is_ascii_digit() && c != '.').find(|w| w.contains('.'));
    let Some(parts) = digits.map(|w| w.split('.').map(str::parse::<u32>).collect::<Result<Vec<_>, _>>()) else {
        return false;
    };
    parts.map(|p| p.as_slice() < bound).unwrap_or(false)
}

/// Rewrites the C escapes inside string literals as `\u{..}`; everything outside string
/// literals, and doubled quotes within them, stay as they are.
fn c_escapes_to_smtlib26(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if c == '"' {
            in_string = !in_string;
        }
        if !(in_string && c == '\\') {
            out.push(c);
            continue;
        }
        let code = match chars.peek().copied() {
            Some('x') => {
                chars.next();
                let hex: String = std::iter::from_fn(|| chars.next_if(char::is_ascii_hexdigit)).take(2).collect();
                u32::from_str_radix(&hex, 16).ok()
            }
            Some(e @ ('\\' | 'n' | 't' | 'r' | 'a' | 'b' | 'f' | 'v')) => {
                chars.next();
                Some(match e {
                    'n' => 0x0a,
                    't' => 0x09,
                    'r' => 0x0d,
                    'a' => 0x07,
                    'b' => 0x08,
                    'f' => 0x0c,
                    'v' => 0x0b,
                    _ => 0x5c,
                })
            }
            _ => None,
        };
        match code {
            Some(code) => {
                let _ = write!(out, "\\u{{{code:x}}}");
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwraps_mutants() {
        assert_eq!(base_name("mutant:mutant:z3:flip-verdict:crash"), "z3");
        assert_eq!(base_name("yices"), "yices");
        assert!(capabilities("mutant:yices:flip-verdict").contains(&"needs-logic"));
    }

    #[test]
    fn a_yices_decimal_is_an_approximation() {
        let yices = EngineInfo { name: "yices".into(), ..EngineInfo::default() };
        let root = "(model (define-fun v0 () Real 3.0) (define-fun v1 () Real -2.738613))";
        assert!(model_is_approximate(&yices, root));
        let exact =
            "(model (define-fun v0 () Real 3.0) (define-fun v1 () Real (/ 5 2)) (define-fun b () (_ BitVec 4) #b0101))";
        assert!(!model_is_approximate(&yices, exact));
        let z3 = EngineInfo { name: "z3".into(), ..EngineInfo::default() };
        assert!(!model_is_approximate(&z3, root));
    }

    #[test]
    fn old_z3_string_escapes_become_smtlib26() {
        let model = "(\n (define-fun a () String \"77\\xe9\")\n (define-fun c () String \"\\n\\x09\\\\y\"\"q\")\n)";
        let fixed = c_escapes_to_smtlib26(model);
        assert_eq!(
            fixed,
            "(\n (define-fun a () String \"77\\u{e9}\")\n (define-fun c () String \"\\u{a}\\u{9}\\u{5c}y\"\"q\")\n)"
        );
        let info = |version: &str| EngineInfo { name: "z3".into(), version: version.into(), ..EngineInfo::default() };
        assert_eq!(model_in_smtlib26(&info("4.8.10"), model), fixed);
        assert_eq!(model_in_smtlib26(&info("4.8.11"), model), model);
        assert_eq!(model_in_smtlib26(&info("5.4.1"), model), model);
        // The same z3 before 4.8.11 has 8-bit strings: no wide code points are generated for it.
        assert!(!has(&info("4.8.10"), "unicode-strings") && has(&info("4.8.11"), "unicode-strings"));
        assert!(has(&info("4.8.10"), "theory:string"));
        assert!(
            version_below("4.8.5", &[4, 8, 11]) && !version_below("4.12.1", &[4, 8, 11]) && !version_below("?", &[4])
        );
    }
}
