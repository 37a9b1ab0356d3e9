//! clingo as a tuning target. Work item = one program (`.lp`); resolved = clingo decided it
//! (SATISFIABLE or UNSATISFIABLE) within its CPU slice; ingredient = a `--configuration`
//! preset (the presets are incomparable) plus solver options that choose heuristics, never
//! answers. The answer is `sat` or `unsat`; for a program without choice, disjunction or
//! negation (a Datalog program, whose model is unique) it also names the model, so two
//! configurations that derive different facts are a finding.

use crate::run::run_charged;
use crate::{Ingredient, Knob, Poset, Recipe, Sharing, Space, StageRun, Target, TargetError, Verdict};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const PRESETS: &[&str] = &["auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy", "many"];

/// clingo options that change search, not semantics; the first value is clingo's own default.
const KNOBS: &[(&str, &[&str])] = &[
    ("heuristic", &["default", "Berkmin", "Vmtf", "Vsids", "Unit"]),
    ("restarts", &["default", "no", "L,128", "x,100,1.5", "D,100,0.7"]),
    ("sat-prepro", &["default", "0", "2", "3"]),
    ("eq", &["default", "0", "3"]),
    ("rand-freq", &["default", "0.01", "0.05"]),
    ("seed", &["default", "1", "2", "3"]),
];

/// A batch of programs and the clingo that solves them.
pub struct Clingo {
    binary: PathBuf,
    names: Vec<String>,
    texts: Vec<String>,
    space: Space,
}

impl Clingo {
    /// The `.lp` files of `workload` (a file or a directory) for the clingo at `binary`.
    pub fn new(binary: &Path, workload: &Path) -> Result<Clingo, TargetError> {
        let super::Batch { names, texts } = super::Batch::read(workload, "lp")?;
        Ok(Clingo { binary: binary.to_path_buf(), names, texts, space: space() })
    }
}

/// The presets as an antichain, `auto` (clingo's default) as the default recipe.
pub fn space() -> Space {
    let knobs = KNOBS.iter().map(|(n, vs)| Knob::new(n, vs, 0)).collect();
    let mut space = Space { domains: Poset::antichain(PRESETS), knobs, default: Recipe(vec![]), slices: true };
    space.default = Recipe(vec![space.plain(0)]);
    space
}

/// A program whose model is unique: no choice, disjunction or default negation.
fn unique_model(text: &str) -> bool {
    let code: String = text.lines().map(|l| l.split('%').next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    !code.contains('{') && !code.contains('|') && !code.contains("not ")
}

/// `sat`/`unsat` from clingo's output, with the model's digest when `named`.
pub fn answer(stdout: &str, named: bool) -> Option<String> {
    let lines: Vec<&str> = stdout.lines().map(str::trim).collect();
    if lines.contains(&"UNSATISFIABLE") {
        return Some("unsat".into());
    }
    if !lines.contains(&"SATISFIABLE") {
        return None;
    }
    if !named {
        return Some("sat".into());
    }
    let at = lines.iter().position(|l| l.starts_with("Answer:"))?;
    let mut atoms: Vec<&str> = lines.get(at + 1)?.split_whitespace().collect();
    atoms.sort_unstable();
    let mut h = DefaultHasher::new();
    atoms.hash(&mut h);
    Some(format!("sat, model {:016x} of {} atoms", h.finish(), atoms.len()))
}

impl Target for Clingo {
    fn name(&self) -> &str {
        "clingo"
    }
    fn space(&self) -> &Space {
        &self.space
    }
    fn items(&self) -> usize {
        self.texts.len()
    }
    fn item_name(&self, i: usize) -> String {
        self.names[i].clone()
    }
    fn sharing(&self) -> Sharing {
        Sharing::PerItem
    }
    fn run(&self, ing: &Ingredient, items: &[usize], budget: Duration) -> Result<StageRun, TargetError> {
        let mut out = StageRun::default();
        for &i in items {
            let mut cmd = Command::new(&self.binary);
            cmd.arg(format!("--configuration={}", self.space.domains.name(ing.domain)));
            for (k, v) in self.space.changed(ing) {
                cmd.arg(format!("--{k}={v}"));
            }
            cmd.arg("-");
            let ran = run_charged(&mut cmd, &self.texts[i], budget)
                .map_err(|source| TargetError::Io { what: format!("running {}", self.binary.display()), source })?;
            out.used += ran.cpu;
            let verdict = match answer(&ran.stdout, unique_model(&self.texts[i])) {
                Some(a) if !ran.killed => Verdict::Resolved(a),
                _ => {
                    out.note = ran.stderr.lines().find(|l| l.contains("ERROR")).map(str::to_string).or(out.note);
                    Verdict::Unresolved
                }
            };
            out.verdicts.push((i, verdict));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_name_the_model_of_a_datalog_program() {
        let out = "clingo version 5.4.1\nReading from stdin\nSolving...\nAnswer: 1\nq(2) p(1)\nSATISFIABLE\n";
        let a = answer(out, true).unwrap_or_default();
        assert!(a.starts_with("sat, model") && a.ends_with("of 2 atoms"), "{a}");
        assert_eq!(answer(&out.replace("q(2) p(1)", "p(1) q(2)"), true), Some(a), "order does not matter");
        assert_eq!(answer(out, false), Some("sat".into()));
        assert_eq!(answer("Solving...\nUNSATISFIABLE\n", true), Some("unsat".into()));
        assert_eq!(answer("Solving...\nUNKNOWN\n", true), None);
        assert!(unique_model("e(1,2). p(X,Y) :- e(X,Y). % not a choice {"));
        assert!(!unique_model("{ a ; b }."));
    }
}
