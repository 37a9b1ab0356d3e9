//! Grafeo (cargo feature `grafeo`), in process: values in the leg's model, a write without
//! RETURN as done, errors as outcomes, the query deadline as a timeout, reset; and without the
//! feature, listed as unavailable with how to get it.

use crosscheck_core::{EngineFactory, EngineSpec};
use crosscheck_engines::cypher::grafeo::FACTORY;
#[cfg(feature = "grafeo")]
use {
    crosscheck_core::{Engine, Outcome, Value},
    crosscheck_engines::testing::{done, rows, LIMIT},
    std::time::Duration,
};

#[cfg(feature = "grafeo")]
fn open_grafeo() -> Box<dyn Engine> {
    let a = FACTORY.availability();
    assert!(a.available, "grafeo is built in: {}", a.detail);
    FACTORY
        .open(&EngineSpec { name: "grafeo".into(), location: None, label: None })
        .unwrap_or_else(|e| panic!("grafeo opens: {e}"))
}

#[cfg(feature = "grafeo")]
#[test]
fn values_writes_errors_and_reset() {
    let mut g = open_grafeo();
    assert_eq!(g.info().dialect, "grafeo");
    assert!(g.info().version.starts_with("Grafeo 0."), "{}", g.info().version);
    // The relationship's statement answers its bound variables in Grafeo: still done.
    done(g.as_mut(), "CREATE (n:L0 {id: 1, k0: 'a', k1: true});\nCREATE (n:L0:L1 {id: 2});\nMATCH (a:L0 {id: 1}), (b:L0 {id: 2}) CREATE (a)-[:T0 {id: 3}]->(b)");
    let q = "MATCH (a)-[r]->(b) RETURN a.id AS x, a.k0 AS y, a.k1 AS z, b.k0 AS w, avg(r.id) AS v, [1, 'b'] AS u";
    let r = rows(g.as_mut(), q);
    assert_eq!(r.columns, vec!["x", "y", "z", "w", "v", "u"]);
    let (i, t) = (Value::Int, |s: &str| Value::Text(s.into()));
    let want = vec![i(1), t("a"), Value::Bool(true), Value::Null, Value::Float(3.0), Value::List(vec![i(1), t("b")])];
    assert_eq!(r.rows, vec![want]);
    // A whole node is an identity, never a map of its properties.
    let r = rows(g.as_mut(), "MATCH (n:L1) RETURN n AS n");
    assert!(matches!(r.rows.as_slice(), [row] if matches!(row.as_slice(), [Value::Node(_)])), "{r:?}");
    assert!(matches!(g.run("MATCH (n RETURN n", LIMIT), Outcome::Error { .. }));
    // Grafeo's deadline, or the measured time, ends a long query as a timeout.
    let long = "UNWIND range(1, 3000) AS x UNWIND range(1, 3000) AS y RETURN count(*) AS c";
    assert!(matches!(g.run(long, Duration::from_millis(1)), Outcome::Timeout { .. }));
    // The graph outlives a database rebuilt for another limit, and a reset empties it.
    assert_eq!(rows(g.as_mut(), "MATCH (n) RETURN count(*) AS c").rows, vec![vec![i(2)]]);
    g.reset().unwrap_or_else(|e| panic!("reset: {e}"));
    assert_eq!(rows(g.as_mut(), "MATCH (n) RETURN count(*) AS c").rows, vec![vec![i(0)]]);
}

#[cfg(not(feature = "grafeo"))]
#[test]
fn listed_without_the_feature_with_how_to_get_it() {
    let a = FACTORY.availability();
    assert!(!a.available);
    assert!(a.install.contains("--features grafeo"), "{}", a.install);
    let spec = EngineSpec { name: "grafeo".into(), location: None, label: None };
    let e = FACTORY.open(&spec).err().unwrap_or_else(|| panic!("opened without the feature"));
    assert!(e.message.contains("--features grafeo"), "{e}");
}
