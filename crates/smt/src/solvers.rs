//! What the SMT leg knows about each solver, keyed by its registry name: the theories and
//! commands it takes (the generator asks these). Solver adapters (in `crosscheck-engines`)
//! only report what they are; these facts are the leg's (and `options.rs` has which of a
//! solver's own options may be sampled).

use crosscheck_core::EngineInfo;

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
    ("needs-logic", &["yices"]),
    ("incremental", ALL),
    ("custom-options", ALL),
];

/// The capabilities of a solver; an unknown solver has none.
pub fn capabilities(engine_name: &str) -> Vec<&'static str> {
    let name = match base_name(engine_name) {
        "cvc5-py" => "cvc5",
        other => other,
    };
    CAPABILITIES.iter().filter(|(_, solvers)| solvers.contains(&name)).map(|(c, _)| *c).collect()
}

/// Whether the solver of `info` has `capability` (what it declares itself, or the leg's table).
pub fn has(info: &EngineInfo, capability: &str) -> bool {
    info.has(capability) || capabilities(&info.name).contains(&capability)
}

pub use crosscheck_core::engine::base_name;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwraps_mutants() {
        assert_eq!(base_name("mutant:mutant:z3:flip-verdict:crash"), "z3");
        assert_eq!(base_name("yices"), "yices");
        assert!(capabilities("mutant:yices:flip-verdict").contains(&"needs-logic"));
    }
}
