//! Recursive SQL as DuckDB takes it (printed by the shared `recsql` printer); the engine that
//! runs it is `crosscheck_engines::datalog::duckdb`.
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

use super::recsql::{self, MultiRec, Session, SqlSpelling};
use super::TextDialect;
use crate::ast::Type;

/// The optimizer off, or some of its passes; one thread; `materialized` CTEs, `reverse` rule
/// order and an `order-desc` answer; none may change a result.
pub const OPTIONS: &[&str] =
    &["no-optimizer", "no-join-order", "no-filter-pushdown", "threads-1", "materialized", "reverse", "order-desc"];

/// DuckDB's facts and printer.
pub static DUCKDB: TextDialect = TextDialect::sql(OPTIONS, "duckdb < repro.sql", &SPELLING);

pub fn session(option: &str) -> Option<Session> {
    let s = |setup, undo| Some(Session { setup, undo });
    match option {
        "no-optimizer" => s("PRAGMA disable_optimizer;\n", "PRAGMA enable_optimizer"),
        "no-join-order" => {
            s("SET disabled_optimizers = 'join_order,build_side_probe_side';\n", "RESET disabled_optimizers")
        }
        "no-filter-pushdown" => s(
            "SET disabled_optimizers = 'filter_pushdown,filter_pullup,cte_filter_pusher,join_filter_pushdown';\n",
            "RESET disabled_optimizers",
        ),
        "threads-1" => s("SET threads = 1;\n", "RESET threads"),
        _ => None,
    }
}

static SPELLING: SqlSpelling = SqlSpelling {
    name: "duckdb",
    num: |n| format!("CAST({n} AS BIGINT)"),
    sym: recsql::quote,
    null: |t| match t {
        Type::Number => "CAST(NULL AS BIGINT)".into(),
        Type::Symbol => "CAST(NULL AS VARCHAR)".into(),
    },
    false_: "false",
    agg: recsql::bigint_agg,
    multi_rec: MultiRec::Derived,
    session,
    tag_options: true,
};
