//! `crosscheck summary count|list|run SPEC`: test summaries (seed 004). `count` reports the
//! queries per FROM set, the databases up to isomorphism, the tests and what the search
//! pruned; `list` prints the queries and database scripts in a dialect; `run` executes every
//! test on each engine through the clustered executor (`crosscheck_core::cluster`), judges
//! each answer against the reference evaluator's, and writes one reproducer per distinct
//! wrong answer. Exit 1 when an engine answered wrongly.

use crate::errors::{user, Result, EXIT_FINDINGS, EXIT_OK};
use crate::summary_store::{confirm, record, Found, Known};
use clap::{Args, Subcommand};
use crosscheck_core::cluster::{self, Counters, Part, Settings, UndoChoice};
use crosscheck_core::{Engine, EngineSpec, Outcome};
use crosscheck_sql::dialect::{by_name, Dialect};
use crosscheck_sql::print::ToSql;
use crosscheck_sql::summary::case::to_case;
use crosscheck_sql::summary::check::{judge, Wrong};
use crosscheck_sql::summary::data::Universe;
use crosscheck_sql::summary::tree::{schema, Expected, Pending, Skipped, SummaryTree};
use crosscheck_sql::summary::Summary;
use crosscheck_sql::undo::{SqlUndo, UndoDialect};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum SummaryCmd {
    /// Queries per FROM set, databases up to isomorphism, tests, nodes pruned
    Count(CountArgs),
    /// The queries and the database scripts, in one dialect
    List(ListArgs),
    /// Run every test on engines (clustered), judge against the expected outputs
    Run(RunArgs),
}

#[derive(Args)]
pub struct SpecArgs {
    /// The summary spec (TOML; see crates/sql/summaries/)
    spec: PathBuf,
    /// Override the number of text atoms of [data]
    #[arg(long)]
    atoms: Option<usize>,
}

#[derive(Args)]
pub struct CountArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Count queries only (no database is generated)
    #[arg(long)]
    queries_only: bool,
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// sqlite, postgres, mariadb or duckdb
    #[arg(long, default_value = "sqlite")]
    dialect: String,
    /// At most this many databases (all by default)
    #[arg(long)]
    databases: Option<usize>,
    /// The queries only
    #[arg(long)]
    queries_only: bool,
}

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Engines, comma-separated, as `crosscheck engines` names them
    #[arg(long, default_value = "sqlite")]
    engines: String,
    /// How leaving a node is undone: auto, inverse, savepoint or reset
    #[arg(long, default_value = "auto")]
    undo: String,
    /// The seed's per-query loop instead (clear, insert the database, query, for every test)
    #[arg(long)]
    no_cluster: bool,
    /// Run clustered and unclustered both, and report the two side by side
    #[arg(long, conflicts_with = "no_cluster")]
    compare: bool,
    /// Workers per engine (the trie is split at its depth-1 subtrees)
    #[arg(long, default_value_t = 1)]
    workers: usize,
    /// Where findings go (the store `crosscheck run` writes: findings.db and findings/)
    #[arg(long, default_value = "crosscheck-out")]
    out: PathBuf,
    /// Time bound for reducing each distinct wrong answer (0 turns reduction off)
    #[arg(long, default_value = "20s")]
    reduce_time: String,
    /// Full finding directories kept per distinct bug
    #[arg(long, default_value_t = 2)]
    keep: u32,
    /// Per statement, e.g. 10s
    #[arg(long, default_value = "10s")]
    limit: String,
    #[arg(long)]
    json: bool,
}

pub fn summary(cmd: SummaryCmd) -> Result<i32> {
    match cmd {
        SummaryCmd::Count(a) => count(&a),
        SummaryCmd::List(a) => list(&a),
        SummaryCmd::Run(a) => run(&a),
    }
}

fn load(a: &SpecArgs) -> Result<Summary> {
    let text = std::fs::read_to_string(&a.spec).map_err(|e| user(format!("{}: {e}", a.spec.display())))?;
    let mut s = Summary::parse(&text).map_err(|e| user(format!("{}: {e}", a.spec.display())))?;
    if let Some(k) = a.atoms {
        s.spec.data.text_atoms = k;
    }
    for w in &s.spec.warnings {
        eprintln!("crosscheck: warning: {}: {w}", a.spec.display());
    }
    Ok(s)
}

fn count(a: &CountArgs) -> Result<i32> {
    let s = load(&a.spec)?;
    let c = if a.queries_only { s.count_queries() } else { s.count().map_err(|e| user(e.to_string()))? };
    if a.json {
        println!("{}", serde_json::to_string(&c).map_err(|e| user(e.to_string()))?);
        return Ok(EXIT_OK);
    }
    for (label, n) in &c.per_from {
        println!("{n:>8}  FROM {label}");
    }
    let single: usize = s.groups.iter().filter(|g| g.from.len() == 1).map(|g| g.queries.len()).sum();
    println!(
        "{:>8}  queries ({single} over one table; {} mix aggregated and plain terms without GROUP BY, never run)",
        c.queries, c.mixed_without_group_by
    );
    if !a.queries_only {
        println!("{:>8}  databases up to isomorphism ({} text atoms)", c.databases, s.spec.data.text_atoms);
        println!("{:>8}  tests", c.tests);
        println!("{:>8}  query x database pairs without a single expected answer", c.not_evaluable);
        println!("{:>8}  pairs the output constraints drop", c.filtered_by_output);
        println!("{:>8}  children pruned by keys, foreign keys and row bounds", c.pruned.by_rule);
        println!("{:>8}  children pruned as isomorphic to an earlier database", c.pruned.by_symmetry);
    }
    Ok(EXIT_OK)
}

fn dialect(name: &str) -> Result<&'static dyn Dialect> {
    by_name(name).ok_or_else(|| user(format!("unknown dialect {name:?} (sqlite, postgres, mariadb, duckdb)")))
}

fn list(a: &ListArgs) -> Result<i32> {
    let s = load(&a.spec)?;
    let d = dialect(&a.dialect)?;
    println!("-- schema");
    for st in schema(&s) {
        println!("{};", st.to_sql(d));
    }
    println!("-- {} queries", s.queries().len());
    for (i, q) in s.queries().iter().enumerate() {
        let note = if q.mixes_without_group_by() { "  -- mixes aggregated and plain terms: not run" } else { "" };
        println!("-- q{i}\n{};{note}", q.to_select(&s.spec).to_sql(d));
    }
    if a.queries_only {
        return Ok(EXIT_OK);
    }
    for class in s.classes() {
        let u = Universe::new(&s.spec, &class.fixed).map_err(|e| user(e.to_string()))?;
        let fixed =
            if class.fixed.is_empty() { String::new() } else { format!(" (atoms fixed: {})", class.fixed.join(", ")) };
        println!("-- databases{fixed}");
        let mut n = 0usize;
        u.for_each(&mut |db| {
            if a.databases.is_some_and(|m| n >= m) {
                return;
            }
            println!("-- database {n}: {} rows", db.len());
            for &r in db {
                println!("{};", u.insert(r).to_sql(d));
            }
            n += 1;
        });
    }
    Ok(EXIT_OK)
}

/// The `--json` summary, with the fields of every command's (PRODUCT.md) and per-engine
/// counters.
#[derive(serde::Serialize)]
struct RunSummary {
    tests: u64,
    tests_per_sec: f64,
    valid_pct: f64,
    /// Wrong answers, every test counted.
    findings: u64,
    /// Distinct bugs, as the store files them (`crosscheck findings`).
    distinct: usize,
    engines: Vec<serde_json::Value>,
    time: Times,
}

/// Seconds spent, summed over workers: building the trie and the expected answers, running
/// statements, judging answers, checking and reducing wrong answers.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
struct Times {
    generate: f64,
    execute: f64,
    check: f64,
    reduce: f64,
}

impl Times {
    fn add(&mut self, o: &Times) {
        self.generate += o.generate;
        self.execute += o.execute;
        self.check += o.check;
        self.reduce += o.reduce;
    }
}

/// What one engine's run gave.
struct EngineRun {
    label: String,
    version: String,
    clustered: Option<Counters>,
    unclustered: Option<Counters>,
    tests: u64,
    wrong: u64,
    skipped: Skipped,
    seconds: f64,
    time: Times,
}

/// The run's settings, parsed once.
#[derive(Clone, Copy)]
struct Plan {
    undo: UndoChoice,
    limit: Duration,
    reduce_time: Duration,
    workers: usize,
}

fn run(a: &RunArgs) -> Result<i32> {
    let s = load(&a.spec)?;
    let specs = EngineSpec::parse_list(&a.engines).map_err(|e| user(format!("--engines: {e}")))?;
    let plan = Plan {
        undo: a.undo.parse().map_err(|e: String| user(format!("--undo: {e}")))?,
        limit: crate::duration::parse(&a.limit).map_err(|e| user(format!("--limit: {e}")))?,
        reduce_time: crate::duration::parse(&a.reduce_time).map_err(|e| user(format!("--reduce-time: {e}")))?,
        workers: a.workers.max(1),
    };
    let modes: &[bool] = if a.compare {
        &[true, false]
    } else if a.no_cluster {
        &[false]
    } else {
        &[true]
    };
    let mut found: Vec<Found> = Vec::new();
    let mut runs = Vec::new();
    for spec in &specs {
        runs.push(run_engine(&s, spec, plan, modes, a.compare, &mut found)?);
    }
    let distinct = if found.is_empty() { 0 } else { record(&a.out, &found, a.keep, plan.limit)? };
    report(a, &runs, &found, distinct);
    Ok(if found.is_empty() { EXIT_OK } else { EXIT_FINDINGS })
}

/// Every mode on one engine, its workers in threads; its distinct wrong answers join `found`.
fn run_engine(
    s: &Summary,
    spec: &EngineSpec,
    plan: Plan,
    modes: &[bool],
    compare: bool,
    found: &mut Vec<Found>,
) -> Result<EngineRun> {
    let mut er = EngineRun {
        label: spec.label.clone().unwrap_or_else(|| spec.name.clone()),
        version: String::new(),
        clustered: None,
        unclustered: None,
        tests: 0,
        wrong: 0,
        skipped: Skipped::default(),
        seconds: 0.0,
        time: Times::default(),
    };
    for &clustered in modes {
        let started = Instant::now();
        let parts: Vec<Result<PartResult>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..plan.workers)
                .map(|w| {
                    scope.spawn(move || run_part(s, spec, plan, clustered, Part { worker: w, workers: plan.workers }))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(user("a worker panicked")))).collect()
        });
        let mut total = Counters::default();
        for p in parts {
            let p = p?;
            total.add(&p.counters);
            er.version = p.version;
            // With --compare, the unclustered pass repeats the clustered one's tests.
            if clustered || !compare {
                er.tests += p.tests;
                er.wrong += p.found.iter().map(|f| f.count).sum::<u64>();
                er.skipped.not_evaluable += p.skipped.not_evaluable;
                er.skipped.filtered_by_output += p.skipped.filtered_by_output;
                er.time.add(&p.time);
                found.extend(p.found);
            }
        }
        let secs = started.elapsed().as_secs_f64();
        let mode = if clustered { "clustered" } else { "unclustered" };
        eprintln!(
            "crosscheck: {} {mode}: {} calls ({} the per-query loop would make), {secs:.2} s",
            er.label, total.calls, total.per_query_loop_calls
        );
        total.seconds = secs;
        if clustered || !compare {
            er.seconds = secs;
        }
        if clustered {
            er.clustered = Some(total);
        } else {
            er.unclustered = Some(total);
        }
    }
    Ok(er)
}

/// How often a worker of a long run prints its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// One worker's share on one engine.
struct PartResult {
    version: String,
    counters: Counters,
    tests: u64,
    found: Vec<Found>,
    skipped: Skipped,
    time: Times,
}

fn open_part(s: &Summary, spec: &EngineSpec) -> Result<(Box<dyn Engine>, SqlUndo)> {
    let engine = crate::kinds::opener("sql")(spec).map_err(|e| user(e.message))?;
    let info = engine.info().clone();
    let d = crosscheck_sql::exec::dialect_of(&*engine);
    let Some(ud) = UndoDialect::of(&info.dialect) else {
        return Err(user(format!("{}: no clustered execution for dialect {}", info.label, info.dialect)));
    };
    let tables: Vec<String> = schema(s)
        .iter()
        .filter_map(|st| match st {
            crosscheck_sql::ast::Stmt::CreateTable { name, .. } => {
                let mut out = String::new();
                d.write_ident(&mut out, name);
                Some(out)
            }
            _ => None,
        })
        .collect();
    Ok((engine, SqlUndo::new(ud, tables)))
}

fn run_part(s: &Summary, spec: &EngineSpec, plan: Plan, clustered: bool, part: Part) -> Result<PartResult> {
    let (mut engine, texts) = open_part(s, spec)?;
    let info = engine.info().clone();
    let d = crosscheck_sql::exec::dialect_of(&*engine);
    let settings = Settings { undo: plan.undo.resolve(&texts), texts: &texts, limit: plan.limit, part };
    let mut res = PartResult {
        version: info.version.clone(),
        counters: Counters::default(),
        tests: 0,
        found: Vec::new(),
        skipped: Skipped::default(),
        time: Times::default(),
    };
    let mut firsts: BTreeMap<(usize, String), usize> = BTreeMap::new();
    let mut known = Known::default();
    let queries = s.queries();
    for class in s.classes() {
        let pending = Pending::default();
        let mut tree = SummaryTree::new(s, &class, d, pending.clone()).map_err(|e| user(e.to_string()))?;
        let mut answers: Vec<(Expected, Outcome, Wrong)> = Vec::new();
        let mut tests = 0u64;
        let mut judging = Duration::ZERO;
        let mut shown = Instant::now();
        let (done, label) = (res.tests, &info.label);
        let mut observe = |id: u64, o: &Outcome| {
            let t = Instant::now();
            let Some(exp) = pending.borrow_mut().remove(&id) else { return };
            tests += 1;
            // A long run says it is alive.
            if t.duration_since(shown) >= PROGRESS_EVERY {
                shown = t;
                let wrong = answers.len();
                eprintln!(
                    "crosscheck: {label} worker {}/{}: {} tests, {wrong} wrong in this class",
                    part.worker + 1,
                    part.workers,
                    done + tests
                );
            }
            let exact = s.spec.output.bag || queries[exp.query].duplicate_free();
            if let Some(w) = judge(&exp.rows, o, exact) {
                answers.push((exp, o.clone(), w));
            }
            judging += t.elapsed();
        };
        let started = Instant::now();
        let counters = if clustered {
            cluster::execute(&mut tree, &mut *engine, settings, &mut observe)
        } else {
            cluster::execute_unclustered(&mut tree, &mut *engine, settings, &mut observe)
        }
        .map_err(|e| user(format!("{}: {e}", info.label)))?;
        let all = started.elapsed();
        res.time.generate += tree.generate.as_secs_f64();
        res.time.check += judging.as_secs_f64();
        res.time.execute += all.saturating_sub(tree.generate + judging).as_secs_f64();
        res.counters.add(&counters);
        res.tests += tests;
        res.skipped.not_evaluable += tree.skipped.not_evaluable;
        res.skipped.filtered_by_output += tree.skipped.filtered_by_output;
        let t = Instant::now();
        for (exp, o, w) in answers {
            let key = (exp.query, w.class().to_string());
            if let Some(&i) = firsts.get(&key) {
                res.found[i].count += 1;
                continue;
            }
            let mut setup = schema(s);
            setup.extend(exp.db.iter().map(|&r| tree.universe.insert(r)));
            let case = to_case(setup, queries[exp.query].to_select(&s.spec), s.spec.output.bag);
            let f = confirm(
                &mut engine,
                &spec.to_string(),
                case,
                &exp.rows,
                &o,
                &w,
                plan.limit,
                plan.reduce_time,
                &mut known,
            );
            firsts.insert(key, res.found.len());
            res.found.push(f);
        }
        res.time.reduce += t.elapsed().as_secs_f64();
    }
    Ok(res)
}

fn report(a: &RunArgs, runs: &[EngineRun], found: &[Found], distinct: usize) {
    let tests: u64 = runs.iter().map(|r| r.tests).sum();
    let secs: f64 = runs.iter().map(|r| r.seconds).sum();
    if a.json {
        let engines: Vec<_> = runs
            .iter()
            .map(|r| {
                json!({ "name": r.label, "version": r.version, "tests": r.tests, "wrong": r.wrong,
                        "seconds": r.seconds, "clustered": r.clustered, "unclustered": r.unclustered,
                        "skipped": r.skipped, "time": r.time })
            })
            .collect();
        let mut time = Times::default();
        runs.iter().for_each(|r| time.add(&r.time));
        let summary = RunSummary {
            tests,
            tests_per_sec: if secs > 0.0 { tests as f64 / secs } else { 0.0 },
            valid_pct: 100.0,
            findings: runs.iter().map(|r| r.wrong).sum::<u64>(),
            distinct,
            engines,
            time,
        };
        let summary = serde_json::to_string(&summary).unwrap_or_default();
        println!("{summary}");
        return;
    }
    for r in runs {
        println!("{} {}: {} tests, {} wrong answers, {:.2} s", r.label, r.version, r.tests, r.wrong, r.seconds);
        let t = &r.time;
        println!(
            "  time: generate {:.2} s, execute {:.2} s, check {:.2} s, reduce {:.2} s",
            t.generate, t.execute, t.check, t.reduce
        );
        for (name, c) in [("clustered", &r.clustered), ("unclustered", &r.unclustered)] {
            if let Some(c) = c {
                println!(
                    "  {name}: {} calls ({} statements, {} queries, {} undos, {} marks), {:.2} s; the per-query loop: {} calls",
                    c.calls, c.statements, c.queries, c.undos, c.marks, c.seconds, c.per_query_loop_calls
                );
            }
        }
    }
    if !found.is_empty() {
        let reduced = found.iter().filter(|f| f.reduced.is_some()).count();
        println!(
            "{} wrong answers, {} by query and class ({reduced} reduced): {distinct} distinct bug(s) in {} (crosscheck findings {2}; crosscheck replay DIR)",
            found.iter().map(|f| f.count).sum::<u64>(),
            found.len(),
            a.out.display()
        );
    }
}
