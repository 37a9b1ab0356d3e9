//! The worker's half of yinyang's two oracles (`fusion`, `opfuzz`): seeds, their statuses
//! from the reference solvers (asked once per seed and worker, two agreeing where two are
//! installed), the fused or mutated instance, and the reductions that keep what the oracle
//! relies on.

use crate::case::SmtCase;
use crate::fusion::{self, Input};
use crate::generator::{empty_case, Seed};
use crate::materialize::Materializer;
use crate::solvers::{self, base_name};
use crate::storm::Step;
use crate::term::{Arena, TermId};
use crate::SmtOracle;
use crosscheck_core::{Helpers, Outcome, Verdict};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

/// How a yinyang instance was made: its seeds, what was done to them, and for fusion the
/// status the construction guarantees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Derivation {
    /// `sat` or `unsat` by construction (fusion); `None` for operator mutants.
    pub expected: Option<Verdict>,
    /// Seed names with their status and the solvers that agreed on it.
    pub seeds: Vec<String>,
    /// Fusion functions used, or operator mutations made.
    pub steps: Vec<String>,
}

/// Instances per seed choice (STORM's NM is 1000; yinyang draws new seeds for every mutant, and
/// a fusion of two seeds varies only in its pairs, functions and occurrences).
const PER_CHOICE: u64 = 10;

/// A seed's status: the verdict, a model when sat, and who said so.
#[derive(Clone)]
struct Status {
    verdict: Verdict,
    model: Option<String>,
    who: String,
}

/// Statuses by seed name, kept for the worker's life.
#[derive(Default)]
pub struct Memo {
    status: HashMap<String, Option<Status>>,
}

const STATUS_TIMEOUT: Duration = Duration::from_secs(10);

/// The script of a seed for a reference solver: declarations, assertions, one check-sat.
fn status_script(seed: &Seed, needs_logic: bool, get_model: bool) -> String {
    let mut s = String::new();
    if get_model {
        s.push_str("(set-option :produce-models true)\n");
    }
    match (seed.script.logic(), needs_logic) {
        (Some(l), _) => {
            let _ = writeln!(s, "(set-logic {l})");
        }
        (None, true) => s.push_str("(set-logic ALL)\n"),
        (None, false) => {}
    }
    for d in seed.script.decls() {
        let _ = writeln!(s, "{d}");
    }
    for a in seed.script.asserts() {
        let _ = writeln!(s, "(assert {})", seed.script.arena.to_text(a));
    }
    s.push_str("(check-sat)\n");
    if get_model {
        s.push_str("(get-model)\n");
    }
    s
}

/// The seed's status from the reference solvers (those not under test first): the first two
/// decided answers must agree; with one solver installed, its answer. A sat seed's model comes
/// from the first solver that said sat.
fn status_of(seed: &Seed, tested: &[&str], helpers: &mut Helpers<'_>) -> Option<Status> {
    let mut names: Vec<&str> = ["z3", "cvc5", "yices"].into_iter().filter(|n| !tested.contains(n)).collect();
    names.extend(["z3", "cvc5", "yices"].into_iter().filter(|n| tested.contains(n)));
    let mut decided: Vec<(String, Verdict)> = Vec::new();
    let mut model = None;
    for name in names {
        let Some(engine) = helpers.get(name) else { continue };
        let needs = solvers::has(engine.info(), "needs-logic");
        let who = format!("{} {}", engine.info().name, engine.info().version);
        let out = engine.run(&status_script(seed, needs, false), STATUS_TIMEOUT);
        let v = match &out {
            Outcome::Verdicts { answers, .. } => match answers.first() {
                Some(v @ (Verdict::Sat | Verdict::Unsat)) => *v,
                _ => continue,
            },
            _ => continue,
        };
        if v == Verdict::Sat && model.is_none() {
            if let Outcome::Verdicts { model: Some(m), .. } =
                engine.run(&status_script(seed, needs, true), STATUS_TIMEOUT)
            {
                model = Some(crate::case::normalize_model(&m));
            }
        }
        decided.push((who, v));
        if decided.len() == 2 {
            break;
        }
    }
    let (first, v) = decided.first()?.clone();
    if decided.iter().any(|(_, w)| *w != v) {
        let all: Vec<String> = decided.iter().map(|(w, v)| format!("{w}: {v}")).collect();
        crosscheck_core::notes::note(format!(
            "reference solvers disagree on seed {} ({}); not used",
            seed.name,
            all.join(", ")
        ));
        return None;
    }
    let who = decided.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" and ");
    let _ = first;
    Some(Status { verdict: v, model: if v == Verdict::Sat { model } else { None }, who })
}

/// A yinyang case at `index`: fusion of two seeds of the same status, or an operator mutant.
pub fn case(m: &mut Materializer, index: u64, oracle: SmtOracle, helpers: &mut Helpers<'_>) -> SmtCase {
    let choice = index / PER_CHOICE;
    let (gen_seed, engines, params, tries) = m.setup(choice);
    let engines = engines.to_vec();
    let mut rng = crosscheck_core::rng(gen_seed, 0x7979_0000 ^ index);
    let options = m.sample_options(&mut rng);
    let usable = |s: &Seed| crate::generator::supported_by_all(&s.script, &engines) && !s.script.asserts().is_empty();
    let mut base = empty_case(index, params);
    base.options = options;
    if oracle == SmtOracle::Opfuzz {
        for attempt in 0..tries {
            let Some(seed) = m.seed_for(choice, attempt) else { break };
            if usable(&seed) {
                if let Some(c) = opfuzz_case(&seed, &mut rng, base.clone()) {
                    return c;
                }
            }
        }
        return base;
    }
    let tested: Vec<&str> = engines.iter().map(|e| base_name(&e.name)).collect();
    let mut first: Option<(Seed, Status)> = None;
    // Seeds of one choice in the stream's order: the first decided one, then the next of the
    // same status (itself, renamed, when no other is found).
    for attempt in 0..tries {
        let Some(seed) = m.seed_for(choice, attempt) else { break };
        if !usable(&seed) {
            continue;
        }
        let st =
            m.yinyang.status.entry(seed.name.clone()).or_insert_with(|| status_of(&seed, &tested, helpers)).clone();
        let Some(st) = st else { continue };
        match &first {
            None => first = Some((seed, st)),
            Some((a, sa))
                if sa.verdict == st.verdict && a.name != seed.name && fusion::share_a_sort(&a.script, &seed.script) =>
            {
                let (a, sa) = (a.clone(), sa.clone());
                return fusion_case(&a, &sa, &seed, &st, &mut rng, base);
            }
            Some(_) => {}
        }
    }
    match first {
        Some((a, sa)) => fusion_case(&a, &sa, &a, &sa, &mut rng, base),
        None => base,
    }
}

fn fusion_case(a: &Seed, sa: &Status, b: &Seed, sb: &Status, rng: &mut impl Rng, base: SmtCase) -> SmtCase {
    let ia = Input { name: &a.name, script: &a.script, status: sa.verdict, model: sa.model.as_deref() };
    let ib = Input { name: &b.name, script: &b.script, status: sb.verdict, model: sb.model.as_deref() };
    let Some(f) = fusion::fuse(&ia, &ib, rng) else { return base };
    SmtCase {
        seed: format!("{}+{}", a.name, b.name),
        logic: f.logic,
        decls: f.decls,
        steps: f.asserts.into_iter().map(Step::Assert).chain([Step::CheckSat]).collect(),
        model_source: "none (status by construction)".into(),
        sat_by_construction: false,
        derived: Some(Derivation {
            expected: Some(sa.verdict),
            seeds: vec![
                format!("{}: {} ({})", a.name, sa.verdict, sa.who),
                format!("{}: {} ({})", b.name, sb.verdict, sb.who),
            ],
            steps: f.how,
        }),
        ..base
    }
}

fn opfuzz_case(seed: &Seed, rng: &mut impl Rng, base: SmtCase) -> Option<SmtCase> {
    let mut arena = seed.script.arena.clone();
    let roots = seed.script.asserts();
    if roots.iter().any(|&t| arena.size(t) > 50_000) {
        return None;
    }
    let k = rng.gen_range(1..=3);
    let (mutated, done) = crate::opfuzz::mutate(&mut arena, &roots, k, rng);
    if done.is_empty() {
        return None;
    }
    let arith = done.iter().any(|d| d.split(" -> ").any(|op| ["+", "-", "*", "div", "mod", "abs"].contains(&op)));
    let logic = seed.script.logic().map(|l| if arith { crate::opfuzz::widen_logic(l) } else { l.to_string() });
    Some(SmtCase {
        seed: seed.name.clone(),
        logic,
        decls: seed.script.decls(),
        steps: mutated.iter().map(|&t| Step::Assert(arena.to_text(t))).chain([Step::CheckSat]).collect(),
        model_source: "none (judged differentially)".into(),
        sat_by_construction: false,
        derived: Some(Derivation { expected: None, seeds: vec![seed.name.clone()], steps: done }),
        ..base
    })
}

/// Smaller variants that keep the oracle's guarantee. A sat fusion stays sat when formulas are
/// weakened (an assertion dropped, a conjunct dropped where it counts positively, a disjunct
/// where negatively); an unsat fusion stays unsat when strengthened (a disjunct dropped where
/// it counts positively, a conjunct where negatively): the fused status stays known.
/// Operator mutants are judged differentially, so any variant is fair: both kinds.
pub fn shrink(case: &SmtCase, d: &Derivation) -> Vec<SmtCase> {
    let texts: Vec<String> = case.asserts().cloned().collect();
    let mut out = Vec::new();
    let weaken = d.expected != Some(Verdict::Unsat);
    let strengthen = d.expected != Some(Verdict::Sat);
    if weaken {
        out.extend(crosscheck_core::reduce::cuts(&texts, 1).into_iter().map(|a| with_asserts(case, a)));
    }
    let mut arena = Arena::new();
    for (i, text) in texts.iter().enumerate() {
        let Ok(t) = arena.parse_term(text) else { continue };
        let mut vs = Vec::new();
        if weaken {
            edits(&mut arena, t, true, "and", &mut vs);
        }
        if strengthen {
            edits(&mut arena, t, true, "or", &mut vs);
        }
        for v in vs {
            let mut a = texts.clone();
            a[i] = arena.to_text(v);
            out.push(with_asserts(case, a));
        }
    }
    if !case.options.is_empty() {
        out.push(SmtCase { options: Default::default(), ..case.clone() });
    }
    out
}

fn with_asserts(case: &SmtCase, asserts: Vec<String>) -> SmtCase {
    let mut c = case.clone();
    c.steps = asserts.into_iter().map(Step::Assert).chain([Step::CheckSat]).collect();
    c
}

/// Variants of `t` with one argument dropped from a `op` node in positive polarity (or from
/// the dual connective in negative polarity): weakening for `and`, strengthening for `or`.
/// Descends through and/or/not only, where polarity is defined.
fn edits(arena: &mut Arena, t: TermId, positive: bool, op: &str, out: &mut Vec<TermId>) {
    const MAX: usize = 200;
    let dual = if op == "and" { "or" } else { "and" };
    let Some((head, args)) = arena.as_app(t).map(|(h, a)| (h.to_string(), a.to_vec())) else { return };
    let target = if positive { op } else { dual };
    if head == target && args.len() >= 2 {
        for i in 0..args.len() {
            if out.len() >= MAX {
                return;
            }
            let mut rest = args.clone();
            rest.remove(i);
            out.push(if rest.len() == 1 { rest[0] } else { arena.app(&head, rest) });
        }
    }
    let child_positive = match head.as_str() {
        "and" | "or" => positive,
        "not" => !positive,
        _ => return,
    };
    for (i, &c) in args.iter().enumerate() {
        let mut sub = Vec::new();
        edits(arena, c, child_positive, op, &mut sub);
        for s in sub {
            if out.len() >= MAX {
                return;
            }
            let mut a = args.clone();
            a[i] = s;
            out.push(arena.app(&head, a));
        }
    }
}

/// Why a yinyang instance's status is what the finding says, for the reproducer's comments.
pub fn explain(d: &Derivation) -> String {
    let mut s = String::new();
    match d.expected {
        Some(Verdict::Sat) => s.push_str(
            "\nSAT fusion of two sat seeds: their conjunction, with some occurrences of x replaced by\n\
             r_x(y, z) and of y by r_y(x, z). The seeds' models plus z = f(x, y) satisfy it (the\n\
             inversions give back x and y), so the expected answer is sat.\n",
        ),
        Some(Verdict::Unsat) => s.push_str(
            "\nUNSAT fusion of two unsat seeds: their disjunction, with occurrences replaced as above,\n\
             and z = f(x, y), x = r_x(y, z), y = r_y(x, z) asserted. Under those every replaced\n\
             occurrence equals the variable it replaced, so a model would satisfy an unsat seed:\n\
             the expected answer is unsat.\n",
        ),
        _ => s.push_str(
            "\nOperator mutant of a seed (type-aware operator mutation), judged by the solvers' disagreement.\n",
        ),
    }
    for seed in &d.seeds {
        let _ = writeln!(s, "  seed {seed}");
    }
    for step in &d.steps {
        let _ = writeln!(s, "  {step}");
    }
    s
}
