//! Seeds the solver under test rejects. A seed in syntax an engine cannot parse or a logic it
//! does not take (`str.to_re` before z3 4.8.10, `ubv_to_int` before SMT-LIB 2.7) makes every
//! one of its instances an error: the first error marks the seed, the user is told once (a
//! note), and its other instances in this worker are skipped instead of run.
//!
//! An error caused by what the instance adds to its seed — a `check-sat-using` tactic, a
//! sampled option — does not mark the seed. Like `crate::budget`, this leaves the case stream
//! alone and never skips reduction candidates (`SmtCase::min`).

use crate::case::SmtCase;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Seed name → (engine, message) of its first rejection.
static REJECTED: Mutex<BTreeMap<String, (String, String)>> = Mutex::new(BTreeMap::new());

/// Words of error messages about the instance's additions (a tactic, options, push/pop, the
/// model oracle's `get-model`) or the run, not the seed.
const NOT_THE_SEED: &[&str] =
    &["tactic", "option", "parameter", "push", "pop", "model", "canceled", "interrupted", "memory"];

/// Whether an engine's error message on `case` means it rejects the seed.
pub fn is_seed_rejection(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    !NOT_THE_SEED.iter().any(|w| m.contains(w))
}

/// Records that `engine` answered `case` with the (non-internal) error `message`.
pub fn record(case: &SmtCase, engine: &str, message: &str) {
    if case.min.is_some() || !is_seed_rejection(message) {
        return;
    }
    let Ok(mut r) = REJECTED.lock() else { return };
    if r.contains_key(&case.seed) {
        return;
    }
    let first = message.lines().next().unwrap_or_default();
    // Generated seeds fail for a few causes, each worth one note; a seed file for its own.
    let (who, why) = match crate::schedule::family_of(&case.seed) {
        Some(family) => (format!("generated {family} seeds"), crate::seedcheck::gist(first)),
        None => (format!("seed {}", case.seed), first.chars().take(160).collect()),
    };
    crosscheck_core::notes::note(format!("{who}: {engine} rejects them ({why}); their instances are skipped"));
    r.insert(case.seed.clone(), (engine.to_string(), message.to_string()));
}

/// Why `case` is skipped, when an engine rejected its seed.
pub fn skip_reason(case: &SmtCase) -> Option<String> {
    if case.min.is_some() {
        return None;
    }
    let r = REJECTED.lock().ok()?;
    let (engine, message) = r.get(&case.seed)?;
    Some(format!("seed {} rejected by {engine}: {message}", case.seed))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tactic_and_option_errors_are_not_the_seeds() {
        assert!(super::is_seed_rejection("line 3 column 9: unknown constant str.to_re"));
        assert!(!super::is_seed_rejection("unknown tactic qfnra-nlsat"));
        assert!(!super::is_seed_rejection("unknown parameter 'smt.arith.solver'"));
        assert!(!super::is_seed_rejection("line 9 column 1: model is not available"));
    }
}
