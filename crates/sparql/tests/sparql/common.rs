//! What the tests share: opening stores, and a campaign loop like a worker's.

use crosscheck_core::{CheckOptions, Engine, EngineSpec};
use crosscheck_sparql::{Case, SparqlKind, SparqlOracle};
use std::time::Duration;

pub const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(20) };

pub fn open(spec: &str) -> Box<dyn Engine> {
    let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("{e}"));
    crosscheck_engines::open_engine(&crosscheck_engines::sparql::registry(), &spec).unwrap_or_else(|e| panic!("{e}"))
}

/// What a campaign saw.
pub type Tally = crosscheck_engines::testing::Tally<Case>;

/// Runs cases `0..n` of `seed` for `oracle` on `specs`, as a worker would, up to the first
/// finding.
pub fn campaign(specs: &[&str], oracle: SparqlOracle, seed: u64, n: u64) -> Tally {
    crosscheck_engines::testing::campaign(&SparqlKind, specs.iter().map(|s| open(s)).collect(), oracle, seed, n, &OPTS)
}

/// The SPARQL store of that name, opened, or `None` where it is not installed (a store
/// `CROSSCHECK_REQUIRE_ENGINES` names must be here: the test fails without it).
pub fn open_if(name: &str) -> Option<Box<dyn Engine>> {
    let factory = crosscheck_engines::sparql::registry().into_iter().find(|f| f.name() == name)?;
    crosscheck_engines::testing::available(factory).then(|| open(name))
}
