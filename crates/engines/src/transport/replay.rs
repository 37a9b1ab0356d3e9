//! A bridge whose host keeps its engine's state in memory (an RDF store, a graph database).
//! A host that had to be killed (a request past its limit that it could not interrupt) or
//! that died takes that state with it, so the requests that built the state since the last
//! reset are kept and replayed into the next host: one slow query does not empty the store
//! under the leg's next query.

use super::bridge::{Bridge, BridgeError, Launch, Library};
use crosscheck_core::{Outcome, SetupError};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a host may take to start (interpreter, imports), to reset or to replay a request.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The limit (`timeout_ms`) a recorded request runs under when it is replayed.
pub const REPLAY_MS: u64 = 60_000;

/// Builds the command that runs the host, once per start.
pub type HostCommand = Box<dyn Fn() -> Result<Command, SetupError> + Send>;

/// A host process and the requests that rebuild its state.
pub struct Replaying {
    name: &'static str,
    lib: Library,
    /// The engine as the user wrote it, for messages.
    what: String,
    interpreter: PathBuf,
    command: HostCommand,
    bridge: Option<Bridge>,
    log: Vec<Json>,
}

impl Replaying {
    /// Starts the host: the bridge and the version it reports.
    pub fn start(
        name: &'static str,
        lib: Library,
        location: Option<&str>,
        interpreter: PathBuf,
        command: HostCommand,
    ) -> Result<(Replaying, String), SetupError> {
        let what = location.map(|l| format!("{name}={l}")).unwrap_or_else(|| name.into());
        let mut r = Replaying { name, lib, what, interpreter, command, bridge: None, log: Vec::new() };
        let version = r.spawn()?;
        Ok((r, version))
    }

    fn spawn(&mut self) -> Result<String, SetupError> {
        let launch = Launch {
            python: &self.interpreter,
            lib: &self.lib,
            what: &self.what,
            name: self.name,
            start_timeout: START_TIMEOUT,
        };
        let (bridge, version) = Bridge::spawn_command((self.command)()?, &launch)?;
        self.bridge = Some(bridge);
        Ok(version)
    }

    /// Keeps `req` (a request that changed the state and answered `done`) for the next host.
    pub fn record(&mut self, req: Json) {
        self.log.push(req);
    }

    /// Drops the host; the next request starts a new one and replays the log into it.
    pub fn drop_bridge(&mut self) {
        if let Some(mut b) = self.bridge.take() {
            b.kill();
        }
    }

    /// Back to an empty state: the host's own reset, else a new host.
    pub fn reset(&mut self) -> Result<(), SetupError> {
        self.log.clear();
        if self.bridge.as_mut().is_some_and(|b| b.reset(Instant::now() + START_TIMEOUT)) {
            return Ok(());
        }
        self.drop_bridge();
        self.spawn().map(|_| ())
    }

    /// A host holding the state as it was, or an error outcome saying why there is none.
    fn ready(&mut self) -> Result<(), Outcome> {
        if self.bridge.is_some() {
            return Ok(());
        }
        self.spawn().map_err(|e| Outcome::error(format!("{}: cannot restart: {e}", self.name)))?;
        for req in self.log.clone() {
            match self.bridge.as_mut().map(|b| b.request(&req, Instant::now() + START_TIMEOUT)) {
                Some(Ok(r)) if r.get("done").is_some() => {}
                other => {
                    self.drop_bridge();
                    return Err(Outcome::error(format!(
                        "{}: replaying its state into a new bridge failed: {other:?}",
                        self.name
                    )));
                }
            }
        }
        Ok(())
    }

    /// Sends `req` (started at `start`, to be answered by `deadline`): the reply, or the
    /// outcome of a host that did not give one (a timeout, a crash, a line that is no reply).
    pub fn call(&mut self, req: &Json, start: Instant, deadline: Instant) -> Result<Json, Outcome> {
        self.ready()?;
        let Some(bridge) = self.bridge.as_mut() else {
            return Err(Outcome::Crash { signal: None, code: None, stderr_tail: String::new() });
        };
        match bridge.request(req, deadline) {
            Ok(reply) => Ok(reply),
            Err(BridgeError::Timeout) => {
                // Still busy: it cannot take the next request, so a new one will.
                self.drop_bridge();
                Err(Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) })
            }
            Err(BridgeError::Closed) => Err(match self.bridge.take() {
                Some(mut b) => b.crash_outcome(),
                None => Outcome::Crash { signal: None, code: None, stderr_tail: String::new() },
            }),
            Err(BridgeError::NotAReply(shown)) => {
                self.bridge = None;
                Err(Outcome::error(format!("{} bridge: a line that is not a reply: {shown}", self.name)))
            }
        }
    }
}
