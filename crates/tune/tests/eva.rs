//! The Eva target on the committed fixtures (small C programs whose statuses are known):
//! default Eva leaves 3 of 23 properties of `loops.c` Unknown and a larger slevel proves them;
//! on `bug.c` (a real out-of-bounds write) a larger slevel stops propagation where the default
//! did not, so that recipe may never win although it leaves nothing more Unknown.

use crosscheck_tune::targets::eva::{programs, Eva};
use crosscheck_tune::{optimize, Algo, Evaluator, Params, Recipe, Target};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn frama_c() -> Option<PathBuf> {
    let found = crosscheck_engines::transport::process::find_tool("frama-c");
    if found.is_none() {
        assert!(!crosscheck_engines::testing::required("frama-c"), "frama-c is required but not installed");
        println!("skipped: frama-c is not installed (scripts/install-tune-tools.sh)");
    }
    found
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eva").join(name)
}

fn with_knob(t: &Eva, knob: &str, value: &str) -> Recipe {
    let s = t.space();
    let mut ing = s.plain(0);
    let k = s.knobs.iter().position(|k| k.name == knob).unwrap_or_else(|| panic!("no knob {knob}"));
    ing.knobs[k] = s.knobs[k].values.iter().position(|v| v == value).unwrap_or_else(|| panic!("no value {value}"));
    Recipe(vec![ing])
}

#[test]
fn slevel_proves_what_the_default_leaves_unknown() {
    let Some(bin) = frama_c() else { return };
    let t = Eva::new(&bin, "loops.c", &[fixture("loops.c")], &[]).expect("frama-c lists the properties");
    assert_eq!(t.items(), 23);
    let mut ev = Evaluator::new(&t, Duration::from_secs(20), 1);
    let default = ev.evaluate(&t.space().default.clone()).expect("eva runs");
    assert_eq!(default.resolved(), 20);
    let tuned = ev.evaluate(&with_knob(&t, "slevel", "100")).expect("eva runs");
    assert_eq!(tuned.resolved(), 23);
    assert!(tuned.cost.lt(default.cost));
    assert!(tuned.rejected.is_none());
}

#[test]
fn a_recipe_that_stops_propagation_never_wins() {
    let Some(bin) = frama_c() else { return };
    let t = Eva::new(&bin, "bug.c", &[fixture("bug.c")], &[]).expect("frama-c lists the properties");
    let mut ev = Evaluator::new(&t, Duration::from_secs(20), 1);
    let default = ev.evaluate(&t.space().default.clone()).expect("eva runs");
    assert!(default.rejected.is_none());
    let deep = ev.evaluate(&with_knob(&t, "slevel", "100")).expect("eva runs");
    let why = deep.rejected.unwrap_or_default();
    assert!(why.contains("stopping propagation"), "{why}");
    assert!(!deep.cost.is_finite());
}

#[test]
fn a_small_search_on_a_fixture_is_never_worse_than_the_default() {
    let Some(bin) = frama_c() else { return };
    let progs = programs(&fixture("")).expect("fixtures");
    assert_eq!(progs.len(), 6, "{:?}", progs.iter().map(|p| &p.0).collect::<Vec<_>>());
    let t = Eva::new(&bin, "pointers.c", &[fixture("pointers.c")], &[]).expect("frama-c lists the properties");
    let mut ev = Evaluator::new(&t, Duration::from_secs(20), 1);
    let p = Params { algo: Algo::Dars, max_len: 1, i_dom: 2, i_set: 2, seed: 1, ..Params::default() };
    let tuned = optimize(&mut ev, &p).expect("eva runs");
    assert_eq!(ev.evaluations, p.budget());
    assert_eq!(tuned.default.resolved(), 6);
    assert!(tuned.best.resolved() >= 6);
}

fn dead_fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eva-dead").join(name)
}

#[test]
fn code_proven_dead_by_precision_resolves_its_properties() {
    let Some(bin) = frama_c() else { return };
    let t = Eva::new(&bin, "dead.c", &[dead_fixture("dead.c")], &[]).expect("frama-c lists the properties");
    assert_eq!(t.items(), 4);
    let mut ev = Evaluator::new(&t, Duration::from_secs(20), 1);
    let default = ev.evaluate(&t.space().default.clone()).expect("eva runs");
    assert_eq!((default.resolved(), default.unreachable()), (2, 0));
    let split = ev.evaluate(&with_knob(&t, "slevel", "10")).expect("eva runs");
    assert!(split.rejected.is_none(), "{:?}", split.rejected);
    assert_eq!((split.resolved(), split.unreachable()), (4, 2), "t[x] proven, the overflow's branch dead");
    assert!(split.cost.lt(default.cost));
}

#[test]
fn code_made_dead_by_an_alarm_never_wins() {
    let Some(bin) = frama_c() else { return };
    let t = Eva::new(&bin, "cut.c", &[dead_fixture("cut.c")], &[]).expect("frama-c lists the properties");
    let mut ev = Evaluator::new(&t, Duration::from_secs(20), 1);
    let default = ev.evaluate(&t.space().default.clone()).expect("eva runs");
    assert!(default.rejected.is_none());
    assert_eq!((default.resolved(), default.unreachable()), (2, 0));
    let split = ev.evaluate(&with_knob(&t, "slevel", "10")).expect("eva runs");
    // The cut leaves r + 1 dead while t[k] stays Unknown: without the red status the recipe
    // would resolve as much as the default, sooner.
    assert_eq!(split.unreachable(), 1);
    let why = split.rejected.unwrap_or_default();
    assert!(why.contains("red: cut.c:11:main:index_bound:k < 4"), "{why}");
    assert!(!split.cost.is_finite());
}
