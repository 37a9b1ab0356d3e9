//! Option sampling on the installed solvers: each lists its options when it opens, the leg
//! keeps the safe ones, and every drawn set is accepted by the solver that listed it (no
//! error, no `unsupported`) and leaves a known answer alone; an option only another version
//! lists is never drawn.

use crosscheck_core::{Engine, Outcome, Verdict};
use crosscheck_smt::options;
use std::time::Duration;

use super::common::open;

/// Satisfiable in every solver here (QF_BV: Yices wants a logic, Bitwuzla has no integers).
const SAT: &str = "(set-logic QF_BV)\n(declare-const x (_ BitVec 8))\n(assert (= (bvadd x #x01) #x00))\n(check-sat)\n";

/// Satisfiable, outside bit-vectors: cvc5 accepts some options (`bitblast=eager`) in pure
/// QF_BV only.
const SAT_LIA: &str = "(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 2))\n(check-sat)\n";

/// Sends `draws` random option sets, each as `(set-option ...)` before [`SAT`] or, every other
/// time where the solver has integers, [`SAT_LIA`]; returns the failures (option set, what the
/// solver answered).
fn failures(engine: &mut dyn Engine, draws: u64) -> Vec<(String, String)> {
    let mut bad = Vec::new();
    let ints = crosscheck_smt::solvers::has(engine.info(), "theory:int");
    for i in 0..draws {
        let mut rng = crosscheck_core::rng(17, i);
        let drawn = options::draw(engine.info(), &mut rng);
        let set: String = drawn.iter().map(|(k, v)| format!("(set-option :{k} {v})\n")).collect();
        let problem = if ints && i % 2 == 1 { SAT_LIA } else { SAT };
        let out = engine.run(&format!("{set}{problem}"), Duration::from_secs(20));
        // A refused option, or a wrong answer; other errors (cvc5 1.0.3 throws "Illegal
        // argument" for `miplib-trick` outside arithmetic) are the solver's own.
        let bad_answer = matches!(&out, Outcome::Verdicts { answers, .. } if !matches!(answers.as_slice(), [Verdict::Sat | Verdict::Unknown]));
        let refused = matches!(&out, Outcome::Error { message, .. } if ["option", "support", "unknown", "invalid"].iter().any(|w| message.to_lowercase().contains(w)));
        // A crash too: cvc5 1.4.2 segfaults on any QF_BV check under the expert option
        // `bv-rw-extend-eq`, which is why expert options are not drawn.
        if bad_answer || refused || matches!(out, Outcome::Crash { .. }) {
            bad.push((set, format!("{out:?}")));
        }
    }
    bad
}

#[test]
fn every_installed_solver_lists_options_and_accepts_the_drawn_ones() {
    for spec in ["z3", "z3@debian=/usr/bin/z3", "cvc5", "cvc5-py", "cvc4", "yices", "bitwuzla"] {
        let Some(mut e) = open(spec) else { continue };
        let listed = e.info().options.len();
        let safe = options::safe(e.info()).len();
        assert!(listed >= 20 && safe >= 10 && safe < listed, "{spec}: {listed} listed, {safe} safe");
        let bad = failures(e.as_mut(), 400);
        assert!(bad.is_empty(), "{spec} refused drawn options: {bad:#?}");
    }
}

/// cvc5 marks `bv-rw-extend-eq` for experts (its safe mode refuses it) and crashes under it:
/// both cvc5 engines list it as such and never draw it.
#[test]
fn expert_options_are_listed_but_never_drawn() {
    for spec in ["cvc5", "cvc5-py"] {
        let Some(e) = open(spec) else { continue };
        let listed = e.info().options.iter().find(|o| o.name == "bv-rw-extend-eq");
        assert!(listed.is_some_and(|o| o.expert), "{spec}: {listed:?}");
        let experts = e.info().options.iter().filter(|o| o.expert).count();
        assert!(experts >= 100, "{spec}: {experts} expert options");
        let safe = options::safe(e.info());
        assert!(safe.iter().all(|(k, _)| !e.info().options.iter().any(|o| &o.name == k && o.expert)), "{spec}");
    }
}

#[test]
fn an_option_of_another_version_is_never_drawn() {
    let (Some(new), Some(mut old)) = (open("z3"), open("z3@old=/usr/bin/z3")) else { return };
    if new.info().version == old.info().version {
        return;
    }
    let known = |e: &dyn Engine, name: &str| e.info().options.iter().any(|o| o.name == name);
    let only_new: Vec<String> =
        options::safe(new.info()).into_iter().map(|(k, _)| k).filter(|k| !known(old.as_ref(), k)).collect();
    assert!(!only_new.is_empty(), "z3 {} lists safe options z3 {} lacks", new.info().version, old.info().version);
    // The older release refuses them: drawing from the newer list would flood errors.
    let first = &only_new[0];
    let out = old.run(&format!("(set-option :{first} true)\n{SAT}"), Duration::from_secs(20));
    assert!(matches!(out, Outcome::Error { .. }), "z3 {} on :{first}: {out:?}", old.info().version);
    for i in 0..500 {
        let drawn = options::draw(old.info(), &mut crosscheck_core::rng(5, i));
        assert!(drawn.iter().all(|(k, _)| !only_new.contains(k)), "drew {drawn:?}");
    }
}

/// `+--flag` reaches the bridged solvers as a solver option (it changes what they answer), and
/// a flag the library does not know stops the engine at open with the library's words.
#[test]
fn bridged_solvers_take_flags_and_refuse_unknown_ones() {
    let two_checks =
        "(set-logic QF_BV)\n(declare-const x (_ BitVec 8))\n(check-sat)\n(assert (= x #x01))\n(check-sat)\n(get-model)\n";
    // cvc5 refuses a second check-sat without incremental solving; Bitwuzla a model without
    // model production (its bridge turns it on, the flag off again).
    for (name, flag) in [("cvc5-py", "--incremental=false"), ("bitwuzla", "--produce-models=false")] {
        let Some(mut plain) = open(name) else { continue };
        let script = format!("(set-option :produce-models true)\n{two_checks}");
        let out = plain.run(&script, Duration::from_secs(20));
        assert!(matches!(&out, Outcome::Verdicts { answers, model: Some(_) } if answers.len() == 2), "{name}: {out:?}");
        let Some(mut flagged) = open(&format!("{name}=+{flag}")) else { continue };
        let out = flagged.run(if name == "bitwuzla" { two_checks } else { &script }, Duration::from_secs(20));
        assert!(matches!(out, Outcome::Error { .. }), "{name} with {flag}: {out:?}");
        let spec = crosscheck_core::EngineSpec::parse(&format!("{name}=+--no-such-flag-here")).expect("spec");
        match crosscheck_engines::open_engine(&crosscheck_engines::smt::registry(), &spec) {
            Ok(_) => panic!("{name} opened with an unknown flag"),
            Err(e) => assert!(e.message.contains("no-such-flag-here"), "{name}: {e}"),
        }
    }
}
