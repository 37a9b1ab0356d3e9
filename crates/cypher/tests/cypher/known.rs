//! Known answers on the real engines: a small graph built through the leg's own graph script,
//! queries whose rows are worked out by hand.

use super::common::{have, open, OPTS};
use crosscheck_core::{Outcome, Rows, Value};
use crosscheck_cypher::dialect;
use crosscheck_cypher::model::{
    Clause, Dir, Expr, Graph, Index, Item, Lit, Node, NodePat, Pattern, Prop, Query, Rel, RelPat, RelType, Return,
    Schema, Ty, VarLen,
};
use crosscheck_cypher::print;

/// Three people (L0: name, age) and one company (L1), KNOWS (T0: L0 -> L0) and WORKS_AT
/// (T1: L0 -> L1); Carol has no age. Indexes on the age and on KNOWS' property.
pub(crate) fn graph() -> Graph {
    let p = |key: &str, ty| Prop { key: key.into(), ty };
    let schema = Schema {
        labels: vec![vec![p("k0", Ty::Str), p("k1", Ty::Int)], vec![p("k2", Ty::Str)]],
        types: vec![
            RelType { props: vec![p("k3", Ty::Int)], pairs: vec![(0, 0)] },
            RelType { props: vec![p("k4", Ty::Bool)], pairs: vec![(0, 1)] },
        ],
    };
    let person = |id, name: &str, age: Option<i64>| {
        let mut props = vec![("k0".to_string(), Lit::Str(name.into()))];
        props.extend(age.map(|a| ("k1".to_string(), Lit::Int(a))));
        Node { id, labels: vec![0], props }
    };
    let rel = |id, ty, from, to, props| Rel { id, ty, from, to, props };
    Graph {
        round: 0,
        schema,
        nodes: vec![
            person(0, "alice", Some(30)),
            person(1, "bob", Some(25)),
            person(2, "carol", None),
            Node { id: 3, labels: vec![1], props: vec![("k2".into(), Lit::Str("acme".into()))] },
        ],
        rels: vec![
            rel(4, 0, 0, 1, vec![("k3".into(), Lit::Int(2010))]),
            rel(5, 0, 1, 2, vec![]),
            rel(6, 1, 0, 3, vec![("k4".into(), Lit::Bool(true))]),
            rel(7, 1, 2, 3, vec![("k4".into(), Lit::Bool(false))]),
        ],
        // Where the dialect has property indexes, the answers below read through them.
        indexes: vec![Index::Node(0, "k1".into()), Index::Rel(0, "k3".into())],
    }
}

fn rows(out: Outcome, query: &str) -> Vec<Vec<Value>> {
    match out {
        Outcome::Rows(Rows { rows, .. }) => rows,
        other => panic!("{query}: {other}"),
    }
}

fn sorted(mut r: Vec<Vec<Value>>) -> Vec<Vec<Value>> {
    r.sort_by_key(|row| format!("{row:?}"));
    r
}

pub(crate) fn check_engine(name: &str) {
    if !have(name) {
        return;
    }
    let mut e = open(name);
    let d = dialect::by_name(&e.info().dialect).unwrap_or_else(|| panic!("{name}: no dialect"));
    e.reset().unwrap_or_else(|err| panic!("{err}"));
    let script = print::graph_script(&graph(), d);
    assert!(matches!(e.run(&script, OPTS.timeout), Outcome::Done), "{name} loads the graph");
    let (i, s, n) = (Value::Int, |x: &str| Value::Text(x.into()), Value::Null);
    let cases: Vec<(&str, Vec<Vec<Value>>)> = vec![
        ("MATCH (a:L0)-[r:T0]->(b) RETURN a.id AS x, b.id AS y", vec![vec![i(0), i(1)], vec![i(1), i(2)]]),
        (
            "MATCH (a:L0) RETURN a.k0 AS x, a.k1 AS y",
            vec![vec![s("alice"), i(30)], vec![s("bob"), i(25)], vec![s("carol"), n.clone()]],
        ),
        (
            "MATCH (a:L0) OPTIONAL MATCH (a)-[r:T1]->(c) RETURN a.id AS x, c.k2 AS y",
            vec![vec![i(0), s("acme")], vec![i(1), n.clone()], vec![i(2), s("acme")]],
        ),
        ("MATCH (a:L0) WHERE a.k1 > 26 RETURN count(*) AS x", vec![vec![i(1)]]),
        ("MATCH (a:L0) WITH a, a.k1 + 1 AS b WHERE b IS NULL RETURN a.k0 AS x", vec![vec![s("carol")]]),
        ("MATCH (a:L0) UNWIND [1, 2] AS u RETURN u AS x, count(*) AS y", vec![vec![i(1), i(3)], vec![i(2), i(3)]]),
        (
            "MATCH (a)-[r]->(b) WHERE r.id > 5 RETURN toUpper(a.k0) AS x, r.id AS y",
            vec![vec![s("ALICE"), i(6)], vec![s("CAROL"), i(7)]],
        ),
        ("MATCH (a:L0) RETURN avg(a.k1) AS x", vec![vec![Value::Float(27.5)]]),
    ];
    for (q, want) in cases {
        let got = rows(e.run(q, OPTS.timeout), q);
        assert_eq!(sorted(got), sorted(want), "{name}: {q}");
    }
    let zero = if d.has(crosscheck_cypher::dialect::Cap::ZeroLength) { zero_length_cases() } else { vec![] };
    for (q, want) in var_length_cases().into_iter().chain(zero) {
        let text = print::query_in(&q, None, Some(d));
        let got = rows(e.run(&text, OPTS.timeout), &text);
        let want: Vec<Vec<Value>> = want.iter().map(|r| r.iter().map(|v| i(*v)).collect()).collect();
        assert_eq!(sorted(got), sorted(want), "{name}: {text}");
    }
}

/// `MATCH (a<label> <props>)-[<ty><len> <rel props>]-(b) RETURN a.id AS x, b.id AS y` (the
/// relationship anonymous, as the generator makes variable-length ones).
pub(crate) fn var_length_query(
    start: (Option<usize>, Vec<(String, Lit)>),
    ty: Option<usize>,
    dir: Dir,
    len: (Option<u32>, u32),
    props: Vec<(String, Lit)>,
) -> Query {
    let node = |var: &str, label, props| NodePat { var: var.into(), label, props };
    let rel = RelPat { var: String::new(), ty, dir, props, len: Some(VarLen { min: len.0, max: len.1 }) };
    let id = |v: &str, alias: &str| Item { expr: Expr::Prop(v.into(), "id".into()), alias: alias.into() };
    let pattern = Pattern { start: node("a", start.0, start.1), hops: vec![(rel, node("b", None, vec![]))] };
    Query {
        clauses: vec![Clause::Match { optional: false, patterns: vec![pattern], filter: None }],
        ret: Return { distinct: false, items: vec![id("a", "x"), id("b", "y")], order: false, limit: None },
    }
}

/// Variable-length relationships on the graph above, with their (a.id, b.id) rows. KNOWS is
/// 0->1 (k3 2010), 1->2; WORKS_AT 0->3, 2->3. Trails: from alice, two relationships either way
/// reach carol twice (through bob, through acme), never back to alice (a walk would, along one
/// relationship twice).
fn var_length_cases() -> Vec<(Query, Vec<[i64; 2]>)> {
    let alice = || (Some(0), vec![("k0".to_string(), Lit::Str("alice".into()))]);
    vec![
        (var_length_query((Some(0), vec![]), Some(0), Dir::Out, (Some(1), 2), vec![]), vec![[0, 1], [1, 2], [0, 2]]),
        (var_length_query((None, vec![]), Some(0), Dir::In, (None, 2), vec![]), vec![[1, 0], [2, 1], [2, 0]]),
        (var_length_query((None, vec![]), Some(0), Dir::Out, (Some(2), 2), vec![]), vec![[0, 2]]),
        (var_length_query(alice(), None, Dir::Both, (None, 2), vec![]), vec![[0, 1], [0, 3], [0, 2], [0, 2]]),
        (
            var_length_query(alice(), None, Dir::Both, (Some(1), 3), vec![]),
            vec![[0, 1], [0, 3], [0, 2], [0, 2], [0, 3], [0, 1]],
        ),
        (
            var_length_query((None, vec![]), Some(0), Dir::Out, (Some(1), 2), vec![("k3".into(), Lit::Int(2010))]),
            vec![[0, 1]],
        ),
    ]
}

/// A lower bound of 0: alice herself, then what one relationship either way reaches.
fn zero_length_cases() -> Vec<(Query, Vec<[i64; 2]>)> {
    let alice = || (Some(0), vec![("k0".to_string(), Lit::Str("alice".into()))]);
    vec![
        (var_length_query(alice(), None, Dir::Both, (Some(0), 1), vec![]), vec![[0, 0], [0, 1], [0, 3]]),
        (var_length_query(alice(), Some(0), Dir::Out, (Some(0), 2), vec![]), vec![[0, 0], [0, 1], [0, 2]]),
    ]
}

#[test]
fn kuzu_known_answers() {
    check_engine("kuzu");
}

#[test]
fn falkordb_known_answers() {
    check_engine("falkordb");
}

#[test]
fn ladybug_known_answers() {
    check_engine("ladybug");
}

#[test]
fn graphqlite_known_answers() {
    check_engine("graphqlite");
}
