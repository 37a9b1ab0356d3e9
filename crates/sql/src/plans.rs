//! The settings that change a query's plan and never its answer, per dialect: the `dqp`
//! oracle's alternatives (`Dialect::plan_variants`), one setting changed at a time. Each list
//! holds only what every release crosscheck meets accepts (a setting an engine does not know
//! is an error).

use crate::dialect::ConfigVariant;

/// One planner method off (<https://www.postgresql.org/docs/15/runtime-config-query.html>),
/// with JIT off as `config`'s variants have it.
macro_rules! pg_off {
    ($setting:literal) => {
        ConfigVariant {
            name: $setting,
            enable: &["SET jit = off", concat!("SET ", $setting, " = off")],
            disable: &[concat!("RESET ", $setting), "RESET jit"],
        }
    };
}

/// A planner setting of PostgreSQL 15 at another value.
macro_rules! pg_set {
    ($name:literal, $setting:literal, $value:literal) => {
        ConfigVariant {
            name: $name,
            enable: &["SET jit = off", concat!("SET ", $setting, " = ", $value)],
            disable: &[concat!("RESET ", $setting), "RESET jit"],
        }
    };
}

/// Each plan node type disabled in turn; joins in the order written (collapse limits 1); the
/// genetic optimizer from two relations on (its seed is fixed, so its plan is repeatable); and
/// costs that favour index and random access.
pub static POSTGRES_PLANS: [ConfigVariant; 21] = [
    pg_off!("enable_seqscan"),
    pg_off!("enable_indexscan"),
    pg_off!("enable_indexonlyscan"),
    pg_off!("enable_bitmapscan"),
    pg_off!("enable_tidscan"),
    pg_off!("enable_hashjoin"),
    pg_off!("enable_mergejoin"),
    pg_off!("enable_nestloop"),
    pg_off!("enable_hashagg"),
    pg_off!("enable_sort"),
    pg_off!("enable_incremental_sort"),
    pg_off!("enable_material"),
    pg_off!("enable_memoize"),
    pg_off!("enable_gathermerge"),
    pg_off!("enable_parallel_hash"),
    pg_off!("enable_partition_pruning"),
    pg_set!("join_collapse_limit=1", "join_collapse_limit", "1"),
    pg_set!("from_collapse_limit=1", "from_collapse_limit", "1"),
    pg_set!("geqo_threshold=2", "geqo_threshold", "2"),
    pg_set!("random_page_cost=0.01", "random_page_cost", "0.01"),
    pg_set!("cpu_tuple_cost=1", "cpu_tuple_cost", "1"),
];

/// One optimizer rule of DuckDB off (<https://duckdb.org/docs/stable/configuration/overview>,
/// `disabled_optimizers`; the names `duckdb_optimizers()` lists in 1.1.3 and 2.0.0 alike).
macro_rules! duckdb_off {
    ($rule:literal) => {
        ConfigVariant {
            name: concat!("no-", $rule),
            enable: &[concat!("SET disabled_optimizers = '", $rule, "'")],
            disable: &["RESET disabled_optimizers"],
        }
    };
}

/// A DuckDB setting at another value (present in 1.1.3 and 2.0.0).
macro_rules! duckdb_set {
    ($setting:literal, $value:literal) => {
        ConfigVariant {
            name: concat!($setting, "=", $value),
            enable: &[concat!("SET ", $setting, " = ", $value)],
            disable: &[concat!("RESET ", $setting)],
        }
    };
}

/// The whole optimizer off, each rule off in turn, and the join algorithms' thresholds moved:
/// range joins preferred, merge joins from no rows, nested loops never, no perfect hash
/// aggregates.
pub static DUCKDB_PLANS: [ConfigVariant; 27] = [
    ConfigVariant {
        name: "no-optimizer",
        enable: &["PRAGMA disable_optimizer"],
        disable: &["PRAGMA enable_optimizer"],
    },
    duckdb_off!("expression_rewriter"),
    duckdb_off!("filter_pullup"),
    duckdb_off!("filter_pushdown"),
    duckdb_off!("cte_filter_pusher"),
    duckdb_off!("regex_range"),
    duckdb_off!("in_clause"),
    duckdb_off!("join_order"),
    duckdb_off!("deliminator"),
    duckdb_off!("unnest_rewriter"),
    duckdb_off!("unused_columns"),
    duckdb_off!("statistics_propagation"),
    duckdb_off!("common_subexpressions"),
    duckdb_off!("common_aggregate"),
    duckdb_off!("column_lifetime"),
    duckdb_off!("build_side_probe_side"),
    duckdb_off!("limit_pushdown"),
    duckdb_off!("top_n"),
    duckdb_off!("compressed_materialization"),
    duckdb_off!("duplicate_groups"),
    duckdb_off!("reorder_filter"),
    duckdb_off!("join_filter_pushdown"),
    duckdb_off!("materialized_cte"),
    duckdb_set!("prefer_range_joins", "true"),
    duckdb_set!("merge_join_threshold", "0"),
    duckdb_set!("nested_loop_join_threshold", "0"),
    duckdb_set!("perfect_ht_threshold", "0"),
];

/// One `optimizer_switch` flag of MariaDB 10.11 at its other value
/// (<https://mariadb.com/kb/en/optimizer-switch/>).
macro_rules! mariadb_switch {
    ($flag:literal, $value:literal) => {
        ConfigVariant {
            name: concat!($flag, "=", $value),
            enable: &[concat!("SET optimizer_switch = '", $flag, "=", $value, "'")],
            disable: &["SET optimizer_switch = DEFAULT"],
        }
    };
}

/// A MariaDB session variable at another value.
macro_rules! mariadb_set {
    ($var:literal, $value:literal) => {
        ConfigVariant {
            name: concat!($var, "=", $value),
            enable: &[concat!("SET ", $var, " = ", $value)],
            disable: &[concat!("SET ", $var, " = DEFAULT")],
        }
    };
}

/// Every flag of `optimizer_switch` flipped in turn (`engine_condition_pushdown` is
/// deprecated and does nothing); join buffering from none to hashed BKA
/// (<https://mariadb.com/kb/en/block-based-join-algorithms/>); greedy join order search; the
/// selectivity of conditions from no statistics.
pub static MARIADB_PLANS: [ConfigVariant; 40] = [
    mariadb_switch!("index_merge", "off"),
    mariadb_switch!("index_merge_union", "off"),
    mariadb_switch!("index_merge_sort_union", "off"),
    mariadb_switch!("index_merge_intersection", "off"),
    mariadb_switch!("index_merge_sort_intersection", "on"),
    mariadb_switch!("index_condition_pushdown", "off"),
    mariadb_switch!("derived_merge", "off"),
    mariadb_switch!("derived_with_keys", "off"),
    mariadb_switch!("firstmatch", "off"),
    mariadb_switch!("loosescan", "off"),
    mariadb_switch!("materialization", "off"),
    mariadb_switch!("in_to_exists", "off"),
    mariadb_switch!("semijoin", "off"),
    mariadb_switch!("partial_match_rowid_merge", "off"),
    mariadb_switch!("partial_match_table_scan", "off"),
    mariadb_switch!("subquery_cache", "off"),
    mariadb_switch!("mrr", "on"),
    mariadb_switch!("mrr_cost_based", "on"),
    mariadb_switch!("mrr_sort_keys", "on"),
    mariadb_switch!("outer_join_with_cache", "off"),
    mariadb_switch!("semijoin_with_cache", "off"),
    mariadb_switch!("join_cache_incremental", "off"),
    mariadb_switch!("join_cache_hashed", "off"),
    mariadb_switch!("join_cache_bka", "off"),
    mariadb_switch!("optimize_join_buffer_size", "off"),
    mariadb_switch!("table_elimination", "off"),
    mariadb_switch!("extended_keys", "off"),
    mariadb_switch!("exists_to_in", "off"),
    mariadb_switch!("orderby_uses_equalities", "off"),
    mariadb_switch!("condition_pushdown_for_derived", "off"),
    mariadb_switch!("split_materialized", "off"),
    mariadb_switch!("condition_pushdown_for_subquery", "off"),
    mariadb_switch!("rowid_filter", "off"),
    mariadb_switch!("condition_pushdown_from_having", "off"),
    mariadb_set!("join_cache_level", "0"),
    mariadb_set!("join_cache_level", "4"),
    mariadb_set!("join_cache_level", "8"),
    mariadb_set!("optimizer_search_depth", "1"),
    mariadb_set!("optimizer_use_condition_selectivity", "1"),
    ConfigVariant {
        name: "mrr+bka",
        enable: &["SET optimizer_switch = 'mrr=on,mrr_sort_keys=on'", "SET join_cache_level = 6"],
        disable: &["SET optimizer_switch = DEFAULT", "SET join_cache_level = DEFAULT"],
    },
];
