//! Reduction candidates: drop facts, rules, body literals and whole relations, most aggressive
//! first. For a metamorphic case the same edit is made to the original and the transformed
//! program, and only to what both share, so the transformed rules stay paired with their
//! originals; a candidate is kept only if the transformation's precondition still holds (both
//! programs valid, and every changed relation keeps its ancestry towards the outputs, which is
//! what the lifting of Exp/Con and DLSmith's preconditions rest on).

use crate::analysis::validate;
use crate::ast::{Literal, Program};
use crate::dlsmith::ancestry;
use crate::{Case, Test};
use crosscheck_core::reduce::cuts;

/// Relations whose facts or rules differ between two programs.
pub fn changed(a: &Program, b: &Program) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in a.facts.iter().filter(|f| !b.facts.contains(f)).chain(b.facts.iter().filter(|f| !a.facts.contains(f))) {
        out.push(f.rel.clone());
    }
    for r in a.rules.iter().filter(|r| !b.rules.contains(r)).chain(b.rules.iter().filter(|r| !a.rules.contains(r))) {
        out.push(r.head.rel.clone());
    }
    out.sort();
    out.dedup();
    out
}

fn same_ancestry(before: (&Program, &Program), after: (&Program, &Program)) -> bool {
    let rels = changed(before.0, before.1);
    if rels != changed(after.0, after.1) {
        return false;
    }
    let (b0, b1, a0, a1) = (ancestry(before.0), ancestry(before.1), ancestry(after.0), ancestry(after.1));
    rels.iter().all(|r| b0.get(r) == a0.get(r) && b1.get(r) == a1.get(r))
}

/// Edits of one program: (what to remove) applied by [`apply`].
#[derive(Clone, Debug)]
enum Edit {
    Facts(Vec<crate::ast::Fact>),
    Rule(crate::ast::Rule),
    Literal(crate::ast::Rule, usize),
    Relation(String),
}

fn apply(p: &Program, e: &Edit) -> Option<Program> {
    let mut q = p.clone();
    match e {
        Edit::Facts(fs) => q.facts_mut().retain(|f| !fs.contains(f)),
        Edit::Rule(r) => {
            let i = q.rules.iter().position(|x| x == r)?;
            q.rules.remove(i);
        }
        Edit::Literal(r, k) => {
            let i = q.rules.iter().position(|x| x == r)?;
            q.rules[i].body.remove(*k);
        }
        Edit::Relation(rel) => {
            q.decls.retain(|d| d.name != *rel);
            q.facts_mut().retain(|f| f.rel != *rel);
            q.rules.retain(|r| r.head.rel != *rel && !r.deps().iter().any(|(d, _)| d == rel));
            q.seed_rels.remove(rel);
        }
    }
    Some(q)
}

/// The edits of `p` restricted to what `shared` says both programs have.
fn edits(
    p: &Program,
    shared_fact: &dyn Fn(&crate::ast::Fact) -> bool,
    shared_rule: &dyn Fn(&crate::ast::Rule) -> bool,
    keep: &[String],
) -> Vec<Edit> {
    let mut out = Vec::new();
    let facts: Vec<crate::ast::Fact> = p.facts.iter().filter(|f| shared_fact(f)).cloned().collect();
    for kept in cuts(&facts, 0) {
        let removed: Vec<crate::ast::Fact> = facts.iter().filter(|f| !kept.contains(f)).cloned().collect();
        out.push(Edit::Facts(removed));
    }
    for d in &p.decls {
        if !keep.contains(&d.name) {
            out.push(Edit::Relation(d.name.clone()));
        }
    }
    for r in p.rules.iter().filter(|r| shared_rule(r)) {
        out.push(Edit::Rule(r.clone()));
    }
    for r in p.rules.iter().filter(|r| shared_rule(r)) {
        for k in 0..r.body.len() {
            if !matches!(r.body[k], Literal::Agg { .. }) {
                out.push(Edit::Literal(r.clone(), k));
            }
        }
    }
    out
}

/// Whether the reference evaluator sees `expect` between the outputs of `a` and `b`.
fn reference_holds(a: &Program, b: &Program, expect: crate::qf::Expect) -> bool {
    use crate::eval::{evaluate, relation, Limits, Strategy};
    let limits = Limits { max_tuples: 50_000, max_steps: 2_000_000, deadline: None };
    let (Ok(da), Ok(db)) = (evaluate(a, limits, Strategy::SemiNaive), evaluate(b, limits, Strategy::SemiNaive)) else {
        return false;
    };
    a.outputs.iter().all(|o| {
        let (x, y) = (relation(&da, o), relation(&db, o));
        match expect {
            crate::qf::Expect::Equal => x == y,
            crate::qf::Expect::Expand => x.iter().all(|t| y.contains(t)),
            crate::qf::Expect::Contract => y.iter().all(|t| x.contains(t)),
        }
    })
}

pub fn shrink(case: &Case) -> Vec<Case> {
    let p = &case.program;
    match &case.test {
        // Without inlined facts (which come from the engine under test), the expected relation
        // of a smaller pair can be confirmed directly on the reference evaluator: then either
        // program may lose anything, transformation-introduced rules included.
        Test::Metamorphic { transformed: t, expect, steps, inline } if inline.is_empty() => {
            let mut out = Vec::new();
            let mk = |a: Program, b: Program| Case {
                index: case.index,
                program: a,
                test: Test::Metamorphic { transformed: b, expect: *expect, steps: steps.clone(), inline: vec![] },
            };
            let keep = p.outputs.clone();
            for e in edits(p, &|f| t.facts.contains(f), &|r| t.rules.contains(r), &keep) {
                if let (Some(a), Some(b)) = (apply(p, &e), apply(t, &e)) {
                    out.push(mk(a, b));
                }
            }
            for e in edits(t, &|f| !p.facts.contains(f), &|r| !p.rules.contains(r), &keep) {
                // Relations only the transformation declared may go from it alone.
                if !matches!(&e, Edit::Relation(r) if p.decl(r).is_some()) {
                    if let Some(b) = apply(t, &e) {
                        out.push(mk(p.clone(), b));
                    }
                }
            }
            for e in edits(p, &|f| !t.facts.contains(f), &|r| !t.rules.contains(r), &keep) {
                if !matches!(e, Edit::Relation(_)) {
                    if let Some(a) = apply(p, &e) {
                        out.push(mk(a, t.clone()));
                    }
                }
            }
            out.retain(|c| {
                let Test::Metamorphic { transformed, .. } = &c.test else { return false };
                validate(&c.program).is_ok()
                    && validate(transformed).is_ok()
                    && reference_holds(&c.program, transformed, *expect)
            });
            out
        }
        Test::Metamorphic { transformed: t, expect, steps, inline } => {
            let mut keep = p.outputs.clone();
            keep.extend(inline.iter().cloned());
            let es = edits(p, &|f| t.facts.contains(f), &|r| t.rules.contains(r), &keep);
            let mut out = Vec::new();
            for e in es {
                let (Some(a), Some(b)) = (apply(p, &e), apply(t, &e)) else { continue };
                if validate(&a).is_err() || validate(&b).is_err() || !same_ancestry((p, t), (&a, &b)) {
                    continue;
                }
                out.push(Case {
                    index: case.index,
                    program: a,
                    test: Test::Metamorphic {
                        transformed: b,
                        expect: *expect,
                        steps: steps.clone(),
                        inline: inline.clone(),
                    },
                });
            }
            out
        }
        _ => edits(p, &|_| true, &|_| true, &p.outputs)
            .into_iter()
            .filter_map(|e| apply(p, &e))
            .filter(|a| validate(a).is_ok())
            .map(|a| Case { index: case.index, program: a, test: case.test.clone() })
            .collect(),
    }
}
