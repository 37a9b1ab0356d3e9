//! Child processes for engines that run outside crosscheck: solvers, bridges, servers.
//!
//! Every child is a core [`ChildGuard`] (own process group, killed with it and reaped on drop,
//! on every path). Its stdout is read line by line on a thread so reads can time out; its
//! stderr is a core [`Tail`], kept for crash findings.

pub use crosscheck_core::process::{ChildGuard, Tail};
use crosscheck_core::{Outcome, SetupError};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Why a line could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    Timeout,
    /// stdout closed: the process exited or crashed.
    Closed,
}

/// A long-lived child spoken to in lines over stdin and stdout (a solver in interactive
/// mode, a JSON-lines bridge).
pub struct LineProcess {
    guard: ChildGuard,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Tail,
}

impl LineProcess {
    pub fn spawn(cmd: &mut Command) -> io::Result<LineProcess> {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut guard = ChildGuard::spawn(cmd)?;
        let child = guard.child_mut();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let stderr = child.stderr.take().ok_or_else(|| io::Error::other("no stderr pipe"))?;
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Ok(LineProcess { guard, stdin, lines, stderr: Tail::spawn(stderr) })
    }

    /// Writes `text` (a newline is added if missing) and flushes.
    pub fn send(&mut self, text: &str) -> io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| io::Error::other("stdin closed"))?;
        stdin.write_all(text.as_bytes())?;
        if !text.ends_with('\n') {
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
    }

    /// The next stdout line, waiting until `deadline`.
    pub fn recv_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    pub fn stderr_tail(&self) -> String {
        self.stderr.text(Duration::ZERO)
    }

    pub fn is_alive(&mut self) -> bool {
        self.guard.try_wait().is_none()
    }

    pub fn guard_mut(&mut self) -> &mut ChildGuard {
        &mut self.guard
    }

    /// The crash outcome of a child that stopped answering: waits briefly for its exit status.
    pub fn crash_outcome(&mut self) -> Outcome {
        let end = Instant::now() + Duration::from_millis(500);
        let mut status = None;
        while Instant::now() < end {
            status = self.guard.try_wait();
            if status.is_some() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let status = status.or_else(|| self.guard.kill());
        // The tail is complete once the drain thread saw end of file.
        crash_from(status, self.stderr.text(Duration::from_millis(500)))
    }
}

/// The crash outcome for an exit status and a stderr tail.
pub fn crash_from(status: Option<ExitStatus>, stderr_tail: String) -> Outcome {
    Outcome::Crash { signal: status.and_then(|s| s.signal()), code: status.and_then(|s| s.code()), stderr_tail }
}

/// The result of a one-shot child run.
#[derive(Debug)]
pub enum RunOnce {
    Exited { status: ExitStatus, stdout: String, stderr: String },
    TimedOut { stdout: String, stderr: String },
}

/// Runs `cmd` once with `input` on stdin, killing its group after `limit`.
pub fn run_once(cmd: &mut Command, input: &str, limit: Duration) -> io::Result<RunOnce> {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut guard = ChildGuard::spawn(cmd)?;
    let child = guard.child_mut();
    let mut stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let input = input.to_string();
    let writer = thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(input.as_bytes());
        }
    });
    let out_t = thread::spawn(move || read_all(stdout));
    let err_t = thread::spawn(move || read_all(stderr));
    let end = Instant::now() + limit;
    let mut status = None;
    while Instant::now() < end {
        if let Some(s) = guard.try_wait() {
            status = Some(s);
            break;
        }
        thread::sleep(Duration::from_millis(1));
    }
    if status.is_none() {
        guard.kill();
    }
    let _ = writer.join();
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    Ok(match status {
        Some(status) => RunOnce::Exited { status, stdout, stderr },
        None => RunOnce::TimedOut { stdout, stderr },
    })
}

fn read_all<R: Read>(r: Option<R>) -> String {
    let mut s = Vec::new();
    if let Some(mut r) = r {
        let _ = r.read_to_end(&mut s);
    }
    String::from_utf8_lossy(&s).into_owned()
}

/// Finds an external tool: in `$CROSSCHECK_VENV/bin`, in a `.venv/bin` of the current
/// directory or of an ancestor of the crosscheck executable (the project's virtualenv, made by
/// `scripts/setup.sh`), then on `PATH`.
pub fn find_tool(name: &str) -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(v) = std::env::var_os("CROSSCHECK_VENV") {
        dirs.push(PathBuf::from(v).join("bin"));
    }
    if let Ok(cwd) = std::env::current_dir() {
        dirs.push(cwd.join(".venv/bin"));
    }
    if let Ok(exe) = std::env::current_exe() {
        dirs.extend(exe.ancestors().skip(1).map(|a| a.join(".venv/bin")));
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter().map(|d| d.join(name)).find(|p| is_executable(p))
}

/// The binary a LOCATION names for the engine `name`, which runs the tool `tool`: a file, or
/// a command found as [`find_tool`] finds tools; else a setup error that says which LOCATION
/// the engine takes.
pub fn binary_at(name: &str, location: &str, tool: &str) -> Result<std::path::PathBuf, SetupError> {
    let p = std::path::Path::new(location);
    if p.is_file() {
        return Ok(p.to_path_buf());
    }
    if let Some(found) = find_tool(location).filter(|_| !location.contains('/')) {
        return Ok(found);
    }
    let what = if p.is_dir() { "a directory" } else { "no such file" };
    Err(SetupError::new(format!(
        "{name}={location}: {what}; give the path of a {tool} binary ({name}=/path/to/{tool})"
    )))
}

fn is_executable(p: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_process_round_trip_and_crash() {
        let mut p =
            LineProcess::spawn(Command::new("sh").args(["-c", "read x; echo got $x; echo oops >&2; kill -SEGV $$"]))
                .expect("sh runs");
        p.send("hello").expect("send");
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(p.recv_line(deadline), Ok("got hello".to_string()));
        assert_eq!(p.recv_line(deadline), Err(ReadError::Closed));
        match p.crash_outcome() {
            Outcome::Crash { signal, stderr_tail, .. } => {
                assert_eq!(signal, Some(libc::SIGSEGV));
                assert!(stderr_tail.contains("oops"), "{stderr_tail}");
            }
            other => panic!("expected a crash, got {other:?}"),
        }
    }

    #[test]
    fn run_once_times_out_and_kills() {
        let t = Instant::now();
        let r = run_once(Command::new("sh").args(["-c", "sleep 30"]), "", Duration::from_millis(200)).expect("runs");
        assert!(matches!(r, RunOnce::TimedOut { .. }));
        assert!(t.elapsed() < Duration::from_secs(5));
    }
}
