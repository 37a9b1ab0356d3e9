//! Recursive SQL on SQLite, run by the SQL `sqlite` engine (rusqlite, bundled, in process,
//! interrupted at the limit by its progress handler; with a LOCATION, the SQLite it names
//! behind the Python host); the text comes from the Datalog leg's
//! `sqlite` dialect. SQLite takes one statement per call, so the `no-autoindex` option's
//! `PRAGMA` line runs on its own, and automatic indexes are switched back on after the
//! program that switched them off.

use super::sqlleg::{nothing_to_undo, Rules, SqlOn};
use crate::sql::sqlite;
use crate::Entry;

/// SQLite's messages for its documented limits (sqlite.org/limits.html) that a big program can
/// reach: a large program printed as one query of nested views can pass them; that is a
/// refusal, not a wrong answer.
const LIMITS: &[&str] = &[
    "nested too deep",
    "Expression tree is too large",
    "too many terms in compound SELECT",
    "too many FROM clause terms",
];

pub static FACTORY: Entry<SqlOn> = Entry {
    name: "sqlite",
    describe: "recursive SQL (WITH RECURSIVE) on SQLite via rusqlite, in process; sqlite=/path/to/venv (or its python) or sqlite=/path/to/libsqlite3.so for another SQLite, as for SQL",
    opener: SqlOn {
        sql: &sqlite::FACTORY,
        rules: Rules { expected: LIMITS, undo: nothing_to_undo, one_statement: Some(&["PRAGMA automatic_index = ON"]) },
    },
};
