//! Notices for the person running crosscheck (a seed file skipped, a seed over its time
//! budget), raised anywhere in core or a leg and shown by the binary: neither core nor a leg
//! writes to the terminal. A worker forwards them to the supervisor, which hands each text to
//! its sink once per campaign.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static PENDING: AtomicBool = AtomicBool::new(false);
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Queues a notice.
pub fn note(text: impl Into<String>) {
    if let Ok(mut n) = NOTES.lock() {
        n.push(text.into());
        PENDING.store(true, Ordering::Release);
    }
}

/// Takes the queued notices; cheap when there are none, so a worker can ask after every case.
pub fn take() -> Vec<String> {
    if !PENDING.swap(false, Ordering::AcqRel) {
        return Vec::new();
    }
    NOTES.lock().map(|mut n| std::mem::take(&mut *n)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn notes_are_taken_once() {
        super::note("a");
        super::note("b");
        assert_eq!(super::take(), vec!["a".to_string(), "b".to_string()]);
        assert!(super::take().is_empty());
    }
}
