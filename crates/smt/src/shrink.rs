//! Minimization that keeps every assertion true under M, so a reduced instance is still
//! satisfiable by construction and an `unsat` still proves a bug (no trusted second solver
//! needed). First STORM's own search over the fuzzing bounds (`minimize.rs`); after it,
//! syntax-level steps: drop assertions, replace an assertion by a sub-formula known true
//! under M, drop push/pop, tactic and options (the leaf-level shrinking STORM's authors
//! suggest combining with their search).

use crate::case::SmtCase;
use crate::ddmin;
use crate::eval::{self, Env};
use crate::minimize::{self, MinState};
use crate::storm::{self, Entry, Step};
use crate::term::{Arena, TermId};
use std::collections::HashMap;

/// The case's assertions as terms, with the model as an evaluation environment.
#[derive(Clone)]
pub struct Parsed {
    pub arena: Arena,
    pub env: Env,
    pub asserts: Vec<TermId>,
}

pub(crate) fn parse(case: &SmtCase) -> Option<Parsed> {
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
pub(crate) fn valuations(p: &Parsed) -> Vec<Entry> {
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

/// Smaller variants of `case`, in the order the reducer tries them (see [`shrink_iter`]).
pub fn shrink(case: &SmtCase) -> Vec<SmtCase> {
    shrink_iter(case).collect()
}

/// Smaller variants of `case`, made as the reducer asks for them. A case not yet minimized
/// goes through the fast phase (`ddmin.rs`) and, once a whole turn of it fails, STORM's
/// search (`minimize.rs`, one re-fuzzing round at a time); after that search, the fast
/// phase's steps again. For a case satisfiable by construction every candidate keeps every
/// assertion true under M.
pub fn shrink_iter(case: &SmtCase) -> Box<dyn Iterator<Item = SmtCase>> {
    let state = case.min.unwrap_or(MinState::START);
    let Some(mut p) = parse(case) else {
        // Not parsed: no sub-formula steps and no STORM rounds, the rest as usual.
        let mut list = crosscheck_core::reduce::cuts(&case.asserts().cloned().collect::<Vec<_>>(), 1)
            .into_iter()
            .map(|a| with_asserts(case, a, case.index))
            .collect::<Vec<_>>();
        list.extend(ddmin::setting_steps(case));
        return Box::new(numbered(list, state).into_iter());
    };
    let known: HashMap<TermId, bool> = valuations(&p).into_iter().collect();
    let (first, rounds, last) = match state {
        MinState::Ddmin { .. } | MinState::Syntax { .. } => {
            let fast = numbered(ddmin::candidates(case, &mut p, &known), state);
            let rounds = match state {
                MinState::Ddmin { .. } => minimize::storm_rounds(case, MinState::storm_start(case)),
                _ => Vec::new(),
            };
            (fast, rounds, Vec::new())
        }
        s => {
            let after = numbered(ddmin::candidates(case, &mut p, &known), MinState::Syntax { at: 0 });
            (Vec::new(), minimize::storm_rounds(case, s), after)
        }
    };
    let limit = size(case);
    let (fuzz_case, fuzz_p) = (case.clone(), p.clone());
    let storm = rounds.into_iter().flat_map(move |r| minimize::fuzz(&fuzz_case, &fuzz_p, &known, &r, limit));
    let all = first.into_iter().chain(storm).chain(last);
    if !case.sat_by_construction {
        return Box::new(all);
    }
    // The precondition of every candidate: what the evaluator can decide must be true.
    // Re-fuzzed mutants repeat pool formulas: each distinct assertion is checked once.
    let mut checked: HashMap<String, bool> = HashMap::new();
    Box::new(all.filter(move |c| {
        c.asserts().all(|a| match checked.get(a) {
            Some(&ok) => ok,
            None => {
                let ok = still_true(&mut p, a);
                checked.insert(a.clone(), ok);
                ok
            }
        })
    }))
}

/// The fast phase's list rotated to the state's position, each candidate carrying its own
/// position (in the same phase) so that the next round continues from it.
fn numbered(list: Vec<SmtCase>, state: MinState) -> Vec<SmtCase> {
    let (at, mk): (u32, fn(u32) -> MinState) = match state {
        MinState::Ddmin { at } => (at, |at| MinState::Ddmin { at }),
        MinState::Syntax { at } => (at, |at| MinState::Syntax { at }),
        _ => (0, |at| MinState::Syntax { at }),
    };
    ddmin::rotated(list, at)
        .into_iter()
        .map(|(i, mut c)| {
            c.min = Some(mk(i));
            c
        })
        .collect()
}

fn still_true(p: &mut Parsed, text: &str) -> bool {
    match p.arena.parse_term(text) {
        Ok(t) => eval::truth(&p.arena, &p.env, t) != Some(false),
        Err(_) => false,
    }
}

/// Syntax-tree nodes of the assertions plus steps, tactic and options.
pub fn size(case: &SmtCase) -> usize {
    let nodes: usize = case
        .asserts()
        .map(|a| a.split(|c: char| c.is_whitespace() || c == '(').filter(|w| !w.is_empty()).count())
        .sum();
    nodes + case.steps.len() + usize::from(case.tactic.is_some()) + case.options.values().map(Vec::len).sum::<usize>()
}
