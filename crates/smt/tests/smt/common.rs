//! What the real-solver test binaries share: opening a solver, or skipping without it.

use crosscheck_core::engine::{EngineFactory, EngineSpec};
use crosscheck_core::{CheckOptions, Engine};
use std::time::Duration;

/// Opens `spec` if its solver is here; otherwise fails (listed in `CROSSCHECK_REQUIRE_ENGINES`)
/// or skips with a line.
pub fn open(spec: &str) -> Option<Box<dyn Engine>> {
    let spec = EngineSpec::parse(spec).unwrap_or_else(|e| panic!("spec: {e}"));
    let factories = crosscheck_engines::smt::registry();
    let base = crosscheck_smt::solvers::base_name(&spec.name).to_string();
    let f: &&dyn EngineFactory = factories.iter().find(|f| f.name() == base).unwrap_or_else(|| panic!("known engine"));
    if !crosscheck_engines::testing::available(*f) {
        return None;
    }
    Some(crosscheck_engines::open_engine(&factories, &spec).unwrap_or_else(|e| panic!("opens: {e}")))
}

#[allow(dead_code)] // not every test binary checks cases
pub fn opts() -> CheckOptions {
    CheckOptions { timeout: Duration::from_secs(20) }
}

/// Opens a helper solver (reference or checker) the way a worker does.
#[allow(dead_code)]
pub fn open_helper(spec: &EngineSpec) -> Result<Box<dyn Engine>, crosscheck_core::SetupError> {
    crosscheck_engines::open_engine(&crosscheck_engines::smt::registry(), spec)
}

/// The leg's helper solvers, opened on first use from the registry.
#[allow(dead_code)]
pub fn helpers(engines: &[crosscheck_core::EngineInfo]) -> crosscheck_core::Helpers<'static> {
    use crosscheck_core::Kind;
    crosscheck_core::Helpers::new(&open_helper, crosscheck_smt::SmtKind.helpers(engines))
}
