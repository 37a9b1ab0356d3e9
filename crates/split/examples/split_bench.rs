//! The issue's split benchmark (issue 16): mypy and bandit on pygments under SIZELIMITING and
//! SPLITMERGE (k = 2, p = 0.1) for S in {25, 50, 100, 200}, each against the unsplit run:
//! partitions, replication, findings lost and extra, best latency (slowest partition), total
//! time, peak RSS against the unsplit run's, and dependency-analysis time. Optionally cppcheck on
//! a C directory. Prints a table and writes an SVG of latency and lost findings against S.
//!
//!   cargo run --release -p crosscheck-split --example split_bench -- [PYGMENTS_DIR] [--c DIR]
//!     [--jobs N] [--sizes 25,50,100,200] [--svg FILE] [--only mypy|bandit|cppcheck]
//!
//! `scripts/split-bench.sh` installs the tools, fetches the C workload and runs both sweeps.
//!
//! PYGMENTS_DIR defaults to `$CROSSCHECK_VENV/workloads/pygments-2.21.0` (made by
//! scripts/install-split-tools.sh). Figures are for the machine and its load at the time.

use crosscheck_split::{compare, make_plan, run_plan, Analyzer, Comparison, Limits, Radius, Run, Strategy, Tool};
use std::fmt::Write;
use std::path::{Path, PathBuf};

const LIMITS: Limits = Limits { timeout_seconds: 600.0, memory_mib: Some(16384) };

struct Options {
    pygments: PathBuf,
    c: Option<PathBuf>,
    jobs: usize,
    sizes: Vec<usize>,
    svg: PathBuf,
    only: Option<String>,
}

fn options() -> Result<Options, String> {
    let venv = std::env::var_os("CROSSCHECK_VENV").map_or_else(|| PathBuf::from(".venv"), PathBuf::from);
    let mut o = Options {
        pygments: venv.join("workloads/pygments-2.21.0"),
        c: None,
        jobs: 2,
        sizes: vec![25, 50, 100, 200],
        svg: PathBuf::from("split-bench.svg"),
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--c" => o.c = Some(PathBuf::from(value()?)),
            "--jobs" => o.jobs = value()?.parse().map_err(|e| format!("--jobs: {e}"))?,
            "--svg" => o.svg = PathBuf::from(value()?),
            "--only" => o.only = Some(value()?),
            "--sizes" => {
                o.sizes = value()?
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|e| format!("--sizes: {e}"))?;
            }
            _ => o.pygments = PathBuf::from(a),
        }
    }
    Ok(o)
}

fn analyzer(t: Tool) -> Option<Box<dyn Analyzer>> {
    let bin = crosscheck_engines::transport::find_tool(t.command_name())?;
    let a = t.analyzer(&bin);
    a.version().ok().map(|_| a)
}

fn split_run(
    t: Tool,
    a: &dyn Analyzer,
    input: &Path,
    strategy: Strategy,
    size: usize,
    jobs: usize,
) -> Result<Run, String> {
    let plan = make_plan(t, a, input, strategy, size).map_err(|e| e.to_string())?;
    Ok(run_plan(&plan, a, String::new(), jobs, LIMITS, &|_| {}))
}

fn header() {
    println!(
        "{:<9} {:<16} {:>4} {:>5} {:>6} {:>7} {:>7} {:>6} {:>9} {:>8} {:>8} {:>6}",
        "tool", "strategy", "S", "parts", "repl", "found", "lost", "extra", "latency_s", "total_s", "peakRSS", "deps_s"
    );
}

fn row(c: &Comparison) {
    let strategy = match c.strategy {
        Strategy::SizeLimiting => "sizelimiting".to_string(),
        Strategy::SplitMerge { k, p } => format!("splitmerge{k}/{p}"),
    };
    println!(
        "{:<9} {:<16} {:>4} {:>5} {:>5.2}x {:>7} {:>7} {:>6} {:>9.2} {:>8.2} {:>7.0}% {:>6.2}   lost {:.1}%{}",
        c.tool,
        strategy,
        c.size,
        c.split.partitions,
        c.split.replication,
        c.split.findings,
        c.lost.len(),
        c.extra.len(),
        c.split.best_latency_seconds,
        c.split.total_seconds,
        100.0 * c.rss_ratio,
        c.split.dependency_seconds,
        c.lost_pct,
        if c.split.failed_partitions > 0 {
            format!(", {} partitions failed", c.split.failed_partitions)
        } else {
            String::new()
        },
    );
}

fn baseline_row(t: &str, b: &Run) {
    println!(
        "{:<9} {:<16} {:>4} {:>5} {:>5.2}x {:>7} {:>7} {:>6} {:>9.2} {:>8.2} {:>5} MiB",
        t,
        "nosplit",
        b.plan.units.len(),
        1,
        1.0,
        b.findings().len(),
        "-",
        "-",
        b.best_latency(),
        b.total_time(),
        b.peak_rss_kib() / 1024
    );
}

/// One tool on one input: the baseline, then each strategy at each size.
fn sweep(t: Tool, input: &Path, sizes: &[usize], jobs: usize) -> Result<Vec<Comparison>, String> {
    let Some(a) = analyzer(t) else {
        println!("{}: not installed (scripts/install-split-tools.sh); skipped", t.command_name());
        return Ok(Vec::new());
    };
    let listed = make_plan(t, a.as_ref(), input, Strategy::SizeLimiting, 1).map_err(|e| e.to_string())?;
    let all = run_plan(&listed.unsplit(), a.as_ref(), String::new(), 1, LIMITS, &|_| {});
    baseline_row(t.command_name(), &all);
    let mut out = Vec::new();
    for &size in sizes {
        for strategy in [Strategy::SizeLimiting, Strategy::SplitMerge { k: Radius::Hops(2), p: 0.1 }] {
            let r = split_run(t, a.as_ref(), input, strategy, size, jobs)?;
            let c = compare(&r, &all);
            row(&c);
            out.push(c);
        }
    }
    Ok(out)
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("split_bench: {e}");
            std::process::exit(2);
        }
    };
    let wanted = |t: Tool| o.only.as_deref().is_none_or(|only| only == t.command_name());
    if (wanted(Tool::Mypy) || wanted(Tool::Bandit)) && !o.pygments.join("pygments/__init__.py").exists() {
        eprintln!("split_bench: no pygments at {} (run scripts/install-split-tools.sh)", o.pygments.display());
        std::process::exit(2);
    }
    println!("jobs {}, load {}", o.jobs, std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    header();
    let mut results = Vec::new();
    let mut targets = vec![(Tool::Mypy, o.pygments.clone()), (Tool::Bandit, o.pygments.clone())];
    if let Some(c) = &o.c {
        targets.push((Tool::Cppcheck, c.clone()));
    }
    targets.retain(|(t, _)| wanted(*t));
    for (t, input) in targets {
        match sweep(t, &input, &o.sizes, o.jobs) {
            Ok(rows) => results.extend(rows),
            Err(e) => println!("{}: {e}", t.command_name()),
        }
    }
    match std::fs::write(&o.svg, svg(&results)) {
        Ok(()) => println!("plot: {}", o.svg.display()),
        Err(e) => eprintln!("split_bench: cannot write {}: {e}", o.svg.display()),
    }
}

type Metric = fn(&Comparison) -> f64;

/// Latency (left) and lost findings (right) against S, one panel per tool, one line per strategy.
#[allow(clippy::cast_precision_loss)]
fn svg(results: &[Comparison]) -> String {
    let mut tools: Vec<&str> = results.iter().map(|c| c.tool.as_str()).collect();
    tools.dedup();
    let (w, h, pad) = (360.0, 220.0, 40.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="11">"#,
        2.0 * w,
        h * tools.len() as f64 + 20.0
    );
    for (ti, tool) in tools.iter().enumerate() {
        let rows: Vec<&Comparison> = results.iter().filter(|c| c.tool == *tool).collect();
        let sizes: Vec<usize> = {
            let mut v: Vec<usize> = rows.iter().map(|c| c.size).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let metrics: [(&str, Metric); 2] =
            [("best latency (s)", |c| c.split.best_latency_seconds), ("lost findings (%)", |c| c.lost_pct)];
        for (mi, (label, metric)) in metrics.iter().enumerate() {
            let (x0, y0) = (mi as f64 * w, ti as f64 * h);
            // The unsplit run's latency, dashed, for scale (its lost findings are 0 by definition).
            let unsplit = if mi == 0 { rows.first().map_or(0.0, |c| c.baseline.best_latency_seconds) } else { 0.0 };
            let top = rows.iter().map(|c| metric(c)).fold(unsplit, f64::max).max(1e-9);
            let _ = write!(s, r#"<text x="{}" y="{}">{tool}: {label} against S</text>"#, x0 + pad, y0 + 15.0);
            let x = |i: usize| x0 + pad + (w - 2.0 * pad) * i as f64 / (sizes.len().max(2) - 1) as f64;
            let y = |v: f64| y0 + h - pad - (h - 2.0 * pad) * v / top;
            let _ = write!(s, r#"<text x="{}" y="{}">{top:.1}</text>"#, x0 + 2.0, y(top) + 4.0);
            let _ = write!(s, r#"<text x="{}" y="{}">0</text>"#, x0 + 2.0, y(0.0) + 4.0);
            if mi == 0 {
                let _ = write!(
                    s,
                    r##"<line x1="{}" x2="{}" y1="{u:.1}" y2="{u:.1}" stroke="#888" stroke-dasharray="4"/>"##,
                    x(0),
                    x(sizes.len().max(2) - 1),
                    u = y(unsplit)
                );
            }
            for (i, size) in sizes.iter().enumerate() {
                let _ = write!(s, r#"<text x="{}" y="{}">{size}</text>"#, x(i) - 8.0, y0 + h - pad + 14.0);
            }
            for (name, color) in [("SizeLimiting", "#c33"), ("SplitMerge", "#36c")] {
                let pts: Vec<String> = sizes
                    .iter()
                    .enumerate()
                    .filter_map(|(i, size)| {
                        let c =
                            rows.iter().find(|c| c.size == *size && format!("{:?}", c.strategy).starts_with(name))?;
                        Some(format!("{:.1},{:.1}", x(i), y(metric(c))))
                    })
                    .collect();
                let _ = write!(
                    s,
                    r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
                    pts.join(" ")
                );
            }
        }
    }
    let _ = write!(
        s,
        r##"<text x="{pad}" y="30" fill="#c33">SIZELIMITING</text><text x="130" y="30" fill="#36c">SPLITMERGE k=2 p=0.1</text></svg>"##
    );
    s
}
