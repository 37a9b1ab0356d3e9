//! What the tests share: opening stores, and a campaign loop like a worker's.

use crosscheck_core::{Check, CheckOptions, Engine, EngineSpec, Evidence, GenOptions, Kind};
use crosscheck_sparql::{Case, SparqlKind, SparqlOracle};
use std::time::Duration;

pub const OPTS: CheckOptions = CheckOptions { timeout: Duration::from_secs(20) };

pub fn open(spec: &str) -> Box<dyn Engine> {
    let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("{e}"));
    crosscheck_engines::open_engine(&crosscheck_engines::sparql::registry(), &spec).unwrap_or_else(|e| panic!("{e}"))
}

/// What a campaign saw.
#[derive(Debug, Default)]
pub struct Tally {
    pub pass: u64,
    pub nonempty: u64,
    pub skips: Vec<String>,
    pub finding: Option<(Case, Evidence)>,
}

impl Tally {
    pub fn checked(&self) -> u64 {
        self.pass + self.skips.len() as u64
    }
}

/// Runs cases `0..n` of `seed` for `oracle` on `specs`, as a worker would (prepare when the
/// round changes), up to the first finding.
pub fn campaign(specs: &[&str], oracle: SparqlOracle, seed: u64, n: u64) -> Tally {
    let mut engines: Vec<Box<dyn Engine>> = specs.iter().map(|s| open(s)).collect();
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    let kind = SparqlKind;
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
        match kind.check(oracle, &case, &mut engines, &OPTS) {
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

/// The SPARQL store of that name, opened, or `None` where it is not installed (a store
/// `CROSSCHECK_REQUIRE_ENGINES` names must be here: the test fails without it).
pub fn open_if(name: &str) -> Option<Box<dyn Engine>> {
    let factory = crosscheck_engines::sparql::registry().into_iter().find(|f| f.name() == name)?;
    crosscheck_engines::testing::available(factory).then(|| open(name))
}
