//! The dialect-neutral program model: typed relations, facts, rules with positive and negated
//! atoms, comparisons, arithmetic and aggregates, and the output relations.
//!
//! Every printer and the reference evaluator read this model; the transformations rewrite it.
//! Names are kept as the user (or the generator) wrote them; printers add dialect prefixes.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

/// Column types: Soufflé's `number` and `symbol` (the types every dialect here can express).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Type {
    Number,
    Symbol,
}

/// A constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Val {
    Num(i64),
    Sym(String),
}

impl Val {
    pub fn ty(&self) -> Type {
        match self {
            Val::Num(_) => Type::Number,
            Val::Sym(_) => Type::Symbol,
        }
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Num(n) => write!(f, "{n}"),
            Val::Sym(s) => write!(f, "\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArOp {
    Add,
    Sub,
    Mul,
}

impl ArOp {
    pub fn symbol(self) -> &'static str {
        match self {
            ArOp::Add => "+",
            ArOp::Sub => "-",
            ArOp::Mul => "*",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    pub const ALL: [CmpOp; 6] = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge];
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Term {
    Var(String),
    Const(Val),
    /// `_`: a fresh, unnamed variable.
    Wild,
    Bin(ArOp, Box<Term>, Box<Term>),
}

impl Term {
    pub fn var(name: &str) -> Term {
        Term::Var(name.to_string())
    }
    /// Variables in the term, in order of appearance.
    pub fn vars<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Term::Var(v) => out.push(v),
            Term::Bin(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Term::Const(_) | Term::Wild => {}
        }
    }
    pub fn rename(&mut self, from: &str, to: &str) {
        match self {
            Term::Var(v) if v == from => *v = to.to_string(),
            Term::Bin(_, a, b) => {
                a.rename(from, to);
                b.rename(from, to);
            }
            _ => {}
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Atom {
    pub rel: String,
    pub args: Vec<Term>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AggFn {
    Count,
    Sum,
    Min,
    Max,
}

impl AggFn {
    pub fn name(self) -> &'static str {
        match self {
            AggFn::Count => "count",
            AggFn::Sum => "sum",
            AggFn::Min => "min",
            AggFn::Max => "max",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Literal {
    Pos(Atom),
    Neg(Atom),
    /// A comparison; `X = expr` with `X` not yet bound binds it (an assignment).
    Cmp(CmpOp, Term, Term),
    /// Soufflé's `result = func value : { body }`: a correlated sub-query over the body's
    /// bindings. Variables of the body also bound outside are correlated; the others are local.
    Agg {
        result: String,
        func: AggFn,
        value: Option<Term>,
        body: Vec<Literal>,
    },
}

impl Literal {
    pub fn atom(&self) -> Option<&Atom> {
        match self {
            Literal::Pos(a) | Literal::Neg(a) => Some(a),
            _ => None,
        }
    }
    pub fn vars<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Literal::Pos(a) | Literal::Neg(a) => a.args.iter().for_each(|t| t.vars(out)),
            Literal::Cmp(_, l, r) => {
                l.vars(out);
                r.vars(out);
            }
            Literal::Agg { result, value, body, .. } => {
                out.push(result);
                if let Some(v) = value {
                    v.vars(out);
                }
                body.iter().for_each(|l| l.vars(out));
            }
        }
    }
    pub fn rename(&mut self, from: &str, to: &str) {
        match self {
            Literal::Pos(a) | Literal::Neg(a) => a.args.iter_mut().for_each(|t| t.rename(from, to)),
            Literal::Cmp(_, l, r) => {
                l.rename(from, to);
                r.rename(from, to);
            }
            Literal::Agg { result, value, body, .. } => {
                if result == from {
                    *result = to.to_string();
                }
                if let Some(v) = value {
                    v.rename(from, to);
                }
                body.iter_mut().for_each(|l| l.rename(from, to));
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
}

impl Rule {
    /// Every variable of the rule, head first, each once.
    pub fn vars(&self) -> Vec<String> {
        let mut all = Vec::new();
        self.head.args.iter().for_each(|t| t.vars(&mut all));
        self.body.iter().for_each(|l| l.vars(&mut all));
        let mut seen = BTreeSet::new();
        all.into_iter().filter(|v| seen.insert(*v)).map(str::to_string).collect()
    }
    pub fn rename(&mut self, from: &str, to: &str) {
        self.head.args.iter_mut().for_each(|t| t.rename(from, to));
        self.body.iter_mut().for_each(|l| l.rename(from, to));
    }
    pub fn has_agg(&self) -> bool {
        self.body.iter().any(|l| matches!(l, Literal::Agg { .. }))
    }
    /// Relations the body reads, with whether the dependency is monotone (positive atom).
    pub fn deps(&self) -> Vec<(&str, bool)> {
        fn walk<'a>(lits: &'a [Literal], inside_agg: bool, out: &mut Vec<(&'a str, bool)>) {
            for l in lits {
                match l {
                    Literal::Pos(a) => out.push((&a.rel, !inside_agg)),
                    Literal::Neg(a) => out.push((&a.rel, false)),
                    Literal::Agg { body, .. } => walk(body, true, out),
                    Literal::Cmp(..) => {}
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.body, false, &mut out);
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelDecl {
    pub name: String,
    pub cols: Vec<Type>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Fact {
    pub rel: String,
    pub vals: Vec<Val>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Program {
    pub decls: Vec<RelDecl>,
    /// Shared between a program and its transformations, which mostly leave the facts alone:
    /// a copy of a program then costs no copy of its facts ([`Program::facts_mut`] copies on
    /// write). Serialized as a plain list.
    pub facts: Arc<Vec<Fact>>,
    pub rules: Vec<Rule>,
    /// The relations whose contents are the program's answer.
    pub outputs: Vec<String>,
    /// Relations that came from a user's seed program: DLSmith never adds rules to them.
    #[serde(default)]
    pub seed_rels: BTreeSet<String>,
}

impl Program {
    pub fn decl(&self, rel: &str) -> Option<&RelDecl> {
        self.decls.iter().find(|d| d.name == rel)
    }
    pub fn cols(&self, rel: &str) -> &[Type] {
        self.decl(rel).map(|d| d.cols.as_slice()).unwrap_or(&[])
    }
    /// The facts, for changing them (copied first if another program shares them).
    pub fn facts_mut(&mut self) -> &mut Vec<Fact> {
        Arc::make_mut(&mut self.facts)
    }
    pub fn output(&self) -> &str {
        self.outputs.first().map(String::as_str).unwrap_or("")
    }
    /// Syntax-tree size for the reducer: facts, rules and literals.
    pub fn size(&self) -> usize {
        self.decls.len() + self.facts.len() + self.rules.iter().map(|r| 1 + r.body.len()).sum::<usize>()
    }
    /// The type of each variable of a rule, inferred from atom positions and constants.
    pub fn var_types(&self, rule: &Rule) -> BTreeMap<String, Type> {
        let mut out = BTreeMap::new();
        fn from_atom(p: &Program, a: &Atom, out: &mut BTreeMap<String, Type>) {
            for (t, ty) in a.args.iter().zip(p.cols(&a.rel)) {
                if let Term::Var(v) = t {
                    out.entry(v.clone()).or_insert(*ty);
                }
            }
        }
        fn walk(p: &Program, lits: &[Literal], out: &mut BTreeMap<String, Type>) {
            for l in lits {
                match l {
                    Literal::Pos(a) | Literal::Neg(a) => from_atom(p, a, out),
                    Literal::Agg { result, body, .. } => {
                        out.entry(result.clone()).or_insert(Type::Number);
                        walk(p, body, out);
                    }
                    Literal::Cmp(..) => {}
                }
            }
        }
        from_atom(self, &rule.head, &mut out);
        walk(self, &rule.body, &mut out);
        // Assignments and arithmetic: anything combined arithmetically is a number.
        for l in &rule.body {
            if let Literal::Cmp(_, a, b) = l {
                for t in [a, b] {
                    if let Term::Bin(..) = t {
                        let mut vs = Vec::new();
                        t.vars(&mut vs);
                        for v in vs {
                            out.entry(v.to_string()).or_insert(Type::Number);
                        }
                    }
                }
                match (a, b) {
                    (Term::Var(x), Term::Const(c)) | (Term::Const(c), Term::Var(x)) => {
                        out.entry(x.clone()).or_insert(c.ty());
                    }
                    (Term::Var(x), Term::Bin(..)) | (Term::Bin(..), Term::Var(x)) => {
                        out.entry(x.clone()).or_insert(Type::Number);
                    }
                    _ => {}
                }
            }
        }
        out
    }
    /// Facts of one relation.
    pub fn facts_of<'a>(&'a self, rel: &'a str) -> impl Iterator<Item = &'a Fact> + 'a {
        self.facts.iter().filter(move |f| f.rel == rel)
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::dialects::souffle::print(self, &self.outputs))
    }
}
