//! SMT solvers (z3, cvc5) as a tuning target. Work item = one `.smt2` query of a batch;
//! resolved = every `check-sat` answered `sat` or `unsat`; ingredient = a strategy (a z3 tactic
//! for `check-sat-using`, a cvc5 procedure) plus options that must not change an answer
//! (seeds, heuristics), run under a CPU-time slice from the child's rusage, or, for z3, under
//! its deterministic resource counter (`rlimit`, reported by `-st` as `:rlimit-count`): the
//! same run charges the same units whatever else the machine is doing.

use crate::run::run_charged;
use crate::{Ingredient, Knob, Poset, Recipe, Sharing, Space, StageRun, Target, TargetError, Verdict};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A solver family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    Z3,
    Cvc5,
}

impl Solver {
    pub fn name(self) -> &'static str {
        match self {
            Solver::Z3 => "z3",
            Solver::Cvc5 => "cvc5",
        }
    }
}

/// z3 strategies: `default` leaves `(check-sat)` alone, the others run it as `check-sat-using`
/// with the tactic. More preprocessing is "more precise" than less (the note's D.1 mapping);
/// the logic-specific strategies are incomparable.
const Z3_TACTICS: &[(&str, &str)] = &[
    ("default", ""),
    ("simplify", "(then simplify smt)"),
    ("preprocess", "(then simplify propagate-values solve-eqs elim-uncnstr smt)"),
    ("bit-blast", "(then simplify solve-eqs bit-blast sat)"),
    ("qfbv", "qfbv"),
    ("qflia", "qflia"),
    ("qfnra", "qfnra-nlsat"),
    // Bounded integers and 0-1 sums as Booleans with cardinality constraints: pigeonhole-like
    // counting, which resolution cannot do in polynomial time, becomes cheap.
    ("card", "(then simplify lia2card smt)"),
];
const Z3_EDGES: &[(&str, &str)] = &[("simplify", "preprocess"), ("simplify", "card")];

/// z3 parameters that choose heuristics, never semantics; the first value is "the solver's
/// own default" and is not passed.
const Z3_KNOBS: &[(&str, &[&str])] = &[
    ("smt.random_seed", &["default", "1", "2", "3", "7", "42"]),
    ("sat.random_seed", &["default", "1", "5", "9"]),
    ("smt.arith.solver", &["default", "2", "6"]),
    ("smt.phase_selection", &["default", "0", "1", "2", "4", "5"]),
    ("smt.relevancy", &["default", "0", "1"]),
    ("smt.restart_strategy", &["default", "0", "2", "3"]),
    ("smt.case_split", &["default", "0", "3", "5"]),
];

/// cvc5 procedures (incomparable): each is one option away from the default.
const CVC5_MODES: &[(&str, &str)] = &[
    ("default", ""),
    ("bitblast-eager", "--bitblast=eager"),
    ("no-simplification", "--simplification=none"),
    ("decision-internal", "--decision=internal"),
    ("nl-tplanes", "--nl-ext-tplanes"),
];
const CVC5_KNOBS: &[(&str, &[&str])] = &[
    ("seed", &["default", "1", "2", "3", "17"]),
    ("sat-random-seed", &["default", "1", "5"]),
    ("repeat-simp", &["default", "true"]),
    ("arith-rewrite-equalities", &["default", "true"]),
];

/// A batch of queries and the solver that answers them.
pub struct Smt {
    solver: Solver,
    binary: PathBuf,
    names: Vec<String>,
    texts: Vec<String>,
    space: Space,
    /// Charge z3's resource counter instead of CPU time: budgets and charges are then counter
    /// units, one per nanosecond of a `Duration` (the crate's convention).
    counter: bool,
}

/// The CPU time a counter-limited run may take before it is killed anyway: the counter is
/// the limit, this only stops a run that never reaches it.
const COUNTER_CPU_CAP: Duration = Duration::from_secs(300);

impl Smt {
    /// The `.smt2` files of `workload` (a file, or a directory read in name order) for the
    /// solver at `binary`.
    pub fn new(solver: Solver, binary: &Path, workload: &Path) -> Result<Smt, TargetError> {
        let super::Batch { names, texts } = super::Batch::read(workload, "smt2")?;
        if let Some((name, _)) = names.iter().zip(&texts).find(|(_, t)| !t.contains("(check-sat")) {
            let at = if workload.is_dir() { workload.join(name) } else { workload.to_path_buf() };
            return Err(TargetError::Setup(format!("{}: no (check-sat) in this query", at.display())));
        }
        Ok(Smt { solver, binary: binary.to_path_buf(), names, texts, space: space(solver), counter: false })
    }

    /// The same batch charged by z3's `rlimit` counter; cvc5's resource units are not wired.
    pub fn counting(mut self) -> Result<Smt, TargetError> {
        if self.solver != Solver::Z3 {
            return Err(TargetError::Setup(format!("{}: only z3's rlimit counter is supported", self.solver.name())));
        }
        self.counter = true;
        Ok(self)
    }

    /// The ingredient's settings, its random seeds moved by `seed`: a seed the ingredient leaves
    /// at the solver's default (0 for both solvers) becomes `seed`.
    fn settings(&self, ing: &Ingredient, seed: u64) -> Vec<(String, String)> {
        let mut out = self.space.changed(ing);
        if seed == 0 {
            return out;
        }
        let seeds: &[&str] = match self.solver {
            Solver::Z3 => &["smt.random_seed", "sat.random_seed"],
            Solver::Cvc5 => &["seed", "sat-random-seed"],
        };
        for name in seeds {
            let base: u64 = self.space.value(ing, name).and_then(|v| v.parse().ok()).unwrap_or(0);
            let v = (base + seed).to_string();
            match out.iter_mut().find(|(k, _)| k == name) {
                Some(kv) => kv.1 = v,
                None => out.push(((*name).to_string(), v)),
            }
        }
        out
    }

    fn command(&self, ing: &Ingredient, text: &str, budget: Duration, seed: u64) -> (Command, String) {
        let mut cmd = Command::new(&self.binary);
        if self.counter {
            cmd.arg("-st").arg(format!("rlimit={}", budget.as_nanos()));
        }
        let d = self.space.domains.name(ing.domain);
        let mut input = text.to_string();
        match self.solver {
            Solver::Z3 => {
                cmd.arg("-in");
                if let Some((_, tactic)) = Z3_TACTICS.iter().find(|(n, t)| *n == d && !t.is_empty()) {
                    input = text.replace("(check-sat)", &format!("(check-sat-using {tactic})"));
                }
                for (k, v) in self.settings(ing, seed) {
                    cmd.arg(format!("{k}={v}"));
                }
            }
            Solver::Cvc5 => {
                cmd.arg("--lang=smt2");
                if let Some((_, opt)) = CVC5_MODES.iter().find(|(n, o)| *n == d && !o.is_empty()) {
                    cmd.arg(opt);
                }
                for (k, v) in self.settings(ing, seed) {
                    cmd.arg(if v == "true" { format!("--{k}") } else { format!("--{k}={v}") });
                }
            }
        }
        (cmd, input)
    }
}

/// The configuration space of `solver`; its default recipe is the solver's default alone.
pub fn space(solver: Solver) -> Space {
    let (domains, knobs) = match solver {
        Solver::Z3 => {
            let names: Vec<&str> = Z3_TACTICS.iter().map(|(n, _)| *n).collect();
            (Poset::from_edges(&names, Z3_EDGES), Z3_KNOBS)
        }
        Solver::Cvc5 => (Poset::antichain(&CVC5_MODES.iter().map(|(n, _)| *n).collect::<Vec<_>>()), CVC5_KNOBS),
    };
    let knobs = knobs.iter().map(|(n, vs)| Knob::new(n, vs, 0)).collect();
    let mut space = Space { domains, knobs, default: Recipe(vec![]), slices: true };
    space.default = Recipe(vec![space.plain(0)]);
    space
}

/// The answers of a solver's output: `Some("sat unsat")` when every line is sat or unsat (up
/// to z3's `-st` statistics, which start with `(:`).
pub fn answers(stdout: &str) -> Option<String> {
    let lines: Vec<&str> =
        stdout.lines().map(str::trim).take_while(|l| !l.starts_with("(:")).filter(|l| !l.is_empty()).collect();
    let all = !lines.is_empty() && lines.iter().all(|l| *l == "sat" || *l == "unsat");
    all.then(|| lines.join(" "))
}

impl Target for Smt {
    fn name(&self) -> &str {
        self.solver.name()
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
        self.run_seeded(ing, items, budget, 0)
    }
    fn randomized(&self) -> bool {
        true
    }
    fn run_seeded(
        &self,
        ing: &Ingredient,
        items: &[usize],
        budget: Duration,
        seed: u64,
    ) -> Result<StageRun, TargetError> {
        let mut out = StageRun::default();
        for &i in items {
            let (mut cmd, input) = self.command(ing, &self.texts[i], budget, seed);
            let cap = if self.counter { COUNTER_CPU_CAP } else { budget };
            let ran = run_charged(&mut cmd, &input, cap)
                .map_err(|source| TargetError::Io { what: format!("running {}", self.binary.display()), source })?;
            if self.counter {
                // A run killed before it reports counts its whole budget.
                let whole = u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX);
                let units = rlimit_count(&ran.stdout).filter(|_| !ran.killed).unwrap_or(whole);
                out.used += Duration::from_nanos(units);
                out.over |= ran.killed || u128::from(units) >= budget.as_nanos();
            } else {
                out.used += ran.cpu;
                out.over |= ran.killed;
            }
            match answers(&ran.stdout) {
                Some(a) if !ran.killed => out.verdicts.push((i, Verdict::Resolved(a))),
                _ => {
                    out.verdicts.push((i, Verdict::Unresolved));
                    let first = ran.stdout.lines().chain(ran.stderr.lines()).find(|l| l.contains("error"));
                    out.note = first.map(str::to_string).or(out.note);
                }
            }
        }
        Ok(out)
    }
}

/// z3's `:rlimit-count` from its `-st` statistics.
pub fn rlimit_count(stdout: &str) -> Option<u64> {
    let at = stdout.find(":rlimit-count")?;
    stdout[at + ":rlimit-count".len()..].split_whitespace().next()?.trim_end_matches(')').parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z3_statistics_give_the_counter_and_leave_the_answers() {
        let out = "sat\nunsat\n(:added-eqs 4\n :rlimit-count 1234\n :time 0.01)\n";
        assert_eq!(answers(out), Some("sat unsat".into()));
        assert_eq!(rlimit_count(out), Some(1234));
        assert_eq!(rlimit_count("(:rlimit-count 77)"), Some(77));
        assert_eq!(rlimit_count("sat\n"), None);
    }

    #[test]
    fn answers_need_every_check_sat_decided() {
        assert_eq!(answers("sat\n"), Some("sat".into()));
        assert_eq!(answers("unsat\nsat\n"), Some("unsat sat".into()));
        assert_eq!(answers("unknown\n"), None);
        assert_eq!(answers("(error \"line 1\")\nsat"), None);
        assert_eq!(answers(""), None);
    }

    #[test]
    fn spaces_default_to_the_solver_alone() {
        for s in [Solver::Z3, Solver::Cvc5] {
            let sp = space(s);
            assert_eq!(sp.describe(&sp.default), "default");
            assert!(sp.knobs.iter().all(|k| k.values[k.default] == "default"));
        }
    }
}
