//! DQP (differential query plans, Ba and Rigger, SIGMOD 2024): the same query under settings
//! that change its plan and never its answer must answer the same bag of rows. It generalises
//! `config` to each dialect's planner switches (`Dialect::plan_variants`: PostgreSQL's plan node
//! types and join search, every MariaDB `optimizer_switch` flag and join buffering level,
//! DuckDB's optimizer rules and join thresholds, SQLite's automatic indexes and scan order),
//! and shares its check: answers are grouped by agreement, a finding names the variants on each
//! side and shows each answer, the majority's as expected only where there is one.
//!
//! A check runs the query by default and under [`PER_CHECK`] of the dialect's variants, taken in
//! turn by the case's index, so that consecutive checks cover every variant and a reduced case
//! (which keeps its index) runs under the same ones.

use super::config::{has_settings, script, under_settings};
use super::{differential, OracleRules};
use crate::ast::ToSql;
use crate::case::{Query, SqlCase};
use crate::dialect::{ConfigVariant, Dialect};
use crate::exprgen::ExprGen;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo};

/// `dqp`.
pub struct Dqp;

/// How many variants one check runs its query under.
pub const PER_CHECK: usize = 4;

impl OracleRules for Dqp {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        has_settings(engines, "the dqp oracle knows no plan-changing settings", |d| d.plan_variants())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        differential::whole_query(g, q)
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        vec![("Q".to_string(), q.select.to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        under_settings(case, engines, opts, &|d| chosen(d.plan_variants(), case.index))
    }

    fn script(&self, case: &SqlCase, d: &dyn Dialect, out: &mut String) {
        script(case, d, chosen(d.plan_variants(), case.index).into_iter(), out)
    }
}

/// The variants check `index` runs: [`PER_CHECK`] in a row, from where the previous check
/// stopped.
pub fn chosen(all: &'static [ConfigVariant], index: u64) -> Vec<&'static ConfigVariant> {
    let n = all.len();
    let k = PER_CHECK.min(n);
    if n == 0 {
        return Vec::new();
    }
    let start = usize::try_from(index % n as u64).unwrap_or(0) * k % n;
    (0..k).map(|j| &all[(start + j) % n]).collect()
}

#[cfg(test)]
mod tests {
    use super::{chosen, PER_CHECK};
    use crate::dialect::dialects;
    use std::collections::BTreeSet;

    /// Consecutive checks run every variant of every dialect, and each variant's name is its
    /// own (a finding names the variants that disagree).
    #[test]
    fn consecutive_checks_cover_every_variant() {
        for d in dialects() {
            let all = d.plan_variants();
            let names: BTreeSet<&str> = all.iter().map(|v| v.name).collect();
            assert_eq!(names.len(), all.len(), "{}: a variant name twice", d.name());
            let mut seen = BTreeSet::new();
            for i in 0..all.len() as u64 {
                let c = chosen(all, i);
                assert_eq!(c.len(), PER_CHECK.min(all.len()));
                seen.extend(c.iter().map(|v| v.name));
            }
            assert_eq!(seen, names, "{}", d.name());
        }
    }
}
