//! PostgreSQL through the `postgres` crate (synchronous client, no TLS).
//!
//! Without a location crosscheck starts a private throwaway server: `initdb` into a temporary
//! directory and `postgres` on 127.0.0.1 and a free port (as the `postgres` OS user when
//! crosscheck runs as root, since PostgreSQL refuses root), tied to crosscheck so that it dies
//! with it, even after a SIGKILL. With `postgres=postgres://USER[:PW]@HOST:PORT/DB` it uses that
//! server, in a scratch database of its own that it drops at the end. A location that is a
//! directory (or a binary in it) names the `bin` directory of another PostgreSQL build.
//!
//! `reset` drops and recreates the `public` schema of the working database (measured faster than
//! DROP/CREATE DATABASE) and resets the session's settings. Timeouts use `statement_timeout`,
//! with a cancel request from a watchdog as the fallback. Values keep their types: integers,
//! `numeric` as exact decimals, floats, booleans, text, `bytea`; any other type as its text.

use super::pgwire::{binary_supported, binary_value, split_statements, text_value};
use crate::transport::free_port;
use crate::transport::server::{self, one_line, Action, GuardedSession, Probe, ServerProcess, Watchdog};
use crosscheck_core::engine::{info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError, Value};
use postgres::error::SqlState;
use postgres::types::Type;
use postgres::{Client, Config, NoTls, SimpleQueryMessage};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::{Duration, Instant};

const INSTALL: &str = "scripts/install-sql-engines.sh (or: apt-get install -y postgresql)";

fn availability() -> Availability {
    match find_bindir().and_then(|d| server_version(&d)) {
        Ok(v) => Availability { available: true, detail: v, install: INSTALL.into() },
        Err(e) => Availability { available: false, detail: e.message, install: INSTALL.into() },
    }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    Ok(Box::new(PostgresEngine::open(spec)?))
}

pub static FACTORY: Factory = Factory {
    name: "postgres",
    describe: "PostgreSQL: a private server started by crosscheck, or postgres=postgres://USER@HOST:PORT/DB",
    availability,
    open,
};

fn is_address(loc: &str) -> bool {
    loc.starts_with("postgres://") || loc.starts_with("postgresql://") || loc.contains("host=")
}

/// The newest `/usr/lib/postgresql/<v>/bin` holding `initdb`, else the `initdb` on PATH.
fn find_bindir() -> Result<PathBuf, SetupError> {
    let mut best: Option<(u32, PathBuf)> = None;
    if let Ok(entries) = std::fs::read_dir("/usr/lib/postgresql") {
        for e in entries.flatten() {
            let v: u32 = e.file_name().to_str().and_then(|s| s.parse().ok()).unwrap_or(0);
            let bin = e.path().join("bin");
            if bin.join("initdb").is_file() && best.as_ref().is_none_or(|(bv, _)| v > *bv) {
                best = Some((v, bin));
            }
        }
    }
    if let Some((_, bin)) = best {
        return Ok(bin);
    }
    if let Some(p) = crate::transport::find_tool("initdb") {
        if let Some(d) = p.parent() {
            return Ok(d.to_path_buf());
        }
    }
    Err(SetupError::new(format!(
        "postgres: no initdb found (looked in /usr/lib/postgresql/*/bin and PATH); install PostgreSQL with {INSTALL}"
    )))
}

fn bindir_from_location(loc: &str) -> Result<PathBuf, SetupError> {
    let p = Path::new(loc);
    let dir = if p.is_dir() { p.to_path_buf() } else { p.parent().map(Path::to_path_buf).unwrap_or_default() };
    if !p.exists() {
        return Err(SetupError::new(format!(
            "postgres={loc}: no such file or directory; give a PostgreSQL bin directory (with initdb and postgres) or a server address postgres://USER@HOST:PORT/DB"
        )));
    }
    for tool in ["initdb", "postgres"] {
        if !dir.join(tool).is_file() {
            return Err(SetupError::new(format!(
                "postgres={loc}: no {tool} in {}; give a PostgreSQL bin directory (with initdb and postgres) or a server address postgres://USER@HOST:PORT/DB",
                dir.display()
            )));
        }
    }
    Ok(dir)
}

fn server_version(bindir: &Path) -> Result<String, SetupError> {
    let out = Command::new(bindir.join("postgres"))
        .arg("--version")
        .output()
        .map_err(|e| SetupError::new(format!("postgres: cannot run {}/postgres: {e}", bindir.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
    Ok(text.trim().rsplit_once(") ").map(|(_, v)| v.to_string()).unwrap_or_else(|| text.trim().to_string()))
}

/// The text of a client error: the server's message and SQLSTATE, or the client's chain.
fn err_text(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} (SQLSTATE {})", db.message(), db.code().code());
    }
    let mut s = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

/// Where the working database lives.
enum Home {
    /// A private server: stopped and deleted on drop; started again by `reset` if it died.
    Private { proc: ServerProcess, bindir: PathBuf, user: Option<(u32, u32)> },
    /// A user's server: the scratch database is dropped on drop through `admin`.
    Existing { admin: Box<Config> },
}

pub struct PostgresEngine {
    info: EngineInfo,
    home: Home,
    /// How to connect to the working database.
    config: Config,
    db: String,
    client: Option<Client>,
    /// The `statement_timeout` the session has, in ms.
    timeout_ms: Option<u64>,
    watchdog: Watchdog,
}

impl PostgresEngine {
    /// Starts a private server, or connects to the one the spec's location names.
    pub fn open(spec: &EngineSpec) -> Result<PostgresEngine, SetupError> {
        match spec.location.as_deref() {
            Some(loc) if is_address(loc) => PostgresEngine::connect_existing(spec, loc),
            Some(loc) => PostgresEngine::start_private(spec, &bindir_from_location(loc)?),
            None => PostgresEngine::start_private(spec, &find_bindir()?),
        }
    }

    /// The process id of the private server (none for a user's server).
    pub fn server_pid(&self) -> Option<u32> {
        match &self.home {
            Home::Private { proc, .. } => proc.child.as_ref().map(|c| c.id()),
            Home::Existing { .. } => None,
        }
    }

    /// The address of the server, as `postgres=` takes it.
    pub fn url(&self) -> String {
        let host = match self.config.get_hosts().first() {
            Some(postgres::config::Host::Tcp(h)) => h.clone(),
            _ => "localhost".into(),
        };
        let port = self.config.get_ports().first().copied().unwrap_or(5432);
        let user = self.config.get_user().unwrap_or("postgres");
        format!("postgres://{user}@{host}:{port}/postgres")
    }

    fn start_private(spec: &EngineSpec, bindir: &Path) -> Result<PostgresEngine, SetupError> {
        for tool in ["initdb", "postgres"] {
            if !bindir.join(tool).is_file() {
                return Err(SetupError::new(format!(
                    "postgres: no {tool} in {}; install PostgreSQL with {INSTALL}",
                    bindir.display()
                )));
            }
        }
        let user = if server::is_root() {
            Some(server::os_user("postgres").ok_or_else(|| {
                SetupError::new(
                    "postgres: crosscheck runs as root, PostgreSQL refuses to, and there is no \"postgres\" OS user to run it as; create one (useradd -r postgres) or run as another user",
                )
            })?)
        } else {
            None
        };
        let (proc, port) = Self::launch(bindir, user)?;
        let mut e = PostgresEngine {
            info: EngineInfo::default(),
            home: Home::Private { proc, bindir: bindir.to_path_buf(), user },
            config: Self::local_config(port),
            db: "postgres".into(),
            client: None,
            timeout_ms: None,
            watchdog: Watchdog::new(),
        };
        e.finish_open(spec)?;
        Ok(e)
    }

    fn local_config(port: u16) -> Config {
        let mut config = Config::new();
        config
            .host("127.0.0.1")
            .port(port)
            .user("postgres")
            .dbname("postgres")
            .connect_timeout(server::CONNECT_TIMEOUT);
        config
    }

    /// Makes a data directory (a copy of the `initdb` template) and starts a server on it.
    fn launch(bindir: &Path, user: Option<(u32, u32)>) -> Result<(ServerProcess, u16), SetupError> {
        let dir = server::PrivateDir::create("postgres", user)?;
        let data = dir.path().join("data");
        let log = dir.path().join("server.log");
        const INITDB_ARGS: [&str; 9] =
            ["-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"];
        let key = [
            server::binary_key(&bindir.join("initdb")),
            server::binary_key(&bindir.join("postgres")),
            INITDB_ARGS.join(" "),
        ];
        server::data_from_template("postgres", &key, &data, user, |tmp| {
            let mut initdb = Command::new(bindir.join("initdb"));
            initdb.arg("-D").arg(tmp.join("data")).args(INITDB_ARGS);
            server::run_setup_command(&mut initdb, user, &tmp.join("initdb.log"), "postgres: initdb")
        })?;
        let mut proc = ServerProcess { child: None, dir, log, stop_signal: Some(libc::SIGQUIT) };
        let mut tries = 0;
        let port = loop {
            tries += 1;
            let port = free_port().map_err(|e| SetupError::new(format!("postgres: no free port on 127.0.0.1: {e}")))?;
            let logf = std::fs::File::create(&proc.log)
                .map_err(|e| SetupError::new(format!("postgres: cannot write {}: {e}", proc.log.display())))?;
            let errf = logf.try_clone().map_err(|e| SetupError::new(format!("postgres: {e}")))?;
            let mut cmd = Command::new(bindir.join("postgres"));
            cmd.arg("-D")
                .arg(&data)
                .arg("-k")
                .arg(proc.dir.path())
                .args(["-p", &port.to_string()])
                .args(["-c", "listen_addresses=127.0.0.1"])
                .args(["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"])
                .args(["-c", "autovacuum=off", "-c", "max_connections=20", "-c", "shared_buffers=32MB"])
                .args(["-c", "log_min_messages=warning", "-c", "logging_collector=off"])
                // Dynamic shared memory as files in the data directory, not in /dev/shm, so that
                // nothing outlives the directory.
                .args(["-c", "dynamic_shared_memory_type=mmap"])
                .stdin(std::process::Stdio::null())
                .stdout(logf)
                .stderr(errf);
            proc.child =
                Some(server::spawn_tied_with(&mut cmd, user, libc::SIGQUIT).map_err(|e| {
                    SetupError::new(format!("postgres: cannot start {}/postgres: {e}", bindir.display()))
                })?);
            let mut cfg = Config::new();
            cfg.host("127.0.0.1")
                .port(port)
                .user("postgres")
                .dbname("postgres")
                .connect_timeout(Duration::from_secs(2));
            let r = proc.wait_ready("postgres server", || cfg.connect(NoTls).is_ok());
            match r {
                Ok(()) => break port,
                // Another process took the port between free_port and bind: try another one.
                Err(e) if tries < 3 && e.message.contains("already in use") => {
                    proc.child = None;
                    continue;
                }
                Err(e) => return Err(e),
            }
        };
        Ok((proc, port))
    }

    fn connect_existing(spec: &EngineSpec, url: &str) -> Result<PostgresEngine, SetupError> {
        let admin = Config::from_str(url).map_err(|e| {
            SetupError::new(format!(
                "postgres={url}: not a valid address ({e}); write postgres://USER[:PASSWORD]@HOST:PORT/DB"
            ))
        })?;
        let mut admin = admin;
        if admin.get_connect_timeout().is_none() {
            admin.connect_timeout(server::CONNECT_TIMEOUT);
        }
        let port = admin.get_ports().first().copied().unwrap_or(5432);
        for host in admin.get_hosts() {
            if let postgres::config::Host::Tcp(h) = host {
                // SSLRequest: the server answers one byte, 'S' or 'N'.
                let hello = [0u8, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];
                let probe = server::probe_greeting("postgres", h, port, Some(&hello), |b| match b.first() {
                    Some(b'S' | b'N') => Ok(()),
                    Some(b'E') => Ok(()),
                    Some(_) => Err(format!("it answered {:?}", String::from_utf8_lossy(&b[..b.len().min(12)]))),
                    None => Err("it answered nothing".into()),
                })?;
                if let Probe::Other(why) = probe {
                    return Err(SetupError::new(format!(
                        "postgres: something listens at {h}:{port} but it is not a PostgreSQL server ({why}); check the port in postgres={url}"
                    )));
                }
            }
        }
        let mut client = admin.connect(NoTls).map_err(|e| {
            SetupError::new(format!(
                "postgres: cannot log in to {url}: {}; check the user, password and database",
                one_line(&err_text(&e))
            ))
        })?;
        let db = server::scratch_db_name();
        client.batch_execute(&format!("CREATE DATABASE {db}")).map_err(|e| {
            SetupError::new(format!(
                "postgres: cannot create a scratch database on {url}: {}; the user needs CREATEDB",
                one_line(&err_text(&e))
            ))
        })?;
        drop(client);
        let mut config = admin.clone();
        config.dbname(&db);
        let mut e = PostgresEngine {
            info: EngineInfo::default(),
            home: Home::Existing { admin: Box::new(admin) },
            config,
            db,
            client: None,
            timeout_ms: None,
            watchdog: Watchdog::new(),
        };
        e.finish_open(spec)?;
        Ok(e)
    }

    fn finish_open(&mut self, spec: &EngineSpec) -> Result<(), SetupError> {
        let client = self.client()?;
        let version = client
            .query_one("SELECT 'PostgreSQL ' || current_setting('server_version')", &[])
            .and_then(|r| r.try_get::<_, String>(0))
            .map_err(|e| SetupError::new(format!("postgres: cannot read the server version: {}", err_text(&e))))?;
        self.info = info_for(spec, version, "postgres", &[]);
        self.reset()
    }

    fn client(&mut self) -> Result<&mut Client, SetupError> {
        if self.client.is_none() {
            // After a backend crash the server restarts its backends and recovers: it refuses
            // connections (SQLSTATE 57P03) for a moment.
            let end = Instant::now() + server::START_TIMEOUT;
            let c = loop {
                match self.config.connect(NoTls) {
                    Ok(c) => break c,
                    Err(e) if e.code() == Some(&SqlState::CANNOT_CONNECT_NOW) && Instant::now() < end => {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    Err(e) => {
                        return Err(SetupError::new(format!(
                            "postgres: cannot connect to database {}: {}",
                            self.db,
                            one_line(&err_text(&e))
                        )))
                    }
                }
            };
            self.client = Some(c);
            self.timeout_ms = None;
        }
        self.client.as_mut().ok_or_else(|| SetupError::new("postgres: no connection"))
    }

    fn server_log_tail(&self) -> String {
        match &self.home {
            Home::Private { proc, .. } => server::log_tail(&proc.log, 4096),
            Home::Existing { .. } => String::new(),
        }
    }

    /// The outcome for a client error.
    fn outcome_of(&mut self, e: &postgres::Error, start: Instant, cancelled: bool) -> Outcome {
        if e.code() == Some(&SqlState::QUERY_CANCELED) && (cancelled || err_text(e).contains("statement timeout")) {
            return Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) };
        }
        // 57P01/57P02: the server ends the session (its postmaster died, another backend
        // crashed); otherwise a client error on a closed connection.
        let terminated =
            matches!(e.code(), Some(c) if *c == SqlState::ADMIN_SHUTDOWN || *c == SqlState::CRASH_SHUTDOWN);
        if terminated
            || (e.as_db_error().is_none() && (e.is_closed() || self.client.as_ref().is_some_and(|c| c.is_closed())))
        {
            // The backend died under us (a crash makes the postmaster restart every backend).
            self.client = None;
            let died = match &mut self.home {
                Home::Private { proc, .. } => !proc.alive(),
                Home::Existing { .. } => false,
            };
            std::thread::sleep(Duration::from_millis(100));
            return Outcome::Crash {
                signal: None,
                code: None,
                stderr_tail: format!(
                    "connection lost: {}{}\n{}",
                    err_text(e),
                    if died { " (the server exited)" } else { "" },
                    self.server_log_tail()
                ),
            };
        }
        Outcome::error(err_text(e))
    }

    fn run_inner(client: &mut Client, text: &str) -> Result<Outcome, postgres::Error> {
        let stmt = match client.prepare(text) {
            Ok(s) => s,
            Err(e) if e.code() == Some(&SqlState::SYNTAX_ERROR) && err_text(&e).contains("multiple commands") => {
                // A script: its statements one by one, so that the last result keeps its types.
                let parts = split_statements(text);
                if parts.len() < 2 {
                    return Self::run_simple(client, text, None);
                }
                let mut last = Outcome::Done;
                for p in parts {
                    last = Self::run_inner(client, p)?;
                }
                return Ok(last);
            }
            Err(e) => return Err(e),
        };
        if stmt.columns().is_empty() {
            client.execute(&stmt, &[])?;
            return Ok(Outcome::Done);
        }
        let types: Vec<Type> = stmt.columns().iter().map(|c| c.type_().clone()).collect();
        if !types.iter().all(binary_supported) {
            return Self::run_simple(client, text, Some(&types));
        }
        let columns: Vec<String> = stmt.columns().iter().map(|c| c.name().to_string()).collect();
        let rows = client.query(&stmt, &[])?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut r = Vec::with_capacity(types.len());
            for (i, t) in types.iter().enumerate() {
                r.push(binary_value(row, i, t)?);
            }
            out.push(r);
        }
        Ok(Outcome::Rows(Rows::new(columns, out)))
    }

    /// The simple (text) protocol: for scripts and for types without a binary decoder here.
    fn run_simple(client: &mut Client, text: &str, types: Option<&[Type]>) -> Result<Outcome, postgres::Error> {
        let mut last: Option<Rows> = None;
        let mut current: Option<Rows> = None;
        for m in client.simple_query(text)? {
            match m {
                SimpleQueryMessage::RowDescription(cols) => {
                    current = Some(Rows::new(cols.iter().map(|c| c.name().to_string()).collect(), Vec::new()));
                }
                SimpleQueryMessage::Row(row) => {
                    let cur = current.get_or_insert_with(|| {
                        Rows::new(row.columns().iter().map(|c| c.name().to_string()).collect(), Vec::new())
                    });
                    let r = (0..row.len())
                        .map(|i| match row.get(i) {
                            None => Value::Null,
                            Some(s) => text_value(s, types.and_then(|t| t.get(i))),
                        })
                        .collect();
                    cur.rows.push(r);
                }
                SimpleQueryMessage::CommandComplete(_) => {
                    if let Some(r) = current.take() {
                        last = Some(r);
                    } else {
                        last = None;
                    }
                }
                _ => {}
            }
        }
        Ok(match last.or(current) {
            Some(r) => Outcome::Rows(r),
            None => Outcome::Done,
        })
    }
}

/// Splits a script at the semicolons that end statements: not those in quotes ('', "",
/// $tag$...$tag$) or comments. Empty statements are dropped.
impl GuardedSession for PostgresEngine {
    type Error = postgres::Error;
    const NAME: &'static str = "postgres";

    fn connect(&mut self) -> Result<(), SetupError> {
        self.client().map(|_| ())
    }

    fn disconnect(&mut self) {
        self.client = None;
    }

    fn timeout_ms(&mut self) -> &mut Option<u64> {
        &mut self.timeout_ms
    }

    fn set_timeout(&mut self, ms: u64) -> Result<(), postgres::Error> {
        match self.client.as_mut() {
            Some(c) => c.batch_execute(&format!("SET statement_timeout = {ms}")),
            None => Ok(()),
        }
    }

    fn canceller(&mut self) -> Option<Action> {
        let token = self.client.as_ref()?.cancel_token();
        Some(Box::new(move || {
            let _ = token.cancel_query(NoTls);
        }))
    }

    fn execute(&mut self, text: &str) -> Result<Outcome, postgres::Error> {
        match self.client.as_mut() {
            Some(client) => Self::run_inner(client, text),
            None => Ok(Outcome::error("postgres: no connection")),
        }
    }

    fn outcome_of(&mut self, e: &postgres::Error, start: Instant, cancelled: bool) -> Outcome {
        PostgresEngine::outcome_of(self, e, start, cancelled)
    }

    fn watchdog(&self) -> &Watchdog {
        &self.watchdog
    }
}

impl Engine for PostgresEngine {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        if let Home::Private { proc, bindir, user } = &mut self.home {
            if !proc.alive() {
                // The server died (a crash the campaign recorded): a new one, from the template.
                let (p, port) = Self::launch(bindir, *user)?;
                *proc = p;
                self.config = Self::local_config(port);
                self.client = None;
            }
        }
        // A failure to connect is the error itself; only a failed reset is retried.
        self.client()?;
        server::reset_retrying(self, |this| {
            let client = this.client().map_err(|e| e.message)?;
            client
                .batch_execute("RESET ALL; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
                .map_err(|e| err_text(&e))
        })
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let ms = crosscheck_core::millis(limit).clamp(1, i32::MAX as u64);
        server::run_guarded(self, text, limit, ms)
    }
}

impl Drop for PostgresEngine {
    fn drop(&mut self) {
        self.client = None;
        if let Home::Existing { admin } = &self.home {
            if let Ok(mut c) = admin.connect(NoTls) {
                let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.db));
            }
        }
    }
}
