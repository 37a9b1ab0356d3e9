//! Known answers for the tuner on a synthetic target whose costs are fixed tables: the default
//! kept when nothing beats it, the budget of evaluations, DARS's antichains, Algorithm 7's
//! frequencies, contradictions and warning signs never winning.

use crosscheck_tune::search::{dars_recipe, draw_action, generate_recipe, random_recipe, sa_probability, Action};
use crosscheck_tune::{
    optimize, Algo, Cost, Evaluation, Evaluator, Ingredient, ItemResult, Knob, Params, Poset, Recipe, RecipeFile,
    Sharing, Space, StageRun, Target, TargetError, Verdict, Versus,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::time::Duration;

const DOMAINS: [&str; 10] =
    ["bool", "intervals", "zones", "octagons", "polyhedra", "ric", "term-int", "disint", "boxes", "term-disint"];

fn crab() -> Poset {
    Poset::from_edges(
        &DOMAINS,
        &[
            ("intervals", "zones"),
            ("zones", "octagons"),
            ("octagons", "polyhedra"),
            ("intervals", "ric"),
            ("intervals", "term-int"),
            ("intervals", "disint"),
            ("disint", "boxes"),
            ("disint", "term-disint"),
        ],
    )
}

/// A target of `n` items where domain `d` resolves the items `resolves(d, delay)` answers for,
/// with the answer `answer(d, item)`, in `secs[d]` seconds of a 10-second limit.
struct Toy {
    space: Space,
    n: usize,
    sharing: Sharing,
    resolves: fn(&str, &str, usize) -> Option<&'static str>,
    secs: fn(&str) -> u64,
    guards: fn(&str) -> Vec<&'static str>,
    /// A randomized toy: the answer of item `i` under solver seed `s`, charged `1 + s` seconds.
    by_seed: Option<fn(usize, u64) -> Option<&'static str>>,
}

impl Toy {
    fn new(resolves: fn(&str, &str, usize) -> Option<&'static str>) -> Toy {
        let domains = crab();
        let i = domains.index("intervals").unwrap_or(0);
        let knobs = vec![Knob::new("delay", &["1", "2", "4", "8"], 0), Knob::new("narrow", &["1", "2"], 0)];
        let mut space = Space { domains, knobs, default: Recipe(vec![]), slices: true };
        space.default = Recipe(vec![space.plain(i)]);
        Toy { space, n: 10, sharing: Sharing::PerRun, resolves, secs: |_| 1, guards: |_| vec![], by_seed: None }
    }
}

impl Target for Toy {
    fn name(&self) -> &str {
        "toy"
    }
    fn space(&self) -> &Space {
        &self.space
    }
    fn items(&self) -> usize {
        self.n
    }
    fn item_name(&self, i: usize) -> String {
        format!("item{i}")
    }
    fn sharing(&self) -> Sharing {
        self.sharing
    }
    fn run(&self, ing: &Ingredient, items: &[usize], budget: Duration) -> Result<StageRun, TargetError> {
        let d = self.space.domains.name(ing.domain);
        let delay = self.space.value(ing, "delay").unwrap_or("1");
        let t = Duration::from_secs((self.secs)(d));
        let over = t > budget;
        let verdicts = if over {
            vec![]
        } else {
            items
                .iter()
                .filter_map(|&i| (self.resolves)(d, delay, i).map(|a| (i, Verdict::Resolved(a.to_string()))))
                .collect()
        };
        let guards: BTreeSet<String> = (self.guards)(d).into_iter().map(String::from).collect();
        Ok(StageRun { verdicts, used: t.min(budget), over, guards, note: None })
    }
    fn randomized(&self) -> bool {
        self.by_seed.is_some()
    }
    fn run_seeded(
        &self,
        ing: &Ingredient,
        items: &[usize],
        budget: Duration,
        seed: u64,
    ) -> Result<StageRun, TargetError> {
        let Some(answer) = self.by_seed else { return self.run(ing, items, budget) };
        let verdicts =
            items.iter().filter_map(|&i| answer(i, seed).map(|a| (i, Verdict::Resolved(a.into())))).collect();
        Ok(StageRun { verdicts, used: Duration::from_secs(1 + seed), ..StageRun::default() })
    }
}

fn tune(t: &Toy, p: &Params) -> (crosscheck_tune::Tuned, usize, usize) {
    let mut ev = Evaluator::new(t, Duration::from_secs(10), 1);
    let tuned = optimize(&mut ev, p).unwrap_or_else(|e| panic!("{e}"));
    (tuned, ev.evaluations, ev.findings.len())
}

fn params(algo: Algo, seed: u64) -> Params {
    Params { algo, seed, ..Params::default() }
}

#[test]
fn the_default_is_kept_when_nothing_beats_it() {
    // Intervals resolves items 0..5; every other domain resolves fewer, or the same more slowly.
    let mut t = Toy::new(|d, _, i| match d {
        "intervals" | "zones" => (i < 5).then_some("valid"),
        _ => (i < 2).then_some("valid"),
    });
    t.secs = |d| if d == "intervals" { 1 } else { 2 };
    for algo in Algo::ALL {
        for seed in 0..3 {
            let (tuned, _, _) = tune(&t, &params(algo, seed));
            assert_eq!(tuned.best.recipe, t.space.default, "{algo:?} seed {seed}");
            assert_eq!(tuned.best.resolved(), 5);
        }
    }
}

#[test]
fn the_budget_of_evaluations_is_respected() {
    let t = Toy::new(|d, _, i| (d == "boxes" && i < 7).then_some("valid"));
    for algo in Algo::ALL {
        let (tuned, evals, _) = tune(&t, &params(algo, 1));
        assert_eq!(Params::default().budget(), 41);
        assert_eq!(evals, 41, "{algo:?}");
        assert_eq!(tuned.history.len(), 41);
        let p = Params { algo, max_len: 2, i_dom: 2, i_set: 3, seed: 4, ..Params::default() };
        let (_, evals, _) = tune(&t, &p);
        assert_eq!(evals, 1 + 2 * 3 + 3, "{algo:?}");
    }
}

#[test]
fn search_finds_the_recipe_that_resolves_more() {
    // zones resolves 0..4, disint 4..8, delay 4 on disint also item 9: a two-stage recipe with
    // a tuned knob resolves 9 of 10 where the default (intervals) resolves 2.
    let t = Toy::new(|d, delay, i| match (d, i) {
        ("intervals", 0..=1) | ("zones", 0..=3) | ("disint", 4..=7) => Some("valid"),
        ("disint", 9) if delay == "4" => Some("valid"),
        _ => None,
    });
    let mut best = 0;
    for seed in 0..5 {
        let (tuned, _, _) = tune(&t, &params(Algo::Dars, seed));
        assert!(tuned.best.resolved() >= tuned.default.resolved());
        best = best.max(tuned.best.resolved());
    }
    assert!(best >= 8, "DARS over 5 seeds found {best} of 10");
}

#[test]
fn a_contradicting_configuration_is_a_finding_never_a_winner() {
    // boxes resolves everything, but answers item 0 "invalid" where intervals said "valid".
    let t = Toy::new(|d, _, i| match d {
        "boxes" => Some(if i == 0 { "invalid" } else { "valid" }),
        "intervals" => (i < 3).then_some("valid"),
        _ => None,
    });
    let mut found = 0;
    for algo in Algo::ALL {
        for seed in 0..4 {
            let (tuned, _, findings) = tune(&t, &params(algo, seed));
            found += findings;
            let boxes = tuned.best.recipe.0.iter().any(|i| i.domain == 8 && i.knobs == [0, 0]);
            assert!(!boxes || findings == 0, "{algo:?} {seed}: boxes won after contradicting");
            assert!(tuned.best.cost.is_finite());
        }
    }
    assert!(found > 0, "some search met boxes");
}

#[test]
fn warning_signs_and_overruns_cost_infinity() {
    let mut t = Toy::new(|d, _, _| (d != "intervals").then_some("valid"));
    t.guards = |d| if d == "intervals" { vec![] } else { vec!["stopped-propagation"] };
    let (tuned, _, _) = tune(&t, &params(Algo::Dars, 0));
    assert_eq!(tuned.best.recipe, t.space.default, "every other domain stops propagation");
    let others = tuned.history.iter().filter(|(r, _, _)| r.domains() != [1]);
    assert!(others.clone().count() > 20);
    assert!(others.into_iter().all(|(_, c, why)| !c.is_finite() && why.is_some()));

    let mut t = Toy::new(|_, _, _| Some("valid"));
    t.secs = |d| if d == "intervals" { 1 } else { 11 };
    let mut ev = Evaluator::new(&t, Duration::from_secs(10), 1);
    let d = ev.evaluate(&t.space.default).expect("toy");
    assert!((d.cost.0 - 0.01).abs() < 1e-9, "all resolved in 1 of 10 s: {:?}", d.cost);
    let zones = Recipe(vec![t.space.plain(2)]);
    assert_eq!(ev.evaluate(&zones).expect("toy").cost, Cost::INFINITE);
}

#[test]
fn a_stage_gets_only_the_items_still_unresolved() {
    let t = Toy::new(|d, _, i| match d {
        "zones" => (i < 6).then_some("valid"),
        "disint" => (i >= 4).then_some("valid"),
        _ => None,
    });
    let mut ev = Evaluator::new(&t, Duration::from_secs(10), 1);
    let r = Recipe(vec![t.space.plain(2), t.space.plain(7)]);
    let e = ev.evaluate(&r).expect("toy");
    assert_eq!(e.resolved(), 10);
    let stages: Vec<Option<usize>> = e.items.iter().map(|i| i.stage).collect();
    assert_eq!(stages[3], Some(0));
    assert_eq!(stages[5], Some(0), "resolved by the first stage, not asked again");
    assert_eq!(stages[8], Some(1));
    assert!((e.cost.0 - 0.02).abs() < 1e-9, "(0 + 2/10) / 10: {:?}", e.cost);
}

#[test]
fn per_item_stages_take_their_slice_of_the_limit() {
    // Each item needs 3 s of "disint"; zones costs 10 s and resolves nothing.
    let mut t = Toy::new(|d, _, _| (d == "disint").then_some("valid"));
    t.sharing = Sharing::PerItem;
    t.n = 4;
    t.secs = |d| match d {
        "disint" => 3,
        _ => 10,
    };
    let mut ev = Evaluator::new(&t, Duration::from_secs(10), 2);
    let mut first = t.space.plain(2);
    first.slice = 1; // 25% of 10 s
    let e = ev.evaluate(&Recipe(vec![first, t.space.plain(7)])).expect("toy");
    assert_eq!(e.resolved(), 4);
    assert!(e.items.iter().all(|i| i.used == Duration::from_millis(5500)), "{:?}", e.items);
    assert!(e.cost.is_finite());
}

#[test]
fn dars_recipes_never_hold_two_comparable_domains() {
    let t = Toy::new(|_, _, _| None);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..2000 {
        let r = dars_recipe(&t.space, 3, &mut rng);
        assert!(t.space.domains.compatible(&r.domains()), "{r:?}");
        let m = generate_recipe(&t.space, &r, 3, &mut rng);
        assert!(t.space.domains.compatible(&m.domains()), "{m:?}");
        assert!(m.0.len() <= 3);
    }
}

#[test]
fn the_random_samplers_draw_fixpoint_knobs_and_leave_the_others_to_phase_2() {
    let mut t = Toy::new(|_, _, _| None);
    t.space.knobs[0].fixpoint = true;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut seen = [0usize; 4];
    for _ in 0..4000 {
        for ing in dars_recipe(&t.space, 3, &mut rng).0.into_iter().chain(random_recipe(&t.space, 2, &mut rng).0) {
            seen[ing.knobs[0]] += 1;
            assert_eq!(ing.knobs[1], 0, "a knob that is not a fixpoint knob waits for phase 2");
        }
    }
    let total: usize = seen.iter().sum();
    assert!(seen.iter().all(|&c| (c as f64 / total as f64 - 0.25).abs() < 0.02), "uniform, default included: {seen:?}");
}

#[test]
fn items_compare_with_the_default_by_answer_then_by_use() {
    let r = |verdict: Verdict, ms: u64| ItemResult {
        verdict,
        stage: Some(0),
        used: Duration::from_millis(ms),
        conflict: None,
    };
    let sat = || Verdict::Resolved("sat".into());
    let limit = Duration::from_secs(10);
    assert_eq!(r(sat(), 9000).versus(&r(Verdict::Unresolved, 10_000), limit), Versus::Better);
    assert_eq!(r(Verdict::Unresolved, 10).versus(&r(sat(), 9000), limit), Versus::Worse);
    // 1.25 x 100 ms + 0.5% of 10 s = 175 ms: noise up to it, slower past it.
    assert_eq!(r(sat(), 175).versus(&r(sat(), 100), limit), Versus::Equal);
    assert_eq!(r(sat(), 176).versus(&r(sat(), 100), limit), Versus::Worse);
    assert_eq!(r(Verdict::Unreachable, 0).versus(&r(Verdict::Resolved("valid".into()), 0), limit), Versus::Equal);
}

#[test]
fn a_refused_evaluation_is_credited_nothing() {
    let item = |verdict: Verdict| ItemResult { verdict, stage: Some(0), used: Duration::ZERO, conflict: None };
    let valid = || Verdict::Resolved("valid".into());
    let eval = |items: Vec<ItemResult>, rejected: Option<&str>| Evaluation {
        recipe: Recipe(Vec::new()),
        cost: if rejected.is_some() { Cost::INFINITE } else { Cost(0.5) },
        items,
        used: Duration::ZERO,
        rejected: rejected.map(str::to_string),
        guards: BTreeSet::new(),
    };
    let default = eval(vec![item(valid()), item(Verdict::Unresolved), item(Verdict::Unresolved)], None);
    let refused =
        eval(vec![item(valid()), item(Verdict::Unreachable), item(valid())], Some("a red status the default lacks"));
    assert_eq!((refused.resolved(), refused.credited(), refused.credited_unreachable()), (3, 0, 0));
    assert_eq!(refused.versus(&default, Duration::from_secs(1)), [0, 2, 1], "the default's item lost, none won");
    let over = Evaluation { rejected: None, ..refused.clone() };
    assert_eq!(over.refused(), Some("past the limit"));
    assert_eq!((default.credited(), default.refused()), (1, None));
}

#[test]
fn algorithm_7_draws_its_actions_with_the_seed_probabilities() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let n = 100_000;
    let mut counts = [0usize; 4];
    for _ in 0..n {
        counts[draw_action(1, 3, &mut rng) as usize] += 1;
    }
    let share = |c: usize| c as f64 / n as f64;
    let expect = [0.2, 0.8 * 0.5, 0.8 * 0.3, 0.8 * 0.2];
    for (c, e) in counts.iter().zip(expect) {
        assert!((share(*c) - e).abs() < 0.01, "{counts:?}");
    }
    assert!((0..1000).all(|_| draw_action(3, 3, &mut rng) != Action::Add), "a full recipe is modified");
}

#[test]
fn simulated_annealing_accepts_as_the_repository_does() {
    // The extraction's example: 45 assertions, one more warning, T = 40 -> 0.57; T = 10 -> 0.11.
    let (a, b) = (Cost(10.0 / 45.0), Cost(11.0 / 45.0));
    assert!((sa_probability(a, b, 40) - 0.575).abs() < 0.01);
    assert!((sa_probability(a, b, 10) - 0.110).abs() < 0.01);
    assert_eq!(sa_probability(b, a, 1), 1.0);
    assert_eq!(sa_probability(a, Cost::INFINITE, 40), 0.0);
}

#[test]
fn recipe_files_replay_by_name() {
    let t = Toy::new(|_, _, _| None);
    let mut ing = t.space.plain(7);
    ing.knobs[0] = 2;
    let r = Recipe(vec![t.space.plain(2), ing]);
    let file = RecipeFile::of(&t.space, &r);
    assert_eq!(file.to_string(), "zones @0.5 ; disint delay=4");
    let text = serde_json::to_string(&file).expect("serializes");
    let back: RecipeFile = serde_json::from_str(&text).expect("parses");
    assert_eq!(back.resolve(&t.space), Ok(r));
    let mut bad = back.clone();
    bad.stages[0].domain = "apron".into();
    assert_eq!(bad.resolve(&t.space), Err("unknown domain \"apron\"".into()));
}

#[test]
fn a_resumed_search_reads_its_evaluations_back_instead_of_running_them() {
    let t = Toy::new(|d, delay, i| ((d == "zones" && i < 5) || (d == "boxes" && delay == "4")).then_some("valid"));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("toy.jsonl");
    let p = Params { confirm: 0, ..params(Algo::Dars, 3) };
    let limit = Duration::from_secs(10);
    let mut ev = Evaluator::new(&t, limit, 1);
    ev.keep_journal(&path, "toy", false).expect("journal");
    let first = optimize(&mut ev, &p).expect("toy");
    let ran = ev.runs;
    assert!(ran > 0 && first.best.resolved() > first.default.resolved());

    // Stopped half way, its last line cut short as a crash leaves it.
    let text = std::fs::read_to_string(&path).expect("journal");
    let lines: Vec<&str> = text.lines().collect();
    let keep = lines.len() / 2;
    std::fs::write(&path, format!("{}\n{}", lines[..keep].join("\n"), &lines[keep][..12])).expect("write");
    let mut half = Evaluator::new(&t, limit, 1);
    half.keep_journal(&path, "toy", true).expect("resume");
    assert_eq!(half.resumed, keep - 1, "the header and the cut line are not evaluations");
    let second = optimize(&mut half, &p).expect("toy");
    assert_eq!(second.best.recipe, first.best.recipe);
    assert!(half.runs > 0 && half.runs < ran, "{} of {ran} runs again", half.runs);

    // The journal is whole again: resuming once more runs nothing.
    let mut whole = Evaluator::new(&t, limit, 1);
    whole.keep_journal(&path, "toy", true).expect("resume");
    let third = optimize(&mut whole, &p).expect("toy");
    assert_eq!((third.best.recipe, whole.runs), (first.best.recipe, 0));
    assert_eq!(third.best.cost, first.best.cost);

    // A journal measured under another limit does not compare.
    let mut other = Evaluator::new(&t, Duration::from_secs(5), 1);
    let err = other.keep_journal(&path, "toy", true).expect_err("another limit");
    assert!(err.contains("written for toy"), "{err}");
}

#[test]
fn solver_seeds_are_averaged_and_a_seed_that_flips_an_answer_is_a_finding() {
    let mut t = Toy::new(|_, _, _| None);
    t.sharing = Sharing::PerItem;
    t.n = 4;
    t.by_seed = Some(|i, s| match (i, s) {
        (0, _) | (1 | 2, 0) | (2, 1) => Some("sat"),
        (3, 0) => Some("sat"),
        (3, 1) => Some("unsat"),
        _ => None,
    });
    let mut one = Evaluator::new(&t, Duration::from_secs(10), 1);
    let e = one.evaluate(&t.space.default).expect("toy");
    assert_eq!((e.resolved(), one.findings.len(), one.runs), (4, 0, 4), "one seed sees no flip");

    let mut three = Evaluator::new(&t, Duration::from_secs(10), 2);
    three.seeds = 3;
    let e = three.evaluate(&t.space.default).expect("toy");
    assert_eq!(three.runs, 12, "each item under each seed");
    let got: Vec<bool> = e.items.iter().map(|r| matches!(r.verdict, Verdict::Resolved(_))).collect();
    assert_eq!(got[..3], [true, false, true], "resolved when at least half of the seeds resolve it");
    assert_eq!(e.items[0].used, Duration::from_secs(2), "the mean of 1, 2 and 3 s");
    assert_eq!(three.findings.len(), 1);
    assert_eq!(three.findings[0].item, 3);
    assert!(e.rejected.is_some_and(|w| w.contains("under another seed")));
}
