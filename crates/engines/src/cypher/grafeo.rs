//! Grafeo, a graph database in Rust (crates.io `grafeo`, features `edge` and `cypher`), in
//! process with an in-memory store, behind the cargo feature `grafeo` (its clean build adds
//! minutes; see README). Without the feature it is still listed, unavailable, with how to get
//! it. Schema free; each statement runs as `execute_cypher`.
//!
//! Timeouts: Grafeo checks a deadline (`Config::query_timeout`, fixed when the database is
//! made) between the chunks an operator tree yields; the database is made with the run's
//! limit, and rebuilt (the graph replayed) when a run asks another. A statement that spends
//! longer than its limit inside one chunk cannot be interrupted: its answer, when it comes
//! past the limit, counts as a timeout, and one that never comes is left to the supervisor's
//! `--hang-after`. A panic inside Grafeo is caught and reported as a crash of the engine; the
//! database it left is dropped and the graph replayed into a new one before the next statement.

use crate::{available_if, Entry, Opener};
use crosscheck_core::{Availability, Engine, EngineSpec, SetupError};

const INSTALL: &str = "built in with the cargo feature grafeo: cargo build --release --features grafeo";

pub struct Grafeo;

pub static FACTORY: Entry<Grafeo> = Entry {
    name: "grafeo",
    describe: "Grafeo, a graph database in Rust (crate grafeo, cargo feature grafeo), in process, in memory; takes no location",
    opener: Grafeo,
};

impl Opener for Grafeo {
    fn availability(&self, _: &'static str) -> Availability {
        available_if(version(), INSTALL)
    }

    fn open(&self, _: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        crate::built_in(spec, "the grafeo crate, in memory")?;
        open(spec)
    }
}

#[cfg(not(feature = "grafeo"))]
fn version() -> Result<String, String> {
    Err("not in this build (cargo feature grafeo)".into())
}

#[cfg(not(feature = "grafeo"))]
fn open(_: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    Err(SetupError::new(format!("grafeo: not in this build; {INSTALL}")))
}

#[cfg(feature = "grafeo")]
fn version() -> Result<String, String> {
    Ok(format!("Grafeo {}", grafeo::VERSION))
}

#[cfg(feature = "grafeo")]
fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    let info = crosscheck_core::engine::info_for(spec, format!("Grafeo {}", grafeo::VERSION), "grafeo", &[]);
    Ok(Box::new(embedded::GrafeoEngine::new(info)))
}

#[cfg(feature = "grafeo")]
mod embedded {
    use crosscheck_core::{Engine, EngineInfo, Outcome, Rows, SetupError, Value};
    use grafeo::{Config, Error, GrafeoDB, Value as GValue};
    use grafeo_common::types::LogicalType;
    use grafeo_common::utils::error::QueryErrorKind;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::time::{Duration, Instant};

    pub struct GrafeoEngine {
        info: EngineInfo,
        /// The database and the timeout it was made with; `None` after a reset or a panic,
        /// until the next statement builds one.
        db: Option<(GrafeoDB, Duration)>,
        /// The scripts that built the graph since the last reset, replayed into a new database.
        scripts: Vec<String>,
    }

    impl GrafeoEngine {
        pub fn new(info: EngineInfo) -> GrafeoEngine {
            GrafeoEngine { info, db: None, scripts: Vec::new() }
        }

        /// A database with the graph and `limit` as its query timeout, or why there is none.
        fn ready(&mut self, limit: Duration) -> Result<&GrafeoDB, Outcome> {
            if self.db.as_ref().is_none_or(|(_, t)| *t != limit) {
                self.db = None;
                let config = Config::in_memory().with_query_timeout(limit.max(Duration::from_millis(1)));
                let made = catch_unwind(AssertUnwindSafe(|| GrafeoDB::with_config(config)));
                let db = match made {
                    Ok(Ok(db)) => db,
                    Ok(Err(e)) => return Err(Outcome::error(format!("grafeo: cannot make a database: {e}"))),
                    Err(p) => return Err(crate::panic_crash(p.as_ref())),
                };
                let replay = Duration::from_secs(60).max(limit);
                for s in &self.scripts {
                    match statements(&db, s, replay).0 {
                        Outcome::Done | Outcome::Rows(_) => {}
                        other => return Err(Outcome::error(format!("grafeo: replaying the graph failed: {other}"))),
                    }
                }
                self.db = Some((db, limit));
            }
            self.db.as_ref().map(|(db, _)| db).ok_or_else(|| Outcome::error("grafeo: no database"))
        }
    }

    /// Runs the statements of `text` in order: the last one's outcome, or the first failure,
    /// and whether any of them wrote to the graph.
    fn statements(db: &GrafeoDB, text: &str, limit: Duration) -> (Outcome, bool) {
        let (mut last, mut wrote) = (Outcome::Done, false);
        for stmt in text.split(";\n").filter(|s| !s.trim().is_empty()) {
            last = statement(db, stmt, limit, &mut wrote);
            if !matches!(last, Outcome::Done | Outcome::Rows(_)) {
                break;
            }
        }
        (last, wrote)
    }

    fn statement(db: &GrafeoDB, stmt: &str, limit: Duration, wrote: &mut bool) -> Outcome {
        let start = Instant::now();
        let answer = catch_unwind(AssertUnwindSafe(|| db.execute_cypher(stmt)));
        let elapsed = start.elapsed();
        let timeout = Outcome::Timeout { after_ms: crosscheck_core::millis(elapsed) };
        match answer {
            Err(p) => crate::panic_crash(p.as_ref()),
            Ok(Err(Error::Query(q))) if q.kind == QueryErrorKind::Timeout => timeout,
            Ok(Err(e)) => Outcome::error(e.to_string()),
            // An answer past the limit came from a chunk Grafeo could not interrupt.
            Ok(Ok(_)) if elapsed > limit => timeout,
            // A write without RETURN still answers its bound variables in Grafeo (`MATCH (a),
            // (b) CREATE (a)-[:T]->(b)` gives columns a, b); the protocol calls it done.
            Ok(Ok(r)) if r.columns.is_empty() || r.counters.contains_updates() => {
                *wrote |= r.counters.contains_updates();
                Outcome::Done
            }
            Ok(Ok(r)) => {
                let types = r.column_types.clone();
                let rows = r.rows().iter().map(|row| row.iter().zip(types_of(&types)).map(value).collect()).collect();
                Outcome::Rows(Rows::new(r.columns.clone(), rows))
            }
        }
    }

    /// Each column's type, then `Any` for cells beyond them.
    fn types_of(types: &[LogicalType]) -> impl Iterator<Item = &LogicalType> {
        types.iter().chain(std::iter::repeat(&LogicalType::Any))
    }

    /// A cell as the comparison layer expects it. A whole node or relationship (which the leg
    /// never returns) becomes an identity of Grafeo's own id: a column typed as one, or the map
    /// Grafeo answers for one (`_id` with `_labels`, or with `_type`).
    fn value((v, ty): (&GValue, &LogicalType)) -> Value {
        let entity = |m: &std::collections::BTreeMap<grafeo_common::types::PropertyKey, GValue>, kind: &str| {
            let key = |k: &str| m.keys().any(|p| p.as_str() == k);
            key("_id") && key(kind)
        };
        match (v, ty) {
            (GValue::Null, _) => Value::Null,
            (v, LogicalType::Node) => Value::Node(format!("{v:?}")),
            (v, LogicalType::Edge) => Value::Edge(format!("{v:?}")),
            (GValue::Map(m), _) if entity(m, "_labels") => Value::Node(format!("{:?}", id_of(m))),
            (GValue::Map(m), _) if entity(m, "_type") => Value::Edge(format!("{:?}", id_of(m))),
            (GValue::Bool(b), _) => Value::Bool(*b),
            (GValue::Int64(i), _) => Value::Int(*i),
            (GValue::Float64(f), _) => Value::Float(*f),
            (GValue::String(s), _) => Value::Text(s.to_string()),
            (GValue::Bytes(b), _) => Value::Bytes(b.to_vec()),
            (GValue::List(items), _) => Value::List(items.iter().map(|i| value((i, &LogicalType::Any))).collect()),
            (GValue::Vector(items), _) => Value::List(items.iter().map(|f| Value::Float(f64::from(*f))).collect()),
            (GValue::Map(m), _) => {
                Value::Map(m.iter().map(|(k, v)| (k.as_str().to_string(), value((v, &LogicalType::Any)))).collect())
            }
            (other, _) => Value::Text(format!("{other:?}")),
        }
    }

    fn id_of(m: &std::collections::BTreeMap<grafeo_common::types::PropertyKey, GValue>) -> Option<&GValue> {
        m.iter().find(|(k, _)| k.as_str() == "_id").map(|(_, v)| v)
    }

    impl Engine for GrafeoEngine {
        fn info(&self) -> &EngineInfo {
            &self.info
        }

        fn reset(&mut self) -> Result<(), SetupError> {
            self.db = None;
            self.scripts.clear();
            Ok(())
        }

        fn run(&mut self, text: &str, limit: Duration) -> Outcome {
            let (out, wrote) = match self.ready(limit) {
                Ok(db) => statements(db, text, limit),
                Err(o) => return o,
            };
            // What wrote built the graph: a new database needs it too.
            if wrote {
                self.scripts.push(text.to_string());
            }
            // The store may be half-updated: nothing more runs on it.
            if matches!(out, Outcome::Crash { .. }) {
                self.db = None;
            }
            out
        }

        fn probe(&mut self) -> Result<(), String> {
            match self.run("RETURN 1 AS one", Duration::from_secs(20)) {
                Outcome::Rows(_) => Ok(()),
                other => Err(crate::described(&other)),
            }
        }
    }
}
