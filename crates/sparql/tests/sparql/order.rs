//! Ordered comparisons of terms of different kinds (`Cap::TypedOrder`): the guarded form
//! `exprgen::typed_order` writes has one known answer on every store installed here, inside
//! `!` as well as alone (where SPARQL's error and false part ways), for unbound variables and
//! for strings Virtuoso computed; and Virtuoso still orders an IRI against a number, the
//! difference the guard is for.

use super::common::{open_if, OPTS};
use crosscheck_core::{Engine, Outcome, Value};
use crosscheck_sparql::exprgen::{typed_order, Ty};
use crosscheck_sparql::model::{CmpOp, Expr, Func, Graph, Group, Lit, Node, PTerm, Pattern, Query, Triple};
use crosscheck_sparql::print;

const EX: &str = "http://ex.org/";

/// `ex:iN ex:p O` for one object of each kind; no two objects Virtuoso stores as one value.
fn graph() -> Graph {
    let objects = [
        Node::Iri(format!("{EX}t")),
        Node::Blank(0),
        Node::Lit(Lit::typed("abc", "string")),
        Node::Lit(Lit::lang("x", "en")),
        Node::Lit(Lit::typed("2", "integer")),
        Node::Lit(Lit::typed("5.5", "decimal")),
        Node::Lit(Lit::typed("7", "short")),
        Node::Lit(Lit::typed("true", "boolean")),
        Node::Lit(Lit::typed("false", "boolean")),
    ];
    let triples = objects
        .into_iter()
        .enumerate()
        .map(|(i, o)| Triple { s: Node::Iri(format!("{EX}i{}", i + 1)), p: format!("{EX}p"), o })
        .collect();
    Graph { round: 0, prefix: ("ex".into(), EX.into()), triples }
}

/// `?v0 ex:p ?v1 OPTIONAL { ?v1 ex:none ?v2 } BIND(IF(isBLANK(?v1), "", STR(?v1)) AS ?v3)`
/// filtered by `f`, projecting `?v0`.
fn query(f: Expr) -> Query {
    let pat =
        |s: u32, p: &str, o: u32| Pattern { s: PTerm::Var(s), p: PTerm::Iri(format!("{EX}{p}")), o: PTerm::Var(o) };
    let text = Expr::call(
        Func::If,
        vec![
            Expr::call(Func::IsBlank, vec![Expr::Var(1)]),
            Expr::Lit(Lit::typed("", "string")),
            Expr::call(Func::Str, vec![Expr::Var(1)]),
        ],
    );
    let group = Group {
        bgp: vec![pat(0, "p", 1)],
        optional: Some(vec![pat(1, "none", 2)]),
        binds: vec![(text, 3)],
        filters: vec![f],
        ..Group::default()
    };
    Query { project: vec![0], group, ..Query::default() }
}

/// The subjects' numbers a filter keeps, sorted.
fn kept(e: &mut dyn Engine, g: &Graph, f: Expr) -> Vec<u32> {
    let text = print::query(g, &query(f), None);
    assert_eq!(print::parses(&text), Ok(()), "{text}");
    let Outcome::Rows(r) = e.run(&text, OPTS.timeout) else { panic!("{}: no rows for\n{text}", e.info().label) };
    let mut out: Vec<u32> = r
        .rows
        .iter()
        .filter_map(|row| match row.first() {
            Some(Value::Iri(i)) => i.strip_prefix(&format!("{EX}i")).and_then(|n| n.parse().ok()),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out
}

fn lit(lexical: &str, xsd: &str) -> Expr {
    Expr::Lit(Lit::typed(lexical, xsd))
}

fn not(e: Expr) -> Expr {
    Expr::Not(Box::new(e))
}

/// Each guarded comparison, the subjects it keeps, and those its negation keeps: every subject
/// the comparison does not keep (a kind test is false, not an error, where kinds differ).
fn cases() -> Vec<(&'static str, Expr, Vec<u32>)> {
    vec![
        ("number", typed_order(CmpOp::Lt, Expr::Var(1), lit("3", "integer"), Ty::Num), vec![5]),
        ("number, >=", typed_order(CmpOp::Ge, Expr::Var(1), lit("5", "short"), Ty::Num), vec![6, 7]),
        ("string", typed_order(CmpOp::Lt, Expr::Var(1), lit("b", "string"), Ty::Str), vec![3]),
        // No boolean case: Oxigraph 0.5.13 errs on every ordered comparison of two different
        // booleans (`true > false`, `false <= true`), which SPARQL 1.1 defines
        // (op:boolean-greater-than), so no answer is every store's.
        ("two variables", typed_order(CmpOp::Le, Expr::Var(1), Expr::Var(1), Ty::Num), vec![5, 6, 7]),
        ("unbound", typed_order(CmpOp::Lt, Expr::Var(2), lit("3", "integer"), Ty::Num), vec![]),
        // STR of 2, 5.5, 7 and "abc", and "" for the blank node, are below "b".
        ("computed string", typed_order(CmpOp::Lt, Expr::Var(3), lit("b", "string"), Ty::Str), vec![2, 3, 5, 6, 7]),
    ]
}

fn check(store: &str, e: &mut dyn Engine) {
    let g = graph();
    assert_eq!(e.run(&print::insert_data(&g), OPTS.timeout), Outcome::Done, "{store} loads");
    for (name, f, expected) in cases() {
        assert_eq!(kept(e, &g, f.clone()), expected, "{store}: {name}");
        let rest: Vec<u32> = (1..=9).filter(|i| !expected.contains(i)).collect();
        assert_eq!(kept(e, &g, not(f)), rest, "{store}: !({name})");
    }
}

#[test]
fn a_guarded_ordered_comparison_has_one_answer_on_every_store() {
    for store in ["oxigraph", "jena", "rdflib", "comunica", "virtuoso"] {
        if let Some(mut e) = open_if(store) {
            check(store, e.as_mut());
        }
    }
}

/// What the guard is for: unguarded, SPARQL's `!(?o < 3)` drops the IRI (an error), and
/// Virtuoso keeps it (its own order puts an IRI above every number).
#[test]
fn virtuoso_orders_an_iri_against_a_number() {
    let g = graph();
    let bare = not(Expr::Cmp(CmpOp::Lt, Box::new(Expr::Var(1)), Box::new(lit("3", "integer"))));
    for (store, keeps_iri) in [("oxigraph", false), ("virtuoso", true)] {
        let Some(mut e) = open_if(store) else { continue };
        assert_eq!(e.run(&print::insert_data(&g), OPTS.timeout), Outcome::Done, "{store} loads");
        assert_eq!(kept(e.as_mut(), &g, bare.clone()).contains(&1), keeps_iri, "{store}");
    }
}

/// The first of two terms ORDER BY puts first, as the store printed it.
fn first_of(e: &mut dyn Engine, a: &str, b: &str) -> String {
    let text = format!("SELECT ?o WHERE {{ VALUES ?o {{ {a} {b} }} }} ORDER BY ?o");
    match e.run(&text, OPTS.timeout) {
        Outcome::Rows(r) => match r.rows.first().and_then(|row| row.first()) {
            Some(Value::Literal { lexical, lang, .. }) => format!("{lexical}{}", lang.as_deref().unwrap_or("")),
            other => panic!("{text}: {other:?}"),
        },
        other => panic!("{text}: {other}"),
    }
}

/// The known bugs the generator keeps meeting (`dialect.rs`): each store's ORDER BY has a cycle
/// of three terms, so it is no order and a long enough sort of such terms fails (Oxigraph
/// panics, Jena's TimSort throws). If a release fixes it, this test says so.
#[test]
fn oxigraph_and_jena_order_three_terms_in_a_cycle() {
    let cycles: [(&str, [&str; 3], [&str; 3]); 2] = [
        ("oxigraph", ["7", "11", "\"5\""], ["7", "11", "5"]),
        ("jena", ["\"work\"@en-US", "\"city\"@fr", "true"], ["worken-US", "cityfr", "true"]),
    ];
    for (store, terms, shown) in cycles {
        let Some(mut e) = open_if(store) else { continue };
        for i in 0..3 {
            let (a, b) = (terms[i], terms[(i + 1) % 3]);
            assert_eq!(first_of(e.as_mut(), a, b), shown[i], "{store}: {a} before {b}");
            assert_eq!(first_of(e.as_mut(), b, a), shown[i], "{store}: {a} before {b}, given in reverse");
        }
    }
}
