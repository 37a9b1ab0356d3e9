//! queryFuzz's metamorphic transformations (Alg. 1–3 and NegEq, as the repository implements
//! them), the oracle-preserving sequences, and the lifting to whole programs: Exp and Con only
//! touch rules whose results never flow into a negation or an aggregate.

use crate::analysis::{features_with, monotone_downstream, plan, validate, validate_graph};
use crate::ast::{Atom, Literal, Program, RelDecl, Rule, Term, Type};
use crate::gen::fresh_name;
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The relation an oracle expects between the original output O and the transformed one O'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Expect {
    /// O' = O.
    Equal,
    /// O ⊆ O'.
    Expand,
    /// O' ⊆ O.
    Contract,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Equal => "EQU",
            Expect::Expand => "EXP",
            Expect::Contract => "CON",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    AddEq,
    AddCon,
    ModExp,
    ModEq,
    ModCon,
    RemExp,
    RemEq,
    NegEq,
}

impl Step {
    pub fn name(self) -> &'static str {
        match self {
            Step::AddEq => "AddEq",
            Step::AddCon => "AddCon",
            Step::ModExp => "ModExp",
            Step::ModEq => "ModEq",
            Step::ModCon => "ModCon",
            Step::RemExp => "RemExp",
            Step::RemEq => "RemEq",
            Step::NegEq => "NegEq",
        }
    }
}

/// The micro-steps each oracle may draw from (manager.py): Eq steps twice, then its own.
pub fn pool(e: Expect) -> &'static [Step] {
    use Step::*;
    match e {
        Expect::Equal => &[AddEq, ModEq, RemEq],
        Expect::Expand => &[AddEq, ModEq, RemEq, AddEq, ModEq, RemEq, ModExp, RemExp],
        Expect::Contract => &[AddEq, ModEq, RemEq, AddEq, ModEq, RemEq, AddCon, ModCon],
    }
}

/// A transformed program and how it relates to the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transformed {
    pub program: Program,
    pub expect: Expect,
    /// The rule transformed (index in the original) and the steps applied, for the log.
    pub rule: usize,
    pub steps: Vec<String>,
}

fn positive(r: &Rule) -> Vec<usize> {
    r.body.iter().enumerate().filter(|(_, l)| matches!(l, Literal::Pos(_))).map(|(i, _)| i).collect()
}

/// Every variable of the rule, borrowed (head first, each once).
fn used(r: &Rule) -> Vec<&str> {
    let mut all = Vec::with_capacity(8);
    r.head.args.iter().for_each(|t| t.vars(&mut all));
    r.body.iter().for_each(|l| l.vars(&mut all));
    let mut out: Vec<&str> = Vec::with_capacity(all.len());
    for v in all {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// A variable that is neither in `u` nor among the ones just made (`new`).
fn fresh(u: &[&str], new: &[String]) -> String {
    fresh_name(|n| u.contains(&n) || new.iter().any(|x| x == n))
}

fn safe(p: &Program, r: &Rule) -> bool {
    plan(r).is_ok() && {
        // Type consistency: every variable keeps one type across atom positions.
        let mut types: BTreeMap<&str, Type> = BTreeMap::new();
        let mut ok = true;
        for a in std::iter::once(&r.head).chain(r.body.iter().filter_map(Literal::atom)) {
            for (t, ty) in a.args.iter().zip(p.cols(&a.rel)) {
                if let Term::Var(v) = t {
                    ok &= *types.entry(v).or_insert(*ty) == *ty;
                }
            }
        }
        ok
    }
}

/// AddEq: a copy of a positive subgoal with, per argument, a coin flip to a fresh variable.
pub fn add_eq<R: Rng>(rng: &mut R, r: &Rule) -> Option<Rule> {
    let &i = positive(r).choose(rng)?;
    let Literal::Pos(g) = &r.body[i] else { return None };
    let mut g = g.clone();
    let u = used(r);
    let mut new: Vec<String> = Vec::new();
    for t in g.args.iter_mut() {
        if rng.gen_bool(0.5) {
            let v = fresh(&u, &new);
            new.push(v.clone());
            *t = Term::Var(v);
        }
    }
    let mut q = r.clone();
    q.body.push(Literal::Pos(g));
    Some(q)
}

/// AddCon: a subgoal over any relation whose arguments are the rule's variables of the same
/// type (fresh only where the rule has none), unless it is already in the body.
pub fn add_con<R: Rng>(rng: &mut R, p: &Program, r: &Rule) -> Option<Rule> {
    let d = p.decls.choose(rng)?;
    let types = p.var_types(r);
    let mut by_type: BTreeMap<Type, Vec<&String>> = BTreeMap::new();
    for l in &r.body {
        if let Literal::Pos(a) = l {
            for t in &a.args {
                if let Term::Var(v) = t {
                    if let Some(ty) = types.get(v) {
                        by_type.entry(*ty).or_default().push(v);
                    }
                }
            }
        }
    }
    let u = used(r);
    let mut new: Vec<String> = Vec::new();
    let mut args = Vec::new();
    for ty in &d.cols {
        match by_type.get(ty).and_then(|vs| vs.choose(rng)) {
            Some(v) => args.push(Term::Var((*v).clone())),
            None => {
                let v = fresh(&u, &new);
                new.push(v.clone());
                args.push(Term::Var(v));
            }
        }
    }
    let g = Literal::Pos(Atom { rel: d.name.clone(), args });
    if r.body.contains(&g) {
        return None;
    }
    let mut q = r.clone();
    q.body.push(g);
    Some(q)
}

/// ModExp: one occurrence of a variable used more than once in the positive subgoals becomes
/// a fresh variable (a join is removed).
pub fn mod_exp<R: Rng>(rng: &mut R, r: &Rule) -> Option<Rule> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in &positive(r) {
        if let Literal::Pos(a) = &r.body[i] {
            for t in &a.args {
                if let Term::Var(v) = t {
                    *count.entry(v).or_default() += 1;
                }
            }
        }
    }
    let reused: Vec<&str> = count.into_iter().filter(|(_, c)| *c > 1).map(|(v, _)| v).collect();
    let v = reused.choose(rng)?.to_string();
    let holders: Vec<usize> = positive(r)
        .into_iter()
        .filter(
            |&i| matches!(&r.body[i], Literal::Pos(a) if a.args.iter().any(|t| matches!(t, Term::Var(x) if *x == v))),
        )
        .collect();
    let &i = holders.choose(rng)?;
    let fresh = fresh(&used(r), &[]);
    let mut q = r.clone();
    if let Literal::Pos(a) = &mut q.body[i] {
        let spots: Vec<usize> =
            a.args.iter().enumerate().filter(|(_, t)| matches!(t, Term::Var(x) if *x == v)).map(|(j, _)| j).collect();
        let &j = spots.choose(rng)?;
        a.args[j] = Term::Var(fresh);
    }
    Some(q)
}

/// ModEq: every occurrence of a variable renamed to a fresh one.
pub fn mod_eq<R: Rng>(rng: &mut R, r: &Rule) -> Option<Rule> {
    let vars = used(r);
    let v = vars.choose(rng)?;
    let fresh = fresh(&vars, &[]);
    let mut q = r.clone();
    q.rename(v, &fresh);
    Some(q)
}

/// ModCon: in the first type (sorted) with two variables, every occurrence of one variable
/// (head included) becomes another (a join is added).
pub fn mod_con<R: Rng>(rng: &mut R, p: &Program, r: &Rule) -> Option<Rule> {
    let mut by_type: BTreeMap<Type, Vec<String>> = BTreeMap::new();
    for (v, t) in p.var_types(r) {
        by_type.entry(t).or_default().push(v);
    }
    let vs = by_type.into_values().find(|vs| vs.len() >= 2)?;
    let v = vs.choose(rng)?.clone();
    let others: Vec<&String> = vs.iter().filter(|w| **w != v).collect();
    let w = (*others.choose(rng)?).clone();
    let mut q = r.clone();
    q.rename(&v, &w);
    Some(q)
}

/// RemExp: a positive subgoal removed, when at least two exist (the repository's version).
pub fn rem_exp<R: Rng>(rng: &mut R, r: &Rule) -> Option<Rule> {
    without_subgoal(rng, r).map(|(q, _)| q)
}

/// RemEq: a positive subgoal removed when EXISTSCONTAINMENT finds the mapping back.
pub fn rem_eq<R: Rng>(rng: &mut R, r: &Rule) -> Option<Rule> {
    let (q, g) = without_subgoal(rng, r)?;
    exists_containment(r, &q, &g).then_some(q)
}

/// `r` without one of its positive subgoals, drawn at random, and that subgoal; none when
/// `r` has fewer than two.
fn without_subgoal<R: Rng>(rng: &mut R, r: &Rule) -> Option<(Rule, Atom)> {
    let pos = positive(r);
    if pos.len() < 2 {
        return None;
    }
    let &i = pos.choose(rng)?;
    let mut q = r.clone();
    let Literal::Pos(g) = q.body.remove(i) else { return None };
    Some((q, g))
}

/// Alg. 3: whether removed subgoal `g` of `q` maps onto a positive subgoal of `q2`, with the
/// variables only `g` had (rmVars) as wildcards bound consistently (back-references) and
/// every other variable mapped to itself.
pub fn exists_containment(q: &Rule, q2: &Rule, g: &Atom) -> bool {
    let kept = used(q2);
    let rm: Vec<&str> = used(q).into_iter().filter(|v| !kept.contains(v)).collect();
    q2.body.iter().any(|l| {
        let Literal::Pos(h) = l else { return false };
        if h.rel != g.rel || h.args.len() != g.args.len() {
            return false;
        }
        let mut capture: BTreeMap<&str, &Term> = BTreeMap::new();
        g.args.iter().zip(&h.args).all(|(a, b)| match a {
            Term::Var(v) if rm.contains(&v.as_str()) => match capture.get(v.as_str()) {
                Some(prev) => *prev == b,
                None => {
                    capture.insert(v, b);
                    true
                }
            },
            Term::Wild => true,
            other => other == b,
        })
    })
}

/// NegEq: subgoal g of rule r becomes `!neg(vars(g))` with `neg(vars(g)) :- rest, !g`.
pub fn neg_eq<R: Rng>(rng: &mut R, p: &Program, ri: usize, name: &str) -> Option<Program> {
    let r = &p.rules[ri];
    let pos = positive(r);
    let candidates: Vec<usize> = pos
        .iter()
        .copied()
        .filter(|&i| {
            let Literal::Pos(g) = &r.body[i] else { return false };
            let mut gv = Vec::new();
            g.args.iter().for_each(|t| t.vars(&mut gv));
            let mut rest = Vec::new();
            pos.iter().filter(|&&j| j != i).for_each(|&j| r.body[j].vars(&mut rest));
            !gv.is_empty() && gv.iter().all(|v| rest.contains(v)) && !g.args.iter().any(|t| matches!(t, Term::Wild))
        })
        .collect();
    let &i = candidates.choose(rng)?;
    let Literal::Pos(g) = &r.body[i] else { return None };
    let mut vars = Vec::new();
    g.args.iter().for_each(|t| t.vars(&mut vars));
    let mut seen = BTreeSet::new();
    let vars: Vec<String> = vars.into_iter().filter(|v| seen.insert(*v)).map(str::to_string).collect();
    let types = p.var_types(r);
    let cols: Option<Vec<Type>> = vars.iter().map(|v| types.get(v).copied()).collect();
    let neg_atom = Atom { rel: name.to_string(), args: vars.iter().map(|v| Term::Var(v.clone())).collect() };
    let mut rest = r.body.clone();
    let g = rest.remove(i);
    let Literal::Pos(g) = g else { return None };
    let mut neg_body = rest.clone();
    neg_body.push(Literal::Neg(g));
    let mut q = r.clone();
    q.body[i] = Literal::Neg(neg_atom.clone());
    let mut out = p.clone();
    out.decls.push(RelDecl { name: name.to_string(), cols: cols? });
    out.rules[ri] = q;
    out.rules.push(Rule { head: neg_atom, body: neg_body });
    Some(out)
}

/// What the transformations need to know about a source program, computed once for the
/// whole batch of transformations drawn from it (queryFuzz draws ten per program).
pub struct Prepared {
    /// Relations whose results can reach a negation or an aggregate.
    nonmonotone: std::collections::HashSet<String>,
    /// Per rule: whether it reads a relation that depends on its own head.
    recursive: Vec<bool>,
    /// Whether the program itself is valid: then a program that differs in one rule needs
    /// only that rule and the stratification checked.
    valid: bool,
}

impl Prepared {
    pub fn new(p: &Program) -> Prepared {
        // One graph for all three analyses (an invalid program still has a graph).
        let (g, valid) = match validate_graph(p) {
            Ok(g) => (g, true),
            Err(_) => (crate::analysis::DepGraph::new(p), false),
        };
        let recursive = p
            .rules
            .iter()
            .map(|r| {
                let Some(&h) = g.index.get(&r.head.rel) else { return false };
                let down = g.downstream(h);
                r.deps().iter().any(|(d, _)| g.index.get(*d).is_some_and(|&i| down[i]))
            })
            .collect();
        Prepared { nonmonotone: g.nonmonotone_upstream(), recursive, valid }
    }
}

/// Rules a transformation for `e` may touch: a positive subgoal, no aggregate, and for Exp
/// and Con nothing downstream that is non-monotone.
pub fn eligible(p: &Program, e: Expect) -> Vec<usize> {
    eligible_with(p, &Prepared::new(p), e)
}

fn eligible_with(p: &Program, prep: &Prepared, e: Expect) -> Vec<usize> {
    p.rules
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.has_agg() && !positive(r).is_empty())
        .filter(|(_, r)| e == Expect::Equal || !prep.nonmonotone.contains(&r.head.rel))
        .map(|(i, _)| i)
        .collect()
}

/// One queryFuzz transformation of `p`: an oracle, a rule, a sequence of 1..=`max_seq`
/// oracle-preserving micro-steps (or NegEq for Eq, half of the time, where negation is
/// allowed). `None` when nothing applies.
pub fn transform<R: Rng>(rng: &mut R, p: &Program, caps: &BTreeSet<String>, max_seq: usize) -> Option<Transformed> {
    transform_prepared(rng, p, &Prepared::new(p), caps, max_seq)
}

/// [`transform`] with the program's analysis already done (`prep` must come from `p`).
pub fn transform_prepared<R: Rng>(
    rng: &mut R,
    p: &Program,
    prep: &Prepared,
    caps: &BTreeSet<String>,
    max_seq: usize,
) -> Option<Transformed> {
    let expect = *[Expect::Equal, Expect::Expand, Expect::Contract].choose(rng)?;
    transform_inner(rng, p, prep, caps, max_seq, expect)
}

pub fn transform_with<R: Rng>(
    rng: &mut R,
    p: &Program,
    caps: &BTreeSet<String>,
    max_seq: usize,
    expect: Expect,
) -> Option<Transformed> {
    transform_inner(rng, p, &Prepared::new(p), caps, max_seq, expect)
}

fn transform_inner<R: Rng>(
    rng: &mut R,
    p: &Program,
    prep: &Prepared,
    caps: &BTreeSet<String>,
    max_seq: usize,
    expect: Expect,
) -> Option<Transformed> {
    let &ri = eligible_with(p, prep, expect).choose(rng)?;
    // One dependency graph serves validation, features and monotonicity of the new program.
    let checked = |q: &Program| -> Option<crate::analysis::DepGraph> {
        let g = validate_graph(q).ok()?;
        features_with(q, &g).iter().all(|f| caps.contains(*f)).then_some(g)
    };
    if expect == Expect::Equal && caps.contains("negation") && rng.gen_bool(0.5) {
        let mut names: BTreeSet<String> = p.decls.iter().map(|d| d.name.clone()).collect();
        let name = (0..).map(|i| format!("negate{i}")).find(|n| names.insert(n.clone()))?;
        let q = neg_eq(rng, p, ri, &name)?;
        checked(&q)?;
        return Some(Transformed { program: q, expect, rule: ri, steps: vec!["NegEq".into()] });
    }
    let n = rng.gen_range(1..=max_seq.max(1));
    let mut r = p.rules[ri].clone();
    let mut steps = Vec::new();
    for _ in 0..n {
        let step = *pool(expect).choose(rng)?;
        let next = match step {
            Step::AddEq => add_eq(rng, &r),
            Step::AddCon => (0..5).find_map(|_| add_con(rng, p, &r)),
            Step::ModExp => mod_exp(rng, &r),
            Step::ModEq => mod_eq(rng, &r),
            Step::ModCon => mod_con(rng, p, &r),
            Step::RemExp => rem_exp(rng, &r),
            Step::RemEq => rem_eq(rng, &r),
            Step::NegEq => None,
        };
        // A step that does not apply, or leaves the rule unsafe, is a no-op.
        if let Some(q) = next.filter(|q| safe(p, q)) {
            r = q;
            steps.push(step.name().to_string());
        }
    }
    if steps.is_empty() {
        return None;
    }
    // When the rule reads the same relations as before, the dependency graph is unchanged:
    // strata, features and monotonicity stay as they were and only the rule needs checking.
    let same_deps = {
        let (mut a, mut b) = (p.rules[ri].deps(), r.deps());
        a.sort();
        b.sort();
        let multiset = a == b;
        a.dedup();
        b.dedup();
        // A second atom of a recursive relation makes the recursion non-linear: a feature.
        multiset || (a == b && !prep.recursive[ri])
    };
    if same_deps {
        crate::analysis::check_rule(p, &r).ok()?;
        let mut q = p.clone();
        q.rules[ri] = r;
        return Some(Transformed { program: q, expect, rule: ri, steps });
    }
    let mut q = p.clone();
    q.rules[ri] = r;
    let g = if prep.valid {
        // Declarations, facts, outputs and the other rules are those of the valid `p`.
        crate::analysis::check_rule(&q, &q.rules[ri]).ok()?;
        let g = crate::analysis::DepGraph::new(&q);
        crate::analysis::check_strata(&g, &g.sccs()).ok()?;
        features_with(&q, &g).iter().all(|f| caps.contains(*f)).then_some(g)?
    } else {
        checked(&q)?
    };
    if expect != Expect::Equal && !g.monotone_downstream(&q.rules[ri].head.rel) {
        return None;
    }
    Some(Transformed { program: q, expect, rule: ri, steps })
}

/// The precondition of a (possibly reduced) pair: both programs valid, and for Exp and Con the
/// changed relations' results flow only into monotone rules, in both programs.
pub fn precondition(orig: &Program, trans: &Program, expect: Expect) -> bool {
    if validate(orig).is_err() || validate(trans).is_err() {
        return false;
    }
    if expect == Expect::Equal {
        return true;
    }
    let changed: BTreeSet<&str> =
        trans.rules.iter().filter(|r| !orig.rules.contains(r)).map(|r| r.head.rel.as_str()).collect();
    changed.iter().all(|rel| monotone_downstream(orig, rel) && monotone_downstream(trans, rel))
}
