//! The rule every test that needs a real engine follows: an engine named in
//! `CROSSCHECK_REQUIRE_ENGINES` (comma-separated, or `all`; CI sets it after installing) must be
//! here, and the test fails without it; any other missing engine skips the test with a line.

use crosscheck_core::EngineFactory;

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
