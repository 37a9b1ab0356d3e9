//! Reducer steps (graph elements, clauses, patterns, predicates, projections). The reducer in core keeps a candidate only if the finding's own
//! oracle still fails the same way, so a step may produce an invalid query: it is rejected.

use crate::model::{Case, Clause, Expr, Pattern, Query, Schema, VarLen};
use crate::print;
use crate::query;

use std::collections::BTreeSet;

/// Graph elements and their properties, plus the query's and the predicate's nodes.
pub fn size(case: &Case) -> usize {
    let g = &case.graph;
    let props: usize =
        g.nodes.iter().map(|n| n.props.len()).sum::<usize>() + g.rels.iter().map(|r| r.props.len()).sum::<usize>();
    g.nodes.len() + g.rels.len() + props + query_size(&case.query) + case.split.as_ref().map_or(0, |s| s.pred.size())
}

fn query_size(q: &Query) -> usize {
    let clause = |c: &Clause| match c {
        Clause::Match { patterns, filter, .. } => {
            let node = |n: &crate::model::NodePat| 1 + usize::from(n.label.is_some()) + n.props.len();
            let hop = |(r, n): &(crate::model::RelPat, crate::model::NodePat)| {
                1 + usize::from(r.ty.is_some()) + r.len.map_or(0, len_size) + r.props.len() + node(n)
            };
            let p: usize = patterns.iter().map(|p| node(&p.start) + p.hops.iter().map(hop).sum::<usize>()).sum();
            1 + p + filter.as_ref().map_or(0, Expr::size)
        }
        Clause::With { distinct, items, filter } => {
            1 + usize::from(*distinct)
                + items.iter().map(|i| i.expr.size()).sum::<usize>()
                + filter.as_ref().map_or(0, Expr::size)
        }
        Clause::Unwind { list, .. } => 1 + list.iter().map(Expr::size).sum::<usize>(),
    };
    let r = &q.ret;
    q.clauses.iter().map(clause).sum::<usize>()
        + r.items.iter().map(|i| i.expr.size()).sum::<usize>()
        + usize::from(r.distinct)
        + usize::from(r.order)
        + usize::from(r.limit.is_some())
}

/// A variable-length relationship's share: 1 for exact bounds, 2 for a range, so that
/// narrowing the bounds and making it one relationship both shrink the case.
fn len_size(len: VarLen) -> usize {
    1 + usize::from(len.min != Some(len.max))
}

/// Smaller cases, most aggressive first: half the graph, one element, then query parts. Only
/// queries that still meet the generator's scope and type rules are offered: an invalid query
/// can fail with the same error message as the finding and replace it.
pub fn shrink(case: &Case) -> Vec<Case> {
    let mut out = candidates(case);
    out.retain(valid);
    out
}

/// An expression's type as far as its form and the schema tell (property keys are globally
/// unique, `id` is an integer).
fn ty_in(e: &Expr, schema: &Schema) -> Option<crate::model::Ty> {
    match e {
        Expr::Prop(_, k) if k == "id" => Some(crate::model::Ty::Int),
        Expr::Prop(_, k) => {
            schema.node_props(None).into_iter().chain(schema.rel_props(None)).find(|p| p.key == *k).map(|p| p.ty)
        }
        e => e.ty(),
    }
}

/// Whether every variable a clause reads is in scope there, and every WHERE and the partition
/// predicate is boolean as far as their form says.
pub fn valid(case: &Case) -> bool {
    let boolish = |e: &Expr| ty_in(e, &case.graph.schema).is_none_or(|t| t == crate::model::Ty::Bool);
    let mut scope: BTreeSet<&str> = BTreeSet::new();
    let reads = |e: &Expr, scope: &BTreeSet<&str>| e.vars().iter().all(|v| scope.contains(v));
    for (i, c) in case.query.clauses.iter().enumerate() {
        match c {
            Clause::Match { patterns, filter, .. } => {
                for p in patterns {
                    scope.insert(&p.start.var);
                    for (r, n) in &p.hops {
                        scope.insert(&r.var);
                        scope.insert(&n.var);
                    }
                }
                if filter.as_ref().is_some_and(|f| !reads(f, &scope) || !boolish(f)) {
                    return false;
                }
                if !keeps_trail(patterns, filter.as_ref()) {
                    return false;
                }
                if let Some(s) = case.split.as_ref().filter(|s| s.clause == i) {
                    if !reads(&s.pred, &scope) || !boolish(&s.pred) {
                        return false;
                    }
                }
            }
            Clause::With { items, filter, .. } => {
                if !items.iter().all(|it| reads(&it.expr, &scope)) {
                    return false;
                }
                scope = items.iter().map(|it| it.alias.as_str()).collect();
                if filter.as_ref().is_some_and(|f| !reads(f, &scope) || !boolish(f)) {
                    return false;
                }
            }
            Clause::Unwind { list, alias } => {
                if !list.iter().all(|e| reads(e, &scope)) {
                    return false;
                }
                scope.insert(alias);
            }
        }
    }
    case.query.ret.items.iter().all(|it| reads(&it.expr, &scope))
}

fn candidates(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let g = &case.graph;
    let without = |ids: &[i64]| {
        let mut c = case.clone();
        c.graph.nodes.retain(|n| !ids.contains(&n.id));
        c.graph.rels.retain(|r| !ids.contains(&r.from) && !ids.contains(&r.to));
        c
    };
    let ids: Vec<i64> = g.nodes.iter().map(|n| n.id).collect();
    if ids.len() > 1 {
        out.push(without(&ids[..ids.len() / 2]));
        out.push(without(&ids[ids.len() / 2..]));
    }
    out.extend(ids.iter().map(|id| without(&[*id])));
    for i in 0..g.rels.len() {
        let mut c = case.clone();
        c.graph.rels.remove(i);
        out.push(c);
    }
    for (i, n) in g.nodes.iter().enumerate() {
        for j in 0..n.props.len() {
            let mut c = case.clone();
            c.graph.nodes[i].props.remove(j);
            out.push(c);
        }
    }
    for (i, r) in g.rels.iter().enumerate() {
        for j in 0..r.props.len() {
            let mut c = case.clone();
            c.graph.rels[i].props.remove(j);
            out.push(c);
        }
    }
    clause_removals(case, &mut out);
    for q in query_steps(&case.query, &case.graph.schema) {
        out.push(Case { query: q, ..case.clone() });
    }
    if let Some(s) = &case.split {
        expr_steps(&s.pred, &case.graph.schema, &mut |e| {
            let mut c = case.clone();
            if let Some(s) = c.split.as_mut() {
                s.pred = e;
            }
            out.push(c);
        });
    }
    out
}

/// Each clause removed (never the partition's MATCH or the transformed clause; their indexes
/// follow).
fn clause_removals(case: &Case, out: &mut Vec<Case>) {
    for i in 0..case.query.clauses.len() {
        let mut c = case.clone();
        let kept =
            c.split.as_mut().map(|s| &mut s.clause).into_iter().chain(c.transform.as_mut().map(|t| t.clause_mut()));
        let mut removable = true;
        for at in kept {
            removable &= *at != i;
            if *at > i {
                *at -= 1;
            }
        }
        if !removable {
            continue;
        }
        c.query.clauses.remove(i);
        out.push(c);
    }
}

fn query_steps(q: &Query, sc: &Schema) -> Vec<Query> {
    let mut out = Vec::new();
    let mut edit = |f: &dyn Fn(&mut Query)| {
        let mut c = q.clone();
        f(&mut c);
        if c != *q {
            out.push(c);
        }
    };
    edit(&|c| c.ret.limit = None);
    edit(&|c| c.ret.distinct = false);
    if q.ret.limit.is_none() {
        edit(&|c| c.ret.order = false);
    }
    for i in 0..q.ret.items.len() {
        if q.ret.items.len() > 1 {
            edit(&|c| {
                c.ret.items.remove(i);
            });
        }
    }
    for (i, cl) in q.clauses.iter().enumerate() {
        clause_steps(cl, sc, &mut |new| {
            let mut c = q.clone();
            c.clauses[i] = new;
            out.push(c);
        });
    }
    for (i, item) in q.ret.items.iter().enumerate() {
        expr_steps(&item.expr, sc, &mut |e| {
            let mut c = q.clone();
            c.ret.items[i].expr = e;
            out.push(c);
        });
    }
    out
}

/// Smaller versions of one clause: a pattern, hop, label, item or list member less; its WHERE
/// gone or replaced by a child.
fn clause_steps(cl: &Clause, sc: &Schema, f: &mut dyn FnMut(Clause)) {
    let mut edit = |g: &dyn Fn(&mut Clause)| {
        let mut c = cl.clone();
        g(&mut c);
        if c != *cl {
            f(c);
        }
    };
    match cl {
        Clause::Match { patterns, .. } => {
            // A pattern edit keeps the WHERE's trail conjuncts those of the new patterns.
            let mut pedit = |g: &dyn Fn(&mut Vec<Pattern>)| {
                edit(&|c| {
                    if let Clause::Match { patterns: ps, filter, .. } = c {
                        g(ps);
                        *filter = retrailed(patterns, ps, filter.take());
                    }
                })
            };
            for i in 0..patterns.len() {
                if patterns.len() > 1 {
                    pedit(&|ps| {
                        ps.remove(i);
                    });
                }
                pedit(&|ps| {
                    ps[i].hops.pop();
                    ps[i].start.props.clear();
                    ps[i].start.label = None;
                });
                var_length_steps(&patterns[i], &mut |p| pedit(&|ps| ps[i] = p.clone()));
            }
        }
        Clause::With { items, .. } => {
            for i in 0..items.len() {
                if items.len() > 1 {
                    edit(&|c| {
                        if let Clause::With { items, .. } = c {
                            items.remove(i);
                        }
                    });
                }
            }
            edit(&|c| {
                if let Clause::With { distinct, .. } = c {
                    *distinct = false;
                }
            });
        }
        Clause::Unwind { list, .. } => {
            for i in 0..list.len() {
                if list.len() > 1 {
                    edit(&|c| {
                        if let Clause::Unwind { list, .. } = c {
                            list.remove(i);
                        }
                    });
                }
            }
        }
    }
    if let Some(w) = print::own_filter(cl) {
        // A MATCH's WHERE goes down to its trail conjuncts, never below (see [`valid`]).
        let bare = match cl {
            Clause::Match { patterns, .. } => query::trail(patterns),
            _ => None,
        };
        edit(&|c| set_filter(c, bare.clone()));
        expr_steps(w, sc, &mut |e| {
            let mut c = cl.clone();
            set_filter(&mut c, Some(e));
            f(c);
        });
    }
}

/// A variable-length relationship made one relationship (anonymous, as it was), or its
/// bounds narrowed to their lower one.
fn var_length_steps(p: &Pattern, f: &mut dyn FnMut(Pattern)) {
    for (j, (r, _)) in p.hops.iter().enumerate() {
        let Some(len) = r.len else { continue };
        let mut fixed = p.clone();
        fixed.hops[j].0.len = None;
        f(fixed);
        let low = len.min.unwrap_or(1);
        if low < len.max {
            let mut narrow = p.clone();
            narrow.hops[j].0.len = Some(VarLen { min: Some(low), max: low });
            f(narrow);
        }
    }
}

/// The top-level conjuncts of `e`.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::And(a, b) => [conjuncts(a), conjuncts(b)].concat(),
        other => vec![other],
    }
}

/// `filter` with the trail conjuncts of `old` patterns replaced by those of `new` ones.
fn retrailed(old: &[Pattern], new: &[Pattern], filter: Option<Expr>) -> Option<Expr> {
    let old_trail = query::trail(old);
    let gone = old_trail.as_ref().map(conjuncts).unwrap_or_default();
    let kept: Vec<Expr> = match &filter {
        Some(f) => conjuncts(f).into_iter().filter(|c| !gone.contains(c)).cloned().collect(),
        None => Vec::new(),
    };
    query::trail(new).into_iter().chain(kept).reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
}

/// Whether a MATCH's WHERE has every conjunct that keeps its relationships distinct: without
/// them Kuzu, LadybugDB and FalkorDB let one relationship match two variables of one MATCH,
/// and GraphQLite, rightly, does not; a reduced case would then blame the one right engine.
fn keeps_trail(patterns: &[Pattern], filter: Option<&Expr>) -> bool {
    let Some(t) = query::trail(patterns) else { return true };
    let have = filter.map(conjuncts).unwrap_or_default();
    conjuncts(&t).iter().all(|c| have.contains(c))
}

fn set_filter(c: &mut Clause, to: Option<Expr>) {
    if let Clause::Match { filter, .. } | Clause::With { filter, .. } = c {
        *filter = to;
    }
}

/// Calls `f` with every tree that replaces one node of `e` by one of its children of a type
/// that can stand in its place.
fn expr_steps(e: &Expr, sc: &Schema, f: &mut dyn FnMut(Expr)) {
    for c in e.children() {
        if matches!((ty_in(c, sc), ty_in(e, sc)), (Some(a), Some(b)) if a != b) {
            continue;
        }
        f(c.clone());
    }
    for i in 0..e.children().len() {
        let child = e.children()[i].clone();
        expr_steps(&child, sc, &mut |x| {
            let mut new = e.clone();
            if let Some(slot) = new.children_mut().into_iter().nth(i) {
                *slot = x;
            }
            f(new);
        });
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::{Graph, Item, Lit, NodePat, Pattern, Return, Schema, Split};

    pub(crate) fn case(clauses: Vec<Clause>, ret: &str, pred: Option<Expr>) -> Case {
        let graph = Graph {
            round: 0,
            schema: Schema { labels: vec![], types: vec![] },
            nodes: vec![],
            rels: vec![],
            indexes: vec![],
        };
        let item = Item { expr: Expr::Var(ret.into()), alias: "a9".into() };
        let query = Query { clauses, ret: Return { distinct: false, items: vec![item], order: false, limit: None } };
        Case { index: 0, graph, query, split: pred.map(|pred| Split { clause: 0, pred }), transform: None }
    }

    pub(crate) fn matching(var: &str) -> Clause {
        let start = NodePat { var: var.into(), label: None, props: vec![] };
        Clause::Match { optional: false, patterns: vec![Pattern { start, hops: vec![] }], filter: None }
    }

    /// `*1..3` becomes one relationship or `*1`; the signature names the construct.
    #[test]
    fn a_var_length_relationship_shrinks_to_a_fixed_one() {
        use crate::model::{Dir, RelPat};
        let rel = RelPat {
            var: String::new(),
            ty: Some(0),
            dir: Dir::Out,
            props: vec![],
            len: Some(VarLen { min: Some(1), max: 3 }),
        };
        let mut c = case(vec![matching("n0")], "n0", None);
        if let Some(Clause::Match { patterns, .. }) = c.query.clauses.first_mut() {
            patterns[0].hops.push((rel, NodePat { var: "n1".into(), label: None, props: vec![] }));
        }
        let lens: Vec<Option<VarLen>> = shrink(&c)
            .iter()
            .filter_map(|s| match s.query.clauses.first() {
                Some(Clause::Match { patterns, .. }) => patterns[0].hops.first().map(|(r, _)| r.len),
                _ => None,
            })
            .collect();
        assert!(lens.contains(&None), "{lens:?}");
        assert!(lens.contains(&Some(VarLen { min: Some(1), max: 1 })), "{lens:?}");
        assert!(shrink(&c).iter().all(|s| size(s) < size(&c)));
        let logic = crate::signature::tests::evidence(crosscheck_core::FindingClass::Logic, "");
        assert!(crate::signature::signature(&c, &logic).features.contains("var-length"));
    }

    /// No reduced case lets one relationship match two variables of a MATCH: the generator's
    /// `r1.id <> r2.id` stays while both relationships do, and goes with one of them.
    #[test]
    fn reduction_keeps_the_trail_conjuncts() {
        use crate::model::{Dir, RelPat};
        let rel = |v: &str| RelPat { var: v.into(), ty: None, dir: Dir::Both, props: vec![], len: None };
        let node = |v: &str| NodePat { var: v.into(), label: None, props: vec![] };
        let pattern = Pattern { start: node("a"), hops: vec![(rel("r1"), node("b")), (rel("r2"), node("c"))] };
        let user = Expr::IsNull(Box::new(Expr::Prop("a".into(), "k0".into())), false);
        let Some(trail) = query::trail(std::slice::from_ref(&pattern)) else { panic!("two relationships") };
        let filter = Some(Expr::And(Box::new(trail.clone()), Box::new(user.clone())));
        let c = case(vec![Clause::Match { optional: false, patterns: vec![pattern], filter }], "a", None);
        assert!(valid(&c));
        let mut shapes = Vec::new();
        for s in shrink(&c).into_iter().filter(valid) {
            if let Some(Clause::Match { patterns, filter, .. }) = s.query.clauses.first() {
                let hops = patterns[0].hops.len();
                let have = filter.as_ref().map(conjuncts).unwrap_or_default();
                assert_eq!(have.contains(&&trail), hops == 2, "{hops} hops, WHERE {filter:?}");
                shapes.push((hops, filter.clone()));
            }
        }
        // The WHERE shrinks to the trail alone, and a hop less keeps only the user's predicate.
        assert!(shapes.contains(&(2, Some(trail))), "{shapes:?}");
        assert!(shapes.contains(&(1, Some(user))), "{shapes:?}");
    }

    #[test]
    fn a_reduced_query_keeps_its_variables_in_scope_and_its_predicates_boolean() {
        assert!(valid(&case(vec![matching("n0")], "n0", None)));
        // The WITH that defined a3 was removed: a3 is read out of scope.
        let with = Clause::With {
            distinct: false,
            items: vec![Item { expr: Expr::Var("a3".into()), alias: "a3".into() }],
            filter: None,
        };
        assert!(!valid(&case(vec![matching("n0"), with], "a3", None)));
        // A string where a predicate belongs.
        assert!(!valid(&case(vec![matching("n0")], "n0", Some(Expr::Lit(Lit::Str(String::new()))))));
        assert!(valid(&case(vec![matching("n0")], "n0", Some(Expr::IsNull(Box::new(Expr::Var("n0".into())), false)))));
    }
}
