//! Running a plan: each partition's files copied into a directory of its own, the analyzer run
//! there as a child in its own process group with a deadline and an address-space limit, reaped
//! with `wait4` so its peak RSS and CPU time come from the kernel; `jobs` partitions at a time.
//! A partition that times out, dies on a signal, ends with an abnormal exit code or writes
//! output the tool's parser cannot read is reported as such, never dropped.

use crate::plan::Plan;
use crate::strategy::Partition;
use crate::tools::{Analyzer, Finding, ToolOutput};
use std::collections::BTreeSet;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Bumped when the JSON layout of a run changes.
pub const RUN_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    pub timeout_seconds: f64,
    /// The address-space limit (`RLIMIT_AS`) of each partition's process, in MiB.
    pub memory_mib: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Status {
    Ok,
    Timeout,
    Crashed { detail: String },
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PartitionRun {
    pub index: usize,
    pub units: usize,
    #[serde(flatten)]
    pub status: Status,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    /// Peak resident set of the tool (and any child it reaped), from `wait4`.
    pub max_rss_kib: u64,
    pub findings: Vec<Finding>,
    /// The end of the tool's stderr when it did not end normally.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr_tail: String,
    /// Seconds spent on the failed partitions this one was re-split from, before it started.
    #[serde(default)]
    pub waited_seconds: f64,
}

/// A plan's run: every partition's outcome, in plan order.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Run {
    pub version: u32,
    pub tool_version: String,
    pub jobs: usize,
    pub limits: Limits,
    pub wall_seconds: f64,
    /// The plan as run: after a re-split, the partitions that replaced the failed ones.
    pub plan: Plan,
    pub partitions: Vec<PartitionRun>,
    /// Failed partitions that a re-split replaced (their time counts, their findings do not).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<PartitionRun>,
}

impl Run {
    /// Every partition's findings, deduplicated (a replicated unit reports its findings once
    /// per partition that holds it).
    pub fn findings(&self) -> BTreeSet<Finding> {
        self.partitions.iter().flat_map(|p| p.findings.iter().cloned()).collect()
    }

    /// The best possible latency: the slowest partition, all running at once (a re-split
    /// partition after the failed ones it replaces).
    pub fn best_latency(&self) -> f64 {
        self.partitions.iter().map(|p| p.wall_seconds + p.waited_seconds).fold(0.0, f64::max)
    }

    /// The cost: every partition's wall time added up, failed ones that were re-split included.
    pub fn total_time(&self) -> f64 {
        self.partitions.iter().chain(&self.replaced).map(|p| p.wall_seconds).sum()
    }

    pub fn peak_rss_kib(&self) -> u64 {
        self.partitions.iter().map(|p| p.max_rss_kib).max().unwrap_or(0)
    }

    pub fn failed(&self) -> usize {
        self.partitions.iter().filter(|p| p.status != Status::Ok).count()
    }
}

/// Runs every partition of `plan`, `jobs` at a time, calling `done` as each one ends.
pub fn run_plan(
    plan: &Plan,
    tool: &dyn Analyzer,
    tool_version: String,
    jobs: usize,
    limits: Limits,
    done: &(dyn Fn(&PartitionRun) + Sync),
) -> Run {
    let started = Instant::now();
    let partitions = run_all(plan, &plan.partitions, tool, jobs, limits, done);
    Run {
        version: RUN_VERSION,
        tool_version,
        jobs,
        limits,
        wall_seconds: started.elapsed().as_secs_f64(),
        plan: plan.clone(),
        partitions,
        replaced: Vec::new(),
    }
}

/// Runs `parts` (units of `plan`), `jobs` at a time; results in the order of `parts`.
pub(crate) fn run_all(
    plan: &Plan,
    parts: &[Partition],
    tool: &dyn Analyzer,
    jobs: usize,
    limits: Limits,
    done: &(dyn Fn(&PartitionRun) + Sync),
) -> Vec<PartitionRun> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(parts.len()));
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, parts.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(part) = parts.get(i) else { break };
                let r = run_partition(plan, tool, i, part, limits);
                done(&r);
                results.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(r);
            });
        }
    });
    let mut partitions = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    partitions.sort_by_key(|p| p.index);
    partitions
}

fn run_partition(plan: &Plan, tool: &dyn Analyzer, index: usize, part: &[u32], limits: Limits) -> PartitionRun {
    let names = plan.names(part);
    let mut out = PartitionRun {
        index,
        units: part.len(),
        status: Status::Ok,
        wall_seconds: 0.0,
        cpu_seconds: 0.0,
        max_rss_kib: 0,
        findings: Vec::new(),
        stderr_tail: String::new(),
        waited_seconds: 0.0,
    };
    if !names.iter().any(|u| tool.analyzes(u)) {
        return out;
    }
    match execute(&plan.input, &names, tool, limits) {
        Ok(child) => {
            out.wall_seconds = child.wall_seconds;
            out.cpu_seconds = child.cpu_seconds;
            out.max_rss_kib = child.max_rss_kib;
            let text = ToolOutput { stdout: &child.stdout, stderr: &child.stderr, code: child.code.unwrap_or(-1) };
            out.status = if child.timed_out {
                Status::Timeout
            } else if let Some(sig) = child.signal {
                Status::Crashed { detail: format!("killed by signal {sig}") }
            } else if !tool.normal_exit(text.code) {
                Status::Crashed { detail: format!("exit code {}", text.code) }
            } else {
                match tool.parse(&text) {
                    Ok(f) => {
                        out.findings = f;
                        Status::Ok
                    }
                    Err(e) => Status::Crashed { detail: e.to_string() },
                }
            };
            if out.status != Status::Ok {
                out.stderr_tail = tail(&child.stderr, 2000);
            }
        }
        Err(e) => out.status = Status::Crashed { detail: format!("could not start: {e}") },
    }
    out.findings.sort();
    out.findings.dedup();
    out
}

fn tail(text: &str, max: usize) -> String {
    let start = text.len().saturating_sub(max);
    let start = (start..text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    text[start..].to_string()
}

struct Ended {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    wall_seconds: f64,
    cpu_seconds: f64,
    max_rss_kib: u64,
}

/// Copies `units` under a fresh directory, runs the tool there and reaps it.
fn execute(input: &Path, units: &[&str], tool: &dyn Analyzer, limits: Limits) -> std::io::Result<Ended> {
    let scratch = tempfile::Builder::new().prefix("crosscheck-split-").tempdir()?;
    let work = scratch.path().join("work");
    for u in units {
        let to = work.join(u);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(input.join(u), &to)?;
    }
    let stdout = std::fs::File::create(scratch.path().join("stdout"))?;
    let stderr = std::fs::File::create(scratch.path().join("stderr"))?;
    let mut cmd = tool.command(&work, units);
    cmd.current_dir(&work).stdin(Stdio::null()).stdout(stdout).stderr(stderr).process_group(0);
    if let Some(mib) = limits.memory_mib {
        let bytes = mib.saturating_mul(1 << 20);
        // SAFETY: between fork and exec only setrlimit runs, which is async-signal-safe.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let started = Instant::now();
    let child = cmd.spawn()?;
    let reaped = reap(child.id(), Duration::from_secs_f64(limits.timeout_seconds.max(0.0)))?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let read = |name: &str| {
        let bytes = std::fs::read(scratch.path().join(name)).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Ok(Ended { stdout: read("stdout"), stderr: read("stderr"), wall_seconds, ..reaped })
}

/// Waits for the child `pid` until `timeout`, then kills its process group; reaps it with
/// `wait4` (which also gives the peak RSS of the child and the children it reaped) and kills
/// whatever of the group outlived its leader.
fn reap(pid: u32, timeout: Duration) -> std::io::Result<Ended> {
    let pid = libc::pid_t::try_from(pid).map_err(|_| std::io::Error::other("pid out of range"))?;
    let deadline = Instant::now() + timeout;
    let mut status = 0;
    // SAFETY: rusage is plain data; zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: pid is our own child; status and usage are valid for writes.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if !timed_out && Instant::now() >= deadline {
            timed_out = true;
            // SAFETY: signalling our child's own process group.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(if timed_out { 1 } else { 20 }));
    }
    // SAFETY: as above; the group may already be gone (ESRCH), which is fine.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
    let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(Ended {
        stdout: String::new(),
        stderr: String::new(),
        code,
        signal: if timed_out { None } else { signal },
        timed_out,
        wall_seconds: 0.0,
        cpu_seconds: secs(usage.ru_utime) + secs(usage.ru_stime),
        max_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
    })
}
