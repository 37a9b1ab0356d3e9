//! The deterministic case stream: seeds are taken in a shuffled order, NM instances each; a
//! seed's model M, pools and modes are computed once per seed round and cached, so that
//! `case(index)` is a pure function of the seed, the index and the engines (the reference
//! solver is deterministic for one version).

use crate::case::{normalize_model, SmtCase};
use crate::eval::{self, Env};
use crate::script::Script;
use crate::solvers::{self, base_name, safe_options};
use crate::storm::{self, Entry, Params, Step};
use crate::term::{Arena, TermId};
use crate::SmtOracle;
use crosscheck_core::engine::{EngineFactory, EngineSpec};
use crosscheck_core::{Engine, EngineInfo, GenOptions, Generator, Outcome, Verdict};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Duration;

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

/// A reference solver: its name, the engine once opened, and whether it failed to open.
type Candidate = (String, Option<Box<dyn Engine>>, bool);

/// Solvers that give M and valuations the evaluator does not cover, tried in order.
pub struct Reference {
    candidates: Vec<Candidate>,
    pub timeout: Duration,
}

impl Reference {
    /// Prefers solvers that are not under test (STORM's valuations must not come from the
    /// solver under test); z3 stays last as the fallback, as in STORM itself.
    pub fn new(under_test: &[EngineInfo]) -> Reference {
        let tested: HashSet<&str> = under_test.iter().map(|i| base_name(&i.name)).collect();
        let mut names: Vec<&str> = ["z3", "cvc5", "yices"].into_iter().filter(|n| !tested.contains(n)).collect();
        if !names.contains(&"z3") {
            names.push("z3");
        }
        Reference {
            candidates: names.into_iter().map(|n| (n.to_string(), None, false)).collect(),
            timeout: Duration::from_secs(10),
        }
    }

    /// Runs `script` on the first solver that gives verdicts; its name and version too.
    fn run(&mut self, script: &str, logic: Option<&str>) -> Option<(String, Outcome)> {
        let factories = solvers::registry();
        for (name, slot, failed) in self.candidates.iter_mut() {
            if *failed {
                continue;
            }
            if slot.is_none() {
                let f: Option<&&dyn EngineFactory> = factories.iter().find(|f| f.name() == name);
                let spec = EngineSpec { name: name.clone(), location: None, label: Some(format!("reference-{name}")) };
                match f.map(|f| f.open(&spec)) {
                    Some(Ok(e)) => *slot = Some(e),
                    _ => {
                        *failed = true;
                        continue;
                    }
                }
            }
            let Some(engine) = slot.as_mut() else { continue };
            let mut text = String::new();
            match (logic, solvers::has(engine.info(), "needs-logic")) {
                (Some(l), _) => text.push_str(&format!("(set-option :produce-models true)\n(set-logic {l})\n")),
                (None, true) => text.push_str("(set-option :produce-models true)\n(set-logic ALL)\n"),
                (None, false) => text.push_str("(set-option :produce-models true)\n"),
            }
            text.push_str(script);
            let out = engine.run(&text, self.timeout);
            if let Outcome::Verdicts { answers, .. } = &out {
                if matches!(answers.first(), Some(Verdict::Sat)) {
                    let who = format!("{} {}", engine.info().name, engine.info().version);
                    return Some((who, out));
                }
            }
        }
        None
    }
}

/// What a seed round shares: the seed's arena with both pools, M, and the round's modes.
struct Prepared {
    round: u64,
    seed: String,
    arena: Arena,
    init: Vec<Entry>,
    constr: Vec<Entry>,
    logic: Option<String>,
    decls: Vec<String>,
    model: String,
    model_source: String,
    incremental: bool,
    tactic: bool,
}

/// Statistics of seed preparation (for the benchmark and tests).
#[derive(Clone, Copy, Debug, Default)]
pub struct PrepStats {
    pub seeds_prepared: u64,
    pub predicates: u64,
    pub by_evaluator: u64,
    pub by_reference: u64,
    /// The evaluator and the reference solver disagreed: the predicate was dropped.
    pub disagreements: u64,
    pub dropped: u64,
}

pub struct SmtGenerator {
    seed: u64,
    seeds: Vec<Seed>,
    /// Generate random seeds instead of reading `seeds`.
    random: bool,
    engines: Vec<EngineInfo>,
    pub params: Params,
    reference: Reference,
    cache: Option<Prepared>,
    pub stats: PrepStats,
}

impl SmtGenerator {
    pub fn new(opts: &GenOptions, engines: &[EngineInfo]) -> Result<SmtGenerator, String> {
        let (seeds, random) = match &opts.seeds_dir {
            Some(dir) => {
                if !dir.is_dir() {
                    return Err(format!("--seeds {}: not a directory", dir.display()));
                }
                let (seeds, errors) = load_seeds(dir);
                for e in &errors {
                    crosscheck_core::notes::note(format!("skipping seed {e}"));
                }
                // Seeds in logics some engine under test lacks only produce rejected inputs.
                let total = seeds.len();
                let seeds: Vec<Seed> = seeds.into_iter().filter(|s| supported_by_all(&s.script, engines)).collect();
                if seeds.is_empty() && total > 0 {
                    return Err(format!(
                        "--seeds {}: none of the {total} seeds is in a logic that every engine supports",
                        dir.display()
                    ));
                }
                if seeds.is_empty() {
                    let first = errors.first().map(|e| format!(" (first problem: {e})")).unwrap_or_default();
                    return Err(format!("--seeds {}: no usable .smt2 seed file{first}", dir.display()));
                }
                (seeds, false)
            }
            None => (Vec::new(), true),
        };
        Ok(SmtGenerator {
            seed: opts.seed,
            seeds,
            random,
            engines: engines.to_vec(),
            params: Params::default(),
            reference: Reference::new(engines),
            cache: None,
            stats: PrepStats::default(),
        })
    }

    /// The seed of a round: a fresh shuffle of the seed list for every pass over it.
    fn seed_for(&self, round: u64, attempt: u64) -> Seed {
        if self.random {
            let mut rng = crosscheck_core::rng(self.seed, 0x5eed_0000 ^ round.wrapping_mul(7919).wrapping_add(attempt));
            let text = crate::seedgen::random_seed(&mut rng);
            let script = Script::parse(&text, "random").unwrap_or_default();
            return Seed { name: format!("random-{round}-{attempt}"), script };
        }
        let n = self.seeds.len() as u64;
        let pass = round / n;
        let mut order: Vec<usize> = (0..self.seeds.len()).collect();
        order.shuffle(&mut crosscheck_core::rng(self.seed, 0xC0FF_EE00 ^ pass));
        self.seeds[order[((round % n + attempt) % n) as usize]].clone()
    }

    fn prepare(&mut self, round: u64) -> Option<Prepared> {
        // A seed may yield nothing (no model, no predicate): try the next one, a bounded
        // number of times, deterministically.
        let tries = if self.random { 32 } else { self.seeds.len() as u64 };
        for attempt in 0..tries {
            let seed = self.seed_for(round, attempt);
            if let Some(p) = self.prepare_seed(round, seed) {
                self.stats.seeds_prepared += 1;
                return Some(p);
            }
        }
        None
    }

    fn prepare_seed(&mut self, round: u64, seed: Seed) -> Option<Prepared> {
        let Seed { name, script } = seed;
        if !supported_by_all(&script, &self.engines) {
            return None;
        }
        let mut arena = script.arena.clone();
        let asserts = script.asserts();
        let cands = storm::fragment(&arena, &asserts, self.params.max_depth);
        let decls = script.decls();
        let logic = script.logic().map(str::to_string);
        // M: a model of the assertions, or of their negation when they are unsat.
        let mut body = String::new();
        for d in &decls {
            body.push_str(d);
            body.push('\n');
        }
        let asserted: Vec<String> = asserts.iter().map(|&a| arena.to_text(a)).collect();
        let tail = get_value_tail(&arena, &cands);
        let positive = format!(
            "{body}{}(check-sat)\n(get-model)\n{tail}",
            asserted.iter().map(|a| format!("(assert {a})\n")).collect::<String>()
        );
        let negated =
            format!("{body}(assert (not (and true {})))\n(check-sat)\n(get-model)\n{tail}", asserted.join(" "));
        let reference =
            self.reference.run(&positive, logic.as_deref()).or_else(|| self.reference.run(&negated, logic.as_deref()));
        let (source, model, values) = match reference {
            Some((who, Outcome::Verdicts { model: Some(m), .. })) => split_model_and_values(&who, &m),
            _ => random_assignment(&script, round)?,
        };
        let model = normalize_model(&model);
        let mut env = Env::default();
        for d in &script.defines {
            env.add_define(&mut arena, d).ok()?;
        }
        env.add_model(&mut arena, &model).ok()?;
        let mut init = Vec::new();
        for (i, &c) in cands.iter().enumerate() {
            self.stats.predicates += 1;
            let ours = eval::truth(&arena, &env, c);
            let theirs = values.get(i).copied().flatten();
            match (ours, theirs) {
                (Some(a), Some(b)) if a != b => {
                    self.stats.disagreements += 1;
                    let text = arena.to_text(c);
                    crosscheck_core::notes::note(format!(
                        "evaluator and {source} disagree on {text} in {name}; dropped"
                    ));
                }
                (Some(a), _) => {
                    self.stats.by_evaluator += 1;
                    init.push((c, a));
                }
                (None, Some(b)) => {
                    self.stats.by_reference += 1;
                    init.push((c, b));
                }
                (None, None) => self.stats.dropped += 1,
            }
        }
        if init.is_empty() {
            return None;
        }
        let mut rng = crosscheck_core::rng(self.seed, 0xF00D_0000 ^ round);
        let constr = storm::enrich(&mut arena, &mut rng, &self.params, &init);
        let incremental =
            self.engines.iter().all(|e| solvers::has(e, "incremental")) && rng.gen_bool(self.params.p_incremental);
        let tactic =
            self.engines.iter().any(|e| solvers::has(e, "check-sat-using")) && rng.gen_bool(self.params.p_tactic);
        Some(Prepared {
            round,
            seed: name,
            arena,
            init,
            constr,
            logic,
            decls,
            model,
            model_source: source,
            incremental,
            tactic,
        })
    }

    fn sample_options(&self, rng: &mut impl Rng) -> BTreeMap<String, Vec<(String, String)>> {
        let mut out = BTreeMap::new();
        for e in &self.engines {
            let mut chosen = Vec::new();
            for (k, vals) in safe_options(&e.name) {
                // Each option independently, so most instances keep most defaults.
                if rng.gen_bool(0.15) {
                    chosen.push((k.to_string(), vals[rng.gen_range(0..vals.len())].to_string()));
                }
            }
            if !chosen.is_empty() {
                out.insert(e.label.clone(), chosen);
            }
        }
        out
    }

    /// A case whose seed could not be prepared: nothing to assert, checked as a skip.
    fn empty_case(&self, index: u64) -> SmtCase {
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
            params: self.params,
            incremental: false,
            index,
            min: None,
        }
    }
}

fn get_value_tail(arena: &Arena, cands: &[TermId]) -> String {
    if cands.is_empty() {
        return String::new();
    }
    let mut s = String::from("(get-value (");
    for (i, &c) in cands.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        arena.print(c, &mut s);
    }
    s.push_str("))\n");
    s
}

/// Splits the reference solver's output (model, then the `get-value` answer) into the model
/// text and the literal truth value of each candidate (`None` when not a literal).
fn split_model_and_values(who: &str, out: &str) -> (String, String, Vec<Option<bool>>) {
    let items = crate::sexp::parse_all(out).unwrap_or_default();
    let mut model = String::new();
    let mut values = Vec::new();
    for it in &items {
        let l = it.list().unwrap_or(&[]);
        let is_value_list =
            !l.is_empty() && l.iter().all(|p| p.list().is_some_and(|p| p.len() == 2)) && it.head() != Some("model");
        let is_model = it.head() == Some("model") || l.iter().any(|p| p.head() == Some("define-fun")) || l.is_empty();
        if is_model {
            model.push_str(&it.to_string());
            model.push('\n');
        } else if is_value_list {
            values = l
                .iter()
                .map(|p| match p.list().and_then(|p| p.get(1)).and_then(|v| v.atom()) {
                    Some("true") => Some(true),
                    Some("false") => Some(false),
                    _ => None,
                })
                .collect();
        }
    }
    (format!("{who} + evaluator"), model, values)
}

/// RANDASSIGNMENT of Algorithm 1 for when no reference solver answers: random values for
/// constants of sort Bool, Int, Real and small bit-vectors.
fn random_assignment(script: &Script, round: u64) -> Option<(String, String, Vec<Option<bool>>)> {
    let mut rng = crosscheck_core::rng(round, 0xA551_6000);
    let mut model = String::new();
    for (name, sort) in &script.consts {
        let v = match sort.as_str() {
            "Bool" => rng.gen_bool(0.5).to_string(),
            "Int" => eval::Value::Int(rng.gen_range(-16..16)).to_smtlib(),
            "Real" => eval::Value::Real(rng.gen_range(-16..16), 1).to_smtlib(),
            s => {
                let w: u32 = s.strip_prefix("(_ BitVec ")?.strip_suffix(')')?.parse().ok()?;
                if w > 64 {
                    return None;
                }
                eval::Value::Bv(w, u128::from(rng.gen::<u64>()) & ((1u128 << w) - 1)).to_smtlib()
            }
        };
        model.push_str(&format!("(define-fun {name} () {sort} {v})\n"));
    }
    Some(("random assignment + evaluator".into(), model, Vec::new()))
}

impl Generator<SmtCase, SmtOracle> for SmtGenerator {
    fn case(&mut self, index: u64, oracle: SmtOracle) -> SmtCase {
        let round = index / self.params.mutants_per_seed.max(1);
        if self.cache.as_ref().map(|p| p.round) != Some(round) {
            self.cache = self.prepare(round);
        }
        let mut rng = crosscheck_core::rng(self.seed, index);
        let options = self.sample_options(&mut rng);
        let params = self.params;
        let Some(p) = self.cache.as_mut() else { return self.empty_case(index) };
        let free = oracle == SmtOracle::Differential && rng.gen_bool(0.5);
        let (texts, sat_by_construction) = if free {
            let picked = storm::free_instance(&mut rng, &params, &p.init, &p.constr);
            let sat = picked.iter().all(|(_, v)| *v);
            (picked.iter().map(|(t, _)| p.arena.to_text(*t)).collect::<Vec<_>>(), sat)
        } else {
            let a = storm::instance(&mut p.arena, &mut rng, &params, &p.init, &p.constr);
            (a.iter().map(|t| p.arena.to_text(*t)).collect(), true)
        };
        let get_model = oracle == SmtOracle::Model;
        let incremental = p.incremental && !get_model;
        let steps = if incremental {
            storm::incremental_steps(&mut rng, texts)
        } else {
            texts.into_iter().map(Step::Assert).chain([Step::CheckSat]).collect()
        };
        let tactic = (p.tactic && !get_model).then(|| storm::pick_tactic(&mut rng).to_string());
        SmtCase {
            seed: p.seed.clone(),
            logic: p.logic.clone(),
            decls: p.decls.clone(),
            steps,
            tactic,
            model: p.model.clone(),
            model_source: p.model_source.clone(),
            sat_by_construction,
            get_model,
            options,
            params,
            incremental,
            index,
            min: None,
        }
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
}
