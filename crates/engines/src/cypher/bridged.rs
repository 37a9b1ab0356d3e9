//! The Cypher engines that run as libraries in the Python host (Kuzu, LadybugDB), behind the one
//! bridge protocol (`crate::transport::bridge`, module `bridge/graphdb.py`): `{"op": "run",
//! "text", "timeout_ms"}` answered by `{"done"}`, `{"columns", "rows"}`, `{"error"}` or
//! `{"timeout"}`; `{"op": "reset"}` empties the database.
//!
//! The scripts that created the graph since the last reset are replayed into a host that had
//! to be killed or died (`transport::replay`).

use super::value_of;
use crate::sparql::bridged::{Host, PythonHost};
use crate::transport::bridge::Library;
use crate::transport::replay::{HostCommand, Replaying, REPLAY_MS};
use crate::{available_if, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError};
use serde_json::Value as Json;
use std::time::{Duration, Instant};

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
        let location = spec.location.clone();
        let interpreter = self.host().interpreter(name, location.as_deref())?;
        let (host, python) = (self.host(), interpreter.clone());
        let command: HostCommand = Box::new(move || host.command(&python, location.as_deref()));
        let (bridge, version) = Replaying::start(name, self.lib, spec.location.as_deref(), interpreter, command)?;
        let info = info_for(spec, format!("{} {version}", self.lib.product), self.dialect, &[]);
        Ok(Box::new(GraphBridge { graph: *self, name, info, bridge }))
    }
}

/// One engine instance behind its bridge.
pub struct GraphBridge {
    graph: GraphLibrary,
    name: &'static str,
    info: EngineInfo,
    bridge: Replaying,
}

impl GraphBridge {
    fn answer(&mut self, reply: &Json, text: &str, start: Instant) -> Outcome {
        if reply.get("done").is_some() {
            // What ran without columns built the graph: the next host needs it too.
            self.bridge.record(serde_json::json!({"op": "run", "text": text, "timeout_ms": REPLAY_MS}));
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
        self.bridge.reset()
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let req = serde_json::json!({"op": "run", "text": text, "timeout_ms": crosscheck_core::millis(limit).max(1)});
        match self.bridge.call(&req, start, start + limit + self.graph.grace) {
            Ok(reply) => self.answer(&reply, text, start),
            Err(o) => o,
        }
    }

    fn probe(&mut self) -> Result<(), String> {
        match self.run("RETURN 1 AS one", Duration::from_secs(20)) {
            Outcome::Rows(_) => Ok(()),
            other => Err(crate::described(&other)),
        }
    }
}
