//! Splitting SMT-LIB scripts by assertion (issue 16, extraction D.2) on z3: partitions that keep
//! every connected component of the constraint–symbol graph whole (SPLITMERGE, k = ∞) give the
//! whole script's verdict (`unsat` iff some partition is); one assertion per partition can lose
//! an `unsat`, never invent one.

use crosscheck_core::{Engine, Outcome, Verdict};
use crosscheck_smt::split::{joined, unit_files};
use crosscheck_split::{plan, DepGraph, Radius, Strategy};
use rand::SeedableRng;
use std::time::Duration;

fn verdict(z3: &mut dyn Engine, script: &str) -> Option<Verdict> {
    match z3.run(script, Duration::from_secs(20)) {
        Outcome::Verdicts { answers, .. } => answers.last().copied().filter(|v| *v != Verdict::Unknown),
        _ => None,
    }
}

/// The split verdict: `unsat` when some partition is, `sat` when all are; `None` if one is unknown.
fn split_verdict(z3: &mut dyn Engine, texts: &[String], g: &DepGraph, size: usize) -> Option<Verdict> {
    let parts = plan(g, &Strategy::SplitMerge { k: Radius::All, p: 0.1 }, size).unwrap_or_else(|e| panic!("{e}"));
    let mut all = Verdict::Sat;
    for p in parts {
        let piece: Vec<String> = p.iter().map(|&u| texts[u as usize].clone()).collect();
        if verdict(z3, &joined(&piece))? == Verdict::Unsat {
            all = Verdict::Unsat;
        }
    }
    Some(all)
}

#[test]
fn components_keep_the_verdict_and_single_assertions_never_invent_unsat() {
    let Some(mut z3) = crate::common::open("z3") else { return };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
    let (mut checked, mut unsat, mut lost) = (0, 0, 0);
    for _ in 0..40 {
        let src = crosscheck_smt::seedgen::random_seed(&mut rng);
        let (files, edges) = unit_files(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        if files.is_empty() {
            continue;
        }
        // Units are numbered in name order, which is the files' order.
        let texts: Vec<String> = files.iter().map(|(_, t)| t.clone()).collect();
        let g = DepGraph::new(files.iter().map(|(n, _)| n.clone()), edges).unwrap_or_else(|e| panic!("{e}"));
        let Some(whole) = verdict(z3.as_mut(), &joined(&texts)) else { continue };
        let Some(split) = split_verdict(z3.as_mut(), &texts, &g, g.len()) else { continue };
        assert_eq!(split, whole, "{src}");
        let Some(single) = split_verdict(z3.as_mut(), &texts, &g, 1) else { continue };
        assert!(!(single == Verdict::Unsat && whole == Verdict::Sat), "a subset of a sat script is unsat:\n{src}");
        checked += 1;
        unsat += usize::from(whole == Verdict::Unsat);
        lost += usize::from(whole == Verdict::Unsat && single == Verdict::Sat);
    }
    assert!(checked >= 30 && unsat > 0, "checked {checked}, unsat {unsat}");
    println!("{checked} scripts, {unsat} unsat, {lost} unsat verdicts lost with one assertion per partition");
}
