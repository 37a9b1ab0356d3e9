//! RD²'s graph-guided query generation (§2.3 of the extraction): basic graph patterns built
//! from the graph's own triples (a pivot triple and triples that share a node with it, so the
//! pivot's bindings are a solution: the non-empty rate RD² lacked), FILTER trees of a
//! configured depth over typed operators whose leaves are pool constants or the query's
//! variables, DISTINCT, UNION, OPTIONAL, ORDER BY, and LIMIT/OFFSET only under a total ORDER BY.

use crate::dialect::Cap;
use crate::gen::{literal, Pools};
use crate::model::{ArithOp, CmpOp, Expr, Func, Graph, Group, Lit, Node, PTerm, Pattern, Query, Triple};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashMap;

/// The FILTER tree depth. RD²'s repository uses 5; trees that deep are mostly errors (a type
/// mismatch anywhere below a comparison), which says little, so the default is 3.
pub const MAX_DEPTH: u32 = 3;

/// What a query generator works from.
pub struct QueryGen<'a, R: Rng> {
    pub rng: &'a mut R,
    pub graph: &'a Graph,
    pub pools: &'a Pools,
    pub caps: &'a dyn Fn(Cap) -> bool,
    /// Graph nodes already standing for a variable, so patterns join on them.
    vars: HashMap<Node, u32>,
    next_var: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    Bool,
    Num,
    Str,
}

impl<'a, R: Rng> QueryGen<'a, R> {
    pub fn new(rng: &'a mut R, graph: &'a Graph, pools: &'a Pools, caps: &'a dyn Fn(Cap) -> bool) -> Self {
        QueryGen { rng, graph, pools, caps, vars: HashMap::new(), next_var: 0 }
    }

    pub fn query(&mut self) -> Query {
        let n = self.rng.gen_range(1..=3);
        let mut group = Group { bgp: self.bgp(n), ..Group::default() };
        if self.next_var == 0 {
            // A pattern of constants only: its subject becomes a variable, so the query has
            // something to project (`SELECT WHERE` is not SPARQL).
            let v = self.fresh();
            if let Some(first) = group.bgp.first_mut() {
                first.s = PTerm::Var(v);
            }
        }
        if (self.caps)(Cap::Union) && self.rng.gen_bool(0.2) {
            group.union = Some((self.bgp(1), self.bgp(1)));
        }
        if (self.caps)(Cap::Optional) && self.rng.gen_bool(0.25) {
            group.optional = Some(self.bgp(1));
        }
        // Less often than always: a FILTER of random constants and variables is false or an
        // error about half the time, and RD²'s 30 % non-empty rate is the thing to beat.
        if self.rng.gen_bool(0.6) {
            group.filters.push(self.filter());
        }
        let mut all: Vec<u32> = (0..self.next_var).collect();
        all.shuffle(self.rng);
        let n = self.rng.gen_range(1..=all.len().max(1));
        let project: Vec<u32> = all.into_iter().take(n).collect();
        let mut q = Query { distinct: self.rng.gen_bool(0.5), project, group, ..Query::default() };
        if self.rng.gen_bool(0.5) {
            self.order(&mut q);
        }
        q
    }

    /// ORDER BY: RD²'s one key, or (half the time) every projected variable, a total order
    /// under which LIMIT and OFFSET may follow.
    fn order(&mut self, q: &mut Query) {
        if self.rng.gen_bool(0.5) {
            let mut keys = q.project.clone();
            keys.shuffle(self.rng);
            q.order = keys.into_iter().map(|v| (v, self.rng.gen_bool(0.5))).collect();
        } else if let Some(&v) = q.project.choose(self.rng) {
            q.order = vec![(v, self.rng.gen_bool(0.5))];
        }
        if q.total_order() && (self.caps)(Cap::LimitOffset) {
            if self.rng.gen_bool(0.5) {
                q.limit = Some(self.rng.gen_range(1..=50));
            }
            if self.rng.gen_bool(0.5) {
                q.offset = Some(self.rng.gen_range(1..=5));
            }
        }
    }

    /// The partition oracle's predicate: a filter tree like any other.
    pub fn predicate(&mut self) -> Expr {
        self.filter()
    }

    fn fresh(&mut self) -> u32 {
        self.next_var += 1;
        self.next_var - 1
    }

    /// `n` patterns from graph triples: the first a pivot, the next ones sharing a node with
    /// a triple already used when the graph has one.
    fn bgp(&mut self, n: usize) -> Vec<Pattern> {
        let mut out = Vec::new();
        for _ in 0..n {
            let linked: Vec<&Triple> = self
                .graph
                .triples
                .iter()
                .filter(|t| self.vars.contains_key(&t.s) || self.vars.contains_key(&t.o))
                .collect();
            let t = if !linked.is_empty() && self.rng.gen_bool(0.8) {
                linked.choose(self.rng).map(|t| (*t).clone())
            } else {
                self.graph.triples.choose(self.rng).cloned()
            };
            let Some(t) = t else { break };
            out.push(self.pattern(&t));
        }
        if out.is_empty() {
            let (s, p, o) = (self.fresh(), self.fresh(), self.fresh());
            out.push(Pattern { s: PTerm::Var(s), p: PTerm::Var(p), o: PTerm::Var(o) });
        }
        out
    }

    fn pattern(&mut self, t: &Triple) -> Pattern {
        let s = self.position(&t.s, 0.6);
        let p = if self.rng.gen_bool(0.8) { PTerm::Iri(t.p.clone()) } else { PTerm::Var(self.fresh()) };
        let o = self.position(&t.o, 0.5);
        Pattern { s, p, o }
    }

    /// A node of the pivot: its variable if it has one (a join), a new variable, or the node
    /// itself (blank nodes are always variables: a query's `_:b` is not the graph's).
    fn position(&mut self, n: &Node, p_var: f64) -> PTerm {
        if let Some(&v) = self.vars.get(n) {
            if self.rng.gen_bool(0.8) {
                return PTerm::Var(v);
            }
        }
        let as_var = matches!(n, Node::Blank(_)) || self.rng.gen_bool(p_var);
        match n {
            _ if as_var => {
                let v = self.fresh();
                self.vars.insert(n.clone(), v);
                PTerm::Var(v)
            }
            Node::Iri(i) => PTerm::Iri(i.clone()),
            Node::Lit(l) => PTerm::Lit(l.clone()),
            Node::Blank(_) => PTerm::Var(self.fresh()),
        }
    }

    /// A FILTER: a tree whose root type is uniform over boolean, numeric and string (a
    /// non-boolean root is used through its effective boolean value), as in RD².
    fn filter(&mut self) -> Expr {
        let ty = *[Ty::Bool, Ty::Num, Ty::Str].choose(self.rng).unwrap_or(&Ty::Bool);
        self.expr(ty, MAX_DEPTH)
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> Expr {
        if depth == 0 || self.rng.gen_bool(0.25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Ty::Bool => self.bool_expr(d),
            Ty::Num => match self.rng.gen_range(0..6) {
                0 => Expr::Neg(Box::new(self.expr(Ty::Num, d))),
                1 => Expr::Plus(Box::new(self.expr(Ty::Num, d))),
                k => {
                    let op = [ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div][k - 2];
                    Expr::Arith(op, Box::new(self.expr(Ty::Num, d)), Box::new(self.expr(Ty::Num, d)))
                }
            },
            Ty::Str if (self.caps)(Cap::Builtins) && self.rng.gen_bool(0.5) => {
                let f = *[Func::Str, Func::Lang, Func::Datatype].choose(self.rng).unwrap_or(&Func::Str);
                Expr::Call(f, Box::new(self.any_leaf()))
            }
            Ty::Str => self.leaf(Ty::Str),
        }
    }

    fn bool_expr(&mut self, d: u32) -> Expr {
        match self.rng.gen_range(0..7) {
            0 => Expr::Not(Box::new(self.expr(Ty::Bool, d))),
            1 => Expr::And(Box::new(self.expr(Ty::Bool, d)), Box::new(self.expr(Ty::Bool, d))),
            2 => Expr::Or(Box::new(self.expr(Ty::Bool, d)), Box::new(self.expr(Ty::Bool, d))),
            3 if self.next_var > 0 && self.rng.gen_bool(0.5) => Expr::Bound(self.rng.gen_range(0..self.next_var)),
            3 if (self.caps)(Cap::Builtins) => {
                let f = *[Func::IsIri, Func::IsLiteral, Func::IsBlank].choose(self.rng).unwrap_or(&Func::IsIri);
                Expr::Call(f, Box::new(self.any_leaf()))
            }
            _ => {
                let op = *[CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge]
                    .choose(self.rng)
                    .unwrap_or(&CmpOp::Eq);
                let ty = *[Ty::Num, Ty::Num, Ty::Str, Ty::Bool].choose(self.rng).unwrap_or(&Ty::Num);
                Expr::Cmp(op, Box::new(self.expr(ty, d)), Box::new(self.expr(ty, d)))
            }
        }
    }

    /// A variable of the query (RD²'s paper: leaves may be variables) or a constant.
    fn any_leaf(&mut self) -> Expr {
        if self.next_var > 0 && self.rng.gen_bool(0.7) {
            return Expr::Var(self.rng.gen_range(0..self.next_var));
        }
        match self.pools.iris.choose(self.rng) {
            Some(i) if self.rng.gen_bool(0.3) => Expr::Iri(i.clone()),
            _ => Expr::Lit(literal(self.rng)),
        }
    }

    /// A leaf of type `ty`: a variable (half the time), else a constant from the graph's pool
    /// of that type (half the time), else a fresh one.
    fn leaf(&mut self, ty: Ty) -> Expr {
        if self.next_var > 0 && self.rng.gen_bool(0.5) {
            return Expr::Var(self.rng.gen_range(0..self.next_var));
        }
        let pool = match ty {
            Ty::Bool => &self.pools.booleans,
            Ty::Num => &self.pools.numbers,
            Ty::Str => &self.pools.strings,
        };
        if let Some(l) = pool.choose(self.rng).filter(|_| self.rng.gen_bool(0.5)) {
            return Expr::Lit(l.clone());
        }
        Expr::Lit(match ty {
            Ty::Bool => Lit::typed(if self.rng.gen_bool(0.5) { "true" } else { "false" }, "boolean"),
            Ty::Num => Lit::typed(self.rng.gen_range(-100..100).to_string(), "integer"),
            Ty::Str => Lit::typed(crate::gen::integer(self.rng).to_string(), "string"),
        })
    }
}
