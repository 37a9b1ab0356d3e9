//! The deterministic case stream, as the supervisor and the worker both make it: rounds of
//! `Params::mutants_per_seed` instances, each round a visit to one seed, the seeds' theories
//! in turn (`crate::schedule`). Building an instance needs a model M of its
//! seed from a reference solver, so the generator runs no solver: its case names the round, the
//! index and the generator's options ([`Pending`]), and the worker completes it
//! ([`crate::materialize`]). `case(index)` is thus a pure function of the options, the engines'
//! infos and the index, and the supervisor can rebuild a crashed worker's case without z3.

use crate::case::{Pending, SmtCase};
use crate::script::Script;
use crate::solvers;
use crate::storm::Params;
use crate::SmtOracle;
use crosscheck_core::{EngineInfo, GenOptions, Generator, Oracle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A seed the generator can use.
#[derive(Clone)]
pub struct Seed {
    pub name: String,
    pub script: Script,
}

/// Reads every `.smt2` under `dir` (sorted, so the order is stable). Malformed files are
/// returned as errors (`file:line:col: message`) and skipped, not fatal.
pub fn load_seeds(dir: &Path) -> (Vec<Seed>, Vec<String>) {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "smt2") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut seeds = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        match Script::parse_file(&f) {
            Ok(script) if !script.asserts().is_empty() => {
                let name = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
                seeds.push(Seed { name, script });
            }
            Ok(_) => errors.push(format!("{}: no assertion, skipped", f.display())),
            Err(e) => errors.push(e.to_string()),
        }
    }
    (seeds, errors)
}

/// The theory capabilities a logic needs (`QF_AUFLIA` → arrays, UF, integers).
pub fn required_caps(logic: &str) -> Vec<&'static str> {
    let mut caps = Vec::new();
    let body = match logic.strip_prefix("QF_") {
        Some(b) => b,
        None if logic == "ALL" => return caps,
        None => {
            caps.push("quantifiers");
            logic
        }
    };
    let has = |p: &str| body.contains(p);
    if has("FP") {
        caps.push("theory:fp");
    }
    if has("BV") {
        caps.push("theory:bv");
    }
    if has("UF") || body == "AX" {
        caps.push("theory:uf");
    }
    if body.starts_with('A') {
        caps.push("theory:array");
    }
    // Strings: QF_S, QF_SLIA, QF_SNIA (but not the S of FPs or the NIA of BVs).
    if body == "S" || body.starts_with("SLIA") || body.starts_with("SNIA") || body.starts_with("SEQ") {
        caps.push("theory:string");
    }
    if has("DT") {
        caps.push("theory:datatypes");
    }
    if has("NIA") || has("NRA") || has("NIRA") {
        caps.push("theory:nia");
    }
    if has("IA") || has("IDL") {
        caps.push("theory:int");
    }
    if has("RA") || has("RDL") {
        caps.push("theory:real");
    }
    caps
}

/// Whether every engine can take a seed: its logic's theories (seeds without a logic are
/// tried), and uninterpreted sorts when it declares one (Bitwuzla does not support them).
pub fn supported_by_all(script: &Script, engines: &[EngineInfo]) -> bool {
    let mut caps = script.logic().map(required_caps).unwrap_or_default();
    if script.decls().iter().any(|d| d.starts_with("(declare-sort")) {
        caps.push("theory:sorts");
    }
    engines.iter().all(|e| caps.iter().all(|c| solvers::has(e, c)))
}

/// The seeds shipped with crosscheck (`crates/smt/seeds`), when present.
pub fn shipped_seeds_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds")
}

pub struct SmtGenerator {
    seed: u64,
    seeds_dir: Option<PathBuf>,
    pub params: Params,
}

impl SmtGenerator {
    /// Reads the seeds once to reject a directory that cannot give a case (and to note the
    /// files it skips); the worker reads them again to build instances.
    pub fn new(opts: &GenOptions, engines: &[EngineInfo]) -> Result<SmtGenerator, String> {
        if let Some(dir) = &opts.seeds_dir {
            if !dir.is_dir() {
                return Err(format!("--seeds {}: not a directory", dir.display()));
            }
            let (seeds, errors) = load_seeds(dir);
            for e in &errors {
                crosscheck_core::notes::note(format!("skipping seed {e}"));
            }
            // Seeds in logics some engine under test lacks only produce rejected inputs.
            let total = seeds.len();
            let usable = seeds.iter().filter(|s| supported_by_all(&s.script, engines)).count();
            if usable == 0 && total > 0 {
                return Err(format!(
                    "--seeds {}: none of the {total} seeds is in a logic that every engine supports",
                    dir.display()
                ));
            }
            if usable == 0 {
                let first = errors.first().map(|e| format!(" (first problem: {e})")).unwrap_or_default();
                return Err(format!("--seeds {}: no usable .smt2 seed file{first}", dir.display()));
            }
        }
        Ok(SmtGenerator { seed: opts.seed, seeds_dir: opts.seeds_dir.clone(), params: Params::default() })
    }
}

/// A case with nothing to assert, checked as a skip: the pending form of every case, and what
/// a round whose seeds all fail becomes.
pub fn empty_case(index: u64, params: Params) -> SmtCase {
    SmtCase {
        seed: "none".into(),
        logic: None,
        decls: Vec::new(),
        steps: Vec::new(),
        tactic: None,
        model: String::new(),
        model_source: "none".into(),
        sat_by_construction: true,
        get_model: false,
        options: BTreeMap::new(),
        params,
        incremental: false,
        index,
        min: None,
        pending: None,
        derived: None,
    }
}

impl Generator<SmtCase, SmtOracle> for SmtGenerator {
    fn case(&mut self, index: u64, oracle: SmtOracle) -> SmtCase {
        let mut case = empty_case(index, self.params);
        case.pending = Some(Pending {
            seed: self.seed,
            seeds_dir: self.seeds_dir.clone(),
            round: index / self.params.mutants_per_seed.max(1),
            oracle: oracle.name().to_string(),
        });
        case
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logics_map_to_theories() {
        assert_eq!(required_caps("QF_AUFLIA"), vec!["theory:uf", "theory:array", "theory:int"]);
        assert_eq!(required_caps("QF_BV"), vec!["theory:bv"]);
        assert_eq!(required_caps("QF_FP"), vec!["theory:fp"]);
        assert_eq!(required_caps("QF_S"), vec!["theory:string"]);
        assert_eq!(required_caps("QF_SLIA"), vec!["theory:string", "theory:int"]);
        assert_eq!(required_caps("QF_NIA"), vec!["theory:nia", "theory:int"]);
        assert_eq!(required_caps("QF_LRA"), vec!["theory:real"]);
        assert_eq!(required_caps("LIA"), vec!["quantifiers", "theory:int"]);
        assert_eq!(required_caps("QF_UF"), vec!["theory:uf"]);
    }

    /// The supervisor rebuilds a crashed worker's case with the generator alone: it must need
    /// no engine (nothing can open one here: the leg names no registry) and give the same case
    /// for the same index, whatever came before.
    #[test]
    fn generator_opens_no_engine_and_is_pure() {
        use crate::SmtOracle;
        let opts = GenOptions { seed: 7, seeds_dir: Some(shipped_seeds_dir()) };
        let mut a = SmtGenerator::new(&opts, &[]).expect("generator");
        let mut b = SmtGenerator::new(&opts, &[]).expect("generator");
        for i in [0, 24, 25, 5, 1000, 0] {
            let c = a.case(i, SmtOracle::Storm);
            assert_eq!(c, b.case(i, SmtOracle::Storm));
            let p = c.pending.as_ref().expect("a generated case is pending");
            assert_eq!((p.round, p.seed, p.oracle.as_str()), (i / 25, 7, "storm"));
            assert!(c.steps.is_empty(), "no instance without the worker's reference solver");
        }
        // Without helpers nothing is materialized, and an unmaterialized case is never checked.
        let c = a.case(3, SmtOracle::Storm);
        let mut none = crosscheck_core::Helpers::none();
        let m = crate::materialize::materialize(c, &[], &mut none);
        assert!(m.pending.is_none());
    }
}
