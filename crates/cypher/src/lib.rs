//! The Cypher leg: GDsmith's differential testing of graph database engines (a random schema
//! and property graph, skeleton queries completed from the context so that they are valid and
//! free of undefined behaviour, multiset comparison of typed answers), plus GDBMeter's query
//! partitioning for one engine alone. The engines live in `crosscheck-engines`
//! (`cypher::registry`); the leg knows what each can run by the dialect it reports.

pub mod dialect;
pub mod gen;
pub mod model;
pub mod mutate;
pub mod oracles;
pub mod print;
pub mod query;
pub mod reduce;
pub mod repro;
pub mod signature;
pub mod transform;

pub use model::Case;
pub use oracles::CypherOracle;

use crate::dialect::Cap;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, Outcome, Shape};
use rand::Rng;

/// Queries per graph. GDsmith runs 1,000; more rounds of fewer queries vary the graphs more
/// for the same time, and loading a graph of a few dozen elements is cheap.
pub const QUERIES_PER_ROUND: u64 = 100;

/// Separates the graph stream from the query stream of one seed.
const GRAPH_STREAM: u64 = 0x4359_5048_4552;

/// The leg.
pub struct CypherKind;

impl Kind for CypherKind {
    type Case = Case;
    type Oracle = CypherOracle;
    const NAME: &'static str = "cypher";
    const DEFAULT_ENGINES: &'static [&'static str] = &["kuzu"];
    /// One engine alone is enough for partitioning; `differential` needs a second engine.
    const DEFAULT_ORACLES: &'static [CypherOracle] = &[CypherOracle::Partition];

    fn validate(&self, oracles: &[CypherOracle], engines: &[EngineInfo]) -> Result<(), String> {
        if let Some(e) = engines.iter().find(|e| dialect::by_name(&e.dialect).is_none()) {
            return Err(format!("engine {} speaks {}, which the Cypher leg does not know", e.label, e.dialect));
        }
        oracles.iter().try_for_each(|o| o.validate(engines))
    }

    fn generator(
        &self,
        opts: &GenOptions,
        engines: &[EngineInfo],
    ) -> Result<Box<dyn Generator<Case, CypherOracle>>, String> {
        let dialects: Vec<_> = engines.iter().filter_map(|e| dialect::by_name(&e.dialect)).collect();
        Ok(Box::new(CypherGen::new(opts.seed, dialects)))
    }

    fn setup_id(&self, case: &Case) -> u64 {
        case.graph.round
    }

    /// A reduction step that changed only the query keeps the loaded graph.
    fn same_setup(&self, a: &Case, b: &Case) -> bool {
        a.graph == b.graph
    }

    fn prepare(&self, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        for e in engines.iter_mut() {
            let label = e.info().label.clone();
            let Some(d) = dialect::by_name(&e.info().dialect) else {
                return Check::Skip(format!("{label}: unknown dialect"));
            };
            let script = print::graph_script(&case.graph, d);
            if let Err(err) = e.reset() {
                return Check::Skip(format!("cannot reset {label}: {err}"));
            }
            match e.run(&script, opts.timeout) {
                Outcome::Done | Outcome::Rows(_) => {}
                out @ Outcome::Crash { .. } => {
                    return Check::finding(Evidence::crash(&label, &out, crosscheck_core::Detail::none()))
                }
                Outcome::Error { message, .. } => {
                    let detail = oracles::Transcript { queries: vec![script], answers: vec![] };
                    return oracles::error_finding(&label, &message, &detail);
                }
                other => return Check::Skip(format!("{label} did not load the graph: {other}")),
            }
        }
        Check::Pass { nonempty: false }
    }

    fn check(&self, oracle: CypherOracle, case: &Case, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
        oracle.check(case, engines, o)
    }

    fn shrink(&self, case: &Case) -> Vec<Case> {
        reduce::shrink(case)
    }

    fn size(&self, case: &Case) -> usize {
        reduce::size(case)
    }

    fn signature(&self, _: CypherOracle, case: &Case, evidence: &Evidence) -> Shape {
        signature::signature(case, evidence)
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: CypherOracle,
        case: &Case,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}

/// The generator. A case's graph is a function of the seed, the engines' dialects and the
/// round, cached for the round. Its query is GDsmith's: the first `FRESH` of a round are
/// generated anew, later ones mutate a query of the round's pool of queries that returned
/// rows, and property keys are chosen by the frequency feedback; with `mutate` and `feedback`
/// off (GDsmith's ablations !m and !f), a case is a pure function of the seed and its index.
pub struct CypherGen {
    pub seed: u64,
    pub dialects: Vec<&'static dyn dialect::Dialect>,
    /// GDsmith's structural mutations of the pool's queries.
    pub mutate: bool,
    /// GDsmith's property-key choice by frequency (Eq. 1).
    pub feedback: bool,
    round: Option<(model::Graph, gen::Pools)>,
    learned: Learned,
    /// The last case's query and context, until its answer is observed.
    pending: Option<(u64, mutate::Seed)>,
}

/// Queries of a round generated anew before mutation starts (GDsmith's N_g, in a round of
/// `QUERIES_PER_ROUND`; the seed gives no value). With 10, the share of queries with rows at
/// 3/4/5/6 clauses was 78/80/75/77% (kuzu,falkordb, 3,000 queries); with 25, 64/64/66/63%.
pub const FRESH: u64 = 10;

/// What the answers of the current round taught (reset with each graph, as GDsmith resets
/// its pool and frequencies with each schema).
#[derive(Default)]
struct Learned {
    round: u64,
    pool: Vec<mutate::Seed>,
    freq: query::Freq,
}

impl CypherGen {
    pub fn new(seed: u64, dialects: Vec<&'static dyn dialect::Dialect>) -> CypherGen {
        CypherGen {
            seed,
            dialects,
            mutate: true,
            feedback: true,
            round: None,
            learned: Learned::default(),
            pending: None,
        }
    }
}

impl Generator<Case, CypherOracle> for CypherGen {
    fn case(&mut self, index: u64, oracle: CypherOracle) -> Case {
        let round = index / QUERIES_PER_ROUND;
        let dialects = &self.dialects;
        // A construct some dialects lack is asked with `all_have`; one whose meaning differs
        // between them with `agree`.
        let caps = |c: Cap| match c {
            Cap::MultiLabel | Cap::MatchAfterOptional | Cap::AggregatedOperand | Cap::VarLength | Cap::ZeroLength => {
                dialect::all_have(dialects, c)
            }
            Cap::ConcatNull | Cap::IntegerSum | Cap::SelfLoopOnce => dialect::agree(dialects, c),
        };
        let (graph, pools) = match self.round.take() {
            Some(r) if r.0.round == round => r,
            _ => {
                let mut rng = crosscheck_core::rng(self.seed ^ GRAPH_STREAM, round);
                gen::graph(&mut rng, round, caps(Cap::MultiLabel), caps(Cap::SelfLoopOnce))
            }
        };
        if self.learned.round != round {
            self.learned = Learned { round, ..Learned::default() };
        }
        let mut rng = crosscheck_core::rng(self.seed, index);
        // Half of the equivalence cases are row-wise, so that superset transformations apply.
        let rowwise = match oracle {
            CypherOracle::Partition => true,
            CypherOracle::Equivalence => index.is_multiple_of(2),
            CypherOracle::Differential => false,
        };
        let mut qg = query::QueryGen::new(&mut rng, &graph, &pools, &caps, rowwise);
        if self.feedback {
            qg = qg.with_freq(&self.learned.freq);
        }
        let mutant = (self.mutate && index % QUERIES_PER_ROUND >= FRESH)
            .then(|| mutant(&mut qg, &self.learned.pool, rowwise))
            .flatten();
        let (query, ctx) = mutant.unwrap_or_else(|| (qg.query(), qg.context()));
        qg.adopt(&ctx);
        let scopes = query::match_scopes(&query, &ctx.envs);
        let split = (oracle == CypherOracle::Partition)
            .then(|| {
                let (clause, scope) = scopes.get(qg.pick(scopes.len()))?.clone();
                Some(model::Split { clause, pred: qg.predicate(&scope) })
            })
            .flatten();
        let transform =
            (oracle == CypherOracle::Equivalence).then(|| pick_transform(&mut qg, &query, &scopes)).flatten();
        drop(qg);
        self.pending = Some((index, mutate::Seed { query: query.clone(), ctx, rowwise }));
        let case = Case { index, graph: graph.clone(), query, split, transform };
        self.round = Some((graph, pools));
        case
    }

    fn adaptive(&self) -> bool {
        self.mutate || self.feedback
    }

    /// GDsmith's retention: a query that returned rows joins the pool (if short enough to
    /// mutate) and counts its property keys.
    fn observe(&mut self, index: u64, case: &Case, nonempty: bool) {
        let Some((i, seed)) = self.pending.take() else { return };
        if i != index || !nonempty || case.graph.round != self.learned.round {
            return;
        }
        if self.feedback {
            mutate::count_keys(&case.query, &mut self.learned.freq);
        }
        if self.mutate && seed.query.clauses.len() < mutate::MAX_SEED_LEN {
            self.learned.pool.push(seed);
        }
    }
}

/// A mutant of a pool query a case of this kind may use (a row-wise case only a row-wise
/// one's): a random mutation first, then the others in turn.
fn mutant<R: Rng>(
    qg: &mut query::QueryGen<'_, R>,
    pool: &[mutate::Seed],
    rowwise: bool,
) -> Option<(model::Query, query::Context)> {
    let fit: Vec<&mutate::Seed> = pool.iter().filter(|s| s.rowwise || !rowwise).collect();
    let seed = *fit.get(qg.pick(fit.len()))?;
    let first = qg.pick(mutate::Mutation::ALL.len());
    (0..mutate::Mutation::ALL.len())
        .map(|k| mutate::Mutation::ALL[(first + k) % mutate::Mutation::ALL.len()])
        .find_map(|m| m.apply(seed, qg))
}

/// A transformation that applies to `query`: a random kind first, then the others in turn.
fn pick_transform<R: Rng>(
    qg: &mut query::QueryGen<'_, R>,
    query: &model::Query,
    scopes: &[(usize, Vec<query::Var>)],
) -> Option<transform::Transform> {
    use transform::Transform as T;
    const KINDS: usize = 5;
    let first = qg.pick(KINDS);
    let (clause, scope) = scopes.get(qg.pick(scopes.len())).cloned()?;
    let at = 1 + qg.pick(query.clauses.len());
    let pred = qg.predicate(&scope);
    let kinds = [
        T::Reverse { clause },
        T::Tautology { clause, pred },
        T::WithStar { at },
        T::Undirect { clause },
        T::SplitMatch { clause },
    ];
    (0..KINDS).map(|k| kinds[(first + k) % KINDS].clone()).find(|t| t.apply(query).is_some())
}
