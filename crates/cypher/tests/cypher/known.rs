//! Known answers on the real engines: a small graph built through the leg's own graph script,
//! queries whose rows are worked out by hand.

use super::common::{have, open, OPTS};
use crosscheck_core::{Outcome, Rows, Value};
use crosscheck_cypher::dialect;
use crosscheck_cypher::model::{Graph, Index, Lit, Node, Prop, Rel, RelType, Schema, Ty};
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
