//! Algebraic datatypes: one or two (possibly mutually recursive) datatypes with nullary and
//! n-ary constructors, selectors and testers `(_ is C)`.

use super::{Gen, Sort};
use rand::Rng;
use std::fmt::Write as _;

/// A datatype `D<i>`: constructors with their fields (selector name, sort).
#[derive(Clone, Debug)]
pub struct Datatype {
    pub ctors: Vec<(String, Vec<(String, Sort)>)>,
}

/// Two datatypes: the first with a nullary base constructor (so both are inhabited), fields
/// of Bool, the family's Int when it has one, and either datatype.
pub(crate) fn random_datatypes<R: Rng>(g: &mut Gen<'_, R>) -> Vec<Datatype> {
    let mut out: Vec<Datatype> = Vec::new();
    for d in 0..2usize {
        let mut ctors = vec![(format!("nil{d}"), Vec::new())];
        for c in 0..1 + g.below(2) {
            let mut fields = Vec::new();
            for f in 0..1 + g.below(2) {
                let sort = match g.below(4) {
                    0 => Sort::Dt(g.below(2)),
                    1 if g.th.int => Sort::Int,
                    2 => Sort::Dt(d),
                    _ => Sort::Bool,
                };
                fields.push((format!("s{d}_{c}_{f}"), sort));
            }
            ctors.push((format!("c{d}_{c}"), fields));
        }
        out.push(Datatype { ctors });
    }
    out
}

/// The `declare-datatypes` command of the seed's datatypes.
pub(crate) fn declare(dts: &[Datatype], out: &mut String) {
    if dts.is_empty() {
        return;
    }
    let heads: Vec<String> = (0..dts.len()).map(|i| format!("(D{i} 0)")).collect();
    let mut bodies = Vec::new();
    for dt in dts {
        let mut b = String::from("(");
        for (c, fields) in &dt.ctors {
            let _ = write!(b, "({c}");
            for (s, sort) in fields {
                let _ = write!(b, " ({s} {sort})");
            }
            b.push(')');
        }
        b.push(')');
        bodies.push(b);
    }
    let _ = writeln!(out, "(declare-datatypes ({}) ({}))", heads.join(" "), bodies.join(" "));
}

impl<R: Rng> Gen<'_, R> {
    /// A constructor application of `D<i>` (a nullary one at depth 0).
    pub(crate) fn dt_term(&mut self, i: usize, depth: u32) -> String {
        let ctors = self.dts[i].ctors.clone();
        let (c, fields) = if depth == 0 { &ctors[0] } else { self.pick(&ctors) };
        if fields.is_empty() {
            return c.clone();
        }
        let args: Vec<String> = fields.iter().map(|(_, s)| self.term(s, depth - 1)).collect();
        format!("({c} {})", args.join(" "))
    }

    /// A selector application whose result is `sort`, when some field has that sort.
    pub(crate) fn selector_of(&mut self, sort: &Sort, depth: u32) -> Option<String> {
        let mut found = Vec::new();
        for (d, dt) in self.dts.iter().enumerate() {
            for (_, fields) in &dt.ctors {
                for (s, fs) in fields {
                    if fs == sort {
                        found.push((d, s.clone()));
                    }
                }
            }
        }
        if found.is_empty() {
            return None;
        }
        let (d, s) = self.pick(&found).clone();
        Some(format!("({s} {})", self.term(&Sort::Dt(d), depth)))
    }

    /// A tester `((_ is C) t)`, or an equation between two terms of `D<i>`.
    pub(crate) fn dt_atom(&mut self, i: usize, depth: u32) -> String {
        let t = self.term(&Sort::Dt(i), depth);
        if self.chance(0.6) {
            let ctors = self.dts[i].ctors.clone();
            let (c, _) = self.pick(&ctors);
            return format!("((_ is {c}) {t})");
        }
        format!("(= {t} {})", self.term(&Sort::Dt(i), depth))
    }
}
