//! The SPARQL leg: RD²'s randomized differential testing of RDF stores (graph generation with
//! value pools, graph-guided queries, normalized multiset comparison, blank-node mapping),
//! plus ternary logic partitioning adapted to SPARQL's error semantics and an optimizer
//! on/off oracle. The stores live in `crosscheck-engines` (`sparql::registry`); the leg knows
//! what each can run by the dialect it reports.

pub mod dialect;
pub mod exprgen;
pub mod gen;
pub mod model;
pub mod normalize;
pub mod oracles;
pub mod print;
pub mod query;
pub mod reduce;
pub mod repro;

pub use model::Case;
pub use oracles::SparqlOracle;

use crate::dialect::Cap;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, Outcome, Shape};

/// Queries per graph. RD² runs 1,000 per round; fewer rounds of more graphs vary the data
/// more for the same time, and loading a graph costs the in-process store little.
pub const QUERIES_PER_ROUND: u64 = 200;

/// Separates the graph stream from the query stream of one seed.
const GRAPH_STREAM: u64 = 0x5350_4152_514c;

/// The leg.
pub struct SparqlKind;

impl Kind for SparqlKind {
    type Case = Case;
    type Oracle = SparqlOracle;
    const NAME: &'static str = "sparql";
    const DEFAULT_ENGINES: &'static [&'static str] = &["oxigraph"];
    /// One store alone is enough for these two; `differential` needs a second store.
    const DEFAULT_ORACLES: &'static [SparqlOracle] = &[SparqlOracle::Partition, SparqlOracle::Config];

    fn validate(&self, oracles: &[SparqlOracle], engines: &[EngineInfo]) -> Result<(), String> {
        if let Some(e) = engines.iter().find(|e| dialect::by_name(&e.dialect).is_none()) {
            return Err(format!("engine {} speaks {}, which the SPARQL leg does not know", e.label, e.dialect));
        }
        oracles.iter().try_for_each(|o| o.validate(engines))
    }

    fn generator(
        &self,
        opts: &GenOptions,
        engines: &[EngineInfo],
    ) -> Result<Box<dyn Generator<Case, SparqlOracle>>, String> {
        let dialects: Vec<_> = engines.iter().filter_map(|e| dialect::by_name(&e.dialect)).collect();
        Ok(Box::new(SparqlGen { seed: opts.seed, dialects, round: None }))
    }

    fn setup_id(&self, case: &Case) -> u64 {
        case.graph.round
    }

    fn prepare(&self, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let load = print::insert_data(&case.graph);
        if let Err(why) = print::parses(&load) {
            return Check::Skip(format!("generator bug: spargebra rejects the generated update: {why}"));
        }
        for e in engines.iter_mut() {
            let label = e.info().label.clone();
            if let Err(err) = e.reset() {
                return Check::Skip(format!("cannot reset {label}: {err}"));
            }
            // A reduction may remove every triple; Virtuoso rejects an empty INSERT DATA
            // (SP030), which would slide the reduction onto that refusal.
            if case.graph.triples.is_empty() {
                continue;
            }
            match e.run(&load, opts.timeout) {
                Outcome::Done | Outcome::Rows(_) => {}
                out @ Outcome::Crash { .. } => {
                    return Check::finding(Evidence::crash(&label, &out, crosscheck_core::Detail::none()))
                }
                Outcome::Error { message, .. } => {
                    let detail = oracles::Transcript { queries: vec![load.clone()], answers: vec![] };
                    return oracles::error_finding(&label, &message, &detail);
                }
                other => return Check::Skip(format!("{label} did not load the graph: {other}")),
            }
        }
        Check::Pass { nonempty: false }
    }

    fn check(&self, oracle: SparqlOracle, case: &Case, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
        oracle.check(case, engines, o)
    }

    fn shrink(&self, case: &Case) -> Vec<Case> {
        reduce::shrink(case)
    }

    fn size(&self, case: &Case) -> usize {
        reduce::size(case)
    }

    fn signature(&self, _: SparqlOracle, case: &Case, evidence: &Evidence) -> Shape {
        reduce::signature(case, evidence)
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: SparqlOracle,
        case: &Case,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}

/// The generator: case `index` is a pure function of the seed, the stores' dialects and the
/// index. Its graph is a function of the seed and the round alone, cached for the round.
pub struct SparqlGen {
    pub seed: u64,
    pub dialects: Vec<&'static dyn dialect::Dialect>,
    round: Option<(model::Graph, gen::Pools)>,
}

impl SparqlGen {
    pub fn new(seed: u64, dialects: Vec<&'static dyn dialect::Dialect>) -> SparqlGen {
        SparqlGen { seed, dialects, round: None }
    }
}

impl Generator<Case, SparqlOracle> for SparqlGen {
    fn case(&mut self, index: u64, oracle: SparqlOracle) -> Case {
        let round = index / QUERIES_PER_ROUND;
        let (graph, pools) = match self.round.take() {
            Some(r) if r.0.round == round => r,
            _ => {
                let mut g = gen::graph(&mut crosscheck_core::rng(self.seed ^ GRAPH_STREAM, round), round);
                if let Some(digits) = normalize::Norm::of(&self.dialects).double_digits {
                    gen::shorten_doubles(&mut g, digits);
                }
                let pools = gen::Pools::of(&g);
                (g, pools)
            }
        };
        let dialects = &self.dialects;
        let caps = |c: Cap| dialect::all_have(dialects, c);
        let mut rng = crosscheck_core::rng(self.seed, index);
        let mut qg = query::QueryGen::new(&mut rng, &graph, &pools, &caps);
        qg.guard_ebv = !dialect::agree(dialects, Cap::StrictEbv) || !caps(Cap::LangEbvNegation);
        qg.alt_set_only = !dialect::agree(dialects, Cap::PathAltBag);
        let mut q = qg.query();
        let pred = match oracle {
            SparqlOracle::Partition => {
                // FILTER parts of the solutions add up; parts of groups do not, so partition
                // cases are the non-aggregate queries.
                if let Some(a) = q.aggregation.take() {
                    q.project.retain(|v| a.keys.contains(v));
                    if q.project.is_empty() {
                        q.project.push(0);
                    }
                }
                q.order.clear();
                q.limit = None;
                q.offset = None;
                let p = qg.predicate();
                caps(Cap::Coalesce).then_some(p)
            }
            _ => None,
        };
        let case = Case { index, graph: graph.clone(), query: q, pred };
        self.round = Some((graph, pools));
        case
    }
}
