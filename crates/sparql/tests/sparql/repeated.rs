//! A variable named twice in one triple pattern (`Cap::RepeatedVariable`): Virtuoso loses the
//! constraint in a join, and the generator writes no such pattern where a store of the run
//! lacks it.

use super::common::{open_if, OPTS};
use crosscheck_core::Generator;
use crosscheck_core::Outcome;
use crosscheck_sparql::dialect::{self, Dialect};
use crosscheck_sparql::model::{PTerm, Pattern};
use crosscheck_sparql::{SparqlGen, SparqlOracle};

const DATA: &str = "INSERT DATA { <http://h/j> <http://h/l> 1, 2, <http://h/j> . }";
const QUERY: &str = "SELECT ?x ?z WHERE { ?x ?p ?x . ?y <http://h/l> ?z }";

/// `<j> <l> <j>` is the one match of `?x ?p ?x`; joined with the three `?y <l> ?z`, three rows.
/// Virtuoso 7.2 answers nine: every triple of `<j>` matches its `?x ?p ?x`.
#[test]
fn virtuoso_loses_a_repeated_variable_in_a_join() {
    for (store, rows) in [("oxigraph", 3), ("jena", 3), ("virtuoso", 9)] {
        let Some(mut e) = open_if(store) else { continue };
        assert_eq!(e.run(DATA, OPTS.timeout), Outcome::Done, "{store} loads");
        match e.run(QUERY, OPTS.timeout) {
            Outcome::Rows(r) => assert_eq!(r.rows.len(), rows, "{store}"),
            other => panic!("{store}: {other}"),
        }
    }
}

fn repeats(p: &[Pattern]) -> usize {
    p.iter().filter(|t| matches!(t.s, PTerm::Var(_)) && t.s == t.o).count()
}

/// Patterns naming their subject's variable as their object, in 3,000 cases of a store mix.
fn repeated(mix: &[&str]) -> usize {
    let dialects: Vec<&'static dyn Dialect> = mix.iter().filter_map(|n| dialect::by_name(n)).collect();
    let mut gen = SparqlGen::new(11, dialects);
    (0..3000)
        .map(|i| {
            let g = gen.case(i, SparqlOracle::Differential).query.group;
            let paths = g.paths.iter().filter(|p| matches!(p.s, PTerm::Var(_)) && p.s == p.o).count();
            let union = g.union.iter().map(|(a, b)| repeats(a) + repeats(b)).sum::<usize>();
            repeats(&g.bgp) + paths + union + g.optional.as_deref().map_or(0, repeats)
        })
        .sum()
}

#[test]
fn a_pattern_repeats_a_variable_only_where_every_store_keeps_it() {
    assert_eq!(repeated(&["virtuoso", "virtuoso"]), 0);
    assert_eq!(repeated(&["oxigraph", "virtuoso"]), 0);
    let standard = repeated(&["oxigraph", "jena"]);
    assert!(standard > 20, "a repeated variable generated {standard} times for standard stores");
}

/// A case whose graph a reduction emptied is prepared without an update: Virtuoso rejects an
/// empty `INSERT DATA` (SP030), and a reduction would slide onto that refusal.
#[test]
fn an_empty_graph_is_prepared_on_virtuoso() {
    use crosscheck_core::{Check, Kind};
    let Some(e) = open_if("virtuoso") else { return };
    let mut engines = vec![e];
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let dialects = infos.iter().filter_map(|i| dialect::by_name(&i.dialect)).collect();
    let mut case = SparqlGen::new(3, dialects).case(0, SparqlOracle::Partition);
    case.graph.triples.clear();
    let kind = crosscheck_sparql::SparqlKind;
    assert_eq!(kind.prepare(&case, &mut engines, &OPTS), Check::Pass { nonempty: false });
    assert!(!matches!(kind.check(SparqlOracle::Partition, &case, &mut engines, &OPTS), Check::Finding(_)));
}
