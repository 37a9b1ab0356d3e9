//! Virtuoso Open Source (Debian `virtuoso-opensource`, 7.2) over the SPARQL 1.1 protocol: a
//! private server crosscheck starts on 127.0.0.1 and two free ports (SQL and HTTP) in a
//! temporary directory with its own `virtuoso.ini`, stopped with crosscheck; or a user's server,
//! `virtuoso=http://HOST:PORT/sparql`.
//!
//! Virtuoso's default graph is the union of every graph it holds, its own system graphs
//! included, so the engine keeps its triples in one named graph of its own: queries name it as
//! their default graph (`default-graph-uri`), updates write into it, `reset` clears it.
//! Virtuoso 7.2 refuses blank nodes in `INSERT DATA` ("not allowed in a constant clause"), so
//! the leg's `INSERT DATA { T }` is sent as `INSERT { GRAPH <g> { T } } WHERE {}`, which
//! inserts the same triples, each blank-node label one new node.
//!
//! A query runs with Virtuoso's own time limit (`timeout`, an "anytime" query): past it,
//! Virtuoso answers incomplete results flagged by the `X-SQL-State: S1TAT` header, which is a
//! timeout here, never rows. The HTTP request itself gives up a few seconds later, and then a
//! private server is replaced: the query it keeps running would block every later request.
//! Virtuoso 7.2.5 also sits on some queries without evaluating them, and then its own limit
//! never fires: `SELECT (MAX(IF(isLITERAL(?o), "", STR(?o))) AS ?c) WHERE { ?s <p> ?o VALUES
//! ?s { <p> UNDEF } }` over a graph holding `<p> <p> 1` stops the whole server (no CPU time
//! spent, no answer to any client). So while a private server's answer is awaited it is
//! watched: when it spent no CPU time for `IDLE_PULSES` pulses in a row, the query is not
//! being evaluated, and the server is replaced at once, a timeout, rather than waited on for
//! the whole limit and grace (17 s a query in the leg's benchmark). The updates since the last
//! reset are replayed into the new server. So is a server whose store gave out ("out of seg
//! data" on every insert after some minutes of a campaign).

use super::results::{self, first_keyword, prologue_end};
use crate::transport::find_tool;
use crate::transport::process::{crash_from, run_once, RunOnce};
use crate::transport::server::{self, log_tail, PrivateDir, ServerProcess};
use crate::{available_if, Entry, Opener};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, SetupError};
use serde_json::Value as Json;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

const INSTALL: &str = "scripts/install-rdf-engines.sh (apt-get install virtuoso-opensource)";
/// Past a query's limit, how long Virtuoso may take to stop its anytime query and answer
/// (seen: 1.5 s for a 0.5 s limit on a loaded machine).
const GRACE: Duration = Duration::from_secs(5);
/// How often a private server is looked at while its answer is awaited.
const PULSE: Duration = Duration::from_millis(400);
/// Pulses in a row without CPU time (at most one 10 ms clock tick a pulse, the server's own
/// housekeeping) after which a private server's query is given up on: a query being compiled
/// or evaluated spends more.
const IDLE_PULSES: u32 = 3;
/// How long an update, a reset or a probe may take.
const ADMIN_TIMEOUT: Duration = Duration::from_secs(60);

pub static FACTORY: Entry<Virtuoso> = Entry {
    name: "virtuoso",
    describe: "Virtuoso Open Source 7 (Debian virtuoso-opensource): a private server on 127.0.0.1, over the SPARQL protocol; virtuoso=http://HOST:PORT/sparql for a running one",
    opener: Virtuoso,
};

pub struct Virtuoso;

impl Opener for Virtuoso {
    fn availability(&self, _name: &'static str) -> Availability {
        available_if(binaries().and_then(|b| binary_version(&b.server)), INSTALL)
    }

    fn open(&self, _name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let (endpoint, home) = match spec.location.as_deref() {
            Some(url) if url.starts_with("http://") => (url.to_string(), Home::Existing),
            Some(other) => {
                return Err(SetupError::new(format!(
                    "virtuoso={other}: not a SPARQL endpoint; give a running server's http://HOST:PORT/sparql, or write virtuoso alone for a private server"
                )))
            }
            None => {
                let b = binaries().map_err(SetupError::new)?;
                let (proc, port) = launch(&b)?;
                (format!("http://127.0.0.1:{port}/sparql"), Home::Private { proc, binaries: b })
            }
        };
        let graph = format!("urn:crosscheck:{}", server::scratch_db_name());
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut e = VirtuosoEngine {
            info: info_for(spec, String::new(), "virtuoso", &[]),
            endpoint,
            graph,
            agent,
            home,
            log: vec![],
        };
        e.info.version = e.version()?;
        Ok(Box::new(e))
    }
}

/// The Debian package's binaries: the server and its SQL client.
struct Binaries {
    server: PathBuf,
    isql: PathBuf,
}

fn binaries() -> Result<Binaries, String> {
    let server = find_tool("virtuoso-t").ok_or("virtuoso-t not found")?;
    let isql = find_tool("isql-vt").ok_or("isql-vt not found (Debian virtuoso-opensource-7-bin)")?;
    Ok(Binaries { server, isql })
}

/// `virtuoso-t -?` says `Version 7.2.5.3229-pthreads as of ...`: `Virtuoso 7.2.5.3229`.
fn binary_version(server: &Path) -> Result<String, String> {
    let out = Command::new(server).arg("-?").output().map_err(|e| format!("cannot run {}: {e}", server.display()))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Version "))
        .and_then(|v| v.split(['-', ' ']).next())
        .map(|v| format!("Virtuoso {v}"))
        .ok_or_else(|| format!("{} printed no version", server.display()))
}

/// Where the store lives.
enum Home {
    /// A private server, stopped and deleted on drop; started again by `reset` if it died.
    Private { proc: ServerProcess, binaries: Binaries },
    /// A user's server: the engine's graph is dropped on drop.
    Existing,
}

/// The `virtuoso.ini` of a private server in `dir`: small buffers (the graphs are small), no
/// cap on result rows (Virtuoso's default of 10,000 would cut answers silently) and no
/// server-wide query limits (each query carries its own).
fn ini(dir: &Path, sql_port: u16, http_port: u16) -> String {
    let d = dir.display();
    format!(
        "[Database]\nDatabaseFile = {d}/virtuoso.db\nErrorLogFile = {d}/virtuoso.log\nLockFile = {d}/virtuoso.lck\n\
         TransactionFile = {d}/virtuoso.trx\nxa_persistent_file = {d}/virtuoso.pxa\nErrorLogLevel = 7\nFileExtend = 200\n\
         Striping = 0\nTempStorage = TempDatabase\n\
         [TempDatabase]\nDatabaseFile = {d}/virtuoso-temp.db\nTransactionFile = {d}/virtuoso-temp.trx\nStriping = 0\n\
         [Parameters]\nServerPort = 127.0.0.1:{sql_port}\nDisableUnixSocket = 1\nCaseMode = 2\nDirsAllowed = .\n\
         NumberOfBuffers = 10000\nMaxDirtyBuffers = 6000\nThreadsPerQuery = 2\nMaxClientConnections = 5\n\
         CheckpointInterval = 0\n\
         [HTTPServer]\nServerPort = 127.0.0.1:{http_port}\nServerRoot = {d}\nServerThreads = 4\n\
         MaxClientConnections = 4\nCharset = UTF-8\n\
         [SPARQL]\nResultSetMaxRows = 100000000\nMaxQueryCostEstimationTime = 0\nMaxQueryExecutionTime = 0\n"
    )
}

/// Starts a private server: the process and its HTTP port. The SPARQL endpoint's anonymous
/// user gets the right to update (a new database grants it only reads).
fn launch(b: &Binaries) -> Result<(ServerProcess, u16), SetupError> {
    let dir = PrivateDir::create("virtuoso", None)?;
    let log = dir.path().join("virtuoso.out");
    let mut proc = ServerProcess { child: None, dir, log, stop_signal: None };
    let dir = proc.dir.path().to_path_buf();
    let sql_port = Cell::new(0u16);
    let command = |http_port: u16| {
        // The second port is picked with the first; a clash on either retries both.
        sql_port.set(server::free_port().unwrap_or(0));
        let _ = std::fs::write(dir.join("virtuoso.ini"), ini(&dir, sql_port.get(), http_port));
        let mut cmd = Command::new(&b.server);
        cmd.args(["+foreground", "+configfile"]).arg(dir.join("virtuoso.ini")).current_dir(&dir);
        cmd
    };
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let ready = |port: u16| {
        let url = format!("http://127.0.0.1:{port}/sparql");
        post(&agent, &url, &[("query", "ASK {}")], Duration::from_secs(2)).is_ok_and(|r| r.status == 200)
    };
    let port = proc.start("virtuoso", None, command, ready)?;
    let grant = "exec=GRANT SPARQL_UPDATE TO \"SPARQL\";";
    let mut isql = Command::new(&b.isql);
    isql.arg(format!("127.0.0.1:{}", sql_port.get())).args(["dba", "dba", grant]);
    match run_once(&mut isql, "", ADMIN_TIMEOUT) {
        Ok(RunOnce::Exited { status, .. }) if status.success() => Ok((proc, port)),
        Ok(other) => {
            Err(SetupError::new(format!("virtuoso: granting updates to the SPARQL endpoint failed: {other:?}")))
        }
        Err(e) => Err(SetupError::new(format!("virtuoso: cannot run {}: {e}", b.isql.display()))),
    }
}

/// An HTTP answer.
struct Reply {
    status: u16,
    /// Virtuoso's `X-SQL-State` header: `S1TAT` for an anytime query cut by its limit.
    sql_state: Option<String>,
    server: Option<String>,
    body: String,
}

/// Why a request got no HTTP answer.
enum Failed {
    Timeout,
    /// A private server's query is not being evaluated: no CPU time spent for a while.
    Wedged,
    Other(String),
}

/// POSTs a form to the endpoint, asking for SPARQL JSON results.
fn post(agent: &ureq::Agent, url: &str, form: &[(&str, &str)], limit: Duration) -> Result<Reply, Failed> {
    let sent = agent
        .post(url)
        .header("Accept", "application/sparql-results+json")
        .config()
        .timeout_global(Some(limit))
        .build()
        .send_form(form.iter().copied());
    let mut resp = match sent {
        Ok(r) => r,
        Err(ureq::Error::Timeout(_)) => return Err(Failed::Timeout),
        Err(e) => return Err(Failed::Other(e.to_string())),
    };
    let header = |name: &str| resp.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let (sql_state, server) = (header("x-sql-state"), header("server"));
    let status = resp.status().as_u16();
    // A large answer is an answer: up to 1 GiB rather than ureq's default of 10 MB.
    match resp.body_mut().with_config().limit(1 << 30).read_to_string() {
        Ok(body) => Ok(Reply { status, sql_state, server, body }),
        Err(ureq::Error::Timeout(_)) => Err(Failed::Timeout),
        Err(e) => Err(Failed::Other(e.to_string())),
    }
}

/// The engine: an endpoint and the graph it owns there.
pub struct VirtuosoEngine {
    info: EngineInfo,
    endpoint: String,
    graph: String,
    agent: ureq::Agent,
    home: Home,
    /// The updates run since the last reset, to rebuild the graph in a replaced server.
    log: Vec<String>,
}

impl VirtuosoEngine {
    /// The server's version from its `Server` header (`Virtuoso/07.20.3229 (Linux) ...`).
    fn version(&mut self) -> Result<String, SetupError> {
        match post(&self.agent, &self.endpoint, &[("query", "ASK {}")], ADMIN_TIMEOUT) {
            Ok(r) if r.status == 200 => Ok(r
                .server
                .and_then(|s| s.split_whitespace().next().map(|v| v.replacen('/', " ", 1)))
                .unwrap_or_else(|| "Virtuoso (version not reported)".into())),
            Ok(r) => Err(SetupError::new(format!(
                "virtuoso at {}: HTTP {} to ASK {{}}: {}",
                self.endpoint,
                r.status,
                results::clip(&r.body)
            ))),
            Err(Failed::Timeout | Failed::Wedged) => {
                Err(SetupError::new(format!("virtuoso at {}: no answer to ASK {{}}", self.endpoint)))
            }
            Err(Failed::Other(e)) => Err(SetupError::new(format!(
                "virtuoso at {}: {e}; is the server running and the address right?",
                self.endpoint
            ))),
        }
    }

    /// The private server's crash, if it died; `None` while it runs (or for a user's server).
    fn died(&mut self) -> Option<Outcome> {
        let Home::Private { proc, .. } = &mut self.home else { return None };
        let status = proc.child.as_mut()?.try_wait()?;
        Some(crash_from(Some(status), log_tail(&proc.dir.path().join("virtuoso.log"), 2000)))
    }

    /// Posts an update into the engine's graph.
    fn send_update(&self, text: &str, limit: Duration) -> Result<Reply, Failed> {
        let sent = into_graph(text, &self.graph).unwrap_or_else(|| text.to_string());
        post(&self.agent, &self.endpoint, &[("update", &sent)], limit)
    }

    /// Runs an update against the engine's graph. A private server whose storage gave out is
    /// replaced and the update sent once more.
    fn update(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let mut reply = self.send_update(text, limit + GRACE);
        let private = !matches!(self.home, Home::Existing);
        if private && matches!(&reply, Ok(r) if r.status != 200 && storage_gave_out(&r.body)) {
            if let Err(e) = self.relaunch() {
                return Outcome::error(format!("virtuoso: its storage gave out and it could not be replaced: {e}"));
            }
            reply = self.send_update(text, limit + GRACE);
        }
        match reply {
            Ok(r) if r.status == 200 => Outcome::Done,
            Ok(r) => self.refused(&r, start, limit),
            Err(f) => self.failed(f, start),
        }
    }

    fn query(&mut self, text: &str, limit: Duration) -> Outcome {
        let ms = crosscheck_core::millis(limit).max(1).to_string();
        let form = [("query", text), ("default-graph-uri", &self.graph), ("timeout", &ms)];
        let start = Instant::now();
        match self.post_watched(&form, limit + GRACE) {
            Ok(r) if r.sql_state.as_deref() == Some("S1TAT") => timeout(start),
            Ok(r) if r.status == 200 => match serde_json::from_str::<Json>(&r.body) {
                Ok(doc) => ask_as_select(text, &doc).unwrap_or_else(|| results::rows_of_document(&doc)),
                Err(e) => Outcome::error(format!("virtuoso: unreadable results ({e}): {}", results::clip(&r.body))),
            },
            Ok(r) => self.refused(&r, start, limit),
            Err(f) => self.failed(f, start),
        }
    }

    /// Posts `form` and waits for the answer at most `limit`; a private server is watched
    /// meanwhile, and given up on as soon as it is wedged.
    fn post_watched(&self, form: &[(&str, &str)], limit: Duration) -> Result<Reply, Failed> {
        let Some(pid) = self.server_pid() else { return post(&self.agent, &self.endpoint, form, limit) };
        let (tx, rx) = mpsc::channel();
        let (agent, url) = (self.agent.clone(), self.endpoint.clone());
        let owned: Vec<(String, String)> = form.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        // The request outlives a wedged server's wait: it ends when the server is replaced.
        std::thread::spawn(move || {
            let form: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            let _ = tx.send(post(&agent, &url, &form, limit));
        });
        let deadline = Instant::now() + limit;
        let (mut cpu, mut idle) = (cpu_ticks(pid), 0);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(PULSE.min(left)) {
                Ok(reply) => return reply,
                Err(RecvTimeoutError::Disconnected) => return Err(Failed::Other("the request was lost".into())),
                Err(RecvTimeoutError::Timeout) if left <= PULSE => return Err(Failed::Timeout),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = cpu_ticks(pid);
            // A tick of the server's own housekeeping is not evaluation.
            idle = match (cpu, now) {
                (Some(a), Some(b)) if b <= a + 1 => idle + 1,
                _ => 0,
            };
            cpu = now;
            if idle >= IDLE_PULSES {
                return Err(Failed::Wedged);
            }
        }
    }

    /// The private server's process id; `None` for a user's server.
    fn server_pid(&self) -> Option<u32> {
        let Home::Private { proc, .. } = &self.home else { return None };
        proc.child.as_ref().map(|c| c.id())
    }

    /// An error answer: Virtuoso's message without the query it echoes; a timeout where it
    /// is how an anytime query stopped (`cut_by_its_limit`).
    fn refused(&mut self, r: &Reply, start: Instant, limit: Duration) -> Outcome {
        let message = r.body.split("\nSPARQL query:").next().unwrap_or_default().trim();
        if cut_by_its_limit(message, start.elapsed() >= limit) {
            return timeout(start);
        }
        Outcome::error(format!("virtuoso: HTTP {}: {}", r.status, results::clip(message)))
    }

    fn failed(&mut self, f: Failed, start: Instant) -> Outcome {
        if let Some(crash) = self.died() {
            return crash;
        }
        match f {
            Failed::Timeout | Failed::Wedged => match self.relaunch() {
                Ok(()) => timeout(start),
                Err(e) => Outcome::Crash {
                    signal: None,
                    code: None,
                    stderr_tail: format!("virtuoso ran a request past its limit and could not be replaced: {e}"),
                },
            },
            Failed::Other(e) => Outcome::error(format!("virtuoso at {}: {e}", self.endpoint)),
        }
    }

    /// Replaces a private server (a new process, the old one killed with its directory) and
    /// replays the updates since the last reset into it; a user's server is left as it is.
    fn relaunch(&mut self) -> Result<(), SetupError> {
        let Home::Private { binaries, .. } = &self.home else { return Ok(()) };
        let (proc, port) = launch(binaries)?;
        self.endpoint = format!("http://127.0.0.1:{port}/sparql");
        if let Home::Private { proc: old, .. } = &mut self.home {
            *old = proc;
        }
        for text in &self.log {
            match self.send_update(text, ADMIN_TIMEOUT) {
                Ok(r) if r.status == 200 => {}
                Ok(r) => return Err(SetupError::new(format!("virtuoso: replaying an update: HTTP {}", r.status))),
                Err(_) => return Err(SetupError::new("virtuoso: replaying an update got no answer")),
            }
        }
        Ok(())
    }
}

/// Whether an error answer is an anytime query stopped by its limit: a transaction error past
/// the limit (how a query that could not return partial results, under ORDER BY, stops), or
/// the rows streamed so far followed by `Virtuoso S1TAT Error ... Returning incomplete
/// results` under HTTP 500 (seen for a 300,000-row cross product under ORDER BY; without
/// this it was an error where the other stores answered).
fn cut_by_its_limit(message: &str, past_limit: bool) -> bool {
    message.contains("Virtuoso S1TAT Error") || past_limit && (message.contains("SR177") || message.contains("S1T00"))
}

/// Virtuoso 7.2, after some minutes of loads and clears, refuses every insert with "Insert
/// stopped because out of seg data ... key RDF_QUAD_SP": its store, not the update, is at
/// fault, and a new server takes the same update.
fn storage_gave_out(body: &str) -> bool {
    body.contains("out of seg data")
}

/// Virtuoso (depending on its settings) answers an ASK as a SELECT of one variable
/// `__ASK_RETVAL`: one row `1` for true, no row for false. The contract's ASK answer, for an
/// ASK query answered so.
fn ask_as_select(text: &str, doc: &Json) -> Option<Outcome> {
    let vars = doc.pointer("/head/vars")?.as_array()?;
    if vars.len() != 1
        || vars[0] != "__ASK_RETVAL"
        || !first_keyword(&text[prologue_end(text)..]).eq_ignore_ascii_case("ASK")
    {
        return None;
    }
    let bindings = doc.pointer("/results/bindings")?.as_array()?;
    let truth = bindings.iter().any(|b| b.pointer("/__ASK_RETVAL/value").and_then(Json::as_str) != Some("0"));
    Some(results::ask(truth))
}

/// The CPU time (user and system, in clock ticks) process `pid` has spent: `utime` and
/// `stime`, fields 14 and 15 of `proc(5)`.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let fields = server::proc_stat(pid)?;
    let tick = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some(tick(11)? + tick(12)?)
}

fn timeout(start: Instant) -> Outcome {
    Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
}

/// `INSERT DATA { T }` (after its prologue) as `INSERT { GRAPH <graph> { T } } WHERE {}`;
/// `None` for any other text, or one whose braces do not close.
fn into_graph(text: &str, graph: &str) -> Option<String> {
    let start = prologue_end(text);
    let rest = &text[start..];
    if !first_keyword(rest).eq_ignore_ascii_case("INSERT") {
        return None;
    }
    let after_insert = rest.trim_start()["INSERT".len()..].trim_start();
    if !first_keyword(after_insert).eq_ignore_ascii_case("DATA") {
        return None;
    }
    let body = after_insert["DATA".len()..].trim_start().strip_prefix('{')?;
    let close = closing_brace(body)?;
    Some(format!(
        "{}INSERT {{ GRAPH <{graph}> {{{}}} }} WHERE {{}}{}",
        &text[..start],
        &body[..close],
        &body[close + 1..]
    ))
}

/// The index of the `}` closing a block whose `{` came just before `body`, skipping strings
/// (short and long, with escapes), IRIs and comments.
fn closing_brace(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    let (mut i, mut depth) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') => {
                let long = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
                let quote = if long { 3 } else { 1 };
                i += quote;
                loop {
                    match b.get(i)? {
                        b'\\' => i += 2,
                        c if *c == q && (!long || (b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q))) => {
                            i += quote;
                            break;
                        }
                        _ => i += 1,
                    }
                }
                continue;
            }
            b'<' => i += body[i..].find('>')?,
            b'#' => i += body[i..].find('\n').unwrap_or(body.len() - i),
            b'{' => depth += 1,
            b'}' if depth == 0 => return Some(i),
            b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

impl Engine for VirtuosoEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.log.clear();
        if self.died().is_some() {
            self.relaunch()?;
        }
        let clear = format!("CLEAR SILENT GRAPH <{}>", self.graph);
        match self.update(&clear, ADMIN_TIMEOUT) {
            Outcome::Done => Ok(()),
            other => Err(SetupError::new(format!("virtuoso: clearing the graph failed: {other}"))),
        }
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        if results::is_update(text) {
            let out = self.update(text, limit);
            if out == Outcome::Done {
                self.log.push(text.to_string());
            }
            out
        } else {
            self.query(text, limit)
        }
    }

    fn probe(&mut self) -> Result<(), String> {
        match self.run("ASK {}", Duration::from_secs(20)) {
            Outcome::Rows(_) => Ok(()),
            other => Err(crate::described(&other)),
        }
    }
}

impl Drop for VirtuosoEngine {
    fn drop(&mut self) {
        // A user's server keeps nothing of ours; a private one goes with its directory.
        if matches!(self.home, Home::Existing) {
            let drop = format!("DROP SILENT GRAPH <{}>", self.graph);
            let _ = post(&self.agent, &self.endpoint, &[("update", &drop)], Duration::from_secs(5));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_data_goes_into_the_graph() {
        let t = "PREFIX ex: <http://e/#>\ninsert data { ex:a ex:p \"}\" , '''x'}'''@en, _:b . # }\n _:b ex:q <http://e/}> }";
        let got = into_graph(t, "urn:g").expect("rewritten");
        assert_eq!(
            got,
            "PREFIX ex: <http://e/#>\nINSERT { GRAPH <urn:g> { ex:a ex:p \"}\" , '''x'}'''@en, _:b . # }\n _:b ex:q <http://e/}> } } WHERE {}"
        );
        assert_eq!(into_graph("SELECT * WHERE { ?s ?p ?o }", "urn:g"), None);
        assert_eq!(into_graph("INSERT DATA { <a> <b> \"open }", "urn:g"), None);
    }

    #[test]
    fn an_anytime_query_cut_while_streaming_is_a_timeout() {
        let seen =
            "{ \"head\": { \"link\": [], \"vars\": [\"v1\"] },\n  \"results\": { \"bindings\": [\n    { \"v1\": \
                    { \"type\": \"uri\", \"value\": \"http://e/a\" }},\n    { \"v1\": Virtuoso S1TAT Error RC...: \
                    Returning incomplete results, query interrupted by result timeout.  Activity:  1.145M rnd";
        assert!(cut_by_its_limit(seen, false));
        assert!(cut_by_its_limit("Virtuoso 40001 Error SR177: transaction rolled back", true));
        assert!(!cut_by_its_limit("Virtuoso 40001 Error SR177: transaction rolled back", false));
        assert!(!cut_by_its_limit("Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error", true));
    }

    #[test]
    fn an_exhausted_store_is_told_from_a_refused_update() {
        let seen = "Virtuoso 42000 Error SR325: Insert stopped because out of seg data \
                    (key RDF_QUAD_SP)\n\nSPARQL query:\nINSERT { GRAPH <urn:g> { <a> <b> 1 } } WHERE {}";
        assert!(storage_gave_out(seen));
        assert!(!storage_gave_out("Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error"));
    }

    #[test]
    fn reads_an_ask_answered_as_a_select() {
        let doc = |rows: &str| -> Json {
            serde_json::from_str(&format!(
                r#"{{"head":{{"vars":["__ASK_RETVAL"]}},"results":{{"bindings":[{rows}]}}}}"#
            ))
            .expect("json")
        };
        let yes = doc(r#"{"__ASK_RETVAL":{"type":"typed-literal","value":"1"}}"#);
        assert_eq!(ask_as_select("PREFIX e: <x:> ask { ?s ?p ?o }", &yes), Some(results::ask(true)));
        assert_eq!(ask_as_select("ASK {}", &doc("")), Some(results::ask(false)));
        assert_eq!(ask_as_select("SELECT ?__ASK_RETVAL {}", &yes), None);
    }
}
