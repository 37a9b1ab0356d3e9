//! Z3's μZ dialect: SMT-LIB's fixedpoint commands, `declare-rel` over finite sorts, `rule`,
//! `query :print-answer true`.
//!
//! Both column types are bit-vectors of one width (8 or 16 bits, the narrowest that holds the
//! program's constants): numbers 0..65535 as themselves (sort `N`), symbols as their rank among
//! the program's symbols (sort `S`, an alias of `N`). A `; symbols:` comment
//! lists them, so the adapter can turn codes back into text. Symbols are compared only with
//! `=` and `!=`: their order is engine-specific (Soufflé orders by interning), so the printer
//! refuses `<` on them.

use super::{push_clauses, rel, TextDialect};
use crate::ast::{CmpOp, Literal, Program, Rule, Term, Type, Val};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// μZ's rule transformations and relation back-ends: none may change an answer.
pub const OPTIONS: &[&str] = &[
    "fp.xform.slice=false",
    "fp.xform.inline_linear=false",
    "fp.xform.coi=false",
    "fp.xform.compress_unbound=false",
    "fp.datalog.unbound_compressor=false",
    "fp.datalog.magic_sets_for_queries=true",
    "fp.xform.inline_linear_branch=true",
];

/// The widest sort: numbers beyond it are refused.
const MAX_BITS: u32 = 16;

/// How values are coded: each symbol by its rank (the order of the `; symbols:` comment), all
/// in bit-vectors of `bits` bits. Rules are safe and μZ gets no arithmetic, so every value is a
/// constant of the program and the width only has to hold those; it matters for speed: μZ
/// complements a negated relation over the whole sort, and a 2-column negation over 16 bits
/// took 2 s where 8 bits take 0.02 s.
struct Enc {
    syms: BTreeMap<String, i64>,
    bits: u32,
}

fn encoding(p: &Program) -> Result<Enc, String> {
    fn walk<'a>(t: &'a Term, all: &mut BTreeSet<&'a str>, max: &mut i64) {
        match t {
            Term::Const(Val::Sym(s)) => {
                all.insert(s);
            }
            Term::Const(Val::Num(n)) => *max = (*max).max(*n),
            Term::Bin(_, a, b) => {
                walk(a, all, max);
                walk(b, all, max);
            }
            _ => {}
        }
    }
    fn lits<'a>(ls: &'a [Literal], all: &mut BTreeSet<&'a str>, max: &mut i64) {
        for l in ls {
            match l {
                Literal::Pos(a) | Literal::Neg(a) => a.args.iter().for_each(|t| walk(t, all, max)),
                Literal::Cmp(_, x, y) => {
                    walk(x, all, max);
                    walk(y, all, max);
                }
                Literal::Agg { body, .. } => lits(body, all, max),
            }
        }
    }
    let (mut all, mut max) = (BTreeSet::new(), 0i64);
    for f in p.facts.iter() {
        for v in &f.vals {
            match v {
                Val::Sym(s) => {
                    all.insert(s.as_str());
                }
                Val::Num(n) => max = max.max(*n),
            }
        }
    }
    for r in &p.rules {
        r.head.args.iter().for_each(|t| walk(t, &mut all, &mut max));
        lits(&r.body, &mut all, &mut max);
    }
    let max = max.max(all.len() as i64 - 1);
    let Some(bits) = [8, MAX_BITS].into_iter().find(|b| max < 1i64 << b) else {
        return Err(format!("z3: {max} does not fit the finite sort"));
    };
    Ok(Enc { syms: all.into_iter().zip(0..).map(|(s, i)| (s.to_string(), i)).collect(), bits })
}

fn term(t: &Term, enc: &Enc) -> Result<String, String> {
    let bits = enc.bits;
    match t {
        Term::Var(v) => Ok(format!("v_{v}")),
        Term::Const(Val::Num(n)) if (0..(1i64 << bits)).contains(n) => Ok(format!("(_ bv{n} {bits})")),
        Term::Const(Val::Sym(s)) => {
            let code = enc.syms.get(s).ok_or_else(|| format!("z3: symbol {s:?} missing from the table"))?;
            Ok(format!("(_ bv{code} {bits})"))
        }
        Term::Const(c) => Err(format!("z3: constant {c} outside the finite sort")),
        Term::Wild => Err("z3: wildcard".into()),
        Term::Bin(..) => Err("z3: arithmetic".into()),
    }
}

/// Substitutes `X = t` (t a variable or constant, X a variable) into the rest of the rule, so
/// heads and atoms carry the terms directly.
pub(crate) fn inline_equalities(r: &Rule) -> Rule {
    let mut r = r.clone();
    loop {
        let pos = r
            .body
            .iter()
            .position(|l| matches!(l, Literal::Cmp(CmpOp::Eq, Term::Var(_), Term::Var(_) | Term::Const(_))));
        let Some(i) = pos else { return r };
        let Literal::Cmp(_, Term::Var(x), t) = r.body.remove(i) else { return r };
        let sub = |term: &mut Term| {
            if matches!(term, Term::Var(v) if *v == x) {
                *term = t.clone();
            }
        };
        r.head.args.iter_mut().for_each(sub);
        for l in r.body.iter_mut() {
            match l {
                Literal::Pos(a) | Literal::Neg(a) => a.args.iter_mut().for_each(sub),
                Literal::Cmp(_, a, b) => {
                    sub(a);
                    sub(b);
                }
                Literal::Agg { .. } => {}
            }
        }
    }
}

fn atom(a: &crate::ast::Atom, enc: &Enc, wild: &mut usize, vars: &mut BTreeSet<String>) -> Result<String, String> {
    let mut args = Vec::new();
    for t in &a.args {
        if matches!(t, Term::Wild) {
            *wild += 1;
            let v = format!("w{wild}");
            vars.insert(format!("v_{v}"));
            args.push(format!("v_{v}"));
        } else {
            args.push(term(t, enc)?);
        }
    }
    Ok(if args.is_empty() { rel(&a.rel) } else { format!("({} {})", rel(&a.rel), args.join(" ")) })
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut s = String::from("(set-option :fp.engine datalog)\n");
    if let Some((k, v)) = option.and_then(|o| o.split_once('=')) {
        let _ = writeln!(s, "(set-option :{k} {v})");
    }
    let syms = encoding(p)?;
    if !syms.syms.is_empty() {
        let list: Vec<&String> = syms.syms.keys().collect();
        let _ = writeln!(s, "; symbols: {}", serde_json::to_string(&list).map_err(|e| e.to_string())?);
    }
    let _ = writeln!(s, "(define-sort N () (_ BitVec {}))", syms.bits);
    let _ = writeln!(s, "(define-sort S () (_ BitVec {}))", syms.bits);
    for d in &p.decls {
        let cols: Vec<&str> = d.cols.iter().map(|c| if *c == Type::Symbol { "S" } else { "N" }).collect();
        let _ = writeln!(s, "(declare-rel {} ({}))", rel(&d.name), cols.join(" "));
    }
    let mut vars = BTreeSet::new();
    let mut rules = Vec::new();
    for f in p.facts.iter() {
        let args: Result<Vec<String>, String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()), &syms)).collect();
        rules.push(format!("(rule ({} {}))", rel(&f.rel), args?.join(" ")));
    }
    let mut wild = 0;
    for r in &p.rules {
        if r.has_agg() {
            return Err("z3: aggregates".into());
        }
        let types = p.var_types(r);
        let symbolic = |t: &Term| match t {
            Term::Var(v) => types.get(v) == Some(&Type::Symbol),
            Term::Const(c) => c.ty() == Type::Symbol,
            _ => false,
        };
        let ordered = |op: &CmpOp| !matches!(op, CmpOp::Eq | CmpOp::Ne);
        if r.body.iter().any(|l| matches!(l, Literal::Cmp(op, x, y) if ordered(op) && (symbolic(x) || symbolic(y)))) {
            return Err("z3: order on symbols".into());
        }
        let r = inline_equalities(r);
        r.vars().into_iter().for_each(|v| {
            vars.insert(format!("v_{v}"));
        });
        let head = atom(&r.head, &syms, &mut wild, &mut vars)?;
        let mut body = Vec::new();
        for l in &r.body {
            body.push(match l {
                Literal::Pos(a) => atom(a, &syms, &mut wild, &mut vars)?,
                Literal::Neg(a) if a.args.iter().any(|t| matches!(t, Term::Wild)) => {
                    return Err("z3: wildcard in a negated atom".into())
                }
                Literal::Neg(a) => format!("(not {})", atom(a, &syms, &mut wild, &mut vars)?),
                Literal::Cmp(op, x, y) => {
                    let (x, y) = (term(x, &syms)?, term(y, &syms)?);
                    match op {
                        CmpOp::Eq => format!("(= {x} {y})"),
                        CmpOp::Ne => format!("(not (= {x} {y}))"),
                        CmpOp::Lt => format!("(bvult {x} {y})"),
                        CmpOp::Le => format!("(bvule {x} {y})"),
                        CmpOp::Gt => format!("(bvugt {x} {y})"),
                        CmpOp::Ge => format!("(bvuge {x} {y})"),
                    }
                }
                Literal::Agg { .. } => return Err("z3: aggregates".into()),
            });
        }
        rules.push(match body.len() {
            0 => format!("(rule {head})"),
            1 => format!("(rule (=> {} {head}))", body[0]),
            _ => format!("(rule (=> (and {}) {head}))", body.join(" ")),
        });
    }
    for v in &vars {
        let _ = writeln!(s, "(declare-var {v} N)");
    }
    push_clauses(&mut s, rules, None);
    let _ = writeln!(s, "(query {} :print-answer true)", rel(out));
    Ok(s)
}

/// Z3's spelling facts and printer.
pub static Z3: TextDialect = TextDialect::new("z3", OPTIONS, "smt2", "z3 repro.smt2", ";", print);

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        crate::parse::parse(src).expect("parses")
    }

    #[test]
    fn symbols_are_coded_by_rank_and_listed() {
        let p = program(".decl p(x:symbol, n:number)\n.output p\np(\"b\", 1). p(\"a\", 2).\n");
        let text = print(&p, "p", None).expect("prints");
        assert!(text.contains("; symbols: [\"a\",\"b\"]"), "{text}");
        assert!(text.contains("(declare-rel r_p (S N))"), "{text}");
        assert!(text.contains("(rule (r_p (_ bv1 8) (_ bv1 8)))"), "{text}");
    }

    #[test]
    fn order_on_symbols_is_refused() {
        let p = program(".decl p(x:symbol)\n.decl q(x:symbol)\n.output q\np(\"a\").\nq(X) :- p(X), X < \"b\".\n");
        assert_eq!(print(&p, "q", None), Err("z3: order on symbols".to_string()));
    }
}
