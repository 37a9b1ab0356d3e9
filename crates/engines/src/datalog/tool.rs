//! What the Datalog engines run as one-shot processes (z3's μZ, clingo, swipl) share: finding
//! the binary (the spec's location, else `PATH` or the project virtualenv), its version, the
//! availability line, and one run with its deadline.

use crate::transport::{find_tool, run_once, RunOnce};
use crosscheck_core::{Availability, EngineSpec, Outcome, SetupError};
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

    fn version_of(&self, bin: &PathBuf) -> Option<String> {
        let out = Command::new(bin).arg("--version").output().ok()?;
        (self.version)(&String::from_utf8_lossy(&out.stdout))
    }

    pub fn availability(&self) -> Availability {
        let install = self.install.to_string();
        match self.binary(None).and_then(|b| self.version_of(&b)) {
            Some(v) => Availability { available: true, detail: v, install },
            None => Availability { available: false, detail: format!("{} not found", self.name), install },
        }
    }

    /// The binary a spec names and its version.
    pub fn locate(&self, spec: &EngineSpec) -> Result<(PathBuf, String), SetupError> {
        let bin = self.binary(spec.location.as_deref()).ok_or_else(|| {
            SetupError::new(format!("{} not found: run scripts/install-datalog-engines.sh", self.name))
        })?;
        let v = self.version_of(&bin).ok_or_else(|| SetupError::new(format!("{} does not run", bin.display())))?;
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
        Ok(RunOnce::TimedOut { .. }) => Err(Outcome::Timeout { after_ms: limit.as_millis() as u64 }),
        Err(e) => Err(Outcome::error(format!("cannot run {name}: {e}"))),
    }
}
