//! What the Datalog engines run as one-shot processes (z3's μZ, clingo, swipl) share: finding
//! the binary (the spec's location, else `PATH` or the project virtualenv), its version, the
//! availability line, one run with its deadline, and the factory and engine around a tool's
//! own way of running a program ([`OneShot`]).

use crate::transport::{find_tool, run_once, RunOnce};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, SetupError};
use std::marker::PhantomData;
use std::path::PathBuf;
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// A binary an engine runs once per program.
pub struct Tool {
    pub name: &'static str,
    pub install: &'static str,
    /// The version out of what `--version` printed.
    pub version: fn(&str) -> Option<String>,
}

impl Tool {
    fn binary(&self, location: Option<&str>) -> Option<PathBuf> {
        location.map(PathBuf::from).or_else(|| find_tool(self.name))
    }

    /// The tool's first probe: `--version` must succeed and print the tool's own banner (each
    /// tool's `version` reads only that), so a wrong binary fails here, before any program.
    fn version_of(&self, bin: &PathBuf) -> Result<String, String> {
        let out = Command::new(bin).arg("--version").output().map_err(|e| format!("cannot run it: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        match (self.version)(&stdout) {
            Some(v) if out.status.success() => Ok(v),
            _ => {
                let stderr = String::from_utf8_lossy(&out.stderr);
                let said = stdout.lines().chain(stderr.lines()).find(|l| !l.trim().is_empty()).unwrap_or("nothing");
                Err(format!("`--version` ended with {} and printed {}", out.status, said.trim()))
            }
        }
    }

    pub fn availability(&self) -> Availability {
        let install = self.install.to_string();
        match self.binary(None).map(|b| self.version_of(&b)) {
            Some(Ok(v)) => Availability { available: true, detail: v, install },
            Some(Err(e)) => {
                Availability { available: false, detail: format!("{} does not answer: {e}", self.name), install }
            }
            None => Availability { available: false, detail: format!("{} not found", self.name), install },
        }
    }

    /// The binary a spec names and its version.
    pub fn locate(&self, spec: &EngineSpec) -> Result<(PathBuf, String), SetupError> {
        let bin = self.binary(spec.location.as_deref()).ok_or_else(|| {
            SetupError::new(format!("{} not found: run scripts/install-datalog-engines.sh", self.name))
        })?;
        let v = self.version_of(&bin).map_err(|e| crate::no_answer(spec, &e))?;
        Ok((bin, v))
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

/// How an engine built on a [`Tool`] runs one program; the factory and the `Engine` around it
/// are [`ToolFactory`] and [`ToolEngine`], the same for every such tool.
pub trait OneShot: Send + Sized + 'static {
    /// The engine's state around its binary, made when the engine opens.
    fn open(bin: PathBuf) -> Result<Self, SetupError>;
    /// One program, in a fresh process.
    fn run(&mut self, text: &str, limit: Duration) -> Outcome;
}

/// The factory of a one-shot tool engine: the tool speaks the dialect it is named after.
pub struct ToolFactory<T> {
    pub tool: Tool,
    pub describe: &'static str,
    pub engine: PhantomData<fn() -> T>,
}

impl<T: OneShot> EngineFactory for ToolFactory<T> {
    fn name(&self) -> &'static str {
        self.tool.name
    }
    fn describe(&self) -> &'static str {
        self.describe
    }
    fn availability(&self) -> Availability {
        self.tool.availability()
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (bin, v) = self.tool.locate(spec)?;
        let info = info_for(spec, v, self.tool.name, &[]);
        Ok(Box::new(ToolEngine { info, state: T::open(bin)? }))
    }
}

/// A one-shot tool engine: nothing outlives a run, so a reset has nothing to do.
pub struct ToolEngine<T> {
    info: EngineInfo,
    state: T,
}

impl<T: OneShot> Engine for ToolEngine<T> {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.state.run(text, limit)
    }
}
