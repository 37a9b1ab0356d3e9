//! `crosscheck split plan|run|compare`: input splitting (seed 001 ch. 6) for an analyzer. `plan`
//! extracts the input's dependencies and writes the partitions, `run` analyzes them in parallel
//! with limits, `compare` sets the merged findings against the unsplit run.
//!
//! Exit codes: `plan` 0; `run` 1 when a partition timed out or crashed; `compare` 1 when
//! splitting lost or added findings or a partition failed; 2 for every user or environment error.

use crate::errors::{user, Result, EXIT_FINDINGS, EXIT_OK};
use crosscheck_split::{compare, make_plan, run_plan, Analyzer, Limits, PartitionRun, Plan, Radius, Run, Strategy};
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand)]
pub enum SplitCommand {
    /// Split an input into partitions of at most --size units and write the plan
    Plan(PlanArgs),
    /// Analyze a plan's partitions in parallel and write the run
    Run(RunArgs),
    /// Compare a run with the unsplit analysis: findings lost and extra, latency, memory
    Compare(CompareArgs),
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ToolArg {
    Mypy,
    Bandit,
    Cppcheck,
    /// A Datalog program (INPUT is a .dl file), split by relation, run by the reference evaluator
    Datalog,
    /// An SMT-LIB script (INPUT is a .smt2 file), split by assertion, solved by z3
    Smt,
    /// A SQL workload (INPUT is a .sql file), split by statement, run on SQLite
    Sql,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum StrategyArg {
    Sizelimiting,
    Splitmerge,
}

#[derive(clap::Args)]
pub struct PlanArgs {
    /// The analyzer the partitions are for (its language picks the dependency extractor)
    #[arg(long, value_enum)]
    tool: ToolArg,
    #[arg(long, value_enum)]
    strategy: StrategyArg,
    /// The most units (files) in one partition
    #[arg(long)]
    size: usize,
    /// SPLITMERGE: dependency radius, a number of hops or `inf` (default: 2 for an analyzer;
    /// inf for datalog, smt and sql, whose partitions must hold whole closures)
    #[arg(long)]
    k: Option<String>,
    /// SPLITMERGE: the fraction of highest-degree units replicated when a partition is split
    #[arg(long, default_value_t = 0.1)]
    p: f64,
    /// The input: a directory of source files (a package's root for Python)
    input: PathBuf,
    /// Where to write the plan (JSON)
    #[arg(long)]
    out: PathBuf,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct RunArgs {
    /// A plan written by `crosscheck split plan`
    plan: PathBuf,
    /// Partitions analyzed at once (default: the number of CPUs)
    #[arg(long)]
    jobs: Option<usize>,
    /// Where to write the run (JSON)
    #[arg(long, default_value = "split-run.json")]
    out: PathBuf,
    /// Time limit of one partition (e.g. 90s, 10m)
    #[arg(long, default_value = "10m")]
    timeout: String,
    /// Address-space limit of one partition's process, in MiB
    #[arg(long, default_value_t = 16384)]
    memory: u64,
    /// Re-split a partition that timed out or crashed with half the size, up to N rounds
    #[arg(long, default_value_t = 0)]
    resplit: u32,
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct CompareArgs {
    /// A run written by `crosscheck split run`
    run: PathBuf,
    /// `nosplit` (analyze the whole input now, with the run's limits; kept beside RUN as
    /// RUN.nosplit.json and reused) or the path of another run
    #[arg(long, default_value = "nosplit")]
    baseline: String,
    #[arg(long)]
    json: bool,
}

pub fn split(cmd: SplitCommand) -> Result<i32> {
    match cmd {
        SplitCommand::Plan(a) => plan(&a),
        SplitCommand::Run(a) => run(&a),
        SplitCommand::Compare(a) => compare_cmd(&a),
    }
}

fn tool_of(arg: ToolArg) -> crosscheck_split::Tool {
    match arg {
        ToolArg::Mypy => crosscheck_split::Tool::Mypy,
        ToolArg::Bandit => crosscheck_split::Tool::Bandit,
        ToolArg::Cppcheck => crosscheck_split::Tool::Cppcheck,
        ToolArg::Datalog => crosscheck_split::Tool::Datalog,
        ToolArg::Smt => crosscheck_split::Tool::Smt,
        ToolArg::Sql => crosscheck_split::Tool::Sql,
    }
}

/// The analyzer and its version, found as engines' tools are (project virtualenv, then PATH).
fn analyzer(tool: crosscheck_split::Tool) -> Result<(Box<dyn Analyzer>, String)> {
    if matches!(tool, crosscheck_split::Tool::Datalog | crosscheck_split::Tool::Smt | crosscheck_split::Tool::Sql) {
        let me = std::env::current_exe().map_err(|e| user(format!("cannot find the crosscheck binary: {e}")))?;
        let version = match tool {
            crosscheck_split::Tool::Smt => solver_version(&z3()?),
            crosscheck_split::Tool::Sql => sqlite()?.info().version.clone(),
            _ => format!("crosscheck {} reference evaluator", env!("CARGO_PKG_VERSION")),
        };
        return Ok((tool.analyzer(&me), version));
    }
    let name = tool.command_name();
    let hint = "install it with scripts/install-split-tools.sh, or set CROSSCHECK_VENV to a virtualenv that has it";
    let bin =
        crosscheck_engines::transport::find_tool(name).ok_or_else(|| user(format!("{name} not found: {hint}")))?;
    let a = tool.analyzer(&bin);
    let version = a.version().map_err(|e| user(format!("{e}")))?;
    Ok((a, version))
}

fn parse_radius(k: &str) -> Result<Radius> {
    if k == "inf" {
        return Ok(Radius::All);
    }
    match k.parse::<u32>() {
        Ok(n) if n > 0 => Ok(Radius::Hops(n)),
        _ => Err(user(format!("bad --k \"{k}\" (a number of hops, at least 1, or inf)"))),
    }
}

fn plan(a: &PlanArgs) -> Result<i32> {
    let tool = tool_of(a.tool);
    let strategy = match a.strategy {
        StrategyArg::Sizelimiting => Strategy::SizeLimiting,
        StrategyArg::Splitmerge => {
            let k = a.k.as_deref().unwrap_or(if tool.whole_closures() { "inf" } else { "2" });
            Strategy::SplitMerge { k: parse_radius(k)?, p: a.p }
        }
    };
    let p = match tool {
        crosscheck_split::Tool::Datalog => datalog_plan(a, strategy)?,
        crosscheck_split::Tool::Smt => smt_plan(a, strategy)?,
        crosscheck_split::Tool::Sql => sql_plan(a, strategy)?,
        crosscheck_split::Tool::Mypy | crosscheck_split::Tool::Bandit | crosscheck_split::Tool::Cppcheck => {
            if !a.input.is_dir() {
                return Err(user(format!(
                    "{} is not a directory (give the root of the sources to split)",
                    a.input.display()
                )));
            }
            let (analyzer, _) = analyzer(tool)?;
            make_plan(tool, analyzer.as_ref(), &a.input, strategy, a.size).map_err(|e| user(e.to_string()))?
        }
    };
    write_json(&a.out, &p)?;
    let summary = serde_json::json!({
        "plan": a.out, "tool": tool.name(), "units": p.units.len(), "edges": p.edges,
        "partitions": p.partitions.len(), "replication": p.replication(),
        "largest": p.partitions.iter().map(Vec::len).max().unwrap_or(0),
        "dependency_seconds": p.dependency_seconds, "planning_seconds": p.planning_seconds,
    });
    if a.json {
        println!("{summary}");
    } else {
        println!(
            "{} units, {} dependency edges ({:.2} s) -> {} partitions of at most {} (replication {:.2}x), written to {}",
            p.units.len(),
            p.edges,
            p.dependency_seconds,
            p.partitions.len(),
            p.size,
            p.replication(),
            a.out.display()
        );
    }
    Ok(EXIT_OK)
}

/// A Datalog program as one unit file per relation (`crosscheck_datalog::split::unit_files`),
/// written beside the plan in `PLAN.units/`, the plan's input directory.
fn datalog_plan(a: &PlanArgs, strategy: Strategy) -> Result<Plan> {
    let started = std::time::Instant::now();
    let program =
        crosscheck_datalog::parse::parse_file(&a.input).map_err(|e| user(format!("{}: {e}", a.input.display())))?;
    let files = crosscheck_datalog::split::unit_files(&program);
    let (_, edges) = crosscheck_datalog::split::dependencies(&program);
    let edges = edges.into_iter().map(|(h, b)| (format!("{h}.dl"), format!("{b}.dl"))).collect();
    unit_plan(a, crosscheck_split::Tool::Datalog, files, edges, started, strategy)
}

/// An SMT-LIB script as one unit file per assertion (`crosscheck_smt::split::unit_files`).
fn smt_plan(a: &PlanArgs, strategy: Strategy) -> Result<Plan> {
    let started = std::time::Instant::now();
    let src = std::fs::read_to_string(&a.input).map_err(|e| user(format!("cannot read {}: {e}", a.input.display())))?;
    let (files, edges) =
        crosscheck_smt::split::unit_files(&src).map_err(|e| user(format!("{}: {e}", a.input.display())))?;
    if files.is_empty() {
        return Err(user(format!("{} has no assertion to split", a.input.display())));
    }
    unit_plan(a, crosscheck_split::Tool::Smt, files, edges, started, strategy)
}

/// A SQL workload as one unit file per statement (`crosscheck_sql::split::unit_files`).
fn sql_plan(a: &PlanArgs, strategy: Strategy) -> Result<Plan> {
    let started = std::time::Instant::now();
    let src = std::fs::read_to_string(&a.input).map_err(|e| user(format!("cannot read {}: {e}", a.input.display())))?;
    let (files, edges) = crosscheck_sql::split::unit_files(&src);
    if files.is_empty() {
        return Err(user(format!("{} has no statement to split", a.input.display())));
    }
    unit_plan(a, crosscheck_split::Tool::Sql, files, edges, started, strategy)
}

/// Writes a leg's unit files to `PLAN.units/` and plans over them.
fn unit_plan(
    a: &PlanArgs,
    tool: crosscheck_split::Tool,
    files: Vec<(String, String)>,
    edges: Vec<(String, String)>,
    started: std::time::Instant,
    strategy: Strategy,
) -> Result<Plan> {
    let dir = PathBuf::from(format!("{}.units", a.out.display()));
    let io = |e: std::io::Error| user(format!("cannot write {}: {e}", dir.display()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(io)?;
    }
    std::fs::create_dir_all(&dir).map_err(io)?;
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).map_err(io)?;
    }
    let workload = crosscheck_split::Workload { units: files.into_iter().map(|(name, _)| name).collect(), edges };
    crosscheck_split::make_plan_from(tool, &dir, workload, started, strategy, a.size).map_err(|e| user(e.to_string()))
}

fn read_texts(files: &[PathBuf]) -> Result<Vec<String>> {
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).map_err(|e| user(format!("cannot read {}: {e}", f.display()))))
        .collect()
}

fn print_finding(f: &crosscheck_split::Finding) -> Result<()> {
    println!("{}", serde_json::to_string(f).map_err(|e| user(e.to_string()))?);
    Ok(())
}

fn z3() -> Result<PathBuf> {
    crosscheck_engines::transport::find_tool("z3")
        .ok_or_else(|| user("z3 not found: install it with scripts/install-smt-solvers.sh"))
}

fn solver_version(z3: &Path) -> String {
    std::process::Command::new(z3)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// `crosscheck __split-smt FILES`: z3 on the union of SMT-LIB unit files; an `unsat` verdict is
/// the one finding (`sat` none; `unknown` or an error ends with exit 2, a failed partition).
/// z3 runs in this process's group, so the partition's deadline reaches it.
pub fn smt_solve(files: &[PathBuf]) -> Result<i32> {
    use std::io::Write;
    let script = crosscheck_smt::split::joined(&read_texts(files)?);
    let mut child = std::process::Command::new(z3()?)
        .arg("-in")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| user(format!("cannot start z3: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(script.as_bytes()).map_err(|e| user(format!("z3: {e}")))?;
    }
    let out = child.wait_with_output().map_err(|e| user(format!("z3: {e}")))?;
    let verdict = String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or("").trim().to_string();
    match verdict.as_str() {
        "unsat" => print_finding(&crosscheck_split::Finding {
            file: "script".into(),
            line: 0,
            rule: "unsat".into(),
            message: "the assertions are unsatisfiable".into(),
        })?,
        "sat" => {}
        other => return Err(user(format!("z3 answered {other:?}"))),
    }
    Ok(EXIT_OK)
}

/// `crosscheck __split-datalog FILES`: the tuples of the union of Datalog unit files, one
/// finding per line (the partition runner reads them as any tool's findings).
pub fn datalog_eval(files: &[PathBuf]) -> Result<i32> {
    let texts = read_texts(files)?;
    let limits = crosscheck_datalog::eval::Limits::default();
    let tuples = crosscheck_datalog::split::evaluate_files(&texts, limits).map_err(user)?;
    for (rel, fact) in tuples {
        print_finding(&crosscheck_split::Finding { file: format!("{rel}.dl"), line: 0, rule: rel, message: fact })?;
    }
    Ok(EXIT_OK)
}

fn sqlite() -> Result<Box<dyn crosscheck_core::Engine>> {
    let spec = crosscheck_core::EngineSpec { name: "sqlite".into(), location: None, label: None };
    crosscheck_engines::open_engine(&crosscheck_engines::sql::registry(), &spec)
        .map_err(|e| user(format!("cannot open sqlite: {e}")))
}

/// `crosscheck __split-sql FILES`: the statements of SQL unit files in order on a fresh SQLite
/// database; each query's rows (sorted unless ordered) and each error are findings of the
/// statement's unit.
pub fn sql_run(files: &[PathBuf]) -> Result<i32> {
    use crosscheck_core::Outcome;
    let mut db = sqlite()?;
    for (f, text) in files.iter().zip(read_texts(files)?) {
        let unit = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let finding = |rule: &str, message: String| crosscheck_split::Finding {
            file: unit.clone(),
            line: 0,
            rule: rule.into(),
            message,
        };
        match db.run(&text, std::time::Duration::from_secs(60)) {
            Outcome::Rows(r) if crosscheck_sql::split::is_query(&text) => {
                let mut rows: Vec<String> = r
                    .rows
                    .iter()
                    .map(|row| row.iter().map(ToString::to_string).collect::<Vec<_>>().join("|"))
                    .collect();
                if !r.ordered {
                    rows.sort();
                }
                print_finding(&finding("rows", rows.join("; ")))?;
            }
            Outcome::Error { message, .. } => print_finding(&finding("error", message))?,
            Outcome::Timeout { .. } | Outcome::Crash { .. } => return Err(user(format!("sqlite failed on {unit}"))),
            _ => {}
        }
    }
    Ok(EXIT_OK)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> Result<T> {
    let text =
        std::fs::read_to_string(path).map_err(|e| user(format!("cannot read {what} {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        user(format!("{} is not a {what} written by this crosscheck: {e} (make a new one)", path.display()))
    })
}

fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(|e| user(e.to_string()))?;
    std::fs::write(path, text).map_err(|e| user(format!("cannot write {}: {e}", path.display())))
}

fn progress(total: usize) -> impl Fn(&PartitionRun) + Sync {
    let done = std::sync::atomic::AtomicUsize::new(0);
    move |p: &PartitionRun| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let total = if total == 0 { "re-split".to_string() } else { total.to_string() };
        let status = match &p.status {
            crosscheck_split::Status::Ok => "ok".to_string(),
            crosscheck_split::Status::Timeout => "TIMEOUT".to_string(),
            crosscheck_split::Status::Crashed { detail } => format!("CRASHED ({detail})"),
        };
        eprintln!(
            "split: {n}/{total} partition {} ({} units): {status}, {:.1} s, {} MiB, {} findings",
            p.index,
            p.units,
            p.wall_seconds,
            p.max_rss_kib / 1024,
            p.findings.len()
        );
    }
}

fn execute(plan: &Plan, jobs: Option<usize>, limits: Limits, resplit: u32) -> Result<Run> {
    plan.check().map_err(|e| user(format!("the plan is damaged: {e} (make a new one)")))?;
    let (analyzer, version) = analyzer(plan.tool)?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    if jobs == 0 {
        return Err(user("--jobs must be at least 1"));
    }
    let mut run = run_plan(plan, analyzer.as_ref(), version, jobs, limits, &progress(plan.partitions.len()));
    if resplit > 0 && run.failed() > 0 {
        eprintln!("crosscheck: re-splitting {} failed partition(s) with half the size", run.failed());
        crosscheck_split::resplit(&mut run, analyzer.as_ref(), resplit, &progress(0))
            .map_err(|e| user(format!("cannot re-split: {e}")))?;
    }
    Ok(run)
}

fn run(a: &RunArgs) -> Result<i32> {
    let plan: Plan = read_json(&a.plan, "plan")?;
    if plan.version != crosscheck_split::plan::PLAN_VERSION {
        return Err(user(format!("{} is a plan of another format version (make a new one)", a.plan.display())));
    }
    let timeout = crate::duration::parse(&a.timeout).map_err(|e| user(format!("--timeout: {e}")))?;
    let limits = Limits { timeout_seconds: timeout.as_secs_f64(), memory_mib: Some(a.memory) };
    let r = execute(&plan, a.jobs, limits, a.resplit)?;
    write_json(&a.out, &r)?;
    let summary = RunSummary {
        run: &a.out,
        partitions: r.partitions.len(),
        failed: r.failed(),
        findings: r.findings().len(),
        best_latency_seconds: r.best_latency(),
        total_seconds: r.total_time(),
        wall_seconds: r.wall_seconds,
        peak_rss_kib: r.peak_rss_kib(),
        tool_version: &r.tool_version,
    };
    if a.json {
        println!("{}", serde_json::to_string(&summary).map_err(|e| user(e.to_string()))?);
    } else {
        println!(
            "{} partitions ({} failed), {} distinct findings; slowest partition {:.1} s, total {:.1} s, wall {:.1} s; peak RSS {} MiB; written to {}",
            r.partitions.len(),
            r.failed(),
            r.findings().len(),
            r.best_latency(),
            r.total_time(),
            r.wall_seconds,
            r.peak_rss_kib() / 1024,
            a.out.display()
        );
    }
    Ok(if r.failed() > 0 { EXIT_FINDINGS } else { EXIT_OK })
}

/// What `split run --json` prints.
#[derive(serde::Serialize)]
struct RunSummary<'a> {
    run: &'a Path,
    partitions: usize,
    failed: usize,
    findings: usize,
    best_latency_seconds: f64,
    total_seconds: f64,
    wall_seconds: f64,
    peak_rss_kib: u64,
    tool_version: &'a str,
}

fn baseline(a: &CompareArgs, split: &Run) -> Result<Run> {
    if a.baseline != "nosplit" {
        return read_json(Path::new(&a.baseline), "run");
    }
    let cached = PathBuf::from(format!("{}.nosplit.json", a.run.display()));
    if let Ok(prev) = read_json::<Run>(&cached, "run") {
        if prev.plan.input == split.plan.input
            && prev.plan.units == split.plan.units
            && prev.plan.tool == split.plan.tool
        {
            eprintln!("crosscheck: reusing the unsplit run {}", cached.display());
            return Ok(prev);
        }
    }
    eprintln!("crosscheck: analyzing the whole input as one partition (the baseline) ...");
    let r = execute(&split.plan.unsplit(), Some(1), split.limits, 0)?;
    write_json(&cached, &r)?;
    Ok(r)
}

fn compare_cmd(a: &CompareArgs) -> Result<i32> {
    let split: Run = read_json(&a.run, "run")?;
    let base = baseline(a, &split)?;
    if base.plan.input != split.plan.input || base.plan.tool != split.plan.tool {
        return Err(user("the baseline is a run of another input or tool"));
    }
    let c = compare(&split, &base);
    if a.json {
        println!("{}", serde_json::to_string(&c).map_err(|e| user(e.to_string()))?);
    } else {
        print_comparison(&c);
    }
    Ok(if c.differs() { EXIT_FINDINGS } else { EXIT_OK })
}

fn print_comparison(c: &crosscheck_split::Comparison) {
    let (s, b) = (&c.split, &c.baseline);
    println!("{} on {} units, {:?}, S = {}", c.tool, c.units, c.strategy, c.size);
    println!("                      split   unsplit");
    println!("findings         {:>10} {:>9}", s.findings, b.findings);
    println!("partitions       {:>10} {:>9}   ({} failed)", s.partitions, b.partitions, s.failed_partitions);
    println!("replication      {:>9.2}x {:>8.2}x", s.replication, b.replication);
    println!("best latency (s) {:>10.1} {:>9.1}", s.best_latency_seconds, b.best_latency_seconds);
    println!("total time (s)   {:>10.1} {:>9.1}", s.total_seconds, b.total_seconds);
    println!("dependencies (s) {:>10.2}", s.dependency_seconds);
    println!(
        "peak RSS (MiB)   {:>10} {:>9}   ({:.0}% of unsplit)",
        s.peak_rss_kib / 1024,
        b.peak_rss_kib / 1024,
        100.0 * c.rss_ratio
    );
    println!("lost: {} ({:.1}%), extra: {}", c.lost.len(), c.lost_pct, c.extra.len());
    for f in c.lost.iter().take(10) {
        println!("  lost  {}:{}: [{}] {}", f.file, f.line, f.rule, f.message);
    }
    for f in c.extra.iter().take(10) {
        println!("  extra {}:{}: [{}] {}", f.file, f.line, f.rule, f.message);
    }
}
