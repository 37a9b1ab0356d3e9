//! placeholder
use crate::ast::Program;
use crate::gen::GenConfig;
use crate::qf::Expect;
use rand::Rng;

pub struct DlTransformed {
    pub program: Program,
    pub expect: Expect,
    pub steps: Vec<String>,
    pub inline: Vec<String>,
}

pub fn generate<R: Rng>(rng: &mut R, cfg: &GenConfig, base: Option<&Program>) -> Program {
    crate::gen::program(rng, cfg, base)
}

pub fn transform<R: Rng>(_rng: &mut R, _p: &Program, _cfg: &GenConfig, _max: usize) -> Option<DlTransformed> {
    None
}

/// Ancestry of a relation with respect to the outputs (Def. 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Ancestry {
    Pos,
    Neg,
    Unknown,
    None,
}

pub fn ancestry(p: &Program) -> std::collections::HashMap<String, Ancestry> {
    std::collections::HashMap::new()
}
