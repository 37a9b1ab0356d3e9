//! Nemo (PyPI `nemo-python`) behind the Python host (`crate::transport::bridge`, module
//! `bridge/nemo.py`), running rules printed by the Datalog leg's `nemo` dialect. A timeout
//! kills the host (the next program starts another); a Nemo panic the host caught is a crash.

use crate::transport::bridge::{python_at, Bridge, BridgeError, Launch, Library};
use crate::transport::find_tool;
use crosscheck_core::engine::{info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, SetupError, Value};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

const INSTALL: &str = "pip install nemo-python into .venv (scripts/install-datalog-engines.sh)";
const LIB: Library = Library { host: "nemo", product: "Nemo", module: "nmo_python", install: INSTALL };

fn has_nemo(py: &PathBuf) -> bool {
    Command::new(py).args(["-c", "import nmo_python"]).output().map(|o| o.status.success()).unwrap_or(false)
}

fn version(py: &PathBuf) -> Option<String> {
    let out = Command::new(py)
        .args(["-c", "import importlib.metadata as m; print(m.version('nemo-python'))"])
        .output()
        .ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn availability() -> Availability {
    let install = INSTALL.to_string();
    match find_tool("python3").filter(has_nemo).and_then(|p| version(&p)) {
        Some(v) => Availability { available: true, detail: v, install },
        None => Availability { available: false, detail: "nmo_python not importable".into(), install },
    }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    let py = match spec.location.as_deref() {
        Some(location) => python_at("nemo", &LIB, location, None)?,
        None => find_tool("python3")
            .filter(has_nemo)
            .ok_or_else(|| SetupError::new("nemo-python not found: run scripts/install-datalog-engines.sh"))?,
    };
    let v = version(&py).ok_or_else(|| SetupError::new(format!("{} cannot import nmo_python", py.display())))?;
    let mut n = Nemo { info: info_for(spec, v, "nemo", &[]), py, bridge: None };
    n.start()?;
    Ok(Box::new(n))
}

pub static FACTORY: Factory = Factory {
    name: "nemo",
    describe: "Nemo rule engine (PyPI nemo-python) through a long-lived Python bridge; nemo=/path/to/venv (or its python) for another one",
    availability,
    open,
};

pub struct Nemo {
    info: EngineInfo,
    py: PathBuf,
    bridge: Option<Bridge>,
}

impl Nemo {
    fn start(&mut self) -> Result<(), SetupError> {
        let launch = Launch {
            python: &self.py,
            lib: &LIB,
            what: &self.info.name,
            name: "nemo",
            start_timeout: Duration::from_secs(30),
        };
        self.bridge = Some(Bridge::spawn(&launch)?.0);
        Ok(())
    }
}

/// One cell of a reply: integers stay integers, anything else is Nemo's spelling of a value.
fn cell(c: &Json) -> Value {
    match c {
        Json::Number(n) => n.as_i64().map(Value::Int).unwrap_or(Value::Null),
        Json::String(s) => super::parse_cell(s),
        _ => Value::Null,
    }
}

impl Engine for Nemo {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        if self.bridge.is_none() {
            self.start()?;
        }
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        // The output relation travels with the program as a comment line.
        let out = text.lines().rev().find_map(|l| l.strip_prefix("% output: ")).unwrap_or("").trim().to_string();
        if self.bridge.is_none() {
            if let Err(e) = self.start() {
                return Outcome::error(e.message);
            }
        }
        let Some(bridge) = self.bridge.as_mut() else { return Outcome::error("no Nemo bridge") };
        let reply = match bridge.request(&serde_json::json!({ "program": text, "output": out }), Instant::now() + limit)
        {
            Ok(reply) => reply,
            Err(BridgeError::Timeout) => {
                // A busy bridge cannot take the next request: start afresh next time.
                self.bridge = None;
                return Outcome::Timeout { after_ms: crosscheck_core::millis(limit) };
            }
            Err(BridgeError::Closed) => {
                let crash = bridge.crash_outcome();
                self.bridge = None;
                return crash;
            }
            Err(BridgeError::NotAReply(shown)) => {
                self.bridge = None;
                return Outcome::error(format!("nemo bridge: bad answer {shown}"));
            }
        };
        if let Some(c) = reply.get("crash").and_then(Json::as_str) {
            // Nemo panicked; the host caught it and lives on.
            return Outcome::Crash { signal: None, code: None, stderr_tail: c.to_string() };
        }
        if let Some(e) = reply.get("error").and_then(Json::as_str) {
            return Outcome::error(format!("nemo: {e}"));
        }
        let rows: Vec<Vec<Value>> = reply
            .get("rows")
            .and_then(Json::as_array)
            .map(|rows| {
                rows.iter()
                    .map(|row| row.as_array().map(|c| c.iter().map(cell).collect()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        super::numbered_rows(rows)
    }
}
