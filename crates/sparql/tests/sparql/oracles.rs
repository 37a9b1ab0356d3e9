//! Each oracle against the mutant it must catch, and plain Oxigraph, which must pass.

use super::common::campaign;
use crosscheck_core::FindingClass;
use crosscheck_sparql::SparqlOracle;

#[test]
fn oxigraph_against_itself_reports_nothing() {
    for (oracle, specs) in [
        (SparqlOracle::Differential, &["oxigraph", "oxigraph"][..]),
        (SparqlOracle::Partition, &["oxigraph"][..]),
        (SparqlOracle::Config, &["oxigraph"][..]),
    ] {
        let t = campaign(specs, oracle, 5, 1000);
        assert!(t.finding.is_none(), "{oracle:?}: {:?}", t.finding);
        println!("{oracle:?}: {} passed, {} non-empty, {} skipped", t.pass, t.nonempty, t.skips.len());
    }
}

#[test]
fn drop_row_is_caught_by_differential() {
    let t = campaign(&["oxigraph", "mutant:oxigraph:drop-row"], SparqlOracle::Differential, 5, 500);
    let (_, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught in 500 cases"));
    assert_eq!(ev.class, FindingClass::Logic, "{ev:?}");
    assert!(ev.engines.iter().any(|e| e.contains("mutant")), "{ev:?}");
    println!("differential caught drop-row after {} cases: {}", t.pass + t.skips.len() as u64, ev.summary);
}

#[test]
fn drop_row_is_caught_by_partition() {
    let t = campaign(&["mutant:oxigraph:drop-row"], SparqlOracle::Partition, 5, 500);
    let (_, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught in 500 cases"));
    assert_eq!(ev.class, FindingClass::Logic, "{ev:?}");
    assert!(ev.key.starts_with("partition:"), "{ev:?}");
    println!("partition caught drop-row after {} cases: {}", t.pass + t.skips.len() as u64, ev.summary);
}

#[test]
fn drop_row_is_caught_by_config() {
    // The mutant drops a row chosen by the query's text, and the option line changes the text:
    // the optimized and unoptimized runs lose different rows.
    let t = campaign(&["mutant:oxigraph:drop-row"], SparqlOracle::Config, 5, 500);
    let (_, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught in 500 cases"));
    assert_eq!(ev.key, "config:no-optimizer", "{ev:?}");
    // Two variants, one answer each: neither is called expected, and both are shown.
    assert!(ev.expected.starts_with("no majority"), "{ev:?}");
    let label = &ev.engines[0];
    for variant in ["optimized", "no-optimizer"] {
        assert!(ev.actual.contains(&format!("{label} {variant}:\n")), "{variant}: {ev:?}");
        assert!(ev.summary.contains(&format!("{{{label} {variant}}}")), "{variant}: {ev:?}");
    }
}
