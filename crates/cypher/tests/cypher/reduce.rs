//! Reduction: a differential finding against drop-row shrinks to a small case that still
//! fails the same way, and its reproducers hold the graph script and the query per dialect.

use super::common::{campaign, have, open, OPTS};
use crosscheck_core::worker::reduce_offline;
use crosscheck_core::Kind;
use crosscheck_cypher::{CypherKind, CypherOracle};
use std::time::{Duration, Instant};

#[test]
fn a_drop_row_finding_reduces_to_a_small_case() {
    if !have("kuzu") {
        return;
    }
    let specs = ["kuzu", "mutant:kuzu:drop-row"];
    let t = campaign(&specs, CypherOracle::Differential, 5, 300);
    let (case, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught"));
    let kind = CypherKind;
    let mut engines: Vec<_> = specs.iter().map(|s| open(s)).collect();
    let before = kind.size(&case);
    assert!(kind.shrink(&case).iter().all(|c| kind.size(c) < before), "every step shrinks the case");
    let deadline = Instant::now() + Duration::from_secs(120);
    let r = reduce_offline(&kind, CypherOracle::Differential, &case, &ev, &mut engines, &OPTS, deadline);
    let r = r.unwrap_or_else(|| panic!("the finding does not reproduce"));
    let (small, stats): (crosscheck_cypher::Case, _) =
        (serde_json::from_value(r.case).unwrap_or_else(|e| panic!("{e}")), r.stats);
    let text = crosscheck_cypher::print::query(&small.query);
    println!("reduced {before} -> {} in {} tries: {text}", kind.size(&small), stats.tries);
    // Dropping one row of a non-empty answer needs no more than a node and one clause (a bare
    // RETURN has one row of its own).
    assert!(small.graph.nodes.len() <= 2 && small.graph.rels.is_empty(), "{:?}", small.graph);
    assert!(small.query.clauses.len() <= 1, "{text}");
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let files = kind.reproducers("repro", CypherOracle::Differential, &small, &ev, &infos);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, vec!["repro.kuzu.cypher"]);
    assert!(files[0].1.contains("CREATE NODE TABLE") && files[0].1.contains("// expected:"), "{}", files[0].1);
    assert!(files[0].1.contains(&text), "{}", files[0].1);
    let shape = kind.signature(CypherOracle::Differential, &small, &ev);
    assert!(shape.head.starts_with("differential:"), "{shape:?}");
}

/// An engine that counts its resets: how often a reduction loaded a graph.
struct Counting(Box<dyn crosscheck_core::Engine>, std::sync::Arc<std::sync::atomic::AtomicU64>);

impl crosscheck_core::Engine for Counting {
    fn info(&self) -> &crosscheck_core::EngineInfo {
        self.0.info()
    }
    fn reset(&mut self) -> Result<(), crosscheck_core::SetupError> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> crosscheck_core::Outcome {
        self.0.run(text, limit)
    }
}

/// A reduction step that changed only the query keeps the graph the engines hold
/// (`Kind::same_setup`): fewer loads than tries, and the same reduced case as loading every time.
#[test]
fn a_reduction_loads_the_graph_only_when_it_changed() {
    if !have("kuzu") {
        return;
    }
    let specs = ["kuzu", "mutant:kuzu:drop-row"];
    let t = campaign(&specs, CypherOracle::Differential, 5, 300);
    let (case, ev) = t.finding.unwrap_or_else(|| panic!("drop-row not caught"));
    let resets = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut engines: Vec<Box<dyn crosscheck_core::Engine>> =
        specs.iter().map(|s| Box::new(Counting(open(s), resets.clone())) as Box<dyn crosscheck_core::Engine>).collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    let r = crosscheck_core::worker::reduce_offline(
        &CypherKind,
        CypherOracle::Differential,
        &case,
        &ev,
        &mut engines,
        &OPTS,
        deadline,
    )
    .unwrap_or_else(|| panic!("no reduction"));
    let loads = resets.load(std::sync::atomic::Ordering::Relaxed) / specs.len() as u64;
    println!("{} tries, {loads} graph loads", r.stats.tries);
    assert!(loads < r.stats.tries as u64, "{loads} loads for {} tries", r.stats.tries);
    let small: crosscheck_cypher::Case = serde_json::from_value(r.case).unwrap_or_else(|e| panic!("{e}"));
    assert!(small.graph.nodes.len() <= 2 && small.query.clauses.len() <= 1, "{small:?}");
}
