//! GlueSQL (cargo feature `gluesql`), in process: known answers in its dialect, errors as
//! outcomes, reset.

use crosscheck_core::{Engine, EngineFactory, EngineSpec, Outcome, Value};
use crosscheck_engines::sql::gluesql::FACTORY;
use crosscheck_engines::testing::{done, rows, LIMIT};

fn open_glue() -> Box<dyn Engine> {
    let a = FACTORY.availability();
    assert!(a.available, "gluesql is built in: {}", a.detail);
    FACTORY
        .open(&EngineSpec { name: "gluesql".into(), location: None, label: None })
        .unwrap_or_else(|e| panic!("gluesql opens: {e}"))
}

#[test]
fn known_answers() {
    let mut g = open_glue();
    assert_eq!(g.info().dialect, "gluesql");
    done(g.as_mut(), "CREATE TABLE t0 (c0 INT NULL, c1 FLOAT NULL, c2 TEXT NULL)");
    done(g.as_mut(), "INSERT INTO t0 (c0, c1, c2) VALUES (1, 1.5, 'a')");
    done(g.as_mut(), "INSERT INTO t0 (c0, c1, c2) VALUES ((-7), NULL, NULL)");
    let r = rows(g.as_mut(), "SELECT t0.c0, t0.c1, t0.c2 FROM t0 WHERE (t0.c0 > 0)").rows;
    assert_eq!(r, vec![vec![Value::Int(1), Value::Float(1.5), Value::Text("a".into())]]);
    // Integer division truncates toward zero, as in SQLite.
    let r = rows(g.as_mut(), "SELECT (t0.c0 / 2) FROM t0 WHERE (t0.c0 < 0)").rows;
    assert_eq!(r, vec![vec![Value::Int(-3)]]);
    // NULLs, booleans and text.
    let r = rows(g.as_mut(), "SELECT (t0.c1 IS NULL), (t0.c2 || 'b') FROM t0 WHERE (t0.c0 < 0)").rows;
    assert_eq!(r, vec![vec![Value::Bool(true), Value::Null]]);
    let r = rows(g.as_mut(), "SELECT COUNT(*), SUM(t0.c0) FROM t0").rows;
    assert_eq!(r, vec![vec![Value::Int(2), Value::Int(-6)]]);
    // An error is an error outcome, not a panic.
    assert!(matches!(g.run("SELECT * FROM nowhere", LIMIT), Outcome::Error { .. }));
    // A reset empties the database.
    g.reset().expect("reset");
    assert!(matches!(g.run("SELECT * FROM t0", LIMIT), Outcome::Error { .. }));
}
