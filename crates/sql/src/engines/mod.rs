//! SQL engines, one file each, and the registry: adding an engine is one file and one line here.

use crosscheck_core::EngineFactory;

/// Every SQL engine crosscheck knows.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![]
}
