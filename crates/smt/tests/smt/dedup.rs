//! Deduplication of SMT findings (`SmtKind::signature`).

use super::model_fallback::case;
use crosscheck_core::Kind;
use crosscheck_smt::case::SmtCase;
use crosscheck_smt::SmtKind;

/// Deduplication: a crash that names the assertion it failed is one bug whatever logic or
/// tactic reached it; crashes without a named site stay apart by configuration.
#[test]
fn a_crash_at_one_assertion_site_is_one_bug() {
    use crosscheck_core::{Detail, Evidence, FindingClass};
    let tail =
        "ASSERTION VIOLATION\nFile: ../src/math/lp/nla_core.cpp\nLine: 1418\nNOT IMPLEMENTED YET!\nZ3 4.8.10.0\n";
    let crash = |actual: &str| Evidence {
        class: FindingClass::Crash,
        engines: vec!["z3".into()],
        summary: "z3 crashed".into(),
        expected: "an answer".into(),
        actual: actual.into(),
        key: "exit 107".into(),
        detail: Detail::none(),
    };
    let nia = case("NIA", &["(declare-fun x () Int)"], &["(> (* x x) 2)"]);
    let mut qf_nra = case("QF_NRA", &["(declare-fun y () Real)"], &["(> (* y y) 2.0)"]);
    qf_nra.tactic = Some("(then simplify smt)".into());
    let shape = |c: &SmtCase, ev: &Evidence| SmtKind.signature(crosscheck_smt::SmtOracle::Storm, c, ev);
    assert_eq!(shape(&nia, &crash(tail)), shape(&qf_nra, &crash(tail)));
    assert_ne!(shape(&nia, &crash("")), shape(&qf_nra, &crash("")));
}
