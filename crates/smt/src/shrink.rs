//! Minimization that keeps every assertion true under M, so a reduced instance is still
//! satisfiable by construction and an `unsat` still proves a bug (no trusted second solver
//! needed). First STORM's own search over the fuzzing bounds (`minimize.rs`); after it,
//! syntax-level steps: drop assertions, replace an assertion by a sub-formula known true
//! under M, drop push/pop, tactic and options (the leaf-level shrinking STORM's authors
//! suggest combining with their search).

use crate::case::SmtCase;
use crate::eval::{self, Env};
use crate::minimize::{self, MinState};
use crate::storm::{self, Entry, Step};
use crate::term::{Arena, TermId};
use std::collections::HashMap;

/// The case's assertions as terms, with the model as an evaluation environment.
pub struct Parsed {
    pub arena: Arena,
    pub env: Env,
    pub asserts: Vec<TermId>,
}

fn parse(case: &SmtCase) -> Option<Parsed> {
    let mut arena = Arena::new();
    let mut env = Env::default();
    for d in &case.decls {
        if let Ok(s) = crate::sexp::parse_one(d) {
            if s.head() == Some("define-fun") {
                env.add_define(&mut arena, s.list()?).ok()?;
            }
        }
    }
    env.add_model(&mut arena, &case.model).ok()?;
    let asserts = case.asserts().map(|a| arena.parse_term(a).ok()).collect::<Option<Vec<_>>>()?;
    Some(Parsed { arena, env, asserts })
}

/// Truth values under M of the sub-formulas of true assertions, derived from the structure
/// where possible (children of a true `and` are true, of a false `or` false, `not` flips) and
/// by the evaluator elsewhere. Descends through and/or/not.
fn valuations(p: &Parsed) -> Vec<Entry> {
    let mut known: HashMap<TermId, bool> = HashMap::new();
    let mut order = Vec::new();
    let mut stack: Vec<(TermId, Option<bool>)> = p.asserts.iter().rev().map(|&a| (a, Some(true))).collect();
    while let Some((t, v)) = stack.pop() {
        if known.contains_key(&t) {
            continue;
        }
        let Some(v) = v.or_else(|| eval::truth(&p.arena, &p.env, t)) else { continue };
        known.insert(t, v);
        order.push((t, v));
        match p.arena.as_app(t) {
            Some(("not", [x])) => stack.push((*x, Some(!v))),
            Some(("and", xs)) => stack.extend(xs.iter().rev().map(|&x| (x, if v { Some(true) } else { None }))),
            Some(("or", xs)) => stack.extend(xs.iter().rev().map(|&x| (x, if v { None } else { Some(false) }))),
            _ => {}
        }
    }
    order
}

/// `case` with new assertions (in push/pop blocks again when it is incremental).
pub fn with_asserts(case: &SmtCase, asserts: Vec<String>, rng_seed: u64) -> SmtCase {
    let mut c = case.clone();
    c.steps = if case.incremental {
        let mut rng = crosscheck_core::rng(rng_seed, 0x1ec);
        storm::incremental_steps(&mut rng, asserts)
    } else {
        asserts.into_iter().map(Step::Assert).chain([Step::CheckSat]).collect()
    };
    c
}

/// Replacements of one assertion by a smaller formula that is also true under M.
fn smaller_true(p: &Parsed, known: &HashMap<TermId, bool>, t: TermId) -> Vec<String> {
    let a = &p.arena;
    let is = |x: TermId, v: bool| known.get(&x).copied().or_else(|| eval::truth(a, &p.env, x)) == Some(v);
    let mut out = Vec::new();
    match a.as_app(t) {
        Some(("and", xs)) => out.extend(xs.iter().map(|&x| a.to_text(x))),
        Some(("or", xs)) => out.extend(xs.iter().filter(|&&x| is(x, true)).map(|&x| a.to_text(x))),
        Some(("not", [x])) => match a.as_app(*x) {
            Some(("not", [y])) => out.push(a.to_text(*y)),
            Some(("or", ys)) => out.extend(ys.iter().map(|&y| format!("(not {})", a.to_text(y)))),
            Some(("and", ys)) => {
                out.extend(ys.iter().filter(|&&y| is(y, false)).map(|&y| format!("(not {})", a.to_text(y))))
            }
            _ => {}
        },
        _ => {}
    }
    out
}

/// Smaller variants of `case`, in the order STORM's minimization and then the syntax-level
/// steps try them; all keep every assertion true under M.
pub fn shrink(case: &SmtCase) -> Vec<SmtCase> {
    let Some(mut p) = parse(case) else { return syntax_only(assertion_cuts(case)) };
    let entries = valuations(&p);
    let known: HashMap<TermId, bool> = entries.iter().copied().collect();
    let mut out = minimize::storm_candidates(case, &p, &known);
    let mut syntax = assertion_cuts(case);
    let texts: Vec<String> = case.asserts().cloned().collect();
    for (i, &t) in p.asserts.iter().enumerate() {
        for r in smaller_true(&p, &known, t) {
            let mut a = texts.clone();
            a[i] = r;
            syntax.push(with_asserts(case, a, case.index));
        }
    }
    if case.steps.iter().any(|s| matches!(s, Step::Push(_) | Step::Pop(_))) {
        let mut c = case.clone();
        c.steps = texts.into_iter().map(Step::Assert).chain([Step::CheckSat]).collect();
        c.incremental = false;
        syntax.push(c);
    }
    if case.tactic.is_some() {
        syntax.push(SmtCase { tactic: None, ..case.clone() });
    }
    if !case.options.is_empty() {
        syntax.push(SmtCase { options: Default::default(), ..case.clone() });
    }
    out.extend(syntax_only(syntax));
    // The precondition of every candidate: what the evaluator can decide must be true.
    // Re-fuzzed mutants repeat pool formulas: each distinct assertion is checked once.
    let mut checked: HashMap<String, bool> = HashMap::new();
    out.retain(|c| {
        c.asserts().all(|a| match checked.get(a) {
            Some(&ok) => ok,
            None => {
                let ok = still_true(&mut p, a);
                checked.insert(a.clone(), ok);
                ok
            }
        })
    });
    out
}

/// Syntax-level candidates come after STORM's search: they carry its end state.
fn syntax_only(mut cands: Vec<SmtCase>) -> Vec<SmtCase> {
    for c in &mut cands {
        c.min = Some(MinState::Syntax);
    }
    cands
}

fn still_true(p: &mut Parsed, text: &str) -> bool {
    match p.arena.parse_term(text) {
        Ok(t) => eval::truth(&p.arena, &p.env, t) != Some(false),
        Err(_) => false,
    }
}

/// Dropping assertions keeps the rest true under M: always sound.
fn assertion_cuts(case: &SmtCase) -> Vec<SmtCase> {
    let texts: Vec<String> = case.asserts().cloned().collect();
    crosscheck_core::reduce::cuts(&texts, 1).into_iter().map(|a| with_asserts(case, a, case.index)).collect()
}

/// Syntax-tree nodes of the assertions plus steps, tactic and options.
pub fn size(case: &SmtCase) -> usize {
    let nodes: usize = case
        .asserts()
        .map(|a| a.split(|c: char| c.is_whitespace() || c == '(').filter(|w| !w.is_empty()).count())
        .sum();
    nodes + case.steps.len() + usize::from(case.tactic.is_some()) + case.options.values().map(Vec::len).sum::<usize>()
}
