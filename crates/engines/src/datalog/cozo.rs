//! CozoDB, in memory and in process (the embedded default), running CozoScript printed by
//! the Datalog leg's `cozo` dialect.

use super::option_line;
use cozo::{DataValue, DbInstance, Num, ScriptMutability};
use crosscheck_core::engine::{info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::collections::BTreeMap;
use std::time::Duration;

const VERSION: &str = "0.7.6";

fn availability() -> Availability {
    Availability { available: true, detail: VERSION.into(), install: "built in".into() }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    crate::built_in(spec, "the cozo crate, in-memory storage")?;
    let db = new_db()?;
    Ok(Box::new(Cozo { info: info_for(spec, VERSION.into(), "cozo", &[]), db }))
}

pub static FACTORY: Factory = Factory {
    name: "cozo",
    describe: "CozoDB 0.7 (crate, in-memory storage, in process); takes no location",
    availability,
    open,
};

fn new_db() -> Result<DbInstance, SetupError> {
    DbInstance::new("mem", "", "").map_err(|e| SetupError::new(format!("cannot open an in-memory CozoDB: {e}")))
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
        // Stored relations outlive the script: a fresh database keeps runs independent.
        if option_line(text, "#") == Some("stored") {
            match new_db() {
                Ok(db) => self.db = db,
                Err(e) => return Outcome::error(e.message),
            }
        }
        let script = format!("{text}:timeout {}\n", limit.as_secs().max(1));
        let script = if script.contains("{\n") {
            // In a chained script the options belong inside the last block.
            text.replacen("\n}\n", &format!("\n:timeout {}\n}}\n", limit.as_secs().max(1)), 1)
        } else {
            script
        };
        let db = &self.db;
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            db.run_script(&script, BTreeMap::new(), ScriptMutability::Mutable)
        }));
        match res {
            Ok(Ok(named)) => {
                let rows = named.rows.iter().map(|r| r.iter().map(convert).collect()).collect();
                Outcome::Rows(Rows::new(named.headers.clone(), rows))
            }
            Ok(Err(e)) => {
                let msg = format!("{e}");
                if msg.contains("killed") || msg.contains("timeout") {
                    Outcome::Timeout { after_ms: crosscheck_core::millis(limit) }
                } else {
                    Outcome::error(msg)
                }
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Outcome::Crash { signal: None, code: None, stderr_tail: format!("panic: {msg}") }
            }
        }
    }
}
