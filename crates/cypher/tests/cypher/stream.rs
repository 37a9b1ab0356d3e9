//! The generated stream: a pure function of seed and index, and valid on each engine (the
//! share of queries it runs without an error, printed, with a floor).

use super::common::{have, open, OPTS};
use crosscheck_core::{GenOptions, Kind, Outcome};
use crosscheck_cypher::dialect;
use crosscheck_cypher::{print, CypherKind, CypherOracle};

fn infos(dialects: &[&str]) -> Vec<crosscheck_core::EngineInfo> {
    dialects
        .iter()
        .map(|d| {
            let spec = crosscheck_core::EngineSpec::parse(d).unwrap_or_else(|e| panic!("{e}"));
            crosscheck_core::engine::info_for(&spec, String::new(), d, &[])
        })
        .collect()
}

#[test]
fn the_generator_is_a_pure_function_of_seed_and_index() {
    let infos = infos(&["kuzu", "falkordb"]);
    let opts = GenOptions { seed: 9, seeds_dir: None };
    let mut a = CypherKind.generator(&opts, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut b = CypherKind.generator(&opts, &infos).unwrap_or_else(|e| panic!("{e}"));
    for i in [0, 1, 150, 3, 999, 150, 0] {
        for o in [CypherOracle::Differential, CypherOracle::Partition] {
            let (x, y) = (a.case(i, o), b.case(i, o));
            assert_eq!(x, y, "case {i}");
            assert_eq!(print::query(&x.query), print::query(&a.case(i, o).query), "case {i} again");
        }
    }
}

/// Runs `n` differential cases' queries on one engine: the share it answers without error.
fn validity(name: &str, n: u64) -> f64 {
    let mut e = open(name);
    let infos = vec![e.info().clone()];
    let d = dialect::by_name(&e.info().dialect).unwrap_or_else(|| panic!("{name}: no dialect"));
    let mut gen =
        CypherKind.generator(&GenOptions { seed: 21, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let (mut ok, mut errors, mut round) = (0u64, Vec::new(), None);
    for i in 0..n {
        let case = gen.case(i, CypherOracle::Differential);
        if round != Some(case.graph.round) {
            round = Some(case.graph.round);
            e.reset().unwrap_or_else(|err| panic!("{err}"));
            let script = print::graph_script(&case.graph, d);
            assert!(matches!(e.run(&script, OPTS.timeout), Outcome::Done), "{name} loads round {round:?}");
        }
        let q = print::query_in(&case.query, None, Some(d));
        // Fed back as a worker would, so that mutants of the pool are among the queries.
        let nonempty = match e.run(&q, OPTS.timeout) {
            Outcome::Rows(rows) => {
                ok += 1;
                !rows.rows.is_empty()
            }
            other => {
                errors.push(format!("{other}: {q}"));
                false
            }
        };
        gen.observe(i, &case, nonempty);
    }
    let pct = ok as f64 / n as f64 * 100.0;
    println!(
        "{name}: {ok} of {n} generated queries ran ({pct:.1}%); first errors: {:#?}",
        &errors[..errors.len().min(3)]
    );
    pct
}

#[test]
fn kuzu_runs_the_generated_queries() {
    if have("kuzu") {
        let pct = validity("kuzu", 400);
        assert!(pct >= 99.0, "kuzu validity {pct:.1}%");
    }
}

#[test]
fn falkordb_runs_the_generated_queries() {
    // FalkorDB rejects some valid queries (its bugs: `-1 IS NULL` parsed as `-(1 IS NULL)`, an
    // OPTIONAL MATCH's WHERE on a variable bound before it): the floor leaves room for them.
    if have("falkordb") {
        let pct = validity("falkordb", 400);
        assert!(pct >= 90.0, "falkordb validity {pct:.1}%");
    }
}

#[test]
fn ladybug_runs_the_generated_queries() {
    // LadybugDB 0.22.0 answers `unordered_map::at` to a pattern tuple naming a bound variable
    // (`MATCH (n4) OPTIONAL MATCH (n4), (n3)`; Kuzu 0.11.3 answers): 94.0% at seed 21.
    if have("ladybug") {
        let pct = validity("ladybug", 400);
        assert!(pct >= 90.0, "ladybug validity {pct:.1}%");
    }
}
