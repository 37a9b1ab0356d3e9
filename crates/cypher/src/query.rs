//! GDsmith's query generation (extraction §2.3–2.5): a random skeleton (MATCH, then 1 to 4 of
//! MATCH / OPTIONAL MATCH / WITH / UNWIND, then RETURN) whose slots are filled clause by clause
//! from the context: the local environment (the variables in scope, reset by WITH) and the
//! facts (each variable's type; a node's label, a relationship's type). That meets the three
//! semantic requirements: only variables in scope are referenced, operands have the types their
//! operators need, and property keys come from the schema of the variable's label or type.
//!
//! No undefined behaviour is generated: integers stay in ranges whose sums cannot overflow,
//! there is no division, no float comparison, SKIP/LIMIT only under ORDER BY every returned
//! column, and no whole node or relationship is returned (their `id` properties are).

use crate::dialect::Cap;
use crate::gen::{self, Pools};
use crate::model::{
    Agg, Clause, CmpOp, Dir, Expr, Func, Graph, Item, Lit, NodePat, Pattern, Query, RelPat, Return, StrOp, Ty, VarLen,
};
use rand::Rng;
use std::collections::BTreeMap;

/// How often each property key occurred in queries that returned rows, this graph (GDsmith's
/// frequency feedback, extraction §2.7).
pub type Freq = BTreeMap<String, u64>;

/// What is known of a variable in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    Node(Option<usize>),
    Rel(Option<usize>),
    Val(Ty),
    /// An `avg()`: returned, never an operand (floats are not compared).
    Float,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    pub name: String,
    pub fact: Fact,
}

/// Pattern starts on new, unconnected nodes a query may have: each multiplies the rows.
const MAX_FREE: u32 = 3;

pub struct QueryGen<'a, R: Rng> {
    rng: &'a mut R,
    g: &'a Graph,
    pools: &'a Pools,
    caps: &'a dyn Fn(Cap) -> bool,
    /// Row-wise clauses only (no aggregates, DISTINCT, ORDER BY or LIMIT): partition cases.
    rowwise: bool,
    /// Property keys are chosen by Eq. 1 of this frequency list where there is one.
    freq: Option<&'a Freq>,
    env: Vec<Var>,
    /// Where generation stands: what [`QueryGen::context`] hands a later mutation.
    ctx: Context,
}

/// Where a query's generation stood after its last clause: what a mutation that extends it
/// resumes from.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The scope after each clause.
    pub envs: Vec<Vec<Var>>,
    /// What the RETURN items define.
    pub ret_env: Vec<Var>,
    /// The next fresh name's number, and the free pattern starts used.
    pub next: u32,
    pub free: u32,
    /// The aliases computed from an aggregate, directly or through another such alias.
    pub aggregated: Vec<String>,
}

impl<'a, R: Rng> QueryGen<'a, R> {
    pub fn new(rng: &'a mut R, g: &'a Graph, pools: &'a Pools, caps: &'a dyn Fn(Cap) -> bool, rowwise: bool) -> Self {
        QueryGen { rng, g, pools, caps, rowwise, freq: None, env: Vec::new(), ctx: Context::default() }
    }

    /// Chooses property keys by GDsmith's frequency feedback.
    pub fn with_freq(mut self, freq: &'a Freq) -> Self {
        self.freq = Some(freq);
        self
    }

    /// Where generation stands, for a later mutation to resume from.
    pub fn context(&self) -> Context {
        self.ctx.clone()
    }

    /// Continues after the first `upto` clauses of a query made with `ctx`, whose RETURN became
    /// a WITH defining `ctx.ret_env` (GDsmith's DelayReturn): `n` more clauses, then a RETURN.
    /// Takes `ctx` as its own: the context of the query (fresh or mutant) that oracles'
    /// predicates are then drawn for.
    pub fn adopt(&mut self, ctx: &Context) {
        self.ctx = ctx.clone();
    }

    pub fn resume(&mut self, ctx: &Context, clauses: Vec<Clause>, n: usize) -> Query {
        self.ctx = ctx.clone();
        self.ctx.envs.push(ctx.ret_env.clone());
        self.env = ctx.ret_env.clone();
        let clauses = self.extend(clauses, n);
        Query { clauses, ret: self.ret() }
    }

    fn name(&mut self, prefix: char) -> String {
        self.ctx.next += 1;
        format!("{prefix}{}", self.ctx.next - 1)
    }

    pub fn query(&mut self) -> Query {
        let first = self.matching(false);
        self.ctx.envs.push(self.env.clone());
        let extra = self.rng.gen_range(1..=4);
        let clauses = self.extend(vec![first], extra);
        Query { clauses, ret: self.ret() }
    }

    /// `n` more clauses after `clauses`, whose scope is the current one.
    fn extend(&mut self, mut clauses: Vec<Clause>, n: usize) -> Vec<Clause> {
        // FalkorDB's mask: no MATCH once an OPTIONAL MATCH ran, until a WITH.
        let mut after_optional = clauses
            .iter()
            .rev()
            .take_while(|c| !matches!(c, Clause::With { .. }))
            .any(|c| matches!(c, Clause::Match { optional: true, .. }));
        for _ in 0..n {
            let kinds: &[u8] =
                if after_optional && !(self.caps)(Cap::MatchAfterOptional) { &[1, 2, 3] } else { &[0, 1, 2, 3] };
            let c = match kinds[self.rng.gen_range(0..kinds.len())] {
                0 => self.matching(false),
                1 => self.matching(true),
                2 => self.with(),
                _ => self.unwind(),
            };
            match &c {
                Clause::Match { optional: true, .. } => after_optional = true,
                Clause::With { .. } => after_optional = false,
                _ => {}
            }
            clauses.push(c);
            self.ctx.envs.push(self.env.clone());
        }
        clauses
    }

    /// A uniform index below `n` (at least 1).
    pub fn pick(&mut self, n: usize) -> usize {
        self.rng.gen_range(0..n.max(1))
    }

    /// A boolean predicate over the scope of MATCH clause `at` (the partition oracle's p).
    /// A predicate over `scope` for a MATCH's WHERE (a partition's, a tautology's), kept to
    /// the variables such a WHERE may read in the run's dialects ([`Cap::AggregatedOperand`]).
    pub fn predicate(&mut self, scope: &[Var]) -> Expr {
        let scope = self.plain(scope);
        self.expr(Ty::Bool, 2, &scope)
    }

    fn matching(&mut self, optional: bool) -> Clause {
        let mut fresh: Vec<Var> = Vec::new();
        let n = if self.rng.gen_bool(0.7) { 1 } else { 2 };
        let mut patterns: Vec<Pattern> = (0..n).map(|_| self.pattern(&mut fresh)).collect();
        self.var_length(&mut patterns, &mut fresh);
        self.env.extend(fresh.iter().cloned());
        let env = self.plain(&self.env);
        let p = self.rng.gen_bool(0.5).then(|| self.expr(Ty::Bool, 2, &env));
        let filter = match (trail(&patterns), p) {
            (Some(d), Some(p)) => Some(Expr::And(Box::new(d), Box::new(p))),
            (d, p) => d.or(p),
        };
        Clause::Match { optional, patterns, filter }
    }

    /// A path. One without a relationship starts on a new node: a lone bound node means
    /// different things where it is null (an OPTIONAL MATCH's). openCypher drops the row;
    /// FalkorDB 4.16.3 and GraphQLite 0.12.0 keep it; Kuzu 0.11.3 keeps it only when the MATCH
    /// has nothing else (no other pattern, no WHERE).
    fn pattern(&mut self, fresh: &mut Vec<Var>) -> Pattern {
        let mut hops = match self.rng.gen_range(0..8) {
            0..=3 => 0,
            4..=6 => 1,
            _ => 2,
        };
        if hops == 0 && self.ctx.free >= MAX_FREE {
            // No new unconnected node is left in the budget.
            hops = 1;
        }
        let start = self.node(None, fresh, true, hops > 0);
        let mut last = start.clone();
        let mut out = Pattern { start, hops: Vec::new() };
        for _ in 0..hops {
            let from = self.label_of(&last.var, fresh);
            let dir = [Dir::Out, Dir::In, Dir::Both][self.rng.gen_range(0..3)];
            let types: Vec<usize> = (0..self.g.schema.types.len())
                .filter(|t| self.g.schema.types[*t].pairs.iter().any(|p| from.is_none_or(|l| ends(*p, dir).0 == l)))
                .collect();
            let ty = (!types.is_empty() && self.rng.gen_bool(0.5)).then(|| types[self.rng.gen_range(0..types.len())]);
            let allowed: Option<Vec<usize>> = ty.map(|t| {
                let pairs = &self.g.schema.types[t].pairs;
                pairs.iter().filter(|p| from.is_none_or(|l| ends(**p, dir).0 == l)).map(|p| ends(*p, dir).1).collect()
            });
            let var = self.name('r');
            let props = match ty {
                Some(t) if self.rng.gen_bool(0.2) => self.inline(&self.g.schema.types[t].props.clone()),
                _ => Vec::new(),
            };
            fresh.push(Var { name: var.clone(), fact: Fact::Rel(ty) });
            let node = self.node(allowed.as_deref(), fresh, false, true);
            last = node.clone();
            out.hops.push((RelPat { var, ty, dir, props, len: None }, node));
        }
        out
    }

    /// Makes the MATCH's relationship variable-length when it has exactly one. Alone, because
    /// engines differ on whether a fixed relationship of the same MATCH may recur inside a
    /// variable-length one (FalkorDB and Kuzu let it, GraphQLite does not; see `dialect.rs`),
    /// and a list of relationships has no `id` for the generator's `<>` conjuncts. Without a
    /// variable: it would be a list, never to be used as one relationship. The far node's label
    /// was drawn for one hop, which a longer trail of the type may end on as well.
    fn var_length(&mut self, patterns: &mut [Pattern], fresh: &mut Vec<Var>) {
        let mut hops = patterns.iter_mut().flat_map(|p| &mut p.hops);
        let (Some((r, _)), None) = (hops.next(), hops.next()) else { return };
        if !(self.caps)(Cap::VarLength) || !self.rng.gen_bool(0.5) {
            return;
        }
        fresh.retain(|v| v.name != r.var);
        r.var.clear();
        let max = self.rng.gen_range(1..=3);
        // The zero bound is drawn only where the run's dialects take it, so that the stream
        // of the others stays as it was.
        let min = match self.rng.gen_range(0..4) {
            0 => None,
            1 => Some(max),
            _ if (self.caps)(Cap::ZeroLength) && self.rng.gen_bool(0.5) => Some(0),
            _ => Some(self.rng.gen_range(1..=max)),
        };
        r.len = Some(VarLen { min, max });
    }

    fn label_of(&self, var: &str, fresh: &[Var]) -> Option<usize> {
        self.env.iter().chain(fresh).find(|v| v.name == var).and_then(|v| match v.fact {
            Fact::Node(l) => l,
            _ => None,
        })
    }

    /// A node pattern: a node variable in scope (or bound earlier in this MATCH) where `reuse`
    /// allows, or a new one with a label (one of `allowed` when a relationship type constrains
    /// it) and properties.
    fn node(&mut self, allowed: Option<&[usize]>, fresh: &mut Vec<Var>, start: bool, reuse: bool) -> NodePat {
        let known: Vec<String> = self
            .env
            .iter()
            .chain(fresh.iter())
            .filter(|v| matches!(v.fact, Fact::Node(_)))
            .map(|v| v.name.clone())
            .collect();
        let must_reuse = start && self.ctx.free >= MAX_FREE && !known.is_empty();
        if reuse && !known.is_empty() && (must_reuse || self.rng.gen_bool(0.5)) {
            let var = known[self.rng.gen_range(0..known.len())].clone();
            return NodePat { var, label: None, props: Vec::new() };
        }
        if start {
            self.ctx.free += 1;
        }
        let nl = self.g.schema.labels.len();
        let label = match allowed {
            Some(a) if !a.is_empty() => self.rng.gen_bool(0.5).then(|| a[self.rng.gen_range(0..a.len())]),
            _ => self.rng.gen_bool(0.5).then(|| self.rng.gen_range(0..nl)),
        };
        let props = match label {
            Some(l) if self.rng.gen_bool(0.2) => self.inline(&self.g.schema.labels[l].clone()),
            _ => Vec::new(),
        };
        let var = self.name('n');
        fresh.push(Var { name: var.clone(), fact: Fact::Node(label) });
        NodePat { var, label, props }
    }

    fn inline(&mut self, props: &[crate::model::Prop]) -> Vec<(String, Lit)> {
        if props.is_empty() {
            return Vec::new();
        }
        let keys: Vec<&str> = props.iter().map(|p| p.key.as_str()).collect();
        let p = &props[self.key(&keys)];
        let v = self.literal(p.ty);
        vec![(p.key.clone(), v)]
    }

    fn literal(&mut self, ty: Ty) -> Lit {
        let keyed: Vec<&Vec<Lit>> = self.pools.values().filter(|p| p.first().is_some_and(|l| l.ty() == ty)).collect();
        if !keyed.is_empty() && self.rng.gen_bool(0.7) {
            let pool = keyed[self.rng.gen_range(0..keyed.len())];
            return pool[self.rng.gen_range(0..pool.len())].clone();
        }
        gen::value(self.rng, ty)
    }

    fn with(&mut self) -> Clause {
        let env = self.env.clone();
        let mut items: Vec<Item> = Vec::new();
        let mut scope: Vec<Var> = Vec::new();
        for v in &env {
            if self.rng.gen_bool(0.5) {
                items.push(Item { expr: Expr::Var(v.name.clone()), alias: v.name.clone() });
                scope.push(v.clone());
            }
        }
        let n = self.rng.gen_range(0..=2) + usize::from(items.is_empty());
        for _ in 0..n {
            let (item, var) = self.item(&env, false);
            items.push(item);
            scope.push(var);
        }
        if !self.rowwise && self.rng.gen_bool(0.3) {
            let (item, var) = self.item(&env, true);
            items.push(item);
            scope.push(var);
        }
        let distinct = !self.rowwise && self.rng.gen_bool(0.2);
        self.env = scope;
        let env = self.env.clone();
        let filter = self.rng.gen_bool(0.5).then(|| self.expr(Ty::Bool, 2, &env));
        Clause::With { distinct, items, filter }
    }

    /// A projection item `expr AS aN` over `env` (an aggregate when `agg`), and the variable
    /// it defines.
    fn item(&mut self, env: &[Var], agg: bool) -> (Item, Var) {
        let alias = self.name('a');
        let (expr, fact) = if agg {
            self.aggregate(&self.plain(env))
        } else {
            let floats: Vec<&Var> = env.iter().filter(|v| v.fact == Fact::Float).collect();
            if !floats.is_empty() && self.rng.gen_bool(0.2) {
                (Expr::Var(floats[self.rng.gen_range(0..floats.len())].name.clone()), Fact::Float)
            } else {
                let ty = [Ty::Int, Ty::Str, Ty::Bool][self.rng.gen_range(0..3)];
                (self.expr(ty, 2, env), Fact::Val(ty))
            }
        };
        if expr.has_agg() || expr.vars().iter().any(|v| self.ctx.aggregated.iter().any(|a| a == v)) {
            self.ctx.aggregated.push(alias.clone());
        }
        (Item { expr, alias: alias.clone() }, Var { name: alias, fact })
    }

    /// `env` less the aliases computed from an aggregate, where a dialect of the run cannot
    /// take them everywhere ([`Cap::AggregatedOperand`]).
    fn plain(&self, env: &[Var]) -> Vec<Var> {
        let all = (self.caps)(Cap::AggregatedOperand);
        env.iter().filter(|v| all || !self.ctx.aggregated.contains(&v.name)).cloned().collect()
    }

    fn aggregate(&mut self, env: &[Var]) -> (Expr, Fact) {
        let arg = |s: &mut Self, ty: Ty| Some(Box::new(s.expr(ty, 1, env)));
        match self.rng.gen_range(0..6) {
            0 => (Expr::Agg(Agg::CountStar, None), Fact::Val(Ty::Int)),
            1 => {
                let ty = [Ty::Int, Ty::Str, Ty::Bool][self.rng.gen_range(0..3)];
                (Expr::Agg(Agg::Count, arg(self, ty)), Fact::Val(Ty::Int))
            }
            2 | 3 => {
                let ty = if self.rng.gen_bool(0.5) { Ty::Int } else { Ty::Str };
                let a = if self.rng.gen_bool(0.5) { Agg::Min } else { Agg::Max };
                (Expr::Agg(a, arg(self, ty)), Fact::Val(ty))
            }
            4 if (self.caps)(Cap::IntegerSum) => (Expr::Agg(Agg::Sum, arg(self, Ty::Int)), Fact::Val(Ty::Int)),
            4 => (Expr::Agg(Agg::Count, arg(self, Ty::Int)), Fact::Val(Ty::Int)),
            _ => (Expr::Agg(Agg::Avg, arg(self, Ty::Int)), Fact::Float),
        }
    }

    fn unwind(&mut self) -> Clause {
        let env = self.env.clone();
        let ty = [Ty::Int, Ty::Str, Ty::Bool][self.rng.gen_range(0..3)];
        let list = (0..self.rng.gen_range(1..=3)).map(|_| self.expr(ty, 1, &env)).collect();
        let alias = self.name('a');
        self.env.push(Var { name: alias.clone(), fact: Fact::Val(ty) });
        Clause::Unwind { list, alias }
    }

    fn ret(&mut self) -> Return {
        let env = self.env.clone();
        let n = self.rng.gen_range(1..=3);
        let mut items = Vec::new();
        self.ctx.ret_env.clear();
        for _ in 0..n {
            let agg = !self.rowwise && self.rng.gen_bool(0.25);
            let (item, var) = self.item(&env, agg);
            items.push(item);
            self.ctx.ret_env.push(var);
        }
        let distinct = !self.rowwise && self.rng.gen_bool(0.2);
        let order = !self.rowwise && self.rng.gen_bool(0.3);
        let limit = (order && self.rng.gen_bool(0.5)).then(|| self.rng.gen_range(1..=5));
        Return { distinct, items, order, limit }
    }

    /// A typed expression over `env`, at most `depth` operators deep.
    pub fn expr(&mut self, ty: Ty, depth: u32, env: &[Var]) -> Expr {
        if depth == 0 || self.rng.gen_bool(0.4) {
            return self.leaf(ty, env);
        }
        let sub = |s: &mut Self, t: Ty| Box::new(s.expr(t, depth - 1, env));
        match ty {
            Ty::Int => match self.rng.gen_range(0..4) {
                0 => Expr::Add(sub(self, Ty::Int), sub(self, Ty::Int)),
                1 => Expr::Sub(sub(self, Ty::Int), sub(self, Ty::Int)),
                2 => Expr::Call(Func::Abs, sub(self, Ty::Int)),
                _ => Expr::Call(Func::Size, sub(self, Ty::Str)),
            },
            Ty::Str => match self.rng.gen_range(0..3) {
                0 if (self.caps)(Cap::ConcatNull) => Expr::Concat(sub(self, Ty::Str), sub(self, Ty::Str)),
                0 => Expr::Call(Func::ToUpper, sub(self, Ty::Str)),
                1 => Expr::Call(Func::ToUpper, sub(self, Ty::Str)),
                _ => Expr::Call(Func::ToLower, sub(self, Ty::Str)),
            },
            Ty::Bool => self.boolean(depth, env),
        }
    }

    fn boolean(&mut self, depth: u32, env: &[Var]) -> Expr {
        let sub = |s: &mut Self, t: Ty| Box::new(s.expr(t, depth - 1, env));
        const CMPS: [CmpOp; 6] = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge];
        match self.rng.gen_range(0..8) {
            0 => Expr::Not(sub(self, Ty::Bool)),
            1 => Expr::And(sub(self, Ty::Bool), sub(self, Ty::Bool)),
            2 => Expr::Or(sub(self, Ty::Bool), sub(self, Ty::Bool)),
            3 | 4 => {
                let ty = if self.rng.gen_bool(0.5) { Ty::Int } else { Ty::Str };
                let op = CMPS[self.rng.gen_range(0..6)];
                Expr::Cmp(op, sub(self, ty), sub(self, ty))
            }
            5 => {
                let op = [StrOp::StartsWith, StrOp::EndsWith, StrOp::Contains][self.rng.gen_range(0..3)];
                Expr::Str(op, sub(self, Ty::Str), sub(self, Ty::Str))
            }
            6 => {
                let ty = [Ty::Int, Ty::Str, Ty::Bool][self.rng.gen_range(0..3)];
                Expr::IsNull(sub(self, ty), self.rng.gen_bool(0.5))
            }
            _ => {
                let op = if self.rng.gen_bool(0.5) { CmpOp::Eq } else { CmpOp::Ne };
                Expr::Cmp(op, sub(self, Ty::Bool), sub(self, Ty::Bool))
            }
        }
    }

    /// A property of a variable in scope, a value variable, or a literal, of type `ty`.
    fn leaf(&mut self, ty: Ty, env: &[Var]) -> Expr {
        let mut options: Vec<Expr> = Vec::new();
        for v in env {
            let props = match v.fact {
                Fact::Node(l) => self.g.schema.node_props(l),
                Fact::Rel(t) => self.g.schema.rel_props(t),
                Fact::Val(t) if t == ty => {
                    options.push(Expr::Var(v.name.clone()));
                    continue;
                }
                _ => continue,
            };
            if ty == Ty::Int {
                options.push(id_of(&v.name));
            }
            options.extend(props.iter().filter(|p| p.ty == ty).map(|p| Expr::Prop(v.name.clone(), p.key.clone())));
        }
        if !options.is_empty() && self.rng.gen_bool(0.7) {
            return match options.swap_remove(self.rng.gen_range(0..options.len())) {
                Expr::Prop(v, k) if k != "id" && self.freq.is_some() => self.reweighed(v, k, ty, env),
                e => e,
            };
        }
        Expr::Lit(self.literal(ty))
    }

    /// A property of `var` of type `ty`, its key chosen again by frequency (the uniform
    /// choice `key` stands when there is nothing to choose from).
    fn reweighed(&mut self, var: String, key: String, ty: Ty, env: &[Var]) -> Expr {
        let props = match env.iter().find(|v| v.name == var).map(|v| v.fact) {
            Some(Fact::Node(l)) => self.g.schema.node_props(l),
            Some(Fact::Rel(t)) => self.g.schema.rel_props(t),
            _ => Vec::new(),
        };
        let keys: Vec<&str> = props.iter().filter(|p| p.ty == ty).map(|p| p.key.as_str()).collect();
        let key = match keys.len() {
            0 => key,
            _ => keys[self.key(&keys)].to_string(),
        };
        Expr::Prop(var, key)
    }

    /// The index of one of `keys` (at least one): by GDsmith's Eq. 1 over the frequency list,
    /// P_i = (ΣF − F_i) / ((N − 1) ΣF), which favours keys seen least in queries that returned
    /// rows; uniform without feedback, before any (ΣF = 0), or for a single key.
    fn key(&mut self, keys: &[&str]) -> usize {
        let f: Vec<u64> = keys.iter().map(|k| self.freq.and_then(|f| f.get(*k)).copied().unwrap_or(0)).collect();
        by_frequency(self.rng, &f)
    }
}

/// The conjuncts that keep a MATCH's relationships pairwise distinct. Cypher matches each
/// relationship at most once per pattern match; Kuzu walks (a relationship may repeat).
/// GDsmith's own conjuncts make both agree, so no mutation may drop them.
pub fn trail(patterns: &[Pattern]) -> Option<Expr> {
    // An anonymous (variable-length) relationship has no id to compare.
    let rels: Vec<&str> =
        patterns.iter().flat_map(|p| &p.hops).map(|(r, _)| r.var.as_str()).filter(|v| !v.is_empty()).collect();
    let mut distinct: Option<Expr> = None;
    for (i, a) in rels.iter().enumerate() {
        for b in &rels[i + 1..] {
            let ne = Expr::Cmp(CmpOp::Ne, Box::new(id_of(a)), Box::new(id_of(b)));
            distinct = Some(match distinct {
                Some(d) => Expr::And(Box::new(d), Box::new(ne)),
                None => ne,
            });
        }
    }
    distinct
}

/// The scope each (non-optional) MATCH clause's WHERE sees, by clause index: where the
/// partition oracle may split and the equivalence oracle may add a tautology.
pub fn match_scopes(query: &Query, envs: &[Vec<Var>]) -> Vec<(usize, Vec<Var>)> {
    query
        .clauses
        .iter()
        .zip(envs)
        .enumerate()
        .filter(|(_, (c, _))| matches!(c, Clause::Match { optional: false, .. }))
        .map(|(i, (_, env))| (i, env.clone()))
        .collect()
}

/// An index into `f` (one frequency per key, at least one key) drawn by Eq. 1.
pub fn by_frequency<R: Rng + ?Sized>(rng: &mut R, f: &[u64]) -> usize {
    let sum: u64 = f.iter().sum();
    if f.len() < 2 || sum == 0 {
        return rng.gen_range(0..f.len().max(1));
    }
    let mut r = rng.gen_range(0..sum * (f.len() as u64 - 1));
    for (i, fi) in f.iter().enumerate() {
        let w = sum - fi;
        if r < w {
            return i;
        }
        r -= w;
    }
    f.len() - 1
}

/// `v.id`.
pub fn id_of(var: &str) -> Expr {
    Expr::Prop(var.to_string(), "id".into())
}

/// The (near, far) labels of a pair seen from the pattern's left node in direction `dir`.
fn ends(pair: (usize, usize), dir: Dir) -> (usize, usize) {
    match dir {
        Dir::Out | Dir::Both => pair,
        Dir::In => (pair.1, pair.0),
    }
}

#[cfg(test)]
mod tests {
    use super::by_frequency;

    /// Draws 16,000 times: how often each key came.
    fn shares(f: &[u64]) -> Vec<f64> {
        let mut rng = crosscheck_core::rng(5, 0);
        let mut n = vec![0u32; f.len()];
        for _ in 0..16_000 {
            n[by_frequency(&mut rng, f)] += 1;
        }
        n.iter().map(|c| f64::from(*c) / 16_000.0).collect()
    }

    fn near(got: &[f64], want: &[f64]) -> bool {
        got.iter().zip(want).all(|(g, w)| (g - w).abs() < 0.02)
    }

    #[test]
    fn keys_are_drawn_by_equation_one_with_its_edge_cases() {
        // P_i = (ΣF − F_i) / ((N − 1) ΣF).
        assert!(near(&shares(&[2, 2, 4]), &[6.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0]));
        // Two keys: inversely proportional.
        assert!(near(&shares(&[3, 1]), &[0.25, 0.75]));
        // A key holding all the frequency is never drawn; the others share the rest.
        assert!(near(&shares(&[5, 0, 0]), &[0.0, 0.5, 0.5]));
        // No frequency yet: uniform. One key: that key.
        assert!(near(&shares(&[0, 0, 0, 0]), &[0.25; 4]));
        assert_eq!(shares(&[7]), vec![1.0]);
    }
}
