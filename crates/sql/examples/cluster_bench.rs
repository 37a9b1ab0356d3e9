//! Undo costs of clustered execution per engine and per undo, on a full trie of one-row
//! INSERTs with queries at every node (a summary's databases: each node one more row, each
//! database queried), against the seed's per-query loop.
//!
//! `cargo run --release -p crosscheck-sql --example cluster_bench [-- --engines sqlite,duckdb,postgres,mariadb --depth 5 --fanout 4 --queries 3 --repeat 3 --ways loop,inverse,savepoint,reset]`
//!
//! Prints, per engine and way of running: calls (every statement sent), statements, queries,
//! undos, marks (BEGIN / SAVEPOINT / RELEASE / COMMIT), the calls the per-query loop makes for
//! the same tests, its ratio to the calls, the median wall seconds of `--repeat` runs and the
//! answers that differ from the node's rows (always 0, or the undo is wrong).

use crosscheck_core::cluster::uniform::{Level, Uniform};
use crosscheck_core::cluster::{execute, execute_unclustered, ClusterError, Counters, Part, Settings, Undo, UndoTexts};
use crosscheck_core::{Engine, Outcome, Value};
use crosscheck_engines::testing::open_sql;
use crosscheck_sql::undo::{UndoDialect, UniformSql};
use std::time::Duration;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Options {
    engines: Vec<String>,
    depth: usize,
    fanout: usize,
    queries: usize,
    repeat: usize,
    /// `loop`, `inverse`, `savepoint`, `reset`: the ways to run (all by default).
    ways: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options { engines: vec![], depth: 5, fanout: 4, queries: 3, repeat: 3, ways: vec![] };
    o.engines = ["sqlite", "duckdb", "postgres", "mariadb"].map(String::from).to_vec();
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [flag, value] = pair else { return Err(format!("{} needs a value", pair[0])) };
        let number = || value.parse::<usize>().map_err(|e| format!("{flag} {value}: {e}"));
        match flag.as_str() {
            "--engines" => o.engines = value.split(',').map(String::from).collect(),
            "--depth" => o.depth = number()?,
            "--fanout" => o.fanout = number()?,
            "--queries" => o.queries = number()?,
            "--repeat" => o.repeat = number()?.max(1),
            "--ways" => o.ways = value.split(',').map(String::from).collect(),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(o)
}

/// One way of running: clustered with an undo, or the per-query loop.
#[derive(Clone, Copy)]
enum Way {
    Loop,
    Clustered(Undo),
}

fn label(way: Way) -> String {
    match way {
        Way::Loop => "per-query loop".into(),
        Way::Clustered(u) => format!("clustered, {u}"),
    }
}

/// Runs once; the counters and the answers that differ from their node's rows.
fn run_once(tree: &mut Uniform<UniformSql>, e: &mut dyn Engine, way: Way) -> Result<(Counters, u64), ClusterError> {
    let texts = tree.writer.0.clone();
    let undo = match way {
        Way::Loop => Undo::Inverse,
        Way::Clustered(u) => u,
    };
    let s = Settings { undo, texts: &texts, limit: Duration::from_secs(30), part: Part::WHOLE };
    let mut answers = Vec::new();
    let mut record = |id: u64, o: &Outcome| answers.push((id, o.clone()));
    let c = match way {
        Way::Loop => execute_unclustered(tree, e, s, &mut record)?,
        Way::Clustered(_) => execute(tree, e, s, &mut record)?,
    };
    let wrong = answers
        .iter()
        .filter(|(id, o)| {
            let got: Vec<i64> = o
                .rows()
                .map(|r| {
                    r.rows
                        .iter()
                        .filter_map(|r| if let Some(Value::Int(v)) = r.first() { Some(*v) } else { None })
                        .collect()
                })
                .unwrap_or_default();
            let want: Vec<i64> =
                tree.expected.get(id).map(|w| w.iter().map(|&n| n as i64).collect()).unwrap_or_default();
            got != want
        })
        .count() as u64;
    Ok((c, wrong))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn bench(o: &Options, name: &str) -> Result<(), String> {
    let Some(mut e) = open_sql(name) else { return Ok(()) };
    let dialect = UndoDialect::of(&e.info().dialect).ok_or_else(|| format!("{name}: no undo dialect"))?;
    let level = Level { fanout: o.fanout, statements: 1, queries: o.queries };
    let mut tree = Uniform::new(0, vec![level; o.depth], UniformSql::new(dialect));
    tree.root_queries = o.queries;
    let (tests, nodes, shape) = tree.shape();
    println!("\n{name} {} ({shape}: {nodes} nodes, {tests} leaves, {} queries a node)", e.info().version, o.queries);
    println!("| way | calls | statements | queries | undos | marks | per-query-loop calls | loop / calls | seconds | wrong |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut ways = vec![Way::Loop, Way::Clustered(Undo::Inverse), Way::Clustered(Undo::Reset)];
    if tree.writer.0.savepoint(0).is_some() {
        ways.insert(2, Way::Clustered(Undo::Savepoint));
    }
    for way in ways {
        let word = match way {
            Way::Loop => "loop".to_string(),
            Way::Clustered(u) => u.to_string(),
        };
        if !o.ways.is_empty() && !o.ways.contains(&word) {
            continue;
        }
        let mut secs = Vec::new();
        let mut last = None;
        for _ in 0..o.repeat {
            let (c, wrong) = run_once(&mut tree, e.as_mut(), way).map_err(|err| format!("{name}: {err}"))?;
            secs.push(c.seconds);
            last = Some((c, wrong));
        }
        let Some((c, wrong)) = last else { continue };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.3} | {wrong} |",
            label(way),
            c.calls,
            c.statements,
            c.queries,
            c.undos,
            c.marks,
            c.per_query_loop_calls,
            c.per_query_loop_calls as f64 / c.calls as f64,
            median(secs)
        );
    }
    Ok(())
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cluster_bench: {e}");
            std::process::exit(2);
        }
    };
    for name in &o.engines {
        if let Err(e) = bench(&o, name) {
            eprintln!("cluster_bench: {e}");
            std::process::exit(2);
        }
    }
}
