//! The reference evaluator: stratified, semi-naive bottom-up evaluation of the program model.
//! Written for clarity over speed: it is an oracle, so it must be obviously right.
//!
//! Semantics: set semantics for relations; Soufflé's semantics for aggregates (a correlated
//! sub-query over the distinct bindings of the aggregate body; `count`/`sum` of nothing is 0,
//! `min`/`max` of nothing makes the rule fail); 64-bit integers, overflow is an error.

use crate::analysis::{plan_body, strata};
use crate::ast::{AggFn, ArOp, Atom, CmpOp, Literal, Program, Rule, Term, Val};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

pub type Tuple = Vec<Val>;
pub type Db = HashMap<String, HashSet<Tuple>>;
type Binding = HashMap<String, Val>;

/// Limits that keep a generated Cartesian product from eating the machine.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_tuples: usize,
    pub max_steps: u64,
    /// When to give up with [`TIMED_OUT`]: the step limit counts rule bodies entered, not the
    /// tuples scanned to enter them, so a wide join can stay under it for minutes.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_tuples: 200_000, max_steps: 20_000_000, deadline: None }
    }
}

/// The error of an evaluation that passed its deadline.
pub const TIMED_OUT: &str = "evaluation exceeds the time limit";

/// Which evaluation strategy to use; both must give the same result (the `config` oracle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    SemiNaive,
    Naive,
}

struct Ctx {
    limits: Limits,
    steps: u64,
}

/// Evaluates `p` to its least stratified model.
pub fn evaluate(p: &Program, limits: Limits, strategy: Strategy) -> Result<Db, String> {
    let mut db: Db = HashMap::new();
    for d in &p.decls {
        db.entry(d.name.clone()).or_default();
    }
    for f in p.facts.iter() {
        db.entry(f.rel.clone()).or_default().insert(f.vals.clone());
    }
    let mut ctx = Ctx { limits, steps: 0 };
    for comp in strata(p)? {
        let set: HashSet<&str> = comp.iter().map(String::as_str).collect();
        let rules: Vec<(&Rule, Vec<usize>)> = p
            .rules
            .iter()
            .filter(|r| set.contains(r.head.rel.as_str()))
            .map(|r| crate::analysis::plan(r).map(|o| (r, o)))
            .collect::<Result<_, _>>()?;
        if rules.is_empty() {
            continue;
        }
        // First round: every rule on the full relations.
        let mut delta: Db = HashMap::new();
        for (r, order) in &rules {
            for t in fire(&mut ctx, &db, None, r, order)? {
                if !db.get(&r.head.rel).is_some_and(|s| s.contains(&t)) {
                    delta.entry(r.head.rel.clone()).or_default().insert(t);
                }
            }
        }
        let recursive = rules.iter().any(|(r, _)| r.deps().iter().any(|(d, _)| set.contains(d)));
        loop {
            let mut added = 0;
            for (rel, ts) in &delta {
                let e = db.entry(rel.clone()).or_default();
                for t in ts {
                    added += e.insert(t.clone()) as usize;
                }
            }
            if db.values().map(HashSet::len).sum::<usize>() > ctx.limits.max_tuples {
                return Err("evaluation exceeds the tuple limit".into());
            }
            if added == 0 || !recursive {
                break;
            }
            let mut next: Db = HashMap::new();
            for (r, order) in &rules {
                let produced = match strategy {
                    Strategy::Naive => fire(&mut ctx, &db, None, r, order)?,
                    Strategy::SemiNaive => {
                        // One pass per recursive atom, reading only the last round's new tuples
                        // there: every new derivation uses at least one new tuple.
                        let mut out = Vec::new();
                        for (i, l) in r.body.iter().enumerate() {
                            if let Literal::Pos(a) = l {
                                if set.contains(a.rel.as_str()) && delta.contains_key(&a.rel) {
                                    out.extend(fire(&mut ctx, &db, Some((i, &delta)), r, order)?);
                                }
                            }
                        }
                        out
                    }
                };
                for t in produced {
                    if !db.get(&r.head.rel).is_some_and(|s| s.contains(&t)) {
                        next.entry(r.head.rel.clone()).or_default().insert(t);
                    }
                }
            }
            delta = next;
        }
    }
    Ok(db)
}

/// All head tuples of `r`; with `delta = Some((i, d))`, body literal `i` reads `d`.
fn fire(ctx: &mut Ctx, db: &Db, delta: Option<(usize, &Db)>, r: &Rule, order: &[usize]) -> Result<Vec<Tuple>, String> {
    let mut out = Vec::new();
    let mut emit = |b: &Binding| -> Result<(), String> {
        let t: Option<Tuple> = r.head.args.iter().map(|t| eval_term(t, b).ok().flatten()).collect();
        out.push(t.ok_or("ungrounded head")?);
        Ok(())
    };
    solve(ctx, db, delta, &r.body, order, 0, &mut HashMap::new(), &mut emit)?;
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn solve(
    ctx: &mut Ctx,
    db: &Db,
    delta: Option<(usize, &Db)>,
    body: &[Literal],
    order: &[usize],
    k: usize,
    b: &mut Binding,
    emit: &mut dyn FnMut(&Binding) -> Result<(), String>,
) -> Result<(), String> {
    ctx.steps += 1;
    if ctx.steps > ctx.limits.max_steps {
        return Err("evaluation exceeds the step limit".into());
    }
    if ctx.steps.is_multiple_of(1024) && ctx.limits.deadline.is_some_and(|d| Instant::now() > d) {
        return Err(TIMED_OUT.into());
    }
    let Some(&i) = order.get(k) else { return emit(b) };
    match &body[i] {
        Literal::Pos(a) => {
            let src = match delta {
                Some((j, d)) if j == i => d,
                _ => db,
            };
            let Some(tuples) = src.get(&a.rel) else { return Ok(()) };
            for t in tuples {
                let mut newly = Vec::new();
                if unify(a, t, b, &mut newly)? {
                    solve(ctx, db, delta, body, order, k + 1, b, emit)?;
                }
                for v in newly {
                    b.remove(&v);
                }
            }
            Ok(())
        }
        Literal::Neg(a) => {
            if matches_any(db, a, b)? {
                Ok(())
            } else {
                solve(ctx, db, delta, body, order, k + 1, b, emit)
            }
        }
        Literal::Cmp(op, x, y) => {
            let (vx, vy) = (eval_term(x, b)?, eval_term(y, b)?);
            match (vx, vy) {
                (Some(vx), Some(vy)) => {
                    if compare(*op, &vx, &vy) {
                        solve(ctx, db, delta, body, order, k + 1, b, emit)?;
                    }
                    Ok(())
                }
                (None, Some(v)) | (Some(v), None) if *op == CmpOp::Eq => {
                    let var = match (x, y) {
                        (Term::Var(n), _) if !b.contains_key(n) => n.clone(),
                        (_, Term::Var(n)) => n.clone(),
                        _ => return Err("bad assignment".into()),
                    };
                    b.insert(var.clone(), v);
                    let r = solve(ctx, db, delta, body, order, k + 1, b, emit);
                    b.remove(&var);
                    r
                }
                _ => Err("comparison of unbound variables".into()),
            }
        }
        Literal::Agg { result, func, value, body: inner } => {
            let Some(r) = aggregate(ctx, db, b, *func, value.as_ref(), inner)? else { return Ok(()) };
            match b.get(result) {
                Some(v) if *v != Val::Num(r) => Ok(()),
                Some(_) => solve(ctx, db, delta, body, order, k + 1, b, emit),
                None => {
                    b.insert(result.clone(), Val::Num(r));
                    let out = solve(ctx, db, delta, body, order, k + 1, b, emit);
                    b.remove(result);
                    out
                }
            }
        }
    }
}

/// Matches atom `a` against tuple `t`, binding unbound variables (recorded in `newly`).
/// Whether some tuple of `a`'s relation matches `a` under `b` (which it leaves unchanged).
fn matches_any(db: &Db, a: &Atom, b: &mut Binding) -> Result<bool, String> {
    let empty = HashSet::new();
    let tuples = db.get(&a.rel).unwrap_or(&empty);
    for t in tuples {
        let mut newly = Vec::new();
        let m = unify(a, t, b, &mut newly)?;
        for v in newly {
            b.remove(&v);
        }
        if m {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The value of an aggregate under `b`, or `None` for a min or max over nothing.
fn aggregate(
    ctx: &mut Ctx,
    db: &Db,
    b: &Binding,
    func: AggFn,
    value: Option<&Term>,
    inner: &[Literal],
) -> Result<Option<i64>, String> {
    let bound: Vec<&str> = b.keys().map(String::as_str).collect();
    let vt: Vec<Term> = value.cloned().into_iter().collect();
    let inner = &wild_as_vars(inner);
    let inner_order = plan_body(inner, &bound, &vt, &[])?;
    let mut seen: HashSet<Vec<(String, Val)>> = HashSet::new();
    let mut vals: Vec<Val> = Vec::new();
    let outer: Binding = b.clone();
    let mut collect = |ib: &Binding| -> Result<(), String> {
        let mut local: Vec<(String, Val)> =
            ib.iter().filter(|(k, _)| !outer.contains_key(*k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        local.sort();
        if seen.insert(local) {
            if let Some(v) = value {
                vals.push(eval_term(v, ib)?.ok_or("ungrounded aggregate value")?);
            } else {
                vals.push(Val::Num(1));
            }
        }
        Ok(())
    };
    let mut ib = b.clone();
    solve(ctx, db, None, inner, &inner_order, 0, &mut ib, &mut collect)?;
    let nums = || vals.iter().map(|v| if let Val::Num(n) = v { Ok(*n) } else { Err("aggregate over symbols") });
    Ok(match func {
        AggFn::Count => Some(vals.len() as i64),
        AggFn::Sum => Some(nums().try_fold(0i64, |a, n| n.and_then(|n| a.checked_add(n).ok_or("overflow")))?),
        AggFn::Min => nums().collect::<Result<Vec<_>, _>>()?.into_iter().min(),
        AggFn::Max => nums().collect::<Result<Vec<_>, _>>()?.into_iter().max(),
    })
}

/// Soufflé counts the tuples of the sub-query, so a wildcard in a positive atom
/// distinguishes bindings like a named local variable would.
fn wild_as_vars(inner: &[Literal]) -> Vec<Literal> {
    let mut n = 0;
    inner
        .iter()
        .map(|l| match l {
            Literal::Pos(a) => Literal::Pos(Atom {
                rel: a.rel.clone(),
                args: a
                    .args
                    .iter()
                    .map(|t| match t {
                        Term::Wild => {
                            n += 1;
                            Term::Var(format!(" w{n}"))
                        }
                        other => other.clone(),
                    })
                    .collect(),
            }),
            other => other.clone(),
        })
        .collect()
}

fn unify(a: &Atom, t: &Tuple, b: &mut Binding, newly: &mut Vec<String>) -> Result<bool, String> {
    for (arg, v) in a.args.iter().zip(t) {
        match arg {
            Term::Wild => {}
            Term::Var(n) => match b.get(n) {
                Some(x) if x != v => return Ok(false),
                Some(_) => {}
                None => {
                    b.insert(n.clone(), v.clone());
                    newly.push(n.clone());
                }
            },
            other => {
                if eval_term(other, b)?.as_ref() != Some(v) {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

/// The value of a term, `None` if it has an unbound variable.
pub fn eval_term(t: &Term, b: &Binding) -> Result<Option<Val>, String> {
    Ok(match t {
        Term::Var(n) => b.get(n).cloned(),
        Term::Const(c) => Some(c.clone()),
        Term::Wild => None,
        Term::Bin(op, x, y) => match (eval_term(x, b)?, eval_term(y, b)?) {
            (Some(Val::Num(x)), Some(Val::Num(y))) => Some(Val::Num(
                match op {
                    ArOp::Add => x.checked_add(y),
                    ArOp::Sub => x.checked_sub(y),
                    ArOp::Mul => x.checked_mul(y),
                }
                .ok_or("arithmetic overflow")?,
            )),
            (Some(_), Some(_)) => return Err("arithmetic on symbols".into()),
            _ => None,
        },
    })
}

pub fn compare(op: CmpOp, x: &Val, y: &Val) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// The tuples of one relation, sorted.
pub fn relation(db: &Db, rel: &str) -> Vec<Tuple> {
    let mut v: Vec<Tuple> = db.get(rel).map(|s| s.iter().cloned().collect()).unwrap_or_default();
    v.sort();
    v
}
