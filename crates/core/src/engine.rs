//! The engine interface every leg implements, engine specifications from the command line,
//! and the registry entry that opens an engine and says whether it is available here.

use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

/// What an engine instance says about itself; it goes into every finding.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineInfo {
    /// Registry name (`sqlite`, `z3`, `mutant:sqlite:drop-row`).
    pub name: String,
    /// Name in reports; the name unless the user gave `@LABEL`.
    pub label: String,
    pub version: String,
    /// Where it came from, if the user named a binary, environment or address.
    pub location: Option<String>,
    /// Dialect or language variant the engine speaks (read by the printers).
    pub dialect: String,
    /// Capabilities the generators ask before building a construct.
    pub capabilities: BTreeSet<String>,
    /// The engine's own documented options, as the installed engine listed them when it
    /// opened (empty when it lists none). Legs choose among them; only what an engine knows is
    /// here, so a leg never sends an option another version of it lacks. Not serialized: it is
    /// read afresh by whoever opens the engine, and findings record the options a case used.
    #[serde(skip)]
    pub options: Vec<EngineOption>,
}

/// One documented option of an engine, with the values it takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineOption {
    pub name: String,
    /// Where the engine files it (a module, a help section, a category); may be empty.
    pub group: String,
    pub domain: OptionDomain,
    /// The default value as the engine prints it.
    pub default: Option<String>,
    /// The engine marks it for experts only (cvc5's "EXPERTS only", its `expert` category,
    /// which its `safe` and `stable` modes refuse).
    #[serde(default)]
    pub expert: bool,
}

/// The values an option takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OptionDomain {
    Bool,
    /// An integer, within the bounds the engine states.
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    /// One of the listed words.
    Choice(Vec<String>),
    /// Anything else (strings, reals, file names): the engine's own word for the type.
    Other(String),
}

impl EngineInfo {
    pub fn has(&self, capability: &str) -> bool {
        self.capabilities.contains(capability)
    }
}

/// A failure to start or reset an engine: an environment problem, reported with a fix.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct SetupError {
    pub message: String,
}

impl SetupError {
    pub fn new(message: impl Into<String>) -> SetupError {
        SetupError { message: message.into() }
    }
}

/// One running engine instance.
pub trait Engine: Send {
    fn info(&self) -> &EngineInfo;
    /// Back to an empty state (a fresh database, a reset solver).
    fn reset(&mut self) -> Result<(), SetupError>;
    /// Runs one statement, query or script, giving up after `limit`.
    fn run(&mut self, text: &str, limit: Duration) -> Outcome;
    /// Sends the smallest meaningful request in the engine's own language once, right after it
    /// opens, so an engine that does not answer at all is a setup error rather than a stream
    /// of crash findings; the error says what it answered or how it died. Engines that cannot
    /// be misplaced (built in, or checked while opening) keep the default.
    fn probe(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// The registry name under any `mutant:<engine>:<fault>` wrappers (the spec syntax is the
/// command line's; what the faults do is the engines layer's). Legs key what they know of an
/// engine by this name.
pub fn base_name(name: &str) -> &str {
    match name.strip_prefix("mutant:").and_then(|rest| rest.rsplit_once(':')) {
        Some((inner, _fault)) => base_name(inner),
        None => name,
    }
}

/// `NAME[=LOCATION][@LABEL]` as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    pub name: String,
    pub location: Option<String>,
    pub label: Option<String>,
}

impl EngineSpec {
    /// Parses one spec. The label may stand before or after the location
    /// (`z3@old=/opt/z3` and `z3=/opt/z3@old`), as PRODUCT.md writes both.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty engine name".into());
        }
        let (head, location) = match text.split_once('=') {
            Some((h, l)) => (h, Some(l)),
            None => (text, None),
        };
        let (name, mut label) = match head.split_once('@') {
            Some((n, l)) => (n, Some(l.to_string())),
            None => (head, None),
        };
        let location = match location {
            // A location may itself contain `@` (postgres://user@host), so only a trailing
            // `@label` without `/` or `:` is taken as a label.
            Some(l) => match l.rsplit_once('@') {
                Some((loc, lab)) if label.is_none() && !lab.contains(['/', ':']) && !lab.is_empty() => {
                    label = Some(lab.to_string());
                    Some(loc.to_string())
                }
                _ => Some(l.to_string()),
            },
            None => None,
        };
        if name.is_empty() {
            return Err(format!("engine spec \"{text}\" has no name"));
        }
        if label.as_deref() == Some("") {
            return Err(format!("engine spec \"{text}\" has an empty label"));
        }
        Ok(EngineSpec { name: name.to_string(), location: location.filter(|l| !l.is_empty()), label })
    }

    pub fn parse_list(text: &str) -> Result<Vec<EngineSpec>, String> {
        text.split(',').map(EngineSpec::parse).collect()
    }

    /// The label in reports.
    pub fn display_label(&self) -> String {
        self.label.clone().unwrap_or_else(|| self.name.clone())
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if let Some(l) = &self.label {
            write!(f, "@{l}")?;
        }
        if let Some(l) = &self.location {
            write!(f, "={l}")?;
        }
        Ok(())
    }
}

/// Whether an engine can run here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Availability {
    pub available: bool,
    /// The version when available, else what was missing.
    pub detail: String,
    /// How to install it.
    pub install: String,
}

/// A registry entry: one per engine, one line in its kind's registry.
pub trait EngineFactory: Sync {
    fn name(&self) -> &'static str;
    /// One line for `crosscheck engines`.
    fn describe(&self) -> &'static str;
    fn availability(&self) -> Availability;
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError>;
}

/// A registry entry as plain data: most engines' factories differ only in these four values,
/// and spelling each as its own impl repeated the same shape in every adapter.
pub struct Factory {
    pub name: &'static str,
    pub describe: &'static str,
    pub availability: fn() -> Availability,
    pub open: fn(&EngineSpec) -> Result<Box<dyn Engine>, SetupError>,
}

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self) -> &'static str {
        self.describe
    }

    fn availability(&self) -> Availability {
        (self.availability)()
    }

    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        (self.open)(spec)
    }
}

/// Fills the label and location of an info from the spec.
/// For an engine built into crosscheck (or into a leg): a LOCATION is a setup error that says so, since there
/// is no other build to load (`what` names the one built in).
pub fn built_in(spec: &EngineSpec, what: &str) -> Result<(), SetupError> {
    match &spec.location {
        Some(loc) => Err(SetupError::new(format!(
            "{name}={loc}: {name} is built into crosscheck ({what}) and takes no LOCATION: write {name} alone",
            name = spec.name
        ))),
        None => Ok(()),
    }
}

pub fn info_for(spec: &EngineSpec, version: String, dialect: &str, caps: &[&str]) -> EngineInfo {
    EngineInfo {
        name: spec.name.clone(),
        label: spec.display_label(),
        version,
        location: spec.location.clone(),
        dialect: dialect.to_string(),
        capabilities: caps.iter().map(|c| c.to_string()).collect(),
        options: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, loc: Option<&str>, label: Option<&str>) -> EngineSpec {
        EngineSpec { name: name.into(), location: loc.map(Into::into), label: label.map(Into::into) }
    }

    #[test]
    fn parses_specs() {
        assert_eq!(EngineSpec::parse("sqlite"), Ok(spec("sqlite", None, None)));
        assert_eq!(EngineSpec::parse("z3@old=/opt/z3"), Ok(spec("z3", Some("/opt/z3"), Some("old"))));
        assert_eq!(EngineSpec::parse("z3=/opt/z3@old"), Ok(spec("z3", Some("/opt/z3"), Some("old"))));
        assert_eq!(
            EngineSpec::parse("postgres=postgres://u@127.0.0.1:5432/db"),
            Ok(spec("postgres", Some("postgres://u@127.0.0.1:5432/db"), None))
        );
        assert_eq!(EngineSpec::parse("mutant:sqlite:drop-row"), Ok(spec("mutant:sqlite:drop-row", None, None)));
        assert!(EngineSpec::parse("").is_err());
        assert!(EngineSpec::parse("@x").is_err());
        assert_eq!(EngineSpec::parse_list("sqlite,sqlite@b").map(|v| v.len()), Ok(2));
    }
}
