//! MariaDB through the `mysql` crate (pure Rust, no TLS).
//!
//! Without a location crosscheck starts a private throwaway server: `mariadb-install-db` into a
//! temporary directory and `mariadbd` on 127.0.0.1 and a free port (`--user=root` when crosscheck
//! runs as root), tied to crosscheck so that it dies with it, even after a SIGKILL. With
//! `mariadb=mysql://USER[:PW]@HOST:PORT` it uses that server, in a scratch database of its own
//! that it drops at the end. A location that is a directory (or a binary in it) names where
//! another build's `mariadbd` is.
//!
//! `reset` resets the session (COM_RESET_CONNECTION) and drops and recreates the working
//! database. Timeouts use `max_statement_time`, with `KILL QUERY` from a watchdog as the
//! fallback. Values are typed by their column: integers, DECIMAL as exact decimals, FLOAT and
//! DOUBLE as floats, binary strings as bytes, any other type as its text.
//!
//! The engine around the client (session, timeouts, crashes, resets) is `served`'s; this file
//! is MariaDB's [`Driver`].

use super::served::{Driver, Failure, ServerEngine};
use crate::transport::server::{self, one_line, Action, Probe, ServerProcess};
use crate::{available_if, Entry};
use crosscheck_core::{Availability, Outcome, Rows, SetupError, Value};
use mysql::consts::{ColumnFlags, ColumnType};
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const INSTALL: &str = "scripts/install-sql-engines.sh (or: apt-get install -y mariadb-server)";
/// Text compares byte by byte without padding, as in SQLite and PostgreSQL with the C locale:
/// with MariaDB's default PAD SPACE collations `'' = ' '` is true. Set for the server, the
/// working database and the connection (literals take the connection's collation).
const COLLATION: &str = "utf8mb4_nopad_bin";
/// A small redo log: the default 96 MiB would be copied for every private server.
const INNODB_LOG: &str = "--innodb-log-file-size=8M";
/// `max_statement_time` exceeded.
const ER_STATEMENT_TIMEOUT: u16 = 1969;
/// `KILL QUERY` from the watchdog.
const ER_QUERY_INTERRUPTED: u16 = 1317;

pub static FACTORY: Entry<MariaDb> = Entry {
    name: "mariadb",
    describe: "MariaDB: a private server started by crosscheck (mariadb=/path/to/dir-of-mariadbd for another build), or mariadb=mysql://USER[:PW]@HOST:PORT",
    opener: MariaDb,
};

/// MariaDB's engine.
pub type MariaDbEngine = ServerEngine<MariaDb>;

/// MariaDB as a [`Driver`].
pub struct MariaDb;

/// A MariaDB build's server and the script that makes its data directory.
pub struct Binaries {
    daemon: PathBuf,
    install: PathBuf,
}

/// `mariadbd` and `mariadb-install-db`: beside the location if given, else on the system.
fn find_binaries(location: Option<&str>) -> Result<Binaries, SetupError> {
    let fix = "give a directory holding mariadbd (or its path), or a server address mariadb=mysql://USER@HOST:PORT";
    if let Some(loc) = location {
        let p = Path::new(loc);
        if !p.exists() {
            return Err(SetupError::new(format!("mariadb={loc}: no such file or directory; {fix}")));
        }
        let dir = if p.is_dir() { p.to_path_buf() } else { p.parent().map(Path::to_path_buf).unwrap_or_default() };
        let daemon = if p.is_file() { p.to_path_buf() } else { dir.join("mariadbd") };
        if !daemon.is_file() {
            return Err(SetupError::new(format!("mariadb={loc}: no mariadbd in {}; {fix}", dir.display())));
        }
        let candidates = [
            dir.join("mariadb-install-db"),
            dir.join("../bin/mariadb-install-db"),
            dir.join("../scripts/mariadb-install-db"),
        ];
        let install = candidates
            .into_iter()
            .find(|c| c.is_file())
            .or_else(|| crate::transport::find_tool("mariadb-install-db"))
            .ok_or_else(|| {
                SetupError::new(format!("mariadb={loc}: no mariadb-install-db beside {}", daemon.display()))
            })?;
        return Ok(Binaries { daemon, install });
    }
    let daemon = ["/usr/sbin/mariadbd", "/usr/local/sbin/mariadbd"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .or_else(|| crate::transport::find_tool("mariadbd"))
        .ok_or_else(|| {
            SetupError::new(format!(
                "mariadb: no mariadbd found (looked in /usr/sbin and PATH); install MariaDB with {INSTALL}"
            ))
        })?;
    let install = crate::transport::find_tool("mariadb-install-db")
        .or_else(|| Some(PathBuf::from("/usr/bin/mariadb-install-db")).filter(|p| p.is_file()))
        .ok_or_else(|| {
            SetupError::new(format!("mariadb: no mariadb-install-db found; install MariaDB with {INSTALL}"))
        })?;
    Ok(Binaries { daemon, install })
}

fn server_version(daemon: &Path) -> Result<String, SetupError> {
    let out = Command::new(daemon)
        .arg("--version")
        .output()
        .map_err(|e| SetupError::new(format!("mariadb: cannot run {}: {e}", daemon.display())))?;
    // "mariadbd  Ver 10.11.14-MariaDB-0+deb12u2 for debian-linux-gnu on x86_64 (Debian 12)"
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    Ok(text
        .split_whitespace()
        .skip_while(|w| *w != "Ver")
        .nth(1)
        .map(str::to_string)
        .unwrap_or_else(|| text.trim().to_string()))
}

fn err_text(e: &mysql::Error) -> String {
    match e {
        mysql::Error::MySqlError(m) => format!("{} (error {}, SQLSTATE {})", m.message, m.code, m.state),
        other => other.to_string(),
    }
}

/// The session state every statement of a campaign assumes: the working database, created
/// if it is missing, selected, and the connection's collation.
fn session_script(db: &str) -> String {
    format!(
        "CREATE DATABASE IF NOT EXISTS {db} CHARACTER SET utf8mb4 COLLATE {COLLATION}; USE {db}; \
         SET NAMES utf8mb4 COLLATE {COLLATION}"
    )
}

fn local_opts(port: u16) -> Opts {
    OptsBuilder::new()
        .ip_or_hostname(Some("127.0.0.1"))
        .tcp_port(port)
        .user(Some("root"))
        .prefer_socket(false)
        .tcp_connect_timeout(Some(server::CONNECT_TIMEOUT))
        .into()
}

/// The command of a server on `data` and `port`, its socket and pid file in `dir`.
fn server_command(daemon: &Path, data: &Path, dir: &Path, port: u16) -> Command {
    let mut cmd = Command::new(daemon);
    cmd.arg("--no-defaults")
        .arg(format!("--datadir={}", data.display()))
        .arg(format!("--socket={}", dir.join("mariadb.sock").display()))
        .arg(format!("--pid-file={}", dir.join("mariadbd.pid").display()))
        .arg(format!("--port={port}"))
        .args(["--bind-address=127.0.0.1", "--skip-name-resolve", "--skip-log-bin", "--max-connections=20"])
        .args(["--innodb-buffer-pool-size=32M", "--innodb-flush-log-at-trx-commit=0", "--performance-schema=OFF"])
        .arg(INNODB_LOG)
        .args(["--character-set-server=utf8mb4", "--collation-server", COLLATION]);
    if server::is_root() {
        cmd.arg("--user=root");
    }
    cmd
}

/// A user's server at `url`: its address checked for a MariaDB/MySQL server before the client
/// library gets the chance to hang, the login checked, a scratch database created.
fn existing(url: &str) -> Result<(Opts, Opts, String), SetupError> {
    let normalized = match url.split_once("://") {
        Some(("mariadb" | "mysql", rest)) => format!("mysql://{rest}"),
        _ => {
            return Err(SetupError::new(format!(
                "mariadb={url}: not a server address; write mysql://USER[:PASSWORD]@HOST:PORT"
            )))
        }
    };
    let opts = Opts::from_url(&normalized).map_err(|e| {
        SetupError::new(format!("mariadb={url}: not a valid address ({e}); write mysql://USER[:PASSWORD]@HOST:PORT"))
    })?;
    let Some((host, port)) = server::url_host_port(&normalized, 3306) else {
        return Err(SetupError::new(format!("mariadb={url}: no host; write mysql://USER[:PASSWORD]@HOST:PORT")));
    };
    // A MySQL server greets first: a packet with sequence number 0 holding protocol
    // version 10, or an error packet (0xff).
    let probe = server::probe_greeting("mariadb", &host, port, None, |b| {
        if b.len() < 5 {
            return Err(if b.is_empty() { "it said nothing".into() } else { "its greeting was too short".into() });
        }
        if b[3] == 0 && (b[4] == 10 || b[4] == 0xff) {
            Ok(())
        } else {
            Err(format!("it greeted with {:?}", String::from_utf8_lossy(&b[..b.len().min(12)])))
        }
    })?;
    if let Probe::Other(why) = probe {
        return Err(SetupError::new(format!(
            "mariadb: something listens at {host}:{port} but it is not a MariaDB/MySQL server ({why}); check the port in mariadb={url}"
        )));
    }
    let opts: Opts = OptsBuilder::from_opts(opts)
        .db_name(None::<String>)
        .tcp_connect_timeout(Some(server::CONNECT_TIMEOUT))
        .read_timeout(Some(server::CONNECT_TIMEOUT))
        .prefer_socket(false)
        .into();
    let mut conn = Conn::new(opts.clone()).map_err(|e| {
        SetupError::new(format!(
            "mariadb: cannot log in to {url}: {}; check the user and password",
            one_line(&err_text(&e))
        ))
    })?;
    let db = server::scratch_db_name();
    conn.query_drop(format!("CREATE DATABASE {db}")).map_err(|e| {
        SetupError::new(format!(
            "mariadb: cannot create a scratch database on {url}: {}; the user needs CREATE and DROP",
            one_line(&err_text(&e))
        ))
    })?;
    drop(conn);
    let opts: Opts = OptsBuilder::from_opts(opts).read_timeout(None::<Duration>).into();
    Ok((opts.clone(), opts, db))
}

impl Driver for MariaDb {
    const NAME: &'static str = "mariadb";
    const PRIVATE_DB: &'static str = "crosscheck";
    type Opts = Opts;
    type Conn = Conn;
    type Error = mysql::Error;
    type Binaries = Binaries;

    fn availability() -> Availability {
        let found = find_binaries(None).and_then(|b| server_version(&b.daemon));
        available_if(found.map_err(|e| e.message), INSTALL)
    }

    fn is_address(loc: &str) -> bool {
        loc.contains("://")
    }

    fn binaries(location: Option<&str>) -> Result<Binaries, SetupError> {
        find_binaries(location)
    }

    /// Makes a data directory (a copy of the `mariadb-install-db` template) and starts a
    /// server on it.
    fn launch(binaries: &Binaries) -> Result<(ServerProcess, Opts), SetupError> {
        let Binaries { daemon, install } = binaries;
        let dir = server::PrivateDir::create("mariadb", None)?;
        let data = dir.path().join("data");
        let log = dir.path().join("server.log");
        const INSTALL_ARGS: [&str; 4] =
            ["--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve", INNODB_LOG];
        let key = [server::binary_key(daemon), server::binary_key(install), INSTALL_ARGS.join(" ")];
        server::data_from_template("mariadb", &key, &data, None, |tmp| {
            let mut init = Command::new(install);
            init.arg("--no-defaults").arg(format!("--datadir={}", tmp.join("data").display())).args(INSTALL_ARGS);
            if server::is_root() {
                init.arg("--user=root");
            }
            server::run_setup_command(&mut init, None, &tmp.join("install-db.log"), "mariadb: mariadb-install-db")
        })?;
        let mut proc = ServerProcess { child: None, dir, log, stop_signal: None };
        let home = proc.dir.path().to_path_buf();
        let port = proc.start(
            "mariadb",
            None,
            |port| server_command(daemon, &data, &home, port),
            |port| {
                crate::transport::wait_for_port(port, Instant::now() + Duration::from_millis(50))
                    && Conn::new(local_opts(port)).is_ok()
            },
        )?;
        Ok((proc, local_opts(port)))
    }

    fn existing(url: &str) -> Result<(Opts, Opts, String), SetupError> {
        existing(url)
    }

    fn connect(opts: &Opts, db: &str) -> Result<Conn, SetupError> {
        let mut c = Conn::new(opts.clone())
            .map_err(|e| SetupError::new(format!("mariadb: cannot connect: {}", one_line(&err_text(&e)))))?;
        // A new connection selects no database: one opened after a lost connection (a
        // `KILL`, a dropped socket) or a failed reset would answer the campaign's next
        // statement with "No database selected" (1046). The database may not exist yet
        // (before the first reset), hence IF NOT EXISTS rather than `db_name` in the options.
        c.query_drop(session_script(db)).map_err(|e| {
            SetupError::new(format!("mariadb: cannot select the database {db}: {}", one_line(&err_text(&e))))
        })?;
        Ok(c)
    }

    fn version(conn: &mut Conn) -> Result<String, SetupError> {
        let version: Option<String> = conn
            .query_first("SELECT VERSION()")
            .map_err(|e| SetupError::new(format!("mariadb: cannot read the server version: {}", err_text(&e))))?;
        Ok(format!("MariaDB {}", version.unwrap_or_default()))
    }

    /// Resets the session (COM_RESET_CONNECTION), then drops and recreates the working database.
    fn reset(conn: &mut Conn, db: &str) -> Result<(), String> {
        conn.reset().map_err(|e| err_text(&e))?;
        conn.query_drop(format!("DROP DATABASE IF EXISTS {db}; {}", session_script(db))).map_err(|e| err_text(&e))
    }

    fn set_timeout(conn: &mut Conn, ms: u64) -> Result<(), mysql::Error> {
        conn.query_drop(format!("SET SESSION max_statement_time = {}", ms as f64 / 1000.0))
    }

    fn canceller(conn: &Conn, opts: &Opts) -> Action {
        kill(conn, opts, "QUERY")
    }

    fn terminator(conn: &Conn, opts: &Opts) -> Action {
        kill(conn, opts, "CONNECTION")
    }

    fn execute(conn: &mut Conn, text: &str) -> Result<Outcome, mysql::Error> {
        run_inner(conn, text)
    }

    fn failure(e: &mysql::Error, cancelled: bool, _conn: Option<&Conn>) -> Failure {
        match e {
            mysql::Error::MySqlError(m)
                if m.code == ER_STATEMENT_TIMEOUT || (cancelled && m.code == ER_QUERY_INTERRUPTED) =>
            {
                Failure::Timeout
            }
            mysql::Error::MySqlError(_) => Failure::Refused,
            // An I/O or protocol error: the server (or our connection to it) is gone.
            _ => Failure::Lost,
        }
    }

    fn error_text(e: &mysql::Error) -> String {
        err_text(e)
    }

    /// Drops the scratch database through the engine's connection, or a new one.
    fn drop_scratch(admin: &Opts, conn: Option<Conn>, db: &str) {
        if let Some(mut c) = conn.or_else(|| Self::connect(admin, db).ok()) {
            let _ = c.query_drop(format!("DROP DATABASE IF EXISTS {db}"));
        }
    }

    fn url(opts: &Opts) -> String {
        format!("mysql://{}@{}:{}", opts.get_user().unwrap_or("root"), opts.get_ip_or_hostname(), opts.get_tcp_port())
    }
}

fn run_inner(conn: &mut Conn, text: &str) -> Result<Outcome, mysql::Error> {
    let mut result = conn.query_iter(text)?;
    let mut last: Option<Rows> = None;
    while let Some(set) = result.iter() {
        let cols = set.columns();
        let cols = cols.as_ref();
        if cols.is_empty() {
            // Drain (nothing to read) and forget an earlier result set: a script's last
            // statement decides.
            for r in set {
                r?;
            }
            last = None;
            continue;
        }
        let names: Vec<String> = cols.iter().map(|c| c.name_str().to_string()).collect();
        let kinds: Vec<(ColumnType, ColumnFlags, u16)> =
            cols.iter().map(|c| (c.column_type(), c.flags(), c.character_set())).collect();
        let mut rows = Vec::new();
        for row in set {
            let row = row?;
            let vals = row.unwrap();
            rows.push(vals.into_iter().zip(&kinds).map(|(v, k)| convert(v, k)).collect());
        }
        last = Some(Rows::new(names, rows));
    }
    Ok(match last {
        Some(r) => Outcome::Rows(r),
        None => Outcome::Done,
    })
}

/// The binary character set: such a string is bytes.
const BINARY_CHARSET: u16 = 63;

fn convert(v: mysql::Value, (ty, flags, charset): &(ColumnType, ColumnFlags, u16)) -> Value {
    use ColumnType::*;
    let bytes = match v {
        mysql::Value::NULL => return Value::Null,
        mysql::Value::Bytes(b) => b,
        mysql::Value::Int(i) => return Value::Int(i),
        mysql::Value::UInt(u) => {
            return i64::try_from(u).map(Value::Int).unwrap_or_else(|_| Value::BigInt(u.to_string()))
        }
        mysql::Value::Float(f) => return Value::Float(f.to_string().parse().unwrap_or(f as f64)),
        mysql::Value::Double(d) => return Value::Float(d),
        other => return Value::Text(other.as_sql(true).trim_matches('\'').to_string()),
    };
    let text = || String::from_utf8_lossy(&bytes).into_owned();
    match ty {
        MYSQL_TYPE_TINY | MYSQL_TYPE_SHORT | MYSQL_TYPE_LONG | MYSQL_TYPE_LONGLONG | MYSQL_TYPE_INT24
        | MYSQL_TYPE_YEAR => {
            let t = text();
            t.parse::<i64>().map(Value::Int).unwrap_or(Value::BigInt(t))
        }
        MYSQL_TYPE_DECIMAL | MYSQL_TYPE_NEWDECIMAL => Value::Decimal(text()),
        MYSQL_TYPE_FLOAT | MYSQL_TYPE_DOUBLE => {
            let t = text();
            t.parse::<f64>().map(Value::Float).unwrap_or(Value::Text(t))
        }
        MYSQL_TYPE_BIT => {
            let mut n: u64 = 0;
            for b in bytes.iter().take(8) {
                n = (n << 8) | u64::from(*b);
            }
            i64::try_from(n).map(Value::Int).unwrap_or_else(|_| Value::BigInt(n.to_string()))
        }
        MYSQL_TYPE_NULL => Value::Null,
        MYSQL_TYPE_VARCHAR
        | MYSQL_TYPE_VAR_STRING
        | MYSQL_TYPE_STRING
        | MYSQL_TYPE_TINY_BLOB
        | MYSQL_TYPE_MEDIUM_BLOB
        | MYSQL_TYPE_LONG_BLOB
        | MYSQL_TYPE_BLOB
            if *charset == BINARY_CHARSET && flags.contains(ColumnFlags::BINARY_FLAG) =>
        {
            Value::Bytes(bytes)
        }
        _ => Value::Text(text()),
    }
}

/// `KILL QUERY` or `KILL CONNECTION` of `conn`'s session, sent through a connection of its own.
fn kill(conn: &Conn, opts: &Opts, what: &'static str) -> Action {
    let id = conn.connection_id();
    let opts = opts.clone();
    Box::new(move || {
        if let Ok(mut c) = Conn::new(opts) {
            let _ = c.query_drop(format!("KILL {what} {id}"));
        }
    })
}
