//! The SMT leg of crosscheck: an SMT-LIB 2 front end, an evaluator, the STORM generator
//! (satisfiable-by-construction instances), solver engines and the storm / differential /
//! model oracles.

pub mod budget;
pub mod case;
pub mod ddmin;
pub mod eval;
pub mod fusion;
pub mod generator;
pub mod materialize;
pub mod minimize;
pub mod opfuzz;
pub mod options;
pub mod oracles;
pub mod rejected;
pub mod repro;
pub mod schedule;
pub mod script;
pub mod seedcheck;
pub mod seedgen;
pub mod sexp;
pub mod shrink;
pub mod solvers;
pub mod split;
pub mod storm;
pub mod term;
pub mod yinyang;

pub use case::SmtCase;
use crosscheck_core::{
    Check, CheckOptions, Engine, EngineInfo, EngineSpec, Evidence, GenOptions, Generator, Helpers, Kind, Shape,
};
pub use oracles::SmtOracle;

/// The SMT leg.
pub struct SmtKind;

impl Kind for SmtKind {
    type Case = SmtCase;
    type Oracle = SmtOracle;
    const NAME: &'static str = "smt";
    const DEFAULT_ENGINES: &'static [&'static str] = &["z3"];
    const DEFAULT_ORACLES: &'static [SmtOracle] = &[SmtOracle::Storm];

    fn validate(&self, oracles: &[SmtOracle], engines: &[EngineInfo]) -> Result<(), String> {
        if oracles.contains(&SmtOracle::Differential) && engines.len() < 2 {
            return Err("the differential oracle needs two or more engines (e.g. --engines z3,cvc5, or two versions: \
                        --engines z3@new,z3@old=/usr/bin/z3)"
                .into());
        }
        if oracles.contains(&SmtOracle::Opfuzz) && engines.len() < 2 {
            return Err("the opfuzz oracle judges operator mutants differentially and needs two or more engines \
                        (e.g. --engines z3,cvc5, or two versions: --engines z3@new,z3@old=/usr/bin/z3)"
                .into());
        }
        Ok(())
    }

    fn generator(
        &self,
        opts: &GenOptions,
        engines: &[EngineInfo],
    ) -> Result<Box<dyn Generator<SmtCase, SmtOracle>>, String> {
        Ok(Box::new(generator::SmtGenerator::new(opts, engines)?))
    }

    fn setup_id(&self, _case: &SmtCase) -> u64 {
        // Nothing is shared between instances: each solver run starts with `(reset)`.
        0
    }

    fn prepare(&self, _case: &SmtCase, _engines: &mut [Box<dyn Engine>], _opts: &CheckOptions) -> Check {
        Check::Pass { nonempty: false }
    }

    /// Reference solvers for STORM's model M and checkers of models the evaluator does not
    /// cover: the worker opens them on first use, the generator never.
    fn helpers(&self, _engines: &[EngineInfo]) -> Vec<EngineSpec> {
        materialize::helper_specs()
    }

    fn materialize(
        &self,
        case: SmtCase,
        engines: &[EngineInfo],
        helpers: &mut Helpers<'_>,
        _opts: &CheckOptions,
    ) -> SmtCase {
        materialize::materialize(case, engines, helpers)
    }

    fn check(&self, oracle: SmtOracle, case: &SmtCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        self.check_with(oracle, case, engines, &mut Helpers::none(), opts)
    }

    fn check_with(
        &self,
        oracle: SmtOracle,
        case: &SmtCase,
        engines: &mut [Box<dyn Engine>],
        helpers: &mut Helpers<'_>,
        opts: &CheckOptions,
    ) -> Check {
        if case.pending.is_some() {
            return Check::Skip("the case was not materialized (no worker ran it)".into());
        }
        if let Some(why) = budget::skip_reason(case) {
            return Check::Skip(why);
        }
        if let Some(why) = rejected::skip_reason(case) {
            return Check::Skip(why);
        }
        oracle.check(case, engines, helpers, opts)
    }

    fn shrink(&self, case: &SmtCase) -> Vec<SmtCase> {
        self.shrink_lazy(case).collect()
    }

    /// A yinyang case keeps its status known only through its own steps (a sat fusion is
    /// only weakened, an unsat one only strengthened); every other case goes through the fast
    /// phase and STORM's search.
    fn shrink_lazy(&self, case: &SmtCase) -> Box<dyn Iterator<Item = SmtCase> + '_> {
        match &case.derived {
            Some(d) => Box::new(yinyang::shrink(case, d).into_iter()),
            None => shrink::shrink_iter(case),
        }
    }

    /// A case counts under its seed's theory family (generated seeds) or logic (seed files).
    fn label(&self, case: &SmtCase) -> Option<String> {
        Some(schedule::label(&case.seed, case.logic.as_deref()))
    }

    fn size(&self, case: &SmtCase) -> usize {
        shrink::size(case)
    }

    fn signature(&self, _oracle: SmtOracle, case: &SmtCase, evidence: &Evidence) -> Shape {
        // A crash that names the assertion it failed is that assertion, whatever the logic or
        // tactic that reached it (z3 4.8.10's nla_core.cpp:1418 came as 7 bugs otherwise).
        if evidence.class == crosscheck_core::FindingClass::Crash {
            if let Some(site) = assertion_site(&evidence.actual) {
                return Shape::new(evidence.key.clone(), [format!("at={site}")]);
            }
        }
        // The failing configuration, not the formula: instances differ on every run, while a
        // solver bug shows up as one (engine, logic, check-sat mode) over and over. Constants,
        // names and the Boolean shape are left out on purpose. Every case has all three, so
        // two configurations never include one another.
        Shape::new(
            evidence.key.clone(),
            [
                format!("logic={}", case.logic.as_deref().unwrap_or("-")),
                format!("tactic={}", case.tactic.as_deref().unwrap_or("check-sat")),
                (if case.incremental { "incremental" } else { "one-shot" }).to_string(),
            ],
        )
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: SmtOracle,
        case: &SmtCase,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}

/// The source location of a failed assertion in a solver's last words: z3 prints
/// `ASSERTION VIOLATION`, `File: ../src/math/lp/nla_core.cpp`, `Line: 1418` on lines of their own.
fn assertion_site(stderr: &str) -> Option<String> {
    let field = |name: &str| stderr.lines().find_map(|l| l.trim().strip_prefix(name).map(str::trim));
    let file = field("File:")?;
    let line = field("Line:")?;
    Some(format!("{file}:{line}"))
}
