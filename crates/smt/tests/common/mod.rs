//! What the real-solver test binaries share: opening a solver, or skipping without it.

use crosscheck_core::engine::{EngineFactory, EngineSpec};
use crosscheck_core::{CheckOptions, Engine, KindInfo};
use crosscheck_smt::SmtKind;
use std::time::Duration;

pub fn required(name: &str) -> bool {
    std::env::var("CROSSCHECK_REQUIRE_ENGINES").is_ok_and(|v| v.split(',').any(|n| n.trim() == name))
}

/// Opens `spec` if its solver is here; otherwise fails (listed in `CROSSCHECK_REQUIRE_ENGINES`)
/// or skips with a line.
pub fn open(spec: &str) -> Option<Box<dyn Engine>> {
    let spec = EngineSpec::parse(spec).expect("spec");
    let factories = SmtKind.engines();
    let base = crosscheck_smt::engines::base_name(&spec.name).to_string();
    let f: &&dyn EngineFactory = factories.iter().find(|f| f.name() == base).expect("known engine");
    let avail = f.availability();
    if !avail.available {
        assert!(!required(&base), "{base} is required (CROSSCHECK_REQUIRE_ENGINES) but missing: {}", avail.detail);
        println!("skipped: {base} not available ({}); install: {}", avail.detail, avail.install);
        return None;
    }
    Some(crosscheck_core::open_engine(&factories, &spec).expect("opens"))
}

#[allow(dead_code)] // not every test binary checks cases
pub fn opts() -> CheckOptions {
    CheckOptions { timeout: Duration::from_secs(20) }
}
