//! SQLite through `rusqlite` (bundled), in process. A crash takes the worker process down,
//! which the campaign supervisor records as a crash finding.

use crosscheck_core::engine::{info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub static FACTORY: Factory = Factory {
    name: "sqlite",
    describe: "SQLite, bundled in crosscheck (rusqlite), in memory; takes no location",
    availability,
    open,
};

fn availability() -> Availability {
    Availability { available: true, detail: rusqlite::version().to_string(), install: "built in".into() }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    crate::built_in(spec, "rusqlite's bundled SQLite; it cannot load a libsqlite3.so or another build")?;
    let info = info_for(spec, rusqlite::version().to_string(), "sqlite", &[]);
    let mut e = SqliteEngine { conn: None, info, deadline: Arc::new(AtomicU64::new(u64::MAX)), epoch: Instant::now() };
    e.reset()?;
    Ok(Box::new(e))
}

pub struct SqliteEngine {
    conn: Option<Connection>,
    info: EngineInfo,
    /// Nanoseconds since `epoch` after which the running statement is interrupted.
    deadline: Arc<AtomicU64>,
    epoch: Instant,
}

impl SqliteEngine {
    fn run_inner(conn: &Connection, text: &str) -> rusqlite::Result<Outcome> {
        let mut stmt = conn.prepare(text)?;
        let n = stmt.column_count();
        if n == 0 {
            stmt.raw_execute()?;
            return Ok(Outcome::Done);
        }
        let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let mut out = Vec::new();
        let mut rows = stmt.raw_query();
        while let Some(row) = rows.next()? {
            let mut r = Vec::with_capacity(n);
            for i in 0..n {
                r.push(match row.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Real(v) => Value::Float(v),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
                });
            }
            out.push(r);
        }
        Ok(Outcome::Rows(Rows::new(columns, out)))
    }
}

impl Engine for SqliteEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.conn = None;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_MEMORY;
        let mut conn = Connection::open_with_flags(":memory:", flags)
            .map_err(|e| SetupError::new(format!("cannot open an in-memory SQLite database: {e}")))?;
        // A progress handler is cheaper than a watchdog thread per query: every 1000 VM
        // steps it compares the clock with the deadline and interrupts the statement.
        let deadline = self.deadline.clone();
        let epoch = self.epoch;
        conn.progress_handler(
            1000,
            Some(move || crosscheck_core::nanos(epoch.elapsed()) > deadline.load(Ordering::Relaxed)),
        )
        .map_err(|e| SetupError::new(format!("cannot install the SQLite progress handler: {e}")))?;
        self.conn = Some(conn);
        Ok(())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let Some(conn) = &self.conn else { return Outcome::error("the database is closed") };
        let start = self.epoch.elapsed();
        self.deadline.store(crosscheck_core::nanos(start + limit), Ordering::Relaxed);
        let r = Self::run_inner(conn, text);
        self.deadline.store(u64::MAX, Ordering::Relaxed);
        match r {
            Ok(o) => o,
            Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::OperationInterrupted => {
                Outcome::Timeout { after_ms: crosscheck_core::millis(self.epoch.elapsed() - start) }
            }
            Err(e) => Outcome::error(e.to_string()),
        }
    }
}
