//! Clustered execution counted on chapter 5's examples (seed 004): Fig. 5.1, the 10×10 tree
//! of Table 5.1 and the web-service trees of Table 5.2.
//!
//! The engine here is a small in-test model (a set of integer rows with savepoints), so the
//! counts are exact and each answer is checked against the node's rows: an undo that leaves
//! anything behind fails the test. The same trees on real SQLite are in the binary's tests
//! (`crates/cli/tests/cli/cluster.rs`).

use crosscheck_core::cluster::uniform::{Level, Uniform, Writer};
use crosscheck_core::cluster::{
    execute, execute_unclustered, Counters, Observer, Part, Settings, Step, TestTree, Undo, UndoTexts,
};
use crosscheck_core::{Engine, EngineInfo, Outcome, Rows, SetupError, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// Rows of integers. `add N` (an error if N is there: a key), `del N`, `emptyTables`, `list`,
/// `count`, `min`, `max`, `fail`, and savepoints as SQL has them: `SAVEPOINT s`, `ROLLBACK TO
/// s` (keeps it), `RELEASE s`.
#[derive(Default)]
struct Model {
    info: EngineInfo,
    rows: BTreeSet<i64>,
    savepoints: Vec<(String, BTreeSet<i64>)>,
    log: Vec<String>,
}

impl Model {
    fn number(rows: &BTreeSet<i64>, pick: Option<&i64>) -> Outcome {
        let _ = rows;
        Outcome::Rows(Rows::new(vec!["v".into()], vec![vec![pick.map_or(Value::Null, |v| Value::Int(*v))]]))
    }

    fn savepoint_at(&self, name: &str) -> Option<usize> {
        self.savepoints.iter().rposition(|(n, _)| n == name)
    }
}

impl Engine for Model {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.rows.clear();
        self.savepoints.clear();
        Ok(())
    }
    fn run(&mut self, text: &str, _limit: Duration) -> Outcome {
        self.log.push(text.to_string());
        let (verb, arg) = text.split_once(' ').unwrap_or((text, ""));
        let n = arg.parse::<i64>().ok();
        match (verb, n) {
            ("add", Some(n)) if self.rows.insert(n) => Outcome::Done,
            ("add", Some(n)) => Outcome::error(format!("duplicate key {n}")),
            ("del", Some(n)) => {
                self.rows.remove(&n);
                Outcome::Done
            }
            ("emptyTables", _) => {
                self.rows.clear();
                Outcome::Done
            }
            ("list", _) => {
                Outcome::Rows(Rows::new(vec!["v".into()], self.rows.iter().map(|v| vec![Value::Int(*v)]).collect()))
            }
            ("count", _) => Outcome::Rows(Rows::new(vec!["v".into()], vec![vec![Value::Int(self.rows.len() as i64)]])),
            ("min", _) => Model::number(&self.rows, self.rows.first()),
            ("max", _) => Model::number(&self.rows, self.rows.last()),
            ("SAVEPOINT", _) => {
                self.savepoints.push((arg.to_string(), self.rows.clone()));
                Outcome::Done
            }
            ("ROLLBACK", _) => {
                let name = arg.trim_start_matches("TO ");
                let Some(i) = self.savepoint_at(name) else { return Outcome::error("no such savepoint") };
                self.rows = self.savepoints[i].1.clone();
                self.savepoints.truncate(i + 1);
                Outcome::Done
            }
            ("RELEASE", _) => {
                let Some(i) = self.savepoint_at(arg) else { return Outcome::error("no such savepoint") };
                self.savepoints.truncate(i);
                Outcome::Done
            }
            _ => Outcome::error(format!("cannot run {text}")),
        }
    }
}

struct Texts {
    clear: Vec<String>,
}

impl UndoTexts for Texts {
    fn begin(&self) -> Option<String> {
        None
    }
    fn commit(&self) -> Option<String> {
        None
    }
    fn savepoint(&self, depth: usize) -> Option<String> {
        Some(format!("SAVEPOINT s{depth}"))
    }
    fn rollback_to(&self, depth: usize) -> String {
        format!("ROLLBACK TO s{depth}")
    }
    fn release(&self, depth: usize) -> String {
        format!("RELEASE s{depth}")
    }
    fn reset(&self) -> Vec<String> {
        self.clear.clone()
    }
    fn auto(&self) -> Undo {
        Undo::Inverse
    }
}

fn settings(undo: Undo, texts: &Texts) -> Settings<'_> {
    Settings { undo, texts, limit: Duration::from_secs(5), part: Part::WHOLE }
}

/// Fig. 5.1: four JUnit tests sharing `emptyTables` and four `addToStudent` calls.
struct Fig51;

#[derive(Clone, Copy)]
enum StudentNode {
    Root,
    Test(usize),
    Delete4,
}

fn step(apply: &[&str], inverse: &[&str]) -> Step {
    Step {
        apply: apply.iter().map(|s| s.to_string()).collect(),
        inverse: inverse.iter().map(|s| s.to_string()).collect(),
    }
}

impl TestTree for Fig51 {
    type Node = StudentNode;
    fn root(&mut self) -> StudentNode {
        StudentNode::Root
    }
    fn setup(&mut self) -> Vec<String> {
        Vec::new()
    }
    fn prefix(&mut self) -> Vec<String> {
        (1..=4).map(|n| format!("add {n}")).collect()
    }
    fn children(&mut self, node: &StudentNode) -> Vec<(Step, StudentNode)> {
        match node {
            StudentNode::Root => vec![
                (step(&[], &[]), StudentNode::Test(1)),
                (step(&["del 1"], &["add 1"]), StudentNode::Test(2)),
                (step(&["del 4"], &["add 4"]), StudentNode::Delete4),
            ],
            StudentNode::Delete4 => vec![
                (step(&["del 3"], &["add 3"]), StudentNode::Test(3)),
                (step(&["del 1"], &["add 1"]), StudentNode::Test(4)),
            ],
            StudentNode::Test(_) => Vec::new(),
        }
    }
    fn queries(&mut self, node: &StudentNode) -> Vec<(u64, String)> {
        match node {
            StudentNode::Test(1) => vec![(1, "count".into())],
            StudentNode::Test(2) => vec![(2, "count".into())],
            StudentNode::Test(3) => vec![(3, "min".into())],
            StudentNode::Test(4) => vec![(4, "max".into())],
            _ => Vec::new(),
        }
    }
}

/// The answers by query id, as single integers (Fig. 5.1's asserts).
fn run_fig51(clustered: bool) -> (Counters, BTreeMap<u64, Outcome>, Vec<String>) {
    let texts = Texts { clear: vec!["emptyTables".into()] };
    let mut engine = Model::default();
    let mut answers = BTreeMap::new();
    let mut record = |id: u64, o: &Outcome| {
        answers.insert(id, o.clone());
    };
    let s = settings(Undo::Inverse, &texts);
    let c = if clustered {
        execute(&mut Fig51, &mut engine, s, &mut record)
    } else {
        execute_unclustered(&mut Fig51, &mut engine, s, &mut record)
    };
    (c.unwrap_or_default(), answers, engine.log)
}

fn int(v: i64) -> Outcome {
    Outcome::Rows(Rows::new(vec!["v".into()], vec![vec![Value::Int(v)]]))
}

#[test]
fn figure_5_1_takes_17_calls_instead_of_29() {
    let expected: BTreeMap<u64, Outcome> = [(1, int(4)), (2, int(3)), (3, int(1)), (4, int(3))].into();
    let (clustered, answers, log) = run_fig51(true);
    assert_eq!(answers, expected, "the four asserts of Fig. 5.1 hold");
    assert_eq!(clustered.calls, 17);
    assert_eq!((clustered.statements, clustered.queries, clustered.undos, clustered.marks), (9, 4, 4, 0));
    assert_eq!(clustered.per_query_loop_calls, 29);
    // Fig. 5.3's order: test 2 is undone (re-add 1) before delete(4) runs.
    let tail: Vec<&str> = log.iter().map(String::as_str).skip(5).collect();
    assert_eq!(
        tail,
        ["count", "del 1", "count", "add 1", "del 4", "del 3", "min", "add 3", "del 1", "max", "add 1", "add 4"]
    );

    let (unclustered, answers, _) = run_fig51(false);
    assert_eq!(answers, expected);
    assert_eq!(unclustered.calls, 29);
    assert_eq!(unclustered.per_query_loop_calls, 29);
}

/// Rows as the model spells them.
struct ModelWriter;

impl Writer for ModelWriter {
    fn setup(&self) -> Vec<String> {
        Vec::new()
    }
    fn add(&self, n: u64) -> String {
        format!("add {n}")
    }
    fn remove(&self, n: u64) -> Option<String> {
        Some(format!("del {n}"))
    }
    fn list(&self) -> String {
        "list".into()
    }
}

/// Runs `tree` and checks every answer against the node's rows.
fn run_checked(tree: &mut Uniform<ModelWriter>, undo: Undo, clustered: bool, part: Part) -> Counters {
    let mut engine = Model::default();
    let mut answers: BTreeMap<u64, Vec<i64>> = BTreeMap::new();
    let mut record = |id: u64, o: &Outcome| {
        let rows = o.rows().map(|r| {
            r.rows
                .iter()
                .filter_map(|r| match r.first() {
                    Some(Value::Int(v)) => Some(*v),
                    _ => None,
                })
                .collect()
        });
        answers.insert(id, rows.unwrap_or_default());
    };
    let texts = Texts { clear: vec!["emptyTables".into()] };
    let s = Settings { part, ..settings(undo, &texts) };
    let c = if clustered {
        execute(tree, &mut engine, s, &mut record)
    } else {
        execute_unclustered(tree, &mut engine, s, &mut record)
    };
    let c = match c {
        Ok(c) => c,
        Err(e) => panic!("{undo}, clustered: {clustered}: {e}"),
    };
    for (id, rows) in &answers {
        let want: Vec<i64> = tree.expected[id].iter().map(|&n| n as i64).collect();
        assert_eq!(rows, &want, "query {id} ({undo}, clustered: {clustered})");
    }
    assert_eq!(answers.len() as u64, c.queries);
    if clustered {
        // Back at the root, outside every savepoint.
        assert_eq!(engine.rows.len(), tree.prefix, "{undo}");
        assert!(engine.savepoints.is_empty(), "{undo}");
    }
    c
}

/// Table 5.1: 10 children under a root of 1,000 statements (the clear and 999: Fig. 5.1's
/// tests begin with `emptyTables` too), 10 leaves under each, 500 statements per node (a
/// leaf's last is its query). The seed's 110,000 per-statement figure
/// cannot come from this split (it gives 110,900; with all 500 undone, 111,000): see the note.
#[test]
fn the_10x10_tree_takes_56110_calls_with_110_rollbacks_instead_of_200000() {
    let levels =
        vec![Level { fanout: 10, statements: 500, queries: 0 }, Level { fanout: 10, statements: 499, queries: 1 }];
    let mut tree = Uniform::new(999, levels, ModelWriter);
    let c = run_checked(&mut tree, Undo::Savepoint, true, Part::WHOLE);
    assert_eq!(c.seed_calls(), 56_110);
    assert_eq!(c.undos, 110);
    assert_eq!(c.per_query_loop_calls, 200_000);
    // One savepoint per node with children, and the root's released at the end.
    assert_eq!(c.marks, 12);
    assert_eq!(c.calls, 56_122);

    let c = run_checked(&mut tree, Undo::Inverse, true, Part::WHOLE);
    assert_eq!((c.calls, c.undos), (110_900, 54_900));

    let c = run_checked(&mut tree, Undo::Inverse, false, Part::WHOLE);
    assert_eq!(c.calls, 200_000);
}

/// Table 5.2: 1-5-10-20 trees of web-service calls, 10 per test, the undo local (no call).
#[test]
fn the_web_service_trees_take_106_74_42_calls_instead_of_200() {
    for (per_level, want) in [([1, 3, 3, 3], 106), ([4, 2, 2, 2], 74), ([7, 1, 1, 1], 42)] {
        let levels = vec![
            Level { fanout: 5, statements: per_level[1], queries: 0 },
            Level { fanout: 2, statements: per_level[2], queries: 0 },
            // A leaf's last call is its query.
            Level { fanout: 2, statements: per_level[3] - 1, queries: 1 },
        ];
        let mut tree = Uniform::new(per_level[0], levels, NoUndoWriter);
        assert_eq!(tree.shape(), (20, 36, "1-5-10-20".to_string()));
        let mut engine = Model::default();
        let mut ignore = |_: u64, _: &Outcome| {};
        let texts = Texts { clear: Vec::new() };
        let s = settings(Undo::Inverse, &texts);
        let c = execute(&mut tree, &mut engine, s, &mut ignore).unwrap_or_default();
        assert_eq!((c.calls, c.undos, c.per_query_loop_calls), (want, 0, 200), "{per_level:?}");
        let u = execute_unclustered(&mut tree, &mut engine, s, &mut ignore).unwrap_or_default();
        assert_eq!(u.calls, 200);
    }
}

/// Web-service calls: each a call, undone outside the service (the seed's XML undo).
struct NoUndoWriter;

impl Writer for NoUndoWriter {
    fn setup(&self) -> Vec<String> {
        Vec::new()
    }
    fn add(&self, _n: u64) -> String {
        "list".into()
    }
    fn remove(&self, _n: u64) -> Option<String> {
        None
    }
    fn list(&self) -> String {
        "count".into()
    }
}

fn bench_tree() -> Uniform<ModelWriter> {
    let levels = vec![
        Level { fanout: 3, statements: 2, queries: 1 },
        Level { fanout: 4, statements: 1, queries: 2 },
        Level { fanout: 3, statements: 3, queries: 1 },
    ];
    let mut tree = Uniform::new(5, levels, ModelWriter);
    tree.root_queries = 1;
    tree
}

/// Every undo gives every query the rows of its node, clustered or not, whole or split.
#[test]
fn every_undo_answers_every_query_from_its_own_node() {
    let mut tree = bench_tree();
    let whole = run_checked(&mut tree, Undo::Inverse, false, Part::WHOLE);
    // 1 + 3 + 12 + 36 nodes; 1 + 3 + 24 + 36 queries.
    assert_eq!((whole.nodes, whole.queries), (52, 64));
    for undo in [Undo::Inverse, Undo::Savepoint, Undo::Reset] {
        let c = run_checked(&mut tree, undo, true, Part::WHOLE);
        assert_eq!((c.nodes, c.queries, c.per_query_loop_calls), (52, 64, whole.calls), "{undo}");
        assert!(c.calls < whole.calls, "{undo}: {} calls against {}", c.calls, whole.calls);
    }
}

/// Workers take the depth-1 subtrees round robin; together they run each query once.
#[test]
fn workers_split_the_trie_at_depth_one() {
    let mut tree = bench_tree();
    let whole = run_checked(&mut tree, Undo::Savepoint, true, Part::WHOLE);
    let mut sum = Counters::default();
    for worker in 0..2 {
        let c = run_checked(&mut tree, Undo::Savepoint, true, Part { worker, workers: 2 });
        sum.add(&c);
    }
    assert_eq!((sum.queries, sum.per_query_loop_calls), (whole.queries, whole.per_query_loop_calls));
    // Both rebuild the root; each runs its own subtrees: 2 of the 3 children and 1.
    assert_eq!(sum.nodes, whole.nodes + 1);
    let mut u = Counters::default();
    for worker in 0..2 {
        u.add(&run_checked(&mut tree, Undo::Inverse, false, Part { worker, workers: 2 }));
    }
    assert_eq!(u.queries, whole.queries);
}

/// A tree whose second child's step is refused half way: its subtree is skipped, and what
/// follows still sees the right rows.
struct Refused;

impl TestTree for Refused {
    type Node = u32;
    fn root(&mut self) -> u32 {
        0
    }
    fn setup(&mut self) -> Vec<String> {
        Vec::new()
    }
    fn children(&mut self, node: &u32) -> Vec<(Step, u32)> {
        match node {
            0 => vec![
                (step(&["add 1"], &["del 1"]), 1),
                (step(&["add 2", "fail", "add 3"], &["del 3", "del 2"]), 2),
                (step(&["add 4"], &["del 4"]), 3),
            ],
            2 => vec![(step(&["add 5"], &["del 5"]), 4)],
            _ => Vec::new(),
        }
    }
    fn queries(&mut self, node: &u32) -> Vec<(u64, String)> {
        vec![(u64::from(*node), "list".into())]
    }
}

#[derive(Default)]
struct Seen {
    answers: BTreeMap<u64, String>,
    refused: Vec<String>,
}

impl Observer for Seen {
    fn answer(&mut self, query: u64, outcome: &Outcome) {
        let rows = outcome.rows().map(|r| format!("{:?}", r.rows)).unwrap_or_default();
        self.answers.insert(query, rows);
    }
    fn step_failed(&mut self, statement: &str, _outcome: &Outcome) {
        self.refused.push(statement.to_string());
    }
}

#[test]
fn a_refused_step_skips_its_subtree_and_restores_the_node() {
    let texts = Texts { clear: vec!["emptyTables".into()] };
    for undo in [Undo::Inverse, Undo::Savepoint, Undo::Reset] {
        for clustered in [true, false] {
            let mut engine = Model::default();
            let mut seen = Seen::default();
            let s = settings(undo, &texts);
            let c = if clustered {
                execute(&mut Refused, &mut engine, s, &mut seen)
            } else {
                execute_unclustered(&mut Refused, &mut engine, s, &mut seen)
            };
            let c = c.unwrap_or_default();
            let want: BTreeMap<u64, String> = [(0, "[]"), (1, "[[Int(1)]]"), (3, "[[Int(4)]]")]
                .into_iter()
                .map(|(k, v)| (k, v.to_string()))
                .collect();
            assert_eq!(seen.answers, want, "{undo}, clustered: {clustered}");
            assert_eq!(seen.refused, ["fail"]);
            assert_eq!(c.failed_steps, 1);
        }
    }
}
