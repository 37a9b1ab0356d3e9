//! What the tests share: opening engines (skipped when missing unless required), and a
//! campaign loop like a worker's.

use crosscheck_core::{CheckOptions, Engine, EngineSpec};
use crosscheck_cypher::{Case, CypherKind, CypherOracle};
use std::time::Duration;

pub const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(20) };

/// Whether the engine (a registry name) is installed; a required one that is not fails.
pub fn have(name: &str) -> bool {
    let registry = crosscheck_engines::cypher::registry();
    let f = registry.iter().find(|f| f.name() == name).unwrap_or_else(|| panic!("{name}: not registered"));
    crosscheck_engines::testing::available(*f)
}

pub fn open(spec: &str) -> Box<dyn Engine> {
    let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("{e}"));
    crosscheck_engines::open_engine(&crosscheck_engines::cypher::registry(), &spec).unwrap_or_else(|e| panic!("{e}"))
}

/// What a campaign saw.
pub type Tally = crosscheck_engines::testing::Tally<Case>;

/// Runs cases `0..n` of `seed` for `oracle` on `specs`, as a worker would, up to the first
/// finding.
pub fn campaign(specs: &[&str], oracle: CypherOracle, seed: u64, n: u64) -> Tally {
    crosscheck_engines::testing::campaign(&CypherKind, specs.iter().map(|s| open(s)).collect(), oracle, seed, n, &OPTS)
}
