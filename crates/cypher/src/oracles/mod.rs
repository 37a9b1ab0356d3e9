//! The oracles, one module each, and what they share: running a printed query, checking its
//! shape, comparing answers under the leg's value policy, rendering answers for findings.

pub mod differential;
pub mod equivalence;
pub mod partition;

use crate::dialect;
use crate::model::Query;
use crosscheck_core::bag::diff;
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, EngineInfo, Oracle, Rows, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CypherOracle {
    /// The same query on every engine (GDsmith): answers grouped by agreement, errors a class.
    Differential,
    /// GDBMeter's query partitioning: a MATCH's WHERE split by p, NOT p and p IS NULL.
    Partition,
    /// GraphGenie's graph query transformations: a rewritten query whose answer must be the
    /// same multiset as the original's, or a superset of it.
    Equivalence,
}

impl Oracle for CypherOracle {
    const ALL: &'static [CypherOracle] =
        &[CypherOracle::Differential, CypherOracle::Partition, CypherOracle::Equivalence];

    fn name(self) -> &'static str {
        match self {
            CypherOracle::Differential => "differential",
            CypherOracle::Partition => "partition",
            CypherOracle::Equivalence => "equivalence",
        }
    }
}

impl CypherOracle {
    pub fn validate(self, engines: &[EngineInfo]) -> Result<(), String> {
        match self {
            CypherOracle::Differential if engines.len() < 2 => Err(
                "the differential oracle needs two or more engines (e.g. --engines kuzu,falkordb, or kuzu@a,kuzu@b=/path/to/venv)"
                    .into(),
            ),
            _ => Ok(()),
        }
    }

    pub fn check(self, case: &crate::Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        match self {
            CypherOracle::Differential => differential::check(case, engines, opts),
            CypherOracle::Partition => partition::check(case, engines, opts),
            CypherOracle::Equivalence => equivalence::check(case, engines, opts),
        }
    }
}

pub use crosscheck_core::groups::{Ran, Transcript};

/// Integers and floats are kept apart (`1` and `1.0` differ in Cypher's type system); floats
/// are compared by the shared policy.
pub fn compare_options() -> CompareOptions {
    CompareOptions { unify_numbers: false, ..CompareOptions::default() }
}

/// The dialect `e` speaks, if the leg knows it.
pub fn dialect_of(e: &dyn Engine) -> Option<&'static dyn dialect::Dialect> {
    dialect::by_name(&e.info().dialect)
}

/// Runs `text` on `e`: its rows (as many columns as `q` returns) or error. `Err` carries the
/// check to return at once: a timeout (skipped), an error the dialect expects, or a crash.
pub fn run(e: &mut dyn Engine, q: &Query, text: &str, opts: &CheckOptions) -> Result<Ran, Check> {
    let out = e.run(text, opts.timeout);
    let dialect = dialect_of(e);
    let expected = |m: &str| dialect.is_some_and(|d| d.expected_error(m));
    Ok(match Ran::read(&e.info().label, text, out, expected)? {
        Ran::Rows(r) if r.columns.len() != q.ret.items.len() && !r.is_empty() => {
            Ran::Error(format!("answered {} columns for {} items", r.columns.len(), q.ret.items.len()))
        }
        ran => ran,
    })
}

/// Whether two row sets are equal: as sequences when `ordered`, else as multisets.
pub fn same_rows(a: &Rows, b: &Rows, ordered: bool) -> bool {
    let opts = compare_options();
    if !ordered {
        return diff(a, b, &opts).is_empty();
    }
    a.len() == b.len() && a.rows.iter().zip(&b.rows).all(|(x, y)| diff(&one(x), &one(y), &opts).is_empty())
}

fn one(row: &[Value]) -> Rows {
    Rows::new(Vec::new(), vec![row.to_vec()])
}

/// A message's first 60 characters with numbers masked: one message, one key.
pub fn message_key(message: &str) -> String {
    crosscheck_core::mask_numbers(message, 60)
}

/// An engine's error on a valid query, as a finding of class `error`.
pub fn error_finding(label: &str, message: &str, detail: &Transcript) -> Check {
    crosscheck_core::groups::rejected(label, message, &message_key(message), detail)
}
