//! The partition identity on known answers, with an error case: a comparison of an IRI or a
//! string with a number is a type error, which FILTER(p) and FILTER(!p) both drop and only the
//! error part keeps.

use super::common::{open, OPTS};
use crosscheck_core::{Engine, Outcome, Value};
use crosscheck_sparql::model::{CmpOp, Expr, Graph, Lit, Node, PTerm, Pattern, Query, Triple};
use crosscheck_sparql::oracles::partition;
use crosscheck_sparql::{print, Case};

const P: &str = "http://ex.org/p";

pub fn case() -> Case {
    let s = |i: u32| Node::Iri(format!("http://ex.org/s{i}"));
    let o = [
        Node::Lit(Lit::typed("5", "integer")),
        Node::Lit(Lit::typed("1", "int")),
        Node::Lit(Lit::typed("abc", "string")),
        Node::Iri("http://ex.org/thing".into()),
        Node::Lit(Lit::typed("7.5", "decimal")),
    ];
    let triples = o.into_iter().zip(0..).map(|(o, i)| Triple { s: s(i), p: P.into(), o }).collect();
    let graph = Graph { round: 0, prefix: ("ex".into(), "http://ex.org/".into()), triples };
    let query = Query {
        project: vec![1],
        group: crosscheck_sparql::model::Group {
            bgp: vec![Pattern { s: PTerm::Var(0), p: PTerm::Iri(P.into()), o: PTerm::Var(1) }],
            ..Default::default()
        },
        ..Query::default()
    };
    // p = ?v1 > 3
    let pred = Expr::Cmp(CmpOp::Gt, Box::new(Expr::Var(1)), Box::new(Expr::Lit(Lit::typed("3", "integer"))));
    Case { index: 0, graph, query, pred: Some(pred) }
}

fn lexicals(e: &mut dyn Engine, text: &str) -> Vec<String> {
    let Outcome::Rows(r) = e.run(text, OPTS.timeout) else { panic!("no rows for {text}") };
    let mut out: Vec<String> = r
        .rows
        .iter()
        .map(|row| match &row[0] {
            Value::Literal { lexical, .. } => lexical.clone(),
            Value::Iri(i) => i.clone(),
            other => other.to_string(),
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_three_parts_are_true_false_and_error() {
    let c = case();
    let mut e = open("oxigraph");
    assert_eq!(e.run(&print::insert_data(&c.graph), OPTS.timeout), Outcome::Done);
    let Some(p) = &c.pred else { panic!("a predicate") };
    let [whole, t, f, err] = partition::texts(&c, p);
    for text in [&whole, &t, &f, &err] {
        assert_eq!(print::parses(text), Ok(()), "{text}");
    }
    assert_eq!(lexicals(e.as_mut(), &whole), vec!["1", "5", "7.5", "abc", "http://ex.org/thing"]);
    assert_eq!(lexicals(e.as_mut(), &t), vec!["5", "7.5"]);
    assert_eq!(lexicals(e.as_mut(), &f), vec!["1"]);
    assert_eq!(lexicals(e.as_mut(), &err), vec!["abc", "http://ex.org/thing"]);
    // The same error part by another construction: BIND leaves ?ok unbound where p errs.
    let bind = whole.replace("}", "  BIND(((?v1 > 3) || !(?v1 > 3)) AS ?ok) FILTER(!BOUND(?ok))\n}");
    assert_eq!(lexicals(e.as_mut(), &bind), vec!["abc", "http://ex.org/thing"]);
    // And the oracle itself passes on the case.
    let mut engines = vec![e];
    let check = crosscheck_sparql::SparqlOracle::Partition.check(&c, &mut engines, &OPTS);
    assert_eq!(check, crosscheck_core::Check::Pass { nonempty: true });
}

#[test]
fn a_store_that_keeps_errors_in_filter_not_p_is_caught() {
    // A fault that makes !p keep the error rows breaks the sum: simulate it with a mutant that
    // loses one row of the whole answer (the parts then add up to more than the whole).
    let c = case();
    let mut engines = vec![open("mutant:oxigraph:drop-row")];
    let load = print::insert_data(&c.graph);
    assert_eq!(engines[0].run(&load, OPTS.timeout), Outcome::Done);
    let check = crosscheck_sparql::SparqlOracle::Partition.check(&c, &mut engines, &OPTS);
    let crosscheck_core::Check::Finding(ev) = check else { panic!("not caught: {check:?}") };
    assert!(ev.key.starts_with("partition:"), "{ev:?}");
}

/// The partition identity holds on Oxigraph over cases that use the constructs beyond RD²
/// (paths, VALUES, BIND, MINUS, EXISTS in the predicate): counted, so the run is known to
/// have exercised them.
#[test]
fn the_identity_holds_with_the_new_constructs() {
    use crosscheck_core::{GenOptions, Kind};
    use crosscheck_sparql::{SparqlKind, SparqlOracle};
    let n = 1500;
    let infos = vec![open("oxigraph").info().clone()];
    let mut gen =
        SparqlKind.generator(&GenOptions { seed: 9, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let (mut paths, mut values, mut binds, mut minus, mut exists) = (0, 0, 0, 0, 0);
    for i in 0..n {
        let c = gen.case(i, SparqlOracle::Partition);
        let g = &c.query.group;
        paths += usize::from(!g.paths.is_empty());
        values += usize::from(g.values.is_some());
        binds += usize::from(!g.binds.is_empty());
        minus += usize::from(g.minus.is_some());
        let text = c.pred.as_ref().map(|p| print::expr(&c.graph, p)).unwrap_or_default();
        exists += usize::from(text.contains("EXISTS"));
    }
    println!(
        "of {n} partition cases: paths {paths}, VALUES {values}, BIND {binds}, MINUS {minus}, EXISTS in p {exists}"
    );
    assert!(paths > 0 && values > 0 && binds > 0 && minus > 0 && exists > 0);
    let t = super::common::campaign(&["oxigraph"], SparqlOracle::Partition, 9, n);
    assert!(t.finding.is_none(), "{:?}", t.finding);
    assert_eq!(t.skips, Vec::<String>::new());
}

/// Under DISTINCT the parts' union is deduplicated by term as the store's DISTINCT is:
/// `"0"^^xsd:int` and `"0"^^xsd:integer` are two rows (Jena, rdflib and Comunica keep the
/// derived type; the numeric canonical form must not fold them into one).
#[test]
fn distinct_parts_keep_terms_of_one_value_apart() {
    let mut c = case();
    for (t, ty) in c.graph.triples.iter_mut().zip(["int", "integer"]) {
        t.o = Node::Lit(Lit::typed("0", ty));
    }
    c.query.distinct = true;
    c.pred = Some(Expr::Var(1));
    for store in ["jena", "rdflib", "comunica"] {
        let Some(e) = super::common::open_if(store) else { continue };
        let mut engines = vec![e];
        let load = print::insert_data(&c.graph);
        assert_eq!(engines[0].run(&load, OPTS.timeout), Outcome::Done, "{store}");
        let check = crosscheck_sparql::SparqlOracle::Partition.check(&c, &mut engines, &OPTS);
        assert_eq!(check, crosscheck_core::Check::Pass { nonempty: true }, "{store}");
    }
}
