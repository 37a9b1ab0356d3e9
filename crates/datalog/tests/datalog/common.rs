//! Helpers shared by the integration tests.
#![allow(dead_code)]

use crosscheck_core::{Engine, EngineFactory, EngineSpec, Outcome, Value};
use crosscheck_datalog::ast::Program;
use crosscheck_datalog::dialects;
use crosscheck_engines::testing;
use std::time::Duration;

/// The Datalog engines as the binary has them: the leg's reference evaluator and the engines
/// layer's adapters.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    let mut r = vec![crosscheck_datalog::reference_engine()];
    r.extend(crosscheck_engines::datalog::registry());
    r
}

/// Opens an engine (`mutant:` wrappers included), or says why the test skips it, by the
/// engines layer's `CROSSCHECK_REQUIRE_ENGINES` rule.
pub fn open(name: &str) -> Option<Box<dyn Engine>> {
    let spec = EngineSpec { name: name.into(), location: None, label: None };
    let base = name.rsplit(':').nth(1).filter(|_| name.starts_with("mutant:")).unwrap_or(name);
    let factories = registry();
    let factory = factories.iter().find(|f| f.name() == base).unwrap_or_else(|| panic!("unknown engine {base}"));
    if !testing::available(*factory) {
        return None;
    }
    match crosscheck_engines::open_engine(&factories, &spec) {
        Ok(e) => Some(e),
        Err(e) => {
            assert!(!testing::required(base), "engine {base} is required but does not open: {e}");
            eprintln!("SKIP {base}: {e}");
            None
        }
    }
}

pub fn parse(src: &str) -> Program {
    crosscheck_datalog::parse::parse(src).unwrap_or_else(|e| panic!("test program parses: {e}"))
}

/// Runs `p` on `e` for output `out` and returns the sorted set of tuples as strings.
pub fn run(e: &mut Box<dyn Engine>, p: &Program, out: &str) -> Result<Vec<String>, String> {
    let text = dialects::print(&e.info().dialect, p, out, None)?;
    match e.run(&text, Duration::from_secs(20)) {
        Outcome::Rows(r) => {
            let set = crosscheck_datalog::oracles::as_set(&r);
            let mut v: Vec<String> = set.rows.iter().map(|row| row_str(row)).collect();
            v.sort();
            Ok(v)
        }
        other => Err(format!("{other:?}\n--- program ---\n{text}")),
    }
}

pub fn row_str(row: &[Value]) -> String {
    let cells: Vec<String> = row
        .iter()
        .map(|v| match v {
            Value::Float(f) if f.fract() == 0.0 => format!("{}", crosscheck_core::value::trunc_i64(*f)),
            other => other.to_string(),
        })
        .collect();
    format!("({})", cells.join(","))
}

pub fn tuples(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The fixed suite every engine adapter is checked on against the reference evaluator.
pub const SUITE: &[(&str, &str, &str)] = &[
    (
        "transitive closure (queryFuzz Fig. 1)",
        ".decl edge(x:number, y:number)\n.decl reachable(x:number, y:number)\n.output reachable\n\
         edge(1,2). edge(2,3). edge(4,2). edge(2,5).\n\
         reachable(X,Y) :- edge(X,Y).\nreachable(X,Z) :- edge(X,Y), reachable(Y,Z).\n",
        "reachable",
    ),
    (
        "non-linear transitive closure (DLSmith background)",
        ".decl e(x:number, y:number)\n.decl c(x:number, y:number)\n.output c\n\
         e(1,2). e(2,3). e(3,4).\nc(X,Z) :- e(X,Z).\nc(X,Z) :- c(X,Y), c(Y,Z).\n",
        "c",
    ),
    (
        "same generation",
        ".decl par(c:symbol, p:symbol)\n.decl sg(x:symbol, y:symbol)\n.decl person(x:symbol)\n.output sg\n\
         par(\"b\",\"a\"). par(\"c\",\"a\"). par(\"d\",\"b\"). par(\"e\",\"c\"). par(\"f\",\"d\").\n\
         person(X) :- par(X,_).\nperson(Y) :- par(_,Y).\n\
         sg(X,X) :- person(X).\nsg(X,Y) :- par(X,P), sg(P,Q), par(Y,Q).\n",
        "sg",
    ),
    (
        "stratified negation (ENGINES.md test program)",
        ".decl e(x:number, y:number)\n.decl node(x:number)\n.decl path(x:number, y:number)\n.decl unreach(x:number, y:number)\n.output unreach\n\
         e(1,2). e(2,3). e(3,1). e(4,5). e(5,5).\n\
         node(X) :- e(X,_).\nnode(Y) :- e(_,Y).\npath(X,Y) :- e(X,Y).\npath(X,Z) :- path(X,Y), e(Y,Z).\n\
         unreach(X,Y) :- node(X), node(Y), !path(X,Y).\n",
        "unreach",
    ),
    (
        "aggregates",
        ".decl sale(shop:symbol, amount:number)\n.decl total(shop:symbol, n:number)\n.decl cnt(shop:symbol, n:number)\n\
         .decl lo(shop:symbol, n:number)\n.decl hi(shop:symbol, n:number)\n.decl all(shop:symbol, a:number, b:number, c:number, d:number)\n.output all\n\
         sale(\"a\", 3). sale(\"a\", 5). sale(\"b\", 7). sale(\"b\", -2). sale(\"b\", 4). sale(\"c\", 1).\n\
         total(S, N) :- sale(S, _), N = sum A : { sale(S, A) }.\n\
         cnt(S, N) :- sale(S, _), N = count : { sale(S, _) }.\n\
         lo(S, N) :- sale(S, _), N = min A : { sale(S, A) }.\n\
         hi(S, N) :- sale(S, _), N = max A : { sale(S, A) }.\n\
         all(S, A, B, C, D) :- total(S, A), cnt(S, B), lo(S, C), hi(S, D).\n",
        "all",
    ),
    (
        "comparisons and arithmetic",
        ".decl n(x:number)\n.decl r(x:number, y:number)\n.output r\n\
         n(1). n(2). n(3). n(4).\nr(X, Z) :- n(X), n(Y), X < Y, Y != 3, Z = X * 10 + Y.\n",
        "r",
    ),
    (
        // Recursive SQL needs a non-recursive start for `p`, which has none (a differential
        // campaign found SQLite rejecting it: "circular reference").
        "recursion without a base case",
        ".decl e(x:number, y:number)\n.decl p(x:number, y:number)\n.decl q(x:number, y:number)\n.output q\n\
         e(1,2).\np(X,X) :- p(X,X).\nq(X,Y) :- e(X,Y).\nq(X,Y) :- p(X,Y).\n",
        "q",
    ),
    (
        // Two linear recursive rules for one relation: PostgreSQL takes one recursive SELECT
        // (printed as a LATERAL join), DuckDB one over a derived table.
        "two recursive rules for one relation",
        ".decl e(x:number, y:number)\n.decl p(x:number, y:number)\n.output p\n\
         e(1,2). e(2,3). e(3,4). e(10,1).\n\
         p(X,Y) :- e(X,Y).\np(X,Z) :- p(X,Y), e(Y,Z), Z != 3.\np(X,Z) :- e(X,Y), p(Y,Z).\n",
        "p",
    ),
    (
        // A projection derives one tuple twice: a relation is a set all the same, so the sum
        // and the count see it once.
        "an aggregate over a projection",
        ".decl e(x:number, y:number, z:number)\n.decl q(x:number, y:number)\n.decl s(x:number, n:number)\n\
         .decl c(x:number, n:number)\n.decl r(x:number, n:number, m:number)\n.output r\n\
         e(1, 30, 7). e(1, 30, 8). e(1, 4, 9). e(2, -5, 1).\n\
         q(X, Y) :- e(X, Y, _).\n\
         s(X, N) :- q(X, _), N = sum Y : { q(X, Y) }.\n\
         c(X, N) :- q(X, _), N = count : { q(X, _) }.\n\
         r(X, N, M) :- s(X, N), c(X, M).\n",
        "r",
    ),
];

/// Numbers past 32 bits, for the engines with 64-bit integers (a bare SQL literal is a 32-bit
/// integer in PostgreSQL and DuckDB; clingo's numbers are 32-bit).
pub const WIDE: &str =
    ".decl e(x:number, y:number)\n.decl s(x:number, n:number)\n.decl r(x:number, n:number)\n.output r\n\
    e(1, 3000000000). e(1, 2147483647). e(2, -5).\n\
    s(X, N) :- e(X, _), N = sum Y : { e(X, Y) }.\n\
    r(X, N) :- s(X, A), N = A + 2147483647 * 2.\n";
