//! Recursive SQL as PostgreSQL takes it (printed by the shared `recsql` printer); the engine that
//! runs it is `crosscheck_engines::datalog::postgres`.
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

use super::recsql::{self, MultiRec, Session, SqlSpelling};
use super::TextDialect;
use crate::ast::Type;

/// Planner switches (each with JIT off: a disabled plan node costs 1e10, past
/// `jit_above_cost`, and JIT then takes most of a query's time), `materialized` CTEs,
/// `reverse` rule order and an `order-desc` answer; none may change a result.
pub const OPTIONS: &[&str] = &[
    "no-hashjoin",
    "no-mergejoin",
    "no-nestloop",
    "no-hashagg",
    "no-memoize",
    "materialized",
    "reverse",
    "order-desc",
];

/// PostgreSQL's facts and printer.
pub static POSTGRES: TextDialect = TextDialect::sql(OPTIONS, "psql -f repro.sql", &SPELLING);

pub fn session(option: &str) -> Option<Session> {
    let s = |setup, undo| Some(Session { setup, undo });
    match option {
        "no-hashjoin" => s("SET enable_hashjoin = off;\nSET jit = off;\n", "RESET enable_hashjoin; RESET jit"),
        "no-mergejoin" => s("SET enable_mergejoin = off;\nSET jit = off;\n", "RESET enable_mergejoin; RESET jit"),
        "no-nestloop" => s("SET enable_nestloop = off;\nSET jit = off;\n", "RESET enable_nestloop; RESET jit"),
        "no-hashagg" => s("SET enable_hashagg = off;\nSET jit = off;\n", "RESET enable_hashagg; RESET jit"),
        "no-memoize" => s("SET enable_memoize = off;\nSET jit = off;\n", "RESET enable_memoize; RESET jit"),
        _ => None,
    }
}

static SPELLING: SqlSpelling = SqlSpelling {
    name: "postgres",
    num: |n| format!("CAST({n} AS BIGINT)"),
    sym: |s| format!("CAST({} AS TEXT) COLLATE \"C\"", recsql::quote(s)),
    null: |t| match t {
        Type::Number => "CAST(NULL AS BIGINT)".into(),
        Type::Symbol => "CAST(NULL AS TEXT) COLLATE \"C\"".into(),
    },
    false_: "false",
    agg: recsql::bigint_agg,
    multi_rec: MultiRec::Lateral,
    session,
    tag_options: true,
};
