//! The worker's half of the case stream: what STORM needs a solver for. A case from the
//! generator is [`Pending`]; here it gets its seed's model M (from a reference solver, one of
//! the leg's [`Helpers`], never a solver under test when another is installed), the seed's
//! pools and modes (computed once per seed round and kept in `Helpers::memo`, so a seed's
//! model serves its NM instances), and its instance. The random draws and their order are
//! those the generator made before it was split, so the instances are the same.
//!
//! When no reference solver is installed at all, M is a random assignment (STORM's
//! RANDASSIGNMENT), which depends on the installation, not on timing; when one is installed but
//! gives no model (a timeout, `unknown`), the seed is skipped and the round takes the next one.

use crate::case::{normalize_model, Pending, SmtCase};
use crate::eval::{self, Env};
use crate::generator::{empty_case, load_seeds, supported_by_all, Seed};
use crate::schedule::Schedule;
use crate::script::Script;
use crate::seedcheck::{self, Vetting};
use crate::solvers::{self, base_name};
use crate::storm::{self, Entry, Params, Step};
use crate::term::{Arena, TermId};
use crate::SmtOracle;
use crosscheck_core::{EngineInfo, EngineSpec, Helpers, Oracle, Outcome, Verdict};
use rand::Rng;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// The solvers the leg may run for itself: reference solvers for M, and checkers of models the
/// evaluator does not cover (the model oracle).
const HELPERS: &[&str] = &["z3", "cvc5", "yices", "cvc4"];

/// The specs of [`HELPERS`], as `Kind::helpers` gives them to the worker.
pub fn helper_specs() -> Vec<EngineSpec> {
    HELPERS
        .iter()
        .map(|n| EngineSpec { name: n.to_string(), location: None, label: Some(format!("helper-{n}")) })
        .collect()
}

/// Completes a pending case; a complete one is returned as it is.
pub fn materialize(case: SmtCase, engines: &[EngineInfo], helpers: &mut Helpers<'_>) -> SmtCase {
    let Some(p) = case.pending.clone() else { return case };
    // The key is compared in place: a run's cases share one, built once with its materializer.
    let mut m = match helpers.memo.take().and_then(|b| b.downcast::<Materializer>().ok()) {
        Some(m)
            if m.key.seed == p.seed
                && m.key.seeds_dir == p.seeds_dir
                && m.key.params == case.params
                && m.key.engines == engines =>
        {
            m
        }
        _ => Box::new(Materializer::new(Key {
            seed: p.seed,
            seeds_dir: p.seeds_dir.clone(),
            params: case.params,
            engines: engines.to_vec(),
        })),
    };
    let out = match SmtOracle::parse(&p.oracle) {
        Some(oracle) => m.case(case.index, &p, oracle, helpers),
        None => empty_case(case.index, case.params),
    };
    helpers.memo = Some(m);
    out
}

/// Reference solvers, in the order they are asked.
struct Reference {
    names: Vec<&'static str>,
    timeout: Duration,
}

impl Reference {
    /// Prefers solvers that are not under test (STORM's valuations must not come from the
    /// solver under test); z3 stays last as the fallback, as in STORM itself.
    fn new(under_test: &[EngineInfo]) -> Reference {
        let tested: HashSet<&str> = under_test.iter().map(|i| base_name(&i.name)).collect();
        let mut names: Vec<&str> = ["z3", "cvc5", "yices"].into_iter().filter(|n| !tested.contains(n)).collect();
        if !names.contains(&"z3") {
            names.push("z3");
        }
        Reference { names, timeout: Duration::from_secs(10) }
    }

    /// Runs `script` on the first solver that says sat; its name and version too.
    fn run(&self, helpers: &mut Helpers<'_>, script: &str, logic: Option<&str>) -> Option<(String, Outcome)> {
        for name in &self.names {
            let Some(engine) = helpers.get(name) else { continue };
            let mut text = String::new();
            match (logic, solvers::has(engine.info(), "needs-logic")) {
                (Some(l), _) => {
                    let _ = writeln!(text, "(set-option :produce-models true)\n(set-logic {l})");
                }
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

    /// The solvers that vet a generated seed: the reference solvers, then the other helpers.
    fn vetting_order(&self) -> Vec<&'static str> {
        let mut names = self.names.clone();
        names.extend(HELPERS.iter().filter(|h| !self.names.contains(h)));
        names
    }

    /// Whether any reference solver is installed (asked after `run`, which tried them all).
    fn any(&self, helpers: &mut Helpers<'_>) -> bool {
        self.names.iter().any(|n| helpers.get(n).is_some())
    }
}

/// What makes one materializer's cases: the generator's options and the engines under test.
#[derive(PartialEq)]
struct Key {
    seed: u64,
    seeds_dir: Option<PathBuf>,
    params: Params,
    engines: Vec<EngineInfo>,
}

/// What a seed's visits share: its arena with both pools, M, and its modes. It depends on the
/// seed alone (not on the round that first visits it), so a seed's later visits reuse it.
struct Prepared {
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
    /// Generated seeds vetted by two reference solvers, by one only, and by none.
    pub vetted_two: u64,
    pub vetted_one: u64,
    pub vetted_none: u64,
    /// Generated seeds dropped: a reference solver rejected it, or two answered differently.
    pub rejected: u64,
    pub disagreed: u64,
}

/// Prepared seeds kept per worker: a visit to a kept seed runs no reference solver.
const KEEP_PREPARED: usize = 64;

/// The worker-side generator state, kept between cases in `Helpers::memo`.
pub struct Materializer {
    key: Key,
    schedule: Schedule,
    reference: Reference,
    /// The round last prepared and the seed it settled on (`None`: no seed gave an instance).
    current: Option<(u64, Option<String>)>,
    /// Prepared seeds by name; `None` for a seed that gave no instance.
    cache: HashMap<String, Option<Prepared>>,
    pub stats: PrepStats,
    /// The yinyang oracles' seed statuses (`crate::yinyang`).
    pub(crate) yinyang: crate::yinyang::Memo,
}

impl Materializer {
    fn new(key: Key) -> Materializer {
        // The generator has noted unreadable seed files already.
        let schedule = match &key.seeds_dir {
            Some(dir) => Schedule::files(load_seeds(dir).0, &key.engines),
            None => Schedule::generated(&key.engines),
        };
        Materializer {
            schedule,
            reference: Reference::new(&key.engines),
            current: None,
            cache: HashMap::new(),
            stats: PrepStats::default(),
            yinyang: crate::yinyang::Memo::default(),
            key,
        }
    }

    /// The labels the schedule visits in turn (for tests and the benchmark).
    pub fn labels(&self) -> Vec<&str> {
        self.schedule.labels()
    }

    /// The schedule's seed of a round's attempt (for `crate::yinyang`, which pairs seeds).
    pub(crate) fn seed_for(&self, round: u64, attempt: u64) -> Option<Seed> {
        self.schedule.seed(self.key.seed, round, attempt).map(|(seed, _)| seed)
    }

    /// The seed a round settles on: the schedule's, or the next ones in its group when a seed
    /// yields nothing (no model, no predicate, dropped by the vetting), a bounded number of
    /// times, deterministically.
    fn prepare(&mut self, round: u64, helpers: &mut Helpers<'_>) -> Option<String> {
        for attempt in 0..self.schedule.tries(self.key.seed, round) {
            let (seed, generated) = self.schedule.seed(self.key.seed, round, attempt)?;
            if let Some(known) = self.cache.get(&seed.name) {
                match known {
                    Some(_) => return Some(seed.name),
                    None => continue,
                }
            }
            if self.cache.len() >= KEEP_PREPARED {
                self.cache.clear();
            }
            let name = seed.name.clone();
            let prepared = self.prepare_seed(seed, generated, helpers);
            let ok = prepared.is_some();
            self.cache.insert(name.clone(), prepared);
            if ok {
                self.stats.seeds_prepared += 1;
                return Some(name);
            }
        }
        None
    }

    /// Vets a generated seed with two reference solvers; false drops it (counted, and noted
    /// once per reason).
    fn vetted(&mut self, seed: &Seed, helpers: &mut Helpers<'_>) -> bool {
        let family = crate::schedule::family_of(&seed.name).unwrap_or("-");
        let mut caps = seed.script.logic().map(crate::generator::required_caps).unwrap_or_default();
        caps.extend(crate::seedgen::family(family).map(|f| f.caps).unwrap_or_default());
        let text = seed.script.to_text();
        if text.contains("(as const") {
            caps.push("const-arrays");
        }
        if text.contains("Float16") || text.contains(" 5 11)") {
            caps.push("fp-small");
        }
        if crate::seedgen::WIDE_CHARS.iter().any(|w| text.contains(w)) {
            caps.push("unicode-strings");
        }
        let names = self.reference.vetting_order();
        match seedcheck::vet(&seed.script, &caps, &names, helpers, self.reference.timeout) {
            Vetting::Agreed => self.stats.vetted_two += 1,
            Vetting::OneSolver => self.stats.vetted_one += 1,
            Vetting::Unchecked => self.stats.vetted_none += 1,
            Vetting::Rejected(who, message) => {
                self.stats.rejected += 1;
                crosscheck_core::notes::note(format!(
                    "generated {family} seeds: one {who} rejects is not used ({})",
                    seedcheck::gist(&message)
                ));
                return false;
            }
            Vetting::Disagree((a, va), (b, vb)) => {
                self.stats.disagreed += 1;
                crosscheck_core::notes::note(format!(
                    "generated {family} seeds: one {a} answers {va} and {b} answers {vb} is not used (a bug in one of \
                     them; see examples/seedgen_check.rs --show-errors)"
                ));
                return false;
            }
        }
        true
    }

    fn prepare_seed(&mut self, seed: Seed, generated: bool, helpers: &mut Helpers<'_>) -> Option<Prepared> {
        if !supported_by_all(&seed.script, &self.key.engines) || (generated && !self.vetted(&seed, helpers)) {
            return None;
        }
        let Seed { name, script } = seed;
        let stream = name_stream(&name);
        let mut arena = script.arena.clone();
        let asserts = script.asserts();
        let cands = storm::fragment(&arena, &asserts, self.key.params.max_depth);
        let decls = script.decls();
        let logic = script.logic().map(str::to_string);
        let (source, model, values) = self.model_of(&script, &arena, &asserts, &cands, helpers, stream)?;
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
        let mut rng = crosscheck_core::rng(self.key.seed, 0xF00D_0000 ^ stream);
        let constr = storm::enrich(&mut arena, &mut rng, &self.key.params, &init);
        let incremental = self.key.engines.iter().all(|e| solvers::has(e, "incremental"))
            && rng.gen_bool(self.key.params.p_incremental);
        let tactic = self.key.engines.iter().any(|e| solvers::has(e, "check-sat-using"))
            && rng.gen_bool(self.key.params.p_tactic);
        Some(Prepared {
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

    /// M and the reference solver's valuations of the candidates: a model of the assertions,
    /// or of their negation when they are unsat.
    fn model_of(
        &self,
        script: &Script,
        arena: &Arena,
        asserts: &[TermId],
        cands: &[TermId],
        helpers: &mut Helpers<'_>,
        stream: u64,
    ) -> Option<(String, String, Vec<Option<bool>>)> {
        let decls = script.decls();
        let logic = script.logic();
        let mut body = String::new();
        for d in &decls {
            body.push_str(d);
            body.push('\n');
        }
        let asserted: Vec<String> = asserts.iter().map(|&a| arena.to_text(a)).collect();
        let tail = get_value_tail(arena, cands);
        let positive = format!(
            "{body}{}(check-sat)\n(get-model)\n{tail}",
            asserted.iter().map(|a| format!("(assert {a})\n")).collect::<String>()
        );
        let negated =
            format!("{body}(assert (not (and true {})))\n(check-sat)\n(get-model)\n{tail}", asserted.join(" "));
        let reference =
            self.reference.run(helpers, &positive, logic).or_else(|| self.reference.run(helpers, &negated, logic));
        match reference {
            Some((who, Outcome::Verdicts { model: Some(m), .. })) => Some(split_model_and_values(&who, &m)),
            // Only an installation without any reference solver falls back: a solver that is
            // installed but slow must not make the stream depend on timing.
            _ if self.reference.any(helpers) => None,
            _ => random_assignment(script, stream),
        }
    }

    pub(crate) fn sample_options(&self, rng: &mut impl Rng) -> BTreeMap<String, Vec<(String, String)>> {
        let mut out = BTreeMap::new();
        for e in &self.key.engines {
            let chosen = crate::options::draw(e, rng);
            if !chosen.is_empty() {
                out.insert(e.label.clone(), chosen);
            }
        }
        out
    }

    /// The generation seed, the engines under test, the parameters, and how many seeds
    /// `round` may try (for `crate::yinyang`).
    pub(crate) fn setup(&self, round: u64) -> (u64, &[EngineInfo], Params, u64) {
        (self.key.seed, &self.key.engines, self.key.params, self.schedule.tries(self.key.seed, round))
    }

    /// The case at `index` of the stream, as the generator made it before it was split.
    fn case(&mut self, index: u64, pending: &Pending, oracle: SmtOracle, helpers: &mut Helpers<'_>) -> SmtCase {
        if matches!(oracle, SmtOracle::Fusion | SmtOracle::Opfuzz) {
            return crate::yinyang::case(self, index, oracle, helpers);
        }
        let round = pending.round;
        if self.current.as_ref().map(|(r, _)| *r) != Some(round) {
            let name = self.prepare(round, helpers);
            self.current = Some((round, name));
        }
        let mut rng = crosscheck_core::rng(self.key.seed, index);
        let options = self.sample_options(&mut rng);
        let params = self.key.params;
        let name = self.current.as_ref().and_then(|(_, n)| n.as_ref());
        let Some(Some(p)) = name.and_then(|n| self.cache.get_mut(n)) else { return empty_case(index, params) };
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
            pending: None,
            derived: None,
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

/// The random stream of a seed's preparation, from its name (FNV-1a): the same seed is
/// prepared the same way whichever round visits it first.
fn name_stream(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// RANDASSIGNMENT of Algorithm 1 for when no reference solver answers: random values for
/// constants of sort Bool, Int, Real and small bit-vectors.
fn random_assignment(script: &Script, stream: u64) -> Option<(String, String, Vec<Option<bool>>)> {
    let mut rng = crosscheck_core::rng(stream, 0xA551_6000);
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
        let _ = writeln!(model, "(define-fun {name} () {sort} {v})");
    }
    Some(("random assignment + evaluator".into(), model, Vec::new()))
}
