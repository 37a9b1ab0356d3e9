//! Tests with real solvers. A solver named in `CROSSCHECK_REQUIRE_ENGINES` (comma-separated)
//! must be present or the test fails; any other missing solver skips its test with a line.

use crosscheck_core::Generator;
use crosscheck_core::{Check, Engine, EngineInfo, FindingClass, GenOptions, Helpers, Kind, Outcome, Verdict};
use crosscheck_smt::case::SmtCase;
use crosscheck_smt::eval::{self, Env};
use crosscheck_smt::generator::{load_seeds, shipped_seeds_dir, SmtGenerator};
use crosscheck_smt::materialize::{Materializer, PrepStats};
use crosscheck_smt::script::Script;
use crosscheck_smt::storm::{self, Step};
use crosscheck_smt::term::Arena;
use crosscheck_smt::SmtKind;
use std::path::Path;
use std::time::Duration;

use super::common;
use common::{open, opts};

pub(crate) fn seed_dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    for (n, t) in files {
        std::fs::write(d.path().join(n), t).unwrap_or_else(|e| panic!("write: {e}"));
    }
    d
}

const SMALL: &str = "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n\
                     (assert (and (> x 2) (or (< y 0) (= y x))))\n(assert (not (= x 5)))\n";

#[test]
fn fragmentation_known_answer() {
    // Under M = {x = 3, y = -1}: the pool is every and/or node and every leaf, with its value.
    let s = Script::parse(SMALL, "small.smt2").expect("parses");
    let mut arena: Arena = s.arena.clone();
    let mut env = Env::default();
    env.add_model(&mut arena, "((define-fun x () Int 3) (define-fun y () Int (- 1)))").expect("model");
    let frags = storm::fragment(&arena, &s.asserts(), 20);
    let pool: Vec<(String, Option<bool>)> =
        frags.iter().map(|&f| (arena.to_text(f), eval::truth(&arena, &env, f))).collect();
    let expect = |t: &str, v: bool| (t.to_string(), Some(v));
    assert_eq!(
        pool,
        vec![
            expect("(and (> x 2) (or (< y 0) (= y x)))", true),
            expect("(> x 2)", true),
            expect("(or (< y 0) (= y x))", true),
            expect("(< y 0)", true),
            expect("(= y x)", false),
            expect("(not (= x 5))", true),
        ]
    );
}

#[test]
fn malformed_seed_is_reported_with_file_line_col_and_skipped() {
    let d = seed_dir_with(&[
        ("bad.smt2", "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 1) (< x 2))\n"),
        ("good.smt2", SMALL),
    ]);
    let (seeds, errors) = load_seeds(d.path());
    assert_eq!(seeds.len(), 1);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].ends_with("bad.smt2:3:1: assert needs exactly one term"), "{}", errors[0]);
    // A directory with only malformed seeds is a configuration error naming the problem.
    let d = seed_dir_with(&[("bad.smt2", "(assert (> x\n")]);
    let err = SmtKind.generator(&GenOptions { seed: 1, seeds_dir: Some(d.path().into()) }, &[]);
    let msg = err.err().expect("no usable seed");
    assert!(msg.contains("bad.smt2:1:9"), "{msg}");
}

/// Every assertion of every generated instance is true under M, by crosscheck's evaluator,
/// whatever the model source (here: no solver needed when z3 is missing, a random assignment).
#[test]
fn generated_instances_are_true_under_m() {
    let d = seed_dir_with(&[
        ("a.smt2", SMALL),
        ("b.smt2", "(set-logic QF_BV)\n(declare-fun a () (_ BitVec 8))\n(assert (or (bvult a #x10) (= (bvand a #x0f) #x03)))\n(assert (not (= a #x00)))\n"),
        ("c.smt2", "(set-logic QF_LRA)\n(declare-fun r () Real)\n(assert (and (< r 2.5) (> (* 2.0 r) 1.0)))\n(assert (< r 0.0))\n"),
    ]);
    // No engine under test: M comes from a reference solver if one is here.
    let mut g = Stream::new(&GenOptions { seed: 7, seeds_dir: Some(d.path().into()) }, &[]);
    g.gen.params.mutants_per_seed = 50;
    let mut checked = 0;
    for i in 0..300 {
        let c = g.case(i, crosscheck_smt::SmtOracle::Storm);
        assert!(c.sat_by_construction);
        for a in c.asserts() {
            let mut arena = Arena::new();
            let mut env = Env::default();
            env.add_model(&mut arena, &c.model).expect("model parses");
            let t = arena.parse_term(a).expect("assertion parses");
            assert_eq!(eval::truth(&arena, &env, t), Some(true), "case {i} ({}): {a}\nM = {}", c.seed, c.model);
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
    assert_eq!(g.stats().disagreements, 0, "evaluator and reference solver disagreed");
}

/// The case stream as a worker sees it: the generator's cases, materialized with the helpers.
pub(crate) struct Stream {
    pub(crate) gen: SmtGenerator,
    infos: Vec<EngineInfo>,
    pub(crate) helpers: Helpers<'static>,
}

impl Stream {
    pub(crate) fn new(opts: &GenOptions, infos: &[EngineInfo]) -> Stream {
        let gen = SmtGenerator::new(opts, infos).unwrap_or_else(|e| panic!("gen: {e}"));
        Stream { gen, infos: infos.to_vec(), helpers: common::helpers(infos) }
    }

    pub(crate) fn case(&mut self, index: u64, oracle: crosscheck_smt::SmtOracle) -> SmtCase {
        let c = self.gen.case(index, oracle);
        SmtKind.materialize(c, &self.infos, &mut self.helpers, &opts())
    }

    pub(crate) fn stats(&self) -> PrepStats {
        let m = self.helpers.memo.as_ref().and_then(|m| m.downcast_ref::<Materializer>());
        m.map(|m| m.stats).unwrap_or_default()
    }
}

pub(crate) fn gen_for(engines: &[&dyn Engine], seeds: &Path, seed: u64, per_seed: u64) -> Stream {
    let infos: Vec<EngineInfo> = engines.iter().map(|e| e.info().clone()).collect();
    let mut g = Stream::new(&GenOptions { seed, seeds_dir: Some(seeds.into()) }, &infos);
    g.gen.params.mutants_per_seed = per_seed;
    g
}

fn shipped(logics: &[&str]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    for e in std::fs::read_dir(shipped_seeds_dir()).unwrap_or_else(|e| panic!("seeds: {e}")).flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        if logics.iter().any(|l| text.contains(&format!("(set-logic {l})"))) {
            std::fs::write(d.path().join(e.file_name()), text).unwrap_or_else(|e| panic!("copy: {e}"));
        }
    }
    d
}

#[test]
fn plain_z3_has_no_soundness_finding_on_a_fixed_seed() {
    let Some(z3) = open("z3") else { return };
    let seeds = shipped(&["QF_LIA", "QF_BV", "QF_LRA", "QF_UF"]);
    let mut g = gen_for(&[z3.as_ref()], seeds.path(), 42, 25);
    let mut engines = vec![z3];
    let mut sat = 0;
    for i in 0..300 {
        let c = g.case(i, crosscheck_smt::SmtOracle::Storm);
        match SmtKind.check(crosscheck_smt::SmtOracle::Storm, &c, &mut engines, &opts()) {
            Check::Finding(e) => panic!("false alarm on case {i}: {e:?}\n{}", c.script_for(engines[0].info())),
            Check::Pass { nonempty } => sat += usize::from(nonempty),
            Check::Skip(_) => {}
        }
    }
    assert!(sat > 150, "only {sat} sat answers");
}

#[test]
fn flip_verdict_mutant_is_caught_by_storm_and_reduced() {
    let Some(m) = open("mutant:z3:flip-verdict") else { return };
    let seeds = shipped(&["QF_LIA"]);
    let mut g = gen_for(&[m.as_ref()], seeds.path(), 3, 10);
    let mut engines = vec![m];
    let mut found = None;
    for i in 0..20 {
        let c = g.case(i, crosscheck_smt::SmtOracle::Storm);
        if let Check::Finding(e) = SmtKind.check(crosscheck_smt::SmtOracle::Storm, &c, &mut engines, &opts()) {
            assert_eq!(e.class, FindingClass::Soundness);
            assert_eq!(e.key, "unsat");
            found = Some((c, e));
            break;
        }
    }
    let (case, ev) = found.expect("the flipped verdict is caught");
    // Reduction with the oracle as interestingness test keeps it satisfiable by construction.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let (small, stats) = crosscheck_core::reduce::reduce(
        case.clone(),
        |c| SmtKind.shrink_lazy(c),
        |c| SmtKind.size(c),
        |c| matches!(SmtKind.check(crosscheck_smt::SmtOracle::Storm, c, &mut engines, &opts()), Check::Finding(e) if e.same_failure(&ev)),
        deadline,
    );
    // The fast phase and STORM's search: within the bound, at least 80% smaller (STORM
    // reports 82.7%), still satisfiable by construction, still answered `unsat` by the
    // faulty engine.
    assert!(!stats.timed_out, "{stats:?}");
    assert!(stats.size_after * 5 <= stats.size_before, "{stats:?}");
    assert!(small.script_for(engines[0].info()).len() < case.script_for(engines[0].info()).len());
    assert_true_under_m(&small);
    assert!(small.min.is_some(), "the reduction's state travels in the case");
    assert!(
        matches!(SmtKind.check(crosscheck_smt::SmtOracle::Storm, &small, &mut engines, &opts()), Check::Finding(e) if e.same_failure(&ev)),
        "the faulty engine still says unsat"
    );
    let files =
        SmtKind.reproducers("repro", crosscheck_smt::SmtOracle::Storm, &small, &ev, &[engines[0].info().clone()]);
    assert_eq!(files[0].0, "repro.smt2");
    assert!(files[0].1.contains("version"), "{}", files[0].1);
    assert!(files[0].1.contains("define-fun"), "M is in the comments");
    // The witness script and the reduced instance itself must be sat on the real z3.
    if let Some(mut z3) = open("z3") {
        let real = z3.run(&small.script_for(z3.info()), Duration::from_secs(20));
        assert!(
            matches!(&real, Outcome::Verdicts { answers, .. } if answers.iter().all(|a| *a == Verdict::Sat)),
            "{real:?}"
        );
        let w = &files.iter().find(|(n, _)| n == "repro-witness.smt2").expect("witness").1;
        assert!(
            matches!(z3.run(w, Duration::from_secs(20)), Outcome::Verdicts { answers, .. } if answers == vec![Verdict::Sat])
        );
    }
}

fn assert_true_under_m(c: &SmtCase) {
    let mut arena = Arena::new();
    let mut env = Env::default();
    env.add_model(&mut arena, &c.model).unwrap_or_else(|e| panic!("model: {e}"));
    for a in c.asserts() {
        let t = arena.parse_term(a).unwrap_or_else(|e| panic!("parses: {e}"));
        assert_ne!(eval::truth(&arena, &env, t), Some(false), "{a}");
    }
}

#[test]
fn incremental_instances_answer_every_check_sat() {
    let Some(z3) = open("z3") else { return };
    let seeds = shipped(&["QF_LIA", "QF_BV"]);
    let mut g = gen_for(&[z3.as_ref()], seeds.path(), 11, 20);
    g.gen.params.p_incremental = 1.0;
    let mut engines = vec![z3];
    let mut multi = 0;
    for i in 0..60 {
        let c = g.case(i, crosscheck_smt::SmtOracle::Storm);
        assert!(c.incremental);
        multi += usize::from(c.steps.iter().filter(|s| matches!(s, Step::CheckSat)).count() > 1);
        assert!(!matches!(
            SmtKind.check(crosscheck_smt::SmtOracle::Storm, &c, &mut engines, &opts()),
            Check::Finding(_)
        ));
    }
    assert!(multi > 10);
}

#[test]
fn differential_and_model_oracles_hold_on_correct_solvers_and_catch_the_mutant() {
    let Some(z3) = open("z3") else { return };
    let Some(other) = open("yices").or_else(|| open("cvc5")) else { return };
    let seeds = shipped(&["QF_LIA", "QF_BV"]);
    let mut g = gen_for(&[z3.as_ref(), other.as_ref()], seeds.path(), 5, 20);
    let mut engines = vec![z3, other];
    let (mut unsat_free, mut modeled) = (0, 0);
    for i in 0..80 {
        let c = g.case(i, crosscheck_smt::SmtOracle::Differential);
        match SmtKind.check(crosscheck_smt::SmtOracle::Differential, &c, &mut engines, &opts()) {
            Check::Finding(e) => panic!("differential false alarm {e:?}"),
            Check::Pass { nonempty: false } => unsat_free += 1,
            _ => {}
        }
        let c = g.case(i, crosscheck_smt::SmtOracle::Model);
        match SmtKind.check(crosscheck_smt::SmtOracle::Model, &c, &mut engines, &opts()) {
            Check::Finding(e) => panic!("model false alarm {e:?}"),
            Check::Pass { .. } => modeled += 1,
            _ => {}
        }
    }
    assert!(unsat_free > 0, "free instances include unsat ones");
    assert!(modeled > 40, "{modeled}");
    let Some(m) = open("mutant:z3:flip-verdict") else { return };
    engines[0] = m;
    let caught = (0..40).any(|i| {
        let c = g.case(i, crosscheck_smt::SmtOracle::Differential);
        matches!(SmtKind.check(crosscheck_smt::SmtOracle::Differential, &c, &mut engines, &opts()), Check::Finding(e) if e.key == "sat-vs-unsat")
    });
    assert!(caught, "differential catches the flipped verdict");
}

#[test]
fn validate_rejects_bad_configurations() {
    let one = vec![EngineInfo { name: "z3".into(), label: "z3".into(), ..Default::default() }];
    assert!(SmtKind.validate(&[crosscheck_smt::SmtOracle::Differential], &one).is_err());
    assert!(<crosscheck_smt::SmtOracle as crosscheck_core::Oracle>::parse("nope").is_none());
    assert!(SmtKind.validate(&[crosscheck_smt::SmtOracle::Storm, crosscheck_smt::SmtOracle::Model], &one).is_ok());
}

#[test]
fn case_stream_is_deterministic_and_random_access() {
    let seeds = shipped(&["QF_LIA", "QF_BV", "QF_UF"]);
    let mut a = gen_for(&[], seeds.path(), 9, 30);
    let mut b = gen_for(&[], seeds.path(), 9, 30);
    let forward: Vec<SmtCase> =
        [0u64, 5, 31, 64, 95].iter().map(|&i| a.case(i, crosscheck_smt::SmtOracle::Storm)).collect();
    // The same indices out of order (as a restarted worker asks for them) give the same cases.
    for (k, &i) in [0u64, 5, 31, 64, 95].iter().enumerate().rev() {
        assert_eq!(b.case(i, crosscheck_smt::SmtOracle::Storm), forward[k], "case {i}");
    }
    let mut c = gen_for(&[], seeds.path(), 10, 30);
    assert_ne!(c.case(0, crosscheck_smt::SmtOracle::Storm), forward[0], "another campaign seed gives another stream");
}
