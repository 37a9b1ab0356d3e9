//! Reduction: a differential finding against drop-row shrinks to a small case that still
//! fails the same way, and its reproducers hold the graph script and the query per dialect.

use super::common::{campaign, have, open, OPTS};
use crosscheck_core::reduce::reduce;
use crosscheck_core::{Check, Kind};
use crosscheck_cypher::{CypherKind, CypherOracle};
use std::time::{Duration, Instant};

#[test]
fn a_drop_row_finding_reduces_to_a_small_case() {
    if !have("kuzu") {
        return;
    }
    let specs = ["kuzu", "mutant:kuzu:drop-row"];
    let t = campaign(&specs, CypherOracle::Differential, 5, 300);
    let (case, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught"));
    let kind = CypherKind;
    let mut engines: Vec<_> = specs.iter().map(|s| open(s)).collect();
    let before = kind.size(&case);
    assert!(kind.shrink(&case).iter().all(|c| kind.size(c) < before), "every step shrinks the case");
    let (small, stats) = reduce(
        case,
        |c| kind.shrink(c),
        |c| kind.size(c),
        |c| {
            kind.prepare(c, &mut engines, &OPTS) == Check::Pass { nonempty: false }
                && matches!(kind.check(CypherOracle::Differential, c, &mut engines, &OPTS), Check::Finding(e) if e.same_failure(&ev))
        },
        Instant::now() + Duration::from_secs(120),
    );
    let text = crosscheck_cypher::print::query(&small.query);
    println!("reduced {before} -> {} in {} tries: {text}", kind.size(&small), stats.tries);
    // Dropping one row of a non-empty answer needs no more than a node and one clause (a bare
    // RETURN has one row of its own).
    assert!(small.graph.nodes.len() <= 2 && small.graph.rels.is_empty(), "{:?}", small.graph);
    assert!(small.query.clauses.len() <= 1, "{text}");
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let files = kind.reproducers("repro", CypherOracle::Differential, &small, &ev, &infos);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, vec!["repro.kuzu.cypher"]);
    assert!(files[0].1.contains("CREATE NODE TABLE") && files[0].1.contains("// expected:"), "{}", files[0].1);
    assert!(files[0].1.contains(&text), "{}", files[0].1);
    let shape = kind.signature(CypherOracle::Differential, &small, &ev);
    assert!(shape.head.starts_with("differential:"), "{shape:?}");
}
