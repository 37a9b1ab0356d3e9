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
