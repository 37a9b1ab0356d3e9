//! GraphGenie's transformations (`crosscheck_cypher::transform`): what each prints, and the
//! relation each keeps on the known graph of `known.rs`, on the real engines.

use super::common::{have, open, OPTS};
use super::known::{graph, var_length_query};
use crosscheck_core::bag::{diff, Relation};
use crosscheck_core::{Outcome, Rows, Value};
use crosscheck_cypher::model::{Clause, CmpOp, Dir, Expr, Item, Lit, NodePat, Pattern, Query, RelPat, Return};
use crosscheck_cypher::transform::{monotone_after, Expect, Transform};
use crosscheck_cypher::{dialect, oracles, print};

fn node(var: &str, label: Option<usize>) -> NodePat {
    NodePat { var: var.into(), label, props: Vec::new() }
}

fn hop(var: &str, ty: usize, to: &str) -> (RelPat, NodePat) {
    (RelPat { var: var.into(), ty: Some(ty), dir: Dir::Out, props: Vec::new(), len: None }, node(to, None))
}

fn id(var: &str, alias: &str) -> Item {
    Item { expr: Expr::Prop(var.into(), "id".into()), alias: alias.into() }
}

/// `MATCH (a:L0)-[r:T0]->(b), (a)-[s:T1]->(c) RETURN a.id, b.id, c.id`: alice knows bob and
/// works at acme, the one row (0, 1, 3).
fn query() -> Query {
    let patterns = vec![
        Pattern { start: node("a", Some(0)), hops: vec![hop("r", 0, "b")] },
        Pattern { start: node("a", None), hops: vec![hop("s", 1, "c")] },
    ];
    Query {
        clauses: vec![Clause::Match { optional: false, patterns, filter: None }],
        ret: Return {
            distinct: false,
            items: vec![id("a", "x"), id("b", "y"), id("c", "z")],
            order: false,
            limit: None,
        },
    }
}

/// Each transformation, what it prints, and the rows it must give on the graph.
fn transforms() -> Vec<(Transform, &'static str, Vec<[i64; 3]>)> {
    let older = Expr::Cmp(CmpOp::Gt, Box::new(Expr::Prop("a".into(), "k1".into())), Box::new(Expr::Lit(Lit::Int(26))));
    vec![
        (
            Transform::Reverse { clause: 0 },
            "MATCH (b)<-[r:T0]-(a:L0), (c)<-[s:T1]-(a) RETURN",
            vec![[0, 1, 3]],
        ),
        (
            Transform::Tautology { clause: 0, pred: older },
            "MATCH (a:L0)-[r:T0]->(b), (a)-[s:T1]->(c) WHERE (((a.k1 > 26) OR (NOT (a.k1 > 26))) OR ((a.k1 > 26) IS NULL)) RETURN",
            vec![[0, 1, 3]],
        ),
        (Transform::WithStar { at: 1 }, "MATCH (a:L0)-[r:T0]->(b), (a)-[s:T1]->(c) WITH * RETURN", vec![[0, 1, 3]]),
        // Carol (2) is known by Bob (1) and works at acme too.
        (
            Transform::Undirect { clause: 0 },
            "MATCH (a:L0)-[r:T0]-(b), (a)-[s:T1]-(c) RETURN",
            vec![[0, 1, 3], [2, 1, 3]],
        ),
        (
            Transform::SplitMatch { clause: 0 },
            "MATCH (a:L0)-[r:T0]->(b) MATCH (a)-[s:T1]->(c) RETURN",
            vec![[0, 1, 3]],
        ),
    ]
}

fn answer(out: Outcome, text: &str) -> Rows {
    match out {
        Outcome::Rows(r) => r,
        other => panic!("{text}: {other}"),
    }
}

/// Engine `name` with the known graph loaded, and its dialect, if it is installed.
fn loaded(name: &str) -> Option<(Box<dyn crosscheck_core::Engine>, &'static dyn dialect::Dialect)> {
    if !have(name) {
        return None;
    }
    let mut e = open(name);
    let d = dialect::by_name(&e.info().dialect).unwrap_or_else(|| panic!("{name}: no dialect"));
    e.reset().unwrap_or_else(|err| panic!("{err}"));
    assert!(matches!(e.run(&print::graph_script(&graph(), d), OPTS.timeout), Outcome::Done), "{name}");
    Some((e, d))
}

fn check_engine(name: &str) {
    let Some((mut e, _)) = loaded(name) else { return };
    let q = query();
    let text = print::query(&q);
    let original = answer(e.run(&text, OPTS.timeout), &text);
    assert_eq!(original.rows, vec![vec![Value::Int(0), Value::Int(1), Value::Int(3)]], "{name}: {text}");
    for (t, printed, want) in transforms() {
        let changed = t.apply(&q).unwrap_or_else(|| panic!("{} does not apply", t.name()));
        let text = print::query(&changed);
        assert!(text.starts_with(printed), "{}: {text}", t.name());
        let mut got = answer(e.run(&text, OPTS.timeout), &text).rows;
        got.sort_by_key(|r| format!("{r:?}"));
        let want: Vec<Vec<Value>> = want.iter().map(|r| r.iter().map(|v| Value::Int(*v)).collect()).collect();
        assert_eq!(got, want, "{name}: {text}");
        let rel = diff(&original, &Rows::new(original.columns.clone(), got), &oracles::compare_options()).relation();
        let kept = match t.expect() {
            Expect::Equal => rel == Relation::Equal,
            Expect::Superset => matches!(rel, Relation::Equal | Relation::Superset),
        };
        assert!(kept, "{name}: {} gave {rel:?}", t.name());
    }
}

#[test]
fn kuzu_keeps_each_transformations_relation() {
    check_engine("kuzu");
}

/// Reverse and Undirect on a variable-length relationship: a trail read backwards is a trail,
/// and a directed trail is an undirected one. `(a:L0)-[:T0*1..2]->(b)` gives (0,1), (1,2),
/// (0,2); read backwards the same; undirected also each one reversed.
fn check_var_length(name: &str) {
    let Some((mut e, d)) = loaded(name) else { return };
    let q = var_length_query((Some(0), vec![]), Some(0), Dir::Out, (Some(1), 2), vec![]);
    let forward = vec![[0, 1], [1, 2], [0, 2]];
    let both = vec![[0, 1], [1, 2], [0, 2], [1, 0], [2, 1], [2, 0]];
    for (t, want) in [
        (None, forward.clone()),
        (Some(Transform::Reverse { clause: 0 }), forward),
        (Some(Transform::Undirect { clause: 0 }), both),
    ] {
        let changed = match &t {
            Some(t) => t.apply(&q).unwrap_or_else(|| panic!("{} does not apply", t.name())),
            None => q.clone(),
        };
        let text = print::query_in(&changed, None, Some(d));
        let mut got = answer(e.run(&text, OPTS.timeout), &text).rows;
        got.sort_by_key(|r| format!("{r:?}"));
        let mut want: Vec<Vec<Value>> = want.iter().map(|r| r.iter().map(|v| Value::Int(*v)).collect()).collect();
        want.sort_by_key(|r| format!("{r:?}"));
        assert_eq!(got, want, "{name}: {text}");
    }
}

#[test]
fn var_length_transformations_keep_their_relation_on_every_engine() {
    for name in ["kuzu", "falkordb", "graphqlite", "ladybug"] {
        check_var_length(name);
    }
}

#[test]
fn falkordb_keeps_each_transformations_relation() {
    check_engine("falkordb");
}

/// A one-path MATCH splits after its next-to-last node; a superset transformation does not
/// apply under an aggregate or a LIMIT, nor to an OPTIONAL MATCH; WITH * never comes first.
#[test]
fn transformations_apply_only_where_their_relation_holds() {
    let path = Pattern { start: node("a", None), hops: vec![hop("r", 0, "b"), hop("s", 0, "c")] };
    let mut q = query();
    q.clauses = vec![Clause::Match { optional: false, patterns: vec![path], filter: None }];
    let split = Transform::SplitMatch { clause: 0 }.apply(&q).map(|q| print::query(&q));
    assert_eq!(
        split.as_deref(),
        Some("MATCH (a)-[r:T0]->(b) MATCH (b)-[s:T0]->(c) RETURN a.id AS x, b.id AS y, c.id AS z")
    );
    let mut counted = query();
    counted.ret.items =
        vec![Item { expr: Expr::Agg(crosscheck_cypher::model::Agg::CountStar, None), alias: "n".into() }];
    assert!(!monotone_after(&counted, 0));
    assert!(Transform::Undirect { clause: 0 }.apply(&counted).is_none());
    assert!(Transform::Reverse { clause: 0 }.apply(&counted).is_some());
    let mut limited = query();
    limited.ret.order = true;
    limited.ret.limit = Some(1);
    assert!(Transform::SplitMatch { clause: 0 }.apply(&limited).is_none());
    let mut optional = query();
    if let Some(Clause::Match { optional: o, .. }) = optional.clauses.first_mut() {
        *o = true;
    }
    assert!(Transform::Undirect { clause: 0 }.apply(&optional).is_none());
    assert!(Transform::WithStar { at: 0 }.apply(&query()).is_none());
}
