//! Recursive SQL as SQLite takes it, printed by the shared recursive-SQL printer (`recsql`).
//! SQLite allows only linear self-recursion, so the generator gives this dialect neither
//! mutual nor non-linear recursion; several recursive rules of one relation are several
//! recursive SELECTs of the compound (SQLite 3.34+).

use super::recsql::{self, MultiRec, Session, SqlSpelling};
use super::TextDialect;
use crate::ast::{AggFn, Type};

/// `no-autoindex` turns off automatic indexes; `materialized` forces CTE materialization;
/// `reverse` reverses the SELECTs of each union; `order-desc` sorts the answer descending.
pub const OPTIONS: &[&str] = &["no-autoindex", "materialized", "reverse", "order-desc"];

/// SQLite's facts and printer.
pub static SQLITE: TextDialect = TextDialect::sql(OPTIONS, "sqlite3 < repro.sql", &SPELLING);

/// The `no-autoindex` option's setting, which the adapter runs apart from the query.
pub const NO_AUTOINDEX: &str = "PRAGMA automatic_index = OFF;\n";

fn session(option: &str) -> Option<Session> {
    (option == "no-autoindex").then_some(Session { setup: NO_AUTOINDEX, undo: "PRAGMA automatic_index = ON;" })
}

/// Integers are 64-bit (an overflow becomes a real, where the reference evaluator stops with an
/// error, so such a program is never compared); symbols are text.
static SPELLING: SqlSpelling = SqlSpelling {
    name: "sqlite",
    num: |n| n.to_string(),
    sym: recsql::quote,
    null: |_: Type| "NULL".into(),
    false_: "0",
    agg: |f: AggFn, c: &str| format!("{}({c})", f.name().to_uppercase()),
    multi_rec: MultiRec::Compound,
    session,
    tag_options: false,
};
