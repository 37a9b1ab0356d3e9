//! Stub: filled in below.
use crate::ast::Program;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineSpec, SetupError};

pub const CAPS: &[&str] = &[];
pub const OPTIONS: &[&str] = &[];

pub fn print(_p: &Program, _out: &str, _option: Option<&str>) -> Result<String, String> {
    Err("not yet".into())
}

pub struct Factory;

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "nemo"
    }
    fn describe(&self) -> &'static str {
        "nemo"
    }
    fn availability(&self) -> Availability {
        Availability { available: false, detail: "not built".into(), install: String::new() }
    }
    fn open(&self, _spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        Err(SetupError::new("not built"))
    }
}
