//! The SMT solvers, one file each, all spoken to in SMT-LIB 2 text over one long-lived
//! process per engine instance: a solver binary ([`process::SolverProcess`]) or the Python host
//! for solvers PyPI ships as libraries ([`bridged::BridgedSolver`]).

pub mod bitwuzla;
pub mod bridged;
pub mod cvc4;
pub mod cvc5;
pub mod options;
pub mod process;
pub mod sexp;
pub mod yices;
pub mod z3;

use crate::transport::bridge::{python_at, Library, HOST};
use crate::transport::{binary_at, find_tool};
use crate::{available_if, Opener};
use bridged::{BridgedSolver, Hosted};
use crosscheck_core::engine::{Availability, EngineFactory, EngineSpec, SetupError};
use crosscheck_core::Engine;
use process::{binary_availability, probe_version, split_location, Launch, SolverProcess, PROBE_LIMIT};
use std::path::PathBuf;

/// Every SMT solver crosscheck knows.
pub fn registry() -> Vec<&'static dyn EngineFactory> {
    vec![&z3::FACTORY, &cvc5::FACTORY, &cvc5::PY_FACTORY, &yices::FACTORY, &bitwuzla::FACTORY, &cvc4::FACTORY]
}

/// Every solver binary here prints its version so.
const VERSION_ARGS: &[&str] = &["--version"];

/// A solver shipped as a binary that reads SMT-LIB on stdin.
pub struct Binary {
    /// Tool name looked up by `find_tool` (project virtualenv first, then PATH).
    pub tool: &'static str,
    pub args: &'static [&'static str],
    pub dialect: &'static str,
    pub install: &'static str,
    /// How the solver lists its options.
    pub lister: options::Lister,
}

impl Opener for Binary {
    fn availability(&self, _name: &'static str) -> Availability {
        binary_availability(self.tool, VERSION_ARGS, self.install)
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (path, flags, options) = split_location(spec.location.as_deref());
        let program = match path {
            Some(p) => binary_at(name, &p, self.tool)?,
            None => find_tool(self.tool).ok_or_else(|| {
                SetupError::new(format!("{name}: `{}` not found; install it with {}", self.tool, self.install))
            })?,
        };
        let version = probe_version(&program, VERSION_ARGS).map_err(|e| SetupError::new(format!("{name}: {e}")))?;
        let listed = options::list(self.lister, &program, &version);
        let args = self.args.iter().map(|a| a.to_string()).chain(flags).collect();
        let mut solver = SolverProcess::new(spec, version, self.dialect, Launch { program, args, options });
        solver.set_options(listed);
        Ok(Box::new(solver))
    }
}

/// A solver that PyPI ships only as a Python library, run behind the Python host
/// (`crate::transport::bridge`); the library's product and module are its host module's name.
pub struct Bridged {
    pub lib: Library,
    pub dialect: &'static str,
}

/// The project's Python.
fn default_python() -> Option<PathBuf> {
    find_tool("python").filter(|p| p.to_string_lossy().contains(".venv")).or_else(|| find_tool("python3"))
}

impl Bridged {
    /// The library's version, as the host reports it under `python`.
    fn version(&self, python: &PathBuf) -> Result<String, String> {
        probe_version(python, &["-c", HOST, self.lib.host, "--version"])
    }

    /// The library's option list, after it has accepted `flags` (an error says which it refused).
    fn options(&self, python: &PathBuf, flags: &[String]) -> Result<Vec<crosscheck_core::EngineOption>, String> {
        let mut cmd = std::process::Command::new(python);
        cmd.args(["-I", "-c", HOST, self.lib.host, "--options"]).args(flags);
        match crate::transport::run_once(&mut cmd, "", PROBE_LIMIT) {
            Ok(crate::transport::RunOnce::Exited { status, stdout, .. }) if status.success() => {
                Ok(options::parse_host_list(&stdout))
            }
            Ok(crate::transport::RunOnce::Exited { stderr, .. }) => {
                let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
                Err(format!("{} refused the flags {}: {last}", self.lib.product, flags.join(" ")))
            }
            Ok(crate::transport::RunOnce::TimedOut { .. }) => {
                Err(format!("{} did not list its options", self.lib.product))
            }
            Err(e) => Err(format!("cannot run {}: {e}", python.display())),
        }
    }
}

impl Opener for Bridged {
    fn availability(&self, _name: &'static str) -> Availability {
        let found = default_python()
            .ok_or_else(|| "no python found".to_string())
            .and_then(|py| Ok(format!("{} ({})", self.version(&py)?, py.display())));
        available_if(found, self.lib.install)
    }

    /// LOCATION: `[VENV-OR-PYTHON][+OPTION...]`, as for a solver binary; a `+--flag` is set
    /// as the solver option of that name on every fresh solver (cvc5 `setOption`, Bitwuzla
    /// `Options.set`), and one the library refuses stops the engine here.
    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (path, flags, options) = split_location(spec.location.as_deref());
        let python = match path {
            Some(p) => python_at(name, &self.lib, &p, None)?,
            None => default_python()
                .ok_or_else(|| SetupError::new(format!("{name}: no python found; {}", self.lib.install)))?,
        };
        let version =
            self.version(&python).map_err(|e| SetupError::new(format!("{name}: {e}; {}", self.lib.install)))?;
        let listed = self.options(&python, &flags).map_err(|e| SetupError::new(format!("{name}: {e}")))?;
        let mut solver =
            BridgedSolver::new(spec, version, self.dialect, Hosted { python, lib: self.lib, options, flags });
        solver.set_options(listed);
        Ok(Box::new(solver))
    }
}
