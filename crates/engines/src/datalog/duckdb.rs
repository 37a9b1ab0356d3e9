//! Recursive SQL on DuckDB, run by the SQL `duckdb` engine (the Python module behind its
//! bridge, from the virtualenv of `duckdb=/path/to/venv`, `$CROSSCHECK_VENV` or `.venv`).
//!
//! What DuckDB refuses or gets wrong, found by running it: it cannot name a later CTE (no
//! mutual recursion); a compound with two recursive SELECTs is "Circular reference to CTE";
//! two references to the relation in one recursive SELECT are accepted but each reads only the
//! last iteration's rows, which misses tuples of non-linear rules (so none are generated). Its
//! recursive SELECT may read the relation inside a derived table, so several linear recursive
//! rules of one relation become one SELECT over the union of the rules.
//!
//! Spelling: integers as `CAST(n AS BIGINT)` (a bare literal is `INTEGER`, which overflows at
//! 2^31), `SUM` (a `HUGEINT`) cast back to `BIGINT`. Overflow is an error, as in the reference
//! evaluator: an expected refusal.

use super::sqlleg::{Rules, SqlOn};
use crate::sql::duckdb;
use crate::Entry;

/// 64-bit overflow in arithmetic, and a sum past 64 bits cast back to BIGINT.
const EXPECTED: &[&str] = &["Out of Range Error", "out of range for the destination type"];

/// What undoes the session settings of each `config` option the leg's `duckdb` dialect sets.
fn undo(option: &str) -> Option<&'static str> {
    Some(match option {
        "no-optimizer" => "PRAGMA enable_optimizer",
        "no-join-order" | "no-filter-pushdown" => "RESET disabled_optimizers",
        "threads-1" => "RESET threads",
        _ => return None,
    })
}

pub static FACTORY: Entry<SqlOn> = Entry {
    name: "duckdb",
    describe:
        "recursive SQL (WITH RECURSIVE) on DuckDB through the SQL engine's bridge; duckdb=/path/to/venv (or its python) for another one",
    opener: SqlOn { sql: &duckdb::FACTORY, rules: Rules { expected: EXPECTED, undo, one_statement: None } },
};
