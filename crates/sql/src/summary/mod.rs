//! Test summaries (seed 004, ch. 2–5): bounded-exhaustive SQL tests from a spec of input and
//! output constraints. `spec` reads the TOML file, `query` lists every query of the described
//! shape once per isomorphism class, `data` lists every database up to isomorphism by orderly
//! generation, `eval` computes each test's expected output without an engine, `tree` lays the
//! tests into the trie the clustered executor runs.
//!
//! A *test* is a (query, database) pair whose query has a single expected answer on the
//! database and whose answer meets the output constraints.

pub mod case;
pub mod check;
pub mod data;
pub mod eval;
pub mod mixed;
pub mod query;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod tree;

use crosscheck_core::Rows;
use data::{Pruned, Universe};
use query::{FromGroup, SummaryQuery};
use spec::{Spec, SpecError};

/// What `crosscheck summary count` reports.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Counts {
    /// Queries per FROM set, in enumeration order.
    pub per_from: Vec<(String, usize)>,
    pub queries: usize,
    /// Queries mixing aggregated and plain terms without GROUP BY (counted, never run).
    pub mixed_without_group_by: usize,
    /// Databases up to isomorphism (with no atom fixed by a query constant).
    pub databases: u64,
    /// Query × database pairs run: evaluable, and meeting the output constraints.
    pub tests: u64,
    /// Pairs without a single expected answer (or a mixed query) and pairs the output
    /// constraints drop.
    pub not_evaluable: u64,
    pub filtered_by_output: u64,
    pub pruned: Pruned,
}

/// A parsed summary with its queries.
pub struct Summary {
    pub spec: Spec,
    pub groups: Vec<FromGroup>,
}

/// Queries that share the atoms they fix: they run over the same databases.
pub struct Class {
    pub fixed: Vec<String>,
    /// Indices into [`Summary::queries`].
    pub queries: Vec<usize>,
}

impl Summary {
    pub fn parse(text: &str) -> Result<Summary, SpecError> {
        let spec = spec::parse(text)?;
        let groups = query::enumerate(&spec);
        Ok(Summary { spec, groups })
    }

    /// Every query, group after group; a query's id is its index here.
    pub fn queries(&self) -> Vec<&SummaryQuery> {
        self.groups.iter().flat_map(|g| g.queries.iter()).collect()
    }

    /// The queries that can run (a single expected answer exists), by the atoms they fix.
    pub fn classes(&self) -> Vec<Class> {
        let mut out: Vec<Class> = Vec::new();
        for (i, q) in self.queries().into_iter().enumerate() {
            if q.mixes_without_group_by() {
                continue;
            }
            let mut fixed = q.text_constants();
            fixed.sort();
            fixed.dedup();
            match out.iter_mut().find(|c| c.fixed == fixed) {
                Some(c) => c.queries.push(i),
                None => out.push(Class { fixed, queries: vec![i] }),
            }
        }
        out
    }

    /// Whether an expected answer meets the output constraints (a test is kept only then).
    pub fn keeps(&self, expected: &Rows) -> bool {
        let o = &self.spec.output;
        let n = expected.rows.len();
        !(o.nonempty && n == 0 || o.min_rows.is_some_and(|m| n < m) || o.max_rows.is_some_and(|m| n > m))
    }

    /// Queries per FROM set and in all (no database is generated).
    pub fn count_queries(&self) -> Counts {
        let queries = self.queries();
        Counts {
            per_from: self.groups.iter().map(|g| (g.label.clone(), g.queries.len())).collect(),
            queries: queries.len(),
            mixed_without_group_by: queries.iter().filter(|q| q.mixes_without_group_by()).count(),
            ..Counts::default()
        }
    }

    /// Everything: queries, databases, tests, pruning.
    pub fn count(&self) -> Result<Counts, SpecError> {
        let mut counts = self.count_queries();
        let queries = self.queries();
        counts.not_evaluable = (counts.mixed_without_group_by as u64) * self.count_databases(&[])?.0;
        for class in self.classes() {
            let universe = Universe::new(&self.spec, &class.fixed)?;
            let pruned = universe.for_each(&mut |db| {
                let tables = universe.tables(db);
                if class.fixed.is_empty() {
                    counts.databases += 1;
                }
                for &qi in &class.queries {
                    match eval::evaluate(&self.spec, queries[qi], &tables) {
                        Ok(rows) if self.keeps(&rows) => counts.tests += 1,
                        Ok(_) => counts.filtered_by_output += 1,
                        Err(_) => counts.not_evaluable += 1,
                    }
                }
            });
            if class.fixed.is_empty() {
                counts.pruned = pruned;
            }
        }
        if counts.databases == 0 {
            (counts.databases, counts.pruned) = self.count_databases(&[])?;
        }
        Ok(counts)
    }

    /// Databases up to isomorphism with `fixed` atoms, and what the search pruned.
    pub fn count_databases(&self, fixed: &[String]) -> Result<(u64, Pruned), SpecError> {
        let universe = Universe::new(&self.spec, fixed)?;
        let mut n = 0u64;
        let pruned = universe.for_each(&mut |_| n += 1);
        Ok((n, pruned))
    }
}
