//! The graph engines that run as child processes, against the real thing: a statement past
//! its limit is a timeout, and the graph is still there afterwards.

use crosscheck_core::{Engine, EngineFactory, EngineSpec, Outcome, Value};
use crosscheck_engines::testing::{available, LIMIT};
use std::time::{Duration, Instant};

fn open(name: &str) -> Option<Box<dyn Engine>> {
    let spec = EngineSpec { name: name.into(), location: None, label: None };
    let factories = crosscheck_engines::cypher::registry();
    let f: &dyn EngineFactory = *factories.iter().find(|f| f.name() == name).unwrap_or_else(|| panic!("{name}"));
    if !available(f) {
        return None;
    }
    Some(crosscheck_engines::open_engine(&factories, &spec).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn ids(e: &mut dyn Engine) -> Vec<Value> {
    match e.run("MATCH (n:L0) RETURN n.id AS i ORDER BY i", LIMIT) {
        Outcome::Rows(r) => r.rows.into_iter().flatten().collect(),
        other => panic!("{other:?}"),
    }
}

/// GraphQLite's shell is killed at the limit and started anew with the graph's writes.
#[test]
fn graphqlite_timeout_keeps_the_graph() {
    let Some(mut e) = open("graphqlite") else { return };
    e.reset().unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(e.run("CREATE (:L0 {id: 1});\nCREATE (:L0 {id: 2});\n", LIMIT), Outcome::Done);
    let slow = "UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*) AS c";
    let t = Instant::now();
    let o = e.run(slow, Duration::from_millis(300));
    assert!(matches!(o, Outcome::Timeout { .. }), "{o:?}");
    assert!(t.elapsed() < Duration::from_secs(5), "the timeout took {:?}", t.elapsed());
    assert_eq!(ids(e.as_mut()), vec![Value::Int(1), Value::Int(2)]);
    // A reset forgets the graph, also for the next restart.
    e.reset().unwrap_or_else(|err| panic!("{err}"));
    assert!(matches!(e.run(slow, Duration::from_millis(300)), Outcome::Timeout { .. }));
    assert_eq!(ids(e.as_mut()), Vec::<Value>::new());
}
