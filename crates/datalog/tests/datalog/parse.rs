//! The Soufflé parser: seeds with `.input` fact files, round trips, and clear errors.

use crosscheck_datalog::parse::{parse, parse_named};
use crosscheck_datalog::{dialects::souffle, load_seeds};

#[test]
fn round_trip_through_the_printer() {
    let src = ".type Node <: number\n.decl e(x:Node, y:Node) brie\n.decl s(x:symbol)\n.decl p(x:number, y:number)\n.decl q(x:number)\n\
        .output p, q\n// comment\n/* block\ncomment */\ne(1,2). e(2,-3). s(\"a b\").\n\
        p(X,Y), q(X) :- e(X,Y), !e(Y,X), X < Y + 1 ; e(Y,X), X != 2.\n\
        q(N) :- e(_, _), N = count : { e(_, _) }.\nq(5).\n";
    let p = parse(src).expect("parses");
    assert_eq!(p.outputs, vec!["p", "q"]);
    assert_eq!(p.rules.len(), 5, "two heads × two disjuncts + the aggregate");
    assert_eq!(p.facts.len(), 4);
    let printed = souffle::print(&p, &p.outputs);
    let again = parse(&printed).expect("printed text parses");
    assert_eq!(again.rules, p.rules);
    assert_eq!(again.facts, p.facts);
}

#[test]
fn errors_name_file_and_line() {
    for (src, want) in [
        (".decl e(x:number)\ne(1).\ne(X) :- e(X), cat(X, X) = 1.\n", "seed.dl:3:"),
        (".decl e(x:float)\n", "seed.dl:1: float columns are not supported"),
        (".decl e(x:number)\n\ne(1)\n", "seed.dl:3: expected '.'"),
        (".decl e(x:number)\n.decl f(x:number)\nf(X) :- e(Y).\n", "ungrounded"),
        (".decl e(x:number)\n.decl f(x:number)\nf(X) :- e(X), !f(X).\n", "unable to stratify"),
        ("#include \"x.dl\"\n", "seed.dl:1: preprocessor"),
        (".decl e(x:number)\n.plan 1:(1,2)\n", "seed.dl:2: .plan is not supported"),
    ] {
        let err = parse_named(src, "seed.dl", None).expect_err(src);
        assert!(err.contains(want), "{src}: {err}");
    }
}

#[test]
fn seed_directories_read_fact_files_and_report_bad_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("good.dl"),
        ".decl edge(x:number, y:number)\n.input edge\n.decl path(x:number, y:number)\n.output path\n\
         path(X,Y) :- edge(X,Y).\npath(X,Z) :- path(X,Y), edge(Y,Z).\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("edge.facts"), "1\t2\n2\t3\n").expect("write");
    std::fs::write(dir.path().join("bad.dl"), ".decl e(x:number)\ne(1) :- \n").expect("write");
    let seeds = load_seeds(dir.path()).expect("one seed is readable");
    assert_eq!(seeds.len(), 1);
    assert_eq!(seeds[0].facts.len(), 2);
    assert!(seeds[0].seed_rels.contains("edge"));
    // No readable seed at all: an error naming the file and line.
    std::fs::remove_file(dir.path().join("good.dl")).expect("rm");
    let err = load_seeds(dir.path()).expect_err("no readable seed");
    assert!(err.contains("bad.dl:2"), "{err}");
    let empty = tempfile::tempdir().expect("tempdir");
    assert!(load_seeds(empty.path()).expect_err("empty").contains("no .dl seed files"));
}

#[test]
fn seeds_are_extended_and_transformed() {
    let src = ".decl edge(x:number, y:number)\n.decl path(x:number, y:number)\n.output path\n\
         edge(1,2). edge(2,3). edge(3,4).\npath(X,Y) :- edge(X,Y).\npath(X,Z) :- path(X,Y), edge(Y,Z).\n";
    let mut seed = parse(src).expect("parses");
    seed.seed_rels = seed.decls.iter().map(|d| d.name.clone()).collect();
    let caps = crosscheck_datalog::dialects::capabilities("souffle").iter().map(|s| s.to_string()).collect();
    let mut g = crosscheck_datalog::DatalogGen::new(3, caps, vec![seed]);
    use crosscheck_core::Generator;
    let c = g.case(0, crosscheck_datalog::DatalogOracle::Dlsmith);
    assert!(c.program.decl("path").is_some() && c.program.decls.len() > 2);
    assert!(c.program.outputs.contains(&"path".to_string()));
    // DLSmith never adds a rule to a seed relation.
    if let crosscheck_datalog::Test::Metamorphic { transformed, .. } = &c.test {
        assert_eq!(transformed.rules.iter().filter(|r| r.head.rel == "path").count(), 2);
    }
    let c = g.case(1, crosscheck_datalog::DatalogOracle::Queryfuzz);
    assert!(c.program.decl("edge").is_some());
}
