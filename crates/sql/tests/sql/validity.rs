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
