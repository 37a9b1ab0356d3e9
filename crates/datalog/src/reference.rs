//! The built-in reference evaluator as an engine. It speaks Soufflé syntax (it parses the text
//! it is given), so its input is also the `repro.dl` every reproducer carries.

use crate::dialects::{columns, option_line, value};
use crate::eval::{evaluate, relation, Limits, Strategy, TIMED_OUT};
use crosscheck_core::engine::{built_in, info_for, Factory};
use crosscheck_core::{Availability, Engine, EngineInfo, EngineSpec, Outcome, Rows, SetupError};
use std::time::{Duration, Instant};

fn availability() -> Availability {
    Availability { available: true, detail: crosscheck_core::TOOL_VERSION.into(), install: "built in".into() }
}

fn open(spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
    built_in(spec, "the reference evaluator of this release")?;
    let info = info_for(spec, crosscheck_core::TOOL_VERSION.into(), "souffle", &[]);
    Ok(Box::new(Reference { info }))
}

pub static FACTORY: Factory = Factory {
    name: "reference",
    describe: "crosscheck's own Datalog evaluator (semi-naive, stratified negation, aggregates), Soufflé syntax",
    availability,
    open,
};

pub struct Reference {
    info: EngineInfo,
}

impl Engine for Reference {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let start = Instant::now();
        let strategy = match option_line(text, "//") {
            Some("naive") => Strategy::Naive,
            _ => Strategy::SemiNaive,
        };
        let p = match crate::parse::parse(text) {
            Ok(p) => p,
            Err(e) => return Outcome::error(e),
        };
        let Some(out) = p.outputs.first() else { return Outcome::error("no .output relation") };
        let limits = Limits { deadline: Some(start + limit), ..Limits::default() };
        match evaluate(&p, limits, strategy) {
            Ok(db) => {
                let rows = relation(&db, out).iter().map(|t| t.iter().map(value).collect()).collect();
                Outcome::Rows(Rows::new(columns(&p, out), rows))
            }
            Err(e) if e == TIMED_OUT => Outcome::Timeout { after_ms: crosscheck_core::millis(start.elapsed()) },
            Err(e) => Outcome::error(e),
        }
    }
}
