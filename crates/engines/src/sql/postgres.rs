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
//!
//! The engine around the client (session, timeouts, crashes, resets) is `served`'s; this file
//! is PostgreSQL's [`Driver`].

use super::pgwire::{binary_supported, binary_value, split_statements, text_value};
use super::served::{Driver, Failure, ServerEngine};
use crate::transport::server::{self, one_line, Action, Probe, ServerProcess};
use crate::{available_if, Entry};
use crosscheck_core::{Availability, Outcome, Rows, SetupError, Value};
use postgres::error::SqlState;
use postgres::types::Type;
use postgres::{Client, Config, NoTls, SimpleQueryMessage};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::time::{Duration, Instant};

const INSTALL: &str = "scripts/install-sql-engines.sh (or: apt-get install -y postgresql)";

pub static FACTORY: Entry<Postgres> = Entry {
    name: "postgres",
    describe: "PostgreSQL: a private server started by crosscheck (postgres=/path/to/bin for another build), or postgres=postgres://USER@HOST:PORT/DB",
    opener: Postgres,
};

/// PostgreSQL's engine.
pub type PostgresEngine = ServerEngine<Postgres>;

/// PostgreSQL as a [`Driver`].
pub struct Postgres;

/// A PostgreSQL build's `bin` directory, and the OS user its server runs as when crosscheck
/// runs as root (PostgreSQL refuses root).
pub struct Build {
    bindir: PathBuf,
    user: Option<(u32, u32)>,
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

fn local_config(port: u16) -> Config {
    let mut config = Config::new();
    config.host("127.0.0.1").port(port).user("postgres").dbname("postgres").connect_timeout(server::CONNECT_TIMEOUT);
    config
}

/// The command of a server on `data` and `port`, its sockets in `dir`.
fn server_command(bindir: &Path, data: &Path, dir: &Path, port: u16) -> Command {
    let mut cmd = Command::new(bindir.join("postgres"));
    cmd.arg("-D")
        .arg(data)
        .arg("-k")
        .arg(dir)
        .args(["-p", &port.to_string()])
        .args(["-c", "listen_addresses=127.0.0.1"])
        .args(["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"])
        .args(["-c", "autovacuum=off", "-c", "max_connections=20", "-c", "shared_buffers=32MB"])
        .args(["-c", "log_min_messages=warning", "-c", "logging_collector=off"])
        // Dynamic shared memory as files in the data directory, not in /dev/shm, so that
        // nothing outlives the directory.
        .args(["-c", "dynamic_shared_memory_type=mmap"]);
    cmd
}

/// A user's server at `url`: its address checked for a PostgreSQL server before the client
/// library gets the chance to hang, the login checked, a scratch database created.
fn existing(url: &str) -> Result<(Config, Config, String), SetupError> {
    let mut admin = Config::from_str(url).map_err(|e| {
        SetupError::new(format!(
            "postgres={url}: not a valid address ({e}); write postgres://USER[:PASSWORD]@HOST:PORT/DB"
        ))
    })?;
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
    Ok((admin, config, db))
}

impl Driver for Postgres {
    const NAME: &'static str = "postgres";
    const PRIVATE_DB: &'static str = "postgres";
    type Opts = Config;
    type Conn = Client;
    type Error = postgres::Error;
    type Binaries = Build;

    fn availability() -> Availability {
        available_if(find_bindir().and_then(|d| server_version(&d)).map_err(|e| e.message), INSTALL)
    }

    fn is_address(loc: &str) -> bool {
        loc.starts_with("postgres://") || loc.starts_with("postgresql://") || loc.contains("host=")
    }

    fn binaries(location: Option<&str>) -> Result<Build, SetupError> {
        let bindir = match location {
            Some(loc) => bindir_from_location(loc)?,
            None => find_bindir()?,
        };
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
        Ok(Build { bindir, user })
    }

    /// Makes a data directory (a copy of the `initdb` template) and starts a server on it.
    fn launch(build: &Build) -> Result<(ServerProcess, Config), SetupError> {
        let Build { bindir, user } = build;
        let user = *user;
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
        let sockets = proc.dir.path().to_path_buf();
        let port = proc.start(
            "postgres",
            user,
            |port| server_command(bindir, &data, &sockets, port),
            |port| local_config(port).connect_timeout(Duration::from_secs(2)).connect(NoTls).is_ok(),
        )?;
        Ok((proc, local_config(port)))
    }

    fn existing(url: &str) -> Result<(Config, Config, String), SetupError> {
        existing(url)
    }

    fn connect(config: &Config, db: &str) -> Result<Client, SetupError> {
        // After a backend crash the server restarts its backends and recovers: it refuses
        // connections (SQLSTATE 57P03) for a moment.
        let end = Instant::now() + server::START_TIMEOUT;
        loop {
            match config.connect(NoTls) {
                Ok(c) => return Ok(c),
                Err(e) if e.code() == Some(&SqlState::CANNOT_CONNECT_NOW) && Instant::now() < end => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => {
                    return Err(SetupError::new(format!(
                        "postgres: cannot connect to database {db}: {}",
                        one_line(&err_text(&e))
                    )))
                }
            }
        }
    }

    fn version(client: &mut Client) -> Result<String, SetupError> {
        client
            .query_one("SELECT 'PostgreSQL ' || current_setting('server_version')", &[])
            .and_then(|r| r.try_get::<_, String>(0))
            .map_err(|e| SetupError::new(format!("postgres: cannot read the server version: {}", err_text(&e))))
    }

    /// Drops and recreates the `public` schema (measured faster than DROP/CREATE DATABASE).
    fn reset(client: &mut Client, _db: &str) -> Result<(), String> {
        client
            .batch_execute("RESET ALL; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
            .map_err(|e| err_text(&e))
    }

    fn set_timeout(client: &mut Client, ms: u64) -> Result<(), postgres::Error> {
        client.batch_execute(&format!("SET statement_timeout = {ms}"))
    }

    fn canceller(client: &Client, _config: &Config) -> Action {
        let token = client.cancel_token();
        Box::new(move || {
            let _ = token.cancel_query(NoTls);
        })
    }

    fn execute(client: &mut Client, text: &str) -> Result<Outcome, postgres::Error> {
        run_inner(client, text)
    }

    fn failure(e: &postgres::Error, cancelled: bool, client: Option<&Client>) -> Failure {
        if e.code() == Some(&SqlState::QUERY_CANCELED) && (cancelled || err_text(e).contains("statement timeout")) {
            return Failure::Timeout;
        }
        // 57P01/57P02: the server ends the session (its postmaster died, another backend
        // crashed, which makes the postmaster restart every backend); otherwise a client error
        // on a closed connection.
        let terminated =
            matches!(e.code(), Some(c) if *c == SqlState::ADMIN_SHUTDOWN || *c == SqlState::CRASH_SHUTDOWN);
        if terminated || (e.as_db_error().is_none() && (e.is_closed() || client.is_some_and(|c| c.is_closed()))) {
            Failure::Lost
        } else {
            Failure::Refused
        }
    }

    fn error_text(e: &postgres::Error) -> String {
        err_text(e)
    }

    fn drop_scratch(admin: &Config, client: Option<Client>, db: &str) {
        drop(client);
        if let Ok(mut c) = admin.connect(NoTls) {
            let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
        }
    }

    fn url(config: &Config) -> String {
        let host = match config.get_hosts().first() {
            Some(postgres::config::Host::Tcp(h)) => h.clone(),
            _ => "localhost".into(),
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let user = config.get_user().unwrap_or("postgres");
        format!("postgres://{user}@{host}:{port}/postgres")
    }
}

fn run_inner(client: &mut Client, text: &str) -> Result<Outcome, postgres::Error> {
    let stmt = match client.prepare(text) {
        Ok(s) => s,
        Err(e) if e.code() == Some(&SqlState::SYNTAX_ERROR) && err_text(&e).contains("multiple commands") => {
            // A script: its statements one by one, so that the last result keeps its types.
            let parts = split_statements(text);
            if parts.len() < 2 {
                return run_simple(client, text, None);
            }
            let mut last = Outcome::Done;
            for p in parts {
                last = run_inner(client, p)?;
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
        return run_simple(client, text, Some(&types));
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
