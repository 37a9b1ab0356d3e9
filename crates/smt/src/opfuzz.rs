//! Type-aware operator mutation (yinyang's opfuzz; Winterer, Zhang and Su, "On the Unusual
//! Effectiveness of Type-Aware Operator Mutations for Testing SMT Solvers", OOPSLA 2020): an
//! operator occurrence is replaced by another of the same signature, a few per mutant. The
//! mutant's status is unknown, so it is judged differentially.

use crate::term::{Arena, Node, TermId};
use rand::seq::SliceRandom;
use rand::Rng;

/// How many arguments a class's members take here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    Exactly(usize),
    AtLeast(usize),
}

impl Arity {
    fn admits(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }
}

/// Operators that can replace one another (same argument and result sorts at that arity).
/// The classes of the OOPSLA'20 paper and yinyang's configuration; `bvult` and `bvsrem` added
/// (they share the signatures of their classes); bit-vector operators that are n-ary in some
/// solvers only at arity 2.
pub const CLASSES: &[(&[&str], Arity)] = &[
    (&["=", "distinct"], Arity::AtLeast(2)),
    (&["and", "or", "=>"], Arity::AtLeast(3)),
    (&["and", "or", "=>", "xor"], Arity::Exactly(2)),
    (&["<=", ">=", "<", ">"], Arity::AtLeast(2)),
    (&["+", "-", "*"], Arity::AtLeast(2)),
    (&["mod", "div"], Arity::Exactly(2)),
    (&["abs", "-"], Arity::Exactly(1)),
    (&["re.++", "re.union", "re.inter", "re.diff"], Arity::Exactly(2)),
    (&["str.<=", "str.<", "str.prefixof", "str.suffixof", "str.contains"], Arity::Exactly(2)),
    (&["str.replace", "str.replace_all"], Arity::Exactly(3)),
    (&["str.replace_re", "str.replace_re_all"], Arity::Exactly(3)),
    (&["re.comp", "re.+", "re.opt", "re.*"], Arity::Exactly(1)),
    (&["str.to_code", "str.to_int"], Arity::Exactly(1)),
    (&["str.from_code", "str.from_int"], Arity::Exactly(1)),
    (&["bvnot", "bvneg"], Arity::Exactly(1)),
    (
        &[
            "bvand", "bvor", "bvnand", "bvnor", "bvxor", "bvxnor", "bvsub", "bvsdiv", "bvsrem", "bvsmod", "bvadd",
            "bvmul", "bvudiv", "bvurem", "bvshl", "bvlshr", "bvashr",
        ],
        Arity::Exactly(2),
    ),
    (&["bvult", "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge"], Arity::Exactly(2)),
    (&["fp.abs", "fp.neg"], Arity::Exactly(1)),
    (&["fp.add", "fp.sub", "fp.mul", "fp.div"], Arity::Exactly(3)),
    (&["fp.min", "fp.max"], Arity::Exactly(2)),
    (&["fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq"], Arity::Exactly(2)),
    (
        &["fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN", "fp.isNegative", "fp.isPositive"],
        Arity::Exactly(1),
    ),
];

/// Nullary operators that replace one another (regular-expression constants) and quantifiers.
const ATOMS: &[&str] = &["re.none", "re.all", "re.allchar"];
const QUANTIFIERS: &[&str] = &["forall", "exists"];

/// The other operators `head` at `arity` can become.
pub fn alternatives(head: &str, arity: usize) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (ops, a) in CLASSES {
        if a.admits(arity) && ops.contains(&head) {
            for o in ops.iter().filter(|o| **o != head) {
                if !out.contains(o) {
                    out.push(o);
                }
            }
        }
    }
    out
}

/// The alternatives of a node, whatever its kind.
fn node_alternatives(n: &Node) -> Vec<&'static str> {
    match n {
        Node::App(h, args) => alternatives(h, args.len()),
        Node::Atom(a) if ATOMS.contains(&a.as_str()) => ATOMS.iter().copied().filter(|o| o != a).collect(),
        Node::Quant(q, _, _) => QUANTIFIERS.iter().copied().filter(|o| o != q).collect(),
        _ => Vec::new(),
    }
}

/// The alternatives of every mutable occurrence in the trees of `roots`, in pre-order (a tree
/// walk: a shared sub-term counts once per occurrence).
pub fn sites(arena: &Arena, roots: &[TermId]) -> Vec<Vec<&'static str>> {
    fn walk(arena: &Arena, t: TermId, out: &mut Vec<Vec<&'static str>>) {
        let alts = node_alternatives(arena.node(t));
        if !alts.is_empty() {
            out.push(alts);
        }
        for c in arena.children(t) {
            walk(arena, c, out);
        }
    }
    let mut out = Vec::new();
    for &r in roots {
        walk(arena, r, &mut out);
    }
    out
}

/// One mutation: the site's pre-order number and the new operator.
type Edit = (usize, &'static str);

fn rebuild(arena: &mut Arena, t: TermId, next: &mut usize, edits: &[Edit], done: &mut Vec<String>) -> TermId {
    let node = arena.node(t).clone();
    let site = if node_alternatives(&node).is_empty() {
        None
    } else {
        *next += 1;
        edits.iter().find(|(i, _)| *i == *next - 1).map(|(_, op)| *op)
    };
    let kids: Vec<TermId> = arena.children(t).iter().map(|&c| rebuild(arena, c, next, edits, done)).collect();
    let n = match node {
        Node::App(h, _) => {
            let h2 = site.map(str::to_string).unwrap_or_else(|| h.clone());
            if h2 != h {
                done.push(format!("{h} -> {h2}"));
            }
            Node::App(h2, kids)
        }
        Node::Atom(a) => match site {
            Some(op) => {
                done.push(format!("{a} -> {op}"));
                Node::Atom(op.to_string())
            }
            None => Node::Atom(a),
        },
        Node::Quant(q, vars, _) => {
            let q2 = site.map(str::to_string).unwrap_or_else(|| q.clone());
            if q2 != q {
                done.push(format!("{q} -> {q2}"));
            }
            Node::Quant(q2, vars, kids[0])
        }
        Node::Let(bs, _) => {
            let (vals, body) = kids.split_at(kids.len() - 1);
            Node::Let(bs.into_iter().zip(vals).map(|((n, _), &v)| (n, v)).collect(), body[0])
        }
        Node::Annot(_, attrs) => Node::Annot(kids[0], attrs),
        raw @ Node::Raw(_) => raw,
    };
    arena.intern(n)
}

/// Applies up to `k` random operator mutations to `roots`; the new roots and the mutations
/// made (`bvand -> bvxnor`). No mutation when there is no site.
pub fn mutate(arena: &mut Arena, roots: &[TermId], k: usize, rng: &mut impl Rng) -> (Vec<TermId>, Vec<String>) {
    let all = sites(arena, roots);
    let mut picked: Vec<usize> = (0..all.len()).collect();
    picked.shuffle(rng);
    picked.truncate(k);
    let edits: Vec<Edit> = picked.iter().filter_map(|&i| Some((i, *all[i].choose(rng)?))).collect();
    let mut next = 0usize;
    let mut done = Vec::new();
    let out = roots.iter().map(|&r| rebuild(arena, r, &mut next, &edits, &mut done)).collect();
    (out, done)
}

/// A linear-arithmetic logic widened to its nonlinear counterpart (`QF_LIA` → `QF_NIA`), as
/// mutations among `+ - *` and `div mod` leave the linear fragment.
pub fn widen_logic(logic: &str) -> String {
    let mut out = logic.to_string();
    for (from, to) in [("LIRA", "NIRA"), ("LIA", "NIA"), ("LRA", "NRA"), ("IDL", "NIA"), ("RDL", "NRA")] {
        if out.contains(from) {
            out = out.replace(from, to);
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternatives_keep_the_signature() {
        assert_eq!(alternatives("abs", 1), vec!["-"]);
        assert!(alternatives("-", 2).contains(&"*") && !alternatives("-", 2).contains(&"abs"));
        assert!(alternatives("and", 2).contains(&"xor") && !alternatives("and", 3).contains(&"xor"));
        assert!(alternatives("bvand", 2).contains(&"bvxnor"));
        assert!(alternatives("bvand", 3).is_empty());
        assert!(alternatives("str.len", 1).is_empty());
        assert_eq!(widen_logic("QF_LIA"), "QF_NIA");
        assert_eq!(widen_logic("QF_UFLRA"), "QF_UFNRA");
        assert_eq!(widen_logic("QF_BV"), "QF_BV");
    }

    #[test]
    fn mutation_changes_only_operators() {
        let mut a = Arena::new();
        let t = a.parse_term("(and (< x (+ y 1)) (bvult b (bvand b c)) (exists ((k Int)) (= k x)))").expect("term");
        let mut rng = crosscheck_core::rng(1, 2);
        assert_eq!(sites(&a, &[t]).len(), 7);
        for k in 1..=3 {
            let (m, done) = mutate(&mut a, &[t], k, &mut rng);
            assert_eq!(done.len(), k, "{done:?}");
            let (before, after) = (a.to_text(t), a.to_text(m[0]));
            assert_ne!(before, after);
            // Same tree shape and the same atoms: only heads changed.
            let atoms = |s: &str| s.split(|c: char| c == '(' || c == ')' || c.is_whitespace()).count();
            assert_eq!(atoms(&before), atoms(&after), "{after}");
        }
    }
}
