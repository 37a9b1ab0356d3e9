//! An SQL engine on a database server (PostgreSQL, MariaDB): a private throwaway server that
//! crosscheck starts (`crate::transport::server`), or a user's server at an address, in a
//! scratch database of its own that it drops at the end. One client session runs the
//! statements, with the session's own statement timeout and, for a server that does not honour
//! it, a watchdog that cancels from outside and, if the statement survives the cancel too,
//! kills a private server (on a user's server: ends the session) — a timeout, after which the
//! next reset starts a new server, as after a crash; a lost connection is a crash outcome with the
//! server's log, and the next reset starts a new server if the private one died. Until then
//! its working database is gone, and statements get an expected error (as a bridged engine's
//! do after a crash), not one crash finding each. What differs between servers is their
//! [`Driver`].

use crate::transport::server::{self, Action, ServerProcess, Watchdog, CANCEL_GRACE, KILL_GRACE, LOG_CAP};
use crate::Opener;
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, ErrorClass, Outcome, SetupError};
use std::time::{Duration, Instant};

/// What a client error means.
pub enum Failure {
    /// The statement ran out of time (the session's timeout, or the watchdog's cancel).
    Timeout,
    /// The connection, or the server, is gone.
    Lost,
    /// The server refused the statement: an answer like any other.
    Refused,
}

/// One server product: how to find, start and reach it, and how its client talks.
pub trait Driver: Sync + 'static {
    /// The engine's name, and the dialect it speaks.
    const NAME: &'static str;
    /// The working database on a private server.
    const PRIVATE_DB: &'static str;
    /// How to connect to a server (as the driver's client takes it).
    type Opts: Send;
    type Conn: Send;
    type Error;
    /// The binaries of a private server, kept to start it again after it died.
    type Binaries: Send;

    /// Whether the system's server is here, and its version.
    fn availability() -> Availability;
    /// Whether a location is a server address (else it names another build's binaries).
    fn is_address(location: &str) -> bool;
    /// The binaries a location names, else the system's.
    fn binaries(location: Option<&str>) -> Result<Self::Binaries, SetupError>;
    /// Makes a data directory and starts a server on it: the server and how to connect to it.
    fn launch(binaries: &Self::Binaries) -> Result<(ServerProcess, Self::Opts), SetupError>;
    /// Logs in to the user's server at `url` and creates a scratch database there: how to log
    /// in again to drop it, how to connect to it, and its name.
    fn existing(url: &str) -> Result<(Self::Opts, Self::Opts, String), SetupError>;
    /// A new connection to the working database `db`.
    fn connect(opts: &Self::Opts, db: &str) -> Result<Self::Conn, SetupError>;
    fn version(conn: &mut Self::Conn) -> Result<String, SetupError>;
    /// Empties the working database `db` and resets the session's settings.
    fn reset(conn: &mut Self::Conn, db: &str) -> Result<(), String>;
    /// Sets the session's own statement timeout.
    fn set_timeout(conn: &mut Self::Conn, ms: u64) -> Result<(), Self::Error>;
    /// The server-side cancel of the statement `conn` runs.
    fn canceller(conn: &Self::Conn, opts: &Self::Opts) -> Action;
    /// What ends the session `conn` on a user's server when its statement survived the cancel.
    fn terminator(conn: &Self::Conn, opts: &Self::Opts) -> Action {
        Self::canceller(conn, opts)
    }
    fn execute(conn: &mut Self::Conn, text: &str) -> Result<Outcome, Self::Error>;
    /// What a client error means; `cancelled` when the watchdog fired.
    fn failure(e: &Self::Error, cancelled: bool, conn: Option<&Self::Conn>) -> Failure;
    fn error_text(e: &Self::Error) -> String;
    /// Drops the scratch database `db` of a user's server, given the engine's connection if it
    /// had one and how to log in.
    fn drop_scratch(admin: &Self::Opts, conn: Option<Self::Conn>, db: &str);
    /// The server's address, as the engine's location takes it.
    fn url(opts: &Self::Opts) -> String;
}

/// Where the working database lives.
enum Home<D: Driver> {
    /// A private server: stopped and deleted on drop; started again by `reset` if it died.
    Private { proc: ServerProcess, binaries: D::Binaries },
    /// A user's server: the scratch database is dropped on drop, logged in with `admin`.
    Existing { admin: D::Opts },
}

/// The engine of a server product `D`.
pub struct ServerEngine<D: Driver> {
    info: EngineInfo,
    home: Home<D>,
    /// How to connect to the working database.
    opts: D::Opts,
    db: String,
    conn: Option<D::Conn>,
    /// The statement timeout the session has, in ms (none on a new or reset session).
    timeout_ms: Option<u64>,
    watchdog: Watchdog,
    /// The private server died (a crash already reported): its database is gone until the next
    /// reset starts a new one.
    dead: bool,
}

impl<D: Driver> Opener for D {
    fn availability(&self, _name: &'static str) -> Availability {
        D::availability()
    }

    fn open(&self, _name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        Ok(Box::new(ServerEngine::<D>::open(spec)?))
    }
}

impl<D: Driver> ServerEngine<D> {
    /// Starts a private server, or connects to the one the spec's location names.
    pub fn open(spec: &EngineSpec) -> Result<ServerEngine<D>, SetupError> {
        let (home, opts, db) = match spec.location.as_deref() {
            Some(url) if D::is_address(url) => {
                let (admin, opts, db) = D::existing(url)?;
                (Home::Existing { admin }, opts, db)
            }
            location => {
                let binaries = D::binaries(location)?;
                let (proc, opts) = D::launch(&binaries)?;
                (Home::Private { proc, binaries }, opts, D::PRIVATE_DB.to_string())
            }
        };
        let mut e = ServerEngine {
            info: EngineInfo::default(),
            home,
            opts,
            db,
            conn: None,
            timeout_ms: None,
            watchdog: Watchdog::new(),
            dead: false,
        };
        let version = D::version(e.connect()?)?;
        e.info = info_for(spec, version, D::NAME, &[]);
        e.reset()?;
        Ok(e)
    }

    /// The process id of the private server (none for a user's server).
    pub fn server_pid(&self) -> Option<u32> {
        match &self.home {
            Home::Private { proc, .. } => proc.child.as_ref().map(|c| c.id()),
            Home::Existing { .. } => None,
        }
    }

    /// The address of the server, as the engine's location takes it.
    pub fn url(&self) -> String {
        D::url(&self.opts)
    }

    /// The session's connection, opened if there is none.
    fn connect(&mut self) -> Result<&mut D::Conn, SetupError> {
        let conn = match self.conn.take() {
            Some(conn) => conn,
            None => {
                self.timeout_ms = None;
                D::connect(&self.opts, &self.db)?
            }
        };
        Ok(self.conn.insert(conn))
    }

    /// Runs `text` with the session's timeout at `limit`, and a watchdog cancel in case the
    /// server does not honour it.
    fn run_guarded(&mut self, text: &str, limit: Duration) -> Outcome {
        if self.dead {
            let message = format!(
                "{}: the private server crashed or was stopped earlier; its database is gone until the next reset",
                D::NAME
            );
            return Outcome::Error { message, class: ErrorClass::Expected };
        }
        let start = Instant::now();
        // PostgreSQL's setting is an int.
        let ms = crosscheck_core::millis(limit).clamp(1, i32::MAX as u64);
        if let Err(e) = self.connect() {
            self.dead = self.server_died();
            return Outcome::Crash { signal: None, code: None, stderr_tail: e.message };
        }
        let Some(conn) = self.conn.as_mut() else { return Outcome::error(format!("{}: no connection", D::NAME)) };
        // Armed before the timeout is set: a server that stopped answering hangs that too.
        let cancel = start + limit + CANCEL_GRACE;
        let stops = match &self.home {
            Home::Private { proc, .. } => proc.stops(),
            Home::Existing { .. } => vec![D::terminator(conn, &self.opts)],
        };
        let mut stages = vec![(cancel, D::canceller(conn, &self.opts))];
        stages.extend(stops.into_iter().zip(1..).map(|(stop, n)| (cancel + KILL_GRACE * n, stop)));
        let ticket = self.watchdog.arm(stages);
        let r = match self.timeout_ms {
            Some(set) if set == ms => D::execute(conn, text),
            _ => D::set_timeout(conn, ms).and_then(|()| {
                self.timeout_ms = Some(ms);
                D::execute(conn, text)
            }),
        };
        match (self.watchdog.disarm(ticket), r) {
            (2.., _) => self.abandon(start),
            (_, Ok(o)) => o,
            (fired, Err(e)) => self.outcome_of(&e, start, fired > 0),
        }
    }

    /// The statement survived its cancel and the watchdog stopped the server (or ended the
    /// session): a timeout. A private server is gone until the next reset starts a new one.
    fn abandon(&mut self, start: Instant) -> Outcome {
        self.conn = None;
        self.timeout_ms = None;
        if let Home::Private { proc, .. } = &mut self.home {
            proc.wait_exit(Duration::from_secs(10));
            self.dead = true;
        }
        Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) }
    }

    fn outcome_of(&mut self, e: &D::Error, start: Instant, cancelled: bool) -> Outcome {
        match D::failure(e, cancelled, self.conn.as_ref()) {
            Failure::Timeout => Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) },
            Failure::Refused => Outcome::error(D::error_text(e)),
            Failure::Lost => {
                self.conn = None;
                // A server that crashed takes a moment to exit (MariaDB writes its stack
                // first): give it up to a second before calling it alive.
                for _ in 0..20 {
                    if matches!(self.home, Home::Existing { .. }) || self.server_died() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                let log = match &self.home {
                    Home::Private { proc, .. } => server::log_tail(&proc.log, 4096),
                    Home::Existing { .. } => String::new(),
                };
                self.dead = self.server_died();
                let died = if self.dead { " (the server exited)" } else { "" };
                let stderr_tail = format!("connection lost: {}{died}\n{log}", D::error_text(e));
                Outcome::Crash { signal: None, code: None, stderr_tail }
            }
        }
    }

    /// Whether the private server is no longer running (a user's server is never ours to
    /// restart).
    fn server_died(&mut self) -> bool {
        match &mut self.home {
            Home::Private { proc, .. } => !proc.alive(),
            Home::Existing { .. } => false,
        }
    }

    /// One reset of the working database, on the session's connection.
    fn reset_session(&mut self) -> Result<(), String> {
        self.connect().map_err(|e| e.message)?;
        match self.conn.as_mut() {
            Some(conn) => D::reset(conn, &self.db),
            None => Err("no connection".into()),
        }
    }
}

impl<D: Driver> Engine for ServerEngine<D> {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// A failure to connect is the error itself; a failed reset is tried once more on a new
    /// connection, since the old one may have been lost with a crash. A connection whose second
    /// reset failed too is dropped: it may be half reset (MariaDB: its database dropped and not
    /// yet created and selected), and the next statement should open a new one.
    fn reset(&mut self) -> Result<(), SetupError> {
        if let Home::Private { proc, binaries } = &mut self.home {
            proc.trim_log(LOG_CAP);
            if !proc.alive() {
                // The server died (a crash the campaign recorded): a new one, from the template.
                let (p, opts) = D::launch(binaries)?;
                *proc = p;
                self.opts = opts;
                self.conn = None;
            }
        }
        self.dead = false;
        self.connect()?;
        if let Err(first) = self.reset_session() {
            self.conn = None;
            if let Err(e) = self.reset_session() {
                self.conn = None;
                return Err(SetupError::new(format!("{}: reset failed: {e} (before: {first})", D::NAME)));
            }
        }
        self.timeout_ms = None;
        Ok(())
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.run_guarded(text, limit)
    }
}

impl<D: Driver> Drop for ServerEngine<D> {
    fn drop(&mut self) {
        let conn = self.conn.take();
        if let Home::Existing { admin } = &self.home {
            D::drop_scratch(admin, conn, &self.db);
        }
    }
}
