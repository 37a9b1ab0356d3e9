//! Reducer steps (patterns, filters, triples) and the deduplication signature. The reducer in
//! core keeps a candidate only if the finding's own oracle still fails the same way.

use crate::model::{Case, Expr, PTerm, Query};
use crosscheck_core::{Evidence, Shape};
use std::collections::BTreeSet;

/// Triples + query nodes + the partition predicate's nodes.
pub fn size(case: &Case) -> usize {
    case.graph.triples.len() + case.query.size() + case.pred.as_ref().map_or(0, Expr::size)
}

/// Smaller cases, most aggressive first: half the graph, one triple, then query parts.
pub fn shrink(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let n = case.graph.triples.len();
    if n > 1 {
        for (from, to) in [(0, n / 2), (n / 2, n)] {
            let mut c = case.clone();
            c.graph.triples.drain(from..to);
            out.push(c);
        }
    }
    for i in 0..n {
        let mut c = case.clone();
        c.graph.triples.remove(i);
        out.push(c);
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
    out
}

/// Calls `f` with every tree that replaces one node of `e` by one of its children.
fn expr_steps(e: &Expr, f: &mut dyn FnMut(Expr)) {
    for c in e.children() {
        f(c.clone());
    }
    let rebuild = |i: usize, new: Expr| -> Expr {
        let mut e = e.clone();
        match (&mut e, i) {
            (Expr::Not(a) | Expr::Neg(a) | Expr::Plus(a) | Expr::Call(_, a), 0) => **a = new,
            (
                Expr::And(a, _) | Expr::Or(a, _) | Expr::Cmp(_, a, _) | Expr::Arith(_, a, _) | Expr::Coalesce(a, _),
                0,
            ) => **a = new,
            (
                Expr::And(_, b) | Expr::Or(_, b) | Expr::Cmp(_, _, b) | Expr::Arith(_, _, b) | Expr::Coalesce(_, b),
                1,
            ) => **b = new,
            _ => {}
        }
        e
    };
    for (i, c) in e.children().into_iter().enumerate() {
        expr_steps(c, &mut |x| f(rebuild(i, x)));
    }
}

/// The shape of a reduced case: the finding's key, the query's clauses, operators and the
/// datatypes of its constants; names and values stripped. The graph's own datatypes are left
/// out: a reduced graph keeps whatever triples the bug did not need removed, and they split
/// one bug into many.
pub fn signature(case: &Case, evidence: &Evidence) -> Shape {
    let mut f = BTreeSet::new();
    let q = &case.query;
    let g = &q.group;
    for (on, name) in [
        (q.distinct, "distinct"),
        (g.union.is_some(), "union"),
        (g.optional.is_some(), "optional"),
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
    for e in g.filters.iter().chain(&case.pred) {
        ops(e, &mut f);
    }
    Shape { head: evidence.key.clone(), features: f }
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
        Expr::Coalesce(..) => "COALESCE".into(),
    };
    if !name.is_empty() {
        out.insert(name);
    }
    for c in e.children() {
        ops(c, out);
    }
}
