//! GraphQLite: the SQLite extension PyPI `graphqlite` ships (`graphqlite/graphqlite.so`, Cypher
//! translated to SQL), loaded into an in-memory SQLite database of rusqlite's bundled SQLite, in
//! process. Each statement runs as `SELECT cypher(?)`, whose text is a JSON array of row objects
//! (keys in projection order) or, for a write, an object of counts; an error is SQLite's, its
//! message a JSON object. `graphqlite=/path/to/venv` (or `=/path/to/graphqlite.so`) loads
//! another build. The progress handler interrupts a statement past its limit.

use crate::transport::bridge::{python_at, Library};
use crate::transport::find_tool;
use crate::{available_if, Entry, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError};
use rusqlite::Connection;
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const LIB: Library = Library {
    host: "",
    product: "GraphQLite",
    module: "graphqlite",
    install: "scripts/install-graph-engines.sh (or: .venv/bin/pip install graphqlite)",
};

pub struct GraphQlite;

pub static FACTORY: Entry<GraphQlite> = Entry {
    name: "graphqlite",
    describe: "GraphQLite (PyPI graphqlite's SQLite extension) loaded into an in-memory SQLite, in process; graphqlite=/path/to/venv or =/path/to/graphqlite.so for another build",
    opener: GraphQlite,
};

/// The extension's path and the package's version in `python`'s environment.
fn package(python: &Path) -> Result<(PathBuf, String), String> {
    let so = "os.path.join(os.path.dirname(graphqlite.__file__), 'graphqlite.so')";
    super::package_files(python, "graphqlite", "graphqlite", so)
}

fn locate(location: Option<&str>) -> Result<(PathBuf, String), SetupError> {
    let fail = |why: String| SetupError::new(format!("graphqlite: {why}; {}", LIB.install));
    match location {
        Some(l) if l.ends_with(".so") && Path::new(l).is_file() => Ok((PathBuf::from(l), "(a given build)".into())),
        Some(l) => package(&python_at("graphqlite", &LIB, l, None)?).map_err(fail),
        None => package(&find_tool("python3").ok_or_else(|| fail("no python3".into()))?).map_err(fail),
    }
}

impl Opener for GraphQlite {
    fn availability(&self, _: &'static str) -> Availability {
        available_if(locate(None).map(|(_, v)| format!("GraphQLite {v}")).map_err(|e| e.message), LIB.install)
    }

    fn open(&self, _: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (so, version) = locate(spec.location.as_deref())?;
        let mut e = GraphQliteDb {
            info: info_for(spec, format!("GraphQLite {version}"), "graphqlite", &[]),
            so,
            conn: None,
            epoch: Instant::now(),
            deadline: Arc::new(AtomicU64::new(u64::MAX)),
        };
        e.connect()?;
        Ok(Box::new(e))
    }
}

pub struct GraphQliteDb {
    info: EngineInfo,
    so: PathBuf,
    conn: Option<Connection>,
    /// The progress handler interrupts a statement once `epoch.elapsed()` passes `deadline` (ns).
    epoch: Instant,
    deadline: Arc<AtomicU64>,
}

impl GraphQliteDb {
    fn connect(&mut self) -> Result<(), SetupError> {
        self.conn = None;
        let fail = |what: &str, e: rusqlite::Error| SetupError::new(format!("graphqlite: {what}: {e}"));
        let mut conn = Connection::open_in_memory().map_err(|e| fail("cannot open SQLite", e))?;
        // SAFETY: the library is GraphQLite's own extension, from the package the user chose.
        unsafe {
            conn.load_extension_enable().map_err(|e| fail("cannot enable extensions", e))?;
            conn.load_extension(&self.so, None::<&str>)
                .map_err(|e| fail(&format!("cannot load {}", self.so.display()), e))?;
            conn.load_extension_disable().map_err(|e| fail("cannot disable extensions", e))?;
        }
        let (deadline, epoch) = (self.deadline.clone(), self.epoch);
        conn.progress_handler(
            1000,
            Some(move || crosscheck_core::nanos(epoch.elapsed()) > deadline.load(Ordering::Relaxed)),
        )
        .map_err(|e| fail("cannot install the progress handler", e))?;
        self.conn = Some(conn);
        Ok(())
    }

    fn statement(&mut self, stmt: &str, start: Instant) -> Outcome {
        let Some(conn) = self.conn.as_ref() else { return Outcome::error("graphqlite: no connection") };
        let text: Result<String, _> = conn.query_row("SELECT cypher(?1)", [stmt], |r| r.get(0));
        match text {
            Ok(t) if t.trim_start().starts_with('[') => rows(&t),
            Ok(_) => Outcome::Done,
            Err(rusqlite::Error::SqliteFailure(f, _)) if f.code == rusqlite::ErrorCode::OperationInterrupted => {
                Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
            }
            Err(e) => Outcome::error(e.to_string()),
        }
    }
}

/// A row object with its keys in the order the text gives them (the projection's).
struct Ordered(Vec<(String, Json)>);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a row object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some(kv) = m.next_entry::<String, Json>()? {
                    out.push(kv);
                }
                Ok(Ordered(out))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Ordered, A::Error> {
                Err(serde::de::Error::custom("a row is an object"))
            }
        }
        d.deserialize_map(V)
    }
}

fn rows(text: &str) -> Outcome {
    match serde_json::from_str::<Vec<Ordered>>(text) {
        Ok(objects) => {
            let columns = objects.first().map(|o| o.0.iter().map(|(k, _)| k.clone()).collect()).unwrap_or_default();
            let rows = objects.iter().map(|o| o.0.iter().map(|(_, v)| super::value_of(v)).collect()).collect();
            Outcome::Rows(Rows::new(columns, rows))
        }
        Err(e) => Outcome::error(format!(
            "graphqlite: an answer that is not rows ({e}): {}",
            text.chars().take(200).collect::<String>()
        )),
    }
}

impl Engine for GraphQliteDb {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.connect()
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let end = crosscheck_core::nanos(self.epoch.elapsed() + limit);
        self.deadline.store(end, Ordering::Relaxed);
        let mut last = Outcome::Done;
        for stmt in text.split(";\n").filter(|s| !s.trim().is_empty()) {
            last = self.statement(stmt, start);
            if !matches!(last, Outcome::Done | Outcome::Rows(_)) {
                break;
            }
        }
        self.deadline.store(u64::MAX, Ordering::Relaxed);
        last
    }

    fn probe(&mut self) -> Result<(), String> {
        match self.run("RETURN 1 AS one", Duration::from_secs(20)) {
            Outcome::Rows(_) => Ok(()),
            other => Err(crate::described(&other)),
        }
    }
}
