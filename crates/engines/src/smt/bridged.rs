//! A solver that PyPI ships only as a Python library (cvc5-py, Bitwuzla), behind the Python
//! host (`crate::transport::bridge`): each script goes as one request and runs on a fresh
//! solver; the reply is what the solver printed, read as a solver binary's output is. A
//! timeout kills the host (the next script starts another); a host that died is a crash.

use super::process::parse_answers;
use crate::transport::bridge::{Bridge, BridgeError, Launch, Library};
use crosscheck_core::engine::{info_for, EngineInfo, EngineSpec, SetupError};
use crosscheck_core::{Engine, ErrorClass, Outcome};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long the interpreter and the solver's import may take.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// How to start one hosted solver.
pub struct Hosted {
    pub python: PathBuf,
    pub lib: Library,
    /// `(set-option ...)` lines sent at the start of every script (from the engine location).
    pub options: Vec<String>,
    /// `+--flag`s of the engine location, set on every fresh solver by the host.
    pub flags: Vec<String>,
}

pub struct BridgedSolver {
    info: EngineInfo,
    hosted: Hosted,
    bridge: Option<Bridge>,
}

impl BridgedSolver {
    pub fn new(spec: &EngineSpec, version: String, dialect: &str, hosted: Hosted) -> BridgedSolver {
        BridgedSolver { info: info_for(spec, version, dialect, &[]), hosted, bridge: None }
    }

    /// The options the library listed (see `options`).
    pub fn set_options(&mut self, options: Vec<crosscheck_core::EngineOption>) {
        self.info.options = options;
    }

    fn spawn(&mut self) -> Result<(), Outcome> {
        let h = &self.hosted;
        let launch = Launch {
            python: &h.python,
            lib: &h.lib,
            what: &self.info.name,
            name: &self.info.name,
            start_timeout: START_TIMEOUT,
        };
        match Bridge::spawn(&launch) {
            Ok((b, _version)) => {
                self.bridge = Some(b);
                Ok(())
            }
            Err(SetupError { message, .. }) => Err(Outcome::Error {
                message: format!("cannot start {}: {message}", h.python.display()),
                class: ErrorClass::Unexpected,
            }),
        }
    }

    fn script(&self, text: &str) -> String {
        // No `(reset)`: the host runs each script on a fresh solver, and cvc5's `(reset)` would
        // undo the `+--flag`s the host set on it through the API.
        super::process::script(false, &self.hosted.options, text, "\n")
    }
}

impl Engine for BridgedSolver {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        // Every script runs on a fresh solver; a dead host is started again by the next run.
        Ok(())
    }

    fn probe(&mut self) -> Result<(), String> {
        let out = self.run(super::process::PROBE, super::process::PROBE_LIMIT);
        super::process::probe_answer(&out)
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        if self.bridge.is_none() {
            if let Err(o) = self.spawn() {
                return o;
            }
        }
        let script = self.script(text);
        let Some(bridge) = self.bridge.as_mut() else { return Outcome::error("no solver bridge") };
        let start = Instant::now();
        match bridge
            .request(&serde_json::json!({"op": "run", "script": script, "flags": self.hosted.flags}), start + limit)
        {
            Ok(reply) => match reply.get("out").and_then(Json::as_str) {
                Some(out) => parse_answers(out),
                None => Outcome::error(format!("{} bridge: unexpected reply {reply}", self.info.name)),
            },
            Err(BridgeError::Timeout) => {
                // The only way to stop a solver mid-check is to kill it.
                self.bridge = None;
                Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
            }
            Err(BridgeError::Closed) => {
                let crash = bridge.crash_outcome();
                self.bridge = None;
                crash
            }
            Err(BridgeError::NotAReply(shown)) => {
                self.bridge = None;
                Outcome::Error {
                    message: format!("{} bridge: a line that is not a reply: {shown}", self.info.name),
                    class: ErrorClass::Unexpected,
                }
            }
        }
    }
}
