//! Reducer steps (patterns, filters, triples) and the deduplication signature. The reducer in
//! core keeps a candidate only if the finding's own oracle still fails the same way.

use crate::model::{Case, Expr, Node, PTerm, Path, Query, Triple, BNODE_MARK};
use crosscheck_core::{Evidence, FindingClass, Shape};
use std::collections::BTreeSet;

/// Triples + query nodes + the partition predicate's nodes.
pub fn size(case: &Case) -> usize {
    case.graph.triples.len() + case.query.size() + case.pred.as_ref().map_or(0, Expr::size)
}

/// `smaller` with the marker triple of every blank node it still uses: without it the stores'
/// labels of that node map to nothing, and a reduction ended on "different" unmapped labels.
fn marked(case: &Case, mut smaller: Case) -> Case {
    let used: BTreeSet<u32> = smaller
        .graph
        .triples
        .iter()
        .filter(|t| t.p != BNODE_MARK)
        .flat_map(|t| [&t.s, &t.o])
        .filter_map(|n| if let Node::Blank(b) = n { Some(*b) } else { None })
        .collect();
    let lost: Vec<Triple> = case
        .graph
        .triples
        .iter()
        .filter(|t| t.p == BNODE_MARK && matches!(t.s, Node::Blank(b) if used.contains(&b)))
        .filter(|t| !smaller.graph.triples.contains(t))
        .cloned()
        .collect();
    smaller.graph.triples.extend(lost);
    smaller
}

/// Smaller cases, most aggressive first: half the graph, one triple, then query parts.
pub fn shrink(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let n = case.graph.triples.len();
    if n > 1 {
        for (from, to) in [(0, n / 2), (n / 2, n)] {
            let mut c = case.clone();
            c.graph.triples.drain(from..to);
            out.push(marked(case, c));
        }
    }
    for i in 0..n {
        let mut c = case.clone();
        c.graph.triples.remove(i);
        out.push(marked(case, c));
    }
    for q in query_steps(&case.query) {
        out.push(Case { query: q, ..case.clone() });
    }
    if let Some(p) = &case.pred {
        expr_steps(p, &mut |e| out.push(Case { pred: Some(e), ..case.clone() }));
    }
    out
}

fn query_steps(q: &Query) -> Vec<Query> {
    let mut out = Vec::new();
    let mut edit = |f: &dyn Fn(&mut Query)| {
        let mut c = q.clone();
        f(&mut c);
        if c != *q {
            out.push(c);
        }
    };
    edit(&|c| c.group.union = None);
    edit(&|c| c.group.optional = None);
    edit(&|c| c.group.filters.clear());
    group_steps(q, &mut edit);
    edit(&|c| {
        c.limit = None;
        c.offset = None;
    });
    // The order goes only without a window: LIMIT/OFFSET stay under a total ORDER BY.
    if q.limit.is_none() && q.offset.is_none() {
        edit(&|c| c.order.clear());
    }
    edit(&|c| c.distinct = false);
    for i in 0..q.group.bgp.len() {
        edit(&|c| {
            c.group.bgp.remove(i);
        });
    }
    if let Some((a, b)) = &q.group.union {
        edit(&|c| c.group.union = Some((a.clone(), a.clone())));
        edit(&|c| c.group.union = Some((b.clone(), b.clone())));
    }
    if q.project.len() > 1 {
        for i in 0..q.project.len() {
            edit(&|c| {
                let v = c.project.remove(i);
                c.order.retain(|(k, _)| *k != v);
                if !c.total_order() {
                    c.limit = None;
                    c.offset = None;
                }
            });
        }
    }
    for (i, f) in q.group.filters.iter().enumerate() {
        expr_steps(f, &mut |e| {
            let mut c = q.clone();
            c.group.filters[i] = e;
            out.push(c);
        });
    }
    for (i, (b, _)) in q.group.binds.iter().enumerate() {
        expr_steps(b, &mut |e| {
            let mut c = q.clone();
            c.group.binds[i].0 = e;
            out.push(c);
        });
    }
    out
}

/// Offers a candidate made by editing a copy of the query.
type Edit<'a> = dyn FnMut(&dyn Fn(&mut Query)) + 'a;

/// The steps of the constructs beyond RD²: each dropped whole, a path or a VALUES row alone.
fn group_steps(q: &Query, edit: &mut Edit<'_>) {
    edit(&|c| c.group.values = None);
    edit(&|c| c.group.minus = None);
    edit(&|c| c.group.paths.clear());
    edit(&|c| c.group.binds.clear());
    edit(&|c| c.aggregation.iter_mut().for_each(|a| a.having.clear()));
    // Without its aggregation a query projects the aggregates' variables unbound: still SPARQL.
    edit(&|c| c.aggregation = None);
    for i in 0..q.group.paths.len() {
        edit(&|c| {
            c.group.paths.remove(i);
        });
    }
    if let Some(v) = &q.group.values {
        for i in 0..v.rows.len() {
            edit(&|c| {
                c.group.values.iter_mut().for_each(|v| {
                    v.rows.remove(i);
                })
            });
        }
    }
}

/// Calls `f` with every tree that replaces one node of `e` by one of its children.
pub fn expr_steps(e: &Expr, f: &mut dyn FnMut(Expr)) {
    if e.is_guard() {
        return;
    }
    for c in e.children() {
        f(c.clone());
    }
    for (i, c) in e.children().into_iter().enumerate() {
        expr_steps(c, &mut |x| {
            let mut e = e.clone();
            if let Some(slot) = e.children_mut().into_iter().nth(i) {
                *slot = x;
            }
            f(e)
        });
    }
}

/// The shape of a reduced case: the finding's key, the query's clauses, operators and the
/// datatypes of its constants; names and values stripped. The graph's own datatypes are left
/// out: a reduced graph keeps whatever triples the bug did not need removed, and they split
/// one bug into many.
pub fn signature(case: &Case, evidence: &Evidence) -> Shape {
    let mut f = BTreeSet::new();
    // A store's error message or panic names its bug (the key keeps its first words), and a
    // partition overlap has one cause whatever the operators: the query's shape would split each.
    let named = matches!(evidence.class, FindingClass::Error | FindingClass::Crash);
    if named || evidence.key == crate::oracles::partition::OVERLAP {
        return Shape::new(evidence.key.clone(), f);
    }
    let q = &case.query;
    let g = &q.group;
    for (on, name) in [
        (q.distinct, "distinct"),
        (g.union.is_some(), "union"),
        (g.optional.is_some(), "optional"),
        (g.values.is_some(), "values"),
        (g.minus.is_some(), "minus"),
        (!g.binds.is_empty(), "bind"),
        (!g.paths.is_empty(), "path"),
        (q.aggregation.is_some(), "group"),
        (!q.order.is_empty(), "order"),
        (q.limit.is_some(), "limit"),
        (q.offset.is_some(), "offset"),
    ] {
        if on {
            f.insert(name.to_string());
        }
    }
    for p in g.bgp.iter().chain(g.optional.iter().flatten()) {
        for t in [&p.s, &p.p, &p.o] {
            if let PTerm::Lit(l) = t {
                f.insert(format!("pattern-lit:{}", dt(l)));
            }
        }
    }
    let aggs = q.aggregation.iter().flat_map(|a| a.aggs.iter().map(|(_, x)| x));
    for a in aggs {
        f.insert(format!("agg:{}{}", crate::print::agg_func(a.func), if a.distinct { "-distinct" } else { "" }));
    }
    let having = q.aggregation.iter().flat_map(|a| &a.having);
    for e in g.filters.iter().chain(&case.pred).chain(g.binds.iter().map(|(e, _)| e)).chain(having) {
        ops(e, &mut f);
    }
    for p in &g.paths {
        path_ops(&p.path, &mut f);
    }
    Shape::new(evidence.key.clone(), f)
}

fn dt(l: &crate::model::Lit) -> String {
    match (&l.lang, l.xsd()) {
        (Some(_), _) => "lang".into(),
        (None, Some(x)) => x.to_string(),
        (None, None) => "other".into(),
    }
}

fn ops(e: &Expr, out: &mut BTreeSet<String>) {
    let name = match e {
        // Leaves other than typed constants say nothing of the bug's shape.
        Expr::Var(_) | Expr::Iri(_) => String::new(),
        Expr::Lit(l) => format!("lit:{}", dt(l)),
        Expr::Not(_) => "!".into(),
        Expr::And(..) => "&&".into(),
        Expr::Or(..) => "||".into(),
        Expr::Cmp(op, ..) => crate::print::cmp_op(*op).into(),
        Expr::Arith(op, ..) => crate::print::arith_op(*op).into(),
        Expr::Neg(_) => "neg".into(),
        Expr::Plus(_) => "plus".into(),
        Expr::Bound(_) => "BOUND".into(),
        Expr::Call(func, _) => crate::print::func(*func).into(),
        Expr::Exists(true, _) => "NOT EXISTS".into(),
        Expr::Exists(false, _) => "EXISTS".into(),
        Expr::Agg(a) => format!("agg:{}", crate::print::agg_func(a.func)),
    };
    if !name.is_empty() {
        out.insert(name);
    }
    for c in e.children() {
        ops(c, out);
    }
}

fn path_ops(p: &Path, out: &mut BTreeSet<String>) {
    let (name, subs): (&str, Vec<&Path>) = match p {
        Path::Iri(_) => ("", vec![]),
        Path::Inv(a) => ("path:^", vec![a]),
        Path::Seq(a, b) => ("path:/", vec![a, b]),
        Path::Alt(a, b) => ("path:|", vec![a, b]),
        Path::Star(a) => ("path:*", vec![a]),
        Path::Plus(a) => ("path:+", vec![a]),
        Path::Opt(a) => ("path:?", vec![a]),
        Path::Neg(_) => ("path:!", vec![]),
    };
    if !name.is_empty() {
        out.insert(name.to_string());
    }
    for s in subs {
        path_ops(s, out);
    }
}
