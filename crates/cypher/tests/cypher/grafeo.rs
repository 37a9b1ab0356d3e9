//! Grafeo (in process, cargo feature `crosscheck-engines/grafeo`): the known answers, and each
//! capability of its dialect measured on the real engine. Without the feature Grafeo is
//! registered but unavailable, and these tests skip unless `CROSSCHECK_REQUIRE_ENGINES` names it.

use super::common::{have, open, OPTS};
use super::known::check_engine;
use crosscheck_core::{Outcome, Rows, Value};
use crosscheck_cypher::dialect::{self, Cap};

#[test]
fn grafeo_known_answers() {
    check_engine("grafeo");
}

fn rows(e: &mut Box<dyn crosscheck_core::Engine>, q: &str) -> Vec<Vec<Value>> {
    match e.run(q, OPTS.timeout) {
        Outcome::Rows(Rows { mut rows, .. }) => {
            rows.sort_by_key(|r| format!("{r:?}"));
            rows
        }
        other => panic!("grafeo: {q}: {other}"),
    }
}

/// Each `Cap` of the Grafeo dialect against what Grafeo answers for its construct.
#[test]
fn the_grafeo_dialect_says_what_grafeo_does() {
    if !have("grafeo") {
        return;
    }
    let d = dialect::by_name("grafeo").unwrap_or_else(|| panic!("no grafeo dialect"));
    let mut e = open("grafeo");
    e.reset().unwrap_or_else(|err| panic!("{err}"));
    let script = "CREATE (n:L0:L1 {id: 1});\nCREATE (n:L0 {id: 2});\n\
                  MATCH (a:L0 {id: 1}), (b:L0 {id: 1}) CREATE (a)-[:T0 {id: 3}]->(b)";
    assert_eq!(e.run(script, OPTS.timeout), Outcome::Done);
    let (i, n) = (Value::Int, Value::Null);
    // Both labels kept, and a pattern with two labels needs both.
    let multi = rows(&mut e, "MATCH (n:L0:L1) RETURN n.id AS x") == vec![vec![i(1)]]
        && rows(&mut e, "MATCH (n:L1) RETURN n.id AS x") == vec![vec![i(1)]];
    assert_eq!(d.has(Cap::MultiLabel), multi);
    // Accepted, and the OPTIONAL MATCH's null row kept as Kuzu keeps it.
    let q = "MATCH (n:L0) OPTIONAL MATCH (n)-[r]->(m) MATCH (m) RETURN n.id AS x, m.id AS y";
    assert_eq!(d.has(Cap::MatchAfterOptional), rows(&mut e, q) == vec![vec![i(1), i(1)], vec![i(2), n.clone()]]);
    assert_eq!(d.has(Cap::ConcatNull), rows(&mut e, "RETURN 'a' + null AS x") == vec![vec![n.clone()]]);
    let sums = (rows(&mut e, "MATCH (n:L0) RETURN sum(n.id) AS x"), rows(&mut e, "MATCH (n:L9) RETURN sum(n.id) AS x"));
    assert_eq!(d.has(Cap::IntegerSum), sums == (vec![vec![i(3)]], vec![vec![n]]));
    let loops = rows(&mut e, "MATCH (a)-[r]-(b) RETURN r.id AS x").len();
    assert_eq!(d.has(Cap::SelfLoopOnce), loops == 1, "{loops} matches of one self-loop");
}
