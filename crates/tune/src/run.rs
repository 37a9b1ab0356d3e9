//! One child run charged by CPU time: the child in its own process group, its CPU time read
//! from `/proc` while it runs (killed past the CPU limit) and from `wait4`'s rusage once reaped,
//! a wall-clock cap as a backstop for a child that sleeps or waits on I/O.

use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a child did.
#[derive(Debug)]
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    /// User plus system CPU time of the child.
    pub cpu: Duration,
    pub wall: Duration,
    /// Killed at the CPU limit or the wall cap.
    pub killed: bool,
    /// The exit code, when it exited.
    pub code: Option<i32>,
}

/// The wall-clock cap for a CPU limit: a child blocked on I/O does not run for ever.
pub fn wall_cap(cpu: Duration) -> Duration {
    cpu * 6 + Duration::from_secs(5)
}

/// Runs `cmd` with `input` on its stdin until it exits, its CPU time passes `cpu_limit` or its
/// wall time passes [`wall_cap`].
pub fn run_charged(cmd: &mut Command, input: &str, cpu_limit: Duration) -> io::Result<Ran> {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    // In its own group the child misses the terminal's Ctrl-C, and a killed tuner would leave
    // it running to its limit: it dies with the thread that waits for it.
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = i32::try_from(child.id()).map_err(|_| io::Error::other("pid out of range"))?;
    let feed = child.stdin.take().map(|mut s| {
        let input = input.to_string();
        // A child that exits without reading its input closes the pipe: that is no error here.
        thread::spawn(move || drop(s.write_all(input.as_bytes())))
    });
    let out = child.stdout.take().map(|s| thread::spawn(move || drain(s)));
    let err = child.stderr.take().map(|s| thread::spawn(move || drain(s)));
    let cap = wall_cap(cpu_limit);
    let mut killed = false;
    let mut pause = Duration::from_millis(2);
    let (status, usage) = loop {
        if let Some(done) = reap(pid, false) {
            break done;
        }
        if proc_cpu(pid).is_some_and(|c| c > cpu_limit) || start.elapsed() > cap {
            killed = true;
            kill_group(pid);
            match reap(pid, true) {
                Some(done) => break done,
                None => return Err(io::Error::other("child vanished")),
            }
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    // Grandchildren share the group; none may outlive the run.
    kill_group(pid);
    if let Some(t) = feed {
        let _ = t.join();
    }
    let stdout = out.and_then(|t| t.join().ok()).unwrap_or_default();
    let stderr = err.and_then(|t| t.join().ok()).unwrap_or_default();
    let code = if libc::WIFEXITED(status) { Some(libc::WEXITSTATUS(status)) } else { None };
    Ok(Ran { stdout, stderr, cpu: usage, wall: start.elapsed(), killed, code })
}

fn drain<R: Read>(mut r: R) -> String {
    let mut buf = Vec::new();
    let _ = r.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

fn kill_group(pid: i32) {
    // SAFETY: kill(2) on a process group id; no memory is touched.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// Reaps `pid` if it ended (or waits for it when `block`), with its CPU time.
fn reap(pid: i32, block: bool) -> Option<(i32, Duration)> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    // SAFETY: wait4 writes only into the two out-parameters, which live on this stack frame.
    let r = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
    (r == pid).then(|| (status, tv(usage.ru_utime) + tv(usage.ru_stime)))
}

fn tv(t: libc::timeval) -> Duration {
    Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
        + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
}

/// CPU time so far of a running child, from `/proc/<pid>/stat` (fields 14 and 15, in ticks).
fn proc_cpu(pid: i32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let hz = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok().filter(|&h| h > 0)?;
    Some(Duration::from_millis(ticks * 1000 / hz))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_child_is_killed_at_its_cpu_limit_and_charged_for_it() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "while :; do :; done"]);
        let ran = run_charged(&mut cmd, "", Duration::from_millis(300)).expect("sh runs");
        assert!(ran.killed);
        assert!(ran.cpu >= Duration::from_millis(250), "charged {:?}", ran.cpu);
        assert!(ran.cpu < Duration::from_millis(1500), "charged {:?}", ran.cpu);
    }

    #[test]
    fn a_sleeping_child_costs_no_cpu_and_meets_the_wall_cap() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "cat; sleep 0.2"]);
        let ran = run_charged(&mut cmd, "hi\n", Duration::from_secs(5)).expect("sh runs");
        assert!(!ran.killed);
        assert_eq!(ran.stdout.trim(), "hi");
        assert_eq!(ran.code, Some(0));
        assert!(ran.cpu < Duration::from_millis(100), "charged {:?}", ran.cpu);
    }
}
