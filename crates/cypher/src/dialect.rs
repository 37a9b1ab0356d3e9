//! The Cypher dialects: what each engine can take (the generator never builds what a dialect of
//! the run lacks: GDsmith's per-engine feature masks) and how its graph script starts.

use crate::model::{Index, Schema, Ty};

/// A construct some dialects lack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// Nodes with more than one label. Kuzu keeps each node in one node table, and
    /// `(n:L0:L1)` in a Kuzu pattern means L0 *or* L1.
    MultiLabel,
    /// `MATCH` right after `OPTIONAL MATCH`. FalkorDB: "A WITH clause is required to introduce
    /// a MATCH clause after an OPTIONAL MATCH."
    MatchAfterOptional,
    /// String `+` with a null operand is null (openCypher). Kuzu's is the other operand
    /// (`'a' + n.s` is `'a'` where `n.s` is null; checked in Kuzu 0.11.3's Python module).
    ConcatNull,
    /// `sum()` of integers is an integer, and null over no rows (Kuzu). FalkorDB's is a float,
    /// and `0.0` over no rows.
    IntegerSum,
    /// An undirected pattern matches a self-loop once (FalkorDB); Kuzu matches it twice, once
    /// per direction (`MATCH (a)-[r]-(b)` over one loop: 2 rows).
    SelfLoopOnce,
    /// An alias computed from an aggregate (`WITH sum(n.k) AS a WITH a + 1 AS b`) as an
    /// aggregate's operand (`RETURN sum(b)`) or in an OPTIONAL MATCH's WHERE. Both are valid
    /// openCypher, and FalkorDB 4.16.3 and GraphQLite 0.12.0 take them; Kuzu 0.11.3 rejects
    /// them ("Expression c contains nested aggregation"; "Cannot evaluate expression with type
    /// AGGREGATE_FUNCTION"; its bugs, checked in its Python module), and GDsmith's DelayReturn
    /// makes them common.
    AggregatedOperand,
}

/// A dialect: its name (what the engine reports), capabilities and schema statements.
pub trait Dialect: Sync {
    fn name(&self) -> &'static str;
    fn has(&self, cap: Cap) -> bool;
    /// The statements that declare the schema before the graph is created (schema-first
    /// engines); none for schema-free ones.
    fn ddl(&self, _schema: &Schema) -> Vec<String> {
        Vec::new()
    }
    /// The statement that creates a property index, if the dialect has them.
    fn index(&self, _index: &Index) -> Option<String> {
        None
    }
    /// Whether an error message is one this engine raises by design for a valid query.
    fn expected_error(&self, _message: &str) -> bool {
        false
    }
}

/// Kuzu (and LadybugDB): schema first, one label per node, relationship tables naming their
/// FROM/TO label pairs (docs.kuzudb.com, "Create table").
pub struct Kuzu;

impl Dialect for Kuzu {
    fn name(&self) -> &'static str {
        "kuzu"
    }

    fn has(&self, cap: Cap) -> bool {
        match cap {
            Cap::MultiLabel | Cap::ConcatNull | Cap::SelfLoopOnce | Cap::AggregatedOperand => false,
            Cap::MatchAfterOptional | Cap::IntegerSum => true,
        }
    }

    fn ddl(&self, schema: &Schema) -> Vec<String> {
        let cols = |props: &[crate::model::Prop]| -> String {
            props.iter().map(|p| format!(", {} {}", p.key, kuzu_type(p.ty))).collect()
        };
        let mut out: Vec<String> = schema
            .labels
            .iter()
            .enumerate()
            .map(|(i, props)| format!("CREATE NODE TABLE L{i}(id INT64{}, PRIMARY KEY(id))", cols(props)))
            .collect();
        for (i, t) in schema.types.iter().enumerate() {
            let pairs: Vec<String> = t.pairs.iter().map(|(a, b)| format!("FROM L{a} TO L{b}")).collect();
            out.push(format!("CREATE REL TABLE T{i}({}, id INT64{})", pairs.join(", "), cols(&t.props)));
        }
        out
    }
}

fn kuzu_type(t: Ty) -> &'static str {
    match t {
        Ty::Int => "INT64",
        Ty::Str => "STRING",
        Ty::Bool => "BOOLEAN",
    }
}

/// FalkorDB: schema free, multi-label nodes.
pub struct FalkorDb;

impl Dialect for FalkorDb {
    fn name(&self) -> &'static str {
        "falkordb"
    }

    fn has(&self, cap: Cap) -> bool {
        match cap {
            Cap::MultiLabel | Cap::ConcatNull | Cap::SelfLoopOnce | Cap::AggregatedOperand => true,
            Cap::MatchAfterOptional | Cap::IntegerSum => false,
        }
    }

    /// Range indexes (docs.falkordb.com, "Indexing").
    fn index(&self, index: &Index) -> Option<String> {
        Some(match index {
            Index::Node(l, k) => format!("CREATE INDEX FOR (n:L{l}) ON (n.{k})"),
            Index::Rel(t, k) => format!("CREATE INDEX FOR ()-[r:T{t}]-() ON (r.{k})"),
        })
    }
}

/// GraphQLite: Cypher translated to SQL over SQLite, schema free. Checked in 0.12.0: multi-label
/// nodes, MATCH after OPTIONAL MATCH, `'a' + null` is null, `sum()` of integers an integer and
/// null over no rows, an undirected self-loop matched once.
pub struct GraphQlite;

impl Dialect for GraphQlite {
    fn name(&self) -> &'static str {
        "graphqlite"
    }

    fn has(&self, _: Cap) -> bool {
        true
    }
}

/// Grafeo (crate 0.5.44), schema free. Checked on 0.5.44 beside Kuzu 0.11.3 and FalkorDB
/// 4.16.3: multi-label nodes (`(n:L0:L1)` means both labels), MATCH right after OPTIONAL MATCH
/// (a null from the OPTIONAL MATCH kept, as Kuzu does), `'a' + null` is null, `sum()` of
/// integers an integer and null over no rows (as Kuzu), and an undirected self-loop matched
/// twice, once per direction (as Kuzu). Aggregated operands were not checked: kept off.
pub struct Grafeo;

impl Dialect for Grafeo {
    fn name(&self) -> &'static str {
        "grafeo"
    }

    fn has(&self, cap: Cap) -> bool {
        match cap {
            Cap::MultiLabel | Cap::ConcatNull | Cap::MatchAfterOptional | Cap::IntegerSum => true,
            Cap::SelfLoopOnce | Cap::AggregatedOperand => false,
        }
    }
}

static DIALECTS: &[&dyn Dialect] = &[&Kuzu, &FalkorDb, &GraphQlite, &Grafeo];

pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    DIALECTS.iter().copied().find(|d| d.name() == name)
}

/// Whether the dialects of the run behave alike on `cap`'s construct: all have it or none
/// does. Constructs whose meaning differs between dialects (not whether they exist) are
/// generated only then.
pub fn agree(dialects: &[&'static dyn Dialect], cap: Cap) -> bool {
    all_have(dialects, cap) || dialects.iter().all(|d| !d.has(cap))
}

/// Whether every dialect of the run has `cap`.
pub fn all_have(dialects: &[&'static dyn Dialect], cap: Cap) -> bool {
    dialects.iter().all(|d| d.has(cap))
}
