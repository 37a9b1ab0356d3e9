//! A Datalog program as a workload to split (extraction D.2): the units are its relations, and a
//! relation depends on every relation its rules read (the precedence graph). A partition is the
//! sub-program of its relations: their declarations and facts, and the rules whose head and body
//! relations all lie inside. A partition holding a relation's whole dependency closure (k = ∞)
//! derives exactly the relation's tuples; one that lacks part of it loses tuples (or, through
//! negation, gains some), which [`split_loss`] counts against the unsplit program.
//!
//! Plain data in and out: the binary hands the units and edges to the splitting crate, so this
//! leg depends on no other crosscheck crate than core.

use crate::ast::Program;
use crate::eval::{evaluate, Db, Limits, Strategy, Tuple};
use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

/// The program's relations (declared, defined or read) and its dependency edges (head relation,
/// body relation), each once.
pub fn dependencies(p: &Program) -> (Vec<String>, Vec<(String, String)>) {
    let mut units: BTreeSet<String> = p.decls.iter().map(|d| d.name.clone()).collect();
    units.extend(p.facts.iter().map(|f| f.rel.clone()));
    let mut edges = BTreeSet::new();
    for r in &p.rules {
        units.insert(r.head.rel.clone());
        for (body, _) in r.deps() {
            units.insert(body.to_string());
            edges.insert((r.head.rel.clone(), body.to_string()));
        }
    }
    (units.into_iter().collect(), edges.into_iter().collect())
}

/// The sub-program of the relations `rels`.
pub fn restrict(p: &Program, rels: &BTreeSet<String>) -> Program {
    let inside = |r: &str| rels.contains(r);
    Program {
        decls: p.decls.iter().filter(|d| inside(&d.name)).cloned().collect(),
        facts: Arc::new(p.facts.iter().filter(|f| inside(&f.rel)).cloned().collect()),
        rules: p
            .rules
            .iter()
            .filter(|r| inside(&r.head.rel) && r.deps().iter().all(|(b, _)| inside(b)))
            .cloned()
            .collect(),
        outputs: p.outputs.iter().filter(|o| inside(o)).cloned().collect(),
        seed_rels: p.seed_rels.iter().filter(|r| inside(r)).cloned().collect(),
    }
}

/// Tuples of the unsplit program that no partition derived, and tuples a partition derived that
/// the unsplit program does not have, over every relation.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SplitLoss {
    pub tuples: usize,
    pub lost: usize,
    pub extra: usize,
}

/// Evaluates the program whole and each partition apart with the reference evaluator and
/// compares the union of the partitions' relations with the whole program's.
pub fn split_loss(p: &Program, partitions: &[BTreeSet<String>], limits: Limits) -> Result<SplitLoss, String> {
    let whole = evaluate(p, limits, Strategy::SemiNaive)?;
    let mut merged: HashSet<(String, Tuple)> = HashSet::new();
    for part in partitions {
        merged.extend(tuples(&evaluate(&restrict(p, part), limits, Strategy::SemiNaive)?));
    }
    let all = tuples(&whole);
    Ok(SplitLoss { tuples: all.len(), lost: all.difference(&merged).count(), extra: merged.difference(&all).count() })
}

/// The program as one Soufflé file per relation, named `<relation>.dl`: the relation's facts and
/// rules, with the declarations of every relation they read, so that any set of these files
/// parses once repeated declarations are dropped (see [`evaluate_files`]). A relation whose file
/// is absent is then empty: its readers lose tuples (or, through negation, gain some).
pub fn unit_files(p: &Program) -> Vec<(String, String)> {
    let (units, edges) = dependencies(p);
    units
        .iter()
        .map(|rel| {
            let mut needed: BTreeSet<&str> = edges.iter().filter(|(h, _)| h == rel).map(|(_, b)| b.as_str()).collect();
            needed.insert(rel);
            let piece = Program {
                decls: p.decls.iter().filter(|d| needed.contains(d.name.as_str())).cloned().collect(),
                facts: Arc::new(p.facts.iter().filter(|f| &f.rel == rel).cloned().collect()),
                rules: p.rules.iter().filter(|r| &r.head.rel == rel).cloned().collect(),
                outputs: Vec::new(),
                seed_rels: BTreeSet::new(),
            };
            let outputs: Vec<String> = p.outputs.iter().filter(|o| *o == rel).cloned().collect();
            (format!("{rel}.dl"), crate::dialects::souffle::print(&piece, &outputs))
        })
        .collect()
}

/// Evaluates the union of unit files (their texts) with the reference evaluator: every tuple
/// of every relation, as (relation, the tuple as a Soufflé fact).
pub fn evaluate_files(texts: &[String], limits: Limits) -> Result<Vec<(String, String)>, String> {
    let mut seen = HashSet::new();
    let mut joined = String::new();
    for line in texts.iter().flat_map(|t| t.lines()) {
        if line.starts_with(".decl") && !seen.insert(line.to_string()) {
            continue;
        }
        joined.push_str(line);
        joined.push('\n');
    }
    let p = crate::parse::parse(&joined)?;
    let db = evaluate(&p, limits, Strategy::SemiNaive)?;
    let mut out: Vec<(String, String)> =
        tuples(&db).into_iter().map(|(rel, t)| (rel.clone(), crate::dialects::souffle::fact_line(&rel, &t))).collect();
    out.sort();
    Ok(out)
}

fn tuples(db: &Db) -> HashSet<(String, Tuple)> {
    db.iter().flat_map(|(rel, set)| set.iter().map(move |t| (rel.clone(), t.clone()))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    const PROGRAM: &str = ".decl e(x:number, y:number)\n.decl tc(x:number, y:number)\n\
        .decl far(x:number)\n.decl solo(x:number)\n.output tc, far, solo\n\
        e(1,2). e(2,3). e(3,4). solo(9).\n\
        tc(X,Y) :- e(X,Y).\ntc(X,Z) :- tc(X,Y), e(Y,Z).\nfar(X) :- tc(X,4), !e(X,4).\n";

    fn set(rels: &[&str]) -> BTreeSet<String> {
        rels.iter().map(|r| (*r).to_string()).collect()
    }

    #[test]
    fn dependencies_are_the_precedence_graph() {
        let p = parse(PROGRAM).unwrap();
        let (units, edges) = dependencies(&p);
        assert_eq!(units, vec!["e", "far", "solo", "tc"]);
        let edges: Vec<String> = edges.iter().map(|(a, b)| format!("{a}->{b}")).collect();
        assert_eq!(edges, vec!["far->e", "far->tc", "tc->e", "tc->tc"]);
    }

    #[test]
    fn unit_files_evaluate_to_the_program_and_a_missing_one_loses_its_readers_tuples() {
        let p = parse(PROGRAM).unwrap();
        let files = unit_files(&p);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["e.dl", "far.dl", "solo.dl", "tc.dl"]);
        let texts: Vec<String> = files.iter().map(|(_, t)| t.clone()).collect();
        let all = evaluate_files(&texts, Limits::default()).unwrap();
        assert_eq!(all.len(), 12);
        assert!(all.contains(&("far".to_string(), "far(2).".to_string())), "{all:?}");
        // Without tc.dl, far reads an empty tc: far's two tuples and tc's six are gone.
        let no_tc: Vec<String> = files.iter().filter(|(n, _)| n != "tc.dl").map(|(_, t)| t.clone()).collect();
        assert_eq!(evaluate_files(&no_tc, Limits::default()).unwrap().len(), 4);
    }

    #[test]
    fn closures_lose_nothing_and_a_cut_closure_loses_tuples() {
        let p = parse(PROGRAM).unwrap();
        // Closures: {e, tc, far} and {solo}.
        let whole = split_loss(&p, &[set(&["e", "far", "tc"]), set(&["solo"])], Limits::default()).unwrap();
        // e: 3, tc: 6, far: 2 (1 and 2 reach 4 without an edge to it), solo: 1.
        assert_eq!(whole, SplitLoss { tuples: 12, lost: 0, extra: 0 });
        // far without tc derives nothing: its two tuples are lost.
        let cut = split_loss(&p, &[set(&["e", "tc"]), set(&["e", "far"]), set(&["solo"])], Limits::default()).unwrap();
        assert_eq!(cut, SplitLoss { tuples: 12, lost: 2, extra: 0 });
    }
}
