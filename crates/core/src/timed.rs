//! An engine whose time is counted: the worker splits a campaign's time into generation,
//! execution and checking with it, and the benchmarks report the same split.

use crate::engine::{Engine, EngineInfo, SetupError};
use crate::outcome::Outcome;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Adds the nanoseconds `inner` spends resetting and running to a shared counter.
pub struct Timed {
    inner: Box<dyn Engine>,
    ns: Arc<AtomicU64>,
}

impl Timed {
    pub fn new(inner: Box<dyn Engine>, ns: Arc<AtomicU64>) -> Timed {
        Timed { inner, ns }
    }

    fn count(&self, since: Instant) {
        self.ns.fetch_add(crate::nanos(since.elapsed()), Ordering::Relaxed);
    }
}

impl Engine for Timed {
    fn info(&self) -> &EngineInfo {
        self.inner.info()
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        let t = Instant::now();
        let r = self.inner.reset();
        self.count(t);
        r
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let t = Instant::now();
        let r = self.inner.run(text, limit);
        self.count(t);
        r
    }
}
