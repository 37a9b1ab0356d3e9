//! Floating point: every operation, predicate and conversion of `FloatingPoint` (to_fp from
//! reals, signed and unsigned bit-vectors, bit patterns and other formats; fp.to_ubv,
//! fp.to_sbv, fp.to_real), all five rounding modes in both spellings, and the special values.

use super::{Gen, Sort};
use rand::Rng;
use std::fmt::Write as _;

const MODES: &[&str] = &[
    "RNE",
    "RNA",
    "RTP",
    "RTN",
    "RTZ",
    "roundNearestTiesToEven",
    "roundNearestTiesToAway",
    "roundTowardPositive",
    "roundTowardNegative",
    "roundTowardZero",
];

const PREDICATES: &[&str] =
    &["fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN", "fp.isNegative", "fp.isPositive"];

/// A rounding mode: a literal, or now and then a `RoundingMode` constant.
pub(crate) fn rounding_mode<R: Rng>(g: &mut Gen<'_, R>) -> String {
    if g.chance(0.15) {
        return g.var(&Sort::RoundingMode);
    }
    g.pick(MODES).to_string()
}

fn bits(rng: &mut impl Rng, n: u32) -> String {
    let mut s = String::from("#b");
    for _ in 0..n {
        let _ = write!(s, "{}", u8::from(rng.gen_bool(0.5)));
    }
    s
}

impl<R: Rng> Gen<'_, R> {
    fn other_format(&mut self, e: u32, s: u32) -> (u32, u32) {
        let [a, b] = self.floats;
        if (e, s) == a {
            b
        } else {
            a
        }
    }

    /// A floating-point literal: a special value or a bit pattern.
    pub(crate) fn fp_value(&mut self, e: u32, s: u32) -> String {
        let k = [0, 1, 2, 3, 4, 6, 7][self.below(7)];
        self.fp_literal(e, s, k)
    }

    pub(crate) fn fp_lit(&mut self, e: u32, s: u32) -> String {
        let k = self.below(8);
        self.fp_literal(e, s, k)
    }

    fn fp_literal(&mut self, e: u32, s: u32, k: usize) -> String {
        match k {
            0 => format!("(_ +zero {e} {s})"),
            1 => format!("(_ -zero {e} {s})"),
            2 => format!("(_ +oo {e} {s})"),
            3 => format!("(_ -oo {e} {s})"),
            4 => format!("(_ NaN {e} {s})"),
            5 => {
                let rm = rounding_mode(self);
                let v = format!("{}.{}", self.rng.gen_range(0..20), self.rng.gen_range(0..100));
                format!("((_ to_fp {e} {s}) {rm} {v})")
            }
            _ => {
                let (sign, ex, sig) = (bits(self.rng, 1), bits(self.rng, e), bits(self.rng, s - 1));
                format!("(fp {sign} {ex} {sig})")
            }
        }
    }

    pub(crate) fn fp_term(&mut self, e: u32, s: u32, depth: u32) -> String {
        let f = Sort::Fp(e, s);
        // The costly operations (sqrt, fma, rem: 2–4) once in two draws of theirs.
        let k = match self.below(16) {
            k @ 2..=4 if self.chance(0.5) => k + 4,
            k => k,
        };
        if k < 9 {
            let rm = rounding_mode(self);
            let a = self.term(&f, depth);
            return match k {
                0 => format!("(fp.abs {a})"),
                1 => format!("(fp.neg {a})"),
                2 => format!("(fp.sqrt {rm} {a})"),
                3 => format!("(fp.roundToIntegral {rm} {a})"),
                4 => format!("(fp.fma {rm} {a} {} {})", self.term(&f, depth), self.term(&f, depth)),
                5 => format!("(fp.rem {a} {})", self.term(&f, depth)),
                6 => format!("({} {a} {})", self.pick(&["fp.min", "fp.max"]), self.term(&f, depth)),
                _ => {
                    let op = *self.pick(&["fp.add", "fp.sub", "fp.mul", "fp.div"]);
                    format!("({op} {rm} {a} {})", self.term(&f, depth))
                }
            };
        }
        let rm = rounding_mode(self);
        match k {
            9 => {
                let (e2, s2) = self.other_format(e, s);
                format!("((_ to_fp {e} {s}) {rm} {})", self.term(&Sort::Fp(e2, s2), depth))
            }
            10 if self.th.bv => format!("((_ to_fp {e} {s}) {})", self.term(&Sort::Bv(e + s), depth)),
            11 if self.th.bv => {
                let w = *self.pick(&[4, 8]);
                format!("((_ to_fp {e} {s}) {rm} {})", self.term(&Sort::Bv(w), depth))
            }
            12 if self.th.bv => {
                let w = *self.pick(&[4, 8]);
                format!("((_ to_fp_unsigned {e} {s}) {rm} {})", self.term(&Sort::Bv(w), depth))
            }
            13 if self.th.fp_real => format!("((_ to_fp {e} {s}) {rm} {})", self.term(&Sort::Real, depth)),
            14 if self.th.bv => {
                let (sign, ex, sig) = (
                    self.term(&Sort::Bv(1), depth),
                    self.term(&Sort::Bv(e), depth),
                    self.term(&Sort::Bv(s - 1), depth),
                );
                format!("(fp {sign} {ex} {sig})")
            }
            _ => self.fp_lit(e, s),
        }
    }

    /// `fp.to_ubv`/`fp.to_sbv` of some float, `w` bits wide.
    pub(crate) fn fp_to_bv(&mut self, w: u32, depth: u32) -> String {
        let (e, s) = self.floats[0];
        let op = *self.pick(&["fp.to_ubv", "fp.to_sbv"]);
        let rm = rounding_mode(self);
        format!("((_ {op} {w}) {rm} {})", self.term(&Sort::Fp(e, s), depth))
    }

    pub(crate) fn fp_atom(&mut self, e: u32, s: u32, depth: u32) -> String {
        let f = Sort::Fp(e, s);
        if self.chance(0.4) {
            let p = *self.pick(PREDICATES);
            return format!("({p} {})", self.term(&f, depth));
        }
        let op = *self.pick(&["fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq", "="]);
        let (a, b) = (self.term(&f, depth), self.term(&f, depth));
        format!("({op} {a} {b})")
    }
}
