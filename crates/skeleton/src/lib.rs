//! The smallest leg of crosscheck, to copy when starting a new one (see ARCHITECTURE.md,
//! "Add a kind"). Its language is integer expressions (`(3 + -2) * 4`); its one oracle,
//! `evaluate`, runs `SELECT <expr>` on an SQL engine and compares the answer with the leg's own
//! evaluation. Every room a leg has is here, one small file each: model, dialect and printer,
//! generator, oracles, reducer steps and signature, reproducers. It has no engines: those live
//! in `crosscheck-engines`, and the binary pairs a leg with its registry.

pub mod gen;
pub mod model;
pub mod oracles;
pub mod print;
pub mod reduce;
pub mod repro;

pub use model::{Case, Expr};
pub use oracles::SkeletonOracle;

use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, Shape};

/// The leg.
pub struct SkeletonKind;

impl Kind for SkeletonKind {
    type Case = Case;
    type Oracle = SkeletonOracle;
    const NAME: &'static str = "skeleton";
    const DEFAULT_ENGINES: &'static [&'static str] = &["sqlite"];
    const DEFAULT_ORACLES: &'static [SkeletonOracle] = &[SkeletonOracle::Evaluate];

    fn validate(&self, _oracles: &[SkeletonOracle], engines: &[EngineInfo]) -> Result<(), String> {
        match engines.iter().find(|e| print::dialect(&e.dialect).is_none()) {
            Some(e) => Err(format!("engine {} speaks {}, which the skeleton leg cannot print", e.label, e.dialect)),
            None => Ok(()),
        }
    }

    fn generator(
        &self,
        opts: &GenOptions,
        _: &[EngineInfo],
    ) -> Result<Box<dyn Generator<Case, SkeletonOracle>>, String> {
        Ok(Box::new(gen::ExprGen { seed: opts.seed }))
    }

    fn setup_id(&self, case: &Case) -> u64 {
        // No state is shared between cases.
        case.index
    }

    fn prepare(&self, _: &Case, engines: &mut [Box<dyn Engine>], _: &CheckOptions) -> Check {
        match engines.iter_mut().find_map(|e| e.reset().err()) {
            Some(err) => Check::Skip(format!("cannot reset an engine: {err}")),
            None => Check::Pass { nonempty: false },
        }
    }

    fn check(&self, oracle: SkeletonOracle, case: &Case, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
        oracle.check(case, engines, o)
    }

    fn shrink(&self, case: &Case) -> Vec<Case> {
        reduce::shrink(case)
    }

    fn size(&self, case: &Case) -> usize {
        case.expr.size()
    }

    fn signature(&self, _: SkeletonOracle, case: &Case, evidence: &Evidence) -> Shape {
        reduce::signature(case, evidence)
    }

    fn reproducers(
        &self,
        stem: &str,
        _: SkeletonOracle,
        case: &Case,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, case, evidence, engines)
    }
}
