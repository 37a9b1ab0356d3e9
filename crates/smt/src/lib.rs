//! The SMT leg of crosscheck: an SMT-LIB 2 front end, an evaluator, the STORM generator
//! (satisfiable-by-construction instances), solver engines and the storm / differential /
//! model oracles.

pub mod budget;
pub mod case;
pub mod eval;
pub mod generator;
pub mod minimize;
pub mod oracle;
pub mod repro;
pub mod script;
pub mod seedgen;
pub mod sexp;
pub mod shrink;
pub mod solvers;
pub mod storm;
pub mod term;

pub use case::SmtCase;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, KindInfo};

/// The SMT leg.
pub struct SmtKind;

pub const ORACLES: &[&str] = &["storm", "differential", "model"];

impl KindInfo for SmtKind {
    fn name(&self) -> &'static str {
        "smt"
    }

    fn oracles(&self) -> &'static [&'static str] {
        ORACLES
    }

    fn default_engines(&self) -> &'static [&'static str] {
        &["z3"]
    }

    fn default_oracles(&self) -> &'static [&'static str] {
        &["storm"]
    }

    fn validate(&self, oracles: &[String], engines: &[EngineInfo]) -> Result<(), String> {
        for o in oracles {
            if !ORACLES.contains(&o.as_str()) {
                return Err(format!("unknown smt oracle \"{o}\" (known: {})", ORACLES.join(", ")));
            }
        }
        if oracles.iter().any(|o| o == "differential") && engines.len() < 2 {
            return Err("the differential oracle needs two or more engines (e.g. --engines z3,cvc5, or two versions: \
                        --engines z3@new,z3@old=/usr/bin/z3)"
                .into());
        }
        Ok(())
    }
}

impl Kind for SmtKind {
    type Case = SmtCase;

    fn generator(&self, opts: &GenOptions, engines: &[EngineInfo]) -> Result<Box<dyn Generator<SmtCase>>, String> {
        Ok(Box::new(generator::SmtGenerator::new(opts, engines)?))
    }

    fn setup_id(&self, _case: &SmtCase) -> u64 {
        // Nothing is shared between instances: each solver run starts with `(reset)`.
        0
    }

    fn prepare(&self, _case: &SmtCase, _engines: &mut [Box<dyn Engine>], _opts: &CheckOptions) -> Check {
        Check::Pass { nonempty: false }
    }

    fn check(&self, oracle: &str, case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        if let Some(why) = budget::skip_reason(case) {
            return Check::Skip(why);
        }
        match oracle {
            "storm" => oracle::storm(case, engines, opts),
            "differential" => oracle::differential(case, engines, opts),
            "model" => oracle::model(case, engines, opts),
            other => Check::Skip(format!("unknown smt oracle {other}")),
        }
    }

    fn shrink(&self, case: &SmtCase) -> Vec<SmtCase> {
        shrink::shrink(case)
    }

    fn size(&self, case: &SmtCase) -> usize {
        shrink::size(case)
    }

    fn signature(&self, oracle: &str, case: &SmtCase, evidence: &Evidence) -> String {
        // The failing configuration, not the formula: instances differ on every run, while a
        // solver bug shows up as one (engine, logic, check-sat mode) over and over. Constants,
        // names and the Boolean shape are left out on purpose.
        let engine: Vec<&str> = evidence.engine.split([',', ' ']).filter(|s| !s.is_empty() && *s != "vs").collect();
        format!(
            "smt|{oracle}|{}|{}|{}|{}|{}|{}",
            evidence.class,
            engine.join("+"),
            evidence.key,
            case.logic.as_deref().unwrap_or("-"),
            case.tactic.as_deref().unwrap_or("check-sat"),
            if case.incremental { "incremental" } else { "one-shot" },
        )
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: &str,
        case: &SmtCase,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}
