//! Pivoted Query Synthesis (`pqs`) and its evaluator (`eval`) on the real engines: the
//! evaluator's value of small expressions against what each engine answers for them, the
//! evaluator against the engine on every row of generated PQS cases, the planted fault PQS
//! catches, and fixed-seed runs that find nothing on correct engines.

use crate::leg::{campaign, check, engine, OPTS};
use crate::oracles::installed;
use crosscheck_core::{Check, Engine, FindingClass, GenOptions, Kind, Value};
use crosscheck_sql::ast::*;
use crosscheck_sql::dialect::{by_name, Dialect};
use crosscheck_sql::eval::{truth, PivotCol, Truth};
use crosscheck_sql::exec::dialect_of;
use crosscheck_sql::{Query, SqlCase, SqlKind, SqlOracle};

fn lit(l: Lit) -> Expr {
    Expr::Lit(l)
}

fn text(s: &str) -> Expr {
    lit(Lit::Text(s.into()))
}

fn c(name: &str) -> Expr {
    Expr::col("t0", name)
}

fn column(name: &str, ty: Option<SqlType>, collate: Option<Collation>) -> ColumnDef {
    ColumnDef { collate, ty, ..ColumnDef::plain(name, SqlType::Int) }
}

/// A one-table PQS case: `t0` with `columns`, the rows `rows`, the predicate `pred`.
fn case(columns: Vec<ColumnDef>, rows: Vec<Vec<Lit>>, pred: Expr) -> SqlCase {
    let setup = crate::leg::t0(columns, rows);
    let select = Select { from: vec![TableRef::named("t0", None)], ..Select::default() };
    SqlCase {
        seed: 0,
        db: 0,
        index: 0,
        oracle: SqlOracle::Pqs,
        strict: true,
        setup: setup.into(),
        query: Query { select, pred: Some(pred), count_rows: false },
    }
}

/// Loads `case`'s setup into `e`.
fn load(e: &mut Box<dyn Engine>, case: &SqlCase) {
    let mut engines = vec![std::mem::replace(e, engine("sqlite"))];
    assert_eq!(SqlKind.prepare(case, &mut engines, &OPTS), Check::Pass { nonempty: false });
    if let Some(back) = engines.pop() {
        *e = back;
    }
}

/// Per row of `SELECT * FROM <case's tables>`, the engine's truth of the case's predicate and
/// the evaluator's (`None` where it refuses); `None` where the engine answers with an error
/// (an overflow on some row).
fn both_truths(e: &mut Box<dyn Engine>, case: &SqlCase) -> Option<Vec<(Truth, Option<Truth>)>> {
    let d = dialect_of(e.as_ref());
    let sem = d.semantics().unwrap_or_else(|| panic!("{} has no semantics", d.name()));
    let pred = case.query.pred.clone().unwrap_or_else(|| panic!("no predicate"));
    let int = |i: i64| lit(Lit::Int(i));
    let tag = Expr::Case {
        operand: None,
        whens: vec![(pred.clone(), int(1)), (Expr::negate(pred.clone()), int(0))],
        otherwise: Some(Box::new(int(2))),
    };
    let mut s = case.query.select.clone();
    let mut cols = Vec::new();
    for t in &s.from {
        for st in case.setup.iter() {
            if let Stmt::CreateTable { name, columns } = st {
                if *name == t.name {
                    cols.extend(columns.iter().map(|c| (t.name.clone(), c.clone())));
                }
            }
        }
    }
    s.items = cols.iter().map(|(t, c)| Item { expr: Expr::col(t, &c.name), alias: None }).collect();
    s.items.push(Item { expr: tag, alias: Some("tag".into()) });
    let sql = s.to_sql(d);
    let rows = match e.run(&sql, OPTS.timeout) {
        crosscheck_core::Outcome::Rows(r) => r,
        crosscheck_core::Outcome::Error { message, .. } if d.expected_error(&message) => return None,
        other => panic!("{sql}: {other:?}"),
    };
    let truths = rows
        .rows
        .iter()
        .map(|r| {
            let pivot: Vec<PivotCol> = cols
                .iter()
                .zip(r)
                .map(|((t, c), v)| PivotCol {
                    table: t.clone(),
                    column: c.name.clone(),
                    value: v.clone(),
                    ty: c.ty,
                    collate: c.collate,
                })
                .collect();
            let engine_says = match r.last() {
                Some(Value::Int(1)) => Truth::True,
                Some(Value::Int(0)) => Truth::False,
                Some(Value::Int(2)) => Truth::Null,
                other => panic!("{sql}: tag {other:?}"),
            };
            (engine_says, truth(&pred, &pivot, sem).ok())
        })
        .collect();
    Some(truths)
}

/// Expressions with the value the evaluator must give them on the one row of `t0` in each
/// dialect: the engine's answer is checked to be the same.
fn known(e_name: &str, columns: Vec<ColumnDef>, row: Vec<Lit>, cases: Vec<(Expr, Option<Truth>)>) {
    let mut e = engine(e_name);
    for (pred, want) in cases {
        let case = case(columns.clone(), vec![row.clone()], pred.clone());
        load(&mut e, &case);
        // An overflow is an error on the engine, a refusal of the evaluator.
        let Some(got) = both_truths(&mut e, &case) else {
            assert_eq!(want, None, "{e_name}: an error on {pred:?}");
            continue;
        };
        assert_eq!(got.len(), 1, "{e_name}: {pred:?}");
        let (engine_says, eval_says) = got[0];
        assert_eq!(eval_says, want, "{e_name}: the evaluator on {pred:?}");
        if let Some(w) = want {
            assert_eq!(engine_says, w, "{e_name}: the engine on {pred:?}");
        }
    }
}

#[test]
fn the_evaluator_knows_sqlite_affinities_storage_classes_and_collations() {
    use Truth::*;
    let cols = vec![
        column("c0", Some(SqlType::Text), None),
        column("c1", None, None),
        column("c2", Some(SqlType::Int), None),
        column("c3", Some(SqlType::Text), Some(Collation::NoCase)),
        column("c4", Some(SqlType::Text), Some(Collation::RTrim)),
        column("c5", Some(SqlType::Real), None),
        column("c6", Some(SqlType::Text), None),
    ];
    let row = vec![
        Lit::Text(" 1".into()),
        Lit::Text("1".into()),
        Lit::Int(3),
        Lit::Text("Ab".into()),
        Lit::Text("a ".into()),
        Lit::Real(-0.0),
        Lit::Text("100.0".into()),
    ];
    let eq = |a, b| Expr::bin(BinOp::Eq, a, b);
    let lt = |a, b| Expr::bin(BinOp::Lt, a, b);
    let int = |i| lit(Lit::Int(i));
    known(
        "sqlite",
        cols,
        row,
        vec![
            // A TEXT column gives its affinity to a number literal: 1 becomes '1', not ' 1'.
            (eq(c("c0"), int(1)), Some(False)),
            // An untyped column gives none: text is greater than any number.
            (eq(c("c1"), int(1)), Some(False)),
            (lt(int(100), c("c1")), Some(True)),
            // An INTEGER column reads numeric text as a number, other text stays text.
            (eq(c("c2"), text("3")), Some(True)),
            (eq(c("c2"), text(" 3 ")), Some(True)),
            (lt(c("c2"), text("a")), Some(True)),
            // Two columns: NUMERIC wins, so the TEXT column's ' 1' is the number 1.
            (lt(c("c0"), c("c2")), Some(True)),
            (eq(c("c3"), text("ab")), Some(True)),
            (eq(text("ab"), c("c3")), Some(True)),
            (eq(c("c4"), text("a")), Some(True)),
            // The left column's collation first.
            (eq(c("c3"), c("c4")), Some(False)),
            (eq(c("c5"), lit(Lit::Real(0.0))), Some(True)),
            (eq(c("c5"), int(0)), Some(True)),
            (lt(lit(Lit::Int(i64::MIN)), c("c0")), Some(True)),
            (Expr::InList { expr: Box::new(c("c2")), list: vec![text("3"), lit(Lit::Null)], not: false }, Some(True)),
            (Expr::InList { expr: Box::new(c("c2")), list: vec![int(4), lit(Lit::Null)], not: false }, Some(Null)),
            (
                Expr::Between { expr: Box::new(c("c2")), low: Box::new(int(3)), high: Box::new(text("2")), not: false },
                Some(False),
            ),
            (Expr::post(PostOp::IsTrue, lt(c("c2"), lit(Lit::Null))), Some(False)),
            (Expr::bin(BinOp::Is, c("c1"), text("1")), Some(True)),
            (lt(Expr::bin(BinOp::Add, c("c2"), lit(Lit::Int(i64::MAX))), int(0)), None),
            (eq(c("c5"), text("0")), Some(True)),
            // A REAL under TEXT affinity is its "%!.15g" text.
            (eq(c("c6"), lit(Lit::Real(100.0))), Some(True)),
            (eq(c("c6"), int(100)), Some(False)),
            (eq(c("c0"), lit(Lit::Real(-0.0))), None),
            (eq(Expr::bin(BinOp::Add, c("c2"), lit(Lit::Real(0.5))), lit(Lit::Real(3.5))), Some(True)),
            // LIKE ignores ASCII case and matches a number as its text.
            (Expr::bin(BinOp::Like, c("c3"), text("ab")), Some(True)),
            (Expr::bin(BinOp::Like, c("c2"), text("3%")), Some(True)),
            (Expr::bin(BinOp::NotLike, c("c0"), text("_1")), Some(False)),
            // A function compares its arguments without affinity, by the column's collation.
            (eq(Expr::Func(Func::Nullif, vec![c("c2"), text("3")]), int(3)), Some(True)),
            (Expr::is_null(Expr::Func(Func::Nullif, vec![c("c3"), text("ab")])), Some(True)),
            (eq(Expr::Func(Func::Coalesce, vec![lit(Lit::Null), c("c2")]), int(3)), Some(True)),
            // A function's result has no affinity: 3 is no text.
            (eq(Expr::Func(Func::Coalesce, vec![c("c2"), int(0)]), text("3")), Some(False)),
        ],
    );
}

#[test]
fn the_evaluator_knows_strict_dialects() {
    use Truth::*;
    let cols = vec![
        column("c0", Some(SqlType::Int), None),
        column("c1", Some(SqlType::Real), None),
        column("c2", Some(SqlType::Text), None),
        column("c3", Some(SqlType::Blob), None),
    ];
    let row = vec![Lit::Int(2), Lit::Real(-0.0), Lit::Text("a ".into()), Lit::Blob(b"a".to_vec())];
    let int = |i| lit(Lit::Int(i));
    for e in installed().into_iter().filter(|e| *e != "sqlite") {
        let mut cases = vec![
            (Expr::bin(BinOp::Eq, c("c1"), lit(Lit::Real(0.0))), Some(True)),
            (Expr::bin(BinOp::Lt, c("c2"), text("a")), Some(False)),
            (Expr::bin(BinOp::Gt, c("c2"), text("a")), Some(True)),
            (Expr::bin(BinOp::Lt, c("c2"), text("B")), Some(False)),
            (Expr::bin(BinOp::Gt, c("c3"), lit(Lit::Blob(vec![]))), Some(True)),
            (Expr::bin(BinOp::Lt, Expr::bin(BinOp::Mul, c("c0"), int(3)), int(7)), Some(True)),
            (Expr::bin(BinOp::Lt, Expr::bin(BinOp::Add, int(1), int(3)), int(7)), None),
            (Expr::bin(BinOp::Gt, Expr::bin(BinOp::Mul, c("c0"), lit(Lit::Int(i64::MAX))), int(7)), None),
            (Expr::bin(BinOp::IsNot, c("c0"), Expr::Cast(Box::new(lit(Lit::Null)), SqlType::Int)), Some(True)),
            (Expr::InList { expr: Box::new(c("c0")), list: vec![int(1), int(3)], not: true }, Some(True)),
            (Expr::bin(BinOp::Like, c("c2"), text("a%")), Some(True)),
            (Expr::bin(BinOp::Like, c("c2"), text("A%")), Some(False)),
            (Expr::bin(BinOp::NotLike, c("c2"), text("_")), Some(True)),
            (Expr::bin(BinOp::Eq, Expr::Func(Func::Coalesce, vec![c("c0"), int(5)]), int(2)), Some(True)),
            (Expr::is_null(Expr::Func(Func::Nullif, vec![c("c0"), int(2)])), Some(True)),
            (
                Expr::post(
                    PostOp::IsNotFalse,
                    Expr::bin(BinOp::Eq, c("c0"), Expr::Cast(Box::new(lit(Lit::Null)), SqlType::Int)),
                ),
                Some(True),
            ),
        ];
        if e == "mariadb" {
            // MariaDB has no BLOB literal comparison of its own to check here beyond bytes.
            cases.retain(|(p, _)| !matches!(p, Expr::Binary(_, a, _) if **a == c("c3")));
        }
        known(e, cols.clone(), row.clone(), cases);
    }
}

/// The evaluator agrees with the engine on every row of generated PQS cases, where it
/// evaluates at all; and it evaluates most of them.
#[test]
fn the_evaluator_agrees_with_each_engine_on_generated_predicates() {
    for name in installed() {
        let mut e = engine(name);
        let infos = vec![e.info().clone()];
        let opts = GenOptions { seed: 5, seeds_dir: None };
        let mut gen = SqlKind.generator(&opts, &infos).unwrap_or_else(|err| panic!("generator: {err}"));
        let (mut evaluated, mut refused, mut db) = (0usize, 0usize, u64::MAX);
        for i in (0..3000).step_by(7) {
            let case = gen.case(i, SqlOracle::Pqs);
            if case.db != db {
                let mut engines = vec![std::mem::replace(&mut e, engine("sqlite"))];
                let prepared = SqlKind.prepare(&case, &mut engines, &OPTS);
                e = engines.pop().unwrap_or_else(|| panic!("engine"));
                if !matches!(prepared, Check::Pass { .. }) {
                    continue;
                }
                db = case.db;
            }
            for (engine_says, eval_says) in both_truths(&mut e, &case).unwrap_or_default() {
                match eval_says {
                    Some(t) => {
                        evaluated += 1;
                        assert_eq!(t, engine_says, "{name}: {:?} on {:?}", case.query.pred, case.setup);
                    }
                    None => refused += 1,
                }
            }
        }
        println!("{name}: evaluated {evaluated}, refused {refused}");
        assert!(evaluated > 2 * refused, "{name}: evaluated {evaluated}, refused {refused}");
    }
}

#[test]
fn pqs_catches_a_row_dropped_from_a_filtered_answer() {
    let cols = vec![column("c0", Some(SqlType::Int), None)];
    let p = Expr::bin(BinOp::Gt, c("c0"), lit(Lit::Int(1)));
    let one = case(cols, vec![vec![Lit::Int(2)]], p);
    for e in installed() {
        assert_eq!(check(e, "pqs", &one), Check::Pass { nonempty: true }, "{e}");
    }
    match check("mutant:sqlite:where-drop", "pqs", &one) {
        Check::Finding(ev) => {
            assert_eq!(ev.class, FindingClass::Logic);
            assert_eq!(ev.key, "pqs:pivot-missing:true");
        }
        other => panic!("where-drop not caught: {other:?}"),
    }
    let (_, found) = campaign("mutant:sqlite:where-drop", "pqs", 3, 400, true);
    assert!(found.iter().any(|(_, ev)| ev.key.starts_with("pqs:pivot-missing:")), "{found:?}");
}

#[test]
fn the_reproducer_prints_the_containment_query() {
    let cols = vec![column("c0", Some(SqlType::Int), None)];
    let p = Expr::bin(BinOp::Lt, c("c0"), lit(Lit::Int(1)));
    let one = case(cols, vec![vec![Lit::Int(2)]], p);
    let ev = match check("mutant:sqlite:where-drop", "pqs", &one) {
        Check::Finding(ev) => *ev,
        other => panic!("where-drop not caught: {other:?}"),
    };
    assert_eq!(ev.key, "pqs:pivot-missing:false");
    // The truth value before rectification keeps reduction on its failure but does not split
    // one bug: the same case found with the predicate true has the same signature.
    let mut on_true = ev.clone();
    on_true.key = "pqs:pivot-missing:true".into();
    let shape = |e: &crosscheck_core::Evidence| crosscheck_sql::signature::signature(&one, &e.key).head;
    assert_eq!(shape(&ev), shape(&on_true));
    let info = engine("sqlite").info().clone();
    let d: &dyn Dialect = by_name("postgres").unwrap_or_else(|| panic!("postgres"));
    let script = crosscheck_sql::repro::script(&one, SqlOracle::Pqs, &ev, &[info], d);
    assert!(script.contains("SELECT * FROM t0;\n"), "{script}");
    assert!(script.contains("SELECT * FROM t0 WHERE (NOT (t0.c0 < 1));\n"), "{script}");
    assert!(script.contains("must include the pivot row (a row 2)"), "{script}");
    let pivot = "SELECT * FROM t0 WHERE ((NOT (t0.c0 < 1)) AND (t0.c0 IS NOT DISTINCT FROM 2));\n";
    assert!(script.contains(pivot), "{script}");
}

#[test]
fn pqs_finds_nothing_on_correct_engines() {
    for e in installed() {
        let n = 600;
        let (nonempty, found) = campaign(e, "pqs", 11, n, false);
        let shown: Vec<String> =
            found.iter().take(3).map(|(c, ev)| format!("{} {:?} {:?}", ev.summary, c.query.pred, c.setup)).collect();
        assert!(found.is_empty(), "pqs on {e}: {} finding(s):\n{}", found.len(), shown.join("\n"));
        assert!(nonempty * 2 > n, "pqs on {e}: only {nonempty} of {n} checks were valid");
    }
}

#[test]
fn reduction_keeps_a_pqs_failure_pqs_shaped() {
    let (_, found) = campaign("mutant:sqlite:where-drop", "pqs", 3, 400, true);
    let (case, ev) = found.into_iter().next().unwrap_or_else(|| panic!("a finding"));
    let mut engines = vec![engine("mutant:sqlite:where-drop")];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let r =
        crosscheck_core::worker::reduce_offline(&SqlKind, SqlOracle::Pqs, &case, &ev, &mut engines, &OPTS, deadline)
            .unwrap_or_else(|| panic!("a smaller case that fails the same way"));
    let small: SqlCase = serde_json::from_value(r.case).unwrap_or_else(|e| panic!("a reduced SQL case: {e}"));
    assert!(r.stats.size_after < r.stats.size_before, "{small:?}");
    let s = &small.query.select;
    assert!(s.joins.is_empty() && s.items.is_empty() && (1..=2).contains(&s.from.len()), "{s:?}");
    match check("mutant:sqlite:where-drop", "pqs", &small) {
        Check::Finding(e) => assert!(e.key.starts_with("pqs:pivot-missing:"), "{}", e.key),
        other => panic!("the reduced case no longer fails: {other:?}"),
    }
    assert_eq!(check("sqlite", "pqs", &small), Check::Pass { nonempty: true });
}
