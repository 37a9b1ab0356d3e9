//! `crosscheck run` and the hidden worker entry point.

use crate::errors::{user, Result, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE};
use crate::kinds::{kind_info, unknown_kind, with_kind};
use crosscheck_core::engine::EngineSpec;
use crosscheck_core::runner::{self, Launcher, Sink, Summary};
use crosscheck_core::store::{FindingRecord, Store};
use crosscheck_core::worker::{worker_main, RunConfig, WorkerConfig};
use crosscheck_core::KindInfo;
use crosscheck_engines::mutant;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[derive(clap::Args)]
pub struct RunArgs {
    /// sql, smt, datalog, sparql, cypher
    pub(crate) kind: String,
    /// Engines, comma-separated: NAME[=LOCATION][@LABEL]; mutant:<engine>:<fault> injects a fault
    #[arg(long)]
    engines: Option<String>,
    /// Oracles, comma-separated (see `crosscheck engines` for each kind's list)
    #[arg(long)]
    oracle: Option<String>,
    /// Wall-clock budget (90s, 10m, 1h); the default is 60s unless --tests is given
    #[arg(long)]
    time: Option<String>,
    /// Budget as a number of oracle checks
    #[arg(long)]
    tests: Option<u64>,
    /// Seed of the whole campaign; the same seed gives the same test stream
    #[arg(long)]
    seed: Option<u64>,
    /// Worker processes (default: the number of cores)
    #[arg(long)]
    workers: Option<u32>,
    /// Output directory for findings.db and findings/
    #[arg(long, default_value = "crosscheck-out")]
    out: PathBuf,
    /// Directory of seed inputs (.smt2, .dl) for the legs that take them
    #[arg(long)]
    seeds: Option<PathBuf>,
    /// Print the campaign summary as JSON on stdout
    #[arg(long)]
    json: bool,
    /// Time limit for one statement on one engine
    #[arg(long, default_value = "10s")]
    timeout: String,
    /// Time bound for reducing each new finding (0 turns automatic reduction off)
    #[arg(long, default_value = "20s")]
    reduce_time: String,
    /// A worker silent for this long is killed and its case recorded as a hang
    #[arg(long)]
    hang_after: Option<String>,
    /// Full finding directories kept per distinct bug, besides a smaller reduced case; every
    /// other occurrence is a row in findings.db
    #[arg(long, default_value_t = 2)]
    keep: u32,
}

fn dur(text: &str, what: &str) -> Result<Duration> {
    crate::duration::parse(text).map_err(|e| user(format!("{what}: {e}")))
}

/// Checks everything that can be checked without starting a worker.
pub(crate) fn config(args: &RunArgs, kind: &dyn KindInfo) -> Result<RunConfig> {
    let engines = match &args.engines {
        Some(e) => EngineSpec::parse_list(e).map_err(|e| user(format!("--engines: {e}")))?,
        None => kind
            .default_engines()
            .iter()
            .map(|n| EngineSpec { name: n.to_string(), location: None, label: None })
            .collect(),
    };
    let factories = crate::kinds::registry(kind.name());
    for spec in &engines {
        crosscheck_engines::knows_engine(&factories, &spec.name).map_err(user)?;
        let base = match mutant::parse(&spec.name) {
            Some(Ok((inner, _))) => inner,
            _ => spec.name.as_str(),
        };
        // A user-given location is checked when the engine opens; without one the engine must
        // be installed here.
        if spec.location.is_none() {
            if let Some(f) = factories.iter().find(|f| f.name() == base) {
                let a = f.availability();
                if !a.available {
                    return Err(user(format!(
                        "engine \"{base}\" is not available here: {} (install: {})",
                        a.detail, a.install
                    )));
                }
            }
        }
    }
    let engines = unique_labels(engines);
    let oracles: Vec<String> = match &args.oracle {
        Some(o) => o.split(',').map(|s| s.trim().to_string()).collect(),
        None => kind.default_oracles().iter().map(|s| s.to_string()).collect(),
    };
    for o in &oracles {
        if !kind.oracles().contains(&o.as_str()) {
            return Err(user(format!(
                "unknown oracle \"{o}\" for {} (known: {})",
                kind.name(),
                kind.oracles().join(", ")
            )));
        }
    }
    if args.time.is_some() && args.tests.is_some() {
        return Err(user("give either --time or --tests, not both"));
    }
    let time = match (&args.time, args.tests) {
        (Some(t), _) => Some(dur(t, "--time")?),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_secs(60)),
    };
    let workers = args.workers.unwrap_or_else(|| {
        std::thread::available_parallelism().map(|n| u32::try_from(n.get()).unwrap_or(u32::MAX)).unwrap_or(1)
    });
    if workers == 0 || workers > 256 {
        return Err(user(format!("--workers must be between 1 and 256, not {workers}")));
    }
    if let Some(s) = &args.seeds {
        if !s.is_dir() {
            return Err(user(format!("--seeds: {} is not a directory", s.display())));
        }
    }
    let timeout = dur(&args.timeout, "--timeout")?;
    let reduce_time =
        if args.reduce_time.trim() == "0" { Duration::ZERO } else { dur(&args.reduce_time, "--reduce-time")? };
    let hang_after = match &args.hang_after {
        Some(h) => dur(h, "--hang-after")?,
        None => (timeout * 3).max(Duration::from_secs(30)) + reduce_time,
    };
    let seed = args.seed.unwrap_or_else(|| crosscheck_core::store::now_unix() ^ u64::from(std::process::id()));
    Ok(RunConfig {
        kind: kind.name().to_string(),
        engines,
        oracles,
        time,
        tests: args.tests,
        seed,
        workers,
        seeds_dir: args.seeds.clone(),
        timeout,
        reduce_time,
        hang_after,
        keep: args.keep,
    })
}

/// Two instances of one engine (`--engines sqlite,sqlite`) need different labels in reports.
fn unique_labels(mut engines: Vec<EngineSpec>) -> Vec<EngineSpec> {
    let mut seen: Vec<String> = Vec::new();
    for e in engines.iter_mut() {
        let mut label = e.display_label();
        let mut n = 2;
        while seen.contains(&label) {
            label = format!("{}#{n}", e.display_label());
            n += 1;
        }
        if label != e.display_label() {
            e.label = Some(label.clone());
        }
        seen.push(label);
    }
    engines
}

/// The terminal: progress lines and new bugs on stderr (also a summary run's findings).
pub(crate) struct Terminal {
    pub(crate) out: PathBuf,
}

impl Sink for Terminal {
    fn progress(&mut self, s: &Summary) {
        eprintln!("crosscheck: {}", progress_line(s));
    }

    fn finding(&mut self, rec: &FindingRecord, new_bug: bool) {
        // Repeats of a known bug are counted in the progress line: a flood of one failure
        // would bury the bugs that matter.
        if !new_bug {
            return;
        }
        let (_, ev) = rec.best_case();
        let size = match &rec.reduced {
            Some(r) => format!(", reduced {} -> {}", r.stats.size_before, r.stats.size_after),
            None => String::new(),
        };
        eprintln!(
            "crosscheck: NEW {} [{} {} on {}{}]: {} -> {}",
            rec.id,
            rec.oracle,
            ev.class,
            ev.engine_label(),
            size,
            ev.summary,
            crosscheck_core::store::finding_dir(&self.out, &rec.id).display()
        );
    }

    fn note(&mut self, text: &str) {
        eprintln!("crosscheck: {text}");
    }
}

/// Workers and background reducers are this binary's hidden `__worker` and its `reduce`.
struct SelfLauncher {
    exe: PathBuf,
}

impl Launcher for SelfLauncher {
    fn worker(&self) -> Command {
        let mut cmd = Command::new(&self.exe);
        cmd.arg("__worker");
        cmd
    }

    fn reducer(&self, dir: &Path, time: Duration) -> Command {
        let mut cmd = Command::new(&self.exe);
        cmd.arg("reduce").arg(dir).arg("--time").arg(format!("{}ms", time.as_millis()));
        cmd
    }

    fn program(&self) -> String {
        self.exe.display().to_string()
    }
}

fn progress_line(s: &Summary) -> String {
    format!(
        "{:>5.0}s  tests {} ({:.0}/s)  valid {:.1}%  non-empty {:.1}%  findings {}  distinct {}",
        s.elapsed_sec, s.tests, s.tests_per_sec, s.valid_pct, s.nonempty_pct, s.findings, s.distinct
    )
}

/// Skipped checks by reason, most frequent first.
fn skipped_line(skipped: &std::collections::BTreeMap<String, u64>) -> String {
    let mut by_count: Vec<(&String, &u64)> = skipped.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    by_count.iter().map(|(k, n)| format!("{n} {k}")).collect::<Vec<_>>().join(", ")
}

/// `QF_LIA 120/125, QF_S 80/100, ...`, in the labels' order.
fn by_label_line(s: &Summary) -> String {
    s.by_label.iter().map(|(k, c)| format!("{k} {}/{}", c.valid, c.tests)).collect::<Vec<_>>().join(", ")
}

pub fn run(args: RunArgs) -> Result<i32> {
    let kind = kind_info(&args.kind).ok_or_else(|| user(unknown_kind(&args.kind)))?;
    let cfg = config(&args, kind)?;
    let exe = std::env::current_exe().map_err(|e| user(format!("cannot find the crosscheck executable: {e}")))?;
    let mut store = Store::open(&args.out)?;
    let argv: Vec<String> = std::env::args().collect();
    let campaign = store.begin_campaign(&cfg.kind, &argv.join(" "), cfg.seed)?;
    runner::install_stop_handlers();
    eprintln!(
        "crosscheck: {} campaign, engines {}, oracles {}, seed {}, {} worker(s), {} -> {}",
        cfg.kind,
        cfg.engines.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(","),
        cfg.oracles.join(","),
        cfg.seed,
        cfg.workers,
        match (cfg.time, cfg.tests) {
            (Some(t), _) => format!("{} s", t.as_secs_f64()),
            (None, Some(n)) => format!("{n} tests"),
            _ => String::new(),
        },
        args.out.display()
    );
    let mut sink = Terminal { out: args.out.clone() };
    let launcher = SelfLauncher { exe };
    let summary =
        with_kind!(cfg.kind.as_str(), |k| runner::run_campaign(k, &cfg, &launcher, &mut store, campaign, &mut sink)
            .map_err(crate::errors::UserError::from))?;
    let json = serde_json::to_string_pretty(&summary).unwrap_or_default();
    store.end_campaign(campaign, &json)?;
    let split = &summary.time;
    eprintln!(
        "crosscheck: done{}: {}  (generate {:.2}s, execute {:.2}s, check {:.2}s, reduce {:.2}s; {} worker restart(s))",
        if summary.interrupted { " (interrupted)" } else { "" },
        progress_line(&summary),
        split.generate,
        split.execute,
        split.check,
        split.reduce,
        summary.worker_restarts
    );
    if !summary.skipped.is_empty() {
        eprintln!("crosscheck: skipped checks: {}", skipped_line(&summary.skipped));
    }
    if !summary.by_label.is_empty() {
        eprintln!("crosscheck: cases by label (valid/run): {}", by_label_line(&summary));
    }
    if summary.findings > 0 {
        eprintln!("crosscheck: see `crosscheck findings {}` for the distinct bugs", args.out.display());
    }
    if args.json {
        println!("{json}");
    }
    Ok(if summary.findings > 0 { EXIT_FINDINGS } else { EXIT_OK })
}

/// The hidden `__worker` entry point: a config on stdin, the worker protocol on stdout.
pub fn worker() -> Result<i32> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).map_err(|e| user(format!("worker: cannot read its config: {e}")))?;
    let cfg: WorkerConfig = serde_json::from_str(&text).map_err(|e| user(format!("worker: bad config: {e}")))?;
    let code = with_kind!(cfg.run.kind.as_str(), |k| Ok(worker_main(k, &crate::kinds::opener(k.name()), &cfg)))?;
    Ok(if code == 0 { EXIT_OK } else { EXIT_USAGE })
}
