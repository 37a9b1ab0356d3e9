//! An SMT-LIB script as a workload to split (extraction D.2): the units are its assertions, and
//! two assertions depend on each other when they share a declared symbol (the
//! constraint–variable graph). A partition is a subset of the assertions with the declarations
//! they use: `unsat` of any partition is `unsat` of the whole; with whole connected components
//! (k = ∞) `sat` of every partition is `sat` of the whole, since components share no symbol.
//!
//! Plain data in and out: the binary hands units and edges to the splitting crate.

use crate::sexp::{parse_all, Sexp};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Commands every unit file repeats: they declare sorts or set up the solver, not symbols an
/// assertion owns.
const SHARED: &[&str] =
    &["set-logic", "set-option", "set-info", "declare-sort", "define-sort", "declare-datatype", "declare-datatypes"];
const DECLS: &[&str] = &["declare-fun", "declare-const", "define-fun", "define-fun-rec"];

/// A unit file (name, text), or a dependency edge between two unit files (by name).
pub type Pair = (String, String);

/// One unit file per assertion, `a<N>.smt2` (one command per line: the shared commands, the
/// declarations of the symbols the assertion uses, itself), and the dependency edges between
/// assertions that share a declared symbol, both ways.
pub fn unit_files(src: &str) -> Result<(Vec<Pair>, Vec<Pair>), String> {
    let commands = parse_all(src).map_err(|e| e.to_string())?;
    let head = |c: &Sexp| c.list().and_then(|l| l.first()).and_then(Sexp::atom).map(str::to_string);
    let shared: Vec<String> = commands
        .iter()
        .filter(|c| head(c).is_some_and(|h| SHARED.contains(&h.as_str())))
        .map(|c| c.to_string())
        .collect();
    // Each declared symbol with its declaration, and the symbols a definition itself uses.
    let mut decls: BTreeMap<String, (String, BTreeSet<String>)> = BTreeMap::new();
    let mut asserts = Vec::new();
    for c in &commands {
        match head(c).as_deref() {
            Some(h) if DECLS.contains(&h) => {
                let Some(name) = c.list().and_then(|l| l.get(1)).and_then(Sexp::atom) else { continue };
                let mut used = BTreeSet::new();
                atoms(c, &mut used);
                used.remove(name);
                decls.insert(name.to_string(), (c.to_string(), used));
            }
            Some("assert") => asserts.push(c),
            _ => {}
        }
    }
    let width = asserts.len().to_string().len();
    let mut files = Vec::new();
    let mut users: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (i, a) in asserts.iter().enumerate() {
        let name = format!("a{i:0width$}.smt2");
        let symbols = closure(a, &decls);
        let mut text: Vec<String> = shared.clone();
        text.extend(decls.iter().filter(|(s, _)| symbols.contains(*s)).map(|(_, (d, _))| d.clone()));
        text.push(a.to_string());
        for s in &symbols {
            users.entry(s.clone()).or_default().push(name.clone());
        }
        files.push((name, text.join("\n") + "\n"));
    }
    let mut edges = BTreeSet::new();
    for sharing in users.values() {
        for a in sharing {
            for b in sharing.iter().filter(|b| *b != a) {
                edges.insert((a.clone(), b.clone()));
            }
        }
    }
    Ok((files, edges.into_iter().collect()))
}

/// The declared symbols an assertion uses, through the definitions it uses.
fn closure(assertion: &Sexp, decls: &BTreeMap<String, (String, BTreeSet<String>)>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    atoms(assertion, &mut found);
    let mut out = BTreeSet::new();
    let mut todo: Vec<String> = found.into_iter().filter(|s| decls.contains_key(s)).collect();
    while let Some(s) = todo.pop() {
        if out.insert(s.clone()) {
            todo.extend(decls[&s].1.iter().filter(|u| decls.contains_key(*u) && !out.contains(*u)).cloned());
        }
    }
    out
}

fn atoms(s: &Sexp, out: &mut BTreeSet<String>) {
    match s {
        Sexp::Atom(a, _) => {
            out.insert(a.clone());
        }
        Sexp::List(l, _) => l.iter().for_each(|x| atoms(x, out)),
    }
}

/// The script of a set of unit files: their lines, each repeated one once, then `(check-sat)`.
pub fn joined(texts: &[String]) -> String {
    let mut seen = HashSet::new();
    let mut out = String::new();
    for line in texts.iter().flat_map(|t| t.lines()) {
        // Assertions are distinct units; only the shared commands and declarations repeat.
        if seen.insert(line.to_string()) || line.starts_with("(assert") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("(check-sat)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "(set-logic QF_LIA)\n(declare-const x Int)\n(declare-const y Int)\n\
        (declare-const z Int)\n(define-fun big ((v Int)) Bool (> v y))\n\
        (assert (> x 0))\n(assert (big x))\n(assert (< z 0))\n(check-sat)\n";

    #[test]
    fn assertions_sharing_symbols_depend_on_each_other() {
        let (files, edges) = unit_files(SCRIPT).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["a0.smt2", "a1.smt2", "a2.smt2"]);
        // (big x) uses y through big's body.
        assert!(
            files[1].1.contains("(declare-const y Int)") && files[1].1.contains("(define-fun big"),
            "{}",
            files[1].1
        );
        assert!(!files[2].1.contains("declare-const x"), "{}", files[2].1);
        let edges: Vec<String> = edges.iter().map(|(a, b)| format!("{a}->{b}")).collect();
        assert_eq!(edges, vec!["a0.smt2->a1.smt2", "a1.smt2->a0.smt2"]);
        let texts: Vec<String> = files.iter().map(|(_, t)| t.clone()).collect();
        let script = joined(&texts);
        assert_eq!(script.matches("(set-logic QF_LIA)").count(), 1);
        assert_eq!(script.matches("(assert").count(), 3);
        assert!(script.ends_with("(check-sat)\n"));
    }
}
