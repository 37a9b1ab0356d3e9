//! Hash-consed SMT-LIB terms. Every distinct term is stored once in an [`Arena`], so STORM's
//! pools hold small ids, building `and`/`not` is a hash lookup, and the Boolean depth and tree
//! size of every node are computed once when it is made.

use crate::sexp::{Pos, Sexp, SyntaxError};
use std::collections::HashMap;

pub type TermId = u32;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A symbol, literal or nullary identifier, spelled as in the source (`x`, `#b01`,
    /// `(_ bv5 8)`, `"abc"`). Symbols we do not know pass through untouched.
    Atom(String),
    /// An application; the head is printed as given (`bvadd`, `(_ extract 3 0)`,
    /// `(as const (Array Int Int))`).
    App(String, Vec<TermId>),
    /// `(let ((x t) ...) body)`.
    Let(Vec<(String, TermId)>, TermId),
    /// `(forall|exists ((x S) ...) body)`; the sorted variables are kept as text.
    Quant(String, String, TermId),
    /// `(! t :named n ...)`; the attributes are kept as text.
    Annot(TermId, String),
    /// Anything else (`match`, `lambda`) kept verbatim; opaque to the fuzzer and evaluator.
    Raw(String),
}

#[derive(Default, Clone, Debug)]
pub struct Arena {
    nodes: Vec<Node>,
    /// Nesting depth of `and`/`or`/`not` (STORM's depth: only Boolean connectives count).
    depth: Vec<u32>,
    /// Number of nodes of the tree, saturating.
    size: Vec<u32>,
    map: HashMap<Node, TermId>,
}

/// Terms nested deeper than this are refused rather than risk the worker's stack.
const MAX_NESTING: usize = 4000;

fn is_connective(head: &str) -> bool {
    matches!(head, "and" | "or" | "not")
}

impl Arena {
    pub fn new() -> Arena {
        Arena::default()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t as usize]
    }

    pub fn depth(&self, t: TermId) -> u32 {
        self.depth[t as usize]
    }

    pub fn size(&self, t: TermId) -> u32 {
        self.size[t as usize]
    }

    pub fn intern(&mut self, n: Node) -> TermId {
        if let Some(&id) = self.map.get(&n) {
            return id;
        }
        let kids: Vec<TermId> = self.children_of(&n);
        let sub_depth = kids.iter().map(|&k| self.depth(k)).max().unwrap_or(0);
        let depth = match &n {
            Node::App(h, _) if is_connective(h) => sub_depth + 1,
            _ => 0,
        };
        let size = kids.iter().fold(1u32, |a, &k| a.saturating_add(self.size(k)));
        #[expect(
            clippy::cast_possible_truncation,
            reason = "ids are u32 to keep terms small; memory runs out long before 2^32 distinct terms"
        )]
        let id = self.nodes.len() as TermId;
        self.nodes.push(n.clone());
        self.depth.push(depth);
        self.size.push(size);
        self.map.insert(n, id);
        id
    }

    fn children_of(&self, n: &Node) -> Vec<TermId> {
        match n {
            Node::Atom(_) | Node::Raw(_) => Vec::new(),
            Node::App(_, a) => a.clone(),
            Node::Let(b, body) => b.iter().map(|(_, t)| *t).chain([*body]).collect(),
            Node::Quant(_, _, body) => vec![*body],
            Node::Annot(t, _) => vec![*t],
        }
    }

    pub fn children(&self, t: TermId) -> Vec<TermId> {
        self.children_of(self.node(t))
    }

    pub fn atom(&mut self, s: &str) -> TermId {
        self.intern(Node::Atom(s.to_string()))
    }

    pub fn app(&mut self, head: &str, args: Vec<TermId>) -> TermId {
        self.intern(Node::App(head.to_string(), args))
    }

    pub fn and2(&mut self, a: TermId, b: TermId) -> TermId {
        self.app("and", vec![a, b])
    }

    pub fn not(&mut self, a: TermId) -> TermId {
        self.app("not", vec![a])
    }

    /// The head and arguments of an application.
    pub fn as_app(&self, t: TermId) -> Option<(&str, &[TermId])> {
        match self.node(t) {
            Node::App(h, a) => Some((h, a)),
            _ => None,
        }
    }

    /// Builds a term from its s-expression.
    pub fn from_sexp(&mut self, s: &Sexp) -> Result<TermId, SyntaxError> {
        self.build_at(s, 0)
    }

    fn build_at(&mut self, s: &Sexp, nesting: usize) -> Result<TermId, SyntaxError> {
        let err = |pos: Pos, m: &str| Err(SyntaxError { pos, message: m.to_string() });
        if nesting > MAX_NESTING {
            return err(s.pos(), "term nested too deeply");
        }
        let items = match s {
            Sexp::Atom(a, _) => return Ok(self.atom(a)),
            Sexp::List(items, _) => items,
        };
        let Some(first) = items.first() else {
            return err(s.pos(), "empty term ()");
        };
        match first.atom() {
            Some("_") => return Ok(self.atom(&s.to_string())),
            Some("as") if items.len() == 3 => return Ok(self.atom(&s.to_string())),
            Some("let") => {
                let (Some(binds), Some(body), 3) = (items.get(1).and_then(Sexp::list), items.get(2), items.len())
                else {
                    return err(s.pos(), "let needs ((name term) ...) and a body");
                };
                let mut bs = Vec::new();
                for b in binds {
                    match b.list() {
                        Some([Sexp::Atom(n, _), t]) => bs.push((n.clone(), self.build_at(t, nesting + 1)?)),
                        _ => return err(b.pos(), "let binding must be (name term)"),
                    }
                }
                let body = self.build_at(body, nesting + 1)?;
                return Ok(self.intern(Node::Let(bs, body)));
            }
            Some(q @ ("forall" | "exists")) => {
                let (Some(vars), Some(body), 3) = (items.get(1), items.get(2), items.len()) else {
                    return err(s.pos(), "quantifier needs ((name sort) ...) and a body");
                };
                let body = self.build_at(body, nesting + 1)?;
                return Ok(self.intern(Node::Quant(q.to_string(), vars.to_string(), body)));
            }
            Some("!") => {
                let Some(t) = items.get(1) else {
                    return err(s.pos(), "(! term attributes) without a term");
                };
                let t = self.build_at(t, nesting + 1)?;
                let attrs: Vec<String> = items[2..].iter().map(|a| a.to_string()).collect();
                return Ok(self.intern(Node::Annot(t, attrs.join(" "))));
            }
            Some("match" | "lambda") => return Ok(self.intern(Node::Raw(s.to_string()))),
            _ => {}
        }
        if items.len() == 1 {
            // `(f)` is not legal SMT-LIB; keep it as written.
            return Ok(self.intern(Node::Raw(s.to_string())));
        }
        let head = first.to_string();
        let mut args = Vec::with_capacity(items.len() - 1);
        for a in &items[1..] {
            args.push(self.build_at(a, nesting + 1)?);
        }
        Ok(self.intern(Node::App(head, args)))
    }

    /// Prints a term as SMT-LIB text.
    pub fn print(&self, t: TermId, out: &mut String) {
        match self.node(t) {
            Node::Atom(a) | Node::Raw(a) => out.push_str(a),
            Node::App(h, args) => {
                out.push('(');
                out.push_str(h);
                for &a in args {
                    out.push(' ');
                    self.print(a, out);
                }
                out.push(')');
            }
            Node::Let(bs, body) => {
                out.push_str("(let (");
                for (i, (n, v)) in bs.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push('(');
                    out.push_str(n);
                    out.push(' ');
                    self.print(*v, out);
                    out.push(')');
                }
                out.push_str(") ");
                self.print(*body, out);
                out.push(')');
            }
            Node::Quant(q, vars, body) => {
                out.push('(');
                out.push_str(q);
                out.push(' ');
                out.push_str(vars);
                out.push(' ');
                self.print(*body, out);
                out.push(')');
            }
            Node::Annot(inner, attrs) => {
                out.push_str("(! ");
                self.print(*inner, out);
                out.push(' ');
                out.push_str(attrs);
                out.push(')');
            }
        }
    }

    pub fn to_text(&self, t: TermId) -> String {
        let mut s = String::new();
        self.print(t, &mut s);
        s
    }

    /// Parses one term from text (used by shrinking and model checking on stored cases).
    pub fn parse_term(&mut self, text: &str) -> Result<TermId, SyntaxError> {
        let s = crate::sexp::parse_one(text)?;
        self.from_sexp(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_shares_and_depth_counts_connectives() {
        let mut a = Arena::new();
        let t1 = a.parse_term("(and (> x 1) (not (= y 2)))").expect("term");
        let t2 = a.parse_term("(and (> x 1) (not (= y 2)))").expect("term");
        assert_eq!(t1, t2);
        assert_eq!(a.depth(t1), 2);
        assert_eq!(a.to_text(t1), "(and (> x 1) (not (= y 2)))");
        let l = a.parse_term("(let ((z (+ x 1))) (forall ((k Int)) (! (> z k) :pattern ((f k)))))").expect("let");
        assert_eq!(a.to_text(l), "(let ((z (+ x 1))) (forall ((k Int)) (! (> z k) :pattern ((f k)))))");
        let i = a.parse_term("((_ extract 3 0) (_ bv5 8))").expect("indexed");
        assert_eq!(a.as_app(i).map(|(h, _)| h), Some("(_ extract 3 0)"));
    }
}
