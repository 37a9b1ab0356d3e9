//! GraphQLite: the SQLite extension PyPI `graphqlite` ships (`graphqlite/graphqlite.so`, Cypher
//! translated to SQL), loaded with `.load` into Debian's `sqlite3` shell over an in-memory
//! database: the SQLite its users get (Debian's and Python's 3.40), where rusqlite's bundled
//! 3.54 had booleans come back as strings, `'0X9A'` read as JSON5 and deep queries refused,
//! none of which 3.40 does. The shell is a child process, so the extension's aborts ("double
//! free or corruption") are the engine's crashes, not the worker's.
//!
//! Each statement runs as `SELECT cypher('...');`, whose line is a JSON array of row objects
//! (keys in projection order) or, for a write, an object of counts; an error is the shell's
//! message, which carries the extension's JSON. A marker line ends each answer (errors come
//! on the same stream: the shell runs under `2>&1`). Past its limit the shell is killed and
//! restarted, and the statements that built the graph are replayed. `graphqlite=/path/to/venv`
//! (or `=/path/to/graphqlite.so`) loads another build.

use crate::transport::bridge::{python_at, Library};
use crate::transport::find_tool;
use crate::transport::process::{LineProcess, ReadError};
use crate::{available_if, Entry, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError};
use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const LIB: Library = Library {
    host: "",
    product: "GraphQLite",
    module: "graphqlite",
    install: "scripts/install-graph-engines.sh (or: .venv/bin/pip install graphqlite, apt-get install sqlite3)",
};

/// The line that ends each answer.
const END: &str = "crosscheck:end";

pub struct GraphQlite;

pub static FACTORY: Entry<GraphQlite> = Entry {
    name: "graphqlite",
    describe: "GraphQLite (PyPI graphqlite's SQLite extension) loaded into Debian's sqlite3 shell over an in-memory database; graphqlite=/path/to/venv or =/path/to/graphqlite.so for another build",
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

/// The `sqlite3` shell and its SQLite version.
fn shell() -> Result<(PathBuf, String), String> {
    let path = find_tool("sqlite3").ok_or("no sqlite3 shell (Debian package sqlite3)")?;
    let out = Command::new(&path).arg("--version").output().map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.split_whitespace().next().ok_or("sqlite3 --version printed nothing")?.to_string();
    Ok((path, version))
}

impl Opener for GraphQlite {
    fn availability(&self, _: &'static str) -> Availability {
        let found = locate(None).map_err(|e| e.message).and_then(|(_, v)| {
            let (_, sqlite) = shell()?;
            Ok(format!("GraphQLite {v} on SQLite {sqlite}"))
        });
        available_if(found, LIB.install)
    }

    fn open(&self, _: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (so, version) = locate(spec.location.as_deref())?;
        let (sqlite3, sqlite) = shell().map_err(|e| SetupError::new(format!("graphqlite: {e}; {}", LIB.install)))?;
        let info = info_for(spec, format!("GraphQLite {version} on SQLite {sqlite}"), "graphqlite", &[]);
        let mut e = GraphQliteDb { info, so, sqlite3, shell: None, built: Vec::new() };
        e.connect()?;
        Ok(Box::new(e))
    }
}

pub struct GraphQliteDb {
    info: EngineInfo,
    so: PathBuf,
    sqlite3: PathBuf,
    shell: Option<LineProcess>,
    /// The writes since the last reset: replayed into a shell started after a kill.
    built: Vec<String>,
}

impl GraphQliteDb {
    /// A new shell with the extension loaded, over an empty database.
    fn connect(&mut self) -> Result<(), SetupError> {
        self.shell = None;
        let fail = |why: String| SetupError::new(format!("graphqlite: {why}"));
        // `exec` keeps the shell's own exit status (its signal when the extension aborts).
        let line = format!("exec '{}' -batch :memory: 2>&1", self.sqlite3.display());
        let mut p = LineProcess::spawn(Command::new("sh").args(["-c", &line]))
            .map_err(|e| fail(format!("cannot start {}: {e}", self.sqlite3.display())))?;
        let load = format!(".load '{}'\nSELECT '{END}';", self.so.display());
        p.send(&load).map_err(|e| fail(format!("cannot write to sqlite3: {e}")))?;
        let answer = read_answer(&mut p, Instant::now() + Duration::from_secs(20));
        match answer {
            Ok(lines) if lines.is_empty() => {
                self.shell = Some(p);
                Ok(())
            }
            Ok(lines) => Err(fail(format!("cannot load {}: {}", self.so.display(), lines.join(" ")))),
            Err(_) => Err(fail(format!("sqlite3 did not start: {}", p.stderr_tail()))),
        }
    }

    /// A shell with the graph built so far, started anew if the last one was killed.
    fn ready(&mut self) -> Result<&mut LineProcess, Outcome> {
        if self.shell.is_none() {
            self.connect().map_err(|e| Outcome::error(e.message))?;
            for stmt in self.built.clone() {
                if let Err(o) | Ok(o @ Outcome::Error { .. }) = self.statement(&stmt, Duration::from_secs(60)) {
                    return Err(o);
                }
            }
        }
        self.shell.as_mut().ok_or_else(|| Outcome::error("graphqlite: no shell"))
    }

    fn statement(&mut self, stmt: &str, limit: Duration) -> Result<Outcome, Outcome> {
        let start = Instant::now();
        let p = self.shell.as_mut().ok_or_else(|| Outcome::error("graphqlite: no shell"))?;
        let sql = format!("SELECT cypher('{}');\nSELECT '{END}';", stmt.replace('\'', "''"));
        if p.send(&sql).is_err() {
            let crash = p.crash_outcome();
            self.shell = None;
            return Err(crash);
        }
        match read_answer(p, start + limit) {
            Ok(lines) => Ok(answer(&lines)),
            Err(ReadError::Timeout) => {
                self.shell = None;
                Err(Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) })
            }
            Err(ReadError::Closed) => {
                let crash = p.crash_outcome();
                self.shell = None;
                Err(crash)
            }
        }
    }
}

/// The lines before the next end marker.
fn read_answer(p: &mut LineProcess, deadline: Instant) -> Result<Vec<String>, ReadError> {
    let mut lines = Vec::new();
    loop {
        let line = p.recv_line(deadline)?;
        if line == END {
            return Ok(lines);
        }
        lines.push(line);
    }
}

/// One statement's answer: rows, a write's counts, or the shell's error message.
fn answer(lines: &[String]) -> Outcome {
    match lines {
        [one] if one.starts_with('[') => rows(one),
        [one] if one.starts_with('{') => Outcome::Done,
        [] => Outcome::error("graphqlite: no answer"),
        _ => Outcome::error(without_line(&lines.join("\n"))),
    }
}

/// The shell's message without its `Runtime error near line 12: ` prefix, whose count of
/// statements so far says nothing of the error: what is left is the extension's JSON.
fn without_line(message: &str) -> String {
    for prefix in ["Runtime error near line ", "Parse error near line "] {
        if let Some((_, rest)) = message.strip_prefix(prefix).and_then(|r| r.split_once(": ")) {
            return rest.to_string();
        }
    }
    message.to_string()
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
        self.built.clear();
        self.connect()
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let mut last = Outcome::Done;
        for stmt in text.split(";\n").filter(|s| !s.trim().is_empty()) {
            if let Err(o) = self.ready() {
                return o;
            }
            let left = limit.saturating_sub(start.elapsed());
            last = match self.statement(stmt, left) {
                Ok(o) | Err(o) => o,
            };
            match last {
                Outcome::Done => self.built.push(stmt.to_string()),
                Outcome::Rows(_) => {}
                _ => break,
            }
        }
        last
    }

    fn probe(&mut self) -> Result<(), String> {
        match self.run("RETURN 1 AS one", Duration::from_secs(20)) {
            Outcome::Rows(_) => Ok(()),
            other => Err(crate::described(&other)),
        }
    }
}
