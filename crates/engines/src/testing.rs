//! The rule every test that needs a real engine follows: an engine named in
//! `CROSSCHECK_REQUIRE_ENGINES` (comma-separated, or `all`; CI sets it after installing) must be
//! here, and the test fails without it; any other missing engine skips the test with a line.

use crosscheck_core::{
    Check, CheckOptions, Engine, EngineFactory, EngineSpec, Evidence, GenOptions, Kind, Outcome, Rows,
};
use std::time::Duration;

/// How long a test lets an engine take over one statement.
pub const LIMIT: Duration = Duration::from_secs(20);

/// Whether `CROSSCHECK_REQUIRE_ENGINES` names the engine (or says `all`).
pub fn required(name: &str) -> bool {
    std::env::var("CROSSCHECK_REQUIRE_ENGINES")
        .is_ok_and(|v| v.split(',').any(|e| e.trim() == name || e.trim() == "all"))
}

/// Whether the engine can run here: a required engine that is missing panics, any other prints
/// why it is skipped.
pub fn available(factory: &dyn EngineFactory) -> bool {
    let a = factory.availability();
    if a.available {
        return true;
    }
    let name = factory.name();
    assert!(
        !required(name),
        "{name} is required (CROSSCHECK_REQUIRE_ENGINES) but not available: {} (install: {})",
        a.detail,
        a.install
    );
    println!("skipped: {name} is not available here ({}); install: {}", a.detail, a.install);
    false
}

/// The SQL engine of that name in the registry; a test names only registered engines.
pub fn sql_factory(name: &str) -> &'static dyn EngineFactory {
    crate::sql::registry()
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| panic!("{name}: not in the registry"))
}

/// [`available`] for the SQL engine of that name.
pub fn sql_available(name: &str) -> bool {
    available(sql_factory(name))
}

/// The SQL engine of that name opened with its defaults, or `None` where it is not available.
pub fn open_sql(name: &str) -> Option<Box<dyn Engine>> {
    if !sql_available(name) {
        return None;
    }
    let spec = EngineSpec { name: name.into(), location: None, label: None };
    Some(sql_factory(name).open(&spec).unwrap_or_else(|e| panic!("{name} does not open: {e}")))
}

/// The rows `e` answers to `sql`; any other outcome fails the test.
pub fn rows(e: &mut dyn Engine, sql: &str) -> Rows {
    match e.run(sql, LIMIT) {
        Outcome::Rows(r) => r,
        other => panic!("{}: {sql} -> {other:?}", e.info().name),
    }
}

/// Runs `sql`, which must answer nothing (a definition, an insert).
pub fn done(e: &mut dyn Engine, sql: &str) {
    let o = e.run(sql, LIMIT);
    assert!(matches!(o, Outcome::Done), "{}: {sql} -> {o:?}", e.info().name);
}

/// What a fixed-seed campaign saw, up to its first finding.
#[derive(Debug)]
pub struct Tally<C> {
    pub pass: u64,
    /// Passes whose query returned something.
    pub nonempty: u64,
    pub skips: Vec<String>,
    pub finding: Option<(C, Evidence)>,
}

impl<C> Tally<C> {
    /// The cases judged without a finding: passed or skipped.
    pub fn checked(&self) -> u64 {
        self.pass + self.skips.len() as u64
    }
}

/// Runs cases `0..n` of `seed` for `oracle` on `engines` as a worker would (prepare when the
/// setup changes, tell an adaptive generator what each case gave), up to the first finding.
pub fn campaign<K: Kind>(
    kind: &K,
    mut engines: Vec<Box<dyn Engine>>,
    oracle: K::Oracle,
    seed: u64,
    n: u64,
    opts: &CheckOptions,
) -> Tally<K::Case> {
    let infos: Vec<_> = engines.iter().map(|e| e.info().clone()).collect();
    kind.validate(&[oracle], &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut gen = kind.generator(&GenOptions { seed, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut tally = Tally { pass: 0, nonempty: 0, skips: Vec::new(), finding: None };
    let mut setup = None;
    for i in 0..n {
        let case = gen.case(i, oracle);
        if setup != Some(kind.setup_id(&case)) {
            setup = Some(kind.setup_id(&case));
            assert_eq!(kind.prepare(&case, &mut engines, opts), Check::Pass { nonempty: false });
        }
        let check = kind.check(oracle, &case, &mut engines, opts);
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
