//! The worker side of a campaign, and the one-shot probe used by replay and crash reduction.
//!
//! A worker opens its engines, generates cases from its own seed, checks them and reports to
//! the supervisor: on its [`Board`] the case it is at (stored before the case runs, so a crash
//! can be traced to the case that caused it) and its verdict counts, and in JSON lines on
//! stdout hello, stats, findings, done and fatal.

use crate::board::Board;
use crate::engine::{Engine, EngineInfo, EngineSpec, SetupError};
use crate::kind::{Check, CheckOptions, Evidence, FindingClass, GenOptions, Helpers, Kind, Oracle};
use crate::outcome::Outcome;
use crate::reduce::{reduce, ReduceStats};
use crate::store::Reduced;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Settings of a campaign, shared by the supervisor and its workers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunConfig {
    pub kind: String,
    pub engines: Vec<EngineSpec>,
    pub oracles: Vec<String>,
    /// Wall-clock budget; `None` with `tests` set.
    pub time: Option<Duration>,
    /// Number of checks; `None` with `time` set.
    pub tests: Option<u64>,
    pub seed: u64,
    pub workers: u32,
    pub seeds_dir: Option<PathBuf>,
    /// Limit for one statement on one engine.
    pub timeout: Duration,
    /// Time bound for reducing one new finding.
    pub reduce_time: Duration,
    /// A worker silent for this long is killed and its case recorded as a hang.
    pub hang_after: Duration,
}

/// What one worker process is asked to do.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkerConfig {
    pub run: RunConfig,
    pub worker: u32,
    pub worker_seed: u64,
    /// First case index (after a restart, the one after the case that crashed).
    pub start: u64,
    /// One past the last index, for a `--tests` budget.
    pub end: Option<u64>,
    /// Unix time in milliseconds at which to stop, for a `--time` budget.
    pub deadline_unix_ms: Option<u64>,
    /// Setup ids whose preparation killed an earlier worker: their cases are skipped, or one
    /// crashing setup statement would crash every case that shares it.
    #[serde(default)]
    pub skip_setups: Vec<u64>,
    /// The inherited descriptor of this worker's [`Board`].
    pub board_fd: i32,
}

/// Time a worker process spent per phase; the supervisor sums them. Verdict counts are on the
/// worker's [`Board`], which outlives the process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub gen_ns: u64,
    pub exec_ns: u64,
    pub check_ns: u64,
    pub reduce_ns: u64,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.gen_ns += o.gen_ns;
        self.exec_ns += o.exec_ns;
        self.check_ns += o.check_ns;
        self.reduce_ns += o.reduce_ns;
    }
}

/// A finding as a worker reports it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkerFinding {
    pub index: u64,
    pub oracle: String,
    pub case: serde_json::Value,
    pub evidence: Evidence,
    pub reduced: Option<Reduced>,
}

/// Worker-to-supervisor messages (one JSON object a line).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Msg {
    Hello {
        engines: Vec<EngineInfo>,
    },
    Stats(Stats),
    Finding(Box<WorkerFinding>),
    /// The worker cannot run (an engine failed to start): the campaign stops with exit 2.
    Fatal(String),
    /// A notice for the person running the campaign (see [`crate::notes`]).
    Note(String),
    Done(Stats),
}

/// An engine whose `run` time is counted as execution time.
struct Timed {
    inner: Box<dyn Engine>,
    ns: Arc<AtomicU64>,
}

impl Engine for Timed {
    fn info(&self) -> &EngineInfo {
        self.inner.info()
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        let t = Instant::now();
        let r = self.inner.reset();
        self.ns.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        r
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let t = Instant::now();
        let r = self.inner.run(text, limit);
        self.ns.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        r
    }
}

/// Opens one engine by its spec. The binary supplies it: core knows no registry and no
/// wrapper (fault injection) of the engines layer.
pub type Opener<'a> = &'a dyn Fn(&EngineSpec) -> Result<Box<dyn Engine>, SetupError>;

/// Opens the engines of a run.
pub fn open_engines(open: Opener<'_>, specs: &[EngineSpec]) -> Result<Vec<Box<dyn Engine>>, SetupError> {
    specs.iter().map(open).collect()
}

fn send(out: &mut impl Write, msg: &Msg) {
    if let Ok(line) = serde_json::to_string(msg) {
        // The supervisor is gone if this fails; the death signal will end this process.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// Runs a worker to the end of its budget; returns the process exit code.
pub fn worker_main<K: Kind>(kind: &K, open: Opener<'_>, cfg: &WorkerConfig) -> i32 {
    crate::process::keep_freed_heap();
    let mut out = io::BufWriter::new(protocol_channel());
    let board = match Board::inherited(cfg.board_fd) {
        Ok(b) => b,
        Err(e) => {
            send(&mut out, &Msg::Fatal(format!("worker: {e}")));
            return 2;
        }
    };
    let exec_ns = Arc::new(AtomicU64::new(0));
    let mut engines: Vec<Box<dyn Engine>> = match open_engines(open, &cfg.run.engines) {
        Ok(e) => e.into_iter().map(|inner| Box::new(Timed { inner, ns: exec_ns.clone() }) as Box<dyn Engine>).collect(),
        Err(e) => {
            send(&mut out, &Msg::Fatal(e.message));
            return 2;
        }
    };
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let oracles = match crate::kind::parse_oracles::<K::Oracle>(kind.name(), &cfg.run.oracles) {
        Ok(o) if !o.is_empty() => o,
        Ok(_) => {
            send(&mut out, &Msg::Fatal("no oracle given".into()));
            return 2;
        }
        Err(e) => {
            send(&mut out, &Msg::Fatal(e));
            return 2;
        }
    };
    if let Err(e) = kind.validate(&oracles, &infos) {
        send(&mut out, &Msg::Fatal(e));
        return 2;
    }
    send(&mut out, &Msg::Hello { engines: infos.clone() });
    // Notices of the generator's set-up (seed files it could not read) come after the hello.
    let flush_notes = |out: &mut io::BufWriter<Box<dyn Write>>| {
        for text in crate::notes::take() {
            send(out, &Msg::Note(text));
        }
    };
    let gen_opts = GenOptions { seed: cfg.worker_seed, seeds_dir: cfg.run.seeds_dir.clone() };
    let mut gen = match kind.generator(&gen_opts, &infos) {
        Ok(g) => g,
        Err(e) => {
            send(&mut out, &Msg::Fatal(e));
            return 2;
        }
    };
    flush_notes(&mut out);
    let opts = CheckOptions { timeout: cfg.run.timeout };
    let mut helpers = Helpers::new(open, kind.helpers(&infos));
    let mut stats = Stats::default();
    let mut last_report = Instant::now();
    let started = Instant::now();
    let mut setup: Option<(u64, bool)> = None;
    let mut reductions: HashMap<(&'static str, FindingClass, String, String), u32> = HashMap::new();
    let n_oracles = oracles.len() as u64;
    let mut index = cfg.start;
    loop {
        if cfg.end.is_some_and(|end| index >= end) || cfg.deadline_unix_ms.is_some_and(|d| unix_ms() >= d) {
            break;
        }
        let oracle = oracles[(index % n_oracles) as usize];
        // The cursor must be on the board before the case runs: it is all that is left if the
        // case kills this process.
        board.set_cursor(index, false);
        let t0 = Instant::now();
        let case = gen.case(index, oracle);
        // Completing the case may run the leg's helper engines (a reference solver): that is
        // generation too, and it happens here, never in the supervisor.
        let case = kind.materialize(case, &infos, &mut helpers, &opts);
        let t1 = Instant::now();
        stats.gen_ns += (t1 - t0).as_nanos() as u64;
        let exec_before = exec_ns.load(Ordering::Relaxed);
        let id = kind.setup_id(&case);
        if cfg.skip_setups.contains(&id) {
            index += 1;
            continue;
        }
        let mut result = None;
        if setup.map(|(s, _)| s) != Some(id) {
            // `!` marks a preparation: a death now is the setup's fault, not this case's.
            board.set_cursor(index, true);
            let prep = kind.prepare(&case, &mut engines, &opts);
            let ok = matches!(prep, Check::Pass { .. });
            setup = Some((id, ok));
            if let Check::Finding(_) = prep {
                result = Some(prep);
            }
            board.set_cursor(index, false);
        }
        let from_setup = result.is_some();
        let result = match result {
            Some(r) => r,
            None if setup.is_some_and(|(_, ok)| ok) => {
                kind.check_with(oracle, &case, &mut engines, &mut helpers, &opts)
            }
            None => Check::Skip("setup failed".into()),
        };
        let spent = t1.elapsed().as_nanos() as u64;
        let exec = exec_ns.load(Ordering::Relaxed) - exec_before;
        stats.exec_ns += exec;
        stats.check_ns += spent.saturating_sub(exec);
        match result {
            Check::Pass { nonempty } => board.count(true, nonempty),
            Check::Skip(_) => board.count(false, false),
            Check::Finding(ev) => {
                board.count(true, false);
                let t = Instant::now();
                let key = (oracle.name(), ev.class, ev.engine_label(), ev.key.clone());
                let n = reductions.entry(key).or_insert(0);
                *n += 1;
                // Reducing every repeat of one failure would eat the campaign (a broken engine
                // fails every check), so the first few per failure key are always reduced and
                // the others while reduction has taken under a quarter of this worker's time:
                // an unreduced case's shape names every feature of its query, so unreduced
                // repeats of one bug would each count as a distinct bug.
                let within_share = (stats.reduce_ns as u128) < started.elapsed().as_nanos() / 4;
                let reduced = if *n <= 3 || within_share {
                    let deadline = Instant::now() + cfg.run.reduce_time;
                    let r = reduce_case(
                        kind,
                        oracle,
                        &case,
                        &ev,
                        (&mut engines, &mut helpers),
                        &opts,
                        deadline,
                        Some(&board),
                    );
                    // Reduction changed the engines' state: prepare again, unless the setup
                    // itself failed, whose other cases are skipped rather than reported again.
                    setup = if from_setup { Some((id, false)) } else { None };
                    r
                } else {
                    None
                };
                stats.reduce_ns += t.elapsed().as_nanos() as u64;
                let finding = WorkerFinding {
                    index,
                    oracle: oracle.name().to_string(),
                    case: serde_json::to_value(&case).unwrap_or(serde_json::Value::Null),
                    evidence: *ev,
                    reduced,
                };
                send(&mut out, &Msg::Finding(Box::new(finding)));
            }
        }
        for text in crate::notes::take() {
            send(&mut out, &Msg::Note(text));
        }
        if last_report.elapsed() >= Duration::from_millis(250) {
            send(&mut out, &Msg::Stats(stats));
            last_report = Instant::now();
        }
        index += 1;
    }
    send(&mut out, &Msg::Done(stats));
    0
}

/// Reduces a case with the finding's own oracle as the interestingness test.
#[allow(clippy::too_many_arguments)]
fn reduce_case<K: Kind>(
    kind: &K,
    oracle: K::Oracle,
    case: &K::Case,
    ev: &Evidence,
    (engines, helpers): (&mut [Box<dyn Engine>], &mut Helpers<'_>),
    opts: &CheckOptions,
    deadline: Instant,
    board: Option<&Board>,
) -> Option<Reduced> {
    let mut last: Option<Evidence> = None;
    let (small, stats) = reduce(
        case.clone(),
        |c| kind.shrink(c),
        |c| kind.size(c),
        |c| {
            // A heartbeat: reduction may take a while without new cases.
            if let Some(b) = board {
                b.beat();
            }
            match recheck_with(kind, oracle, c, engines, helpers, opts) {
                Some(e) if e.same_failure(ev) => {
                    last = Some(e);
                    true
                }
                _ => false,
            }
        },
        deadline,
    );
    reduced_record(small, last, stats)
}

fn reduced_record<C: Serialize>(small: C, last: Option<Evidence>, stats: ReduceStats) -> Option<Reduced> {
    let evidence = last?;
    Some(Reduced { case: serde_json::to_value(&small).ok()?, evidence, stats })
}

/// Prepares and checks a case from scratch; the finding it shows, if any.
pub fn recheck<K: Kind>(
    kind: &K,
    oracle: K::Oracle,
    case: &K::Case,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
) -> Option<Evidence> {
    recheck_with(kind, oracle, case, engines, &mut Helpers::none(), opts)
}

/// [`recheck`] with the leg's helper engines.
pub fn recheck_with<K: Kind>(
    kind: &K,
    oracle: K::Oracle,
    case: &K::Case,
    engines: &mut [Box<dyn Engine>],
    helpers: &mut Helpers<'_>,
    opts: &CheckOptions,
) -> Option<Evidence> {
    match kind.prepare(case, engines, opts) {
        Check::Finding(e) => return Some(*e),
        Check::Skip(_) => return None,
        Check::Pass { .. } => {}
    }
    match kind.check_with(oracle, case, engines, helpers, opts) {
        Check::Finding(e) => Some(*e),
        _ => None,
    }
}

/// Reduces a stored case in this process (the offline `crosscheck reduce`).
pub fn reduce_offline<K: Kind>(
    kind: &K,
    oracle: K::Oracle,
    case: &K::Case,
    ev: &Evidence,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
    deadline: Instant,
) -> Option<Reduced> {
    reduce_case(kind, oracle, case, ev, (engines, &mut Helpers::none()), opts, deadline, None)
}

/// Input of a probe: one case to prepare and check in a throwaway process.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProbeInput {
    pub kind: String,
    pub oracle: String,
    pub engines: Vec<EngineSpec>,
    pub case: serde_json::Value,
    pub timeout: Duration,
}

/// Runs a probe: the evidence the case shows, if any; an error for input that does not fit.
pub fn probe<K: Kind>(kind: &K, open: Opener<'_>, input: &ProbeInput) -> Result<Option<Evidence>, String> {
    let case: K::Case = serde_json::from_value(input.case.clone())
        .map_err(|e| format!("the case does not fit the {} leg: {e}", input.kind))?;
    let mut engines = open_engines(open, &input.engines).map_err(|e| e.message)?;
    let oracle = K::Oracle::parse(&input.oracle)
        .ok_or_else(|| format!("the {} leg has no oracle \"{}\"", input.kind, input.oracle))?;
    let opts = CheckOptions { timeout: input.timeout };
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let mut helpers = Helpers::new(open, kind.helpers(&infos));
    // A case the supervisor rebuilt after a crash is stored as the generator made it.
    let case = kind.materialize(case, &infos, &mut helpers, &opts);
    Ok(recheck_with(kind, oracle, &case, &mut engines, &mut helpers, &opts))
}

/// Takes stdout for the protocol alone: engines that print (to Rust's stdout or to fd 1 from C)
/// must not corrupt it, so fd 1 is pointed at stderr and the protocol goes to a duplicate.
fn protocol_channel() -> Box<dyn Write> {
    use std::os::fd::FromRawFd;
    // SAFETY: dup/dup2 on the process's own standard descriptors; the new descriptor is owned
    // by the File created from it and nothing else.
    unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return Box::new(io::stdout());
        }
        Box::new(std::fs::File::from_raw_fd(fd))
    }
}

pub fn unix_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}
