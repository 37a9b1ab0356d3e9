//! Private throwaway servers (PostgreSQL, MariaDB): their data directories, ports, start,
//! readiness, stop and statement watchdogs.
//!
//! - [`PrivateDir`]: a directory `crosscheck-<engine>-<pid>-<n>` (in [`base_dir`]) removed on drop;
//!   directories left behind by a crosscheck process that was SIGKILLed are swept by the next
//!   one ([`sweep_stale`]).
//! - [`spawn_tied`]: spawns a child in its own process group (a [`ChildGuard`], killed with its
//!   group and reaped on drop) that also gets SIGKILL when the thread that spawned it dies, so no
//!   server survives a Ctrl-C, a SIGTERM or a SIGKILL of crosscheck.
//! - [`Watchdog`]: one thread per engine that cancels a statement that outlived its deadline
//!   (a server-side cancel through a second connection), for statements the server-side
//!   timeout setting does not stop, and stops the server if the statement survives the cancel
//!   too (`crate::sql::served` arms it around every statement).
//! - [`probe_greeting`]: tells "nothing listens", "something else listens" and "the server
//!   answers" apart before a client library gets the chance to hang.

use crosscheck_core::process::ChildGuard;
use crosscheck_core::SetupError;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long connecting to a server (TCP connect plus greeting) may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a private server may take to accept connections.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Extra time after a statement's limit before the watchdog cancels it from outside.
pub const CANCEL_GRACE: Duration = Duration::from_millis(1000);
/// Extra time after the cancel before a private server whose statement survived it is stopped
/// the hard way (MariaDB 10.11 runs some `INTERSECT ALL ... EXCEPT ALL` queries on through
/// `KILL QUERY`, writing temporary tables until the disk is full).
pub const KILL_GRACE: Duration = Duration::from_secs(4);
/// A private server's log is emptied at a reset once it is larger than this: a server that
/// logs a warning per row must not fill a memory file system.
pub const LOG_CAP: u64 = 64 << 20;

/// A temporary directory for one private server, removed on drop.
pub struct PrivateDir {
    path: PathBuf,
}

static DIR_COUNTER: AtomicU64 = AtomicU64::new(0);

impl PrivateDir {
    /// Creates `$TMPDIR/crosscheck-<engine>-<pid>-<n>`, owned by `owner` when given.
    pub fn create(engine: &str, owner: Option<(u32, u32)>) -> Result<PrivateDir, SetupError> {
        sweep_stale(engine);
        let n = DIR_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = base_dir().join(format!("crosscheck-{engine}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).map_err(|e| {
            SetupError::new(format!(
                "cannot create {}: {e} (set CROSSCHECK_SERVER_DIR to a writable directory)",
                path.display()
            ))
        })?;
        let dir = PrivateDir { path };
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(&dir.path, Some(uid), Some(gid))
                .map_err(|e| SetupError::new(format!("cannot hand {} to uid {uid}: {e}", dir.path.display())))?;
        }
        Ok(dir)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Where private servers keep their data: `$CROSSCHECK_SERVER_DIR` if set, else `/dev/shm` (a
/// memory file system, where the servers' many fsyncs cost nothing: a MariaDB reset measured
/// several times faster there), else the temporary directory.
pub fn base_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CROSSCHECK_SERVER_DIR") {
        return PathBuf::from(d);
    }
    let shm = Path::new("/dev/shm");
    let writable = shm.is_dir() && {
        let probe = shm.join(format!(".crosscheck-probe-{}", std::process::id()));
        let ok = std::fs::create_dir(&probe).is_ok();
        let _ = std::fs::remove_dir(&probe);
        ok
    };
    if writable {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Removes `crosscheck-<engine>-<pid>-*` directories whose process is gone.
pub fn sweep_stale(engine: &str) {
    let prefix = format!("crosscheck-{engine}-");
    let Ok(entries) = std::fs::read_dir(base_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else { continue };
        if pid > 0 && !process_alive(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn process_alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Bump to invalidate the data-directory templates of older crosscheck builds.
const TEMPLATE_VERSION: u32 = 1;

/// Makes `dest` a copy of a data directory built once per machine by `build` (`initdb`,
/// `mariadb-install-db`: seconds on a loaded 2-core machine, against milliseconds for a copy).
/// The template lives in `<base_dir>/crosscheck-<engine>-template-<key>`, keyed by `key` (binary
/// paths, sizes and times, setup flags) and the user; `build` gets a directory to create `data`
/// in. Concurrent first builds are fine: each builds its own, the first rename wins.
pub fn data_from_template(
    engine: &str,
    key: &[String],
    dest: &Path,
    owner: Option<(u32, u32)>,
    build: impl FnOnce(&Path) -> Result<(), SetupError>,
) -> Result<(), SetupError> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (TEMPLATE_VERSION, key, owner, euid()).hash(&mut h);
    let template = base_dir().join(format!("crosscheck-{engine}-template-{:016x}", h.finish()));
    if !template.join("ok").is_file() {
        let tmp = PrivateDir::create(engine, owner)?;
        build(tmp.path())?;
        std::fs::write(tmp.path().join("ok"), b"")
            .map_err(|e| SetupError::new(format!("{engine}: cannot write in {}: {e}", tmp.path().display())))?;
        let _ = std::fs::remove_dir_all(&template);
        // Losing the race to another process is fine: its template is as good.
        let _ = std::fs::rename(tmp.path(), &template);
        if !template.join("ok").is_file() {
            return copy_tree(&tmp.path().join("data"), dest, owner).map_err(|e| {
                SetupError::new(format!("{engine}: cannot copy a data directory into {}: {e}", dest.display()))
            });
        }
    }
    copy_tree(&template.join("data"), dest, owner).map_err(|e| {
        SetupError::new(format!("{engine}: cannot copy {} into {}: {e}", template.display(), dest.display()))
    })
}

fn euid() -> u32 {
    // SAFETY: geteuid(2) has no preconditions.
    unsafe { libc::geteuid() }
}

/// A key part for a binary: its path, size and modification time.
pub fn binary_key(p: &Path) -> String {
    let meta = std::fs::metadata(p).ok();
    let mtime =
        meta.as_ref().and_then(|m| m.modified().ok()).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
    format!("{}:{}:{:?}", p.display(), meta.map(|m| m.len()).unwrap_or(0), mtime)
}

/// Copies a directory tree, keeping permission bits, owned by `owner` when given.
fn copy_tree(from: &Path, to: &Path, owner: Option<(u32, u32)>) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    std::fs::set_permissions(to, std::fs::metadata(from)?.permissions())?;
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::chown(to, Some(uid), Some(gid))?;
    }
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let ty = entry.file_type()?;
        let target = to.join(entry.file_name());
        if ty.is_dir() {
            copy_tree(&entry.path(), &target, owner)?;
        } else if ty.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
            if let Some((uid, gid)) = owner {
                std::os::unix::fs::chown(&target, Some(uid), Some(gid))?;
            }
        }
    }
    Ok(())
}

/// Whether crosscheck runs as root (servers refuse root, or need `--user=root`).
pub fn is_root() -> bool {
    // SAFETY: geteuid(2) has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The uid and gid of an OS user, from `/etc/passwd`.
pub fn os_user(name: &str) -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let f: Vec<&str> = line.split(':').collect();
        if f.len() >= 4 && f[0] == name {
            Some((f[2].parse().ok()?, f[3].parse().ok()?))
        } else {
            None
        }
    })
}

/// Spawns `cmd` in its own process group, as `user` when given, tied to this thread: when the
/// thread (in practice, the crosscheck process) dies, the kernel sends the child SIGKILL.
pub fn spawn_tied(cmd: &mut Command, user: Option<(u32, u32)>) -> std::io::Result<ChildGuard> {
    spawn_tied_with(cmd, user, libc::SIGKILL)
}

/// [`spawn_tied`] with another parent-death signal (PostgreSQL: SIGQUIT, an immediate
/// shutdown that still removes its shared memory).
pub fn spawn_tied_with(cmd: &mut Command, user: Option<(u32, u32)>, death: i32) -> std::io::Result<ChildGuard> {
    if let Some((uid, gid)) = user {
        cmd.uid(uid).gid(gid);
    }
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs between fork and exec and only calls async-signal-safe
    // functions (prctl, getppid). It runs after the uid change, which would clear the
    // parent-death signal if it were set earlier.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, death as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                // The parent died before the signal was armed.
                return Err(std::io::Error::other("parent exited"));
            }
            Ok(())
        });
    }
    ChildGuard::spawn(cmd)
}

/// The last `max` bytes of a log file, for error messages.
pub fn log_tail(path: &Path, max: usize) -> String {
    let text = std::fs::read(path).unwrap_or_default();
    let start = text.len().saturating_sub(max);
    String::from_utf8_lossy(&text[start..]).trim().to_string()
}

/// Runs a setup command (initdb, mariadb-install-db) to completion with its output in `log`.
pub fn run_setup_command(
    cmd: &mut Command,
    user: Option<(u32, u32)>,
    log: &Path,
    what: &str,
) -> Result<(), SetupError> {
    let out =
        std::fs::File::create(log).map_err(|e| SetupError::new(format!("cannot write {}: {e}", log.display())))?;
    let err = out.try_clone().map_err(|e| SetupError::new(format!("cannot write {}: {e}", log.display())))?;
    cmd.stdin(std::process::Stdio::null()).stdout(out).stderr(err);
    let mut child = spawn_tied(cmd, user).map_err(|e| SetupError::new(format!("cannot run {what}: {e}")))?;
    let deadline = Instant::now() + START_TIMEOUT;
    loop {
        if let Some(status) = child.try_wait() {
            if status.success() {
                return Ok(());
            }
            return Err(SetupError::new(format!("{what} failed ({status}): {}", one_line(&log_tail(log, 600)))));
        }
        if Instant::now() > deadline {
            child.kill();
            return Err(SetupError::new(format!("{what} did not finish within {}s", START_TIMEOUT.as_secs())));
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// A private server process: its directory and its process group, stopped on drop.
pub struct ServerProcess {
    pub child: Option<ChildGuard>,
    pub dir: PrivateDir,
    pub log: PathBuf,
    /// Sent to the server process alone on drop, before the group gets SIGKILL: a server
    /// killed outright may leave shared memory behind (PostgreSQL: SIGQUIT). `None`: SIGKILL.
    pub stop_signal: Option<i32>,
}

impl ServerProcess {
    /// Waits until `ready()` succeeds, failing early if the server exits.
    pub fn wait_ready(&mut self, what: &str, mut ready: impl FnMut() -> bool) -> Result<(), SetupError> {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Some(child) = self.child.as_mut() {
                if let Some(status) = child.try_wait() {
                    return Err(SetupError::new(format!(
                        "{what} exited at start ({status}): {}",
                        one_line(&log_tail(&self.log, 600))
                    )));
                }
            }
            if ready() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(SetupError::new(format!(
                    "{what} did not accept connections within {}s: {}",
                    START_TIMEOUT.as_secs(),
                    one_line(&log_tail(&self.log, 600))
                )));
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Starts the server `command` makes for a port on a free port of 127.0.0.1, as `user`, its
    /// output in the log, tied to crosscheck (its parent-death signal is the stop signal), and
    /// waits until `ready` on that port. Another process may take the port between
    /// [`free_port`] and the server's bind: then another port, up to three times.
    pub fn start(
        &mut self,
        engine: &str,
        user: Option<(u32, u32)>,
        command: impl Fn(u16) -> Command,
        ready: impl Fn(u16) -> bool,
    ) -> Result<u16, SetupError> {
        let fail = |what: String| SetupError::new(format!("{engine}: {what}"));
        let mut tries = 0;
        loop {
            tries += 1;
            let port = free_port().map_err(|e| fail(format!("no free port on 127.0.0.1: {e}")))?;
            // Appending, so that the server writes on at the end after `trim_log` empties it.
            let logf = std::fs::File::create(&self.log)
                .and_then(|_| std::fs::OpenOptions::new().append(true).open(&self.log))
                .map_err(|e| fail(format!("cannot write {}: {e}", self.log.display())))?;
            let errf = logf.try_clone().map_err(|e| fail(e.to_string()))?;
            let mut cmd = command(port);
            cmd.stdin(std::process::Stdio::null()).stdout(logf).stderr(errf);
            let death = self.stop_signal.unwrap_or(libc::SIGKILL);
            let child = spawn_tied_with(&mut cmd, user, death)
                .map_err(|e| fail(format!("cannot start {}: {e}", Path::new(cmd.get_program()).display())))?;
            self.child = Some(child);
            match self.wait_ready(&format!("{engine} server"), || ready(port)) {
                Ok(()) => return Ok(port),
                Err(e) if tries < 3 && e.message.contains("already in use") => self.child = None,
                Err(e) => return Err(e),
            }
        }
    }

    pub fn alive(&mut self) -> bool {
        self.child.as_mut().is_some_and(|c| c.try_wait().is_none())
    }

    /// Actions that stop the server from another thread without reaping it, in the order to
    /// try them: the stop signal to the server if it has one (PostgreSQL's immediate shutdown
    /// ends its backends and frees its shared memory), then SIGKILL to its whole group.
    pub fn stops(&self) -> Vec<Action> {
        let Some(pid) = self.child.as_ref().and_then(|c| i32::try_from(c.id()).ok()) else { return Vec::new() };
        let signal = |target: i32, signal: i32| -> Action {
            Box::new(move || {
                // SAFETY: kill(2) on our own unreaped child (or its group); no memory is touched.
                unsafe {
                    libc::kill(target, signal);
                }
            })
        };
        let mut stops: Vec<Action> = self.stop_signal.map(|sig| signal(pid, sig)).into_iter().collect();
        stops.push(Box::new(move || {
            // PostgreSQL's backends are groups of their own (they call setsid), so the group
            // alone would miss a backend that stopped answering.
            for child in children(pid) {
                signal(child, libc::SIGKILL)();
            }
            signal(-pid, libc::SIGKILL)();
        }));
        stops
    }

    /// Waits up to `grace` for the server to exit, then kills its group; always reaps.
    pub fn wait_exit(&mut self, grace: Duration) {
        let end = Instant::now() + grace;
        while self.alive() && Instant::now() < end {
            thread::sleep(Duration::from_millis(10));
        }
        if let Some(c) = self.child.as_mut() {
            c.kill();
        }
    }

    /// Empties the log when it is larger than `max` bytes.
    pub fn trim_log(&self, max: u64) {
        if std::fs::metadata(&self.log).is_ok_and(|m| m.len() > max) {
            if let Ok(f) = std::fs::OpenOptions::new().write(true).open(&self.log) {
                let _ = f.set_len(0);
            }
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // Stop the server, then kill the whole group (server and its backends) and reap
        // before removing the directory.
        if let Some(mut c) = self.child.take() {
            if let (Some(sig), None) = (self.stop_signal, c.try_wait()) {
                // SAFETY: kill(2) on our own child's pid; no memory is touched.
                unsafe {
                    libc::kill(c.id() as libc::pid_t, sig);
                }
                let end = Instant::now() + Duration::from_secs(3);
                while c.try_wait().is_none() && Instant::now() < end {
                    thread::sleep(Duration::from_millis(2));
                }
            }
            c.kill();
        }
    }
}

/// The fields of `/proc/<pid>/stat` after the command name: state, ppid, ... (`proc(5)`
/// numbers them from 3). The name, in parentheses, may itself hold spaces and parentheses.
pub fn proc_stat(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(stat.rsplit_once(')')?.1.split_whitespace().map(str::to_string).collect())
}

/// The processes whose parent is `pid`, from `/proc`.
fn children(pid: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let parent_of = |child: u32| proc_stat(child)?.get(1)?.parse::<i32>().ok();
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&child| parent_of(child) == Some(pid))
        .filter_map(|child| i32::try_from(child).ok())
        .collect()
}

/// Joins the lines of a message into one.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What listens at an address.
#[derive(Debug)]
pub enum Probe {
    /// The server greeted as expected.
    Answers,
    /// Connected, but what answered is not the expected server.
    Other(String),
}

/// Connects to `host:port` and checks the first bytes of the conversation with `check`:
/// `hello` is sent first if given (PostgreSQL waits for the client; MySQL greets first).
pub fn probe_greeting(
    engine: &str,
    host: &str,
    port: u16,
    hello: Option<&[u8]>,
    check: impl Fn(&[u8]) -> Result<(), String>,
) -> Result<Probe, SetupError> {
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| SetupError::new(format!("{engine}: cannot resolve host \"{host}\": {e}")))?
        .collect();
    let mut last = String::from("no address");
    let mut stream = None;
    for a in &addrs {
        match TcpStream::connect_timeout(a, CONNECT_TIMEOUT) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let Some(mut s) = stream else {
        return Err(SetupError::new(format!(
            "{engine}: cannot connect to {host}:{port} ({last}); is the server running and the address right?"
        )));
    };
    let _ = s.set_read_timeout(Some(CONNECT_TIMEOUT));
    let _ = s.set_write_timeout(Some(CONNECT_TIMEOUT));
    if let Some(h) = hello {
        if let Err(e) = s.write_all(h) {
            return Ok(Probe::Other(format!("write failed: {e}")));
        }
    }
    let mut buf = [0u8; 16];
    let mut got = 0;
    let end = Instant::now() + CONNECT_TIMEOUT;
    while got < buf.len() && Instant::now() < end {
        match s.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => {
                got += n;
                if check(&buf[..got]).is_ok() {
                    return Ok(Probe::Answers);
                }
            }
            Err(_) => break,
        }
    }
    Ok(match check(&buf[..got]) {
        Ok(()) => Probe::Answers,
        Err(why) => Probe::Other(why),
    })
}

pub type Action = Box<dyn FnOnce() + Send>;

/// The stages of one armed ticket still to run, earliest first.
type Stages = VecDeque<(Instant, Action)>;

struct WatchState {
    armed: Option<(u64, Stages)>,
    generation: u64,
    /// The ticket whose stages ran last, and how many of them ran.
    fired: (u64, usize),
    quit: bool,
}

/// A thread that runs actions (a server-side cancel, then harder stops) when a statement
/// outlives their deadlines. Each action runs on a thread of its own: a cancel that hangs on a
/// server that stopped answering must not hold back the stop that follows it.
pub struct Watchdog {
    state: Arc<(Mutex<WatchState>, Condvar)>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Default for Watchdog {
    fn default() -> Self {
        Self::new()
    }
}

impl Watchdog {
    pub fn new() -> Watchdog {
        let state = Arc::new((
            Mutex::new(WatchState { armed: None, generation: 0, fired: (0, 0), quit: false }),
            Condvar::new(),
        ));
        let s = state.clone();
        let thread = thread::spawn(move || watch(&s));
        Watchdog { state, thread: Some(thread) }
    }

    /// Arms the watchdog with stages of (deadline, action); returns a ticket for
    /// [`Watchdog::disarm`].
    pub fn arm(&self, stages: Vec<(Instant, Action)>) -> u64 {
        let (lock, cv) = &*self.state;
        let Ok(mut st) = lock.lock() else { return 0 };
        st.generation += 1;
        let g = st.generation;
        st.armed = Some((g, stages.into()));
        cv.notify_one();
        g
    }

    /// Disarms; how many of this ticket's stages ran.
    pub fn disarm(&self, ticket: u64) -> usize {
        let (lock, _) = &*self.state;
        let Ok(mut st) = lock.lock() else { return 0 };
        if st.armed.as_ref().is_some_and(|(g, _)| *g == ticket) {
            st.armed = None;
        }
        if st.fired.0 == ticket {
            st.fired.1
        } else {
            0
        }
    }
}

/// The watchdog's thread: sleeps until the next stage's deadline, then starts its action.
fn watch(state: &(Mutex<WatchState>, Condvar)) {
    let (lock, cv) = state;
    let Ok(mut st) = lock.lock() else { return };
    while !st.quit {
        let next = st.armed.as_ref().and_then(|(g, stages)| stages.front().map(|(d, _)| (*g, *d)));
        let Some((generation, deadline)) = next else {
            st = match cv.wait(st) {
                Ok(g) => g,
                Err(_) => return,
            };
            continue;
        };
        let now = Instant::now();
        if now < deadline {
            st = match cv.wait_timeout(st, deadline - now) {
                Ok((g, _)) => g,
                Err(_) => return,
            };
            continue;
        }
        let Some((_, action)) = st.armed.as_mut().and_then(|(_, stages)| stages.pop_front()) else { continue };
        st.fired = if st.fired.0 == generation { (generation, st.fired.1 + 1) } else { (generation, 1) };
        if st.armed.as_ref().is_some_and(|(_, stages)| stages.is_empty()) {
            st.armed = None;
        }
        // A thread per action, so that an action that blocks delays no later stage.
        let _ = thread::Builder::new().name("crosscheck-watchdog-action".into()).spawn(action);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Ok(mut st) = self.state.0.lock() {
            st.quit = true;
            st.armed = None;
        }
        self.state.1.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A name for a database crosscheck creates on a server it does not own: unique per process
/// and instance, so that workers never share one.
pub fn scratch_db_name() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    format!("crosscheck_{}_{}_{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed), nanos % 10000)
}

/// A free TCP port on 127.0.0.1 (for a private server).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

/// Waits until something accepts connections on 127.0.0.1:`port`, or `deadline` passes.
pub fn wait_for_port(port: u16, deadline: Instant) -> bool {
    while Instant::now() < deadline {
        if TcpStream::connect_timeout(&([127, 0, 0, 1], port).into(), Duration::from_millis(200)).is_ok() {
            return true;
        }
        thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Parses `[scheme://][user[:password]@]host[:port][/db][?...]` loosely; used by MariaDB
/// (the `mysql` crate parses its own URLs, but we want our own messages).
pub fn url_host_port(url: &str, default_port: u16) -> Option<(String, u16)> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let rest = rest.split(['/', '?']).next()?;
    let hostport = rest.rsplit_once('@').map(|(_, h)| h).unwrap_or(rest);
    if hostport.is_empty() {
        return None;
    }
    if let Some(h) = hostport.strip_prefix('[') {
        let (host, after) = h.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(p) => p.parse().ok()?,
            None => default_port,
        };
        return Some((host.to_string(), port));
    }
    match hostport.rsplit_once(':') {
        Some((h, p)) => Some((h.to_string(), p.parse().ok()?)),
        None => Some((hostport.to_string(), default_port)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_addresses() {
        assert_eq!(url_host_port("mysql://root:pw@127.0.0.1:3307/db", 3306), Some(("127.0.0.1".into(), 3307)));
        assert_eq!(url_host_port("postgres://u@localhost/db", 5432), Some(("localhost".into(), 5432)));
        assert_eq!(url_host_port("mariadb://[::1]:3310", 3306), Some(("::1".into(), 3310)));
        assert_eq!(url_host_port("mysql:///db", 3306), None);
    }

    /// A log emptied under a server that writes on through its appending descriptor holds
    /// only what came after, not a hole the size of what was there.
    #[test]
    fn a_trimmed_log_holds_only_what_came_after() {
        let dir = PrivateDir::create("logtest", None).unwrap_or_else(|e| panic!("{}", e.message));
        let log = dir.path().join("server.log");
        std::fs::write(&log, b"").unwrap_or_else(|e| panic!("{e}"));
        let mut server_side = std::fs::OpenOptions::new().append(true).open(&log).unwrap_or_else(|e| panic!("{e}"));
        let proc = ServerProcess { child: None, dir, log: log.clone(), stop_signal: None };
        server_side.write_all(&[b'x'; 100]).unwrap_or_else(|e| panic!("{e}"));
        proc.trim_log(1000);
        assert_eq!(std::fs::metadata(&log).map(|m| m.len()).ok(), Some(100));
        proc.trim_log(10);
        server_side.write_all(b"after").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(std::fs::read(&log).ok(), Some(b"after".to_vec()));
    }

    fn counter(hit: &Arc<AtomicU64>) -> Action {
        let h = hit.clone();
        Box::new(move || {
            h.fetch_add(1, Ordering::SeqCst);
        })
    }

    #[test]
    fn watchdog_fires_only_after_deadline() {
        let w = Watchdog::new();
        let hit = Arc::new(AtomicU64::new(0));
        let t = w.arm(vec![(Instant::now() + Duration::from_millis(50), counter(&hit))]);
        thread::sleep(Duration::from_millis(200));
        assert_eq!(w.disarm(t), 1);
        assert_eq!(hit.load(Ordering::SeqCst), 1);
        let t = w.arm(vec![(Instant::now() + Duration::from_secs(30), counter(&hit))]);
        assert_eq!(w.disarm(t), 0);
        assert_eq!(hit.load(Ordering::SeqCst), 1);
    }

    /// A cancel that never returns (a server that stopped answering) does not hold back the
    /// stop after it; a statement that ends between the stages stops the rest.
    #[test]
    fn a_hanging_stage_delays_no_later_stage() {
        let w = Watchdog::new();
        let hit = Arc::new(AtomicU64::new(0));
        let now = Instant::now();
        let hang: Action = Box::new(|| thread::sleep(Duration::from_secs(3600)));
        let t = w.arm(vec![(now + Duration::from_millis(20), hang), (now + Duration::from_millis(80), counter(&hit))]);
        thread::sleep(Duration::from_millis(300));
        assert_eq!(w.disarm(t), 2);
        assert_eq!(hit.load(Ordering::SeqCst), 1);
        let t = w.arm(vec![
            (Instant::now() + Duration::from_millis(20), counter(&hit)),
            (Instant::now() + Duration::from_millis(400), counter(&hit)),
        ]);
        thread::sleep(Duration::from_millis(150));
        assert_eq!(w.disarm(t), 1);
        thread::sleep(Duration::from_millis(400));
        assert_eq!(hit.load(Ordering::SeqCst), 2);
    }
}
