//! Integer and real arithmetic: linear and nonlinear terms, mixed Int/Real (`to_real`,
//! `to_int`, `is_int`), and the Int/BitVec conversions, whose Int side is built here.

use super::{Gen, Sort};
use rand::Rng;

pub(crate) fn int_lit(n: i64) -> String {
    if n < 0 {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

impl<R: Rng> Gen<'_, R> {
    pub(crate) fn real_lit(&mut self) -> String {
        let n: i64 = self.rng.gen_range(-20..40);
        let body = match self.below(3) {
            0 => format!("{}.0", n.abs()),
            1 => format!("{}.{}", n.abs(), self.rng.gen_range(1..100)),
            _ => format!("(/ {}.0 {}.0)", n.abs(), self.rng.gen_range(1..8)),
        };
        if n < 0 {
            format!("(- {body})")
        } else {
            body
        }
    }

    /// A constant factor: linear families multiply by constants only.
    fn coefficient(&mut self, sort: &Sort) -> String {
        match sort {
            Sort::Real => self.real_lit(),
            _ => int_lit(self.rng.gen_range(-6..7)),
        }
    }

    fn arith(&mut self, sort: &Sort, depth: u32) -> String {
        let a = self.term(sort, depth);
        match self.below(7) {
            0 => format!("(- {a})"),
            1 => {
                let (b, c) = (self.term(sort, depth), self.term(sort, depth));
                format!("(+ {a} {b} {c})")
            }
            2 | 3 if self.th.nonlinear => {
                let b = self.term(sort, depth);
                format!("(* {a} {b})")
            }
            2 | 3 => {
                let c = self.coefficient(sort);
                format!("(* {c} {a})")
            }
            4 => format!("(- {a} {})", self.term(sort, depth)),
            _ => format!("(+ {a} {})", self.term(sort, depth)),
        }
    }

    pub(crate) fn int_term(&mut self, depth: u32) -> String {
        let k = self.below(12);
        match k {
            0 if self.th.real => format!("(to_int {})", self.term(&Sort::Real, depth)),
            1 => format!("(abs {})", self.term(&Sort::Int, depth)),
            2 | 3 => {
                let op = *self.pick(&["div", "mod"]);
                let a = self.term(&Sort::Int, depth);
                let b =
                    if self.th.nonlinear { self.term(&Sort::Int, depth) } else { self.rng.gen_range(1..9).to_string() };
                format!("({op} {a} {b})")
            }
            4 if self.th.strings => self.str_int_term(depth),
            5 if self.th.int_bv => {
                let w = *self.pick(&[4, 8]);
                format!("(bv2nat {})", self.term(&Sort::Bv(w), depth))
            }
            5 if self.th.int_bv_new => {
                let op = *self.pick(&["ubv_to_int", "sbv_to_int"]);
                let w = *self.pick(&[4, 8]);
                format!("({op} {})", self.term(&Sort::Bv(w), depth))
            }
            _ => self.arith(&Sort::Int, depth),
        }
    }

    pub(crate) fn real_term(&mut self, depth: u32) -> String {
        match self.below(8) {
            0 if self.th.int => format!("(to_real {})", self.term(&Sort::Int, depth)),
            1 => {
                let a = self.term(&Sort::Real, depth);
                let b = if self.th.nonlinear {
                    self.term(&Sort::Real, depth)
                } else {
                    format!("{}.0", self.rng.gen_range(1..9))
                };
                format!("(/ {a} {b})")
            }
            2 if self.th.fp_real => {
                let (e, s) = self.floats[0];
                format!("(fp.to_real {})", self.term(&Sort::Fp(e, s), depth))
            }
            _ => self.arith(&Sort::Real, depth),
        }
    }

    pub(crate) fn arith_atom(&mut self, sort: &Sort, depth: u32) -> String {
        if *sort == Sort::Real && self.th.int && self.chance(0.15) {
            return format!("(is_int {})", self.term(&Sort::Real, depth));
        }
        let op = *self.pick(&["<", "<=", ">", ">=", "=", "distinct"]);
        let a = self.term(sort, depth);
        let b = self.term(sort, depth);
        if self.chance(0.15) && op != "distinct" && op != "=" {
            // Chained comparisons: (< a b c).
            let c = self.term(sort, depth);
            return format!("({op} {a} {b} {c})");
        }
        format!("({op} {a} {b})")
    }
}
