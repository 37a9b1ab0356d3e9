//! Nemo (PyPI `nemo-python`) behind one long-lived Python bridge (`bridge/nemo_bridge.py`,
//! JSON lines), running rules printed by `crate::dialects::nemo`.

use crate::dialects::nemo::CAPS;
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use crosscheck_engines::transport::{find_tool, LineProcess};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

const BRIDGE: &str = include_str!("../../bridge/nemo_bridge.py");

pub struct Factory;

fn python(loc: Option<&str>) -> Option<PathBuf> {
    match loc {
        Some(l) => Some(PathBuf::from(l).join("bin/python")),
        None => find_tool("python3").filter(has_nemo),
    }
}

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

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "nemo"
    }
    fn describe(&self) -> &'static str {
        "Nemo rule engine (PyPI nemo-python) through a long-lived Python bridge"
    }
    fn availability(&self) -> Availability {
        let install = "pip install nemo-python into .venv (scripts/install-datalog-engines.sh)".to_string();
        match python(None).and_then(|p| version(&p)) {
            Some(v) => Availability { available: true, detail: v, install },
            None => Availability { available: false, detail: "nmo_python not importable".into(), install },
        }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let py = python(spec.location.as_deref())
            .ok_or_else(|| SetupError::new("nemo-python not found: run scripts/install-datalog-engines.sh"))?;
        let v = version(&py).ok_or_else(|| SetupError::new(format!("{} cannot import nmo_python", py.display())))?;
        let mut n = Nemo { info: info_for(spec, v, "nemo", CAPS), py, proc: None };
        n.start()?;
        Ok(Box::new(n))
    }
}

pub struct Nemo {
    info: EngineInfo,
    py: PathBuf,
    proc: Option<LineProcess>,
}

impl Nemo {
    fn start(&mut self) -> Result<(), SetupError> {
        let mut p = LineProcess::spawn(Command::new(&self.py).args(["-u", "-c", BRIDGE]))
            .map_err(|e| SetupError::new(format!("cannot start the Nemo bridge: {e}")))?;
        match p.recv_line(Instant::now() + Duration::from_secs(30)) {
            Ok(l) if l.contains("ready") => {
                self.proc = Some(p);
                Ok(())
            }
            other => Err(SetupError::new(format!("the Nemo bridge did not start: {other:?} {}", p.stderr_tail()))),
        }
    }
}

impl Engine for Nemo {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        if self.proc.as_mut().is_none_or(|p| !p.is_alive()) {
            self.start()?;
        }
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        // The output relation travels with the program as its first comment line.
        let out = text.lines().rev().find_map(|l| l.strip_prefix("% output: ")).unwrap_or("").trim().to_string();
        if self.proc.as_mut().is_none_or(|p| !p.is_alive()) {
            if let Err(e) = self.start() {
                return Outcome::error(e.message);
            }
        }
        let Some(p) = self.proc.as_mut() else { return Outcome::error("no Nemo bridge") };
        let req = serde_json::json!({ "program": text, "output": out }).to_string();
        if p.send(&req).is_err() {
            let o = p.crash_outcome();
            self.proc = None;
            return o;
        }
        let line = match p.recv_line(Instant::now() + limit) {
            Ok(l) => l,
            Err(crosscheck_engines::transport::ReadError::Timeout) => {
                // A busy bridge cannot take the next request: start afresh next time.
                self.proc = None;
                return Outcome::Timeout { after_ms: limit.as_millis() as u64 };
            }
            Err(_) => {
                let o = p.crash_outcome();
                self.proc = None;
                return o;
            }
        };
        let v: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                // Not an answer: the bridge's replies can no longer be matched to requests.
                self.proc = None;
                return Outcome::error(format!("nemo bridge: bad answer {e}"));
            }
        };
        if let Some(c) = v.get("crash").and_then(|e| e.as_str()) {
            // Nemo panicked; the bridge caught it and lives on.
            return Outcome::Crash { signal: None, code: None, stderr_tail: c.to_string() };
        }
        if let Some(e) = v.get("error").and_then(|e| e.as_str()) {
            return Outcome::error(format!("nemo: {e}"));
        }
        let rows: Vec<Vec<Value>> = v
            .get("rows")
            .and_then(|r| r.as_array())
            .map(|rows| {
                rows.iter()
                    .map(|row| {
                        row.as_array()
                            .map(|cells| {
                                cells
                                    .iter()
                                    .map(|c| match c {
                                        serde_json::Value::Number(n) => {
                                            n.as_i64().map(Value::Int).unwrap_or(Value::Null)
                                        }
                                        serde_json::Value::String(s) => super::parse_cell(s),
                                        _ => Value::Null,
                                    })
                                    .collect()
                            })
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .unwrap_or_default();
        let arity = rows.first().map(Vec::len).unwrap_or(0);
        Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows))
    }
}
