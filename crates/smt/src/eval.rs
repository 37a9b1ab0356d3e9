//! crosscheck's own evaluator for Core, Ints, Reals, bit-vectors (≤ 128 bits) and
//! uninterpreted functions given by a model's `define-fun`s. It computes STORM's valuations
//! independently of the solver under test and checks models. Anything it does not cover
//! (strings, floating point, arrays, quantifiers, overflow of 128-bit arithmetic, division by
//! zero, whose value SMT-LIB leaves to the model) evaluates to `None`, never to a guess.

use crate::sexp::{self, Sexp};
use crate::term::{Arena, Node, TermId};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(i128),
    /// A rational `num/den`, `den > 0`, in lowest terms.
    Real(i128, i128),
    /// A bit-vector of `width` bits (1..=128).
    Bv(u32, u128),
    /// An abstract element of an uninterpreted sort, by a hash of its name: only equality
    /// is defined on it.
    Elem(u64),
}

fn elem(name: &str) -> Value {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    Value::Elem(h.finish())
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn rat(n: i128, d: i128) -> Option<Value> {
    if d == 0 {
        return None;
    }
    let g = gcd(n, d).max(1);
    let (mut n, mut d) = (n / g, d / g);
    if d < 0 {
        n = n.checked_neg()?;
        d = d.checked_neg()?;
    }
    Some(Value::Real(n, d))
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

fn signed(w: u32, v: u128) -> i128 {
    if w >= 128 {
        v as i128
    } else if v >> (w - 1) & 1 == 1 {
        (v as i128) - (1i128 << w)
    } else {
        v as i128
    }
}

impl Value {
    /// SMT-LIB text of the value (`(- 3)`, `(/ 1 2)`, `#b0101`).
    pub fn to_smtlib(&self) -> String {
        match *self {
            Value::Bool(b) => b.to_string(),
            Value::Int(i) if i < 0 => format!("(- {})", i.unsigned_abs()),
            Value::Int(i) => i.to_string(),
            Value::Real(n, d) => {
                let num = if n < 0 { format!("(- {}.0)", n.unsigned_abs()) } else { format!("{n}.0") };
                if d == 1 {
                    num
                } else {
                    format!("(/ {num} {d}.0)")
                }
            }
            Value::Bv(w, v) => format!("#b{:0width$b}", v, width = w as usize),
            Value::Elem(h) => format!("cc!elem{h}"),
        }
    }

    fn as_rat(&self) -> Option<(i128, i128)> {
        match *self {
            Value::Int(i) => Some((i, 1)),
            Value::Real(n, d) => Some((n, d)),
            _ => None,
        }
    }
}

/// A definition: a constant's value, or a function (from a model or a seed's `define-fun`).
#[derive(Clone, Debug)]
pub enum Def {
    Value(Value),
    Fun(Vec<String>, TermId),
    /// Defined, but by something we cannot evaluate (an array, a string).
    Opaque,
}

/// Definitions by name, plus the arena their bodies live in.
#[derive(Clone, Default)]
pub struct Env {
    pub defs: HashMap<String, Def>,
}

impl Env {
    /// Adds every `define-fun` found in `text` (a `get-model` answer, with or without yices's
    /// `model` head, or the model lines of a stored case).
    pub fn add_model(&mut self, arena: &mut Arena, text: &str) -> Result<(), String> {
        let items = sexp::parse_all(text).map_err(|e| e.to_string())?;
        let mut stack: Vec<&Sexp> = items.iter().collect();
        while let Some(s) = stack.pop() {
            let Some(l) = s.list() else { continue };
            if s.head() == Some("define-fun") {
                self.add_define(arena, l)?;
            } else if s.head() == Some("declare-fun") {
                // An element of an uninterpreted sort in a normalized model.
                if let [_, Sexp::Atom(n, _), Sexp::List(args, _), _] = l {
                    if args.is_empty() {
                        self.defs.insert(n.clone(), Def::Value(elem(n)));
                    }
                }
            } else if s.head() == Some("forall") {
            } else {
                stack.extend(l.iter());
            }
        }
        Ok(())
    }

    /// Adds one `(define-fun name ((p S) ...) S body)`.
    pub fn add_define(&mut self, arena: &mut Arena, l: &[Sexp]) -> Result<(), String> {
        let (Some(name), Some(params), Some(body)) =
            (l.get(1).and_then(Sexp::atom), l.get(2).and_then(Sexp::list), l.get(4))
        else {
            return Err(format!("malformed define-fun: {}", Sexp::List(l.to_vec(), Default::default())));
        };
        let body = arena.from_sexp(body).map_err(|e| e.to_string())?;
        let names: Vec<String> = params
            .iter()
            .filter_map(|p| p.list().and_then(|p| p.first()).and_then(Sexp::atom))
            .map(str::to_string)
            .collect();
        let def = if names.is_empty() {
            match eval(arena, self, body) {
                Some(v) => Def::Value(v),
                // A nullary define-fun of a seed may depend on later definitions; keep the body.
                None => Def::Fun(Vec::new(), body),
            }
        } else {
            Def::Fun(names, body)
        };
        self.defs.insert(name.to_string(), def);
        Ok(())
    }
}

/// Evaluates a closed term under `env`.
pub fn eval(arena: &Arena, env: &Env, t: TermId) -> Option<Value> {
    let mut scopes = Vec::new();
    Ev { arena, env, depth: 0 }.eval(t, &mut scopes)
}

/// The truth value of a closed Boolean term, if the evaluator covers it.
pub fn truth(arena: &Arena, env: &Env, t: TermId) -> Option<bool> {
    match eval(arena, env, t) {
        Some(Value::Bool(b)) => Some(b),
        _ => None,
    }
}

struct Ev<'a> {
    arena: &'a Arena,
    env: &'a Env,
    /// Function-call depth: a recursive definition must not overflow the stack.
    depth: u32,
}

fn literal(a: &str) -> Option<Value> {
    match a {
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        _ => {}
    }
    let b = a.as_bytes();
    if b.first()?.is_ascii_digit() {
        if let Some((i, f)) = a.split_once('.') {
            let den = 10i128.checked_pow(u32::try_from(f.len()).ok()?)?;
            let n = format!("{i}{f}").parse::<i128>().ok()?;
            return rat(n, den);
        }
        return a.parse::<i128>().ok().map(Value::Int);
    }
    if let Some(h) = a.strip_prefix("#x") {
        let w = u32::try_from(h.len()).ok()?.checked_mul(4)?;
        return (w > 0 && w <= 128).then(|| u128::from_str_radix(h, 16).ok().map(|v| Value::Bv(w, v)))?;
    }
    if let Some(bits) = a.strip_prefix("#b") {
        let w = u32::try_from(bits.len()).ok()?;
        return (w > 0 && w <= 128).then(|| u128::from_str_radix(bits, 2).ok().map(|v| Value::Bv(w, v)))?;
    }
    if let Some(rest) = a.strip_prefix("(as @") {
        return Some(elem(&format!("cc!{}", rest.split_whitespace().next()?)));
    }
    if let Some(rest) = a.strip_prefix("(_ bv") {
        let mut it = rest.trim_end_matches(')').split_whitespace();
        let v = it.next()?.parse::<u128>().ok()?;
        let w = it.next()?.parse::<u32>().ok()?;
        return (w > 0 && w <= 128).then_some(Value::Bv(w, v & mask(w)));
    }
    None
}

/// The integer indices of `(_ name i j)`.
fn indices(head: &str) -> Option<(&str, Vec<u32>)> {
    let inner = head.strip_prefix("(_ ")?.strip_suffix(')')?;
    let mut it = inner.split_whitespace();
    let name = it.next()?;
    let idx: Option<Vec<u32>> = it.map(|x| x.parse().ok()).collect();
    Some((name, idx?))
}

impl Ev<'_> {
    fn eval(&mut self, t: TermId, scopes: &mut Vec<(String, Value)>) -> Option<Value> {
        match self.arena.node(t) {
            Node::Atom(a) => {
                if let Some(v) = literal(a) {
                    return Some(v);
                }
                if let Some((_, v)) = scopes.iter().rev().find(|(n, _)| n == a) {
                    return Some(*v);
                }
                match self.env.defs.get(a.as_str())? {
                    Def::Value(v) => Some(*v),
                    Def::Fun(p, body) if p.is_empty() => self.call(&[], &[], *body),
                    _ => None,
                }
            }
            Node::Raw(_) | Node::Quant(..) => None,
            Node::Annot(inner, _) => self.eval(*inner, scopes),
            Node::Let(binds, body) => {
                let mut vals = Vec::with_capacity(binds.len());
                for (n, v) in binds {
                    vals.push((n.clone(), self.eval(*v, scopes)?));
                }
                let mark = scopes.len();
                scopes.extend(vals);
                let r = self.eval(*body, scopes);
                scopes.truncate(mark);
                r
            }
            Node::App(head, args) => self.app(head, args, scopes),
        }
    }

    fn call(&mut self, params: &[String], args: &[Value], body: TermId) -> Option<Value> {
        if self.depth > 200 {
            return None;
        }
        self.depth += 1;
        let mut scopes: Vec<(String, Value)> = params.iter().cloned().zip(args.iter().copied()).collect();
        let r = self.eval(body, &mut scopes);
        self.depth -= 1;
        r
    }

    fn app(&mut self, head: &str, args: &[TermId], scopes: &mut Vec<(String, Value)>) -> Option<Value> {
        // Short-circuit connectives first: an unevaluable operand may not matter.
        match head {
            "and" | "or" => {
                let stop = head == "or";
                let mut unknown = false;
                for &a in args {
                    match self.eval(a, scopes) {
                        Some(Value::Bool(b)) if b == stop => return Some(Value::Bool(stop)),
                        Some(Value::Bool(_)) => {}
                        _ => unknown = true,
                    }
                }
                return (!unknown).then_some(Value::Bool(!stop));
            }
            "ite" => {
                let [c, a, b] = args else { return None };
                return match self.eval(*c, scopes)? {
                    Value::Bool(true) => self.eval(*a, scopes),
                    Value::Bool(false) => self.eval(*b, scopes),
                    _ => None,
                };
            }
            "=>" => {
                let (last, init) = args.split_last()?;
                for &a in init {
                    if self.eval(a, scopes)? == Value::Bool(false) {
                        return Some(Value::Bool(true));
                    }
                }
                return self.eval(*last, scopes);
            }
            _ => {}
        }
        let mut v = Vec::with_capacity(args.len());
        for &a in args {
            v.push(self.eval(a, scopes)?);
        }
        if let Some(Def::Fun(params, body)) = self.env.defs.get(head) {
            if params.len() == v.len() {
                let body = *body;
                let params = params.clone();
                return self.call(&params, &v, body);
            }
            return None;
        }
        apply(head, &v)
    }
}

fn bools(v: &[Value]) -> Option<Vec<bool>> {
    v.iter().map(|x| if let Value::Bool(b) = x { Some(*b) } else { None }).collect()
}

/// Compares numerically when both sides are numbers (Z3 mixes Int and Real freely).
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_rat(), b.as_rat()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn apply(head: &str, v: &[Value]) -> Option<Value> {
    use Value::*;
    let b = |x: bool| Some(Bool(x));
    match head {
        "not" => return b(!*bools(v)?.first()?),
        "xor" => return b(bools(v)?.into_iter().fold(false, |a, x| a ^ x)),
        "=" => return b(v.windows(2).all(|w| same(&w[0], &w[1]))),
        "distinct" => {
            return b((0..v.len()).all(|i| (i + 1..v.len()).all(|j| !same(&v[i], &v[j]))));
        }
        _ => {}
    }
    if let Some(r) = arith(head, v) {
        return r;
    }
    bv(head, v)
}

/// `Some(result)` when `head` is an arithmetic operator.
fn arith(head: &str, v: &[Value]) -> Option<Option<Value>> {
    use Value::*;
    let all_int = v.iter().all(|x| matches!(x, Int(_)));
    let rats: Option<Vec<(i128, i128)>> = v.iter().map(Value::as_rat).collect();
    let cmp = |f: fn(std::cmp::Ordering) -> bool| -> Option<Value> {
        let r = rats.as_ref()?;
        let ok = r.windows(2).all(|w| {
            let (a, b) = (w[0], w[1]);
            // a.0/a.1 vs b.0/b.1 with positive denominators.
            match (a.0.checked_mul(b.1), b.0.checked_mul(a.1)) {
                (Some(x), Some(y)) => f(x.cmp(&y)),
                _ => false,
            }
        });
        // An overflow must not decide a comparison.
        let exact = r.windows(2).all(|w| w[0].0.checked_mul(w[1].1).is_some() && w[1].0.checked_mul(w[0].1).is_some());
        exact.then_some(Bool(ok))
    };
    let out = match head {
        "<" => cmp(|o| o.is_lt()),
        "<=" => cmp(|o| o.is_le()),
        ">" => cmp(|o| o.is_gt()),
        ">=" => cmp(|o| o.is_ge()),
        "+" | "*" | "-" => {
            let r = rats?;
            if head == "-" && r.len() == 1 {
                let (n, d) = r[0];
                return Some(if all_int { n.checked_neg().map(Int) } else { rat(n.checked_neg()?, d) });
            }
            let mut acc = *r.first()?;
            for &(n, d) in &r[1..] {
                acc = match head {
                    "+" => (acc.0.checked_mul(d)?.checked_add(n.checked_mul(acc.1)?)?, acc.1.checked_mul(d)?),
                    "-" => (acc.0.checked_mul(d)?.checked_sub(n.checked_mul(acc.1)?)?, acc.1.checked_mul(d)?),
                    _ => (acc.0.checked_mul(n)?, acc.1.checked_mul(d)?),
                };
                let Real(a, b) = rat(acc.0, acc.1)? else { return Some(None) };
                acc = (a, b);
            }
            if all_int {
                Some(Int(acc.0))
            } else {
                rat(acc.0, acc.1)
            }
        }
        "/" => {
            let r = rats?;
            let mut acc = *r.first()?;
            for &(n, d) in &r[1..] {
                if n == 0 {
                    return Some(None);
                }
                let Real(a, b) = rat(acc.0.checked_mul(d)?, acc.1.checked_mul(n)?)? else { return Some(None) };
                acc = (a, b);
            }
            rat(acc.0, acc.1)
        }
        "div" | "mod" => {
            let [Int(a), Int(m)] = v else { return Some(None) };
            if *m == 0 {
                return Some(None);
            }
            // SMT-LIB: Euclidean division, 0 <= a mod m < |m|.
            let r = a.checked_rem_euclid(*m)?;
            let q = (a.checked_sub(r)?).checked_div(*m)?;
            Some(Int(if head == "div" { q } else { r }))
        }
        "abs" => match v {
            [Int(a)] => a.checked_abs().map(Int),
            [Real(n, d)] => rat(n.checked_abs()?, *d),
            _ => None,
        },
        "to_real" => match v {
            [Int(a)] => rat(*a, 1),
            [r @ Real(..)] => Some(*r),
            _ => None,
        },
        "to_int" => match v {
            [Real(n, d)] => Some(Int(n.div_euclid(*d))),
            [Int(a)] => Some(Int(*a)),
            _ => None,
        },
        "is_int" => match v {
            [Real(_, d)] => Some(Bool(*d == 1)),
            [Int(_)] => Some(Bool(true)),
            _ => None,
        },
        _ => return None,
    };
    Some(out)
}

fn bv(head: &str, v: &[Value]) -> Option<Value> {
    use Value::*;
    if let Some((name, idx)) = indices(head) {
        return bv_indexed(name, &idx, v);
    }
    if head == "concat" {
        return bv_concat(v);
    }
    let (w, xs) = same_width(v)?;
    let m = mask(w);
    let s = |x: u128| signed(w, x);
    let fold = |f: fn(u128, u128) -> u128| xs.iter().skip(1).fold(xs[0], |a, &x| f(a, x) & m);
    let un = |f: fn(u128) -> u128| xs.first().map(|&x| Bv(w, f(x) & m));
    let two = || -> Option<(u128, u128)> {
        if xs.len() == 2 {
            Some((xs[0], xs[1]))
        } else {
            None
        }
    };
    Some(match head {
        "bvnot" => un(|x| !x)?,
        "bvneg" => un(|x| x.wrapping_neg())?,
        "bvand" => Bv(w, fold(|a, b| a & b)),
        "bvor" => Bv(w, fold(|a, b| a | b)),
        "bvxor" => Bv(w, fold(|a, b| a ^ b)),
        "bvadd" => Bv(w, fold(|a, b| a.wrapping_add(b))),
        "bvmul" => Bv(w, fold(|a, b| a.wrapping_mul(b))),
        "bvsub" => Bv(w, fold(|a, b| a.wrapping_sub(b))),
        "bvnand" => Bv(w, !fold(|a, b| a & b) & m),
        "bvnor" => Bv(w, !fold(|a, b| a | b) & m),
        "bvxnor" => Bv(w, !fold(|a, b| a ^ b) & m),
        "bvcomp" => Bv(1, u128::from(two()?.0 == two()?.1)),
        "bvshl" => {
            let (a, b) = two()?;
            Bv(w, if b >= w as u128 { 0 } else { (a << b) & m })
        }
        "bvlshr" => {
            let (a, b) = two()?;
            Bv(w, if b >= w as u128 { 0 } else { a >> b })
        }
        "bvashr" => {
            let (a, b) = two()?;
            // At most w - 1, so it fits a u32 like w itself.
            let sh = u32::try_from(b.min(u128::from(w) - 1)).unwrap_or(w - 1);
            let r = if b >= w as u128 {
                if s(a) < 0 {
                    -1
                } else {
                    0
                }
            } else {
                s(a) >> sh
            };
            Bv(w, (r as u128) & m)
        }
        "bvudiv" => {
            let (a, b) = two()?;
            Bv(w, a.checked_div(b).unwrap_or(m))
        }
        "bvurem" => {
            let (a, b) = two()?;
            Bv(w, if b == 0 { a } else { a % b })
        }
        "bvsdiv" | "bvsrem" | "bvsmod" => {
            let (a, b) = two()?;
            Bv(w, signed_division(head, w, a, b))
        }
        "bvult" => Bool(two()?.0 < two()?.1),
        "bvule" => Bool(two()?.0 <= two()?.1),
        "bvugt" => Bool(two()?.0 > two()?.1),
        "bvuge" => Bool(two()?.0 >= two()?.1),
        "bvslt" => Bool(s(two()?.0) < s(two()?.1)),
        "bvsle" => Bool(s(two()?.0) <= s(two()?.1)),
        "bvsgt" => Bool(s(two()?.0) > s(two()?.1)),
        "bvsge" => Bool(s(two()?.0) >= s(two()?.1)),
        _ => return None,
    })
}

/// `((_ extract i j) x)` and the other indexed operators on one bit-vector.
fn bv_indexed(name: &str, idx: &[u32], v: &[Value]) -> Option<Value> {
    use Value::*;
    let [Value::Bv(w, x)] = v else { return None };
    let (w, x) = (*w, *x);
    match (name, idx) {
        ("extract", [i, j]) if i >= j && *i < w => Some(Bv(i - j + 1, (x >> j) & mask(i - j + 1))),
        ("zero_extend", [k]) if w + k <= 128 => Some(Bv(w + k, x)),
        ("sign_extend", [k]) if w + k <= 128 => Some(Bv(w + k, (signed(w, x) as u128) & mask(w + k))),
        ("repeat", [k]) if *k >= 1 && w * k <= 128 => Some(Bv(w * k, (0..*k).fold(0u128, |a, _| (a << w) | x))),
        ("rotate_left", [k]) => {
            let k = k % w;
            Some(Bv(w, if k == 0 { x } else { ((x << k) | (x >> (w - k))) & mask(w) }))
        }
        ("rotate_right", [k]) => {
            let k = k % w;
            Some(Bv(w, if k == 0 { x } else { ((x >> k) | (x << (w - k))) & mask(w) }))
        }
        _ => None,
    }
}

/// `concat`: the first operand gives the high bits; the result stays within 128 bits.
fn bv_concat(v: &[Value]) -> Option<Value> {
    let mut acc: Option<(u32, u128)> = None;
    for x in v {
        let Value::Bv(w, b) = *x else { return None };
        acc = Some(match acc {
            None => (w, b),
            Some((aw, ab)) if aw + w <= 128 => (aw + w, (ab << w) | b),
            _ => return None,
        });
    }
    acc.map(|(w, b)| Value::Bv(w, b))
}

/// The operands' common width and their bits, or `None` when they are not all bit-vectors of
/// one width.
fn same_width(v: &[Value]) -> Option<(u32, Vec<u128>)> {
    let mut w0 = None;
    let mut xs = Vec::with_capacity(v.len());
    for x in v {
        let Value::Bv(w, b) = *x else { return None };
        if w0.is_some_and(|w0| w0 != w) {
            return None;
        }
        w0 = Some(w);
        xs.push(b);
    }
    Some((w0?, xs))
}

/// `bvsdiv`, `bvsrem` and `bvsmod` (`head`) of `a` and `b`, both `w` bits wide.
fn signed_division(head: &str, w: u32, a: u128, b: u128) -> u128 {
    let m = mask(w);
    let (sa, sb) = (signed(w, a), signed(w, b));
    // Defined through the unsigned operations on absolute values (SMT-LIB BV theory).
    let (ua, ub) = (sa.unsigned_abs() & m, sb.unsigned_abs() & m);
    let r: u128 = match head {
        "bvsdiv" => {
            let q = ua.checked_div(ub).unwrap_or(m);
            if (sa < 0) != (sb < 0) {
                q.wrapping_neg()
            } else {
                q
            }
        }
        "bvsrem" => {
            let r = if ub == 0 { ua } else { ua % ub };
            if sa < 0 {
                r.wrapping_neg()
            } else {
                r
            }
        }
        _ => {
            let u = if ub == 0 { ua } else { ua % ub };
            if u == 0 {
                0
            } else if sa >= 0 && sb >= 0 {
                u
            } else if sa < 0 && sb >= 0 {
                u.wrapping_neg().wrapping_add(b)
            } else if sa >= 0 && sb < 0 {
                u.wrapping_add(b)
            } else {
                u.wrapping_neg()
            }
        }
    };
    r & m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(src: &str, model: &str) -> Option<Value> {
        let mut a = Arena::new();
        let mut env = Env::default();
        env.add_model(&mut a, model).expect("model");
        let t = a.parse_term(src).expect("term");
        eval(&a, &env, t)
    }

    #[test]
    fn evaluates_core_arith_and_bv() {
        let m = "((define-fun x () Int (- 7)) (define-fun r () Real (/ 1.0 2.0)) (define-fun b () (_ BitVec 8) #xf0)
                  (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 5 0)))";
        assert_eq!(ev("(and (< x 0) (= (mod x 3) 2) (= (div x 3) (- 3)))", m), Some(Value::Bool(true)));
        assert_eq!(ev("(= (+ r r) 1.0)", m), Some(Value::Bool(true)));
        assert_eq!(ev("(bvslt b #x00)", m), Some(Value::Bool(true)));
        assert_eq!(ev("((_ extract 7 4) b)", m), Some(Value::Bv(4, 0xf)));
        assert_eq!(ev("(bvsdiv b #x03)", m), Some(Value::Bv(8, 0xfb)));
        assert_eq!(ev("(bvsmod b #x03)", m), Some(Value::Bv(8, 0x02)));
        assert_eq!(ev("(= (f 1) 5)", m), Some(Value::Bool(true)));
        assert_eq!(ev("(let ((y (+ x 1))) (> y x))", m), Some(Value::Bool(true)));
        assert_eq!(ev("(= (div x 0) 1)", m), None);
        assert_eq!(ev("(or (= s \"a\") true)", m), Some(Value::Bool(true)));
        assert_eq!(ev("(= s \"a\")", m), None);
    }
}
