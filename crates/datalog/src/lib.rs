//! The Datalog leg of crosscheck: a dialect-neutral program model (`ast`, `parse`,
//! `analysis`), a reference evaluator (`eval`, and `reference`, the engine that runs it),
//! dialects with their printers and capabilities (`dialects`) for Soufflé, CozoDB, Nemo, Z3's
//! μZ, clingo, SWI-Prolog and recursive SQL (the engines are in `crosscheck_engines::datalog`), a
//! queryFuzz-style generator and transformations (`gen`, `qf`), DLSmith's annotated precedence
//! graph and transformations (`dlsmith`), the `queryfuzz`, `dlsmith`, `differential` and
//! `config` oracles (`oracles`), reproducers (`repro`) and reducer steps (`shrink`).

pub mod analysis;
pub mod ast;
pub mod dialects;
pub mod dlsmith;
pub mod eval;
pub mod gen;
pub mod oracles;
pub mod parse;
pub mod qf;
pub mod reference;
pub mod repro;
pub mod shrink;
pub mod split;

use crate::ast::Program;
use crate::gen::GenConfig;
pub use crate::oracles::DatalogOracle;
use crate::qf::Expect;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, GenOptions, Generator, Kind, Shape};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

pub struct DatalogKind;

/// Programs per transformation batch: queryFuzz's `number_of_transformations`.
pub const TRANSFORMATIONS_PER_PROGRAM: u64 = 10;

/// A self-contained test case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub index: u64,
    pub program: Program,
    pub test: Test,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Test {
    /// queryFuzz or DLSmith: the transformed program and the expected relation of outputs.
    Metamorphic {
        transformed: Program,
        expect: Expect,
        steps: Vec<String>,
        /// EQU-FACTINLINE: relations whose rules the check replaces with the facts the engine
        /// itself computed for them in the original program.
        #[serde(default)]
        inline: Vec<String>,
    },
    Differential,
    /// The option at this index of each engine's option list.
    Config {
        option: usize,
    },
    /// Nothing applicable was generated.
    Nothing(String),
}

/// The leg's own engine, the reference evaluator: the binary chains it onto the engines
/// layer's Datalog registry (it is language code, not an adapter).
pub fn reference_engine() -> &'static dyn crosscheck_core::EngineFactory {
    &reference::FACTORY
}

/// What an engine can run: its dialect's capabilities (engines report only their dialect).
fn engine_caps(e: &EngineInfo) -> BTreeSet<String> {
    dialects::capabilities(&e.dialect).iter().map(|c| c.to_string()).collect()
}

/// What every engine of the run supports: the generator builds only that.
pub fn common_caps(engines: &[EngineInfo]) -> BTreeSet<String> {
    let mut caps: Option<BTreeSet<String>> = None;
    for e in engines {
        let c = engine_caps(e);
        caps = Some(match caps {
            None => c,
            Some(prev) => prev.intersection(&c).cloned().collect(),
        });
    }
    caps.unwrap_or_default()
}

/// The capability sets a run's programs take turns in: for each engine, what it shares with
/// the engine it shares most with, so every program runs on at least two engines (the
/// differential oracle compares each engine that supports a program, and skips the others).
/// The intersection of all engines would keep aggregates, arithmetic and negative numbers out
/// of a run as soon as μZ joins it.
pub fn cap_sets(engines: &[EngineInfo]) -> Vec<BTreeSet<String>> {
    let caps: Vec<BTreeSet<String>> = engines.iter().map(engine_caps).collect();
    if caps.len() < 2 {
        return vec![common_caps(engines)];
    }
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (i, mine) in caps.iter().enumerate() {
        let best = caps
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, other)| mine.intersection(other).cloned().collect::<BTreeSet<String>>())
            .max_by_key(BTreeSet::len)
            .unwrap_or_default();
        if !out.contains(&best) {
            out.push(best);
        }
    }
    out
}

/// Reads every `.dl` file of a seed directory (and its subdirectories, one level). Files it
/// cannot read are raised as notices (file and line); none readable is an error.
pub fn load_seeds(dir: &Path) -> Result<Vec<Program>, String> {
    let mut files: Vec<PathBuf> = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read seed directory {}: {e}", dir.display()))?;
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Ok(sub) = std::fs::read_dir(&p) {
                files.extend(sub.flatten().map(|s| s.path()).filter(|s| s.extension().is_some_and(|x| x == "dl")));
            }
        } else if p.extension().is_some_and(|x| x == "dl") {
            files.push(p);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(format!("no .dl seed files in {}", dir.display()));
    }
    let mut out = Vec::new();
    let mut first_err = None;
    for f in &files {
        match parse::parse_file(f) {
            Ok(p) => out.push(p),
            Err(e) => {
                crosscheck_core::notes::note(format!("skipping seed {e}"));
                first_err.get_or_insert(e);
            }
        }
    }
    if out.is_empty() {
        return Err(format!("no readable seed program in {}: {}", dir.display(), first_err.unwrap_or_default()));
    }
    Ok(out)
}

pub struct DatalogGen {
    seed: u64,
    /// Program batch `i` is generated for `cfgs[i % len]`.
    cfgs: Vec<GenConfig>,
    seeds: Vec<Program>,
    cache: HashMap<(u64, bool), Program>,
    /// The queryFuzz analysis of the latest program, shared by its batch of transformations.
    prepared: Option<(u64, qf::Prepared)>,
}

impl DatalogGen {
    pub fn new(seed: u64, caps: BTreeSet<String>, seeds: Vec<Program>) -> DatalogGen {
        Self::rotating(seed, vec![caps], seeds)
    }

    /// Program batches take turns among capability sets.
    pub fn rotating(seed: u64, caps: Vec<BTreeSet<String>>, seeds: Vec<Program>) -> DatalogGen {
        let mut cfgs: Vec<GenConfig> = caps.into_iter().map(GenConfig::new).collect();
        if cfgs.is_empty() {
            cfgs.push(GenConfig::new(BTreeSet::new()));
        }
        DatalogGen { seed, cfgs, seeds, cache: HashMap::new(), prepared: None }
    }

    /// The generator of a run: each engine's fragment in turn, so one engine without, say,
    /// aggregates does not keep them from every other engine of the run (see [`cap_sets`]).
    pub fn for_engines(seed: u64, engines: &[EngineInfo], seeds: Vec<Program>) -> DatalogGen {
        Self::rotating(seed, cap_sets(engines), seeds)
    }

    fn cfg(&self, pidx: u64) -> &GenConfig {
        &self.cfgs[crosscheck_core::position(pidx, self.cfgs.len())]
    }

    /// The program of batch `pidx` (queryFuzz-style, or DLSmith's layered graph).
    pub fn program(&mut self, pidx: u64, layered: bool) -> Program {
        if let Some(p) = self.cache.get(&(pidx, layered)) {
            return p.clone();
        }
        let mut rng = crosscheck_core::rng(self.seed, pidx.wrapping_mul(2) + layered as u64);
        let base = if self.seeds.is_empty() {
            None
        } else {
            use rand::Rng;
            Some(&self.seeds[rng.gen_range(0..self.seeds.len())])
        };
        let p = if layered {
            dlsmith::generate(&mut rng, self.cfg(pidx), base)
        } else {
            gen::program(&mut rng, self.cfg(pidx), base)
        };
        // One program per batch is all a worker needs at a time.
        if self.cache.len() > 8 {
            self.cache.clear();
        }
        self.cache.insert((pidx, layered), p.clone());
        p
    }
}

impl Generator<Case, DatalogOracle> for DatalogGen {
    fn case(&mut self, index: u64, oracle: DatalogOracle) -> Case {
        let pidx = index / TRANSFORMATIONS_PER_PROGRAM;
        let layered = oracle == DatalogOracle::Dlsmith;
        let program = self.program(pidx, layered);
        let mut rng = crosscheck_core::rng(self.seed ^ 0x5eed, index);
        let test = match oracle {
            DatalogOracle::Queryfuzz => {
                if self.prepared.as_ref().is_none_or(|(i, _)| *i != pidx) {
                    self.prepared = Some((pidx, qf::Prepared::new(&program)));
                }
                let prep = self.prepared.as_ref().map(|(_, p)| p);
                prep.and_then(|prep| {
                    (0..20).find_map(|_| qf::transform_prepared(&mut rng, &program, prep, &self.cfg(pidx).caps, 20))
                })
                .map(|t| Test::Metamorphic { transformed: t.program, expect: t.expect, steps: t.steps, inline: vec![] })
                .unwrap_or_else(|| Test::Nothing("no transformation applies".into()))
            }
            DatalogOracle::Dlsmith => (0..20)
                .find_map(|_| dlsmith::transform(&mut rng, &program, self.cfg(pidx), 100))
                .map(|t| Test::Metamorphic {
                    transformed: t.program,
                    expect: t.expect,
                    steps: t.steps,
                    inline: t.inline,
                })
                .unwrap_or_else(|| Test::Nothing("no transformation applies".into())),
            DatalogOracle::Config => Test::Config { option: (index % 97) as usize },
            DatalogOracle::Differential => Test::Differential,
        };
        Case { index, program, test }
    }
}

impl Kind for DatalogKind {
    type Case = Case;
    type Oracle = DatalogOracle;
    const NAME: &'static str = "datalog";
    const DEFAULT_ENGINES: &'static [&'static str] = &["cozo", "reference"];
    const DEFAULT_ORACLES: &'static [DatalogOracle] =
        &[DatalogOracle::Queryfuzz, DatalogOracle::Dlsmith, DatalogOracle::Differential];

    fn validate(&self, oracles: &[DatalogOracle], engines: &[EngineInfo]) -> Result<(), String> {
        if oracles.contains(&DatalogOracle::Differential) && engines.len() < 2 {
            return Err("the differential oracle needs at least two engines (e.g. --engines cozo,reference)".into());
        }
        if engines.is_empty() {
            return Err("no engine given (e.g. --engines cozo)".into());
        }
        Ok(())
    }

    fn generator(
        &self,
        opts: &GenOptions,
        engines: &[EngineInfo],
    ) -> Result<Box<dyn Generator<Case, DatalogOracle>>, String> {
        let seeds = match &opts.seeds_dir {
            Some(d) => load_seeds(d)?,
            None => vec![],
        };
        Ok(Box::new(DatalogGen::for_engines(opts.seed, engines, seeds)))
    }

    fn setup_id(&self, case: &Case) -> u64 {
        case.index
    }

    fn prepare(&self, _case: &Case, _engines: &mut [Box<dyn Engine>], _opts: &CheckOptions) -> Check {
        // Every run carries its whole program: there is no engine state to set up.
        Check::Pass { nonempty: false }
    }

    fn check(&self, oracle: DatalogOracle, case: &Case, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        oracles::check(oracle, case, engines, opts)
    }

    fn shrink(&self, case: &Case) -> Vec<Case> {
        shrink::shrink(case)
    }

    fn size(&self, case: &Case) -> usize {
        let extra = match &case.test {
            Test::Metamorphic { transformed, .. } => transformed.size(),
            _ => 0,
        };
        case.program.size() + extra
    }

    fn signature(&self, _oracle: DatalogOracle, _case: &Case, evidence: &Evidence) -> Shape {
        // Engine and failure key only (for a metamorphic oracle the key names the expected and
        // the observed relation, `queryfuzz:EQU:different`). Program features vary from one
        // random program to the next for the same fault, and so does the transformation
        // sequence: most of its steps are incidental, and the reducer shrinks the programs,
        // not the record of steps. Grouping by the set of step kinds counted one injected
        // fault as 178 distinct bugs in 20 s of DLSmith.
        Shape::new(evidence.key.clone(), [])
    }

    fn reproducers(
        &self,
        stem: &str,
        oracle: DatalogOracle,
        case: &Case,
        evidence: &Evidence,
        engines: &[EngineInfo],
    ) -> Vec<(String, String)> {
        repro::reproducers(stem, oracle, case, evidence, engines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosscheck_core::engine::info_for;
    use crosscheck_core::EngineSpec;

    fn info(name: &str, dialect: &str) -> EngineInfo {
        info_for(&EngineSpec::parse(name).expect("spec"), "1".into(), dialect, &[])
    }

    fn set(caps: &[&str]) -> BTreeSet<String> {
        caps.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn each_engine_gets_its_fragment_shared_with_one_other() {
        // Capabilities come from the dialect an engine reports: recursive SQL lacks mutual
        // and non-linear recursion, μZ lacks aggregates, arithmetic and negative numbers.
        let all = [info("reference", "souffle"), info("sqlite", "sqlite"), info("z3", "z3")];
        let souffle = set(&dialects::capabilities("souffle"));
        let sql = set(&["negation", "aggregates", "arithmetic", "comparisons", "symbols", "negative", "recursion"]);
        let z3 = set(&["negation", "comparisons", "symbols", "recursion", "mutual-recursion", "nonlinear-recursion"]);
        assert_eq!(cap_sets(&all), vec![sql.clone(), z3.clone()]);
        assert_eq!(cap_sets(&all[..1]), vec![souffle]);
        // Two engines: what they share, as before.
        let shared: BTreeSet<String> = sql.intersection(&z3).cloned().collect();
        assert_eq!(cap_sets(&all[1..]), vec![shared]);
    }
}
