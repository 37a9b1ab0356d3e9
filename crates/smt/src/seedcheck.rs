//! Two reference solvers vet a generated seed before it is used: a seed that one of them
//! rejects (an error) or that they answer differently (`sat` against `unsat`) is dropped,
//! counted and announced once per reason. It runs in the worker's materializer, with the leg's
//! [`Helpers`]: the generator itself stays pure and runs no solver.

use crate::script::Script;
use crate::solvers;
use crosscheck_core::{Helpers, Outcome, Verdict};
use std::time::Duration;

/// What became of one generated seed.
#[derive(Clone, Debug, PartialEq)]
pub enum Vetting {
    /// Two solvers took it and did not contradict each other.
    Agreed,
    /// Only one solver could check it (no second one installed that takes its theories).
    OneSolver,
    /// No installed reference solver takes its theories.
    Unchecked,
    /// A solver rejected it: the solver, its message.
    Rejected(String, String),
    /// Two solvers answered differently: each with its answer.
    Disagree((String, Verdict), (String, Verdict)),
}

/// A message without its digits (line and column numbers, term ids), cut short: equal
/// causes give one note.
pub fn gist(message: &str) -> String {
    let m: String = message.chars().filter(|c| !c.is_ascii_digit()).collect();
    let m = m.split_whitespace().collect::<Vec<_>>().join(" ");
    m.chars().take(90).collect()
}

/// Runs `script` on up to two of `names` that are installed and have every capability in
/// `caps`, and compares their answers.
pub fn vet(script: &Script, caps: &[&str], names: &[&str], helpers: &mut Helpers<'_>, timeout: Duration) -> Vetting {
    let text = script.to_text();
    let mut answers: Vec<(String, Verdict)> = Vec::new();
    let mut ran = 0;
    for name in names {
        if ran == 2 {
            break;
        }
        let Some(engine) = helpers.get(name) else { continue };
        if !caps.iter().all(|c| solvers::has(engine.info(), c)) {
            continue;
        }
        ran += 1;
        let who = format!("{} {}", engine.info().name, engine.info().version);
        match engine.run(&text, timeout) {
            Outcome::Verdicts { answers: a, .. } => {
                if let Some(v @ (Verdict::Sat | Verdict::Unsat)) = a.first() {
                    answers.push((who, *v));
                }
            }
            Outcome::Error { message, .. } => return Vetting::Rejected(who, message),
            Outcome::Crash { stderr_tail, .. } => return Vetting::Rejected(who, format!("crash: {stderr_tail}")),
            // A timeout or unknown says nothing against the seed.
            _ => {}
        }
    }
    if let [a, b] = answers.as_slice() {
        if a.1 != b.1 {
            return Vetting::Disagree(a.clone(), b.clone());
        }
    }
    match ran {
        0 => Vetting::Unchecked,
        1 => Vetting::OneSolver,
        _ => Vetting::Agreed,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn gist_drops_positions() {
        assert_eq!(super::gist("line 3 column 14:  unknown constant"), "line column : unknown constant");
    }
}
