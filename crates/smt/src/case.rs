//! A self-contained test case: the declarations of its seed, the instance's steps, the model M
//! that witnesses its satisfiability, and the solver options drawn for it; and how it is
//! printed for each solver.

use crate::storm::{Params, Step};
use crosscheck_core::EngineInfo;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmtCase {
    /// Seed file name, or `random-<n>` for a generated seed.
    pub seed: String,
    pub logic: Option<String>,
    /// Declarations and definitions of the seed, verbatim.
    pub decls: Vec<String>,
    pub steps: Vec<Step>,
    /// Z3's `check-sat-using` tactic, sent to solvers that have it.
    #[serde(default)]
    pub tactic: Option<String>,
    /// M as `define-fun` commands: every assertion is true under it when
    /// `sat_by_construction`.
    pub model: String,
    /// Where M and the valuations came from (`z3 5.4.0 + evaluator`, `random assignment`).
    pub model_source: String,
    pub sat_by_construction: bool,
    /// Ask for the model after the (single) check-sat (the model oracle).
    #[serde(default)]
    pub get_model: bool,
    /// Sampled solver options per engine label: `(key, value)` → `(set-option :key value)`.
    #[serde(default)]
    pub options: BTreeMap<String, Vec<(String, String)>>,
    pub params: Params,
    pub incremental: bool,
    /// The case index in its stream (names the instance in reports).
    pub index: u64,
    /// Where STORM's minimization of this case stands (`None`: not started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<crate::minimize::MinState>,
    /// Set while the case is as the generator made it, before a worker (or a probe replaying a
    /// case the supervisor rebuilt) materializes it; a materialized case has none, so it
    /// serializes as cases always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    /// How a `fusion` or `opfuzz` instance was made, with the status fusion guarantees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<crate::yinyang::Derivation>,
}

/// What a worker needs to build a case's instance deterministically: the generator's options
/// and the case's seed round (its index is the case's). Self-contained, so that a probe can
/// materialize a stored crash case without the campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The worker's generation seed.
    pub seed: u64,
    /// `--seeds`, as the campaign was given it; `None` for random seeds.
    pub seeds_dir: Option<std::path::PathBuf>,
    pub round: u64,
    pub oracle: String,
}

impl SmtCase {
    pub fn asserts(&self) -> impl Iterator<Item = &String> {
        self.steps.iter().filter_map(|s| if let Step::Assert(a) = s { Some(a) } else { None })
    }

    pub fn check_sats(&self) -> usize {
        self.steps.iter().filter(|s| matches!(s, Step::CheckSat)).count()
    }

    /// The script for one engine. Solvers without `check-sat-using` get `check-sat`; a
    /// solver that needs a logic gets `ALL` when the seed named none.
    pub fn script_for(&self, info: &EngineInfo) -> String {
        let mut out = String::with_capacity(256 + self.steps.len() * 64);
        if self.get_model {
            out.push_str("(set-option :produce-models true)\n");
        }
        if let Some(opts) = self.options.get(&info.label) {
            for (k, v) in opts {
                let _ = writeln!(out, "(set-option :{k} {v})");
            }
        }
        match (&self.logic, crate::solvers::has(info, "needs-logic")) {
            (Some(l), _) => {
                let _ = writeln!(out, "(set-logic {l})");
            }
            (None, true) => out.push_str("(set-logic ALL)\n"),
            (None, false) => {}
        }
        self.body(&mut out, crate::solvers::has(info, "check-sat-using"));
        if self.get_model {
            out.push_str("(get-model)\n");
        }
        out
    }

    fn body(&self, out: &mut String, tactic: bool) {
        for d in &self.decls {
            out.push_str(d);
            out.push('\n');
        }
        let check = match (&self.tactic, tactic) {
            (Some(t), true) => format!("(check-sat-using {t})"),
            _ => "(check-sat)".to_string(),
        };
        for s in &self.steps {
            match s {
                Step::Assert(a) => {
                    out.push_str("(assert ");
                    out.push_str(a);
                    out.push_str(")\n");
                }
                Step::Push(n) => {
                    let _ = writeln!(out, "(push {n})");
                }
                Step::Pop(n) => {
                    let _ = writeln!(out, "(pop {n})");
                }
                Step::CheckSat => {
                    out.push_str(&check);
                    out.push('\n');
                }
            }
        }
    }

    /// A script that checks M against every assertion: the declarations of M's symbols are
    /// replaced by its definitions, so a solver only evaluates (`sat` confirms the witness).
    pub fn witness_script(&self) -> String {
        let defined: Vec<String> = model_names(&self.model);
        let mut out = String::new();
        if let Some(l) = &self.logic {
            let _ = writeln!(out, "(set-logic {l})");
        }
        for d in &self.decls {
            let declared = decl_name(d);
            if declared.is_some_and(|n| defined.iter().any(|m| m == n)) {
                continue;
            }
            out.push_str(d);
            out.push('\n');
        }
        out.push_str(&arrays_as_stores(&self.model, &self.decls));
        out.push('\n');
        for a in self.asserts() {
            let _ = writeln!(out, "(assert {a})");
        }
        out.push_str("(check-sat)\n");
        out
    }
}

/// Yices gives the value of an array constant as a function (`(define-fun a ((x!0 Int)) Int
/// (ite (= x!0 1) 5 0))`), which no solver reads back where `a` is an array: such definitions
/// become `store` chains over a constant array (`(store ((as const (Array Int Int)) 0) 1 5)`).
/// Other definitions, and bodies that are not such `ite` chains, are kept as they are.
pub fn arrays_as_stores(model: &str, decls: &[String]) -> String {
    use crate::sexp::Sexp;
    let Ok(items) = crate::sexp::parse_all(model) else { return model.to_string() };
    let array_sort = |name: &str| -> Option<String> {
        decls.iter().find_map(|d| {
            let s = crate::sexp::parse_one(d).ok()?;
            match (s.head()?, s.list()?) {
                ("declare-fun", [_, n, Sexp::List(args, _), sort]) if args.is_empty() && n.atom() == Some(name) => {
                    Some(sort.to_string())
                }
                ("declare-const", [_, n, sort]) if n.atom() == Some(name) => Some(sort.to_string()),
                _ => None,
            }
            .filter(|sort| sort.starts_with("(Array "))
        })
    };
    fn stores(body: &Sexp, var: &str, sort: &str) -> Option<String> {
        let mentions =
            |s: &Sexp| s.to_string().split(|c: char| c == '(' || c == ')' || c.is_whitespace()).any(|w| w == var);
        if !mentions(body) {
            return Some(format!("((as const {sort}) {body})"));
        }
        let [_, cond, then, rest] = body.list()? else { return None };
        if body.head() != Some("ite") || mentions(then) {
            return None;
        }
        let key = match cond.list()? {
            [eq, a, k] | [eq, k, a] if eq.atom() == Some("=") && a.atom() == Some(var) && !mentions(k) => k,
            _ => return None,
        };
        Some(format!("(store {} {key} {then})", stores(rest, var, sort)?))
    }
    let mut out = Vec::new();
    let mut changed = false;
    let mut stack: Vec<&Sexp> = items.iter().rev().collect();
    while let Some(s) = stack.pop() {
        if s.head() != Some("define-fun") {
            match s.list() {
                Some(l) if s.head() != Some("declare-fun") && s.head() != Some("assert") => {
                    stack.extend(l.iter().rev())
                }
                Some(_) => out.push(s.to_string()),
                // The `model` keyword of `(model ...)` answers.
                None => {}
            }
            continue;
        }
        let converted = match s.list() {
            Some([_, name, Sexp::List(args, _), _, body]) if args.len() == 1 => {
                let var = args[0].list().and_then(|a| a.first()).and_then(|v| v.atom());
                name.atom().and_then(array_sort).zip(var).and_then(|(sort, var)| {
                    Some(format!("(define-fun {name} () {sort} {})", stores(body, var, &sort)?))
                })
            }
            _ => None,
        };
        changed |= converted.is_some();
        out.push(converted.unwrap_or_else(|| s.to_string()));
    }
    if changed {
        out.join("\n")
    } else {
        model.to_string()
    }
}

/// The name a `declare-fun`/`declare-const` introduces.
pub fn decl_name(d: &str) -> Option<&str> {
    let rest = d.strip_prefix("(declare-fun ").or_else(|| d.strip_prefix("(declare-const "))?;
    rest.split(|c: char| c.is_whitespace() || c == '(').next()
}

/// Names defined by the `define-fun`s of a model text.
pub fn model_names(model: &str) -> Vec<String> {
    let Ok(items) = crate::sexp::parse_all(model) else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack: Vec<&crate::sexp::Sexp> = items.iter().collect();
    while let Some(s) = stack.pop() {
        if s.head() == Some("define-fun") {
            if let Some(n) = s.list().and_then(|l| l.get(1)).and_then(|n| n.atom()) {
                out.push(n.to_string());
            }
        } else if let Some(l) = s.list() {
            stack.extend(l.iter());
        }
    }
    out
}

/// A model answer in a portable form: one `define-fun` a line, after declarations of the
/// abstract elements of uninterpreted sorts (z3's `U!val!0`; cvc5's and yices's
/// `(as @U_0 U)`, renamed `cc!U_0` since `@` names are reserved) and their distinctness, so that
/// any solver can read it back (the witness script) and the evaluator can compare elements.
pub fn normalize_model(text: &str) -> String {
    use crate::sexp::Sexp;
    let Ok(items) = crate::sexp::parse_all(text) else { return text.to_string() };
    let mut elems: Vec<(String, String)> = Vec::new();
    fn rewrite(s: &Sexp, elems: &mut Vec<(String, String)>) -> Sexp {
        match s {
            Sexp::List(l, p) => {
                if let [Sexp::Atom(a, _), Sexp::Atom(n, _), sort] = l.as_slice() {
                    if a == "as" && n.starts_with('@') {
                        let name = format!("cc!{}", &n[1..]);
                        if !elems.iter().any(|(e, _)| *e == name) {
                            elems.push((name.clone(), sort.to_string()));
                        }
                        return Sexp::Atom(name, *p);
                    }
                }
                Sexp::List(l.iter().map(|x| rewrite(x, elems)).collect(), *p)
            }
            a => a.clone(),
        }
    }
    let mut defs = Vec::new();
    let mut stack: Vec<&Sexp> = items.iter().rev().collect();
    while let Some(s) = stack.pop() {
        match s.head() {
            Some("define-fun") => defs.push(rewrite(s, &mut elems).to_string()),
            Some("declare-fun") => {
                if let Some([_, Sexp::Atom(n, _), Sexp::List(args, _), sort]) = s.list() {
                    if args.is_empty() && !elems.iter().any(|(e, _)| e == n) {
                        elems.push((n.clone(), sort.to_string()));
                    }
                }
            }
            Some("forall") => {}
            _ => {
                if let Some(l) = s.list() {
                    stack.extend(l.iter().rev());
                }
            }
        }
    }
    let mut out = Vec::new();
    for (n, sort) in &elems {
        out.push(format!("(declare-fun {n} () {sort})"));
    }
    let mut sorts: Vec<&String> = elems.iter().map(|(_, s)| s).collect();
    sorts.dedup();
    for sort in sorts {
        let same: Vec<&str> = elems.iter().filter(|(_, s)| s == sort).map(|(n, _)| n.as_str()).collect();
        if same.len() > 1 {
            out.push(format!("(assert (distinct {}))", same.join(" ")));
        }
    }
    out.extend(defs);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yices_array_functions_become_store_chains() {
        let decls = vec!["(declare-fun a () (Array Int Int))".to_string(), "(declare-fun f (Int) Int)".to_string()];
        let m = "(model (define-fun a ((x!0 Int)) Int (ite (= x!0 9) 5 (ite (= 10 x!0) (- 8) 4))) \
                 (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 3)) (define-fun x () Int 9))";
        assert_eq!(
            arrays_as_stores(m, &decls),
            "(define-fun a () (Array Int Int) (store (store ((as const (Array Int Int)) 4) 10 (- 8)) 9 5))\n\
             (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 2 3))\n(define-fun x () Int 9)"
        );
        // Already an array value, or nothing to convert: unchanged.
        let z3 = "((define-fun a () (Array Int Int) ((as const (Array Int Int)) 0)))";
        assert_eq!(arrays_as_stores(z3, &decls), z3);
    }
    use crate::eval::{truth, Env};
    use crate::term::Arena;

    #[test]
    fn normalizes_uninterpreted_sort_models_of_z3_cvc5_and_yices() {
        let z3 =
            "((declare-fun U!val!1 () U) (declare-fun U!val!0 () U) (forall ((x U)) (or (= x U!val!1) (= x U!val!0)))
                   (define-fun a () U U!val!0) (define-fun b () U U!val!1))";
        let cvc = "(model (define-fun a () U (as @U_0 U)) (define-fun b () U (as @U_1 U)))";
        for m in [z3, cvc] {
            let n = normalize_model(m);
            assert!(n.contains("(assert (distinct"), "{n}");
            assert!(!n.contains('@'), "{n}");
            let mut arena = Arena::new();
            let mut env = Env::default();
            env.add_model(&mut arena, &n).expect("model");
            let t = arena.parse_term("(and (not (= a b)) (= a a))").expect("term");
            assert_eq!(truth(&arena, &env, t), Some(true), "{n}");
        }
    }
}
