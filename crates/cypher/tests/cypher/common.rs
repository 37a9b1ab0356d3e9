//! What the tests share: opening engines (skipped when missing unless required), and a
//! campaign loop like a worker's.

use crosscheck_core::{Check, CheckOptions, Engine, EngineSpec, Evidence, GenOptions, Kind};
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
#[derive(Debug, Default)]
pub struct Tally {
    pub pass: u64,
    pub nonempty: u64,
    pub skips: Vec<String>,
    pub finding: Option<(Case, Evidence)>,
}

/// Runs cases `0..n` of `seed` for `oracle` on `specs`, as a worker would (prepare when the
/// round changes), up to the first finding.
pub fn campaign(specs: &[&str], oracle: CypherOracle, seed: u64, n: u64) -> Tally {
    let mut engines: Vec<Box<dyn Engine>> = specs.iter().map(|s| open(s)).collect();
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let kind = CypherKind;
    kind.validate(&[oracle], &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut gen = kind.generator(&GenOptions { seed, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut tally = Tally::default();
    let mut setup = None;
    for i in 0..n {
        let case = gen.case(i, oracle);
        if setup != Some(kind.setup_id(&case)) {
            setup = Some(kind.setup_id(&case));
            assert_eq!(kind.prepare(&case, &mut engines, &OPTS), Check::Pass { nonempty: false });
        }
        let check = kind.check(oracle, &case, &mut engines, &OPTS);
        gen.observe(i, &case, matches!(check, Check::Pass { nonempty: true }));
        match check {
            Check::Pass { nonempty } => {
                tally.pass += 1;
                tally.nonempty += u64::from(nonempty);
            }
            Check::Skip(why) => tally.skips.push(why),
            Check::Finding(ev) => {
                tally.finding = Some((case, *ev));
                return tally;
            }
        }
    }
    tally
}
