//! The worker side of a campaign, and the one-shot probe used by replay and crash reduction.
//!
//! A worker opens its engines, generates cases from its own seed, checks them and reports to
//! the supervisor: on its [`Board`] the case it is at (stored before the case runs, so a crash
//! can be traced to the case that caused it) and its verdict counts, and in JSON lines on
//! stdout hello, stats, findings, done and fatal.

use crate::board::Board;
use crate::dedup::Dedup;
use crate::engine::{Engine, EngineInfo, EngineSpec, SetupError};
use crate::kind::{Check, CheckOptions, Evidence, FindingClass, GenOptions, Generator, Helpers, Kind, Oracle};
use crate::reduce::{reduce, ReduceStats};
use crate::store::Reduced;
use crate::timed::Timed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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
    /// Full finding directories kept per distinct bug (besides any smaller reduced case);
    /// other occurrences are rows in `findings.db`.
    pub keep: u32,
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

/// Time a worker process spent per phase, and its skipped checks by reason; the supervisor
/// sums them. Verdict counts are on the worker's [`Board`], which outlives the process.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub gen_ns: u64,
    pub exec_ns: u64,
    pub check_ns: u64,
    pub reduce_ns: u64,
    /// Checks that judged nothing, by [`skip_key`] of their reason.
    #[serde(default)]
    pub skipped: BTreeMap<String, u64>,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.gen_ns += o.gen_ns;
        self.exec_ns += o.exec_ns;
        self.check_ns += o.check_ns;
        self.reduce_ns += o.reduce_ns;
        for (k, n) in &o.skipped {
            *self.skipped.entry(k.clone()).or_default() += n;
        }
    }

    /// Counts one skipped check under its reason's key.
    fn skip(&mut self, reason: &str) {
        let key = skip_key(reason);
        let key = if self.skipped.len() >= MAX_SKIP_KEYS && !self.skipped.contains_key(&key) {
            "other".to_string()
        } else {
            key
        };
        *self.skipped.entry(key).or_default() += 1;
    }
}

/// Distinct skip reasons a worker keeps apart; the rest are counted as `other`.
const MAX_SKIP_KEYS: usize = 24;

/// The key a skip reason is counted under: its text before any parenthesis and its first two
/// colon-separated parts (`engine: what`), where legs put the varying part after (an engine's
/// own message, a relation's name).
pub fn skip_key(reason: &str) -> String {
    let head = reason.split('(').next().unwrap_or("");
    let head = head.splitn(3, ':').take(2).collect::<Vec<_>>().join(":");
    let head = head.trim().trim_end_matches(':').trim();
    let head = if head.is_empty() { "unnamed" } else { head };
    head.chars().take(80).collect()
}

/// Cases per label: how many ran, and how many of them were valid (not skipped).
pub type LabelCounts = BTreeMap<String, LabelCount>;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LabelCount {
    pub tests: u64,
    pub valid: u64,
}

/// Adds `more` into `total`.
pub fn add_labels(total: &mut LabelCounts, more: &LabelCounts) {
    for (k, c) in more {
        let t = total.entry(k.clone()).or_default();
        t.tests += c.tests;
        t.valid += c.valid;
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
    /// The case came from an adaptive generator: its index cannot rebuild it.
    #[serde(default)]
    pub adaptive: bool,
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
    /// Cases per [label](crate::Kind::label) this process has run so far.
    Labels(LabelCounts),
    Done(Stats),
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
    let mut w = match Worker::start(kind, open, cfg, &mut out) {
        Ok(w) => w,
        Err(e) => {
            send(&mut out, &Msg::Fatal(e));
            return 2;
        }
    };
    let mut last_report = Instant::now();
    let mut index = cfg.start;
    while cfg.end.is_none_or(|end| index < end) && cfg.deadline_unix_ms.is_none_or(|d| unix_ms() < d) {
        if let Some(finding) = w.run_case(index) {
            send(&mut out, &Msg::Finding(Box::new(finding)));
        }
        send_notes(&mut out);
        if last_report.elapsed() >= Duration::from_millis(250) {
            send(&mut out, &Msg::Labels(w.labels.clone()));
            send(&mut out, &Msg::Stats(w.stats.clone()));
            last_report = Instant::now();
        }
        index += 1;
    }
    send(&mut out, &Msg::Labels(w.labels.clone()));
    send(&mut out, &Msg::Done(w.stats.clone()));
    0
}

fn send_notes(out: &mut impl Write) {
    for text in crate::notes::take() {
        send(out, &Msg::Note(text));
    }
}

/// A running worker: its engines, its generator and what it has counted.
struct Worker<'a, K: Kind> {
    kind: &'a K,
    cfg: &'a WorkerConfig,
    board: Board,
    engines: Vec<Box<dyn Engine>>,
    helpers: Helpers<'a>,
    infos: Vec<EngineInfo>,
    gen: Box<dyn Generator<K::Case, K::Oracle>>,
    oracles: Vec<K::Oracle>,
    opts: CheckOptions,
    exec_ns: Arc<AtomicU64>,
    stats: Stats,
    labels: LabelCounts,
    started: Instant,
    /// The setup id prepared last, and whether its preparation passed.
    setup: Option<(u64, bool)>,
    /// The bugs this worker has seen: a finding one of them explains is not reduced.
    bugs: Dedup,
}

impl<'a, K: Kind> Worker<'a, K> {
    /// Opens the engines, checks the run and says hello; an error is the worker's fatal message.
    fn start(kind: &'a K, open: Opener<'a>, cfg: &'a WorkerConfig, out: &mut impl Write) -> Result<Self, String> {
        let board = Board::inherited(cfg.board_fd).map_err(|e| format!("worker: {e}"))?;
        let exec_ns = Arc::new(AtomicU64::new(0));
        let engines: Vec<Box<dyn Engine>> = open_engines(open, &cfg.run.engines)
            .map_err(|e| e.message)?
            .into_iter()
            .map(|inner| Box::new(Timed::new(inner, exec_ns.clone())) as Box<dyn Engine>)
            .collect();
        let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
        let oracles = crate::kind::parse_oracles::<K::Oracle>(K::NAME, &cfg.run.oracles)?;
        if oracles.is_empty() {
            return Err("no oracle given".into());
        }
        kind.validate(&oracles, &infos)?;
        send(out, &Msg::Hello { engines: infos.clone() });
        let gen =
            kind.generator(&GenOptions { seed: cfg.worker_seed, seeds_dir: cfg.run.seeds_dir.clone() }, &infos)?;
        // Notices of the generator's set-up (seed files it could not read) come after the hello.
        send_notes(out);
        Ok(Worker {
            kind,
            cfg,
            board,
            engines,
            helpers: Helpers::new(open, kind.helpers(&infos)),
            infos,
            gen,
            oracles,
            opts: CheckOptions { timeout: cfg.run.timeout },
            exec_ns,
            stats: Stats::default(),
            labels: LabelCounts::new(),
            started: Instant::now(),
            setup: None,
            bugs: Dedup::default(),
        })
    }

    /// Generates, prepares and checks case `index`; the finding it gave, if any.
    fn run_case(&mut self, index: u64) -> Option<WorkerFinding> {
        let oracle = self.oracles[crate::position(index, self.oracles.len())];
        // The cursor must be on the board before the case runs: it is all that is left if the
        // case kills this process.
        self.board.set_cursor(index, false);
        let t0 = Instant::now();
        let case = self.gen.case(index, oracle);
        // Completing the case may run the leg's helper engines (a reference solver): that is
        // generation too, and it happens here, never in the supervisor.
        let case = self.kind.materialize(case, &self.infos, &mut self.helpers, &self.opts);
        if self.gen.adaptive() {
            // Its index cannot rebuild it: if it kills this process, the board is all that is left.
            if let Ok(bytes) = serde_json::to_vec(&case) {
                let _ = self.board.put_case(index, &bytes);
            }
        }
        let t1 = Instant::now();
        self.stats.gen_ns += crate::nanos(t1 - t0);
        let exec_before = self.exec_ns.load(Ordering::Relaxed);
        let id = self.kind.setup_id(&case);
        if self.cfg.skip_setups.contains(&id) {
            return None;
        }
        let (result, from_setup) = self.verdict(index, id, oracle, &case);
        let exec = self.exec_ns.load(Ordering::Relaxed) - exec_before;
        self.stats.exec_ns += exec;
        self.stats.check_ns += crate::nanos(t1.elapsed()).saturating_sub(exec);
        self.gen.observe(index, &case, matches!(result, Check::Pass { nonempty: true }));
        if let Some(label) = self.kind.label(&case) {
            let c = self.labels.entry(label).or_default();
            c.tests += 1;
            c.valid += u64::from(!matches!(result, Check::Skip(_)));
        }
        match result {
            Check::Pass { nonempty } => self.board.count(true, nonempty),
            Check::Skip(why) => {
                self.stats.skip(&why);
                self.board.count(false, false)
            }
            Check::Finding(ev) => {
                self.board.count(true, false);
                return Some(self.finding(index, id, oracle, case, *ev, from_setup));
            }
        }
        None
    }

    /// Prepares the case's setup when it changed, then checks the case; whether a finding
    /// came from the setup.
    fn verdict(&mut self, index: u64, id: u64, oracle: K::Oracle, case: &K::Case) -> (Check, bool) {
        if self.setup.map(|(s, _)| s) != Some(id) {
            // `!` marks a preparation: a death now is the setup's fault, not this case's.
            self.board.set_cursor(index, true);
            let prep = self.kind.prepare(case, &mut self.engines, &self.opts);
            self.setup = Some((id, matches!(prep, Check::Pass { .. })));
            self.board.set_cursor(index, false);
            if let Check::Finding(_) = prep {
                return (prep, true);
            }
        }
        if !self.setup.is_some_and(|(_, ok)| ok) {
            return (Check::Skip("setup failed".into()), false);
        }
        (self.kind.check_with(oracle, case, &mut self.engines, &mut self.helpers, &self.opts), false)
    }

    /// When a reduction must end: its own bound, or the campaign's end if that comes first.
    fn reduce_deadline(&self) -> Instant {
        let own = Instant::now() + self.cfg.run.reduce_time;
        match self.cfg.deadline_unix_ms {
            Some(d) => own.min(Instant::now() + Duration::from_millis(d.saturating_sub(unix_ms()))),
            None => own,
        }
    }

    /// The finding of case `index`, reduced while reduction keeps to its share of the time.
    fn finding(
        &mut self,
        index: u64,
        id: u64,
        oracle: K::Oracle,
        case: K::Case,
        ev: Evidence,
        from_setup: bool,
    ) -> WorkerFinding {
        let t = Instant::now();
        let bucket = crate::books::bucket(K::NAME, oracle.name(), &ev, &self.infos);
        let shape = self.kind.signature(oracle, &case, &ev);
        // A bug this worker knows explains the finding: reducing it would find that bug again.
        // The others are reduced while reduction has taken under four fifths of this worker's
        // time: an unreduced case names every incidental feature of its query, so it stands as a
        // bug of its own, and the fifth left keeps testing going. (Reducing the first three of
        // each kind always spent 275 of 300 s of a three-engine Cypher run on 760 tests;
        // reducing beyond them only within half the time left 102 of its 149 bugs unreduced.)
        let known = self.bugs.covers(&bucket, &shape);
        let within_share = u128::from(self.stats.reduce_ns) < self.started.elapsed().as_nanos() * 4 / 5;
        let reduced = if !known && within_share {
            let deadline = self.reduce_deadline();
            let pair = (self.engines.as_mut_slice(), &mut self.helpers);
            let r = reduce_case(self.kind, oracle, &case, &ev, pair, &self.opts, deadline, Some(&self.board));
            // Reduction changed the engines' state: prepare again, unless the setup itself
            // failed, whose other cases are skipped rather than reported again.
            self.setup = if from_setup { Some((id, false)) } else { None };
            r
        } else {
            None
        };
        let best = reduced.as_ref().and_then(|r| {
            let small = serde_json::from_value::<K::Case>(r.case.clone()).ok()?;
            Some((
                crate::books::bucket(K::NAME, oracle.name(), &r.evidence, &self.infos),
                self.kind.signature(oracle, &small, &r.evidence),
            ))
        });
        let (bucket, shape) = best.unwrap_or((bucket, shape));
        self.bugs.place(&bucket, &shape);
        self.stats.reduce_ns += crate::nanos(t.elapsed());
        WorkerFinding {
            index,
            oracle: oracle.name().to_string(),
            case: serde_json::to_value(&case).unwrap_or(serde_json::Value::Null),
            evidence: ev,
            reduced,
            adaptive: self.gen.adaptive(),
        }
    }
}

/// Reduces a case with the finding's own oracle as the interestingness test: a worker's, and
/// that of a command that checks without workers (`crosscheck summary run`).
#[allow(clippy::too_many_arguments)]
pub fn reduce_case<K: Kind>(
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
    // The case the engines hold the setup of, while a check has not disturbed it.
    let mut prepared: Option<K::Case> = None;
    let (small, stats) = reduce(
        case.clone(),
        |c| kind.shrink_lazy(c),
        |c| kind.size(c),
        |c| {
            // A heartbeat: reduction may take a while without new cases.
            if let Some(b) = board {
                b.beat();
            }
            let ready = prepared.take().is_some_and(|p| kind.same_setup(&p, c));
            let (setup_ok, checked) = match ready {
                true => (true, kind.check_with(oracle, c, engines, helpers, opts)),
                false => match kind.prepare(c, engines, opts) {
                    Check::Pass { .. } => (true, kind.check_with(oracle, c, engines, helpers, opts)),
                    failed => (false, failed),
                },
            };
            // The setup serves the next step unless it failed, or a crash or a timeout (a
            // skip) may have taken it from an engine.
            let intact = setup_ok
                && match &checked {
                    Check::Pass { .. } => true,
                    Check::Finding(e) => !matches!(e.class, FindingClass::Crash | FindingClass::Hang),
                    Check::Skip(_) => false,
                };
            prepared = intact.then(|| c.clone());
            let found = match checked {
                Check::Finding(e) => Some(*e),
                _ => None,
            };
            match found {
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
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(crate::millis).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::skip_key;

    #[test]
    fn skip_reasons_are_keyed_without_their_varying_part() {
        assert_eq!(skip_key("timeout"), "timeout");
        assert_eq!(skip_key("an engine limit (z3; out of memory)"), "an engine limit");
        assert_eq!(skip_key("z3-datalog: wildcard in a negated atom"), "z3-datalog: wildcard in a negated atom");
        assert_eq!(skip_key("z3: z3: (error \"line 3\")"), "z3: z3");
        assert_eq!(skip_key("(x)"), "unnamed");
    }
}
