//! crosscheck's engines layer: every engine behind core's [`Engine`] interface, grouped by the
//! language it speaks (`sql`, `smt`, `datalog`), the processes, bridges and private servers they run in
//! (`transport`), and fault injection (`mutant`).
//!
//! Invariant: this crate depends on core only, never on a leg. Engines report what they are
//! (name, label, version, location, the dialect they speak); what a dialect can express is the
//! leg's knowledge, derived from the dialect name.

pub mod datalog;
pub mod mutant;
pub mod smt;
pub mod sql;
pub mod testing;
pub mod transport;

use crosscheck_core::{Engine, EngineFactory, EngineSpec, SetupError};

/// Opens an engine from a registry; `mutant:<engine>:<fault>` wraps another engine.
pub fn open_engine(factories: &[&'static dyn EngineFactory], spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    if let Some(parsed) = mutant::parse(&spec.name) {
        let (inner, fault) = parsed.map_err(SetupError::new)?;
        let inner_spec = EngineSpec { name: inner.to_string(), location: spec.location.clone(), label: None };
        let engine = open_engine(factories, &inner_spec)?;
        return Ok(Box::new(mutant::Mutant::new(engine, fault, &spec.name, spec.label.as_deref())));
    }
    match factories.iter().find(|f| f.name() == spec.name) {
        Some(f) => f.open(spec),
        None => {
            let known: Vec<&str> = factories.iter().map(|f| f.name()).collect();
            Err(SetupError::new(format!(
                "unknown engine \"{}\" (known: {}; see crosscheck engines)",
                spec.name,
                known.join(", ")
            )))
        }
    }
}

/// Whether a name is a known engine of the registry (mutants included).
pub fn knows_engine(factories: &[&'static dyn EngineFactory], name: &str) -> Result<(), String> {
    let base = match mutant::parse(name) {
        Some(Ok((inner, _))) => return knows_engine(factories, inner),
        Some(Err(e)) => return Err(e),
        None => name,
    };
    if factories.iter().any(|f| f.name() == base) {
        Ok(())
    } else {
        let known: Vec<&str> = factories.iter().map(|f| f.name()).collect();
        Err(format!("unknown engine \"{base}\" (known: {}; see crosscheck engines)", known.join(", ")))
    }
}
