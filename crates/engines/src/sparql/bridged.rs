//! The RDF stores that run as libraries in another language's process (rdflib and pyoxigraph in
//! the Python host, Comunica in the Node host), all behind the one bridge protocol
//! (`crate::transport::bridge`): `{"op": "query" | "update" | "reset", "text", "timeout_ms"}`
//! answered by `{"done"}`, `{"vars", "rows"}` (terms as in SPARQL JSON results), `{"ask"}`,
//! `{"error"}` or `{"timeout"}`.
//!
//! A bridge that had to be killed (a query past its limit that the host could not interrupt,
//! an update interrupted half-way) or that died takes its store with it: the engine keeps the
//! updates it ran since the last reset and replays them into the next bridge, so one slow query
//! does not empty the store under the leg's next query.

use super::results::{self, is_update};
use crate::transport::bridge::{Bridge, BridgeError, Launch, Library};
use crate::{available_if, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, SetupError};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a host may take to start (interpreter, imports) or to reset.
const START_TIMEOUT: Duration = Duration::from_secs(30);

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
        let location = spec.location.as_deref();
        let interpreter = self.host.interpreter(name, location)?;
        let mut e = StoreBridge {
            store: *self,
            name,
            info: info_for(spec, String::new(), self.dialect, &[]),
            interpreter,
            bridge: None,
            updates: Vec::new(),
        };
        let version = e.start()?;
        e.info.version = format!("{} {version}", self.lib.product);
        Ok(Box::new(e))
    }
}

/// One store instance behind its bridge.
pub struct StoreBridge<H: Host> {
    store: Bridged<H>,
    name: &'static str,
    info: EngineInfo,
    interpreter: PathBuf,
    bridge: Option<Bridge>,
    /// The updates run since the last reset, replayed into a new bridge.
    updates: Vec<String>,
}

impl<H: Host> StoreBridge<H> {
    /// Starts a bridge: its version.
    fn start(&mut self) -> Result<String, SetupError> {
        let location = self.info.location.as_deref();
        let what = location.map(|l| format!("{}={l}", self.name)).unwrap_or_else(|| self.name.into());
        let cmd = self.store.host.command(&self.interpreter, location)?;
        let launch = Launch {
            python: &self.interpreter,
            lib: &self.store.lib,
            what: &what,
            name: self.name,
            start_timeout: START_TIMEOUT,
        };
        let (bridge, version) = Bridge::spawn_command(cmd, &launch)?;
        self.bridge = Some(bridge);
        Ok(version)
    }

    /// A bridge holding the store as it was (every update since the reset replayed), or an
    /// error outcome saying why there is none.
    fn ready(&mut self) -> Result<(), Outcome> {
        if self.bridge.is_some() {
            return Ok(());
        }
        self.start().map_err(|e| Outcome::error(format!("{}: cannot restart: {e}", self.name)))?;
        for u in self.updates.clone() {
            let req = serde_json::json!({"op": "update", "text": u, "timeout_ms": 60_000});
            match self.request(&req, Instant::now() + START_TIMEOUT) {
                Ok(r) if r.get("done").is_some() => {}
                other => {
                    self.drop_bridge();
                    return Err(Outcome::error(format!(
                        "{}: replaying the store's updates into a new bridge failed: {other:?}",
                        self.name
                    )));
                }
            }
        }
        Ok(())
    }

    fn request(&mut self, req: &Json, deadline: Instant) -> Result<Json, BridgeError> {
        match self.bridge.as_mut() {
            Some(b) => b.request(req, deadline),
            None => Err(BridgeError::Closed),
        }
    }

    fn drop_bridge(&mut self) {
        if let Some(mut b) = self.bridge.take() {
            b.kill();
        }
    }

    /// The bridge's process id, while it runs (tests kill it to check crash handling).
    pub fn bridge_pid(&mut self) -> Option<u32> {
        self.bridge.as_mut().map(Bridge::pid)
    }

    /// The outcome of a reply object.
    fn answer(&mut self, reply: &Json, text: &str, update: bool, start: Instant) -> Outcome {
        if reply.get("done").is_some() {
            if update {
                self.updates.push(text.to_string());
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
                self.drop_bridge();
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
        self.updates.clear();
        if self.bridge.as_mut().is_some_and(|b| b.reset(Instant::now() + START_TIMEOUT)) {
            return Ok(());
        }
        self.drop_bridge();
        self.start().map(|_| ())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        if let Err(o) = self.ready() {
            return o;
        }
        let start = Instant::now();
        let update = is_update(text);
        let op = if update { "update" } else { "query" };
        let req = serde_json::json!({"op": op, "text": text, "timeout_ms": crosscheck_core::millis(limit).max(1)});
        match self.request(&req, start + limit + self.store.grace) {
            Ok(reply) => self.answer(&reply, text, update, start),
            Err(BridgeError::Timeout) => {
                // Still busy: it cannot take the next request, so a new one will.
                self.drop_bridge();
                Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
            }
            Err(BridgeError::Closed) => match self.bridge.take() {
                Some(mut b) => b.crash_outcome(),
                None => Outcome::Crash { signal: None, code: None, stderr_tail: String::new() },
            },
            Err(BridgeError::NotAReply(shown)) => {
                self.bridge = None;
                Outcome::error(format!("{} bridge: a line that is not a reply: {shown}", self.name))
            }
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
