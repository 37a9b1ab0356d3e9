//! The dialects of the leg: what each one supports (asked by the generator, through the
//! engines' capabilities) and how it spells a program (asked by the oracles and reproducers).
//! [`by_name`] is the one place a dialect name is matched; everything else asks the trait.

pub mod clingo;
pub mod common;
pub mod cozo;
pub mod duckdb;
pub mod nemo;
pub mod postgres;
pub mod recsql;
pub mod souffle;
pub mod sqlite;
pub mod swipl;
pub mod z3;
pub mod z3dl;

pub use common::{
    agg_form, bound_body, columns, flatten, option_line, push_clauses, rel, value, AggForm, Goal, Spelling, TextDialect,
};

use crate::ast::Program;

/// Capabilities and spelling of one Datalog dialect.
pub trait Dialect: Sync {
    /// The name engines report in `EngineInfo::dialect`.
    fn name(&self) -> &'static str;

    /// Options its `config` oracle may set (none of them may change a result).
    fn options(&self) -> &'static [&'static str] {
        &[]
    }

    /// The file extension of a reproducer.
    fn extension(&self) -> &'static str;

    /// The command that runs a reproducer named `repro.<extension>`.
    fn command(&self) -> &'static str;

    /// How a line comment starts.
    fn comment_prefix(&self) -> &'static str;

    /// `p` with `out` as its output relation and an optional `config` option.
    fn print(&self, p: &Program, out: &str, option: Option<&str>) -> Result<String, String>;
}

/// The dialect of a name, as engines report it.
pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    Some(match name {
        "souffle" => &souffle::SOUFFLE,
        "cozo" => &cozo::COZO,
        "nemo" => &nemo::NEMO,
        "z3" => &z3::Z3,
        "z3-datalog" => &z3dl::Z3_DATALOG,
        "clingo" => &clingo::CLINGO,
        "swipl" => &swipl::SWIPL,
        "sqlite" => &sqlite::SQLITE,
        "postgres" => &postgres::POSTGRES,
        "duckdb" => &duckdb::DUCKDB,
        _ => return None,
    })
}

const ALL: &[&str] =
    &["souffle", "cozo", "nemo", "z3", "z3-datalog", "clingo", "swipl", "sqlite", "postgres", "duckdb"];
/// μZ gets no arithmetic (see `z3`, `z3dl`), so no aggregates or negative numbers either.
const NOT_Z3: &[&str] = &["souffle", "cozo", "nemo", "clingo", "swipl", "sqlite", "postgres", "duckdb"];
/// Recursive SQL reads a relation once per recursive SELECT and cannot name a later CTE
/// (see `recsql`).
const NOT_SQL: &[&str] = &["souffle", "cozo", "nemo", "z3", "z3-datalog", "clingo", "swipl"];

/// What each dialect's printer and engine support, by capability; the generator builds only
/// what every engine of a run has. Soufflé's are the reference evaluator's: everything.
const CAPABILITIES: &[(&str, &[&str])] = &[
    ("negation", ALL),
    ("aggregates", NOT_Z3),
    ("arithmetic", NOT_Z3),
    ("comparisons", ALL),
    ("symbols", ALL),
    ("negative", NOT_Z3),
    ("recursion", ALL),
    ("mutual-recursion", NOT_SQL),
    ("nonlinear-recursion", NOT_SQL),
];

/// Capabilities of a dialect by name (none for an unknown one).
pub fn capabilities(dialect: &str) -> Vec<&'static str> {
    CAPABILITIES.iter().filter(|(_, dialects)| dialects.contains(&dialect)).map(|(c, _)| *c).collect()
}

/// Whether a dialect (by name) can express `feature`, without collecting its capabilities.
pub fn can(dialect: &str, feature: &str) -> bool {
    CAPABILITIES.iter().any(|(c, dialects)| *c == feature && dialects.contains(&dialect))
}

/// `config` options of a dialect by name (none for an unknown one).
pub fn options(dialect: &str) -> &'static [&'static str] {
    by_name(dialect).map(|d| d.options()).unwrap_or(&[])
}

/// Prints `p` in `dialect` with `out` as the output relation and an optional engine option;
/// a program using a feature the dialect lacks is refused before its printer sees it.
pub fn print(dialect: &str, p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let missing: Vec<&str> = crate::analysis::features(p).into_iter().filter(|f| !can(dialect, f)).collect();
    if !missing.is_empty() {
        return Err(format!("{dialect} does not support {}", missing.join(", ")));
    }
    match by_name(dialect) {
        Some(d) => d.print(p, out, option),
        None => Err(format!("no printer for dialect {dialect}")),
    }
}

#[cfg(test)]
mod tests {
    use super::capabilities;

    #[test]
    fn every_dialect_keeps_its_capabilities() {
        // The generator builds only what a dialect lists, so a lost or gained entry changes
        // every campaign against its engines.
        let full = [
            "negation",
            "aggregates",
            "arithmetic",
            "comparisons",
            "symbols",
            "negative",
            "recursion",
            "mutual-recursion",
            "nonlinear-recursion",
        ];
        let sql = ["negation", "aggregates", "arithmetic", "comparisons", "symbols", "negative", "recursion"];
        let z3 = ["negation", "comparisons", "symbols", "recursion", "mutual-recursion", "nonlinear-recursion"];
        for d in ["souffle", "cozo", "nemo", "clingo", "swipl"] {
            assert_eq!(capabilities(d), full, "{d}");
        }
        for d in ["sqlite", "postgres", "duckdb"] {
            assert_eq!(capabilities(d), sql, "{d}");
        }
        assert_eq!(capabilities("z3"), z3);
        assert_eq!(capabilities("z3-datalog"), z3);
        assert!(capabilities("unknown").is_empty());
    }
}
