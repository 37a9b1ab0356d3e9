//! The board: one shared memory page between the supervisor and a worker process, holding the
//! worker's cursor (the case it is running, and whether it is preparing that case's setup) and
//! its verdict counts. The worker writes it with plain atomic stores; the page outlives a worker
//! that crashes, so the supervisor still knows which case killed it and how many checks it
//! completed. A pipe write per case did the same at the cost of two system calls and a
//! supervisor wake-up per check, a third of a SQLite worker's CPU time on a loaded machine.
//!
//! The page is an anonymous memory file (`memfd_create`) that the worker inherits (its
//! descriptor number is in the worker's configuration), so nothing is left behind on disk
//! whichever process dies.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};

const CURSOR: usize = 0;
const TESTS: usize = 1;
const VALID: usize = 2;
const NONEMPTY: usize = 3;
const BEAT: usize = 4;
const WORDS: usize = 5;
const LEN: usize = 4096;

/// Verdict counts of one worker slot, over all its processes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub tests: u64,
    pub valid: u64,
    pub nonempty: u64,
}

pub struct Board {
    fd: OwnedFd,
    words: *const AtomicU64,
}

// SAFETY: the mapping is only accessed through atomics and lives as long as the Board.
unsafe impl Send for Board {}
unsafe impl Sync for Board {}

impl Board {
    /// A new, zeroed board (supervisor side).
    pub fn create() -> io::Result<Board> {
        // SAFETY: memfd_create takes a NUL-terminated name; the descriptor is checked and owned.
        let fd = unsafe { libc::memfd_create(c"crosscheck-board".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd is a fresh descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: ftruncate on the descriptor we own.
        if unsafe { libc::ftruncate(fd.as_raw_fd(), LEN as libc::off_t) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Board::map(fd)
    }

    /// The board a worker inherited on descriptor `fd` (worker side).
    pub fn inherited(fd: RawFd) -> io::Result<Board> {
        // SAFETY: F_GETFD only queries the descriptor.
        if fd < 0 || unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
            return Err(io::Error::other(format!(
                "no board on descriptor {fd}: workers are started by `crosscheck run`"
            )));
        }
        // SAFETY: the supervisor made this descriptor for this worker process alone.
        Board::map(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    fn map(fd: OwnedFd) -> io::Result<Board> {
        // SAFETY: a shared read-write mapping of a descriptor we own, checked below; it is
        // unmapped in Drop and only accessed as aligned AtomicU64 words within its length.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                LEN,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Board { fd, words: p as *const AtomicU64 })
    }

    fn word(&self, i: usize) -> &AtomicU64 {
        debug_assert!(i < WORDS);
        // SAFETY: i < WORDS, well within the page-aligned mapping.
        unsafe { &*self.words.add(i) }
    }

    /// The descriptor a worker inherits.
    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    /// Worker: about to run case `index` (`preparing`: about to load its setup).
    pub fn set_cursor(&self, index: u64, preparing: bool) {
        self.word(CURSOR).store(((index << 1) | u64::from(preparing)) + 1, Ordering::Release);
    }

    /// Worker: still working on the same case (a reduction step), so not hung.
    pub fn beat(&self) {
        self.word(BEAT).fetch_add(1, Ordering::Release);
    }

    /// Supervisor: changes whenever the worker moves to another case or beats.
    pub fn pulse(&self) -> (u64, u64) {
        (self.word(CURSOR).load(Ordering::Acquire), self.word(BEAT).load(Ordering::Acquire))
    }

    /// Worker: one check completed.
    pub fn count(&self, valid: bool, nonempty: bool) {
        self.word(TESTS).fetch_add(1, Ordering::Release);
        self.word(VALID).fetch_add(u64::from(valid), Ordering::Release);
        self.word(NONEMPTY).fetch_add(u64::from(nonempty), Ordering::Release);
    }

    /// Supervisor: the case the worker is at and whether it is preparing it; None before the
    /// first case of this process.
    pub fn cursor(&self) -> Option<(u64, bool)> {
        match self.word(CURSOR).load(Ordering::Acquire) {
            0 => None,
            v => Some(((v - 1) >> 1, (v - 1) & 1 == 1)),
        }
    }

    /// Supervisor: forget the cursor before starting a new worker process on this board.
    pub fn clear_cursor(&self) {
        self.word(CURSOR).store(0, Ordering::Release);
    }

    pub fn counts(&self) -> Counts {
        Counts {
            tests: self.word(TESTS).load(Ordering::Acquire),
            valid: self.word(VALID).load(Ordering::Acquire),
            nonempty: self.word(NONEMPTY).load(Ordering::Acquire),
        }
    }
}

/// Where an adaptive generator's case lies in the board's file: past the mapped page, as an
/// index word (plus one, so that zero is none), a length word and the case's bytes.
const CASE_AT: u64 = LEN as u64;

impl Board {
    /// Worker: case `index` is `bytes` (written before it runs, so that the supervisor can
    /// file it if it kills the worker). Plain writes to the file: the case can be any size.
    pub fn put_case(&self, index: u64, bytes: &[u8]) -> io::Result<()> {
        let file = self.file()?;
        // The length and bytes first, the index last: a stale index never names new bytes.
        file.write_all_at(&0u64.to_le_bytes(), CASE_AT)?;
        file.write_all_at(&(bytes.len() as u64).to_le_bytes(), CASE_AT + 8)?;
        file.write_all_at(bytes, CASE_AT + 16)?;
        file.write_all_at(&(index + 1).to_le_bytes(), CASE_AT)
    }

    /// Supervisor: the bytes of case `index` if the worker left them.
    pub fn case(&self, index: u64) -> Option<Vec<u8>> {
        let file = self.file().ok()?;
        let mut word = [0u8; 8];
        file.read_exact_at(&mut word, CASE_AT).ok()?;
        if u64::from_le_bytes(word) != index + 1 {
            return None;
        }
        file.read_exact_at(&mut word, CASE_AT + 8).ok()?;
        let mut bytes = vec![0u8; usize::try_from(u64::from_le_bytes(word)).ok()?];
        file.read_exact_at(&mut bytes, CASE_AT + 16).ok()?;
        Some(bytes)
    }

    /// The board's file, borrowed: closing it would close the board's descriptor.
    fn file(&self) -> io::Result<std::mem::ManuallyDrop<std::fs::File>> {
        // SAFETY: the descriptor is owned by self and stays open; ManuallyDrop never closes it.
        Ok(std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(self.fd.as_raw_fd()) }))
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `map`; no reference outlives self.
        unsafe { libc::munmap(self.words as *mut libc::c_void, LEN) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_mapping_sees_cursor_and_counts() {
        let a = Board::create().expect("board");
        assert_eq!(a.cursor(), None);
        // SAFETY: dup of a descriptor we own; the copy is owned by the second board.
        let fd = unsafe { OwnedFd::from_raw_fd(libc::dup(a.raw_fd())) };
        let b = Board::map(fd).expect("second mapping");
        b.set_cursor(41, true);
        b.count(true, false);
        b.count(true, true);
        b.count(false, false);
        assert_eq!(a.cursor(), Some((41, true)));
        b.set_cursor(42, false);
        assert_eq!(a.cursor(), Some((42, false)));
        assert_eq!(a.counts(), Counts { tests: 3, valid: 2, nonempty: 1 });
        a.clear_cursor();
        assert_eq!(b.cursor(), None);
    }

    #[test]
    fn a_case_left_on_the_board_is_read_back_for_its_index_only() {
        let a = Board::create().expect("board");
        assert_eq!(a.case(0), None);
        // SAFETY: dup of a descriptor we own; the copy is owned by the second board.
        let fd = unsafe { OwnedFd::from_raw_fd(libc::dup(a.raw_fd())) };
        let b = Board::map(fd).expect("second mapping");
        b.put_case(7, &[1; 10_000]).expect("put");
        b.put_case(8, b"small").expect("put");
        assert_eq!(a.case(8).as_deref(), Some(&b"small"[..]));
        assert_eq!(a.case(7), None);
        assert_eq!(a.cursor(), None, "the mapped words are untouched");
    }
}
