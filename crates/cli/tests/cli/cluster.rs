//! Clustered execution (`crosscheck_core::cluster`) on real engines with the SQL leg's undo
//! statements (`crosscheck_sql::undo`): chapter 5's examples on SQLite, counted exactly, and
//! every undo on SQLite, DuckDB, PostgreSQL and MariaDB leaving each node's rows exactly as its
//! path made them (every query lists the whole table and is compared with the path's rows).
//! Engines that are not installed are skipped unless `CROSSCHECK_REQUIRE_ENGINES` names them.

use crosscheck_core::cluster::uniform::{Level, Uniform};
use crosscheck_core::cluster::{
    execute, execute_unclustered, Counters, Observer, Part, Settings, Step, TestTree, Undo, UndoTexts,
};
use crosscheck_core::{Engine, Outcome, Value};
use crosscheck_engines::testing::open_sql;
use crosscheck_sql::undo::{SqlUndo, UndoDialect, UniformSql};
use std::collections::BTreeMap;
use std::time::Duration;

const ENGINES: [&str; 4] = ["sqlite", "duckdb", "postgres", "mariadb"];

fn dialect(e: &dyn Engine) -> UndoDialect {
    UndoDialect::of(&e.info().dialect).unwrap_or_else(|| panic!("{}: no undo dialect", e.info().name))
}

fn settings(undo: Undo, texts: &dyn UndoTexts) -> Settings<'_> {
    Settings { undo, texts, limit: Duration::from_secs(20), part: Part::WHOLE }
}

/// Each answer as its rows printed, one cell per line of the first column.
#[derive(Default)]
struct Answers {
    rows: BTreeMap<u64, Vec<String>>,
    refused: Vec<String>,
}

fn cell(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Null => "NULL".into(),
        Value::Text(t) => t.clone(),
        other => format!("{other:?}"),
    }
}

impl Observer for Answers {
    fn answer(&mut self, query: u64, outcome: &Outcome) {
        let rows = match outcome {
            Outcome::Rows(r) => r.rows.iter().map(|r| r.iter().map(cell).collect::<Vec<_>>().join("|")).collect(),
            other => vec![format!("{other}")],
        };
        self.rows.insert(query, rows);
    }
    fn step_failed(&mut self, statement: &str, _outcome: &Outcome) {
        self.refused.push(statement.to_string());
    }
}

fn run<T: TestTree>(tree: &mut T, e: &mut dyn Engine, s: Settings<'_>, clustered: bool) -> (Counters, Answers) {
    let mut answers = Answers::default();
    let r = if clustered { execute(tree, e, s, &mut answers) } else { execute_unclustered(tree, e, s, &mut answers) };
    match r {
        Ok(c) => (c, answers),
        Err(err) => panic!("{}: {} (clustered: {clustered}): {err}", e.info().name, s.undo),
    }
}

/// Runs a uniform trie and compares every answer with its node's rows.
fn run_uniform(tree: &mut Uniform<UniformSql>, e: &mut dyn Engine, undo: Undo, clustered: bool) -> Counters {
    let texts = tree.writer.0.clone();
    let (c, answers) = run(tree, e, settings(undo, &texts), clustered);
    let name = &e.info().name;
    assert_eq!(answers.rows.len() as u64, c.queries, "{name} {undo}");
    for (id, rows) in &answers.rows {
        let want: Vec<String> = tree.expected[id].iter().map(u64::to_string).collect();
        assert_eq!(rows, &want, "{name} {undo} clustered: {clustered}: query {id}");
    }
    assert!(answers.refused.is_empty(), "{name} {undo}: {:?}", answers.refused);
    c
}

/// A small hand-written trie: nodes with a step and queries, children by index.
struct Hand {
    setup: Vec<String>,
    prefix: Vec<String>,
    nodes: Vec<(Step, Vec<String>, Vec<usize>)>,
}

impl TestTree for Hand {
    type Node = usize;
    fn root(&mut self) -> usize {
        0
    }
    fn setup(&mut self) -> Vec<String> {
        self.setup.clone()
    }
    fn prefix(&mut self) -> Vec<String> {
        self.prefix.clone()
    }
    fn children(&mut self, node: &usize) -> Vec<(Step, usize)> {
        self.nodes[*node].2.iter().map(|&c| (self.nodes[c].0.clone(), c)).collect()
    }
    fn queries(&mut self, node: &usize) -> Vec<(u64, String)> {
        let n = *node as u64;
        self.nodes[*node].1.iter().enumerate().map(|(k, q)| (n * 10 + k as u64, q.clone())).collect()
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn step(apply: &[&str], inverse: &[&str]) -> Step {
    Step { apply: strings(apply), inverse: strings(inverse) }
}

/// Fig. 5.1 of seed 004 in SQL: `emptyTables` is the clear, `addToStudent` an INSERT undone by
/// a DELETE of its key, `deleteStudentByID` a DELETE undone by re-inserting the row.
fn figure_5_1() -> Hand {
    let add = |n: u32| format!("INSERT INTO student VALUES ({n}, 'name{n}')");
    let del = |n: u32| format!("DELETE FROM student WHERE s_id = {n}");
    let s = |n: u32| (del(n), add(n));
    let (d1, a1) = s(1);
    let (d3, a3) = s(3);
    let (d4, a4) = s(4);
    let leaf = |st: Step, q: &str| (st, strings(&[q]), Vec::new());
    Hand {
        setup: strings(&["CREATE TABLE student (s_id INT, s_name VARCHAR(50), PRIMARY KEY (s_id))"]),
        prefix: (1..=4).map(add).collect(),
        nodes: vec![
            (Step::default(), Vec::new(), vec![1, 2, 3]),
            leaf(Step::default(), "SELECT COUNT(*) FROM student"),
            leaf(step(&[&d1], &[&a1]), "SELECT COUNT(*) FROM student"),
            (step(&[&d4], &[&a4]), Vec::new(), vec![4, 5]),
            leaf(step(&[&d3], &[&a3]), "SELECT MIN(s_id) FROM student"),
            leaf(step(&[&d1], &[&a1]), "SELECT MAX(s_id) FROM student"),
        ],
    }
}

#[test]
fn cluster_figure_5_1_on_sqlite_takes_17_calls_instead_of_29() {
    let Some(mut e) = open_sql("sqlite") else { return };
    let texts = SqlUndo::new(dialect(e.as_ref()), vec!["student".into()]);
    let want: BTreeMap<u64, Vec<String>> =
        [(10, "4"), (20, "3"), (40, "1"), (50, "3")].into_iter().map(|(k, v)| (k, vec![v.to_string()])).collect();
    let (c, answers) = run(&mut figure_5_1(), e.as_mut(), settings(Undo::Inverse, &texts), true);
    assert_eq!(answers.rows, want);
    // The schema is set up once (not a call of the seed's count), then 17 calls.
    assert_eq!((c.calls - 1, c.undos, c.per_query_loop_calls - 1), (17, 4, 29));
    let (u, answers) = run(&mut figure_5_1(), e.as_mut(), settings(Undo::Inverse, &texts), false);
    assert_eq!(answers.rows, want);
    assert_eq!(u.calls - 1, 29);
}

#[test]
fn cluster_the_10x10_tree_on_sqlite_takes_56110_calls_with_110_rollbacks() {
    let Some(mut e) = open_sql("sqlite") else { return };
    let levels =
        vec![Level { fanout: 10, statements: 500, queries: 0 }, Level { fanout: 10, statements: 499, queries: 1 }];
    // 1,000 root statements: the clear (DELETE FROM) and 999 INSERTs.
    let mut tree = Uniform::new(999, levels, UniformSql::new(dialect(e.as_ref())));
    let c = run_uniform(&mut tree, e.as_mut(), Undo::Savepoint, true);
    // Less the CREATE TABLE, which the seed's count has not.
    assert_eq!((c.seed_calls() - 1, c.undos, c.per_query_loop_calls - 1), (56_110, 110, 200_000));
    let u = run_uniform(&mut tree, e.as_mut(), Undo::Inverse, false);
    assert_eq!(u.calls - 1, 200_000);
}

#[test]
fn cluster_the_web_service_trees_on_sqlite_take_106_74_42_calls() {
    let Some(mut e) = open_sql("sqlite") else { return };
    // A web-service call reads and leaves nothing to undo on the service: a SELECT.
    let call = |n: usize| format!("SELECT {n}");
    for (per_level, want) in [([1, 3, 3, 3], 106), ([4, 2, 2, 2], 74), ([7, 1, 1, 1], 42)] {
        let mut nodes = vec![(Step::default(), Vec::new(), Vec::new())];
        let mut level = vec![0];
        for (depth, fanout) in [(1, 5), (2, 2), (3, 2)] {
            let mut next = Vec::new();
            for &parent in &level {
                for _ in 0..fanout {
                    // A leaf's last call is its query.
                    let calls = per_level[depth] - usize::from(depth == 3);
                    let apply = (0..calls).map(call).collect();
                    let queries = if depth == 3 { vec![call(9)] } else { Vec::new() };
                    nodes.push((Step { apply, inverse: Vec::new() }, queries, Vec::new()));
                    let child = nodes.len() - 1;
                    nodes[parent].2.push(child);
                    next.push(child);
                }
            }
            level = next;
        }
        let mut tree = Hand { setup: Vec::new(), prefix: (0..per_level[0]).map(call).collect(), nodes };
        let texts = SqlUndo::new(UndoDialect::Sqlite, Vec::new());
        let (c, _) = run(&mut tree, e.as_mut(), settings(Undo::Inverse, &texts), true);
        assert_eq!((c.calls, c.nodes, c.per_query_loop_calls), (want, 36, 200), "{per_level:?}");
        let (u, _) = run(&mut tree, e.as_mut(), settings(Undo::Inverse, &texts), false);
        assert_eq!(u.calls, 200);
    }
}

fn undos_on(e: &dyn Engine) -> Vec<Undo> {
    let d = dialect(e);
    let mut undos = vec![Undo::Inverse, Undo::Reset];
    if SqlUndo::new(d, Vec::new()).savepoint(0).is_some() {
        undos.push(Undo::Savepoint);
    }
    undos
}

/// Every undo leaves every node exactly as its path made it, on every engine; the per-query
/// loop answers the same, with more calls.
#[test]
fn cluster_every_undo_restores_each_node_on_every_engine() {
    for name in ENGINES {
        let Some(mut e) = open_sql(name) else { continue };
        let levels = vec![
            Level { fanout: 3, statements: 2, queries: 1 },
            Level { fanout: 3, statements: 1, queries: 2 },
            Level { fanout: 2, statements: 2, queries: 1 },
        ];
        let mut tree = Uniform::new(3, levels, UniformSql::new(dialect(e.as_ref())));
        tree.root_queries = 1;
        let u = run_uniform(&mut tree, e.as_mut(), Undo::Inverse, false);
        for undo in undos_on(e.as_ref()) {
            let c = run_uniform(&mut tree, e.as_mut(), undo, true);
            assert_eq!((c.queries, c.per_query_loop_calls), (u.queries, u.calls), "{name} {undo}");
            assert!(c.calls < u.calls, "{name} {undo}: {} calls, the loop {}", c.calls, u.calls);
            assert_eq!(c.recoveries, 0, "{name} {undo}");
            // Back at the root, outside any transaction: the root's rows, committed.
            let o = e.run("SELECT COUNT(*) FROM cc_rows", Duration::from_secs(20));
            let n = o.rows().and_then(|r| r.rows.first()).and_then(|r| r.first()).map(cell);
            assert_eq!(n.as_deref(), Some("3"), "{name} {undo}");
        }
    }
}

/// Rows of a bag (no key, NULLs, copies): the inverse DELETE removes one copy of the row.
fn bag_tree(d: UndoDialect) -> Hand {
    let u = SqlUndo::new(d, vec!["b".into()]);
    let ins = |x: &str, y: &str| format!("INSERT INTO b VALUES ({x}, {y})");
    let inv = |x: &str, y: &str| u.delete_row("b", &[("x".into(), x.into()), ("y".into(), y.into())], None);
    let list = "SELECT x, y FROM b ORDER BY x, y";
    let add = |x: &str, y: &str| Step { apply: vec![ins(x, y)], inverse: vec![inv(x, y)] };
    Hand {
        setup: strings(&["CREATE TABLE b (x INTEGER, y VARCHAR(5))"]),
        prefix: vec![ins("1", "'a'"), ins("1", "'a'"), ins("2", "NULL")],
        nodes: vec![
            (Step::default(), strings(&[list]), vec![1, 3]),
            (add("1", "'a'"), strings(&[list]), vec![2]),
            (add("2", "NULL"), strings(&[list]), Vec::new()),
            (add("NULL", "NULL"), strings(&[list]), Vec::new()),
        ],
    }
}

#[test]
fn cluster_an_inverse_delete_removes_one_copy_of_a_bag_row() {
    let null_first = |d: UndoDialect| matches!(d, UndoDialect::Sqlite | UndoDialect::MariaDb);
    for name in ENGINES {
        let Some(mut e) = open_sql(name) else { continue };
        let d = dialect(e.as_ref());
        let root = ["1|a", "1|a", "2|NULL"];
        let with = |extra: &[&str]| {
            let mut v: Vec<String> = root.iter().chain(extra).map(|s| s.to_string()).collect();
            // NULLs sort first on SQLite and MariaDB, last on PostgreSQL and DuckDB.
            v.sort_by_key(|s| (s.starts_with("NULL") != null_first(d), s.clone()));
            v
        };
        let want: BTreeMap<u64, Vec<String>> =
            [(0, with(&[])), (10, with(&["1|a"])), (20, with(&["1|a", "2|NULL"])), (30, with(&["NULL|NULL"]))].into();
        let texts = SqlUndo::new(d, vec!["b".into()]);
        for undo in undos_on(e.as_ref()) {
            let (_, answers) = run(&mut bag_tree(d), e.as_mut(), settings(undo, &texts), true);
            assert_eq!(answers.rows, want, "{name} {undo}");
        }
    }
}

/// A query that fails and a step the engine refuses, in the middle of the trie: with
/// savepoints on PostgreSQL the error aborts the transaction, and the run rolls back to the
/// node's savepoint so that what follows still answers from the right rows.
fn failing_tree() -> Hand {
    let list = "SELECT id FROM cc_rows ORDER BY id";
    let add = |n: u32| Step {
        apply: vec![format!("INSERT INTO cc_rows VALUES ({n}, 'r{n}')")],
        inverse: vec![format!("DELETE FROM cc_rows WHERE id = {n}")],
    };
    Hand {
        setup: strings(&["CREATE TABLE cc_rows (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(20))"]),
        prefix: Vec::new(),
        nodes: vec![
            (Step::default(), Vec::new(), vec![1, 3]),
            // A failing query between two good ones, then the children.
            (add(1), strings(&[list, "SELECT * FROM no_such_table", list]), vec![4, 2]),
            // A duplicate key: refused, its subtree skipped.
            (
                Step { apply: strings(&["INSERT INTO cc_rows VALUES (1, 'x')"]), inverse: Vec::new() },
                strings(&[list]),
                Vec::new(),
            ),
            (add(3), strings(&[list]), Vec::new()),
            (add(4), strings(&[list]), Vec::new()),
        ],
    }
}

#[test]
fn cluster_a_failing_statement_inside_a_savepoint_keeps_the_run_right() {
    for name in ENGINES {
        let Some(mut e) = open_sql(name) else { continue };
        let texts = SqlUndo::new(dialect(e.as_ref()), vec!["cc_rows".into()]);
        for undo in undos_on(e.as_ref()) {
            let (c, answers) = run(&mut failing_tree(), e.as_mut(), settings(undo, &texts), true);
            let v = |s: &[&str]| strings(s);
            assert_eq!(answers.rows[&10], v(&["1"]), "{name} {undo}");
            assert!(answers.rows[&11][0].starts_with("error"), "{name} {undo}: {:?}", answers.rows[&11]);
            assert_eq!(answers.rows[&12], v(&["1"]), "{name} {undo}");
            assert_eq!(answers.rows[&40], v(&["1", "4"]), "{name} {undo}");
            assert_eq!(answers.rows[&30], v(&["3"]), "{name} {undo}");
            assert!(!answers.rows.contains_key(&20), "{name} {undo}: the refused step's node ran");
            assert_eq!((c.failed_steps, c.recoveries), (1, 0), "{name} {undo}");
            if texts.errors_abort() && undo == Undo::Savepoint {
                // The failed query and the refused step each rolled back to their savepoint.
                assert_eq!(c.undos, 2 + 3, "{name}");
            }
        }
    }
}

/// MariaDB commits DDL implicitly, which ends the transaction and every savepoint: leaving a
/// node whose step created a table finds no savepoint to roll back to, and the run rebuilds the
/// parent from a fresh database. PostgreSQL rolls the CREATE TABLE back with the savepoint.
#[test]
fn cluster_ddl_in_a_step_loses_mariadbs_savepoints_and_the_run_recovers() {
    for name in ["mariadb", "postgres", "sqlite"] {
        let Some(mut e) = open_sql(name) else { continue };
        let texts = SqlUndo::new(dialect(e.as_ref()), vec!["cc_rows".into()]);
        let mut tree = failing_tree();
        tree.nodes[4].0.apply.push("CREATE TABLE extra (i INTEGER)".into());
        tree.nodes[3].1.push("SELECT COUNT(*) FROM extra".into());
        let (c, answers) = run(&mut tree, e.as_mut(), settings(Undo::Savepoint, &texts), true);
        assert_eq!(answers.rows[&40], strings(&["1", "4"]), "{name}");
        assert_eq!(answers.rows[&30], strings(&["3"]), "{name}");
        // The table made under node 4 is gone by node 3 only where DDL is transactional.
        let gone = answers.rows[&31][0].starts_with("error");
        let mariadb = name == "mariadb";
        assert_eq!((gone, c.recoveries > 0), (true, mariadb), "{name}: {:?}", answers.rows[&31]);
    }
}
