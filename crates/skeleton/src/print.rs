//! The dialect trait and the printer: one tree, a spelling per dialect. A dialect differing
//! from another overrides a hook; the printer asks the hook, never the dialect's name.

use crate::model::Expr;
use std::fmt::Write;

/// How an engine's language spells what the printer writes.
pub trait Dialect: Sync {
    fn name(&self) -> &'static str;
    /// The statement that returns the value of an expression as one row.
    fn select(&self, expr: &str) -> String {
        format!("SELECT {expr}")
    }
}

/// SQLite, DuckDB, PostgreSQL and MariaDB all write `SELECT <expr>`.
struct Sql(&'static str);

impl Dialect for Sql {
    fn name(&self) -> &'static str {
        self.0
    }
}

static DIALECTS: [Sql; 4] = [Sql("sqlite"), Sql("duckdb"), Sql("postgres"), Sql("mariadb")];

/// The dialect an engine reports, if the leg can print it: the only place a name is matched.
pub fn dialect(name: &str) -> Option<&'static dyn Dialect> {
    DIALECTS.iter().find(|d| d.0 == name).map(|d| d as &dyn Dialect)
}

/// The query for `e` in dialect `d`.
pub fn query(e: &Expr, d: &dyn Dialect) -> String {
    let mut s = String::new();
    write_expr(e, &mut s);
    d.select(&s)
}

fn write_expr(e: &Expr, out: &mut String) {
    let (a, op, b) = match e {
        Expr::Int(n) if *n < 0 => {
            let _ = write!(out, "({n})");
            return;
        }
        Expr::Int(n) => {
            let _ = write!(out, "{n}");
            return;
        }
        Expr::Add(a, b) => (a, '+', b),
        Expr::Sub(a, b) => (a, '-', b),
        Expr::Mul(a, b) => (a, '*', b),
    };
    out.push('(');
    write_expr(a, out);
    let _ = write!(out, " {op} ");
    write_expr(b, out);
    out.push(')');
}
