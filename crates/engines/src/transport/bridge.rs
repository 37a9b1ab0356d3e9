//! The one protocol for engines hosted in Python (a library PyPI ships without a usable
//! binary): one long-lived bridge process per engine instance, JSON lines over stdin and
//! stdout, `{"hello": "<version>"}` first, then one reply object per request.
//!
//! Invariants, each of which fixed a real bug: the bridge writes its replies on a private copy
//! of stdout and points fd 1 at stderr, so output the engine writes itself (DuckDB's progress
//! bar) cannot shift replies onto the wrong requests; and a line that is not a reply object
//! retires the bridge (it is killed, never trusted again), since every later reply would answer
//! the request before it. The bridge is in its own process group and dies with the thread that
//! started it (a parent-death signal).

use super::process::{LineProcess, ReadError};
use crosscheck_core::{Outcome, SetupError};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The Python host and one module per library (`crates/engines/bridge/`), run with
/// `python -I -c HOST <module>`: adding a library is one file there and one line here.
pub const HOST: &str = concat!(
    include_str!("../../bridge/host.py"),
    "\n",
    include_str!("../../bridge/sqldb.py"),
    "\n",
    include_str!("../../bridge/duckdb.py"),
    "\n",
    include_str!("../../bridge/turso.py"),
    "\n",
    include_str!("../../bridge/sqlite.py"),
    "\n",
    include_str!("../../bridge/cozo.py"),
    "\n",
    include_str!("../../bridge/smtlib.py"),
    "\n",
    include_str!("../../bridge/cvc5.py"),
    "\n",
    include_str!("../../bridge/bitwuzla.py"),
    "\n",
    include_str!("../../bridge/nemo.py"),
    "\n",
    include_str!("../../bridge/rdfhost.py"),
    "\n",
    include_str!("../../bridge/rdflib.py"),
    "\n",
    include_str!("../../bridge/pyoxigraph.py"),
    "\n",
    include_str!("../../bridge/graphdb.py"),
    "\nsys.exit(main())\n",
);

/// A library the Python host runs, in the words its errors use.
#[derive(Clone, Copy)]
pub struct Library {
    /// The host module to run (`python -I -c HOST MODULE`).
    pub host: &'static str,
    /// The product's name and the Python module it needs.
    pub product: &'static str,
    pub module: &'static str,
    pub install: &'static str,
}

/// What starting a bridge needs.
pub struct Launch<'a> {
    pub python: &'a Path,
    pub lib: &'a Library,
    /// The engine as the user wrote it (`duckdb`, `duckdb=/opt/venv`), for messages.
    pub what: &'a str,
    /// The engine's name in the registry.
    pub name: &'a str,
    /// How long the interpreter and the import may take.
    pub start_timeout: Duration,
}

/// The Python a LOCATION names for the engine `name` hosting `lib`: a virtualenv directory (its
/// `bin/python3` or `bin/python`; a directory holding `python3` or `python` does too) or a
/// Python binary. `shell` is the name of the library's own command-line shell, which users
/// give by mistake and which is no Python.
pub fn python_at(name: &str, lib: &Library, location: &str, shell: Option<&str>) -> Result<PathBuf, SetupError> {
    let fix = format!(
        "give a virtualenv with the {m} module ({name}=/path/to/venv) or its python ({name}=/path/to/venv/bin/python)",
        m = lib.module
    );
    let p = Path::new(location);
    if p.is_dir() {
        return ["bin/python3", "bin/python", "python3", "python"]
            .iter()
            .map(|c| p.join(c))
            .find(|c| c.is_file())
            .ok_or_else(|| SetupError::new(format!("{name}={location}: no bin/python in this directory; {fix}")));
    }
    if !p.is_file() {
        return Err(SetupError::new(format!("{name}={location}: no such file or directory; {fix}")));
    }
    if shell.is_some_and(|sh| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(sh))) {
        return Err(SetupError::new(format!(
            "{name}={location}: that is the {} command-line shell; crosscheck drives {} through its Python module: {fix}",
            lib.product, lib.product
        )));
    }
    Ok(p.to_path_buf())
}

/// Why a request got no reply.
#[derive(Debug, PartialEq, Eq)]
pub enum BridgeError {
    Timeout,
    /// The bridge's stdout closed: it exited or crashed.
    Closed,
    /// The bridge wrote a line that is not a reply (up to 200 characters of it); it was killed.
    NotAReply(String),
}

/// A running bridge.
pub struct Bridge {
    proc: LineProcess,
}

impl Bridge {
    /// Starts a bridge and reads its hello: the bridge and the version it reported.
    pub fn spawn(l: &Launch<'_>) -> Result<(Bridge, String), SetupError> {
        Self::spawn_preloaded(l, None)
    }

    /// Starts a bridge with a shared library preloaded (`sqlite=/path/libsqlite3.so`): the
    /// library's symbols win over those the Python module links to. Its path is passed on as
    /// CROSSCHECK_SQLITE_LIBRARY, so the module can check the preload took.
    pub fn spawn_preloaded(l: &Launch<'_>, preload: Option<&Path>) -> Result<(Bridge, String), SetupError> {
        let mut cmd = Command::new(l.python);
        cmd.args(["-I", "-c", HOST, l.lib.host]);
        if let Some(lib) = preload {
            cmd.env("LD_PRELOAD", lib).env("CROSSCHECK_SQLITE_LIBRARY", lib);
        }
        Self::spawn_command(cmd, l)
    }

    /// Starts a bridge that another interpreter runs (`l.python` names it in messages): the
    /// Node host of Comunica speaks the same protocol.
    pub fn spawn_command(mut cmd: Command, l: &Launch<'_>) -> Result<(Bridge, String), SetupError> {
        // Dies with crosscheck: the bridge is in its own process group (LineProcess) and tied
        // to this thread by a parent-death signal.
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
                if libc::getppid() != parent {
                    return Err(std::io::Error::other("parent exited"));
                }
                Ok(())
            });
        }
        let mut p = LineProcess::spawn(&mut cmd)
            .map_err(|e| SetupError::new(format!("{}: cannot run {}: {e}", l.what, l.python.display())))?;
        match p.recv_line(Instant::now() + l.start_timeout) {
            Ok(line) => {
                let v: Json = serde_json::from_str(&line).unwrap_or(Json::Null);
                match v.get("hello").and_then(Json::as_str) {
                    Some(version) => Ok((Bridge { proc: p }, version.to_string())),
                    None => Err(SetupError::new(format!(
                        "{}: {} is not a {} bridge (said: {line})",
                        l.what,
                        l.python.display(),
                        l.lib.product
                    ))),
                }
            }
            Err(ReadError::Timeout) => Err(SetupError::new(format!(
                "{}: the {} bridge did not start within {}s",
                l.what,
                l.lib.product,
                l.start_timeout.as_secs()
            ))),
            Err(ReadError::Closed) => Err(start_failure(l, &mut p)),
        }
    }

    /// Sends one request and reads its reply object.
    pub fn request(&mut self, req: &Json, deadline: Instant) -> Result<Json, BridgeError> {
        if self.proc.send(&req.to_string()).is_err() {
            return Err(BridgeError::Closed);
        }
        let line = self.proc.recv_line(deadline).map_err(|e| match e {
            ReadError::Timeout => BridgeError::Timeout,
            ReadError::Closed => BridgeError::Closed,
        })?;
        match serde_json::from_str::<Json>(&line) {
            Ok(reply) if reply.is_object() => Ok(reply),
            _ => {
                self.kill();
                Err(BridgeError::NotAReply(line.chars().take(200).collect()))
            }
        }
    }

    /// Asks the host to empty its library's state (a fresh database or store); whether it said
    /// it did. A bridge that did not is to be replaced.
    pub fn reset(&mut self, deadline: Instant) -> bool {
        matches!(self.request(&serde_json::json!({"op": "reset"}), deadline), Ok(r) if r.get("done").is_some())
    }

    /// The bridge's process id (tests kill it to check crash handling).
    pub fn pid(&mut self) -> u32 {
        self.proc.guard_mut().id()
    }

    /// Kills the bridge's process group and reaps it.
    pub fn kill(&mut self) {
        self.proc.guard_mut().kill();
    }

    /// The crash outcome of a bridge that stopped answering.
    pub fn crash_outcome(&mut self) -> Outcome {
        self.proc.crash_outcome()
    }
}

/// The setup error of a bridge that exited before its hello: a missing module says how to
/// install it.
fn start_failure(l: &Launch<'_>, p: &mut LineProcess) -> SetupError {
    let tail = match p.crash_outcome() {
        Outcome::Crash { stderr_tail, .. } => stderr_tail,
        _ => String::new(),
    };
    let last = tail
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .unwrap_or_else(|| "it printed nothing".into());
    let lib = l.lib;
    if last.contains(&format!("No module named '{}'", lib.module)) {
        SetupError::new(format!(
            "{}: {} cannot import the {} module; install it with {}",
            l.what,
            l.python.display(),
            lib.module,
            lib.install
        ))
    } else {
        SetupError::new(format!(
            "{}: the {} bridge exited at start under {} ({last}); give a virtualenv with the {} module ({}=/path/to/venv)",
            l.what,
            lib.product,
            l.python.display(),
            lib.module,
            l.name
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_holds_every_module_file() {
        // A module file left out of HOST would be a library no engine can start.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("bridge");
        let entries = std::fs::read_dir(&dir).expect("bridge directory");
        let mut files = 0;
        for entry in entries {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "py") {
                let text = std::fs::read_to_string(&path).expect("module text");
                assert!(HOST.contains(&text), "{} is not in HOST", path.display());
                files += 1;
            }
        }
        assert!(files >= 5, "{files} module files");
    }
}
