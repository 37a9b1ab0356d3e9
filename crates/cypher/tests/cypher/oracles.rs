//! Each oracle against the mutant it must catch, and plain engines, which must pass.

use super::common::{campaign, have};
use crosscheck_core::{FindingClass, Oracle};
use crosscheck_cypher::CypherOracle;

#[test]
fn kuzu_against_itself_reports_nothing() {
    if !have("kuzu") {
        return;
    }
    for (oracle, specs) in [
        (CypherOracle::Differential, &["kuzu", "kuzu@second"][..]),
        (CypherOracle::Partition, &["kuzu"][..]),
        (CypherOracle::Equivalence, &["kuzu"][..]),
    ] {
        let t = campaign(specs, oracle, 10, 300);
        assert!(t.finding.is_none(), "{oracle:?}: {:?}", t.finding);
        println!("{oracle:?}: {} passed, {} non-empty, {} skipped", t.pass, t.nonempty, t.skips.len());
    }
}

#[test]
fn drop_row_is_caught_by_differential() {
    if !have("kuzu") {
        return;
    }
    let t = campaign(&["kuzu", "mutant:kuzu:drop-row"], CypherOracle::Differential, 5, 300);
    let (_, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught in 300 cases"));
    assert_eq!(ev.class, FindingClass::Logic, "{ev:?}");
    assert!(ev.engines.iter().any(|e| e.contains("mutant")), "{ev:?}");
}

/// The oracles that test one engine alone, each on the planted fault.
#[test]
fn drop_row_is_caught_by_partition_and_equivalence() {
    if !have("kuzu") {
        return;
    }
    for oracle in [CypherOracle::Partition, CypherOracle::Equivalence] {
        let t = campaign(&["mutant:kuzu:drop-row"], oracle, 5, 300);
        let (_, ev) = t.finding.unwrap_or_else(|| panic!("{oracle:?}: drop-row not caught in 300 cases"));
        assert_eq!(ev.class, FindingClass::Logic, "{ev:?}");
        assert!(ev.key.starts_with(&format!("{}:", oracle.name())), "{ev:?}");
    }
}
