//! Recursive SQL on PostgreSQL, run by the SQL `postgres` engine: its private throwaway
//! server (`initdb` into a temporary directory), or `postgres=postgres://USER@HOST:PORT/DB`, or
//! `postgres=/path/to/bin` for another build, exactly as for SQL.
//!
//! What PostgreSQL refuses, found by running it: mutual recursion ("mutual recursion between
//! WITH items is not implemented"), a recursive reference in the non-recursive term or twice in
//! the recursive term (so no non-linear recursion, and a compound of two recursive SELECTs is
//! refused too). Several linear recursive rules of one relation are therefore one recursive
//! SELECT: the relation once, joined LATERAL to the union of the rules' other parts.
//!
//! Spelling: integers as `CAST(n AS BIGINT)` (a bare literal is `integer`, so `2147483647 + 1`
//! would overflow where Datalog's 64-bit numbers do not), `SUM` cast back from `numeric` to
//! `BIGINT`; symbols `COLLATE "C"` (byte order, as the reference evaluator compares, also on a
//! user's server with another default collation). Overflow is an error (SQLSTATE 22003) as in
//! the reference evaluator: an expected refusal, since PostgreSQL may evaluate an expression on
//! rows that a later filter would have removed.

use super::sqlleg::{Rules, SqlOn};
use crate::sql::postgres;
use crate::Entry;

/// numeric_value_out_of_range: 64-bit overflow.
const EXPECTED: &[&str] = &["(SQLSTATE 22003)"];

/// What undoes the session settings of each `config` option the leg's `postgres` dialect
/// sets (its planner switches, each with JIT off).
fn undo(option: &str) -> Option<&'static str> {
    Some(match option {
        "no-hashjoin" => "RESET enable_hashjoin; RESET jit",
        "no-mergejoin" => "RESET enable_mergejoin; RESET jit",
        "no-nestloop" => "RESET enable_nestloop; RESET jit",
        "no-hashagg" => "RESET enable_hashagg; RESET jit",
        "no-memoize" => "RESET enable_memoize; RESET jit",
        _ => return None,
    })
}

pub static FACTORY: Entry<SqlOn> = Entry {
    name: "postgres",
    describe: "recursive SQL (WITH RECURSIVE) on PostgreSQL through the SQL engine: a private server (postgres=/path/to/bin for another build), or postgres=postgres://USER@HOST:PORT/DB",
    opener: SqlOn { sql: &postgres::FACTORY, rules: Rules { expected: EXPECTED, undo, one_statement: None } },
};
