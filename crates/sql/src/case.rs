//! The SQL test case: a structured setup and a structured query, so that reduction can drop
//! statements, rows and clauses, and every engine can print it in its own dialect.

use crate::ast::{Expr, Select, Stmt};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What an oracle checks: the base query `Q` and, for metamorphic oracles, the predicate it
/// partitions or counts with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Query {
    /// `Q`: for TLP without the partitioning predicate; for NoREC, the FROM clause (and the
    /// listed columns when `count_rows`); for `differential` and `config`, the whole query.
    pub select: Select,
    /// TLP's partitioning predicate, NoREC's filter.
    pub pred: Option<Expr>,
    /// NoREC: the optimized query lists rows (counted by crosscheck) instead of `COUNT(*)`.
    #[serde(default)]
    pub count_rows: bool,
}

impl Query {
    pub fn size(&self) -> usize {
        self.select.size() + self.pred.as_ref().map_or(0, Expr::size)
    }
}

/// One self-contained SQL test case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SqlCase {
    /// The generator's seed and the database and check numbers it made this case from.
    pub seed: u64,
    pub db: u64,
    pub index: u64,
    /// The concrete oracle (`tlp` picks one of the TLP variants per case).
    pub oracle: crate::oracles::SqlOracle,
    /// Generated for a strict dialect: reduction keeps predicates boolean.
    #[serde(default)]
    pub strict: bool,
    /// Shared by every case of one database: cloning a setup per check cost more than
    /// generating the check's query.
    pub setup: Arc<Vec<Stmt>>,
    pub query: Query,
}

impl SqlCase {
    /// Statements plus syntax-tree nodes: what reduction must decrease.
    pub fn size(&self) -> usize {
        self.setup.iter().map(Stmt::size).sum::<usize>() + self.query.size()
    }
}
