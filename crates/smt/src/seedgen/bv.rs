//! Bit-vectors: every arithmetic, bitwise, shift, rotation, extraction, extension and
//! comparison operator of `FixedSizeBitVectors`/`QF_BV`, and `int2bv`/`int_to_bv`.

use super::{Gen, Sort};
use rand::Rng;
use std::fmt::Write as _;

const BINARY: &[&str] = &[
    "bvadd", "bvsub", "bvmul", "bvand", "bvor", "bvxor", "bvnand", "bvnor", "bvxnor", "bvshl", "bvlshr", "bvashr",
    "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod",
];
const COMPARE: &[&str] = &["bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge", "=", "distinct"];

impl<R: Rng> Gen<'_, R> {
    pub(crate) fn bv_lit(&mut self, w: u32) -> String {
        let v: u64 = self.rng.gen::<u64>() & if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
        if w.is_multiple_of(4) && self.chance(0.5) {
            format!("#x{v:0width$x}", width = (w / 4) as usize)
        } else if self.chance(0.3) {
            format!("(_ bv{v} {w})")
        } else {
            let mut s = String::from("#b");
            for i in (0..w).rev() {
                let _ = write!(s, "{}", (v >> i) & 1);
            }
            s
        }
    }

    pub(crate) fn bv_term(&mut self, w: u32, depth: u32) -> String {
        match self.below(14) {
            0 => format!("({} {})", self.pick(&["bvnot", "bvneg"]), self.term(&Sort::Bv(w), depth)),
            1 if w > 1 => {
                // Concatenation of two halves.
                let hi = self.rng.gen_range(1..w);
                let (a, b) = (self.term(&Sort::Bv(hi), depth), self.term(&Sort::Bv(w - hi), depth));
                format!("(concat {a} {b})")
            }
            2 => {
                let wider = w + self.rng.gen_range(1..9u32);
                let lo = self.rng.gen_range(0..=wider - w);
                format!("((_ extract {} {lo}) {})", lo + w - 1, self.term(&Sort::Bv(wider), depth))
            }
            3 if w > 1 => {
                let from = self.rng.gen_range(1..w);
                let op = *self.pick(&["zero_extend", "sign_extend"]);
                format!("((_ {op} {}) {})", w - from, self.term(&Sort::Bv(from), depth))
            }
            4 => {
                let op = *self.pick(&["rotate_left", "rotate_right"]);
                format!("((_ {op} {}) {})", self.below(w as usize + 2), self.term(&Sort::Bv(w), depth))
            }
            5 if w.is_multiple_of(2) => format!("((_ repeat 2) {})", self.term(&Sort::Bv(w / 2), depth)),
            6 if self.th.int_bv => format!("((_ int2bv {w}) {})", self.term(&Sort::Int, depth)),
            6 if self.th.int_bv_new => format!("((_ int_to_bv {w}) {})", self.term(&Sort::Int, depth)),
            7 if self.th.fp && self.chance(0.5) => self.fp_to_bv(w, depth),
            8 if w == 1 => {
                let (a, b) = (self.term(&Sort::Bv(8), depth), self.term(&Sort::Bv(8), depth));
                format!("(bvcomp {a} {b})")
            }
            _ => {
                let op = *self.pick(BINARY);
                let (a, b) = (self.term(&Sort::Bv(w), depth), self.term(&Sort::Bv(w), depth));
                format!("({op} {a} {b})")
            }
        }
    }

    pub(crate) fn bv_atom(&mut self, w: u32, depth: u32) -> String {
        let op = *self.pick(COMPARE);
        let (a, b) = (self.term(&Sort::Bv(w), depth), self.term(&Sort::Bv(w), depth));
        format!("({op} {a} {b})")
    }
}
