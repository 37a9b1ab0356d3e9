//! The fast first phase of a reduction: delta debugging over the list of assertions, then over
//! the Boolean sub-formulas of each assertion (a sub-formula replaced by `true`/`false`, by one
//! of its Boolean children, or an `and`/`or` argument dropped), then the push/pop blocks, the
//! tactic and the options. It runs before STORM's bound search (`minimize.rs`), whose rounds
//! each cost up to a thousand solver calls: that search alone spent the whole `--reduce-time`
//! of a campaign's findings without accepting one step (the finding stayed unreduced).
//!
//! The oracle's guarantee is kept by every candidate. For a case satisfiable by construction
//! (storm), a replacement must keep the assertion's value under M: the new term has the value
//! the replaced one has, as the evaluator or the valuations derived from the assertions' truth
//! say (a term whose value is unknown is not replaced), so every assertion stays true under M.
//! For the other oracles any candidate that keeps the failure will do, so every replacement is
//! listed and the oracle decides.
//!
//! The list is deterministic and the reduction continues where the last accepted step was
//! (the cursor travels in the case, [`crate::minimize::MinState`]): after a success the next
//! round starts at the same position of the new list, as ddmin carries on at the granularity
//! that worked instead of retrying every larger cut first; a full turn without a success ends
//! the phase.

use crate::case::SmtCase;
use crate::eval;
use crate::shrink::{with_asserts, Parsed};
use crate::storm::Step;
use crate::term::TermId;
use std::collections::{HashMap, HashSet};

/// The connectives whose arguments are Boolean formulas; sub-formulas are reached through
/// these only (not through `let`, quantifiers or theory atoms, whose arguments may be of any
/// sort or bind names).
fn boolean_args(head: &str, n: usize) -> std::ops::Range<usize> {
    match head {
        "and" | "or" | "not" | "=>" | "xor" => 0..n,
        // The condition; the branches are Boolean too when the `ite` is (it is here).
        "ite" => 0..n,
        _ => 0..0,
    }
}

/// Distinct Boolean sub-formulas of `t` (itself included), parents before children.
fn subformulas(p: &Parsed, t: TermId, out: &mut Vec<TermId>, seen: &mut HashSet<TermId>) {
    if !seen.insert(t) {
        return;
    }
    out.push(t);
    if let Some((h, args)) = p.arena.as_app(t) {
        for i in boolean_args(h, args.len()) {
            subformulas(p, args[i], out, seen);
        }
    }
}

/// `t` with every occurrence of `from` replaced by `to`, descending through applications only
/// (a binder could capture a name of `to`).
fn replace(p: &mut Parsed, t: TermId, from: TermId, to: TermId, memo: &mut HashMap<TermId, TermId>) -> TermId {
    if t == from {
        return to;
    }
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let r = match p.arena.as_app(t) {
        Some((h, args)) => {
            let (h, args) = (h.to_string(), args.to_vec());
            let new: Vec<TermId> = args.iter().map(|&a| replace(p, a, from, to, memo)).collect();
            if new == args {
                t
            } else {
                p.arena.app(&h, new)
            }
        }
        None => t,
    };
    memo.insert(t, r);
    r
}

/// The smaller formulas that may stand for `s`, most aggressive first: the constants, the
/// Boolean children, a double negation's operand, and an `and`/`or` without one argument. With `v` (the value of `s` under
/// M, for a case satisfiable by construction) only those known to have that value.
fn replacements(p: &mut Parsed, known: &HashMap<TermId, bool>, s: TermId, v: Option<bool>) -> Vec<TermId> {
    let val = |p: &Parsed, t: TermId| known.get(&t).copied().or_else(|| eval::truth(&p.arena, &p.env, t));
    let keeps = |got: Option<bool>| v.is_none() || got == v;
    let mut out = Vec::new();
    for c in [true, false] {
        if keeps(Some(c)) {
            out.push(p.arena.atom(if c { "true" } else { "false" }));
        }
    }
    let Some((h, args)) = p.arena.as_app(s) else { return out };
    let (h, args) = (h.to_string(), args.to_vec());
    let bool_kids: Vec<TermId> = boolean_args(&h, args.len()).map(|i| args[i]).collect();
    out.extend(bool_kids.iter().copied().filter(|&c| keeps(val(p, c))));
    // `(not (not y))` is `y` whatever M says: the one step that keeps the answer of every
    // oracle (a child alone flips it).
    if let (Some(("not", [c])), "not") = (p.arena.as_app(s).and_then(|(_, a)| p.arena.as_app(*a.first()?)), h.as_str())
    {
        out.push(*c);
    }
    if matches!(h.as_str(), "and" | "or") && args.len() >= 3 {
        for i in 0..args.len() {
            let rest: Vec<TermId> = args.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &a)| a).collect();
            let vals: Option<Vec<bool>> = rest.iter().map(|&a| val(p, a)).collect();
            let got = vals.map(|vs| if h == "and" { vs.iter().all(|&b| b) } else { vs.iter().any(|&b| b) });
            if keeps(got) {
                out.push(p.arena.app(&h, rest));
            }
        }
    }
    out.retain(|&r| r != s);
    out
}

/// Replacements of sub-formulas of the case's assertions: the largest sub-formulas first
/// (they cut most), each with its replacements in order.
fn subterm_steps(case: &SmtCase, p: &mut Parsed, known: &HashMap<TermId, bool>) -> Vec<Vec<String>> {
    let storm = case.sat_by_construction;
    let texts: Vec<String> = case.asserts().cloned().collect();
    let mut sites: Vec<(usize, TermId)> = Vec::new();
    for (i, &a) in p.asserts.clone().iter().enumerate() {
        let mut subs = Vec::new();
        subformulas(p, a, &mut subs, &mut HashSet::new());
        sites.extend(subs.into_iter().map(|s| (i, s)));
    }
    // Stable: equal sizes keep the assertions' order and parents before children.
    sites.sort_by_key(|&(_, s)| std::cmp::Reverse(p.arena.size(s)));
    let mut out = Vec::new();
    for (i, s) in sites {
        let v = if storm {
            match known.get(&s).copied().or_else(|| eval::truth(&p.arena, &p.env, s)) {
                Some(v) => Some(v),
                None => continue,
            }
        } else {
            None
        };
        for r in replacements(p, known, s, v) {
            let new = replace(p, p.asserts[i], s, r, &mut HashMap::new());
            let mut a = texts.clone();
            a[i] = p.arena.to_text(new);
            out.push(a);
        }
    }
    out
}

/// The phase's candidates in ddmin order, each with its position in the list.
pub fn candidates(case: &SmtCase, p: &mut Parsed, known: &HashMap<TermId, bool>) -> Vec<SmtCase> {
    let texts: Vec<String> = case.asserts().cloned().collect();
    let mut out: Vec<SmtCase> =
        crosscheck_core::reduce::cuts(&texts, 1).into_iter().map(|a| with_asserts(case, a, case.index)).collect();
    out.extend(setting_steps(case));
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    for a in subterm_steps(case, p, known) {
        if seen.insert(a.clone()) {
            out.push(with_asserts(case, a, case.index));
        }
    }
    out
}

/// The assertions without push/pop, the case without its tactic or its options.
pub fn setting_steps(case: &SmtCase) -> Vec<SmtCase> {
    let mut out = Vec::new();
    if case.steps.iter().any(|s| matches!(s, Step::Push(_) | Step::Pop(_))) {
        let mut c = case.clone();
        c.steps = case.asserts().cloned().map(Step::Assert).chain([Step::CheckSat]).collect();
        c.incremental = false;
        out.push(c);
    }
    if case.tactic.is_some() {
        out.push(SmtCase { tactic: None, ..case.clone() });
    }
    if !case.options.is_empty() {
        out.push(SmtCase { options: Default::default(), ..case.clone() });
    }
    out
}

/// `items` from position `at` on, then the ones before it, each with its own position.
pub fn rotated<T>(items: Vec<T>, at: u32) -> Vec<(u32, T)> {
    let n = items.len();
    let at = (at as usize).min(n);
    let mut numbered: Vec<(u32, T)> =
        items.into_iter().enumerate().map(|(i, c)| (u32::try_from(i).unwrap_or(u32::MAX), c)).collect();
    numbered.rotate_left(at);
    numbered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Env;
    use crate::minimize::MinState;
    use crate::shrink::{shrink_iter, size};
    use crate::storm::Params;
    use crate::term::Arena;
    use std::time::{Duration, Instant};

    const M: &str = "(define-fun x () Int 3)\n(define-fun y () Int (- 1))";

    /// Assertions all true under M = {x = 3, y = -1}.
    const TRUE: [&str; 8] = [
        "(and (> x 2) (or (< y 0) (= y x)))",
        "(not (= x 5))",
        "(not (and (= y x) (> x 2)))",
        "(and (not (= y x)) (and (> x 0) (not (and (< x 0) (< y 0)))))",
        "(or (= x 3) (= y 7))",
        "(and (and (< y 0) (> x 1)) (not (not (> x 2))))",
        "(=> (> y 0) (and (= x 4) (< y x) (> x 0)))",
        "(ite (< x y) (= y 9) (or (> x y) (= x 0) (< x 0)))",
    ];

    fn case(asserts: &[&str], sat_by_construction: bool) -> SmtCase {
        SmtCase {
            seed: "known.smt2".into(),
            logic: Some("QF_LIA".into()),
            decls: vec!["(declare-fun x () Int)".into(), "(declare-fun y () Int)".into()],
            steps: asserts.iter().map(|a| Step::Assert(a.to_string())).chain([Step::CheckSat]).collect(),
            tactic: Some("(then simplify smt)".into()),
            model: M.into(),
            model_source: "test".into(),
            sat_by_construction,
            get_model: false,
            options: Default::default(),
            params: Params::default(),
            incremental: false,
            index: 3,
            min: None,
            pending: None,
            derived: None,
        }
    }

    fn all_true_under_m(c: &SmtCase) -> bool {
        let mut arena = Arena::new();
        let mut env = Env::default();
        env.add_model(&mut arena, M).expect("model");
        c.asserts().all(|a| {
            let t = arena.parse_term(a).expect("term");
            eval::truth(&arena, &env, t) == Some(true)
        })
    }

    fn reduce(
        start: SmtCase,
        mut bug: impl FnMut(&SmtCase) -> bool,
    ) -> (SmtCase, crosscheck_core::reduce::ReduceStats) {
        crosscheck_core::reduce::reduce(start, shrink_iter, size, &mut bug, Instant::now() + Duration::from_secs(60))
    }

    #[test]
    fn ddmin_keeps_exactly_the_two_assertions_the_bug_needs() {
        // The bug needs assertions 2 and 6 verbatim: the result is exactly those, in order.
        let (k, j) = (TRUE[2], TRUE[6]);
        let needs = |c: &SmtCase| c.asserts().any(|a| a == k) && c.asserts().any(|a| a == j);
        let (small, stats) = reduce(case(&TRUE, true), needs);
        let got: Vec<&str> = small.asserts().map(String::as_str).collect();
        assert_eq!(got, vec![k, j]);
        assert_eq!(small.tactic, None, "the tactic is not needed either");
        assert!(!stats.timed_out);
    }

    #[test]
    fn subformula_steps_reach_the_atom_and_every_step_stays_true_under_m() {
        // The bug needs the atom `(< y 0)` somewhere: the reduction ends at that atom alone,
        // and no candidate the oracle is asked about has an assertion false (or unknown)
        // under M.
        let mut asked = 0;
        let (small, stats) = reduce(case(&TRUE, true), |c| {
            asked += 1;
            assert!(all_true_under_m(c), "{:?}", c.asserts().collect::<Vec<_>>());
            c.asserts().any(|a| a.contains("(< y 0)"))
        });
        assert_eq!(small.asserts().collect::<Vec<_>>(), vec!["(< y 0)"]);
        assert!(asked > 10 && !stats.timed_out, "{stats:?}");
        assert!(stats.size_after * 5 <= stats.size_before, "{stats:?}");
    }

    #[test]
    fn replacements_keep_the_value_under_m_unless_the_oracle_does_not_need_it() {
        // `(or (< y 0) (= y x))` is true with only its first argument true: for a case
        // satisfiable by construction it can become `true` or `(< y 0)` (and its false
        // argument `false`), never `false` or `(= y x)`; for a differential case all are
        // candidates.
        let storm = case(&[TRUE[0]], true);
        let free = case(&[TRUE[0]], false);
        let texts = |c: &SmtCase| -> Vec<String> {
            let mut p = crate::shrink::parse(c).expect("parses");
            let known = crate::shrink::valuations(&p).into_iter().collect();
            subterm_steps(c, &mut p, &known).into_iter().map(|a| a.join(" ")).collect()
        };
        let s = texts(&storm);
        assert!(s.contains(&"(and (> x 2) (< y 0))".to_string()), "{s:?}");
        assert!(s.contains(&"(and (> x 2) true)".to_string()), "{s:?}");
        assert!(s.contains(&"(and (> x 2) (or (< y 0) false))".to_string()), "{s:?}");
        let wrong = ["false", "(and (> x 2) false)", "(and (> x 2) (= y x))", "(and (> x 2) (or false (= y x)))"];
        assert!(!s.iter().any(|t| wrong.contains(&t.as_str())), "{s:?}");
        // A double negation goes for every oracle.
        let neg = texts(&case(&["(not (not (not (< y 0))))"], false));
        assert!(neg.contains(&"(not (< y 0))".to_string()), "{neg:?}");
        let f = texts(&free);
        assert!(f.contains(&"(and (> x 2) false)".to_string()), "{f:?}");
        assert!(f.contains(&"(and (> x 2) (= y x))".to_string()), "{f:?}");
    }

    #[test]
    fn the_phase_continues_where_its_last_step_was_and_stored_states_still_read() {
        let c = SmtCase { min: Some(MinState::Ddmin { at: 5 }), ..case(&TRUE, true) };
        let cands = crate::shrink::shrink(&c);
        assert_eq!(cands[0].min, Some(MinState::Ddmin { at: 5 }));
        assert!(cands.iter().any(|x| x.min == Some(MinState::Ddmin { at: 0 })), "it wraps around");
        // STORM's rounds follow one whole turn of the fast phase.
        let turn = cands.iter().take_while(|x| matches!(x.min, Some(MinState::Ddmin { .. }))).count();
        assert!(matches!(cands.get(turn).and_then(|x| x.min), Some(MinState::Depth { .. })));
        // States written before the fast phase existed.
        let old: MinState = serde_json::from_str(r#"{"phase":"syntax"}"#).expect("syntax");
        assert_eq!(old, MinState::Syntax { at: 0 });
        let old: MinState = serde_json::from_str(r#"{"phase":"depth","lo":0,"hi":32,"amax":19}"#).expect("depth");
        assert_eq!(old, MinState::Depth { lo: 0, hi: 32, amax: 19 });
    }
}
