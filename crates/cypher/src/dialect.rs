//! The Cypher dialects: what each engine can take (the generator never builds what a dialect of
//! the run lacks: GDsmith's per-engine feature masks) and how its graph script starts.

use crate::model::{Index, Schema, Ty, VarLen};

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
    /// aggregate's operand (`RETURN sum(b)`) or in a MATCH's WHERE (OPTIONAL or not). Both are valid
    /// openCypher, and FalkorDB 4.16.3 and GraphQLite 0.12.0 take them; Kuzu 0.11.3 rejects
    /// them ("Expression c contains nested aggregation"; "Cannot evaluate expression with type
    /// AGGREGATE_FUNCTION"; its bugs, checked in its Python module), and GDsmith's DelayReturn
    /// makes them common.
    AggregatedOperand,
    /// Variable-length relationships (`-[:T0*1..3]->`, `*2`, `*..2`, undirected) with Cypher's
    /// trail semantics: no relationship twice in one match, nodes may repeat. Each dialect
    /// writes the bounds its own way ([`Dialect::var_length`]). The generator puts one only as
    /// the sole relationship of its MATCH, without a variable (see `query.rs`).
    VarLength,
    /// A variable-length relationship with a lower bound of 0 (`-[*0..2]-`), whose 0-length
    /// path binds both ends to any one node. Kuzu 0.11.3 and LadybugDB 0.22.0 confine both
    /// ends to the node tables that some relationship table connects, even without a type:
    /// over L0 nodes 1, 2 with 1->2 and an L1 node 3 no table connects, `(a)-[*0..1]->(b)` is
    /// 3 rows for LadybugDB (FalkorDB 4.16.3 and GraphQLite 0.12.0: Cypher's 4, every node
    /// once plus the relationship). Kuzu 0.11.3 answers 2 there, and over 1->2, 2->1, 2->3
    /// `(a)-[* TRAIL 0..2]-(b) WHERE a.id = 2` gives 7 rows where LadybugDB and the others
    /// give the 6 trails: its bug, noted here because a Kuzu run never generates the bound.
    ZeroLength,
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
    /// A variable-length relationship's `*` and bounds, as the dialect writes trail semantics.
    fn var_length(&self, len: &VarLen) -> String {
        open_cypher_bounds(len)
    }
    /// Whether an error message is one this engine raises by design for a valid query.
    fn expected_error(&self, _message: &str) -> bool {
        false
    }
    /// Whether the engine's message rejects the query as invalid Cypher (its parser, binder or
    /// type checker) rather than failing inside it. GDsmith's semantic validity counts only
    /// these ("queries that do not throw any semantics-related exception"); an internal
    /// failure on a valid query is an error bug, which validity does not hide.
    fn semantic_rejection(&self, _message: &str) -> bool {
        false
    }
}

/// `*min..max`, `*..max` or `*n`.
pub fn open_cypher_bounds(len: &VarLen) -> String {
    match len.min {
        None => format!("*..{}", len.max),
        Some(m) if m == len.max => format!("*{m}"),
        Some(m) => format!("*{m}..{}", len.max),
    }
}

/// Kuzu (and LadybugDB): schema first, one label per node, relationship tables naming their
/// FROM/TO label pairs (docs.kuzudb.com, "Create table").
///
/// Variable-length relationships walk by default (a relationship may repeat: over a 2-cycle
/// `(a)-[:T0*1..3]->(b)` gives 6 rows where Cypher's trails give 4), and the bounds take a
/// semantics keyword: `-[:T0* TRAIL 1..3]->` gives Cypher's 4 (also `* TRAIL 2`,
/// `* TRAIL ..2`, with a type or without, inline properties applying to every relationship;
/// `ACYCLIC` forbids repeated nodes). The setting `CALL recursive_pattern_semantic='TRAIL'` is
/// accepted and `current_setting` reports it, but a MATCH still walks. Checked in Kuzu
/// 0.11.3's and LadybugDB 0.22.0's Python modules.
pub struct Kuzu;

impl Dialect for Kuzu {
    fn name(&self) -> &'static str {
        "kuzu"
    }

    fn has(&self, cap: Cap) -> bool {
        match cap {
            Cap::MultiLabel | Cap::ConcatNull | Cap::SelfLoopOnce | Cap::AggregatedOperand | Cap::ZeroLength => false,
            Cap::MatchAfterOptional | Cap::IntegerSum | Cap::VarLength => true,
        }
    }

    fn var_length(&self, len: &VarLen) -> String {
        format!("* TRAIL {}", &open_cypher_bounds(len)[1..])
    }

    /// `Binder exception: Variable x is not in scope.`, `Parser exception: Invalid input ...`;
    /// an internal failure has neither (`Cannot evaluate expression with type PROPERTY.`).
    fn semantic_rejection(&self, message: &str) -> bool {
        message.starts_with("Binder exception") || message.starts_with("Parser exception")
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
///
/// Variable-length relationships are trails within the relationship (`(a)-[:T0*1..3]->(b)`
/// over a 2-cycle: 4 rows), but a fixed relationship of the same pattern may repeat in them
/// (`(a)-[e]->(b)-[*1..2]->(c)` gives the walks' 6 rows where GraphQLite gives Cypher's 4):
/// hence a variable-length relationship only alone in its MATCH. Checked in 4.16.3, where an
/// undirected one with a lower bound above 1 answers wrongly (`(a)-[*2..2]-(b)` over the
/// relationships 0->1, 1->0, 1->2 gives 5 rows, among them (2, 2), which needs 1->2 twice;
/// the 8 trails give (0,0) (0,2) (1,1) (2,0) twice each, as Kuzu's `TRAIL` and GraphQLite
/// say): an engine bug, so the construct is kept. Through a self-loop it is not even a trail:
/// over `(b)-[:T2]->(b)`, `(b)-[:T0]->(a)`, `MATCH (n0)-[*2..3]->(n2)` gives no row where
/// `(b, a)` is due, and `*2` returns the walk `(b, b)` (a bug). Its parser reads `-1 IS NULL`
/// as `-(1 IS NULL)` (a bug: unary minus binding tighter than IS NULL), so the printer writes
/// `(-1) IS NULL`.
pub struct FalkorDb;

impl Dialect for FalkorDb {
    fn name(&self) -> &'static str {
        "falkordb"
    }

    fn has(&self, cap: Cap) -> bool {
        match cap {
            Cap::MultiLabel
            | Cap::ConcatNull
            | Cap::SelfLoopOnce
            | Cap::AggregatedOperand
            | Cap::VarLength
            | Cap::ZeroLength => true,
            Cap::MatchAfterOptional | Cap::IntegerSum => false,
        }
    }

    /// `'x' not defined`, `errMsg: Invalid input ...` (its parser), `Type mismatch: ...`.
    fn semantic_rejection(&self, message: &str) -> bool {
        message.ends_with("not defined")
            || message.starts_with("errMsg: Invalid input")
            || message.starts_with("Type mismatch")
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
/// null over no rows, an undirected self-loop matched once. Variable-length relationships are
/// trails, and unique against the pattern's other relationships too (Cypher's rule).
///
/// It lacks no construct the generator builds: each failure seen in 0.12.0 is SQL its
/// translator writes wrongly, a crash or a wrong answer, on a construct it runs elsewhere, so
/// none is masked (reproduced with Debian's `sqlite3` and `.load graphqlite`):
/// - `MATCH (n) WITH n RETURN avg(n.k)` (also min, max, sum; not count; also after UNWIND):
///   "no such column: _with_0.n.id";
/// - `MATCH (n) RETURN false AS a, count(*) AS c`: "1st GROUP BY term out of range" (a
///   literal grouping key written as a GROUP BY ordinal);
/// - `MATCH (x) OPTIONAL MATCH (a)<-[r]-(b) RETURN a.id`: "no such column:
///   _gql_default_alias_2.id";
/// - `MATCH (a:L0)-[r]-(b) OPTIONAL MATCH (a) WHERE a.id = 1 RETURN 0 AS z`, and any
///   variable-length OPTIONAL MATCH whose start is not bound before
///   (`OPTIONAL MATCH (a)-[*1]->(b) RETURN a.id`, even on an empty graph): `near "AND":
///   syntax error`;
/// - relationship uniqueness applied across MATCH clauses
///   (`MATCH (n0)-[:T2*1]-(n2) MATCH (n0)-[r4]-(n2)`: 2 rows where FalkorDB gives Cypher's 4);
/// - `RETURN r3.id AS r3, count(*)` merges the groups (an alias named like its variable);
/// - two variable-length relationships in one query: "duplicate WITH table name:
///   _varlen_path_1";
/// - `OPTIONAL MATCH (a:L1 {k6: 'x'}) RETURN a.id` where nothing matches: no row where one
///   row of null is due (without the property map: the null row);
/// - a WITH of a boolean expression and an aggregate filtered by a comparison of it aborts the
///   process ("double free or corruption"), depending on the graph;
/// - under a newer SQLite than Debian's and Python's 3.40 (rusqlite's bundled 3.54, where
///   crosscheck loaded it before), booleans come back as the strings `"true"`/`"false"`, the
///   string `'0X9A'` as 154.0 (read as JSON5), and deep queries fail ("VIEWs and/or
///   subqueries nested too deep"): none occurs under 3.40, which crosscheck now runs it on
///   (Debian's `sqlite3` shell).
///
/// None of these failures is a rejection by its Cypher front end (`SyntaxError: ...`): at
/// seed 21, 526 of 600 generated queries ran, 0 were rejected as invalid, and two variable-
/// length relationships in one query were 40 of the 74 failures (`crates/cypher/tests`,
/// `stream::graphqlite_runs_the_generated_queries`).
pub struct GraphQlite;

impl Dialect for GraphQlite {
    fn name(&self) -> &'static str {
        "graphqlite"
    }

    fn has(&self, _: Cap) -> bool {
        true
    }

    /// Its Cypher front end's `SyntaxError: UndefinedVariable ...` or `SyntaxError:
    /// UnexpectedSyntax ...`; SQLite's errors on the SQL it wrote (`no such column: ...`,
    /// `near "AND": syntax error`) are failures inside.
    fn semantic_rejection(&self, message: &str) -> bool {
        message.contains("\"SyntaxError: ")
    }
}

/// Grafeo (crate 0.5.44), schema free. Checked on 0.5.44 beside Kuzu 0.11.3 and FalkorDB
/// 4.16.3: multi-label nodes (`(n:L0:L1)` means both labels), MATCH right after OPTIONAL MATCH
/// (a null from the OPTIONAL MATCH kept, as Kuzu does), `'a' + null` is null, `sum()` of
/// integers an integer and null over no rows (as Kuzu), and an undirected self-loop matched
/// twice, once per direction (as Kuzu). Aggregated operands and variable-length relationships
/// were not checked on it (its build is behind a feature), so not generated.
pub struct Grafeo;

impl Dialect for Grafeo {
    fn name(&self) -> &'static str {
        "grafeo"
    }

    fn has(&self, cap: Cap) -> bool {
        match cap {
            Cap::MultiLabel | Cap::ConcatNull | Cap::MatchAfterOptional | Cap::IntegerSum => true,
            Cap::SelfLoopOnce | Cap::AggregatedOperand | Cap::VarLength | Cap::ZeroLength => false,
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
