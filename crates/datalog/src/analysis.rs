//! Static analyses of a program: typing, safety (range restriction) with an evaluation order,
//! the dependency graph, strongly connected components, stratification, the features a program
//! needs from an engine, and the monotonicity condition that lets queryFuzz lift a rule-level
//! oracle to the whole program.

use crate::ast::{CmpOp, Literal, Program, Rule, Term, Type};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// An order of a rule's body literals in which each literal can be evaluated when reached:
/// atoms bind, assignments bind, negations and comparisons only test bound variables.
pub fn plan(rule: &Rule) -> Result<Vec<usize>, String> {
    // The transformations plan a rule for every micro-step; most have no aggregate, and only
    // an aggregate needs its correlated variables.
    let correlated = if rule.has_agg() { others_of(rule) } else { Vec::new() };
    plan_body(&rule.body, &[], &rule.head.args, &correlated)
}

/// Variables of each aggregate literal that also occur outside it (its correlated variables).
fn others_of(rule: &Rule) -> Vec<BTreeSet<String>> {
    rule.body
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if !matches!(l, Literal::Agg { .. }) {
                return BTreeSet::new();
            }
            let mut outside = Vec::new();
            rule.head.args.iter().for_each(|t| t.vars(&mut outside));
            rule.body.iter().enumerate().filter(|(j, _)| *j != i).for_each(|(_, l)| l.vars(&mut outside));
            let mut inside = Vec::new();
            if let Literal::Agg { body, value, .. } = l {
                body.iter().for_each(|b| b.vars(&mut inside));
                if let Some(v) = value {
                    v.vars(&mut inside);
                }
            }
            let outside: BTreeSet<&str> = outside.into_iter().collect();
            inside.into_iter().filter(|v| outside.contains(v)).map(str::to_string).collect()
        })
        .collect()
}

fn bound_term(t: &Term, bound: &[&str]) -> bool {
    match t {
        Term::Var(v) => bound.contains(&v.as_str()),
        Term::Bin(_, a, b) => bound_term(a, bound) && bound_term(b, bound),
        Term::Const(_) | Term::Wild => true,
    }
}

fn bind<'a>(t: &'a Term, bound: &mut Vec<&'a str>) {
    match t {
        Term::Var(v) if !bound.contains(&v.as_str()) => bound.push(v),
        Term::Bin(_, a, b) => {
            bind(a, bound);
            bind(b, bound);
        }
        _ => {}
    }
}

/// Plans `body` given variables already `bound`; `head` terms must be bound at the end. The
/// bound names are borrowed, in a short list: planning runs for every transformation step.
pub fn plan_body<'a>(
    body: &'a [Literal],
    bound: &[&'a str],
    head: &[Term],
    correlated: &[BTreeSet<String>],
) -> Result<Vec<usize>, String> {
    let mut bound: Vec<&'a str> = bound.to_vec();
    let mut done = vec![false; body.len()];
    let mut order = Vec::with_capacity(body.len());
    while order.len() < body.len() {
        let Some(i) = next_literal(body, &done, &bound, correlated) else {
            let mut unbound = Vec::new();
            for (i, l) in body.iter().enumerate() {
                if !done[i] {
                    let mut vs = Vec::new();
                    l.vars(&mut vs);
                    unbound.extend(vs.into_iter().filter(|v| !bound.contains(v)).map(str::to_string));
                }
            }
            unbound.dedup();
            return Err(format!("ungrounded variable(s) {}", unbound.join(", ")));
        };
        done[i] = true;
        order.push(i);
        match &body[i] {
            Literal::Pos(a) => a.args.iter().for_each(|t| bind(t, &mut bound)),
            Literal::Cmp(_, x, y) => {
                bind(x, &mut bound);
                bind(y, &mut bound);
            }
            Literal::Agg { result, body: inner, value, .. } => {
                let vt: Vec<Term> = value.clone().into_iter().collect();
                plan_body(inner, &bound, &vt, &[]).map_err(|e| format!("in an aggregate: {e}"))?;
                if !bound.contains(&result.as_str()) {
                    bound.push(result);
                }
            }
            Literal::Neg(_) => {}
        }
    }
    if head.iter().all(|t| !matches!(t, Term::Wild) && bound_term(t, &bound)) {
        Ok(order)
    } else {
        Err("ungrounded variable in the head".into())
    }
}

/// The literal to evaluate next: the first test, assignment or aggregate that can run as
/// soon as it can, else the first atom whose arithmetic arguments are bound.
fn next_literal(body: &[Literal], done: &[bool], bound: &[&str], correlated: &[BTreeSet<String>]) -> Option<usize> {
    let ready = |i: usize, l: &Literal| match l {
        Literal::Pos(_) => false,
        Literal::Neg(a) => a.args.iter().all(|t| bound_term(t, bound)),
        Literal::Cmp(op, x, y) => {
            let unbound_var = |t: &Term| matches!(t, Term::Var(v) if !bound.contains(&v.as_str()));
            let assign = *op == CmpOp::Eq
                && ((unbound_var(x) && bound_term(y, bound)) || (unbound_var(y) && bound_term(x, bound)));
            assign || (bound_term(x, bound) && bound_term(y, bound))
        }
        Literal::Agg { .. } => correlated.get(i).is_none_or(|c| c.iter().all(|v| bound.contains(&v.as_str()))),
    };
    let atom_ready = |l: &Literal| matches!(l, Literal::Pos(a) if a.args.iter().all(|t| !matches!(t, Term::Bin(..)) || bound_term(t, bound)));
    let open = || body.iter().enumerate().filter(|(i, _)| !done[*i]);
    open().find(|(i, l)| ready(*i, l)).or_else(|| open().find(|(_, l)| atom_ready(l))).map(|(i, _)| i)
}

/// Checks declarations, arities, types, safety and stratification.
pub fn validate(p: &Program) -> Result<(), String> {
    validate_graph(p).map(|_| ())
}

/// [`validate`], returning the dependency graph it built: the transformations then ask it for
/// features and monotonicity instead of rebuilding it.
pub fn validate_graph(p: &Program) -> Result<DepGraph, String> {
    let mut names = HashSet::new();
    for d in &p.decls {
        if !names.insert(d.name.as_str()) {
            return Err(format!("relation {} declared twice", d.name));
        }
        if d.cols.is_empty() {
            return Err(format!("relation {} has no columns", d.name));
        }
    }
    for f in p.facts.iter() {
        let cols = p.decl(&f.rel).ok_or_else(|| format!("fact of undeclared relation {}", f.rel))?;
        if cols.cols.len() != f.vals.len() || cols.cols.iter().zip(&f.vals).any(|(t, v)| *t != v.ty()) {
            return Err(format!("fact of {} does not match its declaration", f.rel));
        }
    }
    for r in &p.rules {
        check_rule(p, r)?;
    }
    for o in &p.outputs {
        p.decl(o).ok_or_else(|| format!("output relation {o} is not declared"))?;
    }
    let g = DepGraph::new(p);
    check_strata(&g, &g.sccs())?;
    Ok(g)
}

pub fn check_rule(p: &Program, r: &Rule) -> Result<(), String> {
    let mut types: BTreeMap<&str, Type> = BTreeMap::new();
    let mut atoms = vec![&r.head];
    fn collect<'a>(lits: &'a [Literal], atoms: &mut Vec<&'a crate::ast::Atom>) {
        for l in lits {
            match l {
                Literal::Pos(a) | Literal::Neg(a) => atoms.push(a),
                Literal::Agg { body, .. } => collect(body, atoms),
                Literal::Cmp(..) => {}
            }
        }
    }
    collect(&r.body, &mut atoms);
    for a in atoms {
        let cols = p.decl(&a.rel).ok_or_else(|| format!("undeclared relation {}", a.rel))?;
        if cols.cols.len() != a.args.len() {
            return Err(format!("{} used with {} arguments, declared with {}", a.rel, a.args.len(), cols.cols.len()));
        }
        for (t, ty) in a.args.iter().zip(&cols.cols) {
            match t {
                Term::Var(v) if *types.entry(v).or_insert(*ty) != *ty => {
                    return Err(format!("variable {v} has two types"));
                }
                Term::Const(c) if c.ty() != *ty => return Err(format!("constant {c} in a {ty:?} column of {}", a.rel)),
                Term::Bin(..) if *ty != Type::Number => return Err("arithmetic in a symbol column".into()),
                _ => {}
            }
        }
    }
    plan(r).map(|_| ()).map_err(|e| format!("rule for {}: {e}", r.head.rel))
}

/// The node of relation `n`, added when the program uses it without declaring it.
fn node_id(n: &str, nodes: &mut Vec<String>, index: &mut HashMap<String, usize>) -> usize {
    if let Some(i) = index.get(n) {
        return *i;
    }
    nodes.push(n.to_string());
    index.insert(n.to_string(), nodes.len() - 1);
    nodes.len() - 1
}

/// The dependency graph: for each relation, the relations its rules read, with signs.
pub struct DepGraph {
    pub nodes: Vec<String>,
    pub index: HashMap<String, usize>,
    /// `edges[dst]` = (src, monotone) for every body atom of a rule of `dst`.
    pub into: Vec<Vec<(usize, bool)>>,
    pub out_of: Vec<Vec<(usize, bool)>>,
}

impl DepGraph {
    pub fn new(p: &Program) -> DepGraph {
        let mut nodes: Vec<String> = p.decls.iter().map(|d| d.name.clone()).collect();
        let mut index: HashMap<String, usize> = nodes.iter().enumerate().map(|(i, n)| (n.clone(), i)).collect();
        let mut edges = Vec::new();
        for r in &p.rules {
            let h = node_id(&r.head.rel, &mut nodes, &mut index);
            for (src, mono) in r.deps() {
                let s = node_id(src, &mut nodes, &mut index);
                edges.push((s, h, mono));
            }
        }
        let mut into = vec![Vec::new(); nodes.len()];
        let mut out_of = vec![Vec::new(); nodes.len()];
        for (s, h, m) in edges {
            into[h].push((s, m));
            out_of[s].push((h, m));
        }
        DepGraph { nodes, index, into, out_of }
    }

    /// Strongly connected components in topological order (dependencies first), Tarjan.
    pub fn sccs(&self) -> Vec<Vec<usize>> {
        struct T<'a> {
            g: &'a DepGraph,
            idx: Vec<Option<usize>>,
            low: Vec<usize>,
            on: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<Vec<usize>>,
        }
        fn visit(t: &mut T, v: usize) {
            t.idx[v] = Some(t.next);
            t.low[v] = t.next;
            t.next += 1;
            t.stack.push(v);
            t.on[v] = true;
            // Edges are followed against the data flow (to dependencies), so components come
            // out dependencies first.
            for &(w, _) in &t.g.into[v] {
                match t.idx[w] {
                    None => {
                        visit(t, w);
                        t.low[v] = t.low[v].min(t.low[w]);
                    }
                    Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                    _ => {}
                }
            }
            if Some(t.low[v]) == t.idx[v] {
                let mut comp = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                t.out.push(comp);
            }
        }
        let n = self.nodes.len();
        let mut t =
            T { g: self, idx: vec![None; n], low: vec![0; n], on: vec![false; n], stack: vec![], next: 0, out: vec![] };
        for v in 0..n {
            if t.idx[v].is_none() {
                visit(&mut t, v);
            }
        }
        t.out
    }

    /// Nodes reachable from `start` along the data flow, `start` included.
    pub fn downstream(&self, start: usize) -> Vec<bool> {
        self.reach(start, &self.out_of)
    }

    /// Nodes from which `start` is reachable, `start` included.
    pub fn upstream(&self, start: usize) -> Vec<bool> {
        self.reach(start, &self.into)
    }

    /// Nodes reachable from `start` along `edges` (one direction of the data flow).
    fn reach<E>(&self, start: usize, edges: &[Vec<(usize, E)>]) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            stack.extend(edges[v].iter().map(|(w, _)| *w));
        }
        seen
    }
}

/// The components of a stratified evaluation, in order; an error if recursion goes through
/// negation or an aggregate.
pub fn strata(p: &Program) -> Result<Vec<Vec<String>>, String> {
    let g = DepGraph::new(p);
    let sccs = g.sccs();
    check_strata(&g, &sccs)?;
    Ok(sccs.into_iter().map(|c| c.into_iter().map(|v| g.nodes[v].clone()).collect()).collect())
}

/// An error if an edge through negation or an aggregate stays inside one component.
pub fn check_strata(g: &DepGraph, sccs: &[Vec<usize>]) -> Result<(), String> {
    let mut comp = vec![0; g.nodes.len()];
    for (i, c) in sccs.iter().enumerate() {
        for &v in c {
            comp[v] = i;
        }
    }
    for (dst, ins) in g.into.iter().enumerate() {
        for &(src, mono) in ins {
            if !mono && comp[src] == comp[dst] {
                return Err(format!(
                    "unable to stratify: {} depends on {} through negation or an aggregate in a cycle",
                    g.nodes[dst], g.nodes[src]
                ));
            }
        }
    }
    Ok(())
}

/// queryFuzz's lifting condition for Exp and Con: nothing derived from `rel` flows into a
/// negation or an aggregate, so a change of `rel` reaches the outputs monotonically.
pub fn monotone_downstream(p: &Program, rel: &str) -> bool {
    DepGraph::new(p).monotone_downstream(rel)
}

impl DepGraph {
    /// [`monotone_downstream`] on a graph already built.
    pub fn monotone_downstream(&self, rel: &str) -> bool {
        let g = self;
        let Some(&start) = g.index.get(rel) else { return true };
        let down = g.downstream(start);
        g.out_of.iter().enumerate().all(|(src, outs)| !down[src] || outs.iter().all(|(_, m)| *m))
    }
}

/// Relations whose results can reach a negation or an aggregate: the complement of the
/// relations [`monotone_downstream`] accepts, computed in one pass.
pub fn nonmonotone_upstream(p: &Program) -> HashSet<String> {
    DepGraph::new(p).nonmonotone_upstream()
}

impl DepGraph {
    /// [`nonmonotone_upstream`] on a graph already built.
    pub fn nonmonotone_upstream(&self) -> HashSet<String> {
        let g = self;
        let mut seen = vec![false; g.nodes.len()];
        let mut stack: Vec<usize> =
            g.out_of.iter().enumerate().filter(|(_, outs)| outs.iter().any(|(_, m)| !m)).map(|(i, _)| i).collect();
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            stack.extend(g.into[v].iter().map(|(w, _)| *w));
        }
        g.nodes.iter().enumerate().filter(|(i, _)| seen[*i]).map(|(_, n)| n.clone()).collect()
    }
}

/// What a program needs from an engine; compared against engine capabilities.
pub fn features(p: &Program) -> BTreeSet<&'static str> {
    features_with(p, &DepGraph::new(p))
}

/// [`features`] with the program's dependency graph already built.
pub fn features_with(p: &Program, g: &DepGraph) -> BTreeSet<&'static str> {
    let mut f = BTreeSet::new();
    if p.decls.iter().any(|d| d.cols.contains(&Type::Symbol)) {
        f.insert("symbols");
    }
    let neg_const = |t: &Term| matches!(t, Term::Const(crate::ast::Val::Num(n)) if *n < 0);
    if p.facts.iter().any(|x| x.vals.iter().any(|v| matches!(v, crate::ast::Val::Num(n) if *n < 0))) {
        f.insert("negative");
    }
    fn walk(lits: &[Literal], f: &mut BTreeSet<&'static str>, neg_const: &dyn Fn(&Term) -> bool) {
        for l in lits {
            match l {
                Literal::Neg(a) => {
                    f.insert("negation");
                    if a.args.iter().any(neg_const) {
                        f.insert("negative");
                    }
                }
                Literal::Pos(a) => {
                    if a.args.iter().any(neg_const) {
                        f.insert("negative");
                    }
                }
                Literal::Cmp(_, x, y) => {
                    f.insert("comparisons");
                    for t in [x, y] {
                        if matches!(t, Term::Bin(..)) {
                            f.insert("arithmetic");
                        }
                        if neg_const(t) {
                            f.insert("negative");
                        }
                    }
                }
                Literal::Agg { body, .. } => {
                    f.insert("aggregates");
                    walk(body, f, neg_const);
                }
            }
        }
    }
    for r in &p.rules {
        walk(&r.body, &mut f, &neg_const);
        if r.head.args.iter().any(|t| matches!(t, Term::Bin(..))) {
            f.insert("arithmetic");
        }
    }
    for c in g.sccs() {
        let set: HashSet<usize> = c.iter().copied().collect();
        let recursive = c.len() > 1 || g.into[c[0]].iter().any(|(s, _)| *s == c[0]);
        if recursive {
            f.insert("recursion");
        }
        if c.len() > 1 {
            f.insert("mutual-recursion");
        }
        for r in &p.rules {
            let Some(h) = g.index.get(&r.head.rel) else { continue };
            if set.contains(h)
                && r.deps().iter().filter(|(d, _)| g.index.get(*d).is_some_and(|i| set.contains(i))).count() > 1
            {
                f.insert("nonlinear-recursion");
            }
        }
    }
    f
}
