//! Reducer steps and the deduplication signature. The reducer in core keeps a candidate only
//! if the finding's own oracle still fails the same way, so a step need not preserve the bug.

use crate::model::{Case, Expr};
use crosscheck_core::{Evidence, Shape};
use std::collections::BTreeSet;

/// Smaller cases, most aggressive first: each operator node replaced by one of its operands.
pub fn shrink(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    replacements(&case.expr, &mut |e| out.push(Case { index: case.index, expr: e }));
    out
}

/// Calls `f` with every tree that replaces one node of `e` by one of its operands.
fn replacements(e: &Expr, f: &mut dyn FnMut(Expr)) {
    let Some((a, b)) = e.children() else { return };
    f(a.clone());
    f(b.clone());
    let rebuild = |x: Expr, y: Expr| match e {
        Expr::Add(..) => Expr::Add(Box::new(x), Box::new(y)),
        Expr::Sub(..) => Expr::Sub(Box::new(x), Box::new(y)),
        _ => Expr::Mul(Box::new(x), Box::new(y)),
    };
    replacements(a, &mut |x| f(rebuild(x, b.clone())));
    replacements(b, &mut |y| f(rebuild(a.clone(), y)));
}

/// The shape of a reduced case: the finding's key and the operators it uses, constants
/// stripped.
pub fn signature(case: &Case, evidence: &Evidence) -> Shape {
    fn ops(e: &Expr, out: &mut BTreeSet<String>) {
        if let Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) = e {
            out.insert(
                match e {
                    Expr::Add(..) => "+",
                    Expr::Sub(..) => "-",
                    _ => "*",
                }
                .to_string(),
            );
            ops(a, out);
            ops(b, out);
        }
    }
    let mut features = BTreeSet::new();
    ops(&case.expr, &mut features);
    Shape::new(evidence.key.clone(), features)
}
