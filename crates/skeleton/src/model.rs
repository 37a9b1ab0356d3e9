//! The model: a syntax tree with its own semantics, independent of any engine.

use serde::{Deserialize, Serialize};

/// An integer expression.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    Int(i64),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value, or `None` on 64-bit overflow (an expected engine error, not a finding).
    pub fn eval(&self) -> Option<i64> {
        match self {
            Expr::Int(n) => Some(*n),
            Expr::Add(a, b) => a.eval()?.checked_add(b.eval()?),
            Expr::Sub(a, b) => a.eval()?.checked_sub(b.eval()?),
            Expr::Mul(a, b) => a.eval()?.checked_mul(b.eval()?),
        }
    }

    /// Nodes in the tree: the measure the reducer must decrease.
    pub fn size(&self) -> usize {
        match self {
            Expr::Int(_) => 1,
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => 1 + a.size() + b.size(),
        }
    }

    /// The operands of an operator node.
    pub fn children(&self) -> Option<(&Expr, &Expr)> {
        match self {
            Expr::Int(_) => None,
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) => Some((a, b)),
        }
    }
}

/// One self-contained test case: everything an engine needs, serialized into findings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub index: u64,
    pub expr: Expr,
}
