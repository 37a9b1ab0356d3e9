//! The SMT and clingo targets on real tools, tiny queries and tiny limits: known answers are kept, the
//! tuned recipe is never worse than the default, a solver that flips an answer under one
//! option is a finding and never the winner.

use crosscheck_tune::targets::smt::{Smt, Solver};
use crosscheck_tune::workloads::{smt_batch, Size};
use crosscheck_tune::{optimize, Algo, Evaluator, Params, Recipe, Target, Verdict};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn solver(name: &str) -> Option<PathBuf> {
    let found = crosscheck_engines::transport::process::find_tool(name);
    if found.is_none() {
        assert!(!crosscheck_engines::testing::required(name), "{name} is required but not installed");
        println!("skipped: {name} is not installed");
    }
    found
}

fn batch(dir: &Path, n: usize) {
    for (name, text) in smt_batch(11, n, Size::Tiny) {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn small() -> Params {
    Params { algo: Algo::Dars, max_len: 2, i_dom: 1, i_set: 2, seed: 3, ..Params::default() }
}

#[test]
fn real_solvers_resolve_tiny_queries_with_their_known_answers() {
    let dir = tempfile::tempdir().expect("tempdir");
    batch(dir.path(), 4);
    for (s, name) in [(Solver::Z3, "z3"), (Solver::Cvc5, "cvc5")] {
        let Some(bin) = solver(name) else { continue };
        let t = Smt::new(s, &bin, dir.path()).expect("the batch reads");
        let mut ev = Evaluator::new(&t, Duration::from_secs(5), 2);
        let tuned = optimize(&mut ev, &small()).expect("the solver runs");
        assert_eq!(ev.evaluations, small().budget());
        assert_eq!(tuned.default.resolved(), 4, "{name}: {:?}", tuned.default.items);
        assert!(tuned.best.resolved() >= tuned.default.resolved());
        let answers: Vec<&Verdict> = tuned.default.items.iter().map(|i| &i.verdict).collect();
        assert_eq!(answers[0], &Verdict::Resolved("sat".into()), "{}", t.item_name(0));
        assert_eq!(answers[1], &Verdict::Resolved("unsat".into()));
        assert_eq!(answers[2], &Verdict::Resolved("unsat".into()), "pigeonhole");
        assert!(ev.findings.is_empty(), "{name}: {:?}", ev.findings);
        assert!(tuned.default.used > Duration::ZERO, "charged CPU time");
    }
}

#[test]
fn a_solver_that_flips_an_answer_under_an_option_is_a_finding_and_never_wins() {
    let Some(z3) = solver("z3") else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    batch(dir.path(), 2);
    // A z3 that answers the opposite whenever it is given any sat.random_seed.
    let fake = dir.path().join("flipping-z3");
    let script = format!(
        "#!/bin/sh\ncase \"$*\" in *sat.random_seed*) {} \"$@\" | sed -e s/^sat/X/ -e s/^unsat/sat/ -e s/^X/unsat/ ;; *) exec {} \"$@\" ;; esac\n",
        z3.display(),
        z3.display()
    );
    std::fs::write(&fake, script).expect("write");
    std::process::Command::new("chmod").arg("+x").arg(&fake).status().expect("chmod");
    let t = Smt::new(Solver::Z3, &fake, dir.path()).expect("the batch reads");
    let space = t.space();
    // The search starts from the flipping configuration (a warm start), so that every search
    // meets it whatever the measured times make of its random path.
    let mut flipping = space.plain(0);
    let k = space.knobs.iter().position(|k| k.name == "sat.random_seed").expect("z3 has sat.random_seed");
    flipping.knobs[k] = 1;
    for seed in 0..3 {
        let mut ev = Evaluator::new(&t, Duration::from_secs(5), 2);
        let p = Params { seed, i_set: 8, init: Some(Recipe(vec![flipping.clone()])), ..small() };
        let tuned = optimize(&mut ev, &p).expect("runs");
        assert!(!ev.findings.is_empty(), "seed {seed}: the flipped answers are findings");
        let flipped = tuned.best.recipe.0.iter().any(|i| space.value(i, "sat.random_seed") != Some("default"));
        assert!(!flipped, "seed {seed}: {}", space.describe(&tuned.best.recipe));
        assert_eq!(tuned.best.resolved(), 2);
    }
}

#[test]
fn clingo_decides_tiny_programs_and_names_a_datalog_model() {
    use crosscheck_tune::targets::clingo::Clingo;
    use crosscheck_tune::workloads::lp_batch;
    let Some(bin) = solver("clingo") else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in lp_batch(2, 3, Size::Tiny) {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let t = Clingo::new(&bin, dir.path()).expect("the batch reads");
    let mut ev = Evaluator::new(&t, Duration::from_secs(5), 2);
    let tuned = optimize(&mut ev, &small()).expect("clingo runs");
    let answers: Vec<String> = tuned.default.items.iter().map(|i| format!("{:?}", i.verdict)).collect();
    assert!(answers[0].contains("\"unsat\""), "pigeonhole: {answers:?}");
    assert!(answers[2].contains("model"), "closure: {answers:?}");
    assert!(ev.findings.is_empty(), "{:?}", ev.findings);
    assert_eq!(tuned.best.resolved(), 3);
}
