//! Which of a solver's own options may be sampled, and with what values: the solver lists its
//! options when it opens (`EngineInfo::options`, read from the installed binary or library by
//! the engines layer), and this module keeps those that must not change a `sat`/`unsat`
//! answer. An option the installed version does not list is never drawn, whatever another
//! version of the solver knows.
//!
//! The rule, once: an option is kept when it only chooses **how** the solver searches —
//! random seeds, decision and phase heuristics, restarts, preprocessing and simplification
//! toggles, alternative arithmetic/bit-vector/SAT back ends, quantifier-instantiation
//! strategies — and dropped when it changes **what** is solved or **what is printed**:
//! - semantics or the input language (z3 `rewriter.hi_div0`, `smt.arith.ignore_int`, cvc5
//!   `--arith-no-partial-fun`, `--strings-exp`, anything `unsound`, theory translations with a
//!   bound such as `--solve-int-as-bv`, logic and declaration scoping);
//! - resource limits and timeouts (an `unknown` at best, the time spent for nothing);
//! - threads and portfolios (the answer must not depend on timing);
//! - models, proofs, unsat cores, statistics, printing, tracing and files (the oracles read
//!   the output; these do not search differently);
//! - options the solver marks for experts (cvc5 and CVC4 `(EXPERTS only)`, cvc5's `expert`
//!   category): cvc5's own `safe` and `stable` modes refuse them, so they lie outside what it
//!   stands behind; 16 of 16 crashes of cvc5 1.4.2 in a self-differential run were behind one
//!   of them (`bv-rw-extend-eq`). A user still sets one with `+--name`;
//! - modules that the SMT-LIB scripts never reach (z3's `fp` fixedpoint engine, `opt`, `tptp`,
//!   `rcf`) and z3's `algebraic`, whose own description says non-default settings are not
//!   supported.
//!
//! Deny rules come first, then allow rules; an option no rule names is not drawn. Integers
//! are drawn only where the value range is known to be a choice of procedure: seeds take any
//! value, z3's enumerated integers take the values listed in [`Z3_INT_VALUES`]; z3 states no
//! range for its other integers, many of which are limits or encode modes (`smt.arith.solver`
//! 0 is "no arithmetic solver").

use crosscheck_core::{EngineInfo, EngineOption, OptionDomain};
use rand::Rng;

/// Whether an option may be sampled, and why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Safe,
    Unsafe(&'static str),
}

/// A name pattern: `*` matches any run of characters.
type Rule = (&'static str, Class);

const SEMANTICS: Class = Class::Unsafe("changes the semantics or the input language");
const LIMIT: Class = Class::Unsafe("a resource limit: an unknown at best");
const TIMING: Class = Class::Unsafe("threads or portfolios: the answer would depend on timing");
const OUTPUT: Class = Class::Unsafe("models, proofs, cores, statistics or printing: output, not search");
const UNREACHED: Class = Class::Unsafe("a module the SMT-LIB scripts never reach");
const HEURISTIC: Class = Class::Safe;
const INCREMENTAL: Class = Class::Unsafe("refused with incremental solving, which crosscheck uses");

const Z3_RULES: &[Rule] = &[
    ("smt.arith.ignore_int", Class::Unsafe("unsound by design: integers solved as reals")),
    ("*hi_div0*", SEMANTICS),
    ("*hi_fp_unspecified*", SEMANTICS),
    ("*extensional*", SEMANTICS),
    ("smt.array.weak", SEMANTICS),
    ("*logic*", SEMANTICS),
    ("*unsound*", SEMANTICS),
    ("*enable_int2bv*", SEMANTICS),
    ("*timeout*", LIMIT),
    ("*memory*", LIMIT),
    ("*rlimit*", LIMIT),
    ("*max_conflicts*", LIMIT),
    ("*max_steps*", LIMIT),
    ("*threads*", TIMING),
    ("*parallel*", TIMING),
    // `z3 -pd`: the co-processor runs in parallel with the SMT engine by default
    // (`smt.sls.parallel`); on strings z3 5.4.1 also aborts in it (ENGINE-BUGS.md).
    ("smt.sls.enable", TIMING),
    ("*dbg*", OUTPUT),
    ("*validate*", Class::Unsafe("debug self-checks: they print and abort, they do not search")),
    ("*check_lemmas*", Class::Unsafe("debug self-checks: they print and abort, they do not search")),
    ("combined_solver.*", TIMING),
    ("*model*", OUTPUT),
    ("*proof*", OUTPUT),
    ("*drat*", OUTPUT),
    ("*core*", OUTPUT),
    ("*trace*", OUTPUT),
    ("*dump*", OUTPUT),
    ("*file*", OUTPUT),
    ("*print*", OUTPUT),
    ("*profile*", OUTPUT),
    ("*2console*", OUTPUT),
    ("*log*", OUTPUT),
    ("pp.*", OUTPUT),
    ("solver.*", OUTPUT),
    ("parser.*", SEMANTICS),
    ("tptp.*", UNREACHED),
    ("opt.*", UNREACHED),
    ("fp.*", UNREACHED),
    ("rcf.*", UNREACHED),
    ("algebraic.*", Class::Unsafe("z3: non-default settings are not supported")),
    // Its own description (z3 4.8.10 to 5.4.1): "this feature is preliminary and not ready for
    // general consumption"; 4.8.10 aborts under it on QF_BV after a push (bv_solver.cpp:62).
    ("sat.euf", Class::Unsafe("z3: preliminary, not ready for general consumption")),
    // Aborts with "NOT IMPLEMENTED YET" in nla_core.cpp (4.8.10 to 4.8.15; z3 issue #5770): 7 of
    // the 11 findings of a 10-minute storm run on z3 4.8.10.
    ("smt.arith.nl.expp", Class::Unsafe("z3: not implemented (nla_core.cpp aborts)")),
    ("tactic.default_tactic", SEMANTICS),
    ("smt.*", HEURISTIC),
    ("sat.*", HEURISTIC),
    ("rewriter.*", HEURISTIC),
    ("nlsat.*", HEURISTIC),
    ("nnf.*", HEURISTIC),
    ("pi.*", HEURISTIC),
    ("sls.*", HEURISTIC),
    ("lp.*", HEURISTIC),
    ("tactic.*", HEURISTIC),
    ("ackermannization.*", HEURISTIC),
    ("factor.*", HEURISTIC),
];

/// z3 integers that select a procedure, with the values that keep a complete one (from
/// `z3 -pd`: `smt.arith.solver` 2 = simplex, 6 = the lra solver; 0, 1, 3 and 4 are no solver
/// or difference logic only).
const Z3_INT_VALUES: &[(&str, &[&str])] = &[
    ("smt.arith.solver", &["2", "6"]),
    ("smt.phase_selection", &["0", "1", "2", "3", "4", "5"]),
    ("smt.restart_strategy", &["0", "1", "2", "3", "4"]),
    ("smt.relevancy", &["0", "1", "2"]),
    ("smt.case_split", &["0", "1", "2", "3", "4", "5", "6"]),
    ("smt.arith.branch_cut_ratio", &["1", "2", "4", "8"]),
    ("sat.restart.initial", &["50", "100", "200"]),
    ("sat.variable_decay", &["100", "110", "120"]),
];

/// CVC4 1.8 only, before the rules it shares with cvc5.
const CVC4_RULES: &[Rule] = &[
    ("bitblast", Class::Unsafe("CVC4 1.8 aborts on eager bit-blasting in incremental mode")),
    ("bv-eq-slicer", Class::Unsafe("refuses anything but pure QF_BV")),
    ("*sat-solver*", Class::Unsafe("build-dependent: Debian's CVC4 lists back ends it lacks")),
    ("*aig*", Class::Unsafe("build-dependent: needs ABC, which Debian's CVC4 lacks")),
    ("inst-when", Class::Unsafe("CVC4 1.8 lists a mode it refuses: \"pre-full ... not supported\"")),
];

/// cvc5 and CVC4 (options named as their command lines and `setOption` name them).
const CVC_RULES: &[Rule] = &[
    ("*unsound*", SEMANTICS),
    ("*partial-fun*", SEMANTICS),
    ("*-exp", SEMANTICS),
    ("*-as-*", SEMANTICS),
    ("*logic*", SEMANTICS),
    ("*lang*", SEMANTICS),
    ("*declarations*", SEMANTICS),
    ("*sygus*", SEMANTICS),
    ("*pars*", SEMANTICS),
    ("global-negate", SEMANTICS),
    // Refused at the first option when no logic is set yet (as a quantified one): "bool-to-bv
    // != off not supported with CBQI BV for quantified logics" (cvc5 1.0.3, CVC4 1.8).
    ("bool-to-bv", Class::Unsafe("refused with the quantified bit-vector instantiation")),
    ("safe-*", SEMANTICS),
    // Its one non-default value, eager, is refused unless the logic is pure QF_BV: "Error in
    // option parsing: Eager bit-blasting is only support in incremental mode if the logic is
    // quantifier-free bit-vectors" (cvc5 1.0.3 and 1.4.2; 304 tests of two 10-minute runs).
    ("bitblast", INCREMENTAL),
    ("unconstrained-simp", INCREMENTAL),
    ("ackermann", INCREMENTAL),
    ("deep-restart", INCREMENTAL),
    ("compute-partitions", INCREMENTAL),
    ("nl-cov*", Class::Unsafe("needs cvc5 built with libpoly, which Debian's is not")),
    ("*abort-card*", Class::Unsafe("unsound by design: only models up to a cardinality")),
    ("*-wd", Class::Unsafe("unsound by design: assumes definitions well defined")),
    ("oracles", SEMANTICS),
    ("sets-ext", SEMANTICS),
    ("*abstract-values*", OUTPUT),
    ("*function-values*", OUTPUT),
    ("*incremental*", SEMANTICS),
    ("interactive*", SEMANTICS),
    ("*-only", SEMANTICS),
    ("*semantic-checks*", SEMANTICS),
    ("*filesystem*", SEMANTICS),
    ("*limit*", LIMIT),
    ("*timeout*", LIMIT),
    ("*reproducible*", LIMIT),
    ("*threads*", TIMING),
    ("*portfolio*", TIMING),
    ("*parallel*", TIMING),
    ("*produce*", OUTPUT),
    ("*model*", OUTPUT),
    ("*proof*", OUTPUT),
    ("*core*", OUTPUT),
    ("*check-*", OUTPUT),
    ("*dump*", OUTPUT),
    ("*print*", OUTPUT),
    ("*output*", OUTPUT),
    ("*channel*", OUTPUT),
    ("*stats*", OUTPUT),
    ("*verbos*", OUTPUT),
    ("*trace*", OUTPUT),
    ("*debug*", OUTPUT),
    ("*dag-thresh*", OUTPUT),
    ("*difficulty*", OUTPUT),
    ("*assertions*", OUTPUT),
    ("*interpol*", OUTPUT),
    ("*abduct*", OUTPUT),
    ("*learned*", OUTPUT),
    ("*-help", OUTPUT),
    // cvc5-py lists the driver's options without their group: they print to stdout.
    ("help*", OUTPUT),
    ("copyright", OUTPUT),
    ("show-*", OUTPUT),
    ("version", OUTPUT),
    ("*seed*", HEURISTIC),
    ("*", HEURISTIC),
];

/// cvc5 and CVC4 help sections no search option lives in.
const CVC_GROUPS_DENIED: &[&str] =
    &["Base", "Driver", "Parser", "Printing", "Proof", "Parallel", "Expression", "Expression package"];

const YICES_RULES: &[Rule] = &[("*max-*", LIMIT), ("yices-*", HEURISTIC)];

const BITWUZLA_RULES: &[Rule] = &[
    ("*limit*", LIMIT),
    ("*threads*", TIMING),
    ("*produce*", OUTPUT),
    ("*write-*", OUTPUT),
    ("*level*", OUTPUT),
    ("verbosity", OUTPUT),
    ("*interpol*", OUTPUT),
    ("*check*", OUTPUT),
    ("*print*", OUTPUT),
    ("*", HEURISTIC),
];

/// The class of `option` of the solver `engine_name` (registry name, under any mutant).
pub fn classify(engine_name: &str, option: &EngineOption) -> Class {
    let (rules, family) = match crate::solvers::base_name(engine_name) {
        "z3" => (Z3_RULES, "z3"),
        "cvc5" | "cvc5-py" | "cvc4" => (CVC_RULES, "cvc"),
        "yices" => (YICES_RULES, "yices"),
        "bitwuzla" => (BITWUZLA_RULES, "bitwuzla"),
        _ => return Class::Unsafe("a solver the leg has no rules for"),
    };
    if family == "z3" && option.group.is_empty() {
        return Class::Unsafe("z3 global parameters: resources, output, proofs, type checking, encoding");
    }
    if family == "cvc" && option.expert {
        return Class::Unsafe("for experts only: cvc5's safe and stable modes refuse it");
    }
    if family == "cvc" && CVC_GROUPS_DENIED.contains(&option.group.as_str()) {
        return Class::Unsafe("a help section of driver, parser, printing, proof or expression options");
    }
    let first = if crate::solvers::base_name(engine_name) == "cvc4" { CVC4_RULES } else { &[] };
    first
        .iter()
        .chain(rules)
        .find(|(pattern, _)| glob(pattern, &option.name))
        .map(|(_, c)| *c)
        .unwrap_or(Class::Unsafe("no rule"))
}

/// `*` matches any run of characters (including none); everything else itself.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            let Some(tail) = name.strip_prefix(head) else { return false };
            (0..=tail.len()).filter(|&i| tail.is_char_boundary(i)).any(|i| glob(rest, &tail[i..]))
        }
    }
}

/// The values `option` is drawn from (none: it is not sampled).
pub fn values(engine_name: &str, option: &EngineOption) -> Vec<String> {
    let seed = option.name.contains("seed");
    match &option.domain {
        OptionDomain::Bool => match option.default.as_deref() {
            Some("true") => vec!["false".into()],
            Some("false") => vec!["true".into()],
            _ => vec!["true".into(), "false".into()],
        },
        OptionDomain::Choice(v) => {
            // Bitwuzla's SMT-LIB parser takes a mode as a string literal.
            let quote = crate::solvers::base_name(engine_name) == "bitwuzla";
            v.iter()
                .filter(|x| Some(x.as_str()) != option.default.as_deref())
                .map(|x| if quote { format!("\"{x}\"") } else { x.clone() })
                .collect()
        }
        OptionDomain::Int { .. } if seed => ["1", "2", "3", "7", "42", "1234"].map(String::from).to_vec(),
        OptionDomain::Int { .. } if crate::solvers::base_name(engine_name) == "z3" => Z3_INT_VALUES
            .iter()
            .find(|(n, _)| *n == option.name)
            .map(|(_, v)| v.iter().map(|s| s.to_string()).collect())
            .unwrap_or_default(),
        // cvc5, CVC4, Bitwuzla and Yices state bounds (or none): small values near the
        // default, within them.
        OptionDomain::Int { min, max } => {
            let d: i64 = option.default.as_deref().and_then(|d| d.parse().ok()).unwrap_or(1);
            // Without a stated minimum, 0 and negatives may mean "off" or "unbounded".
            let lo = min.unwrap_or(1);
            let hi = max.unwrap_or(i64::MAX);
            let mut v: Vec<i64> = [d / 2, d + 1, d.saturating_mul(2), 1, 2]
                .into_iter()
                .filter(|x| *x >= lo && *x <= hi && *x != d)
                .collect();
            v.sort_unstable();
            v.dedup();
            v.into_iter().map(|x| x.to_string()).collect()
        }
        OptionDomain::Other(_) => Vec::new(),
    }
}

/// The options of `info` that may be sampled, each with its values.
pub fn safe(info: &EngineInfo) -> Vec<(String, Vec<String>)> {
    info.options
        .iter()
        .filter(|o| classify(&info.name, o) == Class::Safe)
        .map(|o| (o.name.clone(), values(&info.name, o)))
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

/// How many options an instance sets at most: a few at a time, so a finding names few.
const MAX_DRAWN: usize = 3;

/// A random subset of the safe options of `info` (none to [`MAX_DRAWN`]), each with a value.
pub fn draw(info: &EngineInfo, rng: &mut impl Rng) -> Vec<(String, String)> {
    let pool = safe(info);
    if pool.is_empty() {
        return Vec::new();
    }
    let n = rng.gen_range(0..=MAX_DRAWN);
    let mut out: Vec<(String, String)> = Vec::new();
    for _ in 0..n {
        let (name, vals) = &pool[rng.gen_range(0..pool.len())];
        if out.iter().all(|(k, _)| k != name) {
            out.push((name.clone(), vals[rng.gen_range(0..vals.len())].clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt(name: &str, group: &str, domain: OptionDomain, default: Option<&str>) -> EngineOption {
        EngineOption { name: name.into(), group: group.into(), domain, default: default.map(Into::into), expert: false }
    }

    #[test]
    fn globs() {
        assert!(glob("*seed*", "smt.random_seed"));
        assert!(glob("smt.*", "smt.relevancy"));
        assert!(!glob("smt.*", "sat.relevancy"));
        assert!(glob("*-exp", "strings-exp"));
        assert!(!glob("*-exp", "strings-exp-x"));
    }

    #[test]
    fn known_unsafe_options_are_excluded_and_safe_ones_kept() {
        let b = OptionDomain::Bool;
        let ignore_int = opt("smt.arith.ignore_int", "smt", b.clone(), Some("false"));
        assert!(matches!(classify("z3", &ignore_int), Class::Unsafe(_)));
        assert!(matches!(classify("z3", &opt("rewriter.hi_div0", "rewriter", b.clone(), None)), Class::Unsafe(_)));
        assert!(matches!(classify("z3", &opt("timeout", "", b.clone(), None)), Class::Unsafe(_)));
        assert!(matches!(classify("z3", &opt("smt.sls.enable", "smt", b.clone(), Some("false"))), Class::Unsafe(_)));
        assert_eq!(
            classify("z3", &opt("smt.random_seed", "smt", OptionDomain::Int { min: None, max: None }, None)),
            Class::Safe
        );
        assert_eq!(classify("z3", &opt("sat.cardinality.solver", "sat", b.clone(), None)), Class::Safe);
        let partial = opt("arith-no-partial-fun", "Arithmetic Theory", b.clone(), None);
        assert!(matches!(classify("cvc5", &partial), Class::Unsafe(_)));
        assert!(matches!(classify("cvc5-py", &opt("strings-exp", "regular", b.clone(), None)), Class::Unsafe(_)));
        assert!(matches!(classify("cvc5", &opt("tlimit-per", "Resource Manager", b.clone(), None)), Class::Unsafe(_)));
        assert_eq!(
            classify("cvc5", &opt("decision", "Decision Heuristics", OptionDomain::Choice(vec![]), None)),
            Class::Safe
        );
        assert_eq!(
            classify("mutant:cvc4:flip-verdict", &opt("random-seed", "SAT layer", b.clone(), None)),
            Class::Safe
        );
        let extend = EngineOption { expert: true, ..opt("bv-rw-extend-eq", "expert", b, Some("false")) };
        assert!(matches!(classify("cvc5-py", &extend), Class::Unsafe(_)));
    }

    #[test]
    fn values_leave_the_default_and_unknown_ranges_out() {
        let arith = opt("smt.arith.solver", "smt", OptionDomain::Int { min: Some(0), max: None }, Some("6"));
        assert_eq!(values("z3", &arith), ["2", "6"]);
        let limit = opt("smt.qi.eager_threshold", "smt", OptionDomain::Int { min: Some(0), max: None }, Some("10"));
        assert!(values("z3", &limit).is_empty(), "z3 gives no range: not drawn");
        assert_eq!(values("z3", &opt("smt.mbqi", "smt", OptionDomain::Bool, Some("true"))), ["false"]);
        let modes = OptionDomain::Choice(vec!["a".into(), "b".into()]);
        assert_eq!(values("cvc5", &opt("m", "x", modes, Some("a"))), ["b"]);
        let bounded = opt("rewrite-level", "", OptionDomain::Int { min: Some(0), max: Some(2) }, Some("2"));
        assert_eq!(values("bitwuzla", &bounded), ["1"]);
    }
}
