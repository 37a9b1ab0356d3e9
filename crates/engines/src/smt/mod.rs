//! The SMT solvers, one file each, all spoken to in SMT-LIB 2 text over one long-lived
//! process per engine instance: a solver binary ([`process::SolverProcess`]) or the Python host
//! for solvers PyPI ships as libraries ([`bridged::BridgedSolver`]).

pub mod bitwuzla;
pub mod bridged;
pub mod cvc4;
pub mod cvc5;
pub mod process;
pub mod sexp;
pub mod yices;
pub mod z3;

use crate::transport::bridge::HOST;
use crate::transport::find_tool;
use bridged::{BridgedSolver, Hosted};
use crosscheck_core::engine::{Availability, EngineFactory, EngineSpec, SetupError};
use crosscheck_core::Engine;
use process::{binary_availability, probe_version, split_location, Launch, SolverProcess};
use std::path::PathBuf;

/// Every SMT solver crosscheck knows.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![&z3::FACTORY, &cvc5::FACTORY, &cvc5::PY_FACTORY, &yices::FACTORY, &bitwuzla::FACTORY, &cvc4::FACTORY]
}

/// A solver shipped as a binary that reads SMT-LIB on stdin.
pub struct BinaryFactory {
    pub name: &'static str,
    pub describe: &'static str,
    /// Tool name looked up by `find_tool` (project virtualenv first, then PATH).
    pub tool: &'static str,
    pub args: &'static [&'static str],
    pub version_args: &'static [&'static str],
    pub dialect: &'static str,
    pub install: &'static str,
}

impl EngineFactory for BinaryFactory {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self) -> &'static str {
        self.describe
    }

    fn availability(&self) -> Availability {
        binary_availability(self.tool, self.version_args, self.install)
    }

    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (path, flags, options) = split_location(spec.location.as_deref());
        let program = match path {
            Some(p) => PathBuf::from(p),
            None => find_tool(self.tool).ok_or_else(|| {
                SetupError::new(format!("{}: `{}` not found; install it with {}", self.name, self.tool, self.install))
            })?,
        };
        let version =
            probe_version(&program, self.version_args).map_err(|e| SetupError::new(format!("{}: {e}", self.name)))?;
        let args = self.args.iter().map(|a| a.to_string()).chain(flags).collect();
        Ok(Box::new(SolverProcess::new(spec, version, self.dialect, Launch { program, args, options })))
    }
}

/// A solver that PyPI ships only as a Python library, run behind the Python host
/// (`crate::transport::bridge`).
pub struct BridgeFactory {
    pub name: &'static str,
    pub describe: &'static str,
    /// The host module (`bitwuzla`, `cvc5`).
    pub which: &'static str,
    pub dialect: &'static str,
    pub install: &'static str,
}

/// The Python of a virtualenv given as LOCATION, else the project's.
fn python_for(path: Option<String>) -> Option<PathBuf> {
    match path {
        Some(p) => {
            let p = PathBuf::from(p);
            Some(if p.is_dir() { p.join("bin/python") } else { p })
        }
        None => find_tool("python").filter(|p| p.to_string_lossy().contains(".venv")).or_else(|| find_tool("python3")),
    }
}

impl BridgeFactory {
    fn launch(&self, spec_location: Option<&str>) -> Result<(Hosted, String), String> {
        let (path, _flags, options) = split_location(spec_location);
        let python = python_for(path).ok_or("no python found")?;
        let version = probe_version(&python, &["-c", HOST, self.which, "--version"])?;
        Ok((Hosted { python, module: self.which, install: self.install, options }, version))
    }
}

impl EngineFactory for BridgeFactory {
    fn name(&self) -> &'static str {
        self.name
    }

    fn describe(&self) -> &'static str {
        self.describe
    }

    fn availability(&self) -> Availability {
        match self.launch(None) {
            Ok((l, v)) => Availability {
                available: true,
                detail: format!("{v} ({})", l.python.display()),
                install: self.install.into(),
            },
            Err(e) => Availability { available: false, detail: e, install: self.install.into() },
        }
    }

    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (launch, version) = self
            .launch(spec.location.as_deref())
            .map_err(|e| SetupError::new(format!("{}: {e}; {}", self.name, self.install)))?;
        Ok(Box::new(BridgedSolver::new(spec, version, self.dialect, launch)))
    }
}
