//! CozoDB, in memory and in process (the embedded default), running CozoScript printed by
//! the Datalog leg's `cozo` dialect. `cozo=/path/to/venv` (or its python) runs the CozoDB of
//! PyPI `cozo-embedded` in that Python instead, behind the Python host (`bridge/cozo.py`, the
//! bridge of `crate::sql::duckdb`), with the same scripts and the same outcomes.

use super::option_line;
use crate::sql::duckdb::{BridgeEngine, Flavor};
use crate::transport::bridge::{python_at, Library};
use crate::{Entry, Opener};
use cozo::{DataValue, DbInstance, Num, ScriptMutability};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::collections::BTreeMap;
use std::time::Duration;

const VERSION: &str = "0.7.6";

pub static FACTORY: Entry<CozoAt> = Entry {
    name: "cozo",
    describe: "CozoDB 0.7 (crate, in-memory storage, in process); cozo=/path/to/venv (or its python) for the CozoDB of PyPI cozo-embedded there, behind a bridge process",
    opener: CozoAt,
};

/// The bridged CozoDB: the Python host's `cozo` module.
const BRIDGED: Flavor = Flavor {
    lib: Library {
        host: "cozo",
        product: "CozoDB",
        module: "cozo_embedded",
        install:
            "scripts/install-datalog-engines.sh (or: python3 -m venv .venv && .venv/bin/pip install cozo-embedded)",
    },
    version_code: "import importlib.metadata; print(importlib.metadata.version('cozo-embedded'))",
    dialect: "cozo",
    shell: None,
};

/// How CozoDB opens: the crate in process without a LOCATION, else the Python module.
pub struct CozoAt;

impl Opener for CozoAt {
    fn availability(&self, _name: &'static str) -> Availability {
        Availability { available: true, detail: VERSION.into(), install: "built in".into() }
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let Some(location) = spec.location.as_deref() else {
            let db = new_db()?;
            return Ok(Box::new(Cozo { info: info_for(spec, VERSION.into(), "cozo", &[]), db }));
        };
        let python = python_at(name, &BRIDGED.lib, location, BRIDGED.shell)?;
        Ok(Box::new(Bridged { inner: BridgeEngine::open_at(BRIDGED, name, spec, python, None)? }))
    }
}

fn new_db() -> Result<DbInstance, SetupError> {
    DbInstance::new("mem", "", "").map_err(|e| SetupError::new(format!("cannot open an in-memory CozoDB: {e}")))
}

/// The script to run for `text` under `limit` (CozoDB's own `:timeout`), and whether it needs a
/// fresh database first: stored relations outlive the script, so a program that stores them
/// starts from an empty database to keep runs independent.
fn script_for(text: &str, limit: Duration) -> (String, bool) {
    let fresh = option_line(text, "#") == Some("stored");
    let secs = limit.as_secs().max(1);
    let script = if text.contains("{\n") {
        // In a chained script the options belong inside the last block.
        text.replacen("\n}\n", &format!("\n:timeout {secs}\n}}\n"), 1)
    } else {
        format!("{text}:timeout {secs}\n")
    };
    (script, fresh)
}

/// An error's outcome: CozoDB reports its `:timeout` as an error that says so.
fn error_outcome(msg: String, limit: Duration) -> Outcome {
    if msg.contains("killed") || msg.contains("timeout") {
        Outcome::Timeout { after_ms: crosscheck_core::millis(limit) }
    } else {
        Outcome::error(msg)
    }
}

/// CozoDB of a Python's `cozo-embedded`, behind the bridge.
pub struct Bridged {
    inner: BridgeEngine,
}

impl Engine for Bridged {
    fn info(&self) -> &EngineInfo {
        self.inner.info()
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let (script, fresh) = script_for(text, limit);
        if fresh {
            if let Err(e) = self.inner.reset() {
                return Outcome::error(e.message);
            }
        }
        match self.inner.run(&script, limit) {
            Outcome::Error { message, .. } => error_outcome(message, limit),
            other => other,
        }
    }
}

pub struct Cozo {
    info: EngineInfo,
    db: DbInstance,
}

fn convert(v: &DataValue) -> Value {
    match v {
        DataValue::Num(Num::Int(i)) => Value::Int(*i),
        DataValue::Num(Num::Float(f)) => Value::Float(*f),
        DataValue::Str(s) => Value::Text(s.to_string()),
        DataValue::Null => Value::Null,
        DataValue::Bool(b) => Value::Bool(*b),
        other => Value::Text(format!("{other:?}")),
    }
}

impl Engine for Cozo {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.db = new_db()?;
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let (script, fresh) = script_for(text, limit);
        if fresh {
            match new_db() {
                Ok(db) => self.db = db,
                Err(e) => return Outcome::error(e.message),
            }
        }
        let db = &self.db;
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            db.run_script(&script, BTreeMap::new(), ScriptMutability::Mutable)
        }));
        match res {
            Ok(Ok(named)) => {
                let rows = named.rows.iter().map(|r| r.iter().map(convert).collect()).collect();
                Outcome::Rows(Rows::new(named.headers.clone(), rows))
            }
            Ok(Err(e)) => error_outcome(format!("{e}"), limit),
            Err(panic) => crate::panic_crash(panic.as_ref()),
        }
    }
}
