//! The SQL leg: a SQL syntax tree printed per dialect, a random database and query generator,
//! the TLP / NoREC / differential / config / error oracles (the engines live in
//! `crosscheck-engines`).
//!
//! Rooms, as every leg has them: the model (`ast`, `case`), the dialect trait and its
//! implementations (`dialect`, `dialects`), the printer (`print`), the generator (`gen`,
//! `exprgen`), the oracles (`oracles/`, one module each, over `exec` and `compare`), the
//! reducer's steps (`reduce`), the dedup signature (`signature`), the reproducers (`repro`) and
//! the engines (`engines/`).
//!
//! Path of a case: `gen` builds a database and a query (asking only capabilities every engine
//! of the run has, and the oracle's rules for the query's shape) → the oracle prints its
//! queries in each engine's dialect, runs them through `exec` and judges the answers →
//! `reduce` shrinks a finding → `signature` names its bug → `repro` prints it for the
//! engine's own client.

pub mod ast;
pub mod case;
pub mod collation;
pub mod compare;
pub mod dialect;
pub mod dialects;
pub mod dml;
pub mod eval;
pub mod exec;
pub mod exprgen;
pub mod gen;
pub mod inner;
pub mod oracles;
mod plans;
pub mod print;
pub mod reduce;
pub mod repro;
pub mod signature;
pub mod split;
pub mod summary;
pub mod typed;
pub mod undo;

pub use case::{Query, SqlCase};

use crate::dialect::{by_name, Caps};
use crate::exec::{dialect_of, exec};
pub use crate::oracles::SqlOracle;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, Oracle, Shape};

/// The SQL kind of engine.
pub struct SqlKind;

impl Kind for SqlKind {
    type Case = SqlCase;
    type Oracle = SqlOracle;
    const NAME: &'static str = "sql";
    const DEFAULT_ENGINES: &'static [&'static str] = &["sqlite"];
    const DEFAULT_ORACLES: &'static [SqlOracle] = &[SqlOracle::Tlp, SqlOracle::Norec];

    fn validate(&self, oracles: &[SqlOracle], engines: &[EngineInfo]) -> Result<(), String> {
        for e in engines {
            if by_name(&e.dialect).is_none() {
                return Err(format!(
                    "engine {} speaks dialect \"{}\", which the SQL leg cannot print",
                    e.label, e.dialect
                ));
            }
        }
        // In the registry's order, whatever order the user named them in.
        for o in SqlOracle::ALL.iter().filter(|o| oracles.contains(o)) {
            o.rules().validate(engines)?;
        }
        Ok(())
    }

    fn generator(
        &self,
        opts: &GenOptions,
        engines: &[EngineInfo],
    ) -> Result<Box<dyn Generator<SqlCase, SqlOracle>>, String> {
        Ok(Box::new(gen::SqlGenerator::new(opts.seed, run_caps(engines))))
    }

    fn setup_id(&self, case: &SqlCase) -> u64 {
        gen::setup_id(case)
    }

    fn prepare(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        // Which statements each engine refused with an expected error: engines that refused
        // different ones hold different data, and comparing their answers would be noise.
        let mut first_refused: Option<(String, Vec<usize>)> = None;
        for e in engines.iter_mut() {
            if let Err(err) = e.reset() {
                return Check::Skip(format!("cannot reset {}: {err}", e.info().label));
            }
            let d = dialect_of(e.as_ref());
            let mut refused = Vec::new();
            for (i, s) in case.setup.iter().enumerate() {
                let sql = ast::ToSql::to_sql(s, d);
                match exec(e.as_mut(), &sql, opts) {
                    Ok(_) => {}
                    // A statement the dialect expects to fail (a duplicate key) just fails.
                    Err(Check::Skip(_)) => refused.push(i),
                    Err(finding) => return finding,
                }
            }
            match &first_refused {
                None => first_refused = Some((e.info().label.clone(), refused)),
                Some((label, theirs)) if *theirs != refused => {
                    let only_one = |i: &&usize| theirs.contains(i) != refused.contains(i);
                    let i = theirs.iter().chain(&refused).filter(only_one).min().copied().unwrap_or(0);
                    return Check::Skip(format!(
                        "setup diverged: setup statement {} was refused by only one of {label} and {}",
                        i + 1,
                        e.info().label
                    ));
                }
                Some(_) => {}
            }
        }
        Check::Pass { nonempty: false }
    }

    fn check(&self, _oracle: SqlOracle, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        // The case holds the oracle with `tlp` resolved to its variant.
        case.oracle.rules().check(case, engines, opts)
    }

    fn shrink(&self, case: &SqlCase) -> Vec<SqlCase> {
        reduce::shrink(case)
    }

    fn size(&self, case: &SqlCase) -> usize {
        case.size()
    }

    fn signature(&self, _oracle: SqlOracle, case: &SqlCase, evidence: &Evidence) -> Shape {
        // An unexpected error is its message (names and numbers stripped): the shape of the
        // query that met it would split one refusal into as many bugs as queries.
        if evidence.class == crosscheck_core::FindingClass::Error {
            return Shape::new(evidence.key.clone(), []);
        }
        signature::signature(case, &evidence.key)
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: SqlOracle,
        case: &SqlCase,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}

/// What the run may generate: what every engine's dialect can express, less what an engine
/// lacks of its dialect ([`lacks`]). Engines report only the dialect they speak.
pub fn run_caps(engines: &[EngineInfo]) -> Caps {
    let sets: Vec<_> = engines
        .iter()
        .map(|e| {
            let caps = by_name(&e.dialect).map(|d| d.capabilities()).unwrap_or_default();
            let (missing, release) = (lacks(&e.name), lacks_in_release(e));
            caps.into_iter().filter(|c| !missing.contains(&c.as_str()) && !release.contains(&c.as_str())).collect()
        })
        .collect();
    Caps::common(sets.iter())
}

/// Capabilities of its dialect that an engine (by registry name, under any `mutant:` wrapper)
/// does not have.
pub fn lacks(engine_name: &str) -> &'static [&'static str] {
    match crosscheck_core::engine::base_name(engine_name) {
        // Turso 0.8.3: "FULL OUTER JOIN requires an equality condition in the ON clause", "RIGHT
        // JOIN following another join is not yet supported", "Collate in WHERE clause is not
        // supported" (found by a differential run against SQLite).
        "turso" => &[dialect::cap::FULL_JOIN, dialect::cap::RIGHT_JOIN, dialect::cap::SQLITE_COLLATIONS],
        _ => &[],
    }
}

/// Capabilities of its dialect that an engine's release does not have, by the version it
/// reports (`sqlite=LOCATION` runs another SQLite beside the bundled one). Versions between
/// two that were measured count as the older one.
pub fn lacks_in_release(e: &EngineInfo) -> &'static [&'static str] {
    match crosscheck_core::engine::base_name(&e.name) {
        // Measured: 3.40.1 (Debian 12) lacks BLOB_PATTERNS; 3.44.0 and 3.54.1 (rusqlite) have it.
        // JSON text holding a NUL: 3.40.1 ends the string there, 3.54.1 keeps it
        // (`json_extract(json_object('k', CAST(x'00' AS TEXT)), '$.k')` is '' against a
        // one-character string); the cut is at 3.45.0, the release that rewrote JSON
        // (releases between not measured).
        "sqlite" if release(&e.version).is_some_and(|v| v < (3, 44, 0)) => {
            &[dialect::cap::BLOB_PATTERNS, "fn:json_value", "fn:json_array_get", "fn:json_array_length"]
        }
        "sqlite" if release(&e.version).is_some_and(|v| v < (3, 45, 0)) => {
            &["fn:json_value", "fn:json_array_get", "fn:json_array_length"]
        }
        // Measured: 1.1.3 lacks both; 1.2.2, 1.3.2, 1.4.1 and 2.0.0 have SUM(BOOLEAN), 2.0.0
        // subqueries in outer joins' ON (the releases between were not measured for it).
        "duckdb" if release(&e.version).is_some_and(|v| v < (1, 2, 0)) => {
            &[dialect::cap::SUM_BOOL, dialect::cap::JOIN_ON_SUBQUERY]
        }
        "duckdb" if release(&e.version).is_some_and(|v| v < (2, 0, 0)) => &[dialect::cap::JOIN_ON_SUBQUERY],
        _ => &[],
    }
}

/// `(major, minor, patch)` of a version as engines report it (`3.40.1`, `SQLite 3.40.1`).
fn release(version: &str) -> Option<(u32, u32, u32)> {
    let mut parts = version.split_whitespace().last()?.split('.').map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next().flatten().unwrap_or(0)))
}
