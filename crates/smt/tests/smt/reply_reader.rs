//! The engines layer reads solver replies with its own small reader (it must not depend on
//! this leg), while the leg's oracles compare replies in the leg's normal form: both readers
//! must print every reply alike and fail on it with the same message at the same place.

use crosscheck_engines::smt::sexp as reply;
use crosscheck_smt::sexp as leg;

/// Both readers' view of `src`: the printed items, or the error as shown.
fn both(src: &str) -> (Result<Vec<String>, String>, Result<Vec<String>, String>) {
    let a = reply::parse_all(src).map(|v| v.iter().map(ToString::to_string).collect()).map_err(|e| e.to_string());
    let b = leg::parse_all(src).map(|v| v.iter().map(ToString::to_string).collect()).map_err(|e| e.to_string());
    (a, b)
}

#[test]
fn reads_replies_as_the_leg_does() {
    let samples = [
        "sat\n(\n  (define-fun x () Int\n    4)\n)\nunsat\nsuccess",
        "(error \"line 1: bad \"\"quoted\"\"\")",
        "(model (define-fun |a b| () (_ BitVec 8) #x0f)) ; comment\nunknown",
        "(a))",
        "(a \"x)",
        "ok\n é |x",
        "(assert\n  (> x 1)",
        "",
        ";only a comment",
        "x\"y\"z|q|(r)",
    ];
    for s in samples {
        let (a, b) = both(s);
        assert_eq!(a, b, "{s:?}");
    }
    // Agreeing is not enough: a reader that failed on everything would agree with a broken
    // twin. A well-formed reply reads, and in its own spelling.
    let (good, _) = both(samples[0]);
    assert_eq!(
        good,
        Ok(vec!["sat".to_string(), "((define-fun x () Int 4))".to_string(), "unsat".into(), "success".into()])
    );
    assert!(both("(a))").0.is_err(), "an unbalanced reply is an error");
}

#[test]
fn agrees_on_random_text() {
    // A fixed linear congruential sequence: the same inputs on every run.
    let alphabet: Vec<char> = "() \n\"|;ab1#é\t".chars().collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..20_000 {
        let mut s = String::new();
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let len = (state >> 59) as usize;
        for _ in 0..len {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            s.push(alphabet[crosscheck_core::position(state >> 33, alphabet.len())]);
        }
        let (a, b) = both(&s);
        assert_eq!(a, b, "{s:?}");
    }
}
