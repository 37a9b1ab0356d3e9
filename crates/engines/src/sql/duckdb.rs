//! DuckDB through its Python module, behind one long-lived bridge process speaking JSON lines
//! (`crate::transport::bridge`: the host `bridge/host.py` with `bridge/duckdb.py`; Turso too,
//! see `turso.rs`). The bundled `duckdb` crate is not used: its C++ build takes 35-40 minutes on
//! the project's machines. A crash of DuckDB costs only the bridge
//! process: the statement becomes `Outcome::Crash` with the bridge's stderr tail, and the next
//! `reset` starts a new bridge.
//!
//! Location: `duckdb=/path/to/venv` (a virtualenv with the `duckdb` module) or
//! `duckdb=/path/to/python`; by default the project virtualenv `.venv` (see
//! `crate::transport::find_tool`). Values keep their types (DECIMAL as exact decimals,
//! HUGEINT as big integers, BLOB as bytes, other types as DuckDB prints them). A statement past its
//! limit is interrupted inside DuckDB (`Connection.interrupt`), which keeps the database; if the
//! bridge does not answer shortly after, it is killed and the statement is a timeout all the same.

use crate::transport::bridge::{python_at, Bridge, BridgeError, Launch, Library};
use crate::transport::{find_tool, ReadError};
use crate::{available_if, Entry, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, ErrorClass, Outcome, Rows, SetupError, Value};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long the bridge may take to start (interpreter plus `import duckdb`) or to reset.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long after a statement's limit the bridge may take to report the interrupt.
const KILL_GRACE: Duration = Duration::from_secs(2);

/// An in-process engine reached through its Python module behind the bridge, whose host
/// module is the engine's name.
#[derive(Clone, Copy)]
pub struct Flavor {
    pub lib: Library,
    /// The code that prints the module's version.
    pub version_code: &'static str,
    pub dialect: &'static str,
    /// A binary of this name is the engine's shell, not a Python.
    pub shell: Option<&'static str>,
}

pub static FACTORY: Entry<Flavor> = Entry {
    name: "duckdb",
    describe:
        "DuckDB (PyPI duckdb) behind a bridge process, in memory; duckdb=/path/to/venv (or its python) for another one",
    opener: Flavor {
        lib: Library {
            host: "duckdb",
            product: "DuckDB",
            module: "duckdb",
            install: "scripts/install-sql-engines.sh (or: python3 -m venv .venv && .venv/bin/pip install duckdb)",
        },
        version_code: "import duckdb; print(duckdb.__version__)",
        dialect: "duckdb",
        shell: Some("duckdb"),
    },
};

impl Opener for Flavor {
    /// Whether the flavor's module imports in the default Python, and its version.
    fn availability(&self, name: &'static str) -> Availability {
        let lib = &self.lib;
        let found = python_for(self, name, None).and_then(|py| {
            let out = Command::new(&py)
                .args(["-I", "-c", self.version_code])
                .output()
                .map_err(|e| SetupError::new(format!("cannot run {}: {e}", py.display())))?;
            if out.status.success() {
                Ok(format!("{} {}", lib.product, String::from_utf8_lossy(&out.stdout).trim()))
            } else {
                Err(SetupError::new(format!("{} cannot import {}", py.display(), lib.module)))
            }
        });
        available_if(found.map_err(|e| e.message), lib.install)
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        Ok(Box::new(BridgeEngine::open_flavor(*self, name, spec)?))
    }
}

/// The Python interpreter to run the bridge with: the one the location names, else the
/// project's.
fn python_for(f: &Flavor, name: &str, location: Option<&str>) -> Result<PathBuf, SetupError> {
    match location {
        Some(loc) => python_at(name, &f.lib, loc, f.shell),
        None => find_tool("python3")
            .or_else(|| find_tool("python"))
            .ok_or_else(|| SetupError::new(format!("{name}: no python3 found; install with {}", f.lib.install))),
    }
}

/// DuckDB's engine; the same type drives every [`Flavor`].
pub type DuckDbEngine = BridgeEngine;

pub struct BridgeEngine {
    flavor: Flavor,
    /// The engine's name in the registry.
    name: &'static str,
    info: EngineInfo,
    python: PathBuf,
    /// The shared library the bridge runs with (`sqlite=/path/libsqlite3.so`).
    preload: Option<PathBuf>,
    bridge: Option<Bridge>,
    /// Why the bridge is gone, until the next reset.
    lost: Option<&'static str>,
}

impl BridgeEngine {
    /// Opens DuckDB (kept for callers that name the engine type).
    pub fn open(spec: &EngineSpec) -> Result<BridgeEngine, SetupError> {
        Self::open_flavor(FACTORY.opener, FACTORY.name, spec)
    }

    pub fn open_flavor(flavor: Flavor, name: &'static str, spec: &EngineSpec) -> Result<BridgeEngine, SetupError> {
        let python = python_for(&flavor, name, spec.location.as_deref())?;
        Self::open_at(flavor, name, spec, python, None)
    }

    /// Opens a flavor under a given Python, with a shared library preloaded if `preload` names
    /// one.
    pub fn open_at(
        flavor: Flavor,
        name: &'static str,
        spec: &EngineSpec,
        python: PathBuf,
        preload: Option<PathBuf>,
    ) -> Result<BridgeEngine, SetupError> {
        let (bridge, version) = Self::spawn(&flavor.lib, name, &python, spec.location.as_deref(), preload.as_deref())?;
        let info = info_for(spec, format!("{} {version}", flavor.lib.product), flavor.dialect, &[]);
        Ok(BridgeEngine { flavor, name, info, python, preload, bridge: Some(bridge), lost: None })
    }

    /// The bridge's process id, while it runs (tests kill it to check crash handling).
    pub fn bridge_pid(&mut self) -> Option<u32> {
        self.bridge.as_mut().map(Bridge::pid)
    }

    fn spawn(
        lib: &Library,
        name: &str,
        python: &Path,
        location: Option<&str>,
        preload: Option<&Path>,
    ) -> Result<(Bridge, String), SetupError> {
        let what = location.map(|l| format!("{name}={l}")).unwrap_or_else(|| name.into());
        Bridge::spawn_preloaded(&Launch { python, lib, what: &what, name, start_timeout: START_TIMEOUT }, preload)
    }

    /// Sends one request and reads its reply; a bridge that wrote something else is retired and
    /// the request gets an error reply.
    fn request(&mut self, req: &Json, deadline: Instant) -> Result<Json, ReadError> {
        let Some(b) = self.bridge.as_mut() else { return Err(ReadError::Closed) };
        match b.request(req, deadline) {
            Ok(reply) => Ok(reply),
            Err(BridgeError::Timeout) => Err(ReadError::Timeout),
            Err(BridgeError::Closed) => Err(ReadError::Closed),
            Err(BridgeError::NotAReply(shown)) => {
                self.bridge = None;
                self.lost = Some("wrote a line that is not a reply");
                Ok(serde_json::json!({"error": format!("{} bridge: a line that is not a reply: {shown}", self.name)}))
            }
        }
    }

    /// The crash outcome of a bridge that stopped answering; the bridge is gone afterwards.
    fn crashed(&mut self) -> Outcome {
        self.lost = Some("crashed");
        match self.bridge.take() {
            Some(mut b) => b.crash_outcome(),
            None => Outcome::Crash { signal: None, code: None, stderr_tail: String::new() },
        }
    }
}

/// A reply's value as a [`Value`]; `float4` marks a FLOAT (single precision) column.
fn value_of(v: &Json, float4: bool) -> Value {
    match v {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i)
            } else if n.is_u64() {
                Value::BigInt(n.to_string())
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if float4 {
                    // The shortest decimal that reads back as the same float4: 0.1, not 0.100000001.
                    Value::Float(to_float4(f).to_string().parse().unwrap_or(f))
                } else {
                    Value::Float(f)
                }
            }
        }
        Json::String(s) => Value::Text(s.clone()),
        Json::Object(m) => {
            let (k, inner) = match m.iter().next() {
                Some((k, Json::String(s))) => (k.as_str(), s.as_str()),
                _ => return Value::Text(v.to_string()),
            };
            match k {
                "b" => Value::BigInt(inner.to_string()),
                "d" => Value::Decimal(inner.to_string()),
                "f" => Value::Float(match inner {
                    "inf" => f64::INFINITY,
                    "-inf" => f64::NEG_INFINITY,
                    _ => f64::NAN,
                }),
                "x" => Value::Bytes(
                    (0..inner.len() / 2)
                        .filter_map(|i| u8::from_str_radix(inner.get(2 * i..2 * i + 2)?, 16).ok())
                        .collect(),
                ),
                _ => Value::Text(inner.to_string()),
            }
        }
        Json::Array(_) => Value::Text(v.to_string()),
    }
}

fn rows_of(reply: &Json) -> Outcome {
    let columns: Vec<String> = reply["columns"]
        .as_array()
        .map(|c| c.iter().map(|n| n.as_str().unwrap_or_default().to_string()).collect())
        .unwrap_or_default();
    let float4: Vec<bool> = reply["types"]
        .as_array()
        .map(|t| t.iter().map(|n| matches!(n.as_str(), Some("FLOAT" | "REAL" | "FLOAT4"))).collect())
        .unwrap_or_default();
    let rows = reply["rows"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    r.as_array()
                        .map(|vals| {
                            vals.iter()
                                .enumerate()
                                .map(|(i, v)| value_of(v, float4.get(i).copied().unwrap_or(false)))
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    Outcome::Rows(Rows::new(columns, rows))
}

impl Engine for BridgeEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        if self.bridge.as_mut().is_some_and(|b| b.reset(Instant::now() + START_TIMEOUT)) {
            return Ok(());
        }
        self.bridge = None;
        let location = self.info.location.as_deref();
        let (bridge, _) = Self::spawn(&self.flavor.lib, self.name, &self.python, location, self.preload.as_deref())?;
        self.bridge = Some(bridge);
        self.lost = None;
        Ok(())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        if let Some(why) = self.lost {
            return Outcome::Error {
                message: format!("{}: the bridge {why} earlier; its database is gone until the next reset", self.name),
                class: ErrorClass::Expected,
            };
        }
        let start = Instant::now();
        let ms = crosscheck_core::millis(limit).max(1);
        let req = serde_json::json!({"op": "run", "sql": text, "timeout_ms": ms});
        match self.request(&req, start + limit + KILL_GRACE) {
            Ok(reply) => {
                if reply.get("done").is_some() {
                    Outcome::Done
                } else if reply.get("columns").is_some() {
                    rows_of(&reply)
                } else if reply.get("timeout").is_some() {
                    Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
                } else if let Some(m) = reply.get("error").and_then(Json::as_str) {
                    Outcome::error(m.to_string())
                } else {
                    Outcome::error(format!("{} bridge: unexpected reply {reply}", self.name))
                }
            }
            Err(ReadError::Timeout) => {
                // DuckDB did not honour the interrupt: kill the bridge.
                if let Some(mut b) = self.bridge.take() {
                    b.kill();
                }
                self.lost = Some("was killed after a timeout");
                Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
            }
            Err(ReadError::Closed) => self.crashed(),
        }
    }
}

/// `f` rounded to the nearest float4, as DuckDB stored it. Rounding is the point, and only
/// `as` does it.
#[expect(clippy::cast_possible_truncation, reason = "rounding to float4 is the intent")]
fn to_float4(f: f64) -> f32 {
    f as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_bridge_values() {
        let j: Json = serde_json::from_str(r#"[1, 1.5, null, true, "a", {"d":"1.50"}, {"b":"1e40"}, {"x":"0aff"}, {"f":"-inf"}, 18446744073709551615, 0.10000000149011612]"#)
            .expect("json");
        let a = j.as_array().expect("array");
        let v: Vec<Value> = a.iter().enumerate().map(|(i, x)| value_of(x, i == 10)).collect();
        assert_eq!(v[0], Value::Int(1));
        assert_eq!(v[1], Value::Float(1.5));
        assert_eq!(v[2], Value::Null);
        assert_eq!(v[3], Value::Bool(true));
        assert_eq!(v[4], Value::Text("a".into()));
        assert_eq!(v[5], Value::Decimal("1.50".into()));
        assert_eq!(v[6], Value::BigInt("1e40".into()));
        assert_eq!(v[7], Value::Bytes(vec![10, 255]));
        assert_eq!(v[8], Value::Float(f64::NEG_INFINITY));
        assert_eq!(v[9], Value::BigInt("18446744073709551615".into()));
        assert_eq!(v[10], Value::Float(0.1));
    }

    /// A double that needs all 16 or 17 digits reads back as itself: `100.0 * 1e-7` is
    /// 9.999999999999999e-06, which a JSON parser that rounds on the way would make 1e-05 (CODD
    /// folded it so, and the folded query lost its row).
    #[test]
    fn doubles_cross_the_bridge_exactly() {
        for f in [100.0 * 1e-7, 0.1 + 0.2, 1.0 / 3.0, 9.223_372_036_854_776e18, 2.225_073_858_507_201e-308] {
            let j: Json = serde_json::from_str(&format!("{f:?}")).expect("json");
            assert_eq!(value_of(&j, false), Value::Float(f), "{f:?}");
        }
    }
}
