//! Cases that crosscheck itself must never get wrong: a COLLATE over a binary string in
//! MariaDB, a reduction that changes an operand's type under COLLATE, and PQS databases whose
//! tables have rows to pick a pivot from.

use crosscheck_engines::testing::{done, open_sql, rows};
use crosscheck_sql::ast::*;
use crosscheck_sql::collation::{settle, settle_setup, Rules};
use crosscheck_sql::dialect::{by_name, Dialect};

fn dialect(name: &str) -> &'static dyn Dialect {
    by_name(name).unwrap_or_else(|| panic!("dialect {name}"))
}

fn collate(e: Expr, c: Collation) -> Expr {
    Expr::Collate(Box::new(e), c)
}

/// MariaDB reads a function of a binary string and a text (`CONCAT(blob, text)`,
/// `COALESCE(blob, text)`) as a binary string, also through a view's column, and refuses any
/// COLLATE over it (error 1253); the text column it holds still carries its collation. A
/// settled query collates such a view column only over a CAST to text, and runs.
#[test]
fn mariadb_collates_a_view_column_of_a_binary_string_only_through_a_cast() {
    let Some(mut e) = open_sql("mariadb") else { return };
    let d = dialect("mariadb");
    let ci = Collation::NoCasePad;
    let mut setup = vec![
        Stmt::CreateTable {
            name: "t0".into(),
            columns: vec![
                ColumnDef::plain("c1", SqlType::Blob),
                ColumnDef { collate: Some(ci), ..ColumnDef::plain("c3", SqlType::Text) },
            ],
        },
        Stmt::Insert {
            table: "t0".into(),
            columns: vec!["c1".into(), "c3".into()],
            values: vec![Expr::Lit(Lit::Blob(b"ab".to_vec())), Expr::Lit(Lit::Text("A".into()))],
        },
        Stmt::CreateView {
            name: "v0".into(),
            columns: vec!["c0".into(), "c1".into(), "c2".into()],
            select: Box::new(Select {
                items: vec![
                    Item { expr: Expr::bin(BinOp::Concat, Expr::col("t0", "c1"), Expr::col("t0", "c3")), alias: None },
                    Item {
                        expr: Expr::Func(Func::Coalesce, vec![Expr::col("t0", "c1"), Expr::col("t0", "c3")]),
                        alias: None,
                    },
                    Item { expr: Expr::col("t0", "c3"), alias: None },
                ],
                from: vec![TableRef::named("t0", None)],
                ..Select::default()
            }),
        },
    ];
    settle_setup(Rules::MariaDb, &mut setup);
    for s in &setup {
        done(e.as_mut(), &s.to_sql(d));
    }
    let mut s = Select {
        items: ["c0", "c1", "c2"].iter().map(|c| Item { expr: collate(Expr::col("v0", c), ci), alias: None }).collect(),
        from: vec![TableRef::named("v0", None)],
        ..Select::default()
    };
    settle(Rules::MariaDb, &setup, &mut s, None);
    let sql = s.to_sql(d);
    let answer = rows(e.as_mut(), &sql);
    assert_eq!(answer.rows.len(), 1, "{sql}");
    // The text column needs no CAST; the two binary strings each get one.
    assert_eq!(sql.matches("CAST(").count(), 2, "{sql}");
}

/// A text table with a NOCASE column and a view reading it, in DuckDB.
fn duckdb_text_setup() -> Vec<Stmt> {
    vec![
        Stmt::CreateTable {
            name: "t0".into(),
            columns: vec![
                ColumnDef::plain("c0", SqlType::Int),
                ColumnDef { collate: Some(Collation::NoCase), ..ColumnDef::plain("c1", SqlType::Text) },
            ],
        },
        Stmt::Insert {
            table: "t0".into(),
            columns: vec!["c0".into(), "c1".into()],
            values: vec![Expr::Lit(Lit::Int(1)), Expr::Lit(Lit::Text("a".into()))],
        },
        Stmt::CreateView {
            name: "v0".into(),
            columns: vec!["c0".into(), "c1".into()],
            select: Box::new(Select {
                items: vec![
                    Item { expr: Expr::col("t0", "c0"), alias: None },
                    Item { expr: Expr::Func(Func::Lower, vec![Expr::col("t0", "c1")]), alias: None },
                ],
                from: vec![TableRef::named("t0", None)],
                ..Select::default()
            }),
        },
    ]
}

/// A number computed from a NOCASE text (`json_array_length(json_array(text))`) carries no
/// collation: ordered under a LIMIT, it gets no COLLATE "binary", which DuckDB refuses over a
/// BIGINT ("collations are only supported for type varchar", a CERT finding of the 10-minute
/// DuckDB 2.0 campaign).
#[test]
fn duckdb_orders_a_number_out_of_a_collated_text_without_a_collate() {
    let Some(mut e) = open_sql("duckdb") else { return };
    let d = dialect("duckdb");
    let setup = duckdb_text_setup();
    for s in &setup {
        done(e.as_mut(), &s.to_sql(d));
    }
    let length = Expr::Func(Func::JsonArrayLength, vec![Expr::col("t0", "c1"), Expr::col("t0", "c1")]);
    let mut s = Select {
        items: vec![Item { expr: length.clone(), alias: None }],
        from: vec![TableRef::named("t0", None)],
        order_by: vec![Order { expr: length, desc: true }],
        limit: Some(2),
        ..Select::default()
    };
    settle(Rules::DuckDb, &setup, &mut s, None);
    let sql = s.to_sql(d);
    assert_eq!(rows(e.as_mut(), &sql).rows.len(), 1, "{sql}");
}

/// A reduction step may change the type of what a COLLATE applies to (an operand replaced by a
/// number, a view's text column by its integer one); such a candidate is refused, so that
/// every candidate of a DuckDB case that has only valid COLLATEs runs without DuckDB's
/// "collations are only supported for type varchar".
#[test]
fn reduction_keeps_every_collate_over_text() {
    let Some(mut e) = open_sql("duckdb") else { return };
    let d = dialect("duckdb");
    let mut case = crate::leg::known_case("tlp-where");
    case.strict = true;
    case.setup = std::sync::Arc::new(duckdb_text_setup());
    let collated = |x: Expr| Expr::Collate(Box::new(x), Collation::Binary);
    case.query.select = Select {
        items: vec![
            Item { expr: collated(Expr::col("v0", "c1")), alias: None },
            Item { expr: collated(Expr::Func(Func::Upper, vec![Expr::col("v0", "c1")])), alias: None },
        ],
        from: vec![TableRef::named("v0", None)],
        ..Select::default()
    };
    case.query.pred = Some(Expr::bin(BinOp::Eq, collated(Expr::col("v0", "c1")), Expr::Lit(Lit::Text("a".into()))));
    let candidates = crosscheck_sql::reduce::shrink(&case);
    assert!(candidates.len() > 20, "{} candidates", candidates.len());
    let mut ran = 0;
    for c in &candidates {
        let mut sql: Vec<String> = vec!["DROP VIEW IF EXISTS v0".into(), "DROP TABLE IF EXISTS t0".into()];
        sql.extend(c.setup.iter().map(|s| s.to_sql(d)));
        let mut q = c.query.select.clone();
        if let Some(p) = &c.query.pred {
            q.where_ = Some(p.clone());
        }
        sql.push(q.to_sql(d));
        for s in &sql {
            if let crosscheck_core::Outcome::Error { message, .. } = e.run(s, crosscheck_engines::testing::LIMIT) {
                assert!(!message.contains("collations are only supported"), "{s}: {message}");
            }
        }
        ran += 1;
    }
    assert_eq!(ran, candidates.len());
}

/// Why each of `n` checks of `oracle` on `engine` (seed 42) did not run, by reason.
fn skipped(engine: &str, oracle: &str, n: u64) -> Vec<String> {
    use crosscheck_core::{Check, EngineInfo, GenOptions, Kind};
    let oracle = <crosscheck_sql::SqlOracle as crosscheck_core::Oracle>::parse(oracle)
        .unwrap_or_else(|| panic!("unknown oracle {oracle}"));
    let kind = crosscheck_sql::SqlKind;
    let mut engines = vec![crate::leg::engine(engine)];
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let mut gen = kind.generator(&GenOptions { seed: 42, seeds_dir: None }, &infos).unwrap_or_else(|e| panic!("{e}"));
    let mut prepared = None;
    let mut why = Vec::new();
    for i in 0..n {
        let case = gen.case(i, oracle);
        if prepared != Some(kind.setup_id(&case)) {
            let _ = kind.prepare(&case, &mut engines, &crate::leg::OPTS);
            prepared = Some(kind.setup_id(&case));
        }
        if let Check::Skip(reason) = kind.check(oracle, &case, &mut engines, &crate::leg::OPTS) {
            why.push(reason);
        }
    }
    why
}

/// Every generated database has a table with rows for PQS's pivot: the first table always
/// gets rows, and a table a DELETE may have emptied gets its first row back (one PQS check in
/// nine was skipped for an empty table, in SQLite and DuckDB alike).
#[test]
fn pqs_always_finds_a_pivot_row() {
    let why = skipped("sqlite", "pqs", 2000);
    let empty: Vec<&String> = why.iter().filter(|w| w.contains("no pivot row")).collect();
    assert!(empty.is_empty(), "{} checks without a pivot: {:?}", empty.len(), empty.first());
    assert!(why.len() * 100 < 2000 * 6, "{} of 2000 PQS checks skipped: {:?}", why.len(), why.first());
}

/// A DQE case on `t0` whose marker is `m` in column `c` and predicate `p`.
fn dqe_case(columns: Vec<ColumnDef>, rows: Vec<Vec<Lit>>, c: &str, m: Lit, p: Expr) -> crosscheck_sql::SqlCase {
    let mut case = crate::leg::known_case("dqe");
    case.setup = std::sync::Arc::new(crate::leg::t0(columns, rows));
    case.query.select = Select {
        items: vec![Item { expr: Expr::Lit(m), alias: Some(c.into()) }],
        from: vec![TableRef::named("t0", None)],
        ..Select::default()
    };
    case.query.pred = Some(p);
    case
}

/// MariaDB's strict mode refuses, in an UPDATE's or DELETE's WHERE, the text-to-number
/// comparison a SELECT only warns about ("Truncated incorrect DOUBLE value"); DQE runs them
/// without it and compares the three.
#[test]
fn dqe_compares_a_text_number_comparison_in_mariadb() {
    if open_sql("mariadb").is_none() {
        return;
    }
    let case = dqe_case(
        vec![ColumnDef::plain("c0", SqlType::Text), ColumnDef::plain("c1", SqlType::Int)],
        vec![vec![Lit::Text("ab".into()), Lit::Int(1)], vec![Lit::Text("0".into()), Lit::Int(2)]],
        "c1",
        Lit::Int(4242),
        Expr::bin(BinOp::Eq, Expr::col("t0", "c0"), Expr::Lit(Lit::Int(0))),
    );
    let got = crate::leg::check("mariadb", "dqe", &case);
    assert_eq!(got, crosscheck_core::Check::Pass { nonempty: true });
}

/// A table whose every column is on a key cannot take one marker in two rows: the UPDATE is
/// left out, the DELETE still compared (DuckDB refused one DQE check in twenty-five with a
/// duplicate key).
#[test]
fn dqe_compares_the_delete_where_every_column_is_a_key() {
    let key = ColumnDef { primary_key: true, not_null: true, ..ColumnDef::plain("c0", SqlType::Int) };
    let rows = vec![vec![Lit::Int(1)], vec![Lit::Int(2)], vec![Lit::Int(3)]];
    let p = Expr::bin(BinOp::Gt, Expr::col("t0", "c0"), Expr::Lit(Lit::Int(1)));
    let case = dqe_case(vec![key], rows, "c0", Lit::Int(4242), p);
    for engine in ["sqlite", "duckdb"] {
        if open_sql(engine).is_none() {
            continue;
        }
        assert_eq!(
            crate::leg::check(engine, "dqe", &case),
            crosscheck_core::Check::Pass { nonempty: true },
            "{engine}"
        );
    }
    // The DELETE is still compared: a SELECT that loses a row is caught.
    match crate::leg::check("mutant:sqlite:where-drop", "dqe", &case) {
        crosscheck_core::Check::Finding(e) => assert_eq!(e.key, "dqe-delete:more", "{}", e.summary),
        other => panic!("where-drop not caught: {other:?}"),
    }
}
