//! Reduction: a differential finding against drop-row shrinks to a one-pattern query over a
//! graph of a triple or two, and its reproducers hold the data and the query.

use super::common::{campaign, open, OPTS};
use crosscheck_core::worker::reduce_offline;
use crosscheck_core::Kind;
use crosscheck_sparql::{SparqlKind, SparqlOracle};
use std::time::{Duration, Instant};

#[test]
fn a_drop_row_finding_reduces_to_a_tiny_case() {
    let specs = ["oxigraph", "mutant:oxigraph:drop-row"];
    let t = campaign(&specs, SparqlOracle::Differential, 5, 500);
    let (case, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught"));
    let kind = SparqlKind;
    let mut engines: Vec<_> = specs.iter().map(|s| open(s)).collect();
    let before = kind.size(&case);
    let deadline = Instant::now() + Duration::from_secs(60);
    let r = reduce_offline(&kind, SparqlOracle::Differential, &case, &ev, &mut engines, &OPTS, deadline);
    let r = r.unwrap_or_else(|| panic!("the finding does not reproduce"));
    let (small, stats): (crosscheck_sparql::Case, _) =
        (serde_json::from_value(r.case).unwrap_or_else(|e| panic!("{e}")), r.stats);
    println!("reduced {before} -> {} in {} tries: {:?}", kind.size(&small), stats.tries, small.query);
    assert!(small.graph.triples.len() <= 2, "{:?}", small.graph.triples);
    // An empty group has one solution (all unbound), which drop-row drops too.
    assert!(small.query.group.bgp.len() <= 1, "{:?}", small.query);
    assert!(small.query.group.filters.is_empty(), "{:?}", small.query);
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let files = kind.reproducers("repro", SparqlOracle::Differential, &small, &ev, &infos);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, vec!["repro.data.ru", "repro.data.ttl", "repro.rq"]);
    assert!(files[0].1.contains("INSERT DATA"));
    assert!(files[2].1.contains("SELECT") && files[2].1.contains("# expected:"), "{}", files[2].1);
    let shape = kind.signature(SparqlOracle::Differential, &small, &ev);
    assert!(shape.head.starts_with("differential:"), "{shape:?}");
}

/// Every graph a reduction step proposes keeps the marker triple of each blank node it still
/// uses, so stores' labels of the node keep mapping to one id.
#[test]
fn reduction_steps_keep_blank_node_markers() {
    use crosscheck_core::GenOptions;
    use crosscheck_sparql::model::{Node, BNODE_MARK};
    let kind = SparqlKind;
    let infos = vec![open("oxigraph").info().clone()];
    let mut gen = kind.generator(&GenOptions { seed: 3, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut blank_steps = 0;
    for i in 0..20 {
        let case = gen.case(i * 200, SparqlOracle::Differential);
        for step in kind.shrink(&case) {
            let triples = &step.graph.triples;
            for t in triples.iter().filter(|t| t.p != BNODE_MARK) {
                for n in [&t.s, &t.o] {
                    if let Node::Blank(b) = n {
                        blank_steps += 1;
                        let mark = triples.iter().any(|m| m.p == BNODE_MARK && m.s == Node::Blank(*b));
                        assert!(mark, "blank node {b} lost its marker: {triples:?}");
                    }
                }
            }
        }
    }
    assert!(blank_steps > 0, "no generated graph had a blank node");
}

/// Two stores against one that drops a row: the two are the majority, whose answer the finding
/// calls expected; with one store each, none is.
#[test]
fn only_the_majority_answer_is_called_expected() {
    let t = campaign(&["oxigraph", "oxigraph@b", "mutant:oxigraph:drop-row"], SparqlOracle::Differential, 5, 500);
    let (_, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught"));
    assert!(ev.expected.starts_with("oxigraph, b (the majority):"), "{}", ev.expected);
    assert!(ev.actual.starts_with("mutant:oxigraph:drop-row:"), "{}", ev.actual);
    let t = campaign(&["oxigraph", "mutant:oxigraph:drop-row"], SparqlOracle::Differential, 5, 500);
    let (_, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught"));
    assert_eq!(ev.expected, "no majority: each answer is below");
}

/// The LANG guards written for a store that leaves LANG of an untagged constant unbound
/// (`COALESCE(LANG(e), "")`, alone and inside the EBV guard) are kept whole by reduction: taken
/// apart they would turn a finding into that known difference.
#[test]
fn reduction_keeps_the_lang_guards_whole() {
    use crosscheck_sparql::model::{CmpOp, Expr, Func, Lit};
    use crosscheck_sparql::reduce::expr_steps;
    let empty = || Expr::Lit(Lit::typed("", "string"));
    let lang = Expr::call(Func::Coalesce, vec![Expr::call(Func::Lang, vec![Expr::Var(0)]), empty()]);
    let untagged = Expr::Cmp(CmpOp::Eq, Box::new(lang.clone()), Box::new(empty()));
    let ebv = Expr::And(Box::new(untagged), Box::new(Expr::Var(0)));
    for guard in [lang, ebv] {
        let mut steps = 0;
        expr_steps(&guard, &mut |_| steps += 1);
        assert_eq!(steps, 0, "{guard:?}");
    }
}
