//! The RDF stores that run as libraries in another language's process (rdflib and pyoxigraph in
//! the Python host, Comunica in the Node host), all behind the one bridge protocol
//! (`crate::transport::bridge`): `{"op": "query" | "update" | "reset", "text", "timeout_ms"}`
//! answered by `{"done"}`, `{"vars", "rows"}` (terms as in SPARQL JSON results), `{"ask"}`,
//! `{"error"}` or `{"timeout"}`.
//!
//! The updates since the last reset are replayed into a host that had to be killed or died
//! (`transport::replay`), and an update interrupted half-way kills the host, which may hold
//! part of it.

use super::results::{self, is_update};
use crate::transport::bridge::Library;
use crate::transport::replay::{HostCommand, Replaying, REPLAY_MS};
use crate::{available_if, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, SetupError};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How a store's host process is found and started.
pub trait Host: Copy + Send + Sync + 'static {
    /// The interpreter and what it needs for the location the user gave (else the project's).
    fn interpreter(&self, name: &str, location: Option<&str>) -> Result<PathBuf, SetupError>;
    /// The command that runs the host for `name` under `interpreter`.
    fn command(&self, interpreter: &Path, location: Option<&str>) -> Result<Command, SetupError>;
    /// The host's version line (`--version`), for availability.
    fn version(&self, interpreter: &Path) -> Result<String, String> {
        let mut cmd = self.command(interpreter, None).map_err(|e| e.message)?;
        let out = cmd.arg("--version").output().map_err(|e| format!("cannot run {}: {e}", interpreter.display()))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("it printed nothing");
            Err(format!("{} cannot load it: {}", interpreter.display(), last.trim()))
        }
    }
}

/// A store behind a bridge: its library (host module, product, install hint), the dialect it
/// reports, how long after the limit a killed query counts as lost, and its host.
#[derive(Clone, Copy)]
pub struct Bridged<H: Host> {
    pub lib: Library,
    pub dialect: &'static str,
    /// The host interrupts queries itself (Python's alarm): wait this much past the limit for
    /// its `timeout` reply before killing it. Zero for a host that never interrupts.
    pub grace: Duration,
    pub host: H,
}

impl<H: Host> Opener for Bridged<H> {
    fn availability(&self, name: &'static str) -> Availability {
        let found = self
            .host
            .interpreter(name, None)
            .map_err(|e| e.message)
            .and_then(|i| self.host.version(&i))
            .map(|v| format!("{} {v}", self.lib.product));
        available_if(found, self.lib.install)
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let location = spec.location.clone();
        let interpreter = self.host.interpreter(name, location.as_deref())?;
        let (host, python) = (self.host, interpreter.clone());
        let command: HostCommand = Box::new(move || host.command(&python, location.as_deref()));
        let (bridge, version) = Replaying::start(name, self.lib, spec.location.as_deref(), interpreter, command)?;
        let info = info_for(spec, format!("{} {version}", self.lib.product), self.dialect, &[]);
        Ok(Box::new(StoreBridge { store: *self, name, info, bridge }))
    }
}

/// One store instance behind its bridge.
pub struct StoreBridge<H: Host> {
    store: Bridged<H>,
    name: &'static str,
    info: EngineInfo,
    bridge: Replaying,
}

impl<H: Host> StoreBridge<H> {
    /// The outcome of a reply object.
    fn answer(&mut self, reply: &Json, req: Json, update: bool, start: Instant) -> Outcome {
        if reply.get("done").is_some() {
            if update {
                self.bridge.record(req);
            }
            Outcome::Done
        } else if let Some(vars) = reply.get("vars").and_then(Json::as_array) {
            let vars: Vec<String> = vars.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect();
            results::rows_of_arrays(&vars, reply.get("rows").and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[]))
        } else if let Some(b) = reply.get("ask").and_then(Json::as_bool) {
            results::ask(b)
        } else if reply.get("timeout").is_some() {
            if update {
                // Interrupted half-way, the store may hold part of the update: a new bridge
                // rebuilds it from the updates that finished.
                self.bridge.drop_bridge();
            }
            Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
        } else if let Some(m) = reply.get("error").and_then(Json::as_str) {
            Outcome::error(m.to_string())
        } else {
            Outcome::error(format!("{} bridge: unexpected reply {}", self.name, results::clip(&reply.to_string())))
        }
    }
}

impl<H: Host> Engine for StoreBridge<H> {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.bridge.reset()
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let update = is_update(text);
        let op = if update { "update" } else { "query" };
        let req = serde_json::json!({"op": op, "text": text, "timeout_ms": crosscheck_core::millis(limit).max(1)});
        match self.bridge.call(&req, start, start + limit + self.store.grace) {
            Ok(reply) => {
                let replay = serde_json::json!({"op": op, "text": text, "timeout_ms": REPLAY_MS});
                self.answer(&reply, replay, update, start)
            }
            Err(o) => o,
        }
    }

    fn probe(&mut self) -> Result<(), String> {
        match self.run("ASK {}", Duration::from_secs(20)) {
            Outcome::Rows(_) => Ok(()),
            other => Err(crate::described(&other)),
        }
    }
}

/// The Python host (`crate::transport::bridge::HOST`) running the module `lib.host`.
#[derive(Clone, Copy)]
pub struct PythonHost {
    pub lib: Library,
}

impl Host for PythonHost {
    fn interpreter(&self, name: &str, location: Option<&str>) -> Result<PathBuf, SetupError> {
        match location {
            Some(loc) => crate::transport::bridge::python_at(name, &self.lib, loc, None),
            None => crate::transport::find_tool("python3")
                .or_else(|| crate::transport::find_tool("python"))
                .ok_or_else(|| SetupError::new(format!("{name}: no python3 found; install with {}", self.lib.install))),
        }
    }

    fn command(&self, interpreter: &Path, _location: Option<&str>) -> Result<Command, SetupError> {
        let mut cmd = Command::new(interpreter);
        cmd.args(["-I", "-c", crate::transport::bridge::HOST, self.lib.host]);
        Ok(cmd)
    }
}
