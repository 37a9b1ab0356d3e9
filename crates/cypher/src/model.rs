//! The leg's model: a property-graph schema (labels and relationship types with typed
//! properties, each relationship type with the label pairs it may connect), a graph of nodes
//! and relationships that all carry a unique `id`, and the query tree (MATCH / OPTIONAL MATCH /
//! WITH / UNWIND clauses, then RETURN).

use serde::{Deserialize, Serialize};

/// A property's type. Floats never appear as stored values or literals (their text differs
/// between engines); an `avg()` is the only float a query computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ty {
    Int,
    Str,
    Bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prop {
    /// Globally unique (`k0`, `k1`, ...), so a key names one label's or type's property.
    pub key: String,
    pub ty: Ty,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelType {
    pub props: Vec<Prop>,
    /// The (source label, target label) pairs the type may connect.
    pub pairs: Vec<(usize, usize)>,
}

/// Labels `L<i>` and relationship types `T<i>`, by index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schema {
    pub labels: Vec<Vec<Prop>>,
    pub types: Vec<RelType>,
}

impl Schema {
    /// The properties a node of `label` has (every label's when unknown).
    pub fn node_props(&self, label: Option<usize>) -> Vec<&Prop> {
        match label {
            Some(l) => self.labels.get(l).map(|p| p.iter().collect()).unwrap_or_default(),
            None => self.labels.iter().flatten().collect(),
        }
    }

    /// The properties a relationship of `ty` has (every type's when unknown).
    pub fn rel_props(&self, ty: Option<usize>) -> Vec<&Prop> {
        match ty {
            Some(t) => self.types.get(t).map(|r| r.props.iter().collect()).unwrap_or_default(),
            None => self.types.iter().flat_map(|t| &t.props).collect(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Lit {
    Int(i64),
    Str(String),
    Bool(bool),
}

impl Lit {
    pub fn ty(&self) -> Ty {
        match self {
            Lit::Int(_) => Ty::Int,
            Lit::Str(_) => Ty::Str,
            Lit::Bool(_) => Ty::Bool,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub id: i64,
    /// One label, or several where the dialects of the run allow it; never none, since
    /// schema-first engines keep every node in a label's table.
    pub labels: Vec<usize>,
    pub props: Vec<(String, Lit)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rel {
    pub id: i64,
    pub ty: usize,
    pub from: i64,
    pub to: i64,
    pub props: Vec<(String, Lit)>,
}

/// A property index (GDsmith creates the same random ones in every engine): on a label's or a
/// relationship type's property key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Index {
    Node(usize, String),
    Rel(usize, String),
}

/// The graph of one round: nodes and relationships share one id counter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub round: u64,
    pub schema: Schema,
    pub nodes: Vec<Node>,
    pub rels: Vec<Rel>,
    /// Created after the elements, where the dialect has property indexes.
    #[serde(default)]
    pub indexes: Vec<Index>,
}

impl Graph {
    pub fn node(&self, id: i64) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dir {
    Out,
    In,
    Both,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodePat {
    pub var: String,
    pub label: Option<usize>,
    pub props: Vec<(String, Lit)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelPat {
    /// Empty for an anonymous relationship (`-[:T0]->`): a variable-length one never binds a
    /// variable, since its variable would be a list that the generator's facts cannot type.
    pub var: String,
    pub ty: Option<usize>,
    pub dir: Dir,
    pub props: Vec<(String, Lit)>,
    /// A variable-length relationship's bounds; `None` for one relationship.
    #[serde(default)]
    pub len: Option<VarLen>,
}

/// A variable-length relationship's bounds: `*min..max`, `*..max` (a lower bound of 1) when
/// `min` is `None`, `*n` when both are `n`. An upper bound always: Kuzu's default one is 30 and
/// Cypher's none, and the number of trails grows fast with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VarLen {
    pub min: Option<u32>,
    pub max: u32,
}

/// A linear path pattern: a node, then (relationship, node) hops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pattern {
    pub start: NodePat,
    pub hops: Vec<(RelPat, NodePat)>,
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
pub enum StrOp {
    StartsWith,
    EndsWith,
    Contains,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Func {
    ToUpper,
    ToLower,
    Size,
    Abs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Agg {
    CountStar,
    Count,
    Min,
    Max,
    Sum,
    Avg,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expr {
    Lit(Lit),
    Var(String),
    Prop(String, String),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Str(StrOp, Box<Expr>, Box<Expr>),
    /// `IS NULL` (`false`) or `IS NOT NULL` (`true`).
    IsNull(Box<Expr>, bool),
    /// Integer `+` and `-` (operands are bounded so that they cannot overflow).
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    /// String concatenation (`+`).
    Concat(Box<Expr>, Box<Expr>),
    Call(Func, Box<Expr>),
    /// An aggregate at the top of a projection item; `CountStar` has no argument.
    Agg(Agg, Option<Box<Expr>>),
}

impl Expr {
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Lit(_) | Expr::Var(_) | Expr::Prop(..) | Expr::Agg(_, None) => vec![],
            Expr::Not(a) | Expr::IsNull(a, _) | Expr::Call(_, a) | Expr::Agg(_, Some(a)) => vec![a],
            Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Cmp(_, a, b)
            | Expr::Str(_, a, b)
            | Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Concat(a, b) => vec![a, b],
        }
    }

    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Lit(_) | Expr::Var(_) | Expr::Prop(..) | Expr::Agg(_, None) => vec![],
            Expr::Not(a) | Expr::IsNull(a, _) | Expr::Call(_, a) | Expr::Agg(_, Some(a)) => vec![a],
            Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Cmp(_, a, b)
            | Expr::Str(_, a, b)
            | Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Concat(a, b) => vec![a, b],
        }
    }

    pub fn size(&self) -> usize {
        1 + self.children().iter().map(|c| c.size()).sum::<usize>()
    }

    /// The type the expression's form gives it (`None` for a variable, a property or an
    /// aggregate, whose type depends on what they name).
    pub fn ty(&self) -> Option<Ty> {
        match self {
            Expr::Lit(l) => Some(l.ty()),
            Expr::Var(_) | Expr::Prop(..) | Expr::Agg(..) => None,
            Expr::Not(_) | Expr::And(..) | Expr::Or(..) | Expr::Cmp(..) | Expr::Str(..) | Expr::IsNull(..) => {
                Some(Ty::Bool)
            }
            Expr::Add(..) | Expr::Sub(..) | Expr::Call(Func::Size | Func::Abs, _) => Some(Ty::Int),
            Expr::Concat(..) | Expr::Call(Func::ToUpper | Func::ToLower, _) => Some(Ty::Str),
        }
    }

    /// The variables the expression reads.
    pub fn vars(&self) -> Vec<&str> {
        match self {
            Expr::Var(v) | Expr::Prop(v, _) => vec![v.as_str()],
            e => e.children().into_iter().flat_map(Expr::vars).collect(),
        }
    }

    pub fn has_agg(&self) -> bool {
        matches!(self, Expr::Agg(..)) || self.children().iter().any(|c| c.has_agg())
    }
}

/// A projection item `expr AS alias` (a variable passed on keeps its name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub expr: Expr,
    pub alias: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Clause {
    Match { optional: bool, patterns: Vec<Pattern>, filter: Option<Expr> },
    With { distinct: bool, items: Vec<Item>, filter: Option<Expr> },
    Unwind { list: Vec<Expr>, alias: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Return {
    pub distinct: bool,
    pub items: Vec<Item>,
    /// `ORDER BY` every item, in item order: a total order of the rows (ties are equal rows).
    pub order: bool,
    /// Only under `order`.
    pub limit: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    pub clauses: Vec<Clause>,
    pub ret: Return,
}

/// The partition oracle's predicate and the MATCH clause (an index into the query's clauses)
/// whose WHERE it splits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    pub clause: usize,
    pub pred: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    pub index: u64,
    pub graph: Graph,
    pub query: Query,
    pub split: Option<Split>,
    /// The equivalence oracle's transformation.
    #[serde(default)]
    pub transform: Option<crate::transform::Transform>,
}
