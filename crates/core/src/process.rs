//! Child processes of the campaign runner (workers, background reducers) and what the engines
//! layer builds on: a child in its own process group, killed with its group and reaped on drop
//! on every path, and a drained stream that keeps its tail for crash findings.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const STDERR_TAIL: usize = 4096;

/// A child process killed with its group and reaped when dropped.
pub struct ChildGuard {
    child: Child,
}

impl ChildGuard {
    /// Spawns `cmd` in a new process group.
    pub fn spawn(cmd: &mut Command) -> io::Result<ChildGuard> {
        cmd.process_group(0);
        Ok(ChildGuard { child: cmd.spawn()? })
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.child
    }

    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Sends `signal` to the whole group.
    pub fn signal(&self, signal: i32) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals a process group; no memory is touched.
            unsafe {
                libc::kill(-pid, signal);
            }
        }
    }

    /// SIGTERM, a grace period, then SIGKILL; always reaps.
    pub fn stop(&mut self, grace: Duration) -> Option<ExitStatus> {
        if let Some(s) = self.try_wait() {
            self.signal(libc::SIGKILL);
            return Some(s);
        }
        self.signal(libc::SIGTERM);
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Some(s) = self.try_wait() {
                self.signal(libc::SIGKILL);
                return Some(s);
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill()
    }

    /// SIGKILL to the group, then reap.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        self.signal(libc::SIGKILL);
        self.child.wait().ok()
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        self.signal(libc::SIGKILL);
        let _ = self.child.wait();
    }
}

/// The last few KiB a child wrote to a stream, drained on its own thread so a chatty child
/// cannot block on a full pipe.
#[derive(Clone)]
pub struct Tail {
    buf: Arc<Mutex<VecDeque<u8>>>,
    done: Arc<Mutex<Option<Receiver<()>>>>,
}

impl Tail {
    pub fn spawn<R: Read + Send + 'static>(r: R) -> Tail {
        let buf = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let done = drain_into(r, buf.clone());
        Tail { buf, done: Arc::new(Mutex::new(Some(done))) }
    }

    /// The tail as text, after waiting up to `wait` for the stream to close.
    pub fn text(&self, wait: Duration) -> String {
        if let Ok(mut d) = self.done.lock() {
            if let Some(rx) = d.as_ref() {
                if rx.recv_timeout(wait).is_ok() {
                    *d = None;
                }
            }
        }
        tail_text(&self.buf)
    }
}

fn drain_into<R: Read + Send + 'static>(mut r: R, tail: Arc<Mutex<VecDeque<u8>>>) -> Receiver<()> {
    let (done, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut t) = tail.lock() {
                t.extend(&buf[..n]);
                while t.len() > STDERR_TAIL {
                    t.pop_front();
                }
            }
        }
        let _ = done.send(());
    });
    rx
}

fn tail_text(tail: &Arc<Mutex<VecDeque<u8>>>) -> String {
    match tail.lock() {
        Ok(t) => {
            let bytes: Vec<u8> = t.iter().copied().collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Err(_) => String::new(),
    }
}

/// Keeps freed heap memory in the process. In-process engines allocate and free their
/// statement and page-cache memory on every query; with glibc's defaults the freed top of the
/// heap goes back to the kernel and is faulted in again on the next query, which cost a SQLite
/// worker about 3 page faults and 15% of its CPU time per check. Up to 64 MiB stay mapped.
pub fn keep_freed_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called before the worker
    // allocates on other threads, and a refused setting leaves the defaults in place.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}
