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

/// The XSD types a cast (an XSD constructor function, `xsd:integer(e)`) converts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum XsdCast {
    Integer,
    Decimal,
    Double,
    String,
    Boolean,
}

impl XsdCast {
    /// The type's local name in the XSD namespace.
    pub fn local(self) -> &'static str {
        match self {
            XsdCast::Integer => "integer",
            XsdCast::Decimal => "decimal",
            XsdCast::Double => "double",
            XsdCast::String => "string",
            XsdCast::Boolean => "boolean",
        }
    }
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
    IsNumeric,
    StrLen,
    UCase,
    LCase,
    Contains,
    StrStarts,
    StrEnds,
    /// `REGEX(text, pattern)`.
    Regex,
    SameTerm,
    Abs,
    Ceil,
    Floor,
    Round,
    /// `COALESCE(a, b, ...)`: the partition oracle's way to turn an error into a value.
    Coalesce,
    /// `IF(condition, then, else)`.
    If,
    Cast(XsdCast),
}

/// The aggregate functions. SAMPLE is left out: any value of the group is a right answer, so
/// stores may differ without a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AggFunc {
    Count,
    Sum,
    Min,
    Max,
    Avg,
    /// With [`CONCAT_SEPARATOR`]; SPARQL leaves the order of the pieces open, so answers are
    /// compared as multisets of pieces (`normalize::Column::Concat`).
    GroupConcat,
}

/// The separator of every generated GROUP_CONCAT: a character no generated term contains
/// (`gen::ALPHABET`, the IRIs and the language tags have no `$`), and ASCII (Virtuoso reads
/// a non-ASCII character of a query sent as a form as `?`).
pub const CONCAT_SEPARATOR: &str = "$";

/// An aggregate: `COUNT(*)` when `arg` is `None`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Aggregate {
    pub func: AggFunc,
    pub distinct: bool,
    pub arg: Option<Expr>,
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
    Call(Func, Vec<Expr>),
    /// `EXISTS { patterns }`, or `NOT EXISTS` when the flag is set.
    Exists(bool, Vec<Pattern>),
    /// An aggregate, in HAVING only.
    Agg(Box<Aggregate>),
}

impl Expr {
    /// Nodes in the tree, the reducer's measure.
    pub fn size(&self) -> usize {
        let own = match self {
            Expr::Exists(_, ps) => ps.len(),
            _ => 0,
        };
        1 + own + self.children().iter().map(|c| c.size()).sum::<usize>()
    }

    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Var(_) | Expr::Iri(_) | Expr::Lit(_) | Expr::Bound(_) | Expr::Exists(..) => vec![],
            Expr::Not(a) | Expr::Neg(a) | Expr::Plus(a) => vec![a],
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => vec![a, b],
            Expr::Call(_, args) => args.iter().collect(),
            Expr::Agg(a) => a.arg.iter().collect(),
        }
    }

    /// The same children, to replace one in place (the reducer's step).
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Var(_) | Expr::Iri(_) | Expr::Lit(_) | Expr::Bound(_) | Expr::Exists(..) => vec![],
            Expr::Not(a) | Expr::Neg(a) | Expr::Plus(a) => vec![a],
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => vec![a, b],
            Expr::Call(_, args) => args.iter_mut().collect(),
            Expr::Agg(a) => a.arg.iter_mut().collect(),
        }
    }

    /// Whether the reducer must keep this node whole: a guard the generator wrote so the
    /// query means the same on every store of the run (the EBV guard `LANG(e) = "" && e`, with
    /// `COALESCE(LANG(e), "")` for LANG where a store needs it, the IF of a value's guard, the
    /// kind test `COALESCE(K(x), false) && x < y` of an ordered comparison) or an aggregate's
    /// argument. Taking it apart would turn the
    /// finding into a dialect difference the run avoided, not the bug it found.
    pub fn is_guard(&self) -> bool {
        let empty = |e: &Expr| matches!(e, Expr::Lit(l) if l.lexical.is_empty());
        match self {
            Expr::Call(Func::If, _) | Expr::Agg(_) => true,
            // `COALESCE(LANG(e), "")`: LANG where a store leaves it unbound (`Cap::LangOfUntagged`).
            Expr::Call(Func::Coalesce, a) => matches!(a.as_slice(), [Expr::Call(Func::Lang, _), e] if empty(e)),
            Expr::And(l, r) => match &**l {
                Expr::Call(Func::Coalesce, args) => {
                    matches!(args.as_slice(), [_, Expr::Lit(f)] if f.lexical == "false" && f.xsd() == Some("boolean"))
                }
                Expr::Cmp(CmpOp::Eq, lang, e) if empty(e) => {
                    let lang = match &**lang {
                        Expr::Call(Func::Coalesce, a) if a.len() == 2 && a.get(1).is_some_and(empty) => a.first(),
                        other => Some(other),
                    };
                    matches!(lang, Some(Expr::Call(Func::Lang, a)) if a.first() == Some(&**r))
                }
                _ => false,
            },
            _ => false,
        }
    }

    pub fn call(f: Func, args: Vec<Expr>) -> Expr {
        Expr::Call(f, args)
    }

    pub fn negate(e: Expr) -> Expr {
        Expr::Not(Box::new(e))
    }
}

/// A property path (SPARQL 1.1 §9).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Path {
    Iri(String),
    /// `^p`.
    Inv(Box<Path>),
    /// `a/b`.
    Seq(Box<Path>, Box<Path>),
    /// `a|b`.
    Alt(Box<Path>, Box<Path>),
    /// `p*`.
    Star(Box<Path>),
    /// `p+`.
    Plus(Box<Path>),
    /// `p?`.
    Opt(Box<Path>),
    /// `!(p1|^p2)`: IRIs, each with whether it is inverse.
    Neg(Vec<(String, bool)>),
}

impl Path {
    pub fn size(&self) -> usize {
        match self {
            Path::Iri(_) => 1,
            Path::Neg(v) => v.len(),
            Path::Inv(a) | Path::Star(a) | Path::Plus(a) | Path::Opt(a) => 1 + a.size(),
            Path::Seq(a, b) | Path::Alt(a, b) => 1 + a.size() + b.size(),
        }
    }
}

/// A triple pattern whose predicate is a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PathPattern {
    pub s: PTerm,
    pub path: Path,
    pub o: PTerm,
}

/// Inline data: `VALUES (?a ?b) { (x y) (UNDEF z) }`; cells are constants (never `PTerm::Var`)
/// or UNDEF.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Values {
    pub vars: Vec<u32>,
    pub rows: Vec<Vec<Option<PTerm>>>,
}

/// A group graph pattern, printed in this order: a basic graph pattern with path patterns,
/// an optional UNION of two basic graph patterns, an OPTIONAL one, VALUES, BINDs, a MINUS, and
/// FILTERs (which apply to the whole group, as SPARQL says).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub bgp: Vec<Pattern>,
    #[serde(default)]
    pub paths: Vec<PathPattern>,
    pub union: Option<(Vec<Pattern>, Vec<Pattern>)>,
    pub optional: Option<Vec<Pattern>>,
    #[serde(default)]
    pub values: Option<Values>,
    /// `BIND(expr AS ?v)`, each variable new to the group.
    #[serde(default)]
    pub binds: Vec<(Expr, u32)>,
    #[serde(default)]
    pub minus: Option<Vec<Pattern>>,
    pub filters: Vec<Expr>,
}

/// GROUP BY keys, the aggregates the projection names, and HAVING conditions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Aggregation {
    pub keys: Vec<u32>,
    /// Each aggregate with the variable it is projected as (`(COUNT(?x) AS ?v7)`).
    pub aggs: Vec<(u32, Aggregate)>,
    pub having: Vec<Expr>,
}

impl Aggregation {
    pub fn of(&self, v: u32) -> Option<&Aggregate> {
        self.aggs.iter().find(|(k, _)| *k == v).map(|(_, a)| a)
    }
}

/// A SELECT query.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Query {
    pub distinct: bool,
    /// Projected variables, in projection order (never `*`: the order is the query's); under
    /// an aggregation, group keys and aggregate variables.
    pub project: Vec<u32>,
    pub group: Group,
    #[serde(default)]
    pub aggregation: Option<Aggregation>,
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

    /// The aggregate a projected variable stands for, if any.
    pub fn aggregate(&self, v: u32) -> Option<&Aggregate> {
        self.aggregation.as_ref().and_then(|a| a.of(v))
    }

    pub fn size(&self) -> usize {
        let g = &self.group;
        let pats = |p: &Option<Vec<Pattern>>| p.as_ref().map_or(0, |o| 1 + o.len());
        let union = g.union.as_ref().map_or(0, |(a, b)| 1 + a.len() + b.len());
        let paths: usize = g.paths.iter().map(|p| p.path.size()).sum();
        let values = g.values.as_ref().map_or(0, |v| 1 + v.vars.len() + v.rows.len());
        let binds: usize = g.binds.iter().map(|(e, _)| e.size()).sum();
        let filters: usize = g.filters.iter().map(Expr::size).sum();
        let agg = self.aggregation.as_ref().map_or(0, |a| {
            let args: usize = a.aggs.iter().map(|(_, x)| 1 + x.arg.as_ref().map_or(0, Expr::size)).sum();
            1 + a.keys.len() + args + a.having.iter().map(Expr::size).sum::<usize>()
        });
        let mods = usize::from(self.distinct) + self.order.len() + usize::from(self.limit.is_some());
        self.project.len()
            + g.bgp.len()
            + paths
            + union
            + pats(&g.optional)
            + values
            + binds
            + pats(&g.minus)
            + filters
            + agg
            + mods
            + usize::from(self.offset.is_some())
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
