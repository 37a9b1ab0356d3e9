//! `crosscheck tune` (TAILOR): searches a recipe for one target, workload and limit, writes it
//! with a per-item table of default vs tuned; `crosscheck tune eval RECIPE` replays a recipe
//! on another workload. Exit 1 when two configurations answered an item differently.

use crate::duration;
use crate::errors::{user, Result, EXIT_FINDINGS, EXIT_OK};
use clap::{Args, Subcommand, ValueEnum};
use crosscheck_tune::targets::{clingo::Clingo, eva, smt};
use crosscheck_tune::{optimize, Algo, Evaluation, Evaluator, Params, Recipe, RecipeFile, Target, Verdict};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TuneCmd {
    #[command(subcommand)]
    sub: Option<TuneSub>,
    #[command(flatten)]
    args: TuneArgs,
}

#[derive(Subcommand)]
enum TuneSub {
    /// Replay a recipe written by `crosscheck tune` on a workload, beside the default
    Eval(EvalArgs),
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TargetKind {
    Eva,
    Z3,
    Cvc5,
    Clingo,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Resource {
    Cpu,
    Counter,
}

impl Resource {
    fn name(self) -> &'static str {
        match self {
            Resource::Cpu => "cpu",
            Resource::Counter => "counter",
        }
    }

    /// How a charge reads: CPU seconds, or counter units (one per nanosecond of the Duration
    /// the tuner carries them in).
    fn show(self, d: Duration) -> f64 {
        match self {
            Resource::Cpu => d.as_secs_f64(),
            Resource::Counter => d.as_nanos() as f64,
        }
    }

    /// A charge as the table prints it.
    fn text(self, d: Duration) -> String {
        match self {
            Resource::Cpu => format!("{:.2}", d.as_secs_f64()),
            Resource::Counter => d.as_nanos().to_string(),
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Resource::Cpu => "cpu s",
            Resource::Counter => "units",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AlgoArg {
    Dars,
    Rs,
    Sa,
    Hc,
}

/// What both `tune` and `tune eval` take.
#[derive(Args, Clone)]
struct Common {
    /// The workload: .smt2 files (z3, cvc5), .lp files (clingo), C programs (eva: a .c file, or
    /// a directory of .c files and of program directories with an optional frama-c.args)
    #[arg(long)]
    workload: Option<PathBuf>,
    /// The resource limit: per query for z3, cvc5 and clingo, per program run for eva; a
    /// duration (20s) for --resource cpu, a number of units for --resource counter
    #[arg(long, default_value = "20s")]
    limit: String,
    /// What the limit counts: CPU time of the tool's process, or z3's deterministic resource
    /// counter (rlimit units; z3 only)
    #[arg(long, value_enum, default_value = "cpu")]
    resource: Resource,
    /// Parallel tool runs: queries of a batch (z3, cvc5, clingo) or programs (eva)
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// Runs per query with different solver seeds (z3, cvc5): a query counts as solved when
    /// at least half of them solve it, and is charged their mean
    #[arg(long, default_value_t = 1)]
    seeds: usize,
    /// The tool's binary (default: the project virtualenv, then PATH)
    #[arg(long)]
    tool: Option<PathBuf>,
    /// Where the recipe, the table and the summary go
    #[arg(long, default_value = "crosscheck-out/tune")]
    out: PathBuf,
    /// One JSON summary on stdout instead of the table
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct TuneArgs {
    /// The tool to tune
    #[arg(long, value_enum)]
    target: Option<TargetKind>,
    #[command(flatten)]
    common: Common,
    /// Search strategy: domain-aware random sampling, random sampling, simulated annealing,
    /// hill climbing with restarts
    #[arg(long, value_enum, default_value = "dars")]
    algo: AlgoArg,
    /// Longest recipe (ingredients in sequence)
    #[arg(long, default_value_t = 3)]
    max_len: usize,
    /// Phase 1 (domains): recipes per ingredient and length
    #[arg(long, default_value_t = 5)]
    i_dom: usize,
    /// Phase 2 (settings): mutations of the best recipe
    #[arg(long, default_value_t = 10)]
    i_set: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Start from this recipe instead of the default (warm start)
    #[arg(long)]
    from: Option<PathBuf>,
    /// Continue the run whose --out directory this is: evaluations its journals hold
    /// (evals/*.jsonl) are read back, not run again
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
}

#[derive(Args)]
struct EvalArgs {
    /// A recipe.json written by `crosscheck tune`
    recipe: PathBuf,
    #[command(flatten)]
    common: Common,
}

/// One tuned (or replayed) unit: a batch, or one program for eva.
struct Unit {
    name: String,
    items: Vec<String>,
    default: Evaluation,
    best: Evaluation,
    recipe: RecipeFile,
    evaluations: usize,
    resumed: usize,
    runs: usize,
    charged: Duration,
    wall: Duration,
    findings: Vec<String>,
}

pub fn tune(cmd: TuneCmd) -> Result<i32> {
    match cmd.sub {
        Some(TuneSub::Eval(e)) => eval(e),
        None => search(cmd.args),
    }
}

fn search(a: TuneArgs) -> Result<i32> {
    let kind = a.target.ok_or_else(|| user("tune: --target is required (eva, z3, cvc5 or clingo)"))?;
    if a.max_len == 0 {
        return Err(user("tune: --max-len must be at least 1"));
    }
    let mut c = check(&a.common)?;
    if let Some(dir) = &a.resume {
        if !dir.join("evals").is_dir() {
            return Err(user(format!("tune: --resume {}: no evals/ journal directory there", dir.display())));
        }
        c.out = dir.clone();
    }
    c.journal = Some(a.resume.is_some());
    let units = build(kind, &c)?;
    let from = a.from.as_deref().map(|p| read_recipe(p, kind)).transpose()?;
    let algo = match a.algo {
        AlgoArg::Dars => Algo::Dars,
        AlgoArg::Rs => Algo::Rs,
        AlgoArg::Sa => Algo::Sa,
        AlgoArg::Hc => Algo::Hc,
    };
    let params = Params { algo, max_len: a.max_len, i_dom: a.i_dom, i_set: a.i_set, seed: a.seed, ..Params::default() };
    eprintln!(
        "tune: {} on {} unit(s), limit {} {}, {} with {} evaluations each",
        name_of(kind),
        units.len(),
        c.resource.show(c.limit),
        c.resource.unit(),
        algo.name(),
        params.budget()
    );
    let done = each_unit(&units, &c, |t, ev| {
        let mut p = params.clone();
        if let Some(f) = &from {
            p.init = Some(f.resolve(t.space()).map_err(|e| user(format!("tune: --from: {e}")))?);
        }
        let tuned = optimize(ev, &p).map_err(|e| user(format!("tune: {}: {e}", t.name())))?;
        Ok((tuned.default, tuned.best))
    })?;
    finish(kind, &c, &done, Some(&params))
}

fn eval(a: EvalArgs) -> Result<i32> {
    let text =
        std::fs::read_to_string(&a.recipe).map_err(|e| user(format!("tune eval: {}: {e}", a.recipe.display())))?;
    let file: RecipeFile = serde_json::from_str(&text)
        .map_err(|e| user(format!("tune eval: {}: not a recipe file ({e})", a.recipe.display())))?;
    let kind = TargetKind::from_str(&file.target, true)
        .map_err(|_| user(format!("tune eval: {}: unknown target {:?}", a.recipe.display(), file.target)))?;
    let c = check(&a.common)?;
    let units = build(kind, &c)?;
    let done = each_unit(&units, &c, |t, ev| {
        let r = file.resolve(t.space()).map_err(|e| user(format!("tune eval: {}: {e}", a.recipe.display())))?;
        let fail = |e| user(format!("tune eval: {}: {e}", t.name()));
        let default = ev.evaluate(&t.space().default.clone()).map_err(fail)?;
        let best = ev.evaluate(&r).map_err(fail)?;
        Ok((default, best))
    })?;
    finish(kind, &c, &done, None)
}

/// The checked common arguments.
struct Checked {
    workload: PathBuf,
    limit: Duration,
    resource: Resource,
    workers: usize,
    seeds: usize,
    tool: Option<PathBuf>,
    out: PathBuf,
    json: bool,
    /// Keep a journal of evaluations in `out/evals/` (a search), reading one back first when
    /// `Some(true)` (`--resume`).
    journal: Option<bool>,
}

fn check(c: &Common) -> Result<Checked> {
    let workload = c.workload.clone().ok_or_else(|| user("tune: --workload is required (a file or a directory)"))?;
    if !workload.exists() {
        return Err(user(format!("tune: --workload {}: no such file or directory", workload.display())));
    }
    let limit = match c.resource {
        Resource::Cpu => duration::parse(&c.limit).map_err(|e| user(format!("tune: --limit: {e}")))?,
        Resource::Counter => match c.limit.parse::<u64>() {
            Ok(n) if n > 0 => Duration::from_nanos(n),
            _ => return Err(user(format!("tune: --limit {}: with --resource counter, a number of units", c.limit))),
        },
    };
    if c.workers == 0 || c.seeds == 0 {
        return Err(user("tune: --workers and --seeds must be at least 1"));
    }
    if let Some(t) = &c.tool {
        if !t.is_file() {
            return Err(user(format!("tune: --tool {}: no such file", t.display())));
        }
    }
    std::fs::create_dir_all(&c.out).map_err(|e| user(format!("tune: --out {}: {e}", c.out.display())))?;
    Ok(Checked {
        workload,
        limit,
        resource: c.resource,
        workers: c.workers,
        seeds: c.seeds,
        tool: c.tool.clone(),
        out: c.out.clone(),
        json: c.json,
        journal: None,
    })
}

fn name_of(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::Eva => "eva",
        TargetKind::Z3 => "z3",
        TargetKind::Cvc5 => "cvc5",
        TargetKind::Clingo => "clingo",
    }
}

/// The units of the workload for `kind`, with the tool found.
fn build(kind: TargetKind, c: &Checked) -> Result<Vec<Box<dyn Target>>> {
    if c.resource == Resource::Counter && kind != TargetKind::Z3 {
        return Err(user(format!(
            "tune: --resource counter: only z3's rlimit counter is wired; use --resource cpu for {}",
            name_of(kind)
        )));
    }
    let (tool, install) = match kind {
        TargetKind::Eva => ("frama-c", "scripts/install-tune-tools.sh (apt-get install frama-c-base)"),
        TargetKind::Z3 => ("z3", "scripts/install-smt-solvers.sh"),
        TargetKind::Cvc5 => ("cvc5", "scripts/install-smt-solvers.sh"),
        TargetKind::Clingo => ("clingo", "scripts/install-datalog-engines.sh"),
    };
    let bin = match &c.tool {
        Some(t) => t.clone(),
        None => crosscheck_engines::transport::process::find_tool(tool)
            .ok_or_else(|| user(format!("tune: {tool} not found; install it with {install} or pass --tool PATH")))?,
    };
    let fail = |e: crosscheck_tune::TargetError| user(format!("tune: {e}"));
    Ok(match kind {
        TargetKind::Z3 => {
            let t = smt::Smt::new(smt::Solver::Z3, &bin, &c.workload).map_err(fail)?;
            let t = if c.resource == Resource::Counter { t.counting().map_err(fail)? } else { t };
            vec![Box::new(t)]
        }
        TargetKind::Cvc5 => vec![Box::new(smt::Smt::new(smt::Solver::Cvc5, &bin, &c.workload).map_err(fail)?)],
        TargetKind::Clingo => vec![Box::new(Clingo::new(&bin, &c.workload).map_err(fail)?)],
        TargetKind::Eva => {
            let mut v: Vec<Box<dyn Target>> = Vec::new();
            for (name, files, extra) in eva::programs(&c.workload).map_err(fail)? {
                v.push(Box::new(eva::Eva::new(&bin, &name, &files, &extra).map_err(fail)?));
            }
            v
        }
    })
}

fn read_recipe(p: &Path, kind: TargetKind) -> Result<RecipeFile> {
    let text = std::fs::read_to_string(p).map_err(|e| user(format!("tune: --from {}: {e}", p.display())))?;
    let f: RecipeFile = serde_json::from_str(&text)
        .map_err(|e| user(format!("tune: --from {}: not a recipe file ({e})", p.display())))?;
    if f.target != name_of(kind) {
        return Err(user(format!("tune: --from {}: a recipe for {}, not {}", p.display(), f.target, name_of(kind))));
    }
    Ok(f)
}

type Job<'a> = dyn Fn(&dyn Target, &mut Evaluator<'_>) -> Result<(Evaluation, Evaluation)> + Sync + 'a;

/// Runs `job` on every unit: units in parallel for a per-run target (eva), items in parallel
/// within the unit otherwise.
fn each_unit(
    units: &[Box<dyn Target>],
    c: &Checked,
    job: impl Fn(&dyn Target, &mut Evaluator<'_>) -> Result<(Evaluation, Evaluation)> + Sync,
) -> Result<Vec<Unit>> {
    let job: &Job<'_> = &job;
    let per_run = units.len() > 1;
    let (outer, inner) = if per_run { (c.workers, 1) } else { (1, c.workers) };
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Unit>>>> = Mutex::new((0..units.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..outer.min(units.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(t) = units.get(i) else { break };
                let r = one_unit(t.as_ref(), c, inner, job);
                if r.is_err() {
                    next.store(units.len(), Ordering::Relaxed);
                }
                results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(r);
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    results.into_iter().flatten().collect()
}

fn one_unit(t: &dyn Target, c: &Checked, workers: usize, job: &Job<'_>) -> Result<Unit> {
    let start = Instant::now();
    let mut ev = Evaluator::new(t, c.limit, workers);
    ev.seeds = c.seeds;
    if let Some(resume) = c.journal {
        let dir = c.out.join("evals");
        std::fs::create_dir_all(&dir).map_err(|e| user(format!("tune: {}: {e}", dir.display())))?;
        let path = dir.join(format!("{}.jsonl", t.name()));
        ev.keep_journal(&path, t.name(), resume).map_err(|e| user(format!("tune: --resume: {e}")))?;
        if ev.resumed > 0 {
            eprintln!("tune: {}: {} evaluations read back from {}", t.name(), ev.resumed, path.display());
        }
    }
    let name = t.name().to_string();
    ev.progress = Some(Box::new(move |line: &str| eprintln!("tune: {name}: {line}")));
    let (default, best) = job(t, &mut ev)?;
    let space = t.space();
    let findings = ev
        .findings
        .iter()
        .map(|f| {
            format!(
                "{}: {} answered {}, {} answered {}",
                t.item_name(f.item),
                space.describe(&Recipe(vec![f.first.0.clone()])),
                f.first.1,
                space.describe(&Recipe(vec![f.second.0.clone()])),
                f.second.1
            )
        })
        .collect();
    let mut recipe = RecipeFile::of(space, &best.recipe);
    recipe.target = String::new();
    Ok(Unit {
        name: t.name().to_string(),
        items: (0..t.items()).map(|i| t.item_name(i)).collect(),
        default,
        best,
        recipe,
        evaluations: ev.evaluations,
        resumed: ev.resumed,
        runs: ev.runs,
        charged: ev.charged,
        wall: start.elapsed(),
        findings,
    })
}

fn verdict(v: &Verdict) -> String {
    match v {
        Verdict::Resolved(a) | Verdict::Refuted(a) => a.clone(),
        Verdict::Unreachable => "unreachable".into(),
        Verdict::Unresolved => "-".into(),
    }
}

/// Writes the recipes, the table and the summary; prints the table or the JSON summary.
fn finish(kind: TargetKind, c: &Checked, units: &[Unit], params: Option<&Params>) -> Result<i32> {
    let write = |name: &str, text: String| {
        let p = c.out.join(name);
        std::fs::write(&p, text).map_err(|e| user(format!("tune: writing {}: {e}", p.display())))
    };
    let used = if c.resource == Resource::Cpu { "cpu_s" } else { "units" };
    let mut table = format!("unit\titem\tdefault\tdefault_{used}\ttuned\ttuned_stage\ttuned_{used}\n");
    for u in units {
        let refused = u.best.refused().is_some();
        for (i, name) in u.items.iter().enumerate() {
            let (d, b) = (&u.default.items[i], &u.best.items[i]);
            let _ = writeln!(
                table,
                "{}\t{name}\t{}\t{:.3}\t{}\t{}\t{:.3}",
                u.name,
                verdict(&d.verdict),
                c.resource.show(d.used),
                verdict(&b.verdict),
                if refused { "refused".into() } else { b.stage.map_or("-".into(), |s| (s + 1).to_string()) },
                c.resource.show(b.used)
            );
        }
        let mut file = u.recipe.clone();
        file.target = name_of(kind).to_string();
        let json = serde_json::to_string_pretty(&file).map_err(|e| user(format!("tune: {e}")))?;
        if units.len() == 1 {
            write("recipe.json", json + "\n")?;
        } else {
            std::fs::create_dir_all(c.out.join("recipes")).map_err(|e| user(format!("tune: {e}")))?;
            write(&format!("recipes/{}.json", u.name), json + "\n")?;
        }
    }
    write("table.tsv", table.clone())?;
    let summary = summary(kind, c, units, params);
    write("summary.json", format!("{summary:#}\n"))?;
    if c.json {
        println!("{summary}");
    } else {
        print_units(units, c.resource, versus_total(units, c.limit));
    }
    let findings: usize = units.iter().map(|u| u.findings.len()).sum();
    Ok(if findings > 0 { EXIT_FINDINGS } else { EXIT_OK })
}

fn summary(kind: TargetKind, c: &Checked, units: &[Unit], params: Option<&Params>) -> Value {
    let sum = |f: &dyn Fn(&Unit) -> usize| units.iter().map(f).sum::<usize>();
    let units_json: Vec<Value> = units
        .iter()
        .map(|u| {
            json!({
                "name": u.name, "items": u.items.len(),
                "default_resolved": u.default.credited(), "tuned_resolved": u.best.credited(),
                "default_unreachable": u.default.credited_unreachable(),
                "tuned_unreachable": u.best.credited_unreachable(),
                "tuned_refused": u.best.refused(),
                "default_cost": finite(u.default.cost.0), "tuned_cost": finite(u.best.cost.0),
                "default_used": c.resource.show(u.default.used), "tuned_used": c.resource.show(u.best.used),
                "recipe": u.recipe.to_string(),
                "evaluations": u.evaluations, "resumed": u.resumed, "runs": u.runs,
                "tuning_used": c.resource.show(u.charged), "tuning_wall_s": u.wall.as_secs_f64(),
                "disagreements": u.findings,
                "versus_default": versus_json(u.best.versus(&u.default, c.limit)),
            })
        })
        .collect();
    json!({
        "target": name_of(kind),
        "algo": params.map(|p| p.algo.name()),
        "seed": params.map(|p| p.seed),
        "resource": c.resource.name(),
        "limit": c.resource.show(c.limit),
        "items": sum(&|u| u.items.len()),
        "default_resolved": sum(&|u| u.default.credited()),
        "tuned_resolved": sum(&|u| u.best.credited()),
        "default_unreachable": sum(&|u| u.default.credited_unreachable()),
        "tuned_unreachable": sum(&|u| u.best.credited_unreachable()),
        "evaluations": sum(&|u| u.evaluations),
        "resumed": sum(&|u| u.resumed),
        "seeds": c.seeds,
        "runs": sum(&|u| u.runs),
        "tuning_used": units.iter().map(|u| c.resource.show(u.charged)).sum::<f64>(),
        "disagreements": sum(&|u| u.findings.len()),
        "versus_default": versus_json(versus_total(units, c.limit)),
        "units": units_json,
    })
}

fn versus_total(units: &[Unit], limit: Duration) -> [usize; 3] {
    let mut v = [0; 3];
    for u in units {
        v.iter_mut().zip(u.best.versus(&u.default, limit)).for_each(|(t, n)| *t += n);
    }
    v
}

/// Items better, as well and worse than the default ([`crosscheck_tune::ItemResult::versus`]).
fn versus_json([better, equal, worse]: [usize; 3]) -> Value {
    json!({ "better": better, "equal": equal, "worse": worse })
}

fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

fn print_units(units: &[Unit], r: Resource, v: [usize; 3]) {
    let (def, tuned) = (format!("def {}", r.unit()), format!("tuned {}", r.unit()));
    println!("{:<28} {:>6} {:>9} {:>9} {def:>10} {tuned:>10}  recipe", "unit", "items", "default", "tuned");
    for u in units {
        println!(
            "{:<28} {:>6} {:>9} {:>9} {:>10} {:>10}  {}",
            u.name,
            u.items.len(),
            u.default.credited(),
            u.best.credited(),
            r.text(u.default.used),
            r.text(u.best.used),
            u.recipe
        );
        if let Some(why) = u.best.refused() {
            println!("  refused, nothing credited: {why}");
        }
        for f in &u.findings {
            println!("  finding: {f}");
        }
    }
    let sum = |f: &dyn Fn(&Evaluation) -> usize, tuned: bool| -> usize {
        units.iter().map(|u| f(if tuned { &u.best } else { &u.default })).sum()
    };
    let (d, t) = (sum(&Evaluation::credited, false), sum(&Evaluation::credited, true));
    let (du, tu) = (sum(&Evaluation::credited_unreachable, false), sum(&Evaluation::credited_unreachable, true));
    let unreachable = if du + tu > 0 { format!(" ({du} and {tu} of them unreachable)") } else { String::new() };
    let evals: usize = units.iter().map(|u| u.evaluations).sum();
    let used = units.iter().map(|u| u.charged).sum::<Duration>();
    println!(
        "total: default {d}, tuned {t} resolved{unreachable}; {evals} evaluations, {} {} of tool runs",
        r.text(used),
        r.unit()
    );
    let n: usize = v.iter().sum();
    #[allow(clippy::cast_precision_loss)] // a count of items
    let share = 100.0 * (v[0] + v[1]) as f64 / n.max(1) as f64;
    println!(
        "per item against the default: {} better, {} equal, {} worse (slower than 1.25x + 0.5% of the limit, \
         or unresolved): {share:.0}% equal or better",
        v[0], v[1], v[2]
    );
}
