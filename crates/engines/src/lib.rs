//! crosscheck's engines layer: every engine behind core's [`Engine`] interface, grouped by the
//! language it speaks (`sql`, `smt`, `datalog`, `sparql`, `cypher`), the processes, bridges and private servers they run in
//! (`transport`), and fault injection (`mutant`).
//!
//! Invariant: this crate depends on core only, never on a leg. Engines report what they are
//! (name, label, version, location, the dialect they speak); what a dialect can express is the
//! leg's knowledge, derived from the dialect name.

pub mod cypher;
pub mod datalog;
pub mod mutant;
pub mod smt;
pub mod sparql;
pub mod sql;
pub mod testing;
pub mod transport;

use crosscheck_core::{Availability, Engine, EngineFactory, EngineSpec, Outcome, SetupError};

/// A registry entry: an engine's name and line for `crosscheck engines`, and how it is found
/// and opened. There is one [`Opener`] per way of running engines (a solver binary, a library
/// behind the Python host, a server, one-shot tools, recursive SQL on an SQL engine), so an
/// adapter is its engine's data plus the logic that is its own.
pub struct Entry<O: 'static> {
    pub name: &'static str,
    pub describe: &'static str,
    pub opener: O,
}

/// How the engines of an [`Entry`] named `name` are found and opened.
pub trait Opener: Sync {
    fn availability(&self, name: &'static str) -> Availability;
    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError>;
}

impl<O: Opener> EngineFactory for Entry<O> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self) -> &'static str {
        self.describe
    }

    fn availability(&self) -> Availability {
        self.opener.availability(self.name)
    }

    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        self.opener.open(self.name, spec)
    }
}

/// The availability of an engine whose version was found, or why it was not, with `install`
/// as the hint.
pub fn available_if(version: Result<String, String>, install: &str) -> Availability {
    let (available, detail) = match version {
        Ok(v) => (true, v),
        Err(why) => (false, why),
    };
    Availability { available, detail, install: install.into() }
}

pub use crosscheck_core::engine::built_in;

/// The crash outcome of a panic an in-process engine raised (Cozo, Oxigraph): reported like a
/// process's death, with the message where the key of a crash finding looks for it.
pub fn panic_crash(panic: &(dyn std::any::Any + Send)) -> Outcome {
    let msg = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    Outcome::Crash { signal: None, code: None, stderr_tail: format!("panic: {msg}") }
}

/// Opens an engine from a registry; `mutant:<engine>:<fault>` wraps another engine.
pub fn open_engine(factories: &[&'static dyn EngineFactory], spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    if let Some(parsed) = mutant::parse(&spec.name) {
        let (inner, fault) = parsed.map_err(SetupError::new)?;
        let inner_spec = EngineSpec { name: inner.to_string(), location: spec.location.clone(), label: None };
        let engine = open_engine(factories, &inner_spec)?;
        return Ok(Box::new(mutant::Mutant::new(engine, fault, &spec.name, spec.label.as_deref())));
    }
    match factories.iter().find(|f| f.name() == spec.name) {
        Some(f) => {
            let mut engine = f.open(spec)?;
            engine.probe().map_err(|what| no_answer(spec, &what))?;
            Ok(engine)
        }
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

/// The one line for an engine that opened but did not answer its first probe (nothing it
/// would answer later could be trusted, so no case runs).
pub fn no_answer(spec: &EngineSpec, what: &str) -> SetupError {
    let what = one_line(what, 300);
    SetupError::new(match &spec.location {
        Some(l) => {
            format!("engine {} ({l}) did not answer its first probe: {what}; check the location", spec.display_label())
        }
        None => format!(
            "engine {} did not answer its first probe: {what}; check its installation (crosscheck engines)",
            spec.display_label()
        ),
    })
}

/// What an engine's answer to a probe was, as a person would describe it: a crash with what
/// the process last wrote.
pub fn described(out: &Outcome) -> String {
    match out {
        Outcome::Crash { stderr_tail, .. } if !stderr_tail.trim().is_empty() => {
            format!("it died, {out}: {}", stderr_tail.trim())
        }
        Outcome::Crash { .. } => format!("it died, {out}, saying nothing"),
        Outcome::Timeout { .. } => format!("no answer ({out})"),
        other => format!("it answered {other}"),
    }
}

/// `text` on one line, at most `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line,
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
