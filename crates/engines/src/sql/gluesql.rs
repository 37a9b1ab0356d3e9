//! GlueSQL, a SQL engine written in Rust (crates.io `gluesql`), in process with its in-memory
//! storage, behind the cargo feature `gluesql`. It speaks its own dialect (`dialects::GlueSql`):
//! no indexes or views in that storage, no CROSS/RIGHT/FULL joins, no COLLATE.
//!
//! GlueSQL cannot interrupt a statement: a statement that never ends is left to the
//! supervisor's `--hang-after`, which records it as a hang. A panic inside GlueSQL is caught
//! and reported as a crash of the engine (the worker goes on; the database is dropped).

use crosscheck_core::engine::{info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use gluesql::core::data::Value as GValue;
use gluesql::core::executor::{Payload, PayloadVariable};
use gluesql::prelude::{Glue, MemoryStorage};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The version GlueSQL reports (`SHOW VERSION`), from a throwaway database.
fn version() -> Result<String, String> {
    let mut glue = Glue::new(MemoryStorage::default());
    match catch_unwind(AssertUnwindSafe(|| glue.execute("SHOW VERSION"))) {
        Ok(Ok(payloads)) => match payloads.last() {
            Some(Payload::ShowVariable(PayloadVariable::Version(v))) => Ok(v.clone()),
            other => Err(format!("SHOW VERSION answered {other:?}")),
        },
        Ok(Err(e)) => Err(format!("SHOW VERSION failed: {e}")),
        Err(_) => Err("SHOW VERSION panicked".into()),
    }
}

fn availability() -> Availability {
    match version() {
        Ok(v) => Availability { available: true, detail: v, install: "built in (cargo feature gluesql)".into() },
        Err(e) => Availability { available: false, detail: e, install: "built in (cargo feature gluesql)".into() },
    }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    crate::built_in(spec, "the gluesql crate, in memory")?;
    let version = version().map_err(SetupError::new)?;
    let info = info_for(spec, version, "gluesql", &[]);
    Ok(Box::new(GlueSqlEngine { glue: Some(Glue::new(MemoryStorage::default())), info }))
}

pub static FACTORY: Factory = Factory {
    name: "gluesql",
    describe:
        "GlueSQL, a SQL engine in Rust (crate gluesql, cargo feature gluesql), in process, in memory; takes no location",
    availability,
    open,
};

pub struct GlueSqlEngine {
    /// `None` after a panic, until the next reset.
    glue: Option<Glue<MemoryStorage>>,
    info: EngineInfo,
}

/// A GlueSQL value as the comparison layer expects it: integers of every width as `Int` (or
/// `BigInt` beyond 64 bits), floats, exact decimals as text, strings, bytes, NULL. Types the
/// generator never produces (dates, maps, lists...) keep GlueSQL's own text form.
fn value(v: &GValue) -> Value {
    match v {
        GValue::Null => Value::Null,
        GValue::Bool(b) => Value::Bool(*b),
        GValue::I8(i) => Value::Int(i64::from(*i)),
        GValue::I16(i) => Value::Int(i64::from(*i)),
        GValue::I32(i) => Value::Int(i64::from(*i)),
        GValue::I64(i) => Value::Int(*i),
        GValue::U8(i) => Value::Int(i64::from(*i)),
        GValue::U16(i) => Value::Int(i64::from(*i)),
        GValue::U32(i) => Value::Int(i64::from(*i)),
        GValue::I128(i) => i64::try_from(*i).map_or_else(|_| Value::BigInt(i.to_string()), Value::Int),
        GValue::U64(i) => i64::try_from(*i).map_or_else(|_| Value::BigInt(i.to_string()), Value::Int),
        GValue::U128(i) => i64::try_from(*i).map_or_else(|_| Value::BigInt(i.to_string()), Value::Int),
        GValue::F32(f) => Value::Float(f64::from(*f)),
        GValue::F64(f) => Value::Float(*f),
        GValue::Decimal(d) => Value::Decimal(d.to_string()),
        GValue::Str(s) => Value::Text(s.clone()),
        GValue::Bytea(b) => Value::Bytes(b.clone()),
        other => Value::Text(String::from(other)),
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

impl Engine for GlueSqlEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.glue = Some(Glue::new(MemoryStorage::default()));
        Ok(())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let Some(glue) = self.glue.as_mut() else {
            return Outcome::error("the database is closed (GlueSQL panicked earlier)");
        };
        let start = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| glue.execute(text)));
        let elapsed = start.elapsed();
        let payloads = match r {
            Ok(Ok(p)) => p,
            Ok(Err(e)) => return Outcome::error(e.to_string()),
            Err(p) => {
                // The storage may be half-updated: nothing more runs on it until a reset.
                self.glue = None;
                return Outcome::Crash {
                    signal: None,
                    code: None,
                    stderr_tail: format!("panic: {}", panic_message(&*p)),
                };
            }
        };
        // Like the other engines, an answer that came after the limit counts as a timeout (the
        // statement could not be interrupted, only measured).
        if elapsed > limit {
            return Outcome::Timeout { after_ms: crosscheck_core::millis(elapsed) };
        }
        match payloads.into_iter().last() {
            Some(Payload::Select { labels, rows }) => {
                let rows = rows.iter().map(|r| r.iter().map(value).collect()).collect();
                Outcome::Rows(Rows::new(labels, rows))
            }
            // Rows of a schemaless table: the generator never creates one.
            Some(Payload::SelectMap(_)) => Outcome::error("GlueSQL answered rows without a schema"),
            _ => Outcome::Done,
        }
    }
}
