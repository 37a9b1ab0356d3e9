//! What the Datalog engines that run a binary (z3's μZ in a session, z3's native format,
//! clingo, swipl) share: finding the binary (the spec's location, else `PATH` or the project
//! virtualenv), its version, the availability line, one run with its deadline, and the engine
//! around a tool's own way of running a program ([`Tool::run`]). The engine speaks the dialect
//! of its own name; its binary is [`Tool::binary`] (`z3-datalog` runs `z3`).

use crate::transport::{binary_at, find_tool, run_once, RunOnce};
use crate::Opener;
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, SetupError};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// A check that a binary runs what its engine prints, or why not.
pub type Probe = fn(&Path) -> Result<(), String>;

/// A binary an engine runs once per program, and the engine's state `S` around it (swipl's
/// directory for program files; most tools have none).
pub struct Tool<S> {
    /// The binary's name on `PATH` or in the project virtualenv.
    pub binary: &'static str,
    pub install: &'static str,
    /// The version out of what `--version` printed.
    pub version: fn(&str) -> Option<String>,
    /// A check past the version that the binary runs what the engine prints (z3's native
    /// Datalog format, which only some releases read).
    pub probe: Option<Probe>,
    /// The state, made when the engine opens.
    pub open: fn() -> Result<S, SetupError>,
    /// One program, in a fresh process of the binary or in one the state keeps (z3's session).
    pub run: fn(&mut S, bin: &Path, text: &str, limit: Duration) -> Outcome,
}

impl<S> Tool<S> {
    /// The tool's first probe: `--version` must succeed and print the tool's own banner (each
    /// tool's `version` reads only that), so a wrong binary fails here, before any program.
    fn version_of(&self, bin: &PathBuf) -> Result<String, String> {
        let out = Command::new(bin).arg("--version").output().map_err(|e| format!("cannot run it: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        match (self.version)(&stdout) {
            Some(v) if out.status.success() => match self.probe {
                Some(probe) => probe(bin).map(|()| v.clone()).map_err(|e| format!("{} {v}: {e}", self.binary)),
                None => Ok(v),
            },
            _ => {
                let stderr = String::from_utf8_lossy(&out.stderr);
                let said = stdout.lines().chain(stderr.lines()).find(|l| !l.trim().is_empty()).unwrap_or("nothing");
                Err(format!("`--version` ended with {} and printed {}", out.status, said.trim()))
            }
        }
    }
}

impl<S: Send + 'static> Opener for Tool<S> {
    fn availability(&self, _name: &'static str) -> Availability {
        let found = match find_tool(self.binary) {
            Some(bin) => self.version_of(&bin).map_err(|e| format!("{} does not answer: {e}", self.binary)),
            None => Err(format!("{} not found", self.binary)),
        };
        crate::available_if(found, self.install)
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let bin = match spec.location.as_deref() {
            Some(location) => binary_at(name, location, self.binary)?,
            None => find_tool(self.binary).ok_or_else(|| {
                SetupError::new(format!("{} not found: run scripts/install-datalog-engines.sh", self.binary))
            })?,
        };
        let v = self.version_of(&bin).map_err(|e| crate::no_answer(spec, &e))?;
        Ok(Box::new(ToolEngine { info: info_for(spec, v, name, &[]), bin, state: (self.open)()?, run: self.run }))
    }
}

/// What a run printed and how it ended.
pub struct Exited {
    pub stdout: String,
    pub stderr: String,
    pub status: ExitStatus,
}

/// Runs `cmd` once on `input`, killed after `wait`; a run past it or one that cannot start
/// ends the program's run with that outcome (`limit` is the timeout reported).
pub fn run(cmd: &mut Command, input: &str, wait: Duration, limit: Duration, name: &str) -> Result<Exited, Outcome> {
    match run_once(cmd, input, wait) {
        Ok(RunOnce::Exited { status, stdout, stderr }) => Ok(Exited { stdout, stderr, status }),
        Ok(RunOnce::TimedOut { .. }) => Err(Outcome::Timeout { after_ms: crosscheck_core::millis(limit) }),
        Err(e) => Err(Outcome::error(format!("cannot run {name}: {e}"))),
    }
}

/// A one-shot tool engine: nothing outlives a run, so a reset has nothing to do.
pub struct ToolEngine<S> {
    info: EngineInfo,
    bin: PathBuf,
    state: S,
    run: fn(&mut S, &Path, &str, Duration) -> Outcome,
}

impl<S: Send> Engine for ToolEngine<S> {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        (self.run)(&mut self.state, &self.bin, text, limit)
    }
}
