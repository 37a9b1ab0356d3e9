//! The campaign supervisor: starts worker processes, follows their progress, turns a worker's
//! death or silence into a crash or hang finding, restarts it after the case that killed it,
//! and writes every finding to the store.
//!
//! Architecture invariant: in-process engines run only inside workers; the supervisor opens no
//! engine, so an engine crash can never take the campaign down.

use crate::board::Board;
use crate::books::Books;
use crate::engine::EngineInfo;
use crate::kind::{Detail, Evidence, FindingClass, GenOptions, Generator, Kind, Oracle};
use crate::process::{ChildGuard, Tail};
use crate::store::{now_unix, FindingRecord, Store, StoreError, FORMAT};
use crate::worker::{add_labels, unix_ms, LabelCounts, Msg, RunConfig, Stats, WorkerConfig, WorkerFinding};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

/// Lines from workers waiting for the supervisor, at most.
const LINES_IN_FLIGHT: usize = 256;

/// How long past its deadline a `--time` campaign may take to wind down.
const GRACE: Duration = Duration::from_secs(5);

/// Set by SIGINT / SIGTERM: the campaign stops, cleans up and reports what it has.
pub static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Makes Ctrl-C and SIGTERM stop a campaign cleanly instead of killing the supervisor and
/// orphaning its workers.
pub fn install_stop_handlers() {
    let handler = on_stop_signal as extern "C" fn(libc::c_int);
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
    }
}

/// Generate / execute / check / reduce seconds, summed over workers.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct TimeSplit {
    pub generate: f64,
    pub execute: f64,
    pub check: f64,
    pub reduce: f64,
}

/// Progress so far; at the end, the campaign summary of PRODUCT.md.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Summary {
    pub tests: u64,
    pub tests_per_sec: f64,
    pub valid_pct: f64,
    pub nonempty_pct: f64,
    pub findings: u64,
    pub distinct: u64,
    pub engines: Vec<EngineSummary>,
    pub time: TimeSplit,
    pub elapsed_sec: f64,
    pub seed: u64,
    pub workers: u32,
    pub worker_restarts: u64,
    pub interrupted: bool,
    /// Checks that judged nothing, by the key of their reason (`worker::skip_key`).
    #[serde(default)]
    pub skipped: std::collections::BTreeMap<String, u64>,
    /// Cases per [label](crate::Kind::label) (tests run, valid ones), when the leg gives labels.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_label: LabelCounts,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineSummary {
    pub name: String,
    pub label: String,
    pub version: String,
}

/// Where the supervisor reports as it goes (the binary prints; tests collect).
pub trait Sink {
    fn progress(&mut self, summary: &Summary);
    fn finding(&mut self, rec: &FindingRecord, new_bug: bool);
    /// A notice from a worker or a leg (a seed skipped); each text once per campaign.
    fn note(&mut self, text: &str);
}

/// How the supervisor starts its child processes. The binary fills it in, so core names no
/// command line of its own.
pub trait Launcher {
    /// A worker: reads a [`WorkerConfig`] on stdin and speaks [`Msg`] lines on stdout.
    fn worker(&self) -> Command;
    /// A background reduction of the finding in `dir`, bounded by `time`.
    fn reducer(&self, dir: &Path, time: Duration) -> Command;
    /// The program, for an error message when it cannot start.
    fn program(&self) -> String;
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An engine could not start in a worker, or the leg rejected the configuration.
    #[error("{0}")]
    Setup(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot start a worker process ({exe}): {source}")]
    Spawn { exe: String, source: std::io::Error },
}

enum Event {
    Line(u32, u64, String),
    Eof(u32, u64),
}

struct Slot<C, O> {
    worker: u32,
    seed: u64,
    proc_gen: u64,
    guard: Option<ChildGuard>,
    tail: Option<Tail>,
    /// The worker's cursor and verdict counts, which outlive its process.
    board: Board,
    /// The board's pulse when last looked at: a change means the worker is not hung.
    pulse: (u64, u64),
    skip_setups: Vec<u64>,
    last_seen: Instant,
    done: bool,
    finished: bool,
    stats: Stats,
    retired: Stats,
    /// Cases per label of the current process, and of the ones before it.
    labels: LabelCounts,
    retired_labels: LabelCounts,
    engines: Option<Vec<EngineInfo>>,
    hello_this_proc: bool,
    deaths_before_hello: u32,
    end: Option<u64>,
    generator: Option<Box<dyn Generator<C, O>>>,
}

/// Runs a campaign of `kind` as `cfg` says, with workers started by `launcher`.
pub fn run_campaign<K: Kind>(
    kind: &K,
    cfg: &RunConfig,
    launcher: &dyn Launcher,
    store: &mut Store,
    campaign: i64,
    sink: &mut dyn Sink,
) -> Result<Summary, RunError> {
    let start = Instant::now();
    let deadline_unix_ms = cfg.time.map(|t| unix_ms() + crate::millis(t));
    // Bounded: a worker that finds faster than the supervisor records waits on its pipe
    // instead of queueing findings past the end of the budget.
    let (tx, rx) = mpsc::sync_channel(LINES_IN_FLIGHT);
    let mut slots: Vec<Slot<K::Case, K::Oracle>> = new_slots(cfg, launcher)?;
    for slot in slots.iter_mut().filter(|s| !s.finished) {
        spawn_worker(launcher, cfg, slot, 0, deadline_unix_ms, &tx)?;
    }
    let ctx = Ctx { kind, cfg, launcher };
    let mut tally = Tally { books: Books::new(campaign, cfg.keep), notes: HashSet::new(), reducers: Vec::new() };
    let mut restarts = 0u64;
    let mut last_progress = Instant::now();
    let mut interrupted = false;
    let result = loop {
        if STOP.load(Ordering::SeqCst) {
            interrupted = true;
            break Ok(());
        }
        if slots.iter().all(|s| s.finished) {
            break Ok(());
        }
        if deadline_unix_ms.is_some_and(|d| unix_ms() > d + crate::millis(GRACE)) {
            // Workers stop at the deadline and bound their reductions by it; one that has
            // not finished its case by now is stopped with it.
            let busy = slots.iter().filter(|s| !s.finished).count();
            sink.note(&format!("the budget is spent: stopping {busy} worker(s) still busy"));
            break Ok(());
        }
        let flow = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Event::Line(w, g, line)) => {
                let slot = &mut slots[w as usize];
                if g != slot.proc_gen {
                    continue;
                }
                on_line(&ctx, store, sink, &mut tally, slot, &line)?
            }
            Ok(Event::Eof(w, g)) => {
                let slot = &mut slots[w as usize];
                if g != slot.proc_gen {
                    continue;
                }
                let restart = Restart { deadline_unix_ms, tx: &tx, restarts: &mut restarts };
                on_eof(&ctx, store, sink, &mut tally, slot, restart)?
            }
            Err(RecvTimeoutError::Timeout) => Flow::On,
            Err(RecvTimeoutError::Disconnected) => break Ok(()),
        };
        match flow {
            Flow::On => {}
            Flow::Skip => continue,
            Flow::End(r) => break r,
        }
        check_hangs(&ctx, store, sink, &mut tally, &mut slots)?;
        if last_progress.elapsed() >= Duration::from_secs(5) {
            last_progress = Instant::now();
            let s = summarize(cfg, &slots, start, &tally, restarts, false);
            record_progress(store, campaign, sink, &s);
            sink.progress(&s);
        }
    };
    wind_down(cfg, &mut slots, &mut tally, deadline_unix_ms);
    result?;
    let s = summarize(cfg, &slots, start, &tally, restarts, interrupted);
    record_progress(store, campaign, sink, &s);
    Ok(s)
}

/// What the campaign loop does after an event.
enum Flow {
    /// Goes on to look for hung workers and to report progress.
    On,
    /// Waits for the next event straight away.
    Skip,
    /// Stops the workers and ends the campaign with this result.
    End(Result<(), RunError>),
}

/// What restarting a dead worker needs besides its slot.
struct Restart<'a> {
    deadline_unix_ms: Option<u64>,
    tx: &'a SyncSender<Event>,
    restarts: &'a mut u64,
}

/// One slot per worker, each with its share of `cfg.tests` (the first `tests % workers` get
/// one more).
fn new_slots<C, O>(cfg: &RunConfig, launcher: &dyn Launcher) -> Result<Vec<Slot<C, O>>, RunError> {
    let spawn_err = |source| RunError::Spawn { exe: launcher.program(), source };
    (0..cfg.workers)
        .map(|w| {
            let end = cfg.tests.map(|n| n / cfg.workers as u64 + u64::from((w as u64) < n % cfg.workers as u64));
            Ok(Slot {
                worker: w,
                seed: crate::derive_seed(cfg.seed, w as u64),
                proc_gen: 0,
                guard: None,
                tail: None,
                board: Board::create().map_err(spawn_err)?,
                pulse: (0, 0),
                skip_setups: Vec::new(),
                last_seen: Instant::now(),
                done: false,
                finished: end == Some(0),
                stats: Stats::default(),
                retired: Stats::default(),
                labels: LabelCounts::new(),
                retired_labels: LabelCounts::new(),
                engines: None,
                hello_this_proc: false,
                deaths_before_hello: 0,
                end,
                generator: None,
            })
        })
        .collect()
}

/// A line from the current process of `slot`'s worker.
fn on_line<K: Kind>(
    ctx: &Ctx<'_, K>,
    store: &mut Store,
    sink: &mut dyn Sink,
    tally: &mut Tally,
    slot: &mut Slot<K::Case, K::Oracle>,
    line: &str,
) -> Result<Flow, RunError> {
    slot.last_seen = Instant::now();
    // Engines may write to stdout too; only our JSON messages count.
    let Ok(msg) = serde_json::from_str::<Msg>(line) else { return Ok(Flow::Skip) };
    match msg {
        Msg::Hello { engines } => {
            slot.engines = Some(engines);
            slot.hello_this_proc = true;
        }
        Msg::Stats(s) => slot.stats = s,
        Msg::Labels(l) => slot.labels = l,
        Msg::Done(s) => {
            slot.stats = s;
            slot.done = true;
        }
        Msg::Fatal(m) => return Ok(Flow::End(Err(RunError::Setup(m)))),
        Msg::Note(text) => {
            if tally.notes.insert(text.clone()) {
                sink.note(&text);
            }
        }
        Msg::Finding(f) => {
            let mut rec = finding_record(ctx.cfg, slot, *f);
            tally.books.record(ctx.kind, store, sink, &mut rec)?;
        }
    }
    Ok(Flow::On)
}

/// The end of the current process of `slot`'s worker: done, or dead. A death after the
/// worker's engines opened is a crash finding at the case it was running, and the worker
/// restarts after that case; two deaths before they open end the campaign.
fn on_eof<K: Kind>(
    ctx: &Ctx<'_, K>,
    store: &mut Store,
    sink: &mut dyn Sink,
    tally: &mut Tally,
    slot: &mut Slot<K::Case, K::Oracle>,
    restart: Restart<'_>,
) -> Result<Flow, RunError> {
    let (kind, cfg) = (ctx.kind, ctx.cfg);
    let status = reap(slot);
    slot.retired.add(&slot.stats);
    slot.stats = Stats::default();
    add_labels(&mut slot.retired_labels, &std::mem::take(&mut slot.labels));
    if slot.done {
        slot.finished = true;
        return Ok(Flow::Skip);
    }
    if !slot.hello_this_proc {
        slot.deaths_before_hello += 1;
        if slot.deaths_before_hello >= 2 {
            let tail = slot.tail.as_ref().map(|t| t.text(Duration::from_millis(200))).unwrap_or_default();
            return Ok(Flow::End(Err(RunError::Setup(format!(
                "a worker died while opening its engines ({}){}",
                describe_status(status),
                last_line(&tail)
            )))));
        }
    }
    let cursor = slot.board.cursor();
    let index = cursor.map_or(0, |c| c.0);
    if slot.hello_this_proc && cursor.is_some() {
        let tail = slot.tail.as_ref().map(|t| t.text(Duration::from_millis(200))).unwrap_or_default();
        let summary = format!("the worker died ({}) running case {index}", describe_status(status));
        let detail = Detail::of(&DeathDetail { stderr_tail: tail });
        let ev =
            death_evidence(slot, FindingClass::Crash, summary, (describe_status(status), crash_key(status)), detail);
        record_death(ctx, store, sink, tally, slot, index, ev)?;
    }
    if cursor.is_some_and(|c| c.1) {
        skip_setup_of(kind, cfg, slot, index);
    }
    let next = if cursor.is_some() { index + 1 } else { 0 };
    if budget_left(slot, next, restart.deadline_unix_ms) {
        *restart.restarts += 1;
        spawn_worker(ctx.launcher, cfg, slot, next, restart.deadline_unix_ms, restart.tx)?;
    } else {
        slot.finished = true;
    }
    Ok(Flow::On)
}

/// Kills every worker silent for longer than `hang_after` and records the hang; its Eof then
/// restarts it.
fn check_hangs<K: Kind>(
    ctx: &Ctx<'_, K>,
    store: &mut Store,
    sink: &mut dyn Sink,
    tally: &mut Tally,
    slots: &mut [Slot<K::Case, K::Oracle>],
) -> Result<(), RunError> {
    let (kind, cfg) = (ctx.kind, ctx.cfg);
    for slot in slots.iter_mut() {
        let pulse = slot.board.pulse();
        if pulse != slot.pulse {
            slot.pulse = pulse;
            slot.last_seen = Instant::now();
        }
        if slot.finished || slot.guard.is_none() || slot.last_seen.elapsed() < cfg.hang_after {
            continue;
        }
        let cursor = slot.board.cursor();
        let index = cursor.map_or(0, |c| c.0);
        if let Some(g) = slot.guard.as_mut() {
            g.kill();
        }
        let summary = format!("no answer within {} s on case {index}", cfg.hang_after.as_secs());
        let ev = death_evidence(slot, FindingClass::Hang, summary, ("hang".into(), "hang".into()), Detail::none());
        if cursor.is_some_and(|c| c.1) {
            skip_setup_of(kind, cfg, slot, index);
        }
        if slot.hello_this_proc {
            record_death(ctx, store, sink, tally, slot, index, ev)?;
        }
        // Counted as a death without a crash finding of its own.
        slot.hello_this_proc = false;
        slot.deaths_before_hello = 0;
        slot.last_seen = Instant::now();
    }
    Ok(())
}

/// Stops the workers, then gives the background reductions of crash and hang findings their
/// time, as they run in their own processes.
fn wind_down<C, O>(cfg: &RunConfig, slots: &mut [Slot<C, O>], tally: &mut Tally, deadline_unix_ms: Option<u64>) {
    for slot in slots.iter_mut() {
        if let Some(mut g) = slot.guard.take() {
            g.stop(Duration::from_millis(500));
        }
    }
    let mut end = Instant::now() + cfg.reduce_time + Duration::from_secs(2);
    if let Some(d) = deadline_unix_ms {
        end = end.min(Instant::now() + Duration::from_millis((d + crate::millis(GRACE)).saturating_sub(unix_ms())));
    }
    for mut r in tally.reducers.drain(..) {
        while r.try_wait().is_none() && Instant::now() < end && !STOP.load(Ordering::SeqCst) {
            thread::sleep(Duration::from_millis(50));
        }
        r.stop(Duration::from_millis(200));
    }
}

/// The time series `crosscheck report` plots. A point that cannot be written costs the plot a
/// point, not the campaign: findings are what must be durable.
fn record_progress(store: &Store, campaign: i64, sink: &mut dyn Sink, s: &Summary) {
    if let Err(e) = store.record_progress(campaign, &s.point()) {
        sink.note(&format!("progress not recorded: {e}"));
    }
}

impl Summary {
    /// The summary as a point of the campaign's time series.
    pub fn point(&self) -> crate::store::ProgressPoint {
        crate::store::ProgressPoint {
            elapsed_sec: self.elapsed_sec,
            tests: self.tests,
            tests_per_sec: self.tests_per_sec,
            valid_pct: self.valid_pct,
            nonempty_pct: self.nonempty_pct,
            findings: self.findings,
            distinct: self.distinct,
        }
    }
}

fn budget_left<C, O>(slot: &Slot<C, O>, next: u64, deadline_unix_ms: Option<u64>) -> bool {
    slot.end.is_none_or(|e| next < e) && deadline_unix_ms.is_none_or(|d| unix_ms() < d) && !STOP.load(Ordering::SeqCst)
}

fn spawn_worker<C, O>(
    launcher: &dyn Launcher,
    cfg: &RunConfig,
    slot: &mut Slot<C, O>,
    start: u64,
    deadline_unix_ms: Option<u64>,
    tx: &SyncSender<Event>,
) -> Result<(), RunError> {
    let spawn_err = |source| RunError::Spawn { exe: launcher.program(), source };
    let wc = WorkerConfig {
        run: cfg.clone(),
        worker: slot.worker,
        worker_seed: slot.seed,
        start,
        end: slot.end,
        deadline_unix_ms,
        skip_setups: slot.skip_setups.clone(),
        board_fd: slot.board.raw_fd(),
    };
    let mut cmd = launcher.worker();
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let board_fd = slot.board.raw_fd();
    // SAFETY: prctl and fcntl are async-signal-safe. prctl makes the worker die with the
    // supervisor, even when the supervisor is killed with SIGKILL and cannot clean up; clearing
    // close-on-exec lets the worker inherit its board (the descriptor number is in its config).
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::fcntl(board_fd, libc::F_SETFD, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut guard = ChildGuard::spawn(&mut cmd).map_err(spawn_err)?;
    let child = guard.child_mut();
    let config = serde_json::to_string(&wc).map_err(|e| spawn_err(std::io::Error::other(e)))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(config.as_bytes()).map_err(spawn_err)?;
    }
    let stdout = child.stdout.take().ok_or_else(|| spawn_err(std::io::Error::other("no stdout")))?;
    let tail = child.stderr.take().map(Tail::spawn);
    slot.proc_gen += 1;
    let (w, g, tx) = (slot.worker, slot.proc_gen, tx.clone());
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(Event::Line(w, g, line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Eof(w, g));
    });
    slot.guard = Some(guard);
    slot.tail = tail;
    slot.board.clear_cursor();
    slot.pulse = slot.board.pulse();
    slot.done = false;
    slot.hello_this_proc = false;
    slot.last_seen = Instant::now();
    Ok(())
}

fn reap<C, O>(slot: &mut Slot<C, O>) -> Option<ExitStatus> {
    let mut g = slot.guard.take()?;
    let end = Instant::now() + Duration::from_secs(2);
    while Instant::now() < end {
        if let Some(s) = g.try_wait() {
            return Some(s);
        }
        thread::sleep(Duration::from_millis(5));
    }
    g.kill()
}

fn describe_status(s: Option<ExitStatus>) -> String {
    match s {
        Some(s) => match (s.signal(), s.code()) {
            (Some(sig), _) => format!("signal {sig}"),
            (None, Some(c)) => format!("exit code {c}"),
            _ => "unknown status".into(),
        },
        None => "unknown status".into(),
    }
}

fn crash_key(s: Option<ExitStatus>) -> String {
    describe_status(s)
}

fn last_line(tail: &str) -> String {
    match tail.lines().rev().find(|l| !l.trim().is_empty()) {
        Some(l) => format!(": {}", l.trim()),
        None => String::new(),
    }
}

/// What the supervisor keeps of a worker that died: the end of its error output.
#[derive(serde::Serialize)]
struct DeathDetail {
    stderr_tail: String,
}

/// The evidence of a worker that died or hung: every engine of the run is a suspect.
fn death_evidence<C, O>(
    slot: &Slot<C, O>,
    class: FindingClass,
    summary: String,
    (actual, key): (String, String),
    detail: Detail,
) -> Evidence {
    Evidence { class, engines: engine_labels(slot), summary, expected: "an answer".into(), actual, key, detail }
}

fn engine_labels<C, O>(slot: &Slot<C, O>) -> Vec<String> {
    match &slot.engines {
        Some(e) => e.iter().map(|i| i.label.clone()).collect(),
        None => vec!["worker".into()],
    }
}

fn base_record<C, O>(cfg: &RunConfig, slot: &Slot<C, O>, index: u64, oracle: String, ev: Evidence) -> FindingRecord {
    FindingRecord {
        format: FORMAT,
        id: String::new(),
        tool_version: crate::TOOL_VERSION.into(),
        kind: cfg.kind.clone(),
        oracle,
        engines: slot.engines.clone().unwrap_or_default(),
        engine_specs: cfg.engines.iter().map(|s| s.to_string()).collect(),
        campaign_seed: cfg.seed,
        worker: slot.worker,
        worker_seed: slot.seed,
        index,
        timeout_ms: crate::millis(cfg.timeout),
        evidence: ev,
        case: serde_json::Value::Null,
        reduced: None,
        signature: String::new(),
        created_unix: now_unix(),
        adaptive: false,
    }
}

fn finding_record<C, O>(cfg: &RunConfig, slot: &Slot<C, O>, f: WorkerFinding) -> FindingRecord {
    let mut rec = base_record(cfg, slot, f.index, f.oracle, f.evidence);
    rec.case = f.case;
    rec.reduced = f.reduced;
    rec.adaptive = f.adaptive;
    rec
}

fn ensure_generator<K: Kind>(kind: &K, cfg: &RunConfig, slot: &mut Slot<K::Case, K::Oracle>) -> Option<()> {
    if slot.generator.is_none() {
        let opts = GenOptions { seed: slot.seed, seeds_dir: cfg.seeds_dir.clone() };
        slot.generator = kind.generator(&opts, slot.engines.as_deref().unwrap_or_default()).ok();
    }
    slot.generator.as_ref().map(|_| ())
}

/// The oracle of case `index`; the CLI checked every name, so `None` means an empty list.
fn oracle_at<O: Oracle>(cfg: &RunConfig, index: u64) -> Option<O> {
    let name = cfg.oracles.get(crate::position(index, cfg.oracles.len()))?;
    O::parse(name)
}

/// Marks the setup of case `index` as one the restarted worker must skip.
fn skip_setup_of<K: Kind>(kind: &K, cfg: &RunConfig, slot: &mut Slot<K::Case, K::Oracle>, index: u64) {
    if ensure_generator(kind, cfg, slot).is_none() {
        return;
    }
    if let Some(g) = slot.generator.as_mut() {
        let Some(oracle) = oracle_at(cfg, index) else { return };
        let id = kind.setup_id(&g.case(index, oracle));
        if !slot.skip_setups.contains(&id) {
            slot.skip_setups.push(id);
        }
    }
}

/// Findings of this campaign, and the reductions running for its crash and hang findings.
struct Tally {
    books: Books,
    /// Notices already shown: every worker raises the same ones.
    notes: HashSet<String>,
    reducers: Vec<ChildGuard>,
}

struct Ctx<'a, K> {
    kind: &'a K,
    cfg: &'a RunConfig,
    launcher: &'a dyn Launcher,
}

/// Records the crash or hang of a worker at `index`. A new bug is reduced in the background by
/// `crosscheck reduce`, whose candidates run in probe processes: the case kills its engine.
fn record_death<K: Kind>(
    ctx: &Ctx<'_, K>,
    store: &mut Store,
    sink: &mut dyn Sink,
    tally: &mut Tally,
    slot: &mut Slot<K::Case, K::Oracle>,
    index: u64,
    ev: Evidence,
) -> Result<(), RunError> {
    let Some(mut rec) = death_record(ctx.kind, ctx.cfg, slot, index, ev) else { return Ok(()) };
    let (id, new_bug) = tally.books.record(ctx.kind, store, sink, &mut rec)?;
    if new_bug && !ctx.cfg.reduce_time.is_zero() {
        let mut cmd = ctx.launcher.reducer(&store.finding_dir(&id), ctx.cfg.reduce_time);
        cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
        if let Ok(g) = ChildGuard::spawn(&mut cmd) {
            tally.reducers.push(g);
        }
    }
    Ok(())
}

/// The record of a worker that died or hung at `index`: the case is rebuilt from the index,
/// as the generator contract allows, or read from the board where an adaptive generator's
/// worker left it.
fn death_record<K: Kind>(
    kind: &K,
    cfg: &RunConfig,
    slot: &mut Slot<K::Case, K::Oracle>,
    index: u64,
    ev: Evidence,
) -> Option<FindingRecord> {
    let oracle: K::Oracle = oracle_at(cfg, index)?;
    ensure_generator(kind, cfg, slot)?;
    let generator = slot.generator.as_mut()?;
    let adaptive = generator.adaptive();
    let left = adaptive.then(|| slot.board.case(index)).flatten();
    // Without it (the worker died generating the case), the index's case is the best guess.
    let case = match left.and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok()) {
        Some(case) => case,
        None => serde_json::to_value(generator.case(index, oracle)).ok()?,
    };
    let mut rec = base_record(cfg, slot, index, oracle.name().to_string(), ev);
    rec.case = case;
    rec.adaptive = adaptive;
    Some(rec)
}

fn summarize<C, O>(
    cfg: &RunConfig,
    slots: &[Slot<C, O>],
    start: Instant,
    tally: &Tally,
    restarts: u64,
    interrupted: bool,
) -> Summary {
    let findings = tally.books.findings;
    // Timings come from the workers' stats messages; counts from their boards, which survive
    // a worker's death.
    let mut total = Stats::default();
    let mut counts = crate::board::Counts::default();
    let mut by_label = LabelCounts::new();
    for s in slots {
        total.add(&s.retired);
        total.add(&s.stats);
        add_labels(&mut by_label, &s.retired_labels);
        add_labels(&mut by_label, &s.labels);
        let c = s.board.counts();
        counts.tests += c.tests;
        counts.valid += c.valid;
        counts.nonempty += c.nonempty;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let pct = |a: u64, b: u64| if b == 0 { 0.0 } else { (a as f64 * 1000.0 / b as f64).round() / 10.0 };
    let engines = slots
        .iter()
        .find_map(|s| s.engines.as_ref())
        .map(|e| {
            e.iter()
                .map(|i| EngineSummary { name: i.name.clone(), label: i.label.clone(), version: i.version.clone() })
                .collect()
        })
        .unwrap_or_default();
    let secs = |ns: u64| (ns as f64 / 1e7).round() / 100.0;
    Summary {
        tests: counts.tests,
        tests_per_sec: if elapsed > 0.0 { (counts.tests as f64 / elapsed * 10.0).round() / 10.0 } else { 0.0 },
        valid_pct: pct(counts.valid, counts.tests),
        nonempty_pct: pct(counts.nonempty, counts.valid),
        findings,
        distinct: tally.books.distinct() as u64,
        engines,
        time: TimeSplit {
            generate: secs(total.gen_ns),
            execute: secs(total.exec_ns),
            check: secs(total.check_ns),
            reduce: secs(total.reduce_ns),
        },
        elapsed_sec: (elapsed * 100.0).round() / 100.0,
        seed: cfg.seed,
        workers: cfg.workers,
        worker_restarts: restarts,
        interrupted,
        skipped: total.skipped,
        by_label,
    }
}
