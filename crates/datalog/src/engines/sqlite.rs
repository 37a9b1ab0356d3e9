//! Recursive SQL on SQLite (rusqlite, bundled, in process); the text comes from the `sqlite`
//! dialect (`crate::dialects::sqlite`).

use crate::dialects::recsql::CAPS;
use crate::dialects::sqlite::NO_AUTOINDEX;
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::time::Duration;

/// SQLite's messages for its documented limits (sqlite.org/limits.html) that a big program can
/// reach.
const LIMITS: &[&str] = &[
    "nested too deep",
    "Expression tree is too large",
    "too many terms in compound SELECT",
    "too many FROM clause terms",
];

pub struct Factory;

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "sqlite"
    }
    fn describe(&self) -> &'static str {
        "recursive SQL (WITH RECURSIVE) on SQLite via rusqlite, in process"
    }
    fn availability(&self) -> Availability {
        Availability { available: true, detail: rusqlite::version().to_string(), install: "built in".into() }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let conn = rusqlite::Connection::open_in_memory()
            .map_err(|e| SetupError::new(format!("cannot open an in-memory SQLite database: {e}")))?;
        Ok(Box::new(Sqlite { info: info_for(spec, rusqlite::version().to_string(), "sqlite", CAPS), conn }))
    }
}

pub struct Sqlite {
    info: EngineInfo,
    conn: rusqlite::Connection,
}

impl Engine for Sqlite {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let _ = self.conn.execute_batch("PRAGMA automatic_index = ON;");
        let mut query = text;
        if let Some(rest) = text.strip_prefix(NO_AUTOINDEX) {
            let _ = self.conn.execute_batch(NO_AUTOINDEX);
            query = rest;
        }
        // A watchdog thread interrupts the query at the limit (no `hooks` feature needed).
        let handle = self.conn.get_interrupt_handle();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            if wait.recv_timeout(limit) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                handle.interrupt();
            }
        });
        let res = (|| -> rusqlite::Result<Vec<Vec<Value>>> {
            let mut st = self.conn.prepare(query.trim_end().trim_end_matches(';'))?;
            let n = st.column_count();
            let mut rows = st.query([])?;
            let mut out = Vec::new();
            while let Some(r) = rows.next()? {
                let mut row = Vec::with_capacity(n);
                for i in 0..n {
                    row.push(match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Integer(v) => Value::Int(v),
                        rusqlite::types::ValueRef::Real(f) => Value::Float(f),
                        rusqlite::types::ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                        rusqlite::types::ValueRef::Null => Value::Null,
                        rusqlite::types::ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
                    });
                }
                out.push(row);
            }
            Ok(out)
        })();
        let _ = done.send(());
        let _ = watchdog.join();
        match res {
            Ok(rows) => {
                let arity = rows.first().map(Vec::len).unwrap_or(0);
                Outcome::Rows(Rows::new((0..arity).map(|i| format!("c{i}")).collect(), rows))
            }
            Err(e) if e.to_string().contains("interrupted") => Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            // SQLite's documented limits on a statement's nesting: a large program printed as
            // one query of nested views can pass them; that is a refusal, not a wrong answer.
            Err(e) if LIMITS.iter().any(|l| e.to_string().contains(l)) => {
                Outcome::Error { message: format!("sqlite: {e}"), class: crosscheck_core::ErrorClass::Expected }
            }
            Err(e) => Outcome::error(format!("sqlite: {e}")),
        }
    }
}
