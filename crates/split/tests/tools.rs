//! Splitting with the real analyzers on tiny fixtures whose findings are known: mypy loses the
//! findings that need the hub under SIZELIMITING and keeps them under SPLITMERGE, bandit loses
//! nothing either way, cppcheck's cross-file checks move when caller and callee are apart; the
//! runner reports a timeout and a crash. A tool named in `CROSSCHECK_REQUIRE_ENGINES` must be
//! installed (scripts/install-split-tools.sh); any other missing tool skips its test with a line.

use crosscheck_split::{
    compare, make_plan, run_plan, Analyzer, Comparison, Limits, Radius, Run, Status, Strategy, Tool,
};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// The analyzer, or `None` (with a printed line) when it is missing and not required.
fn tool(t: Tool) -> Option<Box<dyn Analyzer>> {
    let name = t.command_name();
    let found = crosscheck_engines::transport::find_tool(name).map(|bin| t.analyzer(&bin));
    match found.filter(|a| a.version().is_ok()) {
        Some(a) => Some(a),
        None => {
            assert!(
                !crosscheck_engines::testing::required(name),
                "{name} is required (CROSSCHECK_REQUIRE_ENGINES) but not installed: run scripts/install-split-tools.sh"
            );
            println!("skipped: {name} is not installed here; install: scripts/install-split-tools.sh");
            None
        }
    }
}

const LIMITS: Limits = Limits { timeout_seconds: 120.0, memory_mib: Some(4096) };

fn run(t: Tool, a: &dyn Analyzer, input: &str, strategy: Strategy, size: usize, limits: Limits) -> Run {
    let plan = make_plan(t, a, &fixture(input), strategy, size).unwrap_or_else(|e| panic!("{e}"));
    run_plan(&plan, a, "test".into(), 2, limits, &|_| {})
}

fn against_unsplit(t: Tool, a: &dyn Analyzer, input: &str, strategy: Strategy, size: usize) -> Comparison {
    let split = run(t, a, input, strategy, size, LIMITS);
    let base = run_plan(&split.plan.unsplit(), a, "test".into(), 1, LIMITS, &|_| {});
    assert!(split.partitions.iter().chain(&base.partitions).all(|p| p.status == Status::Ok), "{split:?}");
    compare(&split, &base)
}

fn located(c: &[crosscheck_split::Finding]) -> Vec<String> {
    c.iter().map(|f| format!("{}:{} {}", f.file, f.line, f.rule)).collect()
}

#[test]
fn mypy_size_limiting_loses_the_hub_findings_and_split_merge_keeps_them() {
    let Some(a) = tool(Tool::Mypy) else { return };
    // Sorted chunks of two: {__init__, a} {b, base} {c}: a.py is checked without pkg.base.
    let c = against_unsplit(Tool::Mypy, a.as_ref(), "py", Strategy::SizeLimiting, 2);
    assert_eq!(c.baseline.findings, 4, "the unsplit run finds a.py:6, a.py:10, b.py:6, c.py:6");
    assert_eq!(located(&c.lost), vec!["pkg/a.py:6 assignment", "pkg/a.py:10 return-value"]);
    assert!(c.extra.is_empty(), "{:?}", c.extra);
    assert_eq!((c.split.partitions, c.split.replication), (3, 1.0));

    let c = against_unsplit(Tool::Mypy, a.as_ref(), "py", Strategy::SplitMerge { k: Radius::Hops(2), p: 0.1 }, 2);
    assert!(c.lost.is_empty() && c.extra.is_empty(), "lost {:?} extra {:?}", c.lost, c.extra);
    // {__init__, c} {a, base} {b, base}: the hub replicated.
    assert_eq!(c.split.partitions, 3);
    assert!((c.split.replication - 6.0 / 5.0).abs() < 1e-9, "{}", c.split.replication);
}

#[test]
fn bandit_size_limiting_loses_nothing() {
    let Some(a) = tool(Tool::Bandit) else { return };
    let c = against_unsplit(Tool::Bandit, a.as_ref(), "py", Strategy::SizeLimiting, 1);
    assert_eq!(located(&c.lost), Vec::<String>::new());
    assert!(c.extra.is_empty());
    assert_eq!(c.split.partitions, 5);
    assert_eq!(c.baseline.findings, 2, "B404 and B602 in c.py");
}

#[test]
fn cppcheck_cross_file_findings_move_when_caller_and_callee_part() {
    let Some(a) = tool(Tool::Cppcheck) else { return };
    let c = against_unsplit(Tool::Cppcheck, a.as_ref(), "c", Strategy::SizeLimiting, 1);
    assert!(located(&c.lost).contains(&"util.c:3 ctunullpointer".to_string()), "{:?}", c.lost);
    assert!(located(&c.extra).contains(&"util.c:3 unusedFunction".to_string()), "{:?}", c.extra);
    // main.c calls helper (util.c) and includes util.h: one closure of three units.
    let c = against_unsplit(Tool::Cppcheck, a.as_ref(), "c", Strategy::SplitMerge { k: Radius::Hops(2), p: 0.1 }, 3);
    assert!(c.lost.is_empty() && c.extra.is_empty(), "lost {:?} extra {:?}", c.lost, c.extra);
    assert_eq!(c.split.partitions, 1);
}

#[test]
fn extractors_find_the_fixture_edges() {
    let c = crosscheck_split::c::workload(&fixture("c")).unwrap_or_else(|e| panic!("{e}"));
    let edges: Vec<String> = c.edges.iter().map(|(a, b)| format!("{a}->{b}")).collect();
    assert_eq!(edges, vec!["main.c->util.c", "main.c->util.h", "util.c->util.h"]);
    let Some(a) = tool(Tool::Mypy) else { return };
    let python = a.python().unwrap_or_else(|| PathBuf::from("python3"));
    let py = crosscheck_split::python::workload(&fixture("py"), &python).unwrap_or_else(|e| panic!("{e}"));
    let edges: Vec<String> = py.edges.iter().map(|(a, b)| format!("{a}->{b}")).collect();
    assert_eq!(edges, vec!["pkg/a.py->pkg/base.py", "pkg/b.py->pkg/base.py"]);
}

#[test]
fn a_partition_that_times_out_or_runs_out_of_memory_is_reported() {
    let Some(a) = tool(Tool::Mypy) else { return };
    let quick = Limits { timeout_seconds: 0.05, memory_mib: Some(4096) };
    let r = run(Tool::Mypy, a.as_ref(), "py", Strategy::SizeLimiting, 5, quick);
    assert_eq!(r.partitions[0].status, Status::Timeout);
    assert!(r.partitions[0].findings.is_empty());
    let starved = Limits { timeout_seconds: 120.0, memory_mib: Some(8) };
    let r = run(Tool::Mypy, a.as_ref(), "py", Strategy::SizeLimiting, 5, starved);
    assert!(matches!(r.partitions[0].status, Status::Crashed { .. }), "{:?}", r.partitions[0]);
    assert_eq!(r.failed(), 1);
}

#[test]
fn resplitting_isolates_the_unit_that_crashes_the_tool() {
    let Some(a) = tool(Tool::Mypy) else { return };
    // d.py does not parse: mypy ends with exit code 2 on any partition holding it.
    let mut r = run(Tool::Mypy, a.as_ref(), "py-crash", Strategy::SizeLimiting, 4, LIMITS);
    assert!(matches!(r.partitions[0].status, Status::Crashed { .. }), "{:?}", r.partitions[0]);
    crosscheck_split::resplit(&mut r, a.as_ref(), 5, &|_| {}).unwrap_or_else(|e| panic!("{e}"));
    let parts: Vec<(Vec<&str>, bool)> = r
        .plan
        .partitions
        .iter()
        .zip(&r.partitions)
        .map(|(p, run)| (r.plan.names(p), run.status == Status::Ok))
        .collect();
    assert_eq!(
        parts,
        vec![(vec!["pkg/a.py", "pkg/b.py"], true), (vec!["pkg/c.py"], true), (vec!["pkg/d.py"], false)],
        "S = 4, then 2, then 1"
    );
    assert_eq!(r.replaced.len(), 2);
    assert_eq!(r.findings().len(), 3, "a, b and c each return a str as an int");
    assert!(r.best_latency() > r.partitions[2].wall_seconds, "d waited for the partitions it was split from");
}
