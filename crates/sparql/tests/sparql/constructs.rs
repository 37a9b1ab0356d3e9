//! Known answers for the constructs beyond RD² (paths, VALUES, BIND, MINUS, EXISTS, built-ins,
//! casts, aggregates), each built as the generator builds it (the model, printed), run on
//! every store installed here whose dialect has the construct, and compared after the
//! oracles' own normalization.

use super::common::{open_if, OPTS};
use crosscheck_core::{Engine, Outcome, Value};
use crosscheck_sparql::dialect::{self, Cap};
use crosscheck_sparql::model::{
    AggFunc, Aggregate, Aggregation, CmpOp, Expr, Func, Graph, Group, Lit, Node, PTerm, Path, PathPattern, Pattern,
    Query, Triple, Values, XsdCast,
};
use crosscheck_sparql::normalize::Norm;
use crosscheck_sparql::oracles::{answer, Ran};
use crosscheck_sparql::{print, Case};

const EX: &str = "http://ex.org/";

fn iri(local: &str) -> String {
    format!("{EX}{local}")
}

/// a p b, b p c; a q "x", b q "yy", c q "zzz"@en; a n 5, b n 7.
fn graph() -> Graph {
    let t = |s: &str, p: &str, o: Node| Triple { s: Node::Iri(iri(s)), p: iri(p), o };
    let triples = vec![
        t("a", "p", Node::Iri(iri("b"))),
        t("b", "p", Node::Iri(iri("c"))),
        t("a", "q", Node::Lit(Lit::typed("x", "string"))),
        t("b", "q", Node::Lit(Lit::typed("yy", "string"))),
        t("c", "q", Node::Lit(Lit::lang("zzz", "en"))),
        t("a", "n", Node::Lit(Lit::typed("5", "integer"))),
        t("b", "n", Node::Lit(Lit::typed("7", "integer"))),
    ];
    Graph { round: 0, prefix: ("ex".into(), EX.into()), triples }
}

fn var(v: u32) -> PTerm {
    PTerm::Var(v)
}

fn pat(s: PTerm, p: &str, o: PTerm) -> Pattern {
    Pattern { s, p: PTerm::Iri(iri(p)), o }
}

fn path(s: PTerm, path: Path, o: PTerm) -> Group {
    Group { paths: vec![PathPattern { s, path, o }], ..Group::default() }
}

fn p(local: &str) -> Box<Path> {
    Box::new(Path::Iri(iri(local)))
}

fn q(project: &[u32], group: Group) -> Query {
    Query { project: project.to_vec(), group, ..Query::default() }
}

fn int(v: i64) -> Expr {
    Expr::Lit(Lit::typed(v.to_string(), "integer"))
}

/// `?0 q ?1`, the base of several cases.
fn strings() -> Group {
    Group { bgp: vec![pat(var(0), "q", var(1))], ..Group::default() }
}

fn count_star() -> Aggregate {
    Aggregate { func: AggFunc::Count, distinct: false, arg: None }
}

/// A case: its name, what it needs, the query, the rows (cells' lexical forms joined by `|`,
/// sorted).
type Known = (&'static str, &'static [Cap], Query, Vec<&'static str>);

/// The path cases.
fn path_cases() -> Vec<Known> {
    let (a, b, c) = (PTerm::Iri(iri("a")), PTerm::Iri(iri("b")), PTerm::Iri(iri("c")));
    vec![
        (
            "sequence",
            &[Cap::Paths],
            q(&[0, 1], path(var(0), Path::Seq(p("p"), p("p")), var(1))),
            vec!["http://ex.org/a|http://ex.org/c"],
        ),
        ("inverse", &[Cap::Paths], q(&[0], path(c.clone(), Path::Inv(p("p")), var(0))), vec!["http://ex.org/b"]),
        (
            "alternative",
            &[Cap::Paths],
            q(&[0], path(a.clone(), Path::Alt(p("p"), p("n")), var(0))),
            vec!["5", "http://ex.org/b"],
        ),
        (
            "one or more",
            &[Cap::PathClosure],
            q(&[0], path(a.clone(), Path::Plus(p("p")), var(0))),
            vec!["http://ex.org/b", "http://ex.org/c"],
        ),
        (
            "zero or more",
            &[Cap::PathClosure],
            q(&[0], path(a.clone(), Path::Star(p("p")), var(0))),
            vec!["http://ex.org/a", "http://ex.org/b", "http://ex.org/c"],
        ),
        (
            "zero or one",
            &[Cap::PathClosure],
            q(&[0], path(b.clone(), Path::Opt(p("p")), var(0))),
            vec!["http://ex.org/b", "http://ex.org/c"],
        ),
        (
            "negated set",
            &[Cap::Paths],
            q(&[0], path(a.clone(), Path::Neg(vec![(iri("p"), false)]), var(0))),
            vec!["5", "x"],
        ),
    ]
}

/// The cases of VALUES, BIND, MINUS and EXISTS.
fn group_cases() -> Vec<Known> {
    let (a, c) = (PTerm::Iri(iri("a")), PTerm::Iri(iri("c")));
    vec![
        (
            "values",
            &[Cap::Values],
            {
                let values =
                    Values { vars: vec![0], rows: vec![vec![Some(a.clone())], vec![Some(c.clone())], vec![None]] };
                q(&[1], Group { values: Some(values), ..strings() })
            },
            vec!["x", "x", "yy", "zzz", "zzz"],
        ),
        (
            "bind",
            &[Cap::Bind],
            {
                let double =
                    Expr::Arith(crosscheck_sparql::model::ArithOp::Mul, Box::new(Expr::Var(1)), Box::new(int(2)));
                let g = Group { bgp: vec![pat(var(0), "n", var(1))], binds: vec![(double, 2)], ..Group::default() };
                q(&[2], g)
            },
            vec!["10", "14"],
        ),
        (
            "minus",
            &[Cap::Minus],
            q(&[0], Group { minus: Some(vec![pat(var(0), "n", var(2))]), ..strings() }),
            vec!["http://ex.org/c"],
        ),
        (
            "minus without a shared variable",
            &[Cap::Minus],
            { q(&[0], Group { minus: Some(vec![pat(var(3), "n", var(2))]), ..strings() }) },
            vec!["http://ex.org/a", "http://ex.org/b", "http://ex.org/c"],
        ),
        (
            "not exists",
            &[Cap::Exists],
            {
                let f = Expr::Exists(true, vec![pat(var(0), "p", var(2))]);
                q(&[0], Group { filters: vec![f], ..strings() })
            },
            vec!["http://ex.org/c"],
        ),
        (
            "exists",
            &[Cap::Exists],
            {
                let f = Expr::Exists(false, vec![pat(var(0), "p", var(2))]);
                q(&[0], Group { filters: vec![f], ..strings() })
            },
            vec!["http://ex.org/a", "http://ex.org/b"],
        ),
    ]
}

/// The cases of built-ins, casts and aggregates.
fn function_cases() -> Vec<Known> {
    let str_of = |v| Expr::call(Func::Str, vec![Expr::Var(v)]);
    vec![
        (
            "strlen",
            &[Cap::Functions],
            {
                let f = Expr::Cmp(CmpOp::Eq, Box::new(Expr::call(Func::StrLen, vec![str_of(1)])), Box::new(int(2)));
                q(&[1], Group { filters: vec![f], ..strings() })
            },
            vec!["yy"],
        ),
        (
            "regex",
            &[Cap::Functions],
            {
                let f = Expr::call(Func::Regex, vec![str_of(1), Expr::Lit(Lit::typed("^z", "string"))]);
                q(&[1], Group { filters: vec![f], ..strings() })
            },
            vec!["zzz"],
        ),
        (
            "cast",
            &[Cap::Casts],
            {
                let f = Expr::Cmp(
                    CmpOp::Gt,
                    Box::new(Expr::call(Func::Cast(XsdCast::Decimal), vec![Expr::Var(1)])),
                    Box::new(Expr::Lit(Lit::typed("6.5", "decimal"))),
                );
                q(&[1], Group { bgp: vec![pat(var(0), "n", var(1))], filters: vec![f], ..Group::default() })
            },
            vec!["7"],
        ),
        (
            "count and group_concat",
            &[Cap::Aggregates, Cap::GroupConcat],
            {
                let concat = Aggregate { func: AggFunc::GroupConcat, distinct: false, arg: Some(str_of(1)) };
                let agg = Aggregation { keys: vec![], aggs: vec![(5, count_star()), (6, concat)], having: vec![] };
                Query { aggregation: Some(agg), ..q(&[5, 6], strings()) }
            },
            vec!["3|x$yy$zzz"],
        ),
        (
            "group by, having",
            &[Cap::Aggregates],
            {
                let having = Expr::Cmp(CmpOp::Gt, Box::new(Expr::Agg(Box::new(count_star()))), Box::new(int(2)));
                let agg = Aggregation { keys: vec![0], aggs: vec![(5, count_star())], having: vec![having] };
                let g = Group { bgp: vec![Pattern { s: var(0), p: var(1), o: var(2) }], ..Group::default() };
                Query { aggregation: Some(agg), ..q(&[0, 5], g) }
            },
            vec!["http://ex.org/a|3", "http://ex.org/b|3"],
        ),
        (
            "sum, avg, max",
            &[Cap::Aggregates],
            {
                let of = |func| Aggregate { func, distinct: false, arg: Some(Expr::Var(1)) };
                let aggs = vec![(5, of(AggFunc::Sum)), (6, of(AggFunc::Avg)), (7, of(AggFunc::Max))];
                let agg = Aggregation { keys: vec![], aggs, having: vec![] };
                let g = Group { bgp: vec![pat(var(0), "n", var(1))], ..Group::default() };
                Query { aggregation: Some(agg), ..q(&[5, 6, 7], g) }
            },
            vec!["12|6|7"],
        ),
    ]
}

/// The cases of a capability some store lacks: each needs that capability last, and a store
/// that lacks only it answers otherwise (`a_lacked_capability_is_a_real_difference`).
fn dialect_cases() -> Vec<Known> {
    let nums = || Group { bgp: vec![pat(var(0), "n", var(1))], ..Group::default() };
    let tagged = Expr::Lit(Lit::lang("zzz", "en"));
    vec![
        (
            "an alternative keeps one solution per branch",
            &[Cap::Paths, Cap::PathAltBag],
            q(&[0], path(var(0), Path::Alt(p("p"), p("p")), var(1))),
            vec!["http://ex.org/a", "http://ex.org/a", "http://ex.org/b", "http://ex.org/b"],
        ),
        (
            "offset alone",
            &[Cap::LimitOffset, Cap::OffsetWithoutLimit],
            {
                // Virtuoso answers an OFFSET alone under ORDER BY of a pattern's variable, not
                // of an aggregate.
                let agg = Aggregation { keys: vec![], aggs: vec![(2, count_star())], having: vec![] };
                Query { aggregation: Some(agg), order: vec![(2, false)], offset: Some(1), ..q(&[2], nums()) }
            },
            vec![],
        ),
        (
            "a disjunction ordered",
            &[Cap::BoolOpOperand],
            {
                let or = Expr::Or(Box::new(Expr::Var(1)), Box::new(Expr::Lit(Lit::typed("true", "boolean"))));
                let f = Expr::Cmp(CmpOp::Gt, Box::new(or), Box::new(int(1)));
                q(&[1], Group { filters: vec![f], ..nums() })
            },
            vec![],
        ),
        (
            "a comparison ordered",
            &[Cap::BoolOpOperand],
            {
                let ne = Expr::Cmp(CmpOp::Ne, Box::new(Expr::Var(1)), Box::new(int(1)));
                let f = Expr::Cmp(CmpOp::Le, Box::new(Expr::Var(1)), Box::new(ne));
                q(&[1], Group { filters: vec![f], ..nums() })
            },
            vec![],
        ),
        (
            "a negated EXISTS ordered",
            &[Cap::Exists, Cap::BoolOpOperand],
            {
                let exists = Expr::negate(Expr::Exists(true, vec![pat(var(0), "p", var(2))]));
                q(
                    &[1],
                    Group { filters: vec![Expr::Cmp(CmpOp::Ge, Box::new(Expr::Var(0)), Box::new(exists))], ..nums() },
                )
            },
            vec![],
        ),
        (
            "a negation ordered",
            &[Cap::BoolOpOperand],
            {
                let not = Expr::negate(Expr::Bound(2));
                q(&[1], Group { filters: vec![Expr::Cmp(CmpOp::Lt, Box::new(Expr::Var(1)), Box::new(not))], ..nums() })
            },
            vec![],
        ),
        (
            "the negation of a tagged literal",
            &[Cap::LangEbvNegation],
            q(&[0], Group { filters: vec![Expr::negate(tagged)], ..nums() }),
            vec![],
        ),
        (
            "LANG of an untagged constant",
            &[Cap::Bind, Cap::LangOfUntagged],
            {
                let lang = Expr::call(Func::Lang, vec![int(5)]);
                q(&[2], Group { binds: vec![(lang, 2)], ..nums() })
            },
            vec!["", ""],
        ),
        (
            "a double with every digit",
            &[Cap::Bind, Cap::FullDoubleResults],
            {
                let d = Expr::Lit(Lit::typed("8.18829381985009E2", "double"));
                q(&[2], Group { binds: vec![(d, 2)], ..nums() })
            },
            vec!["8.18829381985009E2", "8.18829381985009E2"],
        ),
    ]
}

/// Runs `query` on `e` over [`graph`], its rows as the known answers are written.
fn rows_of(store: &str, e: &mut dyn Engine, name: &str, query: Query) -> Result<Vec<String>, String> {
    let g = graph();
    let case = Case { index: 0, graph: g.clone(), query, pred: None };
    let text = print::query(&g, &case.query, None);
    assert_eq!(print::parses(&text), Ok(()), "{text}");
    let rows = match answer(e, &case, &text, &OPTS, Norm::default(), true) {
        Ok(Ran::Rows(r)) => r,
        Ok(Ran::Error(m)) => return Err(m),
        Err(check) => panic!("{store}: {name}: {check:?}\n{text}"),
    };
    let mut got: Vec<String> = rows.rows.iter().map(|r| r.iter().map(cell).collect::<Vec<_>>().join("|")).collect();
    got.sort();
    Ok(got)
}

fn cell(v: &Value) -> String {
    match v {
        Value::Literal { lexical, .. } => lexical.clone(),
        Value::Iri(i) => i.clone(),
        Value::Null => "UNDEF".into(),
        other => other.to_string(),
    }
}

fn run_all(store: &str, e: &mut dyn Engine) {
    assert_eq!(e.run(&print::insert_data(&graph()), OPTS.timeout), Outcome::Done, "{store} loads");
    let d = dialect::by_name(&e.info().dialect).unwrap_or_else(|| panic!("{store}: no dialect"));
    let all = path_cases().into_iter().chain(group_cases()).chain(function_cases()).chain(dialect_cases());
    for (name, needs, query, expected) in all {
        if needs.iter().any(|c| !d.has(*c)) {
            println!("{store}: {name}: not in its dialect");
            continue;
        }
        let got = rows_of(store, e, name, query).unwrap_or_else(|m| panic!("{store}: {name}: error {m}"));
        assert_eq!(got, expected, "{store}: {name}");
    }
}

#[test]
fn each_construct_has_its_known_answer_on_every_store() {
    for store in ["oxigraph", "oxigraph-py", "rdflib", "comunica", "virtuoso", "jena"] {
        if let Some(mut e) = open_if(store) {
            run_all(store, e.as_mut());
        }
    }
}

/// Each store that lacks a capability of [`dialect_cases`] (and has the others the case needs)
/// answers its case otherwise, so the capability stands for a real difference.
#[test]
fn a_lacked_capability_is_a_real_difference() {
    for store in ["oxigraph", "virtuoso"] {
        let Some(mut e) = open_if(store) else { continue };
        assert_eq!(e.run(&print::insert_data(&graph()), OPTS.timeout), Outcome::Done, "{store} loads");
        let d = dialect::by_name(&e.info().dialect).unwrap_or_else(|| panic!("{store}: no dialect"));
        for (name, needs, query, expected) in dialect_cases() {
            let Some((cap, rest)) = needs.split_last() else { continue };
            if d.has(*cap) || rest.iter().any(|c| !d.has(*c)) {
                continue;
            }
            let got = rows_of(store, e.as_mut(), name, query);
            println!("{store}: {name}: {got:?}");
            assert_ne!(got, Ok(expected.iter().map(ToString::to_string).collect()), "{store}: {name}");
        }
    }
}
