//! Semantic fusion (yinyang; Winterer, Zhang and Su, "Validating SMT Solvers via Semantic
//! Fusion", PLDI 2020): two seeds of the same status become one formula whose status is known.
//!
//! A variable x of the first seed and y of the second (same sort) are tied to a fresh z through
//! a fusion function z = f(x, y) with inversions x = r_x(y, z), y = r_y(x, z); some occurrences
//! of x are replaced by r_x(y, z), some of y by r_y(x, z).
//! - SAT fusion: the conjunction of both. A model of each seed plus z ↦ f(x, y) is a model of
//!   the fused formula because the inversion identities hold (for `*`, only when x and y are
//!   non-zero in the seeds' models, which the reference solver's models are checked for).
//! - UNSAT fusion: the disjunction of both, with z = f(x, y) ∧ x = r_x(y, z) ∧ y = r_y(x, z):
//!   under those constraints every replaced occurrence equals the variable it replaced, so a
//!   model would satisfy one of the unsat seeds.

use crate::eval::{self, Env, Value};
use crate::script::Script;
use crate::sexp::{self, Sexp};
use crate::term::{Arena, Node, TermId};
use crosscheck_core::Verdict;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{HashMap, HashSet};

/// The theories fusion functions exist for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortClass {
    Int,
    Real,
    Bv,
    Str,
}

/// A fusion function and its inversions, as SMT-LIB templates over `x`, `y`, `z` and a random
/// literal `c`.
pub struct FusionFn {
    pub name: &'static str,
    pub sort: SortClass,
    pub f: &'static str,
    pub rx: &'static str,
    pub ry: &'static str,
    /// The inversions divide: exact only when x and y are non-zero.
    pub divides: bool,
}

const fn ff(name: &'static str, sort: SortClass, f: &'static str, rx: &'static str, ry: &'static str) -> FusionFn {
    FusionFn { name, sort, f, rx, ry, divides: false }
}

/// The fusion functions of the paper (Table 1) and of yinyang's configuration, plus `bvadd`.
pub const FUNCTIONS: &[FusionFn] = &[
    ff("int-add", SortClass::Int, "(+ x y)", "(- z y)", "(- z x)"),
    ff("int-add-c", SortClass::Int, "(+ x y c)", "(- z y c)", "(- z x c)"),
    FusionFn { divides: true, ..ff("int-mul", SortClass::Int, "(* x y)", "(div z y)", "(div z x)") },
    ff("real-add", SortClass::Real, "(+ x y)", "(- z y)", "(- z x)"),
    ff("real-add-c", SortClass::Real, "(+ x y c)", "(- z y c)", "(- z x c)"),
    FusionFn { divides: true, ..ff("real-mul", SortClass::Real, "(* x y)", "(/ z y)", "(/ z x)") },
    ff("bv-xor", SortClass::Bv, "(bvxor x y)", "(bvxor z y)", "(bvxor z x)"),
    ff("bv-add", SortClass::Bv, "(bvadd x y)", "(bvsub z y)", "(bvsub z x)"),
    ff(
        "str-concat",
        SortClass::Str,
        "(str.++ x y)",
        "(str.substr z 0 (str.len x))",
        "(str.substr z (str.len x) (str.len y))",
    ),
    ff("str-concat-replace", SortClass::Str, "(str.++ x y)", "(str.substr z 0 (str.len x))", "(str.replace z x \"\")"),
    ff(
        "str-concat-c",
        SortClass::Str,
        "(str.++ x c y)",
        "(str.substr z 0 (str.len x))",
        "(str.replace (str.replace z x \"\") c \"\")",
    ),
];

pub fn sort_class(sort: &str) -> Option<SortClass> {
    match sort {
        "Int" => Some(SortClass::Int),
        "Real" => Some(SortClass::Real),
        "String" => Some(SortClass::Str),
        s if s.starts_with("(_ BitVec ") => Some(SortClass::Bv),
        _ => None,
    }
}

/// A random literal for `c` of a template.
pub fn random_constant(rng: &mut impl Rng, sort: SortClass) -> String {
    match sort {
        SortClass::Int => Value::Int(rng.gen_range(-20..=20)).to_smtlib(),
        SortClass::Real => Value::Real(rng.gen_range(-20..=20), 1).to_smtlib(),
        SortClass::Str => {
            let n = rng.gen_range(0..=3);
            format!("\"{}\"", (0..n).map(|_| if rng.gen_bool(0.5) { 'a' } else { 'b' }).collect::<String>())
        }
        SortClass::Bv => String::new(),
    }
}

/// A template with its atoms `x`, `y`, `z`, `c` replaced by the given texts.
pub fn instantiate(template: &str, x: &str, y: &str, z: &str, c: &str) -> String {
    let map: HashMap<&str, &str> = [("x", x), ("y", y), ("z", z), ("c", c)].into_iter().collect();
    match sexp::parse_one(template) {
        Ok(s) => rename_sexp(&s, &|a| map.get(a).map(|v| v.to_string())),
        Err(_) => template.to_string(),
    }
}

/// Prints `s` with every atom that `f` maps replaced.
fn rename_sexp(s: &Sexp, f: &dyn Fn(&str) -> Option<String>) -> String {
    match s {
        Sexp::Atom(a, _) => f(a).unwrap_or_else(|| a.clone()),
        Sexp::List(l, _) => {
            let parts: Vec<String> = l.iter().map(|x| rename_sexp(x, f)).collect();
            format!("({})", parts.join(" "))
        }
    }
}

/// A seed ready for fusion: its script, its status agreed by the reference solvers, and a
/// model when it is sat.
pub struct Input<'a> {
    pub name: &'a str,
    pub script: &'a Script,
    pub status: Verdict,
    pub model: Option<&'a str>,
}

/// A fused formula.
#[derive(Debug, Clone)]
pub struct Fused {
    pub logic: Option<String>,
    pub decls: Vec<String>,
    pub asserts: Vec<String>,
    /// One line per fused pair: function, variables, fresh z.
    pub how: Vec<String>,
}

/// Whether two scripts have constants of a common sort that fusion functions exist for.
pub fn share_a_sort(a: &Script, b: &Script) -> bool {
    a.consts.iter().any(|(_, s)| sort_class(s).is_some() && b.consts.iter().any(|(_, t)| t == s))
}

/// Declarations fusion cannot rename safely (constructors and recursive definitions).
fn fusable(script: &Script) -> bool {
    script.decls().iter().all(|d| {
        !["(declare-datatype", "(define-fun-rec", "(define-funs-rec", "(define-const"].iter().any(|p| d.starts_with(p))
    })
}

/// Names a script declares or defines (functions, constants, sorts).
fn declared_names(script: &Script) -> Vec<String> {
    script.decls().iter().filter_map(|d| sexp::parse_one(d).ok()?.list()?.get(1)?.atom().map(str::to_string)).collect()
}

/// `name` made fresh with a suffix (inside the bars of a quoted symbol).
fn suffixed(name: &str, sfx: &str) -> String {
    match name.strip_prefix('|').and_then(|n| n.strip_suffix('|')) {
        Some(inner) => format!("|{inner}{sfx}|"),
        None => format!("{name}{sfx}"),
    }
}

/// Names bound by `let` or quantifiers anywhere in `roots`: variables shadowed there are not
/// fused (replacing a bound occurrence would change the formula).
fn bound_names(arena: &Arena, roots: &[TermId]) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut stack = roots.to_vec();
    let mut seen = HashSet::new();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        match arena.node(t) {
            Node::Let(bs, _) => out.extend(bs.iter().map(|(n, _)| n.clone())),
            Node::Quant(_, vars, _) => {
                out.extend(vars.split(|c: char| c == '(' || c == ')' || c.is_whitespace()).map(str::to_string))
            }
            _ => {}
        }
        stack.extend(arena.children(t));
    }
    out
}

/// `t` with each occurrence of the atom `var` replaced by `by` with probability `p` (a tree
/// walk: shared sub-terms are decided per occurrence).
pub fn substitute(arena: &mut Arena, t: TermId, var: &str, by: TermId, rng: &mut impl Rng, p: f64) -> TermId {
    let node = arena.node(t).clone();
    match node {
        Node::Atom(a) if a == var => {
            if rng.gen_bool(p) {
                by
            } else {
                t
            }
        }
        Node::Atom(_) | Node::Raw(_) => t,
        Node::App(h, args) => {
            let args = args.iter().map(|&a| substitute(arena, a, var, by, rng, p)).collect();
            arena.intern(Node::App(h, args))
        }
        Node::Let(bs, body) => {
            let bs = bs.into_iter().map(|(n, v)| (n, substitute(arena, v, var, by, rng, p))).collect();
            let body = substitute(arena, body, var, by, rng, p);
            arena.intern(Node::Let(bs, body))
        }
        Node::Quant(q, vars, body) => {
            let body = substitute(arena, body, var, by, rng, p);
            arena.intern(Node::Quant(q, vars, body))
        }
        Node::Annot(inner, attrs) => {
            let inner = substitute(arena, inner, var, by, rng, p);
            arena.intern(Node::Annot(inner, attrs))
        }
    }
}

/// The value of constant `name` in a model text, when it is a number.
fn model_value(model: &str, name: &str) -> Option<Value> {
    let mut arena = Arena::new();
    let mut env = Env::default();
    env.add_model(&mut arena, model).ok()?;
    let t = arena.atom(name);
    eval::eval(&arena, &env, t)
}

fn nonzero(v: Option<Value>) -> bool {
    matches!(v, Some(Value::Int(i)) if i != 0) || matches!(v, Some(Value::Real(n, _)) if n != 0)
}

/// A conjunction of texts (one conjunct stays as it is).
fn conj(items: &[String]) -> String {
    match items {
        [one] => one.clone(),
        _ => format!("(and {})", items.join(" ")),
    }
}

/// Trees too large for per-occurrence substitution are not fused.
const MAX_TREE: u32 = 50_000;

/// Fuses two seeds of the same decided status; `None` when they cannot be fused (no pair of
/// variables of a fusable sort, declarations that cannot be renamed, a large tree).
pub fn fuse(a: &Input<'_>, b: &Input<'_>, rng: &mut impl Rng) -> Option<Fused> {
    if a.status != b.status || a.status == Verdict::Unknown || !fusable(a.script) || !fusable(b.script) {
        return None;
    }
    let names_a: HashSet<String> = declared_names(a.script).into_iter().collect();
    let names_b = declared_names(b.script);
    let mut sfx = String::from("_2");
    while names_b.iter().any(|n| names_a.contains(&suffixed(n, &sfx))) {
        sfx.push('2');
    }
    let renamed: HashMap<String, String> = names_b.iter().map(|n| (n.clone(), suffixed(n, &sfx))).collect();
    let rename_b = |text: &str| -> Option<String> {
        let s = sexp::parse_one(text).ok()?;
        Some(rename_sexp(&s, &|x| renamed.get(x).cloned()))
    };
    let mut arena = Arena::new();
    let mut parse_all = |script: &Script, rn: &dyn Fn(&str) -> Option<String>| -> Option<Vec<TermId>> {
        script.asserts().iter().map(|&t| arena.parse_term(&rn(&script.arena.to_text(t))?).ok()).collect()
    };
    let mut asserts_a = parse_all(a.script, &|s| Some(s.to_string()))?;
    let mut asserts_b = parse_all(b.script, &rename_b)?;
    if asserts_a.iter().chain(&asserts_b).any(|&t| arena.size(t) > MAX_TREE) {
        return None;
    }
    let bound_a = bound_names(&arena, &asserts_a);
    let bound_b = bound_names(&arena, &asserts_b);
    let mut vars_a: Vec<(String, String)> =
        a.script.consts.iter().filter(|(n, s)| sort_class(s).is_some() && !bound_a.contains(n)).cloned().collect();
    let mut vars_b: Vec<(String, String, String)> = b
        .script
        .consts
        .iter()
        .filter(|(n, s)| sort_class(s).is_some() && !bound_b.contains(&renamed[n]))
        .map(|(n, s)| (renamed[n].clone(), s.clone(), n.clone()))
        .collect();
    vars_a.shuffle(rng);
    vars_b.shuffle(rng);
    let pairs = rng.gen_range(1..=3usize);
    let sat = a.status == Verdict::Sat;
    let mut decls: Vec<String> = a.script.decls();
    decls.extend(b.script.decls().iter().filter_map(|d| rename_b(d)));
    let mut constraints = Vec::new();
    let mut how = Vec::new();
    let mut nonlinear = false;
    for (x, sort) in &vars_a {
        if how.len() >= pairs {
            break;
        }
        let Some(j) = vars_b.iter().position(|(_, s, _)| s == sort) else { continue };
        let (y, _, y_orig) = vars_b.remove(j);
        let class = sort_class(sort)?;
        let exact_mul = !sat
            || (nonzero(a.model.and_then(|m| model_value(m, x)))
                && nonzero(b.model.and_then(|m| model_value(m, &y_orig))));
        let choices: Vec<&FusionFn> =
            FUNCTIONS.iter().filter(|f| f.sort == class && (!f.divides || exact_mul)).collect();
        let Some(func) = choices.choose(rng) else { continue };
        let mut z = format!("yy_z{}", how.len());
        while names_a.contains(&z) || renamed.values().any(|v| *v == z) {
            z.push('_');
        }
        let c = random_constant(rng, class);
        let rx = arena.parse_term(&instantiate(func.rx, x, &y, &z, &c)).ok()?;
        let ry = arena.parse_term(&instantiate(func.ry, x, &y, &z, &c)).ok()?;
        for t in asserts_a.iter_mut() {
            *t = substitute(&mut arena, *t, x, rx, rng, 0.5);
        }
        for t in asserts_b.iter_mut() {
            *t = substitute(&mut arena, *t, &y, ry, rng, 0.5);
        }
        decls.push(format!("(declare-fun {z} () {sort})"));
        let fxy = instantiate(func.f, x, &y, &z, &c);
        constraints.push(format!("(= {z} {fxy})"));
        constraints.push(format!("(= {x} {})", instantiate(func.rx, x, &y, &z, &c)));
        constraints.push(format!("(= {y} {})", instantiate(func.ry, x, &y, &z, &c)));
        nonlinear |= func.divides;
        how.push(format!("{}: {z} = {fxy} ({} of {}, {} of {})", func.name, x, a.name, y, b.name));
    }
    if how.is_empty() {
        return None;
    }
    let texts = |ts: &[TermId]| ts.iter().map(|&t| arena.to_text(t)).collect::<Vec<_>>();
    let (ta, tb) = (texts(&asserts_a), texts(&asserts_b));
    let asserts = if sat {
        ta.into_iter().chain(tb).collect()
    } else {
        let mut v = vec![format!("(or {} {})", conj(&ta), conj(&tb))];
        v.extend(constraints);
        v
    };
    // A product fusion leaves the linear fragment: its nonlinear counterpart, not `ALL`, in
    // which Yices refuses nonlinear terms (it decides them only under a nonlinear logic).
    let logic = match (a.script.logic(), b.script.logic()) {
        (Some(la), Some(lb)) if la == lb && nonlinear => Some(crate::opfuzz::widen_logic(la)),
        (Some(la), Some(lb)) if la == lb && !la.contains("DL") => Some(la.to_string()),
        _ => None,
    };
    Some(Fused { logic, decls, asserts, how })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// r_x(y, f(x, y)) = x and r_y(x, f(x, y)) = y on random values, by crosscheck's evaluator
    /// (integers, reals, bit-vectors; strings are checked by z3 in the leg's tests).
    #[test]
    fn inversions_give_back_both_variables() {
        let mut rng = crosscheck_core::rng(3, 4);
        for f in FUNCTIONS.iter().filter(|f| f.sort != SortClass::Str) {
            for _ in 0..200 {
                let val = |rng: &mut rand_chacha::ChaCha8Rng| match f.sort {
                    SortClass::Int => Value::Int(rng.gen_range(-50..=50)),
                    SortClass::Real => Value::Real(rng.gen_range(-50..=50), 1),
                    _ => Value::Bv(8, rng.gen_range(0..256)),
                };
                let (x, y) = (val(&mut rng), val(&mut rng));
                if f.divides && (!nonzero(Some(x)) || !nonzero(Some(y))) {
                    continue;
                }
                let c = random_constant(&mut rng, f.sort);
                let mut arena = Arena::new();
                let (xs, ys) = (x.to_smtlib(), y.to_smtlib());
                let z = arena.parse_term(&instantiate(f.f, &xs, &ys, "z", &c)).expect("f");
                let zv = eval::eval(&arena, &Env::default(), z).expect("f(x, y) evaluates").to_smtlib();
                for (tmpl, want) in [(f.rx, x), (f.ry, y)] {
                    let t = arena.parse_term(&instantiate(tmpl, &xs, &ys, &zv, &c)).expect("inversion");
                    assert_eq!(eval::eval(&arena, &Env::default(), t), Some(want), "{} x={xs} y={ys} c={c}", f.name);
                }
            }
        }
    }
}
