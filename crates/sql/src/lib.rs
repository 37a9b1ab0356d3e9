//! The SQL leg: a SQL syntax tree printed per dialect, a random database and query generator,
//! the TLP / NoREC / differential / config / error oracles (the engines live in
//! `crosscheck-engines`).
//!
//! Path of a case: `gen` builds a database and a query (asking only capabilities every engine
//! of the run has) → `oracle` prints the oracle's queries in each engine's dialect and compares
//! their answers → `reduce` shrinks a finding → `repro` prints it for the engine's own client.

pub mod ast;
pub mod case;
pub mod collation;
pub mod compare;
pub mod cross;
pub mod dialect;
pub mod dialects;
pub mod exprgen;
pub mod gen;
pub mod oracle;
pub mod print;
pub mod reduce;
pub mod repro;

pub use case::{Query, SqlCase};

use crate::dialect::{by_name, Caps};
use crate::oracle::{dialect_of, exec, ORACLES};
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, KindInfo};

/// The SQL kind of engine.
pub struct SqlKind;

impl KindInfo for SqlKind {
    fn name(&self) -> &'static str {
        "sql"
    }

    fn oracles(&self) -> &'static [&'static str] {
        ORACLES
    }

    fn default_engines(&self) -> &'static [&'static str] {
        &["sqlite"]
    }

    fn default_oracles(&self) -> &'static [&'static str] {
        &["tlp", "norec"]
    }

    fn validate(&self, oracles: &[String], engines: &[EngineInfo]) -> Result<(), String> {
        for e in engines {
            if by_name(&e.dialect).is_none() {
                return Err(format!(
                    "engine {} speaks dialect \"{}\", which the SQL leg cannot print",
                    e.label, e.dialect
                ));
            }
        }
        if oracles.iter().any(|o| o == "tlp-aggregate") {
            if let Some(e) = engines.iter().find(|e| !run_caps(std::slice::from_ref(e)).has(dialect::cap::UNION_ALL)) {
                return Err(format!(
                    "tlp-aggregate unions its partitions with UNION ALL, which {} lacks (plain `tlp` skips that variant)",
                    e.label
                ));
            }
        }
        if oracles.iter().any(|o| o == "differential") && engines.len() < 2 {
            return Err("the differential oracle needs two or more engines (e.g. --engines sqlite,duckdb)".into());
        }
        if oracles.iter().any(|o| o == "config") {
            for e in engines {
                let d = by_name(&e.dialect).unwrap_or(&dialect::Sqlite);
                if d.config_variants().is_empty() {
                    return Err(format!("the config oracle knows no alternative settings for {}", e.label));
                }
            }
        }
        Ok(())
    }
}

/// What the run may generate: what every engine's dialect can express, less what an engine
/// lacks of its dialect ([`lacks`]). Engines report only the dialect they speak.
pub fn run_caps(engines: &[EngineInfo]) -> Caps {
    let sets: Vec<_> = engines
        .iter()
        .map(|e| {
            let caps = by_name(&e.dialect).map(|d| d.capabilities()).unwrap_or_default();
            let missing = lacks(&e.name);
            caps.into_iter().filter(|c| !missing.contains(&c.as_str())).collect()
        })
        .collect();
    Caps::common(sets.iter())
}

/// Capabilities of its dialect that an engine (by registry name, under any `mutant:` wrapper)
/// does not have.
pub fn lacks(engine_name: &str) -> &'static [&'static str] {
    let base = match engine_name.strip_prefix("mutant:").and_then(|rest| rest.rsplit_once(':')) {
        Some((inner, _fault)) => return lacks(inner),
        None => engine_name,
    };
    match base {
        // Turso 0.8.3: "FULL OUTER JOIN requires an equality condition in the ON clause", "RIGHT
        // JOIN following another join is not yet supported", "Collate in WHERE clause is not
        // supported" (found by a differential run against SQLite).
        "turso" => &[dialect::cap::FULL_JOIN, dialect::cap::RIGHT_JOIN, dialect::cap::SQLITE_COLLATIONS],
        _ => &[],
    }
}

impl Kind for SqlKind {
    type Case = SqlCase;

    fn generator(&self, opts: &GenOptions, engines: &[EngineInfo]) -> Result<Box<dyn Generator<SqlCase>>, String> {
        Ok(Box::new(gen::SqlGenerator::new(opts.seed, run_caps(engines))))
    }

    fn setup_id(&self, case: &SqlCase) -> u64 {
        case.db
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

    fn check(&self, oracle: &str, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let oracle = if oracle == "tlp" { case.oracle.as_str() } else { oracle };
        match oracle {
            "differential" => cross::differential(case, engines, opts),
            "config" => cross::config(case, engines, opts),
            _ => oracle::check_metamorphic(oracle, case, engines, opts),
        }
    }

    fn shrink(&self, case: &SqlCase) -> Vec<SqlCase> {
        reduce::shrink(case)
    }

    fn size(&self, case: &SqlCase) -> usize {
        case.size()
    }

    fn signature(&self, _oracle: &str, case: &SqlCase, evidence: &Evidence) -> String {
        // An unexpected error is its message (names and numbers stripped): the shape of the
        // query that met it would split one refusal into as many bugs as queries.
        if evidence.class == crosscheck_core::FindingClass::Error {
            return evidence.key.clone();
        }
        reduce::signature(case, &evidence.key)
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: &str,
        case: &SqlCase,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}
