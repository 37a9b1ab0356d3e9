//! SQLite through `rusqlite` (bundled), in process. A crash takes the worker process down,
//! which the campaign supervisor records as a crash finding.
//!
//! With a LOCATION, another SQLite runs behind the Python host (`bridge/sqlite.py`, the bridge
//! of `duckdb.rs`): `sqlite=/path/to/venv` (or its python) runs the SQLite of that Python's
//! `sqlite3` module, and `sqlite=/path/to/libsqlite3.so.0` runs the project's Python with that
//! library preloaded, so `--engines sqlite@new,sqlite@old=/usr/lib/.../libsqlite3.so.0` compares
//! two releases. Both answer as this engine does: storage classes as they are, errors as errors,
//! an interrupt at the limit, a fresh in-memory database at reset.

use super::duckdb::{BridgeEngine, Flavor};
use crate::transport::bridge::{python_at, Library};
use crate::transport::find_tool;
use crate::{Entry, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub static FACTORY: Entry<Sqlite> = Entry {
    name: "sqlite",
    describe: "SQLite, bundled in crosscheck (rusqlite), in memory; sqlite=/path/to/venv (or its python) for the SQLite of that Python's sqlite3 module, sqlite=/path/to/libsqlite3.so for that library (preloaded into the Python host)",
    opener: Sqlite,
};

/// The bridged SQLite: the Python host's `sqlite` module.
const BRIDGED: Flavor = Flavor {
    lib: Library {
        host: "sqlite",
        product: "SQLite",
        module: "sqlite3",
        install: "a Python with its standard sqlite3 module (python3 -m venv /path/to/venv)",
    },
    version_code: "import sqlite3; print(sqlite3.sqlite_version)",
    dialect: "sqlite",
    shell: Some("sqlite3"),
};

/// How SQLite opens: in process without a LOCATION, else behind the Python host.
pub struct Sqlite;

impl Opener for Sqlite {
    fn availability(&self, _name: &'static str) -> Availability {
        Availability { available: true, detail: rusqlite::version().to_string(), install: "built in".into() }
    }

    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let Some(location) = spec.location.as_deref() else { return open_bundled(spec) };
        let (python, preload) = bridge_for(name, location)?;
        Ok(Box::new(BridgeEngine::open_at(BRIDGED, name, spec, python, preload)?))
    }
}

/// The Python to run the bridge with and the library to preload, as `location` names them.
fn bridge_for(name: &str, location: &str) -> Result<(PathBuf, Option<PathBuf>), SetupError> {
    let p = Path::new(location);
    let file = p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    if file.starts_with("libsqlite3") || file.contains(".so") {
        if !p.is_file() {
            return Err(SetupError::new(format!(
                "{name}={location}: no such file; give a SQLite shared library ({name}=/path/to/libsqlite3.so), a virtualenv or a python"
            )));
        }
        // The project's Python runs the library: its sqlite3 module links libsqlite3 dynamically
        // (the host refuses to start if the preload did not take).
        let python = find_tool("python3")
            .or_else(|| find_tool("python"))
            .ok_or_else(|| SetupError::new(format!("{name}={location}: no python3 found to host the library in")))?;
        return Ok((python, Some(p.to_path_buf())));
    }
    let python = python_at(name, &BRIDGED.lib, location, BRIDGED.shell).map_err(|e| {
        SetupError::new(format!("{}, or a SQLite shared library ({name}=/path/to/libsqlite3.so)", e.message))
    })?;
    Ok((python, None))
}

fn open_bundled(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
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
