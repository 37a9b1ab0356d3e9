//! Z3's native Datalog format (`z3 file.datalog`, the bddbddb-style input queryFuzz and Deopt
//! fed μZ), read by z3 releases up to 4.13; 5.x parses no such file. A finite domain per column
//! type (`Z` for numbers 0..n, `S` for symbols, written as strings), each relation declared
//! with typed columns, the output one `printtuples`, facts and rules inline; `!` negates, and
//! the parser knows `=`, `!=`, `<` and `>` but not `<=` or `>=`, so a rule with those becomes
//! one rule per choice of `<` or `=` (`>` or `=`).

use super::rel;
use super::z3::inline_equalities;
use super::TextDialect;
use crate::ast::{Atom, CmpOp, Literal, Program, Rule, Term, Type, Val};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The domain of a column type.
fn domain(t: Type) -> &'static str {
    if t == Type::Symbol {
        "S"
    } else {
        "Z"
    }
}

/// The largest number and the symbols of a program (the domains' sizes).
fn constants(p: &Program) -> (i64, BTreeSet<String>) {
    let (mut max, mut syms) = (0i64, BTreeSet::new());
    let mut see = |v: &Val| match v {
        Val::Num(n) => max = max.max(*n),
        Val::Sym(s) => {
            syms.insert(s.clone());
        }
    };
    p.facts.iter().flat_map(|f| f.vals.iter()).for_each(&mut see);
    let mut terms: Vec<&Term> = Vec::new();
    for r in &p.rules {
        terms.extend(r.head.args.iter());
        for l in &r.body {
            match l {
                Literal::Pos(a) | Literal::Neg(a) => terms.extend(a.args.iter()),
                Literal::Cmp(_, x, y) => terms.extend([x, y]),
                Literal::Agg { .. } => {}
            }
        }
    }
    terms.into_iter().filter_map(|t| if let Term::Const(v) = t { Some(v) } else { None }).for_each(see);
    (max, syms)
}

fn term(t: &Term) -> Result<String, String> {
    match t {
        Term::Var(v) => Ok(format!("v{v}")),
        Term::Const(Val::Num(n)) if *n >= 0 => Ok(n.to_string()),
        Term::Const(Val::Sym(s)) if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Ok(format!("\"{s}\""))
        }
        Term::Const(c) => Err(format!("z3-datalog: constant {c} cannot be written")),
        Term::Wild => Ok("_".into()),
        Term::Bin(..) => Err("z3-datalog: arithmetic".into()),
    }
}

fn atom(a: &Atom) -> Result<String, String> {
    let args: Result<Vec<String>, String> = a.args.iter().map(term).collect();
    Ok(format!("{}({})", rel(&a.rel), args?.join(",")))
}

/// The rule's bodies with every `<=` and `>=` split into its strict and its equal case.
fn bodies(r: &Rule) -> Vec<Vec<Literal>> {
    let mut out: Vec<Vec<Literal>> = vec![Vec::new()];
    for l in &r.body {
        let choices = match l {
            Literal::Cmp(CmpOp::Le, x, y) => {
                vec![CmpOp::Lt, CmpOp::Eq].into_iter().map(|o| Literal::Cmp(o, x.clone(), y.clone())).collect()
            }
            Literal::Cmp(CmpOp::Ge, x, y) => {
                vec![CmpOp::Gt, CmpOp::Eq].into_iter().map(|o| Literal::Cmp(o, x.clone(), y.clone())).collect()
            }
            other => vec![other.clone()],
        };
        out = out.iter().flat_map(|b| choices.iter().map(move |c| [b.clone(), vec![c.clone()]].concat())).collect();
    }
    out
}

/// The body without its comparisons of two constants, or `None` if one of them is false.
fn fold_constants(body: Vec<Literal>) -> Option<Vec<Literal>> {
    let mut out = Vec::with_capacity(body.len());
    for l in body {
        match &l {
            Literal::Cmp(op, Term::Const(x), Term::Const(y)) => {
                let ordered = !matches!(op, CmpOp::Eq | CmpOp::Ne);
                if ordered && (x.ty() == Type::Symbol || y.ty() == Type::Symbol) {
                    // Left for the printer to refuse (order on symbols).
                    out.push(l);
                    continue;
                }
                let holds = crate::eval::compare(*op, x, y);
                if !holds {
                    return None;
                }
            }
            _ => out.push(l),
        }
    }
    Some(out)
}

fn literal(l: &Literal, symbolic: &dyn Fn(&Term) -> bool) -> Result<String, String> {
    Ok(match l {
        Literal::Pos(a) => atom(a)?,
        Literal::Neg(a) if a.args.iter().any(|t| matches!(t, Term::Wild)) => {
            return Err("z3-datalog: wildcard in a negated atom".into())
        }
        Literal::Neg(a) => format!("!{}", atom(a)?),
        Literal::Cmp(op, x, y) => {
            let op = match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "!=",
                _ if symbolic(x) || symbolic(y) => return Err("z3-datalog: order on symbols".into()),
                CmpOp::Lt => "<",
                CmpOp::Gt => ">",
                CmpOp::Le | CmpOp::Ge => return Err("z3-datalog: unsplit comparison".into()),
            };
            format!("{} {op} {}", term(x)?, term(y)?)
        }
        Literal::Agg { .. } => return Err("z3-datalog: aggregates".into()),
    })
}

fn rules(p: &Program, r: &Rule, out: &mut Vec<String>) -> Result<(), String> {
    let types = p.var_types(r);
    let symbolic = |t: &Term| match t {
        Term::Var(v) => types.get(v) == Some(&Type::Symbol),
        Term::Const(c) => c.ty() == Type::Symbol,
        _ => false,
    };
    let r = inline_equalities(r);
    let head = atom(&r.head)?;
    for body in bodies(&r) {
        // The parser wants a variable in every comparison: one of two constants is decided
        // here, and a false one leaves a rule that never fires.
        let Some(body) = fold_constants(body) else { continue };
        let lits: Result<Vec<String>, String> = body.iter().map(|l| literal(l, &symbolic)).collect();
        let lits = lits?;
        out.push(if lits.is_empty() { format!("{head}.") } else { format!("{head} :- {}.", lits.join(", ")) });
    }
    Ok(())
}

pub fn print(p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let (max, syms) = constants(p);
    let mut s = String::new();
    let _ = writeln!(s, "Z {}\nS {}\n", max + 1, syms.len().max(1));
    for d in &p.decls {
        let cols: Vec<String> = d.cols.iter().enumerate().map(|(i, t)| format!("c{i} : {}", domain(*t))).collect();
        let role = if d.name == out { " printtuples" } else { "" };
        let _ = writeln!(s, "{}({}){role}", rel(&d.name), cols.join(", "));
    }
    let mut clauses = Vec::new();
    for f in p.facts.iter() {
        let args: Result<Vec<String>, String> = f.vals.iter().map(|v| term(&Term::Const(v.clone()))).collect();
        clauses.push(format!("{}({}).", rel(&f.rel), args?.join(",")));
    }
    for r in &p.rules {
        if r.has_agg() {
            return Err("z3-datalog: aggregates".into());
        }
        rules(p, r, &mut clauses)?;
    }
    super::push_clauses(&mut s, clauses, option);
    Ok(s)
}

/// The native format's spelling facts and printer.
pub static Z3_DATALOG: TextDialect = TextDialect::new("z3-datalog", &[], "datalog", "z3 repro.datalog", "#", print);

#[cfg(test)]
mod tests {
    use super::*;

    fn program(src: &str) -> Program {
        crate::parse::parse(src).expect("parses")
    }

    #[test]
    fn prints_domains_declarations_and_split_comparisons() {
        let p = program(
            ".decl e(x:number, y:number)\n.decl n(x:symbol)\n.decl p(x:number, y:number)\n.output p\n\
             e(1, 2). n(\"a\").\np(X, Y) :- e(X, Y), X <= Y, !e(Y, X).\n",
        );
        let text = print(&p, "p", None).expect("prints");
        assert!(text.starts_with("Z 3\nS 1\n\n"), "{text}");
        assert!(text.contains("r_p(c0 : Z, c1 : Z) printtuples\n"), "{text}");
        assert!(text.contains("r_n(c0 : S)\n"), "{text}");
        assert!(text.contains("r_n(\"a\").\n"), "{text}");
        assert!(text.contains("r_p(vX,vY) :- r_e(vX,vY), vX < vY, !r_e(vY,vX).\n"), "{text}");
        assert!(text.contains("r_p(vX,vY) :- r_e(vX,vY), vX = vY, !r_e(vY,vX).\n"), "{text}");
    }

    #[test]
    fn comparisons_of_two_constants_are_decided() {
        // z3's parser refuses `9 < 2`: a true one goes, a false one drops its rule.
        let p = program(
            ".decl e(x:number)\n.decl p(x:number)\n.output p\ne(1).\n\
             p(X) :- e(X), 1 < 2, \"a\" != \"b\".\np(X) :- e(X), 9 <= 2.\n",
        );
        let text = print(&p, "p", None).expect("prints");
        let rules: Vec<&str> = text.lines().filter(|l| l.contains(":-")).collect();
        assert_eq!(rules, vec!["r_p(vX) :- r_e(vX)."], "{text}");
    }

    #[test]
    fn order_on_symbols_and_odd_symbols_are_refused() {
        let p = program(".decl p(x:symbol)\n.decl q(x:symbol)\n.output q\np(\"a\").\nq(X) :- p(X), X < \"b\".\n");
        assert_eq!(print(&p, "q", None), Err("z3-datalog: order on symbols".to_string()));
        let p = program(".decl p(x:symbol)\n.output p\np(\"a b\").\n");
        assert!(print(&p, "p", None).is_err());
    }
}
