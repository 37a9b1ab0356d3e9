//! The model: RDF terms and graphs, and the query syntax tree the generator builds and the
//! printer writes. Nothing here knows a store.

use serde::{Deserialize, Serialize};

/// The XML Schema namespace, for datatype IRIs.
pub const XSD: &str = "http://www.w3.org/2001/XMLSchema#";

/// The predicate of the marker triple every blank node carries (`_:b3 <MARK> 3`): it makes
/// each blank node distinguishable by construction, so a store's labels map to the
/// generator's ids with one query (RD²'s mapping table, made unambiguous).
pub const BNODE_MARK: &str = "http://crosscheck.invalid/bnode";

/// An RDF literal: its lexical form with a datatype IRI, or a language tag (RDF 1.1: then
/// the datatype is `rdf:langString`, which is not written).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Lit {
    pub lexical: String,
    pub datatype: String,
    pub lang: Option<String>,
}

impl Lit {
    pub fn typed(lexical: impl Into<String>, xsd_local: &str) -> Lit {
        Lit { lexical: lexical.into(), datatype: format!("{XSD}{xsd_local}"), lang: None }
    }

    pub fn lang(lexical: impl Into<String>, tag: &str) -> Lit {
        Lit { lexical: lexical.into(), datatype: String::new(), lang: Some(tag.into()) }
    }

    /// The datatype's local name in the XSD namespace (`integer`), if it is one.
    pub fn xsd(&self) -> Option<&str> {
        self.datatype.strip_prefix(XSD)
    }
}

/// A node of the generated graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Node {
    Iri(String),
    /// A blank node by generator id.
    Blank(u32),
    Lit(Lit),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Triple {
    pub s: Node,
    pub p: String,
    pub o: Node,
}

/// The graph of a round, loaded into every store with one `INSERT DATA`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Graph {
    /// The round (setup id): cases of one round share the loaded graph.
    pub round: u64,
    /// The prefix declared in the prologue (`name`, namespace IRI), as RD² generates one.
    pub prefix: (String, String),
    pub triples: Vec<Triple>,
}

/// A position of a triple pattern.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PTerm {
    Var(u32),
    Iri(String),
    Lit(Lit),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pattern {
    pub s: PTerm,
    pub p: PTerm,
    pub o: PTerm,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// The built-in functions the generator calls (each behind a dialect capability).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Func {
    Str,
    Lang,
    Datatype,
    IsIri,
    IsLiteral,
    IsBlank,
}

/// A FILTER expression: RD²'s typed operator trees, leaves constants or the query's variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Expr {
    Var(u32),
    Iri(String),
    Lit(Lit),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Bound(u32),
    Call(Func, Box<Expr>),
    /// `COALESCE(a, b)`: the partition oracle's way to turn an error into a value.
    Coalesce(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Nodes in the tree, the reducer's measure.
    pub fn size(&self) -> usize {
        1 + self.children().iter().map(|c| c.size()).sum::<usize>()
    }

    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Var(_) | Expr::Iri(_) | Expr::Lit(_) | Expr::Bound(_) => vec![],
            Expr::Not(a) | Expr::Neg(a) | Expr::Plus(a) | Expr::Call(_, a) => vec![a],
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) | Expr::Coalesce(a, b) => {
                vec![a, b]
            }
        }
    }
}

/// A group graph pattern: a basic graph pattern, then an optional UNION of two basic graph
/// patterns, an OPTIONAL one, and FILTERs (which apply to the whole group, as SPARQL says).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub bgp: Vec<Pattern>,
    pub union: Option<(Vec<Pattern>, Vec<Pattern>)>,
    pub optional: Option<Vec<Pattern>>,
    pub filters: Vec<Expr>,
}

/// A SELECT query.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Query {
    pub distinct: bool,
    /// Projected variables, in projection order (never `*`: the order is the query's).
    pub project: Vec<u32>,
    pub group: Group,
    /// Sort keys: a variable and whether descending.
    pub order: Vec<(u32, bool)>,
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

impl Query {
    /// Whether the sort keys cover every projected variable: only then can a store's order,
    /// or a LIMIT/OFFSET window, be compared (ties of whole rows are equal rows).
    pub fn total_order(&self) -> bool {
        !self.order.is_empty() && self.project.iter().all(|v| self.order.iter().any(|(k, _)| k == v))
    }

    pub fn size(&self) -> usize {
        let g = &self.group;
        let union = g.union.as_ref().map_or(0, |(a, b)| 1 + a.len() + b.len());
        let opt = g.optional.as_ref().map_or(0, |o| 1 + o.len());
        let filters: usize = g.filters.iter().map(Expr::size).sum();
        let mods = usize::from(self.distinct) + self.order.len() + usize::from(self.limit.is_some());
        self.project.len() + g.bgp.len() + union + opt + filters + mods + usize::from(self.offset.is_some())
    }
}

/// One self-contained test case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub index: u64,
    pub graph: Graph,
    pub query: Query,
    /// The partition oracle's predicate p (absent for the other oracles).
    #[serde(default)]
    pub pred: Option<Expr>,
}
