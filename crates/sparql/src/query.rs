//! RD²'s graph-guided query generation (§2.3 of the extraction): basic graph patterns built
//! from the graph's own triples (a pivot triple and triples that share a node with it, so the
//! pivot's bindings are a solution: the non-empty rate RD² lacked), FILTER trees of a
//! configured depth over typed operators whose leaves are pool constants or the query's
//! variables, DISTINCT, UNION, OPTIONAL, ORDER BY, and LIMIT/OFFSET only under a total ORDER BY.
//! Beyond RD², each behind its capability: property paths built along the graph's own edges,
//! VALUES holding the nodes a pattern's variables bind, BIND, MINUS, and aggregates with GROUP
//! BY and HAVING. The expressions are `exprgen`'s.

use crate::dialect::Cap;
use crate::gen::Pools;
use crate::model::{
    AggFunc, Aggregate, Aggregation, CmpOp, Expr, Graph, Group, Lit, Node, PTerm, Path, PathPattern, Pattern, Query,
    Triple, Values,
};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashMap;

/// What a query generator works from.
pub struct QueryGen<'a, R: Rng> {
    pub rng: &'a mut R,
    pub graph: &'a Graph,
    pub pools: &'a Pools,
    pub caps: &'a dyn Fn(Cap) -> bool,
    /// The stores of the run take a language-tagged literal's EBV differently
    /// (`Cap::StrictEbv`): every term whose EBV a FILTER takes is guarded (`exprgen::ebv`).
    pub guard_ebv: bool,
    /// The run's stores differ on `Cap::PathAltBag`: an alternative path stands only where
    /// duplicate solutions cannot show (under DISTINCT), or is cut to its first branch.
    pub alt_set_only: bool,
    /// Graph nodes already standing for a variable, so patterns join on them.
    pub(crate) vars: HashMap<Node, u32>,
    pub(crate) next_var: u32,
    /// The variables of the first basic graph pattern (below this id), each bound to the node
    /// it was drawn from in the pivot's solution.
    pub(crate) pivot_scope: u32,
    /// Generating a value a store returns (BIND, aggregates) rather than a condition: only
    /// operations whose result SPARQL defines to the last digit (no division).
    pub(crate) value_mode: bool,
}

impl<'a, R: Rng> QueryGen<'a, R> {
    pub fn new(rng: &'a mut R, graph: &'a Graph, pools: &'a Pools, caps: &'a dyn Fn(Cap) -> bool) -> Self {
        QueryGen {
            rng,
            graph,
            pools,
            caps,
            guard_ebv: false,
            alt_set_only: false,
            vars: HashMap::new(),
            next_var: 0,
            pivot_scope: 0,
            value_mode: false,
        }
    }

    pub(crate) fn has(&self, cap: Cap) -> bool {
        (self.caps)(cap)
    }

    pub fn query(&mut self) -> Query {
        let n = self.rng.gen_range(1..=3);
        let mut group = Group { bgp: self.bgp(n), ..Group::default() };
        self.pivot_scope = self.next_var;
        if self.next_var == 0 {
            // A pattern of constants only: its subject becomes a variable, so the query has
            // something to project (`SELECT WHERE` is not SPARQL).
            let v = self.fresh();
            if let Some(first) = group.bgp.first_mut() {
                first.s = PTerm::Var(v);
            }
        }
        if self.has(Cap::Paths) && self.rng.gen_bool(0.25) {
            if let Some(p) = self.path_pattern() {
                group.paths.push(p);
            }
        }
        if self.has(Cap::Union) && self.rng.gen_bool(0.2) {
            group.union = Some((self.bgp(1), self.bgp(1)));
        }
        if self.has(Cap::Optional) && self.rng.gen_bool(0.25) {
            group.optional = Some(self.bgp(1));
        }
        if self.has(Cap::Values) && self.rng.gen_bool(0.15) {
            group.values = Some(self.values());
        }
        if self.has(Cap::Bind) && self.rng.gen_bool(0.2) {
            let e = self.value();
            group.binds.push((e, self.fresh()));
        }
        // Variables a MINUS or an EXISTS adds are not in scope outside it: never projected.
        let scope = self.next_var;
        if self.has(Cap::Minus) && self.rng.gen_bool(0.15) {
            group.minus = Some(self.bgp(1));
        }
        // Less often than always: a FILTER of random constants and variables is false or an
        // error about half the time, and RD²'s 30 % non-empty rate is the thing to beat.
        if self.rng.gen_bool(0.6) {
            let f = self.filter();
            // Half the time or'ed with a comparison the pivot's solution satisfies (RD²'s
            // guidance, taken from the pools to the solution): the tree still decides for
            // every other solution.
            let guided = if self.rng.gen_bool(0.5) { self.guided() } else { None };
            let filter = match guided {
                Some(g) => Expr::Or(Box::new(g), Box::new(f)),
                None => f,
            };
            group.filters.push(match filter {
                Expr::Or(a, b) if !self.has(Cap::FilterDisjunctionBag) => {
                    let not = |e: Box<Expr>| Box::new(Expr::Not(e));
                    Expr::Not(Box::new(Expr::And(not(a), not(b))))
                }
                other => other,
            });
        }
        let mut all: Vec<u32> = (0..scope).collect();
        all.shuffle(self.rng);
        let n = self.rng.gen_range(1..=all.len().max(1));
        let mut project: Vec<u32> = all.into_iter().take(n).collect();
        let mut aggregation = None;
        if self.has(Cap::Aggregates) && self.rng.gen_bool(0.2) {
            let a = self.aggregation(&project);
            project.truncate(a.keys.len());
            project.extend(a.aggs.iter().map(|(v, _)| *v));
            project.shuffle(self.rng);
            aggregation = Some(a);
        }
        let mut q = Query { distinct: self.rng.gen_bool(0.5), project, group, aggregation, ..Query::default() };
        if self.rng.gen_bool(0.5) {
            self.order(&mut q);
        }
        if self.alt_set_only {
            set_only_alternatives(&mut q);
        }
        q
    }

    /// GROUP BY some of `candidates` (the first ones, so the caller keeps them projected),
    /// one or two aggregates and sometimes a HAVING. Every aggregate's argument has a value
    /// of one type whatever the solution binds (`exprgen::agg_arg`), so its result is defined:
    /// no mixed-type MIN, no sum of doubles whose order changes its last digit.
    fn aggregation(&mut self, candidates: &[u32]) -> Aggregation {
        let k = self.rng.gen_range(0..=candidates.len().min(2));
        let keys = candidates[..k].to_vec();
        // Arguments first, then the new variables: an argument never names another alias.
        let implicit = keys.is_empty();
        let args: Vec<Aggregate> = (0..self.rng.gen_range(1..=2)).map(|_| self.aggregate(implicit)).collect();
        let aggs = args.into_iter().map(|a| (self.fresh(), a)).collect();
        let mut having = Vec::new();
        let having_allowed = !keys.is_empty() || self.has(Cap::ImplicitGroupHaving);
        if having_allowed && self.rng.gen_bool(0.3) {
            let a = self.aggregate(implicit);
            let op = *[CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Eq, CmpOp::Ne].choose(self.rng).unwrap_or(&CmpOp::Gt);
            let bound = Expr::Lit(Lit::typed(self.rng.gen_range(0..4).to_string(), "integer"));
            let count = Aggregate { func: AggFunc::Count, distinct: a.distinct, arg: a.arg };
            having.push(Expr::Cmp(op, Box::new(Expr::Agg(Box::new(count))), Box::new(bound)));
        }
        Aggregation { keys, aggs, having }
    }

    /// An aggregate; over the `implicit` group of an aggregation without GROUP BY, which may be
    /// empty, no AVG where a store of the run answers an empty AVG its own way.
    fn aggregate(&mut self, implicit: bool) -> Aggregate {
        let mut funcs = vec![AggFunc::Count, AggFunc::Sum, AggFunc::Min, AggFunc::Max];
        if !implicit || self.has(Cap::EmptyAvg) {
            funcs.push(AggFunc::Avg);
        }
        if self.has(Cap::GroupConcat) {
            funcs.push(AggFunc::GroupConcat);
        }
        let func = *funcs.choose(self.rng).unwrap_or(&AggFunc::Count);
        let distinct = self.rng.gen_bool(0.3);
        let arg = match func {
            AggFunc::Count if self.rng.gen_bool(0.3) => None,
            AggFunc::Count => Some(self.any_var()),
            f => Some(self.agg_arg(f)),
        };
        Aggregate { func, distinct, arg }
    }

    /// VALUES over one or two variables: a variable of the patterns takes the node it was
    /// drawn from (so the join keeps the pivot's solution) or another pool term; a new one
    /// any pool term; UNDEF sometimes.
    fn values(&mut self) -> Values {
        let mut vars = Vec::new();
        for _ in 0..self.rng.gen_range(1..=2) {
            let v = if self.next_var > 0 && self.rng.gen_bool(0.7) {
                self.rng.gen_range(0..self.next_var)
            } else {
                self.fresh()
            };
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        let rows = (0..self.rng.gen_range(1..=3)).map(|_| vars.iter().map(|&v| self.cell(v)).collect()).collect();
        Values { vars, rows }
    }

    fn cell(&mut self, v: u32) -> Option<PTerm> {
        if self.rng.gen_bool(0.15) {
            return None;
        }
        let own = self.vars.iter().find(|(_, &x)| x == v).map(|(n, _)| n.clone());
        let node = match own {
            Some(n) if self.rng.gen_bool(0.7) => Some(n),
            _ => {
                self.graph
                    .triples
                    .choose(self.rng)
                    .map(|t| if self.rng.gen_bool(0.5) { t.s.clone() } else { t.o.clone() })
            }
        };
        match node? {
            Node::Iri(i) => Some(PTerm::Iri(i)),
            Node::Lit(l) => Some(PTerm::Lit(l)),
            // VALUES cannot name a blank node.
            Node::Blank(_) => None,
        }
    }

    /// A path pattern along the graph's edges, so it matches: from a triple `s p o`, `s P o`
    /// for a path P that `p` satisfies (`p|q`, `p*`, `!(q)` with q ≠ p, ...), `o ^p s`, or
    /// `s p/q o2` when `o q o2` is an edge too.
    fn path_pattern(&mut self) -> Option<PathPattern> {
        let t = self.graph.triples.iter().filter(|t| t.p != crate::model::BNODE_MARK).collect::<Vec<_>>();
        let t: Triple = (*t.choose(self.rng)?).clone();
        let p = Path::Iri(t.p.clone());
        let other = self.pools.predicates.choose(self.rng).cloned().unwrap_or_else(|| t.p.clone());
        let closure = self.has(Cap::PathClosure);
        let (s, path, o) = match self.rng.gen_range(0..7) {
            0 => (t.o.clone(), Path::Inv(Box::new(p)), t.s.clone()),
            1 => match self.graph.triples.iter().filter(|u| u.s == t.o).collect::<Vec<_>>().choose(self.rng) {
                Some(u) => (t.s.clone(), Path::Seq(Box::new(p), Box::new(Path::Iri(u.p.clone()))), u.o.clone()),
                None => (t.o.clone(), Path::Inv(Box::new(p)), t.s.clone()),
            },
            // The edge's own predicate first where an alternative may be cut to its first branch.
            2 if !self.alt_set_only => (t.s.clone(), Path::Alt(Box::new(Path::Iri(other)), Box::new(p)), t.o.clone()),
            3 if other != t.p => {
                let inverse = self.has(Cap::NegatedInverse) && self.rng.gen_bool(0.3);
                (t.s.clone(), Path::Neg(vec![(other, inverse)]), t.o.clone())
            }
            4 if closure => (t.s.clone(), Path::Star(Box::new(p)), t.o.clone()),
            5 if closure => (t.s.clone(), Path::Plus(Box::new(p)), t.o.clone()),
            6 if closure => (t.s.clone(), Path::Opt(Box::new(p)), t.o.clone()),
            _ => (t.s.clone(), Path::Alt(Box::new(p), Box::new(Path::Iri(other))), t.o.clone()),
        };
        let st = self.position(&s, 0.6);
        let ot = self.position(&o, 0.6);
        let o = self.apart(&st, ot, &o);
        Some(PathPattern { s: st, path, o })
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
        if q.total_order() && self.has(Cap::LimitOffset) {
            if self.rng.gen_bool(0.5) {
                q.limit = Some(self.rng.gen_range(1..=50));
            }
            if self.rng.gen_bool(0.5) {
                q.offset = Some(self.rng.gen_range(1..=5));
            }
            if q.offset.is_some() && q.limit.is_none() && !self.has(Cap::OffsetWithoutLimit) {
                q.limit = Some(LIMIT_FOR_OFFSET);
            }
        }
    }

    pub(crate) fn fresh(&mut self) -> u32 {
        self.next_var += 1;
        self.next_var - 1
    }

    /// `n` patterns from graph triples: the first a pivot, the next ones sharing a node with
    /// a triple already used when the graph has one.
    pub(crate) fn bgp(&mut self, n: usize) -> Vec<Pattern> {
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
        let o = self.apart(&s, o, &t.o);
        Pattern { s, p, o }
    }

    /// The object position `o` of a pattern whose subject is `s`: where a store of the run
    /// mishandles a variable named twice in one pattern (`Cap::RepeatedVariable`), the node
    /// itself rather than the subject's variable, or a new variable for a blank node.
    fn apart(&mut self, s: &PTerm, o: PTerm, node: &Node) -> PTerm {
        if self.has(Cap::RepeatedVariable) || !matches!(o, PTerm::Var(_)) || *s != o {
            return o;
        }
        match node {
            Node::Iri(i) => PTerm::Iri(i.clone()),
            Node::Lit(l) => PTerm::Lit(l.clone()),
            Node::Blank(_) => PTerm::Var(self.fresh()),
        }
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
}

/// A LIMIT written with an OFFSET for a store that refuses OFFSET alone
/// (`Cap::OffsetWithoutLimit`). Every store gets the same text, so the answers stay
/// comparable even past it; under 10,000 with the OFFSET, since Virtuoso sorts at most that
/// many rows for a window ("SR353 Sorted TOP clause specifies more then ... rows").
pub const LIMIT_FOR_OFFSET: u32 = 9_000;

/// Where the run's stores differ on `Cap::PathAltBag`: a query with `a|b` becomes DISTINCT,
/// which makes the multiplicity of its solutions invisible; one that aggregates (where
/// multiplicity is counted) takes the first branch alone.
fn set_only_alternatives(q: &mut Query) {
    if !q.group.paths.iter().any(|p| matches!(p.path, Path::Alt(..))) {
        return;
    }
    if q.aggregation.is_none() {
        q.distinct = true;
        return;
    }
    for p in &mut q.group.paths {
        if let Path::Alt(a, _) = &p.path {
            p.path = (**a).clone();
        }
    }
}
