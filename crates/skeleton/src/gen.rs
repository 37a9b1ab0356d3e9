//! The generator: case `index` is a pure function of the seed and the index, so the supervisor
//! can rebuild the case a crashed worker was running.

use crate::model::{Case, Expr};
use crate::oracles::SkeletonOracle;
use crosscheck_core::Generator;
use rand::Rng;

pub struct ExprGen {
    pub seed: u64,
}

impl Generator<Case, SkeletonOracle> for ExprGen {
    fn case(&mut self, index: u64, _oracle: SkeletonOracle) -> Case {
        let mut rng = crosscheck_core::rng(self.seed, index);
        Case { index, expr: expr(&mut rng, 3) }
    }
}

/// Small literals and a bounded depth keep every value far from 64-bit overflow.
fn expr(rng: &mut impl Rng, depth: u32) -> Expr {
    if depth == 0 || rng.gen_bool(0.3) {
        return Expr::Int(rng.gen_range(-9..=9));
    }
    let (a, b) = (Box::new(expr(rng, depth - 1)), Box::new(expr(rng, depth - 1)));
    match rng.gen_range(0..3) {
        0 => Expr::Add(a, b),
        1 => Expr::Sub(a, b),
        _ => Expr::Mul(a, b),
    }
}
