//! The Cypher engines that run as libraries in the Python host (Kuzu, LadybugDB), behind the one
//! bridge protocol (`crate::transport::bridge`, module `bridge/graphdb.py`): `{"op": "run",
//! "text", "timeout_ms"}` answered by `{"done"}`, `{"columns", "rows"}`, `{"error"}` or
//! `{"timeout"}`; `{"op": "reset"}` empties the database.
//!
//! A bridge that had to be killed (a query past its limit that the engine did not interrupt) or
//! that died takes its in-memory database with it: the engine keeps the scripts that created
//! the graph since the last reset and replays them into the next bridge, so one slow query does
//! not empty the graph under the leg's next query.

use super::value_of;
use crate::sparql::bridged::{Host, PythonHost};
use crate::transport::bridge::{Bridge, BridgeError, Launch, Library};
use crate::{available_if, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long a host may take to start (interpreter, imports) or to reset.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A graph engine hosted in Python: its library, the dialect it reports, and how long past
/// the limit its own interrupt may take before the host is killed.
#[derive(Clone, Copy)]
pub struct GraphLibrary {
    pub lib: Library,
    pub dialect: &'static str,
    pub grace: Duration,
}

impl GraphLibrary {
    fn host(&self) -> PythonHost {
        PythonHost { lib: self.lib }
    }
}

impl Opener for GraphLibrary {
    fn availability(&self, name: &'static str) -> Availability {
        let host = self.host();
        let found = host
            .interpreter(name, None)
            .map_err(|e| e.message)
            .and_then(|i| host.version(&i))
            .map(|v| format!("{} {v}", self.lib.product));
        available_if(found, self.lib.install)
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let interpreter = self.host().interpreter(name, spec.location.as_deref())?;
        let mut e = GraphBridge {
            graph: *self,
            name,
            info: info_for(spec, String::new(), self.dialect, &[]),
            interpreter,
            bridge: None,
            scripts: Vec::new(),
        };
        let version = e.start()?;
        e.info.version = format!("{} {version}", self.lib.product);
        Ok(Box::new(e))
    }
}

/// One engine instance behind its bridge.
pub struct GraphBridge {
    graph: GraphLibrary,
    name: &'static str,
    info: EngineInfo,
    interpreter: PathBuf,
    bridge: Option<Bridge>,
    /// The scripts that ran without columns since the last reset (the graph's creation).
    scripts: Vec<String>,
}

impl GraphBridge {
    fn start(&mut self) -> Result<String, SetupError> {
        let location = self.info.location.as_deref();
        let what = location.map(|l| format!("{}={l}", self.name)).unwrap_or_else(|| self.name.into());
        let cmd = self.graph.host().command(&self.interpreter, location)?;
        let launch = Launch {
            python: &self.interpreter,
            lib: &self.graph.lib,
            what: &what,
            name: self.name,
            start_timeout: START_TIMEOUT,
        };
        let (bridge, version) = Bridge::spawn_command(cmd, &launch)?;
        self.bridge = Some(bridge);
        Ok(version)
    }

    /// A bridge holding the graph as it was, or an error outcome saying why there is none.
    fn ready(&mut self) -> Result<(), Outcome> {
        if self.bridge.is_some() {
            return Ok(());
        }
        self.start().map_err(|e| Outcome::error(format!("{}: cannot restart: {e}", self.name)))?;
        for s in self.scripts.clone() {
            let req = serde_json::json!({"op": "run", "text": s, "timeout_ms": 60_000});
            match self.request(&req, Instant::now() + START_TIMEOUT) {
                Ok(r) if r.get("done").is_some() => {}
                other => {
                    self.drop_bridge();
                    return Err(Outcome::error(format!(
                        "{}: replaying the graph into a new bridge failed: {other:?}",
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

    fn answer(&mut self, reply: &Json, text: &str, start: Instant) -> Outcome {
        if reply.get("done").is_some() {
            self.scripts.push(text.to_string());
            return Outcome::Done;
        }
        if let Some(cols) = reply.get("columns").and_then(Json::as_array) {
            let columns = cols.iter().map(|c| c.as_str().unwrap_or_default().to_string()).collect();
            let rows = reply.get("rows").and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[]);
            let rows = rows.iter().map(|r| r.as_array().map_or(Vec::new(), |r| r.iter().map(value_of).collect()));
            return Outcome::Rows(Rows::new(columns, rows.collect()));
        }
        if reply.get("timeout").is_some() {
            return Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) };
        }
        match reply.get("error").and_then(Json::as_str) {
            Some(m) => Outcome::error(m.to_string()),
            None => Outcome::error(format!("{} bridge: unexpected reply {reply}", self.name)),
        }
    }
}

impl Engine for GraphBridge {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.scripts.clear();
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
        let req = serde_json::json!({"op": "run", "text": text, "timeout_ms": crosscheck_core::millis(limit).max(1)});
        match self.request(&req, start + limit + self.graph.grace) {
            Ok(reply) => self.answer(&reply, text, start),
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
        match self.run("RETURN 1 AS one", Duration::from_secs(20)) {
            Outcome::Rows(_) => Ok(()),
            other => Err(crate::described(&other)),
        }
    }
}
