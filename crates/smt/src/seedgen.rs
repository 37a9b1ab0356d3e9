//! A typed random seed generator, used when the user gives no `--seeds`: small well-sorted
//! QF_LIA, QF_LRA, QF_BV and QF_UFLIA scripts whose assertions mix atoms with and/or/not, so
//! the leg runs out of the box. Sat or unsat does not matter: STORM uses a model of the
//! negation for unsat seeds.

use rand::Rng;
use std::fmt::Write as _;

const LOGICS: &[&str] = &["QF_LIA", "QF_LRA", "QF_BV", "QF_UFLIA"];

struct Gen<'a, R: Rng> {
    rng: &'a mut R,
    logic: &'static str,
    vars: Vec<String>,
    bools: Vec<String>,
}

impl<R: Rng> Gen<'_, R> {
    fn pick<'b>(&mut self, xs: &'b [&'b str]) -> &'b str {
        xs[self.rng.gen_range(0..xs.len())]
    }

    fn constant(&mut self) -> String {
        match self.logic {
            "QF_BV" => format!("#x{:02x}", self.rng.gen_range(0u32..256)),
            "QF_LRA" => {
                let n: i32 = self.rng.gen_range(-20..20);
                let d: u32 = self.rng.gen_range(1..5);
                let num = if n < 0 { format!("(- {}.0)", -n) } else { format!("{n}.0") };
                if d == 1 {
                    num
                } else {
                    format!("(/ {num} {d}.0)")
                }
            }
            _ => {
                let n: i32 = self.rng.gen_range(-20..20);
                if n < 0 {
                    format!("(- {})", -n)
                } else {
                    n.to_string()
                }
            }
        }
    }

    fn term(&mut self, depth: u32) -> String {
        let leaf = depth == 0 || self.rng.gen_bool(0.35);
        if leaf {
            return if self.rng.gen_bool(0.7) {
                self.vars[self.rng.gen_range(0..self.vars.len())].clone()
            } else {
                self.constant()
            };
        }
        let a = self.term(depth - 1);
        let b = self.term(depth - 1);
        match self.logic {
            "QF_BV" => {
                let op = self.pick(&[
                    "bvadd", "bvsub", "bvmul", "bvand", "bvor", "bvxor", "bvshl", "bvlshr", "bvudiv", "bvurem",
                ]);
                format!("({op} {a} {b})")
            }
            "QF_LRA" => {
                // Linear: multiply by a constant only.
                if self.rng.gen_bool(0.3) {
                    let c = self.constant();
                    format!("(* {c} {a})")
                } else {
                    let op = self.pick(&["+", "-"]);
                    format!("({op} {a} {b})")
                }
            }
            "QF_UFLIA" if self.rng.gen_bool(0.3) => format!("(f {a})"),
            _ => {
                if self.rng.gen_bool(0.25) {
                    let c = self.rng.gen_range(-5..6);
                    let c = if c < 0 { format!("(- {})", -c) } else { c.to_string() };
                    format!("(* {c} {a})")
                } else if self.rng.gen_bool(0.1) {
                    let k = self.rng.gen_range(1..6);
                    let op = self.pick(&["div", "mod"]);
                    format!("({op} {a} {k})")
                } else {
                    let op = self.pick(&["+", "-"]);
                    format!("({op} {a} {b})")
                }
            }
        }
    }

    fn atom(&mut self) -> String {
        if !self.bools.is_empty() && self.rng.gen_bool(0.15) {
            return self.bools[self.rng.gen_range(0..self.bools.len())].clone();
        }
        let a = self.term(2);
        let b = self.term(2);
        let op = if self.logic == "QF_BV" {
            self.pick(&["=", "bvult", "bvule", "bvslt", "bvsge", "distinct"])
        } else {
            self.pick(&["=", "<", "<=", ">", ">=", "distinct"])
        };
        format!("({op} {a} {b})")
    }

    fn formula(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.gen_bool(0.3) {
            return self.atom();
        }
        match self.rng.gen_range(0..4) {
            0 => format!("(not {})", self.formula(depth - 1)),
            1 => format!("(or {} {})", self.formula(depth - 1), self.formula(depth - 1)),
            2 => format!("(=> {} {})", self.atom(), self.formula(depth - 1)),
            _ => format!("(and {} {})", self.formula(depth - 1), self.formula(depth - 1)),
        }
    }
}

/// One random seed script.
pub fn random_seed(rng: &mut impl Rng) -> String {
    let logic = LOGICS[rng.gen_range(0..LOGICS.len())];
    let sort = match logic {
        "QF_BV" => "(_ BitVec 8)",
        "QF_LRA" => "Real",
        _ => "Int",
    };
    let nv = rng.gen_range(2..5);
    let nb = rng.gen_range(0..3);
    let mut g = Gen {
        rng,
        logic,
        vars: (0..nv).map(|i| format!("x{i}")).collect(),
        bools: (0..nb).map(|i| format!("p{i}")).collect(),
    };
    let mut out = format!("(set-logic {logic})\n");
    for v in &g.vars {
        let _ = writeln!(out, "(declare-fun {v} () {sort})");
    }
    for b in &g.bools {
        let _ = writeln!(out, "(declare-fun {b} () Bool)");
    }
    if logic == "QF_UFLIA" {
        out.push_str("(declare-fun f (Int) Int)\n");
    }
    let na = g.rng.gen_range(2..6);
    for _ in 0..na {
        let f = g.formula(3);
        let _ = writeln!(out, "(assert {f})");
    }
    out.push_str("(check-sat)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn random_seeds_parse() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..50 {
            let s = random_seed(&mut rng);
            crate::script::Script::parse(&s, "random").expect("a generated seed parses");
        }
    }
}
