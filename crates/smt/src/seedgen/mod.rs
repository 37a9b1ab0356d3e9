//! A typed random seed generator, used when the user gives no `--seeds`: small well-sorted
//! scripts for every SMT-LIB theory family the leg knows ([`FAMILIES`]). Each term is built
//! for a sort (pick a sort, build a term of it), so a seed is well-sorted by construction; the
//! operators of each theory live in their own file. Sat or unsat does not matter (STORM uses a
//! model of the negation of an unsat seed), but the worker drops a seed that two reference
//! solvers answer differently or that one rejects (`crate::materialize`): the generator stays
//! pure and runs no solver.

mod arith;
mod array;
mod bv;
mod datatypes;
mod fp;
mod strings;
pub(crate) use strings::WIDE as WIDE_CHARS;

use rand::Rng;
use std::fmt::{self, Write as _};

/// The sorts terms are built for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sort {
    Bool,
    Int,
    Real,
    Bv(u32),
    /// Exponent and significand widths.
    Fp(u32, u32),
    RoundingMode,
    Str,
    RegLan,
    Array(Box<Sort>, Box<Sort>),
    /// An uninterpreted sort declared by the seed.
    Named(String),
    /// A datatype of the seed's `declare-datatypes`, by index.
    Dt(usize),
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::Bv(w) => write!(f, "(_ BitVec {w})"),
            Sort::Fp(8, 24) => f.write_str("Float32"),
            Sort::Fp(11, 53) => f.write_str("Float64"),
            Sort::Fp(5, 11) => f.write_str("Float16"),
            Sort::Fp(e, s) => write!(f, "(_ FloatingPoint {e} {s})"),
            Sort::RoundingMode => f.write_str("RoundingMode"),
            Sort::Str => f.write_str("String"),
            Sort::RegLan => f.write_str("RegLan"),
            Sort::Array(i, v) => write!(f, "(Array {i} {v})"),
            Sort::Named(n) => f.write_str(n),
            Sort::Dt(i) => write!(f, "D{i}"),
        }
    }
}

/// What a family's terms may use besides the core (and/or/not/=>/xor/ite/=/distinct).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Theories {
    pub int: bool,
    pub real: bool,
    /// Nonlinear multiplication, division and modulus by terms.
    pub nonlinear: bool,
    pub bv: bool,
    pub fp: bool,
    /// `to_fp` from reals and `fp.to_real`.
    pub fp_real: bool,
    pub strings: bool,
    pub arrays: bool,
    pub uf: bool,
    pub datatypes: bool,
    pub quantifiers: bool,
    /// `bv2nat` / `(_ int2bv n)`.
    pub int_bv: bool,
    /// `ubv_to_int`, `sbv_to_int`, `(_ int_to_bv n)` (SMT-LIB 2.7).
    pub int_bv_new: bool,
}

/// One theory family: the logic its seeds set, the capabilities an engine needs beyond the
/// logic's theories (see `crate::solvers`), and what its terms use.
pub struct Family {
    pub name: &'static str,
    pub logic: &'static str,
    pub caps: &'static [&'static str],
    pub theories: Theories,
    /// The sorts its atoms compare and its arrays and functions range over.
    pub sorts: fn() -> Vec<Sort>,
}

const NO: Theories = Theories {
    int: false,
    real: false,
    nonlinear: false,
    bv: false,
    fp: false,
    fp_real: false,
    strings: false,
    arrays: false,
    uf: false,
    datatypes: false,
    quantifiers: false,
    int_bv: false,
    int_bv_new: false,
};

macro_rules! family {
    ($name:literal, $logic:literal, [$($cap:literal),*], { $($f:ident),* }, $sorts:expr) => {
        Family {
            name: $name,
            logic: $logic,
            caps: &[$($cap),*],
            theories: Theories { $($f: true,)* ..NO },
            sorts: $sorts,
        }
    };
}

fn bvs() -> Vec<Sort> {
    vec![Sort::Bv(8), Sort::Bv(4), Sort::Bv(16)]
}

/// cvc5 takes only Float32 and Float64 by default (others need `--fp-exp`); Float64 once in
/// three, since its instances time out more often.
fn fps() -> Vec<Sort> {
    vec![Sort::Fp(8, 24), Sort::Fp(8, 24), Sort::Fp(11, 53)]
}

/// Every family, in the order the schedule visits them: floating point last, since its
/// instances are the slowest to solve.
pub const FAMILIES: &[Family] = &[
    family!("QF_LIA", "QF_LIA", [], { int }, || vec![Sort::Int]),
    family!("QF_LRA", "QF_LRA", [], { real }, || vec![Sort::Real]),
    family!("QF_BV", "QF_BV", [], { bv }, bvs),
    family!("QF_NIA", "QF_NIA", [], { int, nonlinear }, || vec![Sort::Int]),
    family!("QF_NRA", "QF_NRA", [], { real, nonlinear }, || vec![Sort::Real]),
    family!("QF_LIRA", "QF_LIRA", [], { int, real }, || vec![Sort::Int, Sort::Real]),
    family!("QF_UFLIA", "QF_UFLIA", [], { int, uf }, || vec![Sort::Int]),
    family!("QF_UFLRA", "QF_UFLRA", [], { real, uf }, || vec![Sort::Real]),
    family!("QF_UFBV", "QF_UFBV", [], { bv, uf }, bvs),
    family!("LIA", "LIA", [], { int, quantifiers }, || vec![Sort::Int]),
    family!("NIA", "NIA", [], { int, nonlinear, quantifiers }, || vec![Sort::Int]),
    family!("LRA", "LRA", [], { real, quantifiers }, || vec![Sort::Real]),
    family!("UFLIA", "UFLIA", [], { int, uf, quantifiers }, || vec![Sort::Int]),
    family!("QF_AX", "QF_AX", [], { arrays }, || vec![Sort::Named("I".into()), Sort::Named("E".into())]),
    family!("QF_ALIA", "QF_ALIA", [], { int, arrays }, || vec![Sort::Int, Sort::Bool]),
    family!("QF_ABV", "QF_ABV", [], { bv, arrays }, || vec![Sort::Bv(4), Sort::Bv(8), Sort::Bool]),
    family!("QF_AUFLIRA", "QF_AUFLIRA", [], { int, real, arrays, uf }, || vec![Sort::Int, Sort::Real, Sort::Bool]),
    family!("QF_ABVFP", "QF_ABVFP", [], { bv, fp, arrays }, || vec![Sort::Bv(4), Sort::Fp(8, 24), Sort::Bool]),
    family!("QF_S", "QF_S", [], { strings }, || vec![Sort::Str]),
    family!("QF_SLIA", "QF_SLIA", ["theory:string-ext"], { strings, int }, || vec![Sort::Str, Sort::Int]),
    family!("QF_DT", "QF_DT", ["theory:datatypes"], { datatypes }, || vec![Sort::Dt(0), Sort::Dt(1)]),
    family!("QF_UFDTLIA", "QF_UFDTLIA", ["theory:datatypes"], { datatypes, int, uf }, || vec![Sort::Dt(0), Sort::Int]),
    family!("INT_BV", "ALL", ["theory:int", "theory:bv", "theory:int-bv"], { int, bv, int_bv }, || vec![
        Sort::Int,
        Sort::Bv(8)
    ]),
    family!("INT_BV_2.7", "ALL", ["theory:int", "theory:bv", "theory:ubv-to-int"], { int, bv, int_bv_new }, || vec![
        Sort::Int,
        Sort::Bv(8)
    ]),
    family!("QF_FP", "QF_FP", [], { fp }, fps),
    family!("QF_BVFP", "QF_BVFP", [], { fp, bv }, || vec![Sort::Fp(8, 24), Sort::Bv(8)]),
    family!("QF_FPLRA", "QF_FPLRA", ["theory:fp-real"], { fp, fp_real, real }, || vec![Sort::Fp(8, 24), Sort::Real]),
];

/// The family named `name`.
pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.name == name)
}

/// The generator's state while it builds one seed: the symbols declared so far and in scope.
pub struct Gen<'a, R: Rng> {
    pub(crate) rng: &'a mut R,
    pub(crate) th: Theories,
    pub(crate) sorts: Vec<Sort>,
    /// Declared constants, in declaration order.
    consts: Vec<(String, Sort)>,
    /// Variables bound by enclosing quantifiers.
    bound: Vec<(String, Sort)>,
    /// Uninterpreted functions: name, argument sorts, result sort.
    funs: Vec<(String, Vec<Sort>, Sort)>,
    pub(crate) dts: Vec<datatypes::Datatype>,
    fresh: u32,
    /// Constant arrays allowed (Yices has none; cvc5 1.4 needs `--arrays-exp`).
    pub(crate) const_arrays: bool,
    /// The two floating-point formats in use, the common one first.
    pub(crate) floats: [(u32, u32); 2],
    pub(crate) wide_chars: bool,
}

/// What the engines under test take beyond a family's theories.
#[derive(Clone, Copy, Debug)]
pub struct Allow {
    /// `((as const (Array I V)) v)`.
    pub const_arrays: bool,
    /// Floating-point formats other than Float32 and Float64 (cvc5 needs `--fp-exp`), whose
    /// instances z3 solves many times faster: Float16 replaces Float32, Float32 Float64.
    pub small_floats: bool,
    /// String literals with code points above 0xFF (z3 before 4.8.11 reads them otherwise).
    pub wide_chars: bool,
}

impl Allow {
    pub const ALL: Allow = Allow { const_arrays: true, small_floats: true, wide_chars: true };
}

impl<'a, R: Rng> Gen<'a, R> {
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.rng.gen_range(0..n.max(1))
    }

    pub(crate) fn pick<'b, T>(&mut self, xs: &'b [T]) -> &'b T {
        &xs[self.below(xs.len())]
    }

    fn pick_sort(&mut self) -> Sort {
        let i = self.below(self.sorts.len());
        self.sorts[i].clone()
    }

    /// A constant of `sort` in scope, declaring a new one now and then (or when none exists).
    pub(crate) fn var(&mut self, sort: &Sort) -> String {
        let bound: Vec<&String> = self.bound.iter().filter(|(_, s)| s == sort).map(|(n, _)| n).collect();
        if !bound.is_empty() && self.rng.gen_bool(0.7) {
            return bound[self.rng.gen_range(0..bound.len())].clone();
        }
        let have: Vec<&String> = self.consts.iter().filter(|(_, s)| s == sort).map(|(n, _)| n).collect();
        if !have.is_empty() && (have.len() >= 3 || self.rng.gen_bool(0.7)) {
            return have[self.rng.gen_range(0..have.len())].clone();
        }
        let name = format!("v{}", self.consts.len());
        self.consts.push((name.clone(), sort.clone()));
        name
    }

    /// A term of `sort` with nesting at most `depth`.
    pub(crate) fn term(&mut self, sort: &Sort, depth: u32) -> String {
        if depth == 0 || self.chance(0.3) {
            return self.leaf(sort);
        }
        let d = depth - 1;
        // Generic operators first: they apply to every sort.
        match self.below(10) {
            0 => {
                let c = self.formula(d.min(1));
                let a = self.term(sort, d);
                let b = self.term(sort, d);
                return format!("(ite {c} {a} {b})");
            }
            1 if self.th.uf && !matches!(sort, Sort::RegLan | Sort::RoundingMode) => return self.apply_uf(sort, d),
            2 if self.th.arrays && self.sorts.iter().any(|s| s == sort) => return self.select_of(sort, d),
            3 if self.th.datatypes => {
                if let Some(t) = self.selector_of(sort, d) {
                    return t;
                }
            }
            _ => {}
        }
        match sort {
            Sort::Bool => self.formula(d),
            Sort::Int => self.int_term(d),
            Sort::Real => self.real_term(d),
            Sort::Bv(w) => self.bv_term(*w, d),
            Sort::Fp(e, s) => self.fp_term(*e, *s, d),
            Sort::RoundingMode => self.leaf(sort),
            Sort::Str => self.str_term(d),
            Sort::RegLan => self.re_term(d),
            Sort::Array(i, v) => self.array_term(i, v, d),
            Sort::Named(_) => self.leaf(sort),
            Sort::Dt(i) => self.dt_term(*i, d),
        }
    }

    /// A constant or a literal of `sort`.
    fn leaf(&mut self, sort: &Sort) -> String {
        let literal = self.chance(0.3);
        match sort {
            Sort::Bool if literal => self.pick(&["true", "false"]).to_string(),
            Sort::Int if literal => arith::int_lit(self.rng.gen_range(-20..40)),
            Sort::Real if literal => self.real_lit(),
            Sort::Bv(w) if literal => self.bv_lit(*w),
            Sort::Fp(e, s) if literal => self.fp_lit(*e, *s),
            Sort::RoundingMode => fp::rounding_mode(self),
            Sort::Str if literal => self.str_lit(),
            Sort::RegLan => self.re_term(0),
            Sort::Array(i, v) if literal && self.const_arrays && self.value(v).is_some() => self.const_array(i, v),
            Sort::Dt(i) if literal => self.dt_term(*i, 0),
            _ => self.var(sort),
        }
    }

    fn apply_uf(&mut self, sort: &Sort, depth: u32) -> String {
        let existing: Vec<usize> = (0..self.funs.len()).filter(|&i| &self.funs[i].2 == sort).collect();
        let i = if existing.is_empty() || self.chance(0.2) {
            let n = 1 + self.below(2);
            let args: Vec<Sort> = (0..n).map(|_| self.pick_sort()).collect();
            self.funs.push((format!("f{}", self.funs.len()), args, sort.clone()));
            self.funs.len() - 1
        } else {
            existing[self.below(existing.len())]
        };
        let (name, args, _) = self.funs[i].clone();
        let args: Vec<String> = args.iter().map(|s| self.term(s, depth)).collect();
        format!("({name} {})", args.join(" "))
    }

    /// A Boolean formula: connectives over atoms of the family's theories.
    pub(crate) fn formula(&mut self, depth: u32) -> String {
        if depth == 0 || self.chance(0.35) {
            return self.atom(depth.min(2));
        }
        let d = depth - 1;
        match self.below(9) {
            0 => format!("(not {})", self.formula(d)),
            1 => format!("(or {} {})", self.formula(d), self.formula(d)),
            2 => format!("(=> {} {})", self.formula(d), self.formula(d)),
            3 => format!("(xor {} {})", self.formula(d), self.formula(d)),
            4 => format!("(ite {} {} {})", self.formula(d), self.formula(d), self.formula(d)),
            5 if self.th.quantifiers && self.bound.len() < 4 => self.quantified(d),
            6 => {
                let (a, b) = (self.formula(d), self.formula(d));
                format!("(= {a} {b})")
            }
            _ => format!("(and {} {})", self.formula(d), self.formula(d)),
        }
    }

    /// An atom: a comparison of two terms of one sort, or a theory predicate.
    fn atom(&mut self, depth: u32) -> String {
        let sort = self.pick_sort();
        if self.chance(0.6) {
            if let Some(a) = self.theory_atom(&sort, depth) {
                return a;
            }
        }
        if sort == Sort::Bool {
            return self.var(&Sort::Bool);
        }
        let a = self.term(&sort, depth);
        let b = self.term(&sort, depth);
        if self.chance(0.2) {
            let c = self.term(&sort, depth);
            return format!("(distinct {a} {b} {c})");
        }
        format!("({} {a} {b})", if self.chance(0.8) { "=" } else { "distinct" })
    }

    fn theory_atom(&mut self, sort: &Sort, depth: u32) -> Option<String> {
        Some(match sort {
            Sort::Int | Sort::Real => self.arith_atom(sort, depth),
            Sort::Bv(w) => self.bv_atom(*w, depth),
            Sort::Fp(e, s) => self.fp_atom(*e, *s, depth),
            Sort::Str => self.str_atom(depth),
            Sort::Dt(i) => self.dt_atom(*i, depth),
            Sort::Array(..) | Sort::Bool | Sort::Named(_) | Sort::RoundingMode | Sort::RegLan => return None,
        })
    }

    /// `forall`/`exists` over one or two fresh variables of the family's sorts.
    fn quantified(&mut self, depth: u32) -> String {
        let q = if self.chance(0.5) { "forall" } else { "exists" };
        let n = 1 + self.below(2);
        let mark = self.bound.len();
        let mut vars = String::new();
        for _ in 0..n {
            let sort = self.pick_sort();
            self.fresh += 1;
            let name = format!("q{}", self.fresh);
            let _ = write!(vars, "{}({name} {sort})", if vars.is_empty() { "" } else { " " });
            self.bound.push((name, sort));
        }
        let body = self.formula(depth.max(1));
        self.bound.truncate(mark);
        format!("({q} ({vars}) {body})")
    }

    fn declarations(&self, out: &mut String) {
        for s in &self.sorts {
            if let Sort::Named(n) = s {
                let _ = writeln!(out, "(declare-sort {n} 0)");
            }
        }
        datatypes::declare(&self.dts, out);
        for (n, s) in &self.consts {
            let _ = writeln!(out, "(declare-fun {n} () {s})");
        }
        for (n, args, r) in &self.funs {
            let args: Vec<String> = args.iter().map(Sort::to_string).collect();
            let _ = writeln!(out, "(declare-fun {n} ({}) {r})", args.join(" "));
        }
    }
}

/// One random seed script of `family`, with what `allow` allows.
pub fn seed_of(rng: &mut impl Rng, family: &Family, allow: Allow) -> String {
    // Float16 in place of Float32 and Float32 in place of Float64: z3 and Bitwuzla still meet
    // Float32 in a third of the families' float sorts.
    let floats = if allow.small_floats { [(5, 11), (8, 24)] } else { [(8, 24), (11, 53)] };
    let sorts = (family.sorts)()
        .into_iter()
        .map(|s| match s {
            Sort::Fp(8, 24) => Sort::Fp(floats[0].0, floats[0].1),
            Sort::Fp(11, 53) => Sort::Fp(floats[1].0, floats[1].1),
            s => s,
        })
        .collect();
    let mut g = Gen {
        rng,
        th: family.theories,
        sorts,
        consts: Vec::new(),
        bound: Vec::new(),
        funs: Vec::new(),
        dts: Vec::new(),
        fresh: 0,
        const_arrays: allow.const_arrays,
        floats,
        wide_chars: allow.wide_chars,
    };
    if g.th.datatypes {
        g.dts = datatypes::random_datatypes(&mut g);
    }
    let na = g.rng.gen_range(2..6);
    let mut asserts = String::new();
    // STORM's instances conjoin many of a seed's predicates: floating-point ones of depth 3
    // kept z3 past a 10-s timeout on most instances of a seed.
    let depths = if g.th.fp { 1..3 } else { 2..4 };
    for _ in 0..na {
        let depth = g.rng.gen_range(depths.clone());
        let f = g.formula(depth);
        let _ = writeln!(asserts, "(assert {f})");
    }
    let mut out = format!("(set-logic {})\n", family.logic);
    g.declarations(&mut out);
    out.push_str(&asserts);
    out.push_str("(check-sat)\n");
    out
}

/// One random seed script of a random family (the leg's split tests use it).
pub fn random_seed(rng: &mut impl Rng) -> String {
    let f = &FAMILIES[rng.gen_range(0..FAMILIES.len())];
    seed_of(rng, f, Allow::ALL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_family_gives_seeds_that_parse() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for f in FAMILIES {
            for _ in 0..30 {
                let s = seed_of(&mut rng, f, Allow::ALL);
                let script = crate::script::Script::parse(&s, f.name).expect("a generated seed parses");
                assert!(!script.asserts().is_empty(), "{s}");
                assert_eq!(script.logic(), Some(f.logic));
            }
        }
    }
}
