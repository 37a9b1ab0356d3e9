//! The generated stream: every text parses with spargebra, and on Oxigraph the validity and
//! non-empty rates stay where RD²'s targets put them (measured and printed).

use super::common::campaign;
use crosscheck_core::{GenOptions, Kind};
use crosscheck_sparql::oracles::partition;
use crosscheck_sparql::{print, SparqlKind, SparqlOracle};
use std::time::Instant;

#[test]
fn every_generated_text_parses_back() {
    let infos = vec![super::common::open("oxigraph").info().clone()];
    let mut gen =
        SparqlKind.generator(&GenOptions { seed: 3, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..3000 {
        let case = gen.case(i * 7, SparqlOracle::Partition);
        let update = print::insert_data(&case.graph);
        assert_eq!(print::parses(&update), Ok(()), "{update}");
        for text in [print::query(&case.graph, &case.query, Some("no-optimizer"))]
            .into_iter()
            .chain(case.pred.iter().flat_map(|p| partition::texts(&case, p)))
        {
            assert_eq!(print::parses(&text), Ok(()), "{text}");
        }
    }
}

#[test]
fn oxigraph_validity_and_nonempty_rates() {
    let n = 2000;
    let t = Instant::now();
    let tally = campaign(&["oxigraph", "oxigraph@second"], SparqlOracle::Differential, 11, n);
    let secs = t.elapsed().as_secs_f64();
    assert!(tally.finding.is_none(), "{:?}", tally.finding);
    let valid = tally.pass as f64 / n as f64 * 100.0;
    let nonempty = tally.nonempty as f64 / n as f64 * 100.0;
    println!(
        "oxigraph x2, differential, seed 11: {n} cases in {secs:.2}s ({:.0} cases/s), valid {valid:.1}%, non-empty {nonempty:.1}%",
        n as f64 / secs
    );
    assert!(valid >= 99.0, "valid {valid:.1}%: {:?}", &tally.skips[..tally.skips.len().min(5)]);
    assert!(nonempty >= 50.0, "non-empty {nonempty:.1}%");
    assert_eq!(tally.checked(), n);
}
