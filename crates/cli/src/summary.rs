//! `crosscheck summary count|list|run SPEC`: test summaries (seed 004). `count` reports the
//! queries per FROM set, the databases up to isomorphism, the tests and what the search
//! pruned; `list` prints the queries and database scripts in a dialect; `run` executes every
//! test on each engine through the clustered executor (`crosscheck_core::cluster`), judges
//! each answer against the reference evaluator's, and writes one reproducer per distinct
//! wrong answer. Exit 1 when an engine answered wrongly.

use crate::errors::{user, Result, EXIT_FINDINGS, EXIT_OK};
use clap::{Args, Subcommand};
use crosscheck_core::cluster::{self, Counters, Part, Settings, UndoChoice};
use crosscheck_core::{EngineSpec, Outcome};
use crosscheck_sql::dialect::{by_name, Dialect};
use crosscheck_sql::print::ToSql;
use crosscheck_sql::summary::check::{judge, reproducer, Wrong};
use crosscheck_sql::summary::data::Universe;
use crosscheck_sql::summary::eval::evaluate;
use crosscheck_sql::summary::tree::{schema, Expected, Pending, Skipped, SummaryTree};
use crosscheck_sql::summary::Summary;
use crosscheck_sql::undo::{SqlUndo, UndoDialect};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
    /// Where findings go
    #[arg(long, default_value = "crosscheck-out")]
    out: PathBuf,
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
    /// Distinct ones: per engine, query and class.
    distinct: usize,
    engines: Vec<serde_json::Value>,
    time: serde_json::Value,
}

/// A distinct wrong answer: the first occurrence and how often it recurred.
struct Finding {
    engine: String,
    query: usize,
    wrong: Wrong,
    script: String,
    dialect: String,
    count: u64,
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
}

fn run(a: &RunArgs) -> Result<i32> {
    let s = load(&a.spec)?;
    let specs = EngineSpec::parse_list(&a.engines).map_err(|e| user(format!("--engines: {e}")))?;
    let undo: UndoChoice = a.undo.parse().map_err(|e: String| user(format!("--undo: {e}")))?;
    let limit = crate::duration::parse(&a.limit).map_err(|e| user(format!("--limit: {e}")))?;
    let workers = a.workers.max(1);
    let modes: &[bool] = if a.compare {
        &[true, false]
    } else if a.no_cluster {
        &[false]
    } else {
        &[true]
    };
    let mut findings: BTreeMap<(String, usize, String), Finding> = BTreeMap::new();
    let mut runs = Vec::new();
    for spec in &specs {
        let mut er = EngineRun {
            label: spec.label.clone().unwrap_or_else(|| spec.name.clone()),
            version: String::new(),
            clustered: None,
            unclustered: None,
            tests: 0,
            wrong: 0,
            skipped: Skipped::default(),
            seconds: 0.0,
        };
        for &clustered in modes {
            let started = Instant::now();
            let parts: Vec<Result<PartResult>> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..workers)
                    .map(|w| {
                        let s = &s;
                        scope.spawn(move || run_part(s, spec, undo, limit, clustered, Part { worker: w, workers }))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(user("a worker panicked")))).collect()
            });
            let mut total = Counters::default();
            for p in parts {
                let p = p?;
                total.add(&p.counters);
                er.version = p.version;
                if clustered || !a.compare {
                    er.tests += p.tests;
                    er.wrong += p.found.iter().map(|f| f.count).sum::<u64>();
                    er.skipped.not_evaluable += p.skipped.not_evaluable;
                    er.skipped.filtered_by_output += p.skipped.filtered_by_output;
                    for f in p.found {
                        let key = (f.engine.clone(), f.query, f.wrong.class().to_string());
                        match findings.get_mut(&key) {
                            Some(old) => old.count += f.count,
                            None => {
                                findings.insert(key, f);
                            }
                        }
                    }
                }
            }
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "crosscheck: {} {}: {} calls ({} the per-query loop would make), {:.2} s",
                er.label,
                if clustered { "clustered" } else { "unclustered" },
                total.calls,
                total.per_query_loop_calls,
                secs
            );
            total.seconds = secs;
            if clustered {
                er.seconds = secs;
                er.clustered = Some(total);
            } else {
                if !a.compare {
                    er.seconds = secs;
                }
                er.unclustered = Some(total);
            }
        }
        runs.push(er);
    }
    write_findings(&a.out, &findings)?;
    report(a, &runs, &findings);
    Ok(if findings.is_empty() { EXIT_OK } else { EXIT_FINDINGS })
}

/// One worker's share on one engine.
struct PartResult {
    version: String,
    counters: Counters,
    tests: u64,
    found: Vec<Finding>,
    skipped: Skipped,
}

fn run_part(
    s: &Summary,
    spec: &EngineSpec,
    undo: UndoChoice,
    limit: Duration,
    clustered: bool,
    part: Part,
) -> Result<PartResult> {
    let mut engine = crate::kinds::opener("sql")(spec).map_err(|e| user(e.message))?;
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
    let texts = SqlUndo::new(ud, tables);
    let settings = Settings { undo: undo.resolve(&texts), texts: &texts, limit, part };
    let mut res = PartResult {
        version: info.version.clone(),
        counters: Counters::default(),
        tests: 0,
        found: Vec::new(),
        skipped: Skipped::default(),
    };
    let mut firsts: BTreeMap<(usize, String), usize> = BTreeMap::new();
    let queries = s.queries();
    for class in s.classes() {
        let pending = Pending::default();
        let mut tree = SummaryTree::new(s, &class, d, pending.clone()).map_err(|e| user(e.to_string()))?;
        let mut answers: Vec<(Expected, Outcome, Wrong)> = Vec::new();
        let mut tests = 0u64;
        let mut observe = |id: u64, o: &Outcome| {
            let Some(exp) = pending.borrow_mut().remove(&id) else { return };
            tests += 1;
            let exact = s.spec.output.bag || queries[exp.query].duplicate_free();
            if let Some(w) = judge(&exp.rows, o, exact) {
                answers.push((exp, o.clone(), w));
            }
        };
        let counters = if clustered {
            cluster::execute(&mut tree, &mut *engine, settings, &mut observe)
        } else {
            cluster::execute_unclustered(&mut tree, &mut *engine, settings, &mut observe)
        }
        .map_err(|e| user(format!("{}: {e}", info.label)))?;
        res.counters.add(&counters);
        res.tests += tests;
        res.skipped.not_evaluable += tree.skipped.not_evaluable;
        res.skipped.filtered_by_output += tree.skipped.filtered_by_output;
        for (exp, o, w) in answers {
            let key = (exp.query, w.class().to_string());
            if let Some(&i) = firsts.get(&key) {
                res.found[i].count += 1;
                continue;
            }
            let exact = s.spec.output.bag || queries[exp.query].duplicate_free();
            let (exp, o) = reduce_rows(&mut *engine, s, &tree, d, exp, o, exact, limit);
            let script = reproducer(s, &tree.universe, &exp, &o, &info.label, d);
            firsts.insert(key, res.found.len());
            let f = Finding {
                engine: info.label.clone(),
                query: exp.query,
                wrong: w,
                script,
                dialect: info.dialect.clone(),
                count: 1,
            };
            res.found.push(f);
        }
    }
    Ok(res)
}

/// Drops the rows of a wrong answer's database one at a time while the engine still answers
/// the query wrongly (each candidate on a fresh database, its expected output from the
/// evaluator): the reproducer keeps only rows the wrong answer needs.
#[allow(clippy::too_many_arguments)]
fn reduce_rows(
    engine: &mut dyn crosscheck_core::Engine,
    s: &Summary,
    tree: &SummaryTree<'_>,
    d: &dyn Dialect,
    mut exp: Expected,
    mut outcome: Outcome,
    exact: bool,
    limit: Duration,
) -> (Expected, Outcome) {
    let query = s.queries()[exp.query].to_select(&s.spec).to_sql(d);
    let setup: Vec<String> = schema(s).iter().map(|st| st.to_sql(d)).collect();
    let mut i = 0;
    while i < exp.db.len() {
        let mut db = exp.db.clone();
        db.remove(i);
        let Ok(rows) = evaluate(&s.spec, s.queries()[exp.query], &tree.universe.tables(&db)) else {
            i += 1;
            continue;
        };
        if engine.reset().is_err() {
            break;
        }
        let inserts = db.iter().map(|&r| tree.universe.insert(r).to_sql(d));
        let loaded = setup
            .iter()
            .cloned()
            .chain(inserts)
            .all(|t| matches!(engine.run(&t, limit), Outcome::Done | Outcome::Rows(_)));
        let got = engine.run(&query, limit);
        if loaded && judge(&rows, &got, exact).is_some() {
            exp = Expected { query: exp.query, db, rows };
            outcome = got;
        } else {
            i += 1;
        }
    }
    (exp, outcome)
}

fn write_findings(out: &Path, findings: &BTreeMap<(String, usize, String), Finding>) -> Result<()> {
    if findings.is_empty() {
        return Ok(());
    }
    let dir = out.join("summary-findings");
    for (i, f) in findings.values().enumerate() {
        let d = dir.join(format!("{i:04}"));
        std::fs::create_dir_all(&d).map_err(|e| user(format!("{}: {e}", d.display())))?;
        let meta = json!({ "engine": f.engine, "query": f.query, "wrong": f.wrong, "count": f.count });
        let text = serde_json::to_string_pretty(&meta).map_err(|e| user(e.to_string()))?;
        std::fs::write(d.join("finding.json"), text).map_err(|e| user(format!("{}: {e}", d.display())))?;
        let repro = d.join(format!("repro.{}.sql", f.dialect));
        std::fs::write(&repro, &f.script).map_err(|e| user(format!("{}: {e}", repro.display())))?;
    }
    Ok(())
}

fn report(a: &RunArgs, runs: &[EngineRun], findings: &BTreeMap<(String, usize, String), Finding>) {
    let tests: u64 = runs.iter().map(|r| r.tests).sum();
    let secs: f64 = runs.iter().map(|r| r.seconds).sum();
    if a.json {
        let engines: Vec<_> = runs
            .iter()
            .map(|r| {
                json!({ "name": r.label, "version": r.version, "tests": r.tests, "wrong": r.wrong,
                        "seconds": r.seconds, "clustered": r.clustered, "unclustered": r.unclustered,
                        "skipped": r.skipped })
            })
            .collect();
        let summary = RunSummary {
            tests,
            tests_per_sec: if secs > 0.0 { tests as f64 / secs } else { 0.0 },
            valid_pct: 100.0,
            findings: runs.iter().map(|r| r.wrong).sum::<u64>(),
            distinct: findings.len(),
            engines,
            time: json!({ "generate": 0.0, "execute": secs, "check": 0.0 }),
        };
        let summary = serde_json::to_string(&summary).unwrap_or_default();
        println!("{summary}");
        return;
    }
    for r in runs {
        println!("{} {}: {} tests, {} wrong answers, {:.2} s", r.label, r.version, r.tests, r.wrong, r.seconds);
        for (name, c) in [("clustered", &r.clustered), ("unclustered", &r.unclustered)] {
            if let Some(c) = c {
                println!(
                    "  {name}: {} calls ({} statements, {} queries, {} undos, {} marks), {:.2} s; the per-query loop: {} calls",
                    c.calls, c.statements, c.queries, c.undos, c.marks, c.seconds, c.per_query_loop_calls
                );
            }
        }
    }
    for f in findings.values() {
        println!("{}: q{} {} ({} tests)", f.engine, f.query, f.wrong.class(), f.count);
    }
    if !findings.is_empty() {
        println!("reproducers in {}", a.out.join("summary-findings").display());
    }
}
