//! The test-summary spec (seed 004, ch. 4): a TOML file a user writes, holding the schema, the
//! input constraints on queries and on data, and the output constraints. Parsed once into
//! plain types; every mistake is one line naming where it is (`line N: ...`), never a panic.

use super::mixed::{def_use, parse_check, Step};
use crate::ast::{Agg, SqlType};
use serde::Deserialize;

/// A whole summary, as the user wrote it (after checks).
#[derive(Clone, Debug)]
pub struct Spec {
    pub tables: Vec<Table>,
    pub query: QuerySpec,
    pub data: DataSpec,
    pub output: OutputSpec,
    /// Mixed constraints in order (empty: every table generated at once, no check).
    pub steps: Vec<Step>,
    /// The order the steps generate tables in (every table, referenced tables first).
    pub generation: Vec<usize>,
    /// What the def-use analysis warns about.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    /// Indices of the primary-key columns (empty: no key).
    pub key: Vec<usize>,
    pub foreign: Vec<ForeignKey>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: String,
    pub ty: ColType,
    pub not_null: bool,
}

/// The two domains of the seed: uninterpreted atoms compared only for equality (`text`, Alloy's
/// `varchar$k`, interchangeable under permutation) and a small ordered integer range (`int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColType {
    Text,
    Int,
}

impl ColType {
    pub fn sql(self) -> SqlType {
        match self {
            ColType::Text => SqlType::Text,
            ColType::Int => SqlType::Int,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ForeignKey {
    pub columns: Vec<usize>,
    /// The referenced table (an index into `Spec::tables`) and its columns.
    pub table: usize,
    pub to: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    /// `FROM a, b`: terms are qualified by their table.
    Cross,
    /// `FROM a NATURAL JOIN b`: terms are column names, shared ones joined.
    Natural,
}

/// Whether a clause is absent, may appear, or must appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Clause {
    None,
    Optional,
    Required,
}

impl Clause {
    /// Whether a query without the clause is allowed / with it.
    pub fn allows_absent(self) -> bool {
        self != Clause::Required
    }
    pub fn allows_present(self) -> bool {
        self != Clause::None
    }
}

/// A comparison operator of WHERE and HAVING.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    pub fn parse(s: &str) -> Option<CmpOp> {
        Some(match s {
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            "=" => CmpOp::Eq,
            "<>" | "!=" => CmpOp::Ne,
            _ => return None,
        })
    }
}

/// A constant named in a query (a WHERE or HAVING value).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Constant {
    Int(i64),
    Text(String),
}

/// Input constraints on queries (seed Fig. 4.4 and the facts of §4.4).
#[derive(Clone, Debug)]
pub struct QuerySpec {
    pub max_terms: usize,
    pub max_tables: usize,
    pub join: JoinKind,
    pub aggregates: Vec<Agg>,
    /// An aggregated term stands alone in SELECT (§4.6.1: "if COUNT is used, no other terms").
    pub aggregate_alone: bool,
    /// `COUNT(*)` is a term (alone, §4.6.1).
    pub count_star: bool,
    /// Plain columns as SELECT terms (false: aggregates only).
    pub plain: bool,
    /// `SELECT DISTINCT` and `COUNT(DISTINCT c)`.
    pub distinct: bool,
    pub where_: Clause,
    pub max_where_terms: usize,
    pub group_by: Clause,
    pub having: Clause,
    pub max_having_terms: usize,
    pub operators: Vec<CmpOp>,
    pub values: Vec<Constant>,
}

/// Input constraints on data.
#[derive(Clone, Debug)]
pub struct DataSpec {
    /// How many interchangeable text atoms (`v0`, `v1`, ...).
    pub text_atoms: usize,
    /// The ordered integer domain, fixed under isomorphism.
    pub int_values: Vec<i64>,
    /// At most this many rows per table (`None`: only the keys bound it).
    pub max_rows: Option<usize>,
    /// Extension (not in the seed): nullable columns also take NULL, queries use 3VL.
    pub nulls: bool,
}

/// Output constraints: how answers compare and which tests are kept.
#[derive(Clone, Debug)]
pub struct OutputSpec {
    /// Extension (not in the seed): compare answers as bags, duplicates counted.
    pub bag: bool,
    pub nonempty: bool,
    pub min_rows: Option<usize>,
    pub max_rows: Option<usize>,
}

/// A spec error with the line it is on, when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

// ---- the file as written -------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    #[serde(default)]
    table: Vec<RawTable>,
    query: Option<RawQuery>,
    data: Option<RawData>,
    output: Option<RawOutput>,
    #[serde(default)]
    constraint: Vec<RawConstraint>,
}

/// One mixed constraint: `generate = [tables]` (declarative) or `check = "..."` with `uses`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConstraint {
    generate: Option<Vec<String>>,
    check: Option<String>,
    #[serde(default)]
    uses: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    name: String,
    columns: Vec<RawColumn>,
    #[serde(default)]
    key: Vec<String>,
    #[serde(default)]
    foreign: Vec<RawForeign>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawColumn {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    not_null: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForeign {
    columns: Vec<String>,
    references: String,
    to: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuery {
    max_terms: Option<usize>,
    max_tables: Option<usize>,
    join: Option<String>,
    #[serde(default)]
    aggregates: Vec<String>,
    #[serde(default)]
    aggregate_alone: bool,
    #[serde(default)]
    count_star: bool,
    plain: Option<bool>,
    #[serde(default)]
    distinct: bool,
    #[serde(rename = "where")]
    where_: Option<Clause>,
    max_where_terms: Option<usize>,
    group_by: Option<Clause>,
    having: Option<Clause>,
    max_having_terms: Option<usize>,
    #[serde(default)]
    operators: Vec<String>,
    #[serde(default)]
    values: Vec<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    text_atoms: Option<usize>,
    #[serde(default)]
    int_values: Vec<i64>,
    max_rows: Option<usize>,
    #[serde(default)]
    nulls: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutput {
    semantics: Option<String>,
    #[serde(default)]
    nonempty: bool,
    min_rows: Option<usize>,
    max_rows: Option<usize>,
}

/// `line N: message` for a byte offset into `text`.
fn at(text: &str, offset: Option<usize>, msg: impl std::fmt::Display) -> SpecError {
    match offset {
        Some(o) => {
            let line = text.get(..o).map_or(1, |t| t.matches('\n').count() + 1);
            SpecError(format!("line {line}: {msg}"))
        }
        None => SpecError(msg.to_string()),
    }
}

/// The byte offset of the first `needle` in `text` (to name a line for a semantic error).
fn find(text: &str, needle: &str) -> Option<usize> {
    text.find(needle)
}

/// Parses and checks a spec.
pub fn parse(text: &str) -> Result<Spec, SpecError> {
    let raw: RawSpec = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        at(text, e.span().map(|s| s.start), msg)
    })?;
    if raw.table.is_empty() {
        return Err(SpecError("the spec declares no [[table]]".into()));
    }
    let tables = tables(text, &raw.table)?;
    let query = query(text, raw.query)?;
    let data = data(raw.data);
    let output = output(text, raw.output)?;
    let mut spec =
        Spec { tables, query, data, output, steps: Vec::new(), generation: Vec::new(), warnings: Vec::new() };
    check_domains(text, &spec)?;
    spec.steps = steps(text, &spec, &raw.constraint)?;
    if spec.steps.is_empty() {
        spec.steps.push(Step::Generate { tables: Vec::new() });
    }
    let (generation, warnings) = def_use(&spec, &spec.steps)?;
    (spec.generation, spec.warnings) = (generation, warnings);
    Ok(spec)
}

fn table_index(text: &str, spec: &Spec, name: &str) -> Result<usize, SpecError> {
    let here = find(text, &format!("\"{name}\""));
    spec.tables.iter().position(|t| t.name == name).ok_or_else(|| at(text, here, format!("no table {name}")))
}

fn steps(text: &str, spec: &Spec, raw: &[RawConstraint]) -> Result<Vec<Step>, SpecError> {
    let mut out = Vec::new();
    for (i, c) in raw.iter().enumerate() {
        let n = i + 1;
        let step = match (&c.generate, &c.check) {
            (Some(g), None) if c.uses.is_empty() => {
                let tables = g.iter().map(|t| table_index(text, spec, t)).collect::<Result<_, _>>()?;
                Step::Generate { tables }
            }
            (None, Some(check)) => {
                let uses = c.uses.iter().map(|t| table_index(text, spec, t)).collect::<Result<_, _>>()?;
                let check = parse_check(spec, check)
                    .map_err(|e| at(text, find(text, check), format!("constraint {n}: {e}")))?;
                Step::Check { uses, check }
            }
            _ => {
                return Err(SpecError(format!(
                    "constraint {n}: give either generate = [...] or check = \"...\" with uses"
                )))
            }
        };
        out.push(step);
    }
    Ok(out)
}

fn tables(text: &str, raw: &[RawTable]) -> Result<Vec<Table>, SpecError> {
    let mut out: Vec<Table> = Vec::new();
    for t in raw {
        let here = find(text, &format!("\"{}\"", t.name));
        if out.iter().any(|o| o.name == t.name) {
            return Err(at(text, here, format!("table {} is declared twice", t.name)));
        }
        let mut columns = Vec::new();
        for c in &t.columns {
            let ty = match c.ty.to_ascii_lowercase().as_str() {
                "text" | "varchar" => ColType::Text,
                "int" | "integer" => ColType::Int,
                other => {
                    let msg = format!("column {}.{}: unknown type {other:?} (text or int)", t.name, c.name);
                    return Err(at(text, find(text, &format!("\"{other}\"")), msg));
                }
            };
            if columns.iter().any(|o: &Column| o.name == c.name) {
                return Err(at(text, here, format!("table {}: column {} twice", t.name, c.name)));
            }
            columns.push(Column { name: c.name.clone(), ty, not_null: c.not_null });
        }
        if columns.is_empty() {
            return Err(at(text, here, format!("table {} has no columns", t.name)));
        }
        let key = column_indices(text, &t.name, &columns, &t.key)?;
        for &k in &key {
            columns[k].not_null = true;
        }
        out.push(Table { name: t.name.clone(), columns, key, foreign: Vec::new() });
    }
    for (i, t) in raw.iter().enumerate() {
        for f in &t.foreign {
            let here = find(text, &format!("\"{}\"", f.references));
            let Some(target) = out.iter().position(|o| o.name == f.references) else {
                return Err(at(text, here, format!("table {}: foreign key to unknown table {}", t.name, f.references)));
            };
            let columns = column_indices(text, &t.name, &out[i].columns, &f.columns)?;
            let to = column_indices(text, &f.references, &out[target].columns, &f.to)?;
            if columns.len() != to.len() || out[target].key != to {
                let msg = format!("table {}: a foreign key must name the whole key of {}", t.name, f.references);
                return Err(at(text, here, msg));
            }
            out[i].foreign.push(ForeignKey { columns, table: target, to });
        }
    }
    Ok(out)
}

fn column_indices(text: &str, table: &str, columns: &[Column], names: &[String]) -> Result<Vec<usize>, SpecError> {
    names
        .iter()
        .map(|n| {
            columns
                .iter()
                .position(|c| &c.name == n)
                .ok_or_else(|| at(text, find(text, &format!("\"{n}\"")), format!("table {table} has no column {n}")))
        })
        .collect()
}

fn query(text: &str, raw: Option<RawQuery>) -> Result<QuerySpec, SpecError> {
    let Some(q) = raw else {
        return Err(SpecError("the spec has no [query] section".into()));
    };
    let join = match q.join.as_deref().unwrap_or("cross") {
        "cross" => JoinKind::Cross,
        "natural" => JoinKind::Natural,
        other => return Err(at(text, find(text, other), format!("join {other:?}: cross or natural"))),
    };
    let mut aggregates = Vec::new();
    for a in &q.aggregates {
        let agg = match a.to_ascii_uppercase().as_str() {
            "MAX" => Agg::Max,
            "MIN" => Agg::Min,
            "COUNT" => Agg::Count,
            "SUM" => Agg::Sum,
            "AVG" => Agg::Avg,
            other => return Err(at(text, find(text, a), format!("aggregate {other:?}: MAX, MIN, COUNT, SUM or AVG"))),
        };
        aggregates.push(agg);
    }
    let mut operators = Vec::new();
    for o in &q.operators {
        let op =
            CmpOp::parse(o).ok_or_else(|| at(text, find(text, o), format!("operator {o:?}: <, <=, >, >=, = or <>")))?;
        operators.push(op);
    }
    let mut values = Vec::new();
    for v in &q.values {
        values.push(match v {
            toml::Value::Integer(i) => Constant::Int(*i),
            toml::Value::String(s) => Constant::Text(s.clone()),
            other => return Err(at(text, find(text, "values"), format!("value {other:?}: an integer or a string"))),
        });
    }
    let spec = QuerySpec {
        max_terms: q.max_terms.unwrap_or(1).max(1),
        max_tables: q.max_tables.unwrap_or(1).max(1),
        join,
        aggregates,
        aggregate_alone: q.aggregate_alone,
        count_star: q.count_star,
        plain: q.plain.unwrap_or(true),
        distinct: q.distinct,
        where_: q.where_.unwrap_or(Clause::None),
        max_where_terms: q.max_where_terms.unwrap_or(1).max(1),
        group_by: q.group_by.unwrap_or(Clause::None),
        having: q.having.unwrap_or(Clause::None),
        max_having_terms: q.max_having_terms.unwrap_or(1).max(1),
        operators,
        values,
    };
    let needs_ops = spec.where_.allows_present() || spec.having.allows_present();
    if needs_ops && spec.operators.is_empty() {
        return Err(at(text, find(text, "[query]"), "WHERE or HAVING needs at least one entry in operators"));
    }
    if spec.having.allows_present() && spec.values.is_empty() {
        return Err(at(text, find(text, "[query]"), "HAVING compares with a value: give values"));
    }
    Ok(spec)
}

fn data(raw: Option<RawData>) -> DataSpec {
    let d = raw.unwrap_or(RawData { text_atoms: None, int_values: Vec::new(), max_rows: None, nulls: false });
    let mut ints = d.int_values;
    ints.sort_unstable();
    ints.dedup();
    DataSpec { text_atoms: d.text_atoms.unwrap_or(2), int_values: ints, max_rows: d.max_rows, nulls: d.nulls }
}

fn output(text: &str, raw: Option<RawOutput>) -> Result<OutputSpec, SpecError> {
    let o = raw.unwrap_or(RawOutput { semantics: None, nonempty: false, min_rows: None, max_rows: None });
    let bag = match o.semantics.as_deref().unwrap_or("set") {
        "set" => false,
        "bag" => true,
        other => return Err(at(text, find(text, other), format!("semantics {other:?}: set or bag"))),
    };
    Ok(OutputSpec { bag, nonempty: o.nonempty, min_rows: o.min_rows, max_rows: o.max_rows })
}

/// Every column needs a non-empty domain: text atoms for text, values for int.
fn check_domains(text: &str, spec: &Spec) -> Result<(), SpecError> {
    for t in &spec.tables {
        for c in &t.columns {
            let empty = match c.ty {
                ColType::Text => spec.data.text_atoms == 0,
                ColType::Int => spec.data.int_values.is_empty(),
            };
            if empty {
                let what = if c.ty == ColType::Text { "text_atoms = 0" } else { "no int_values in [data]" };
                let msg = format!("column {}.{} has an empty domain ({what})", t.name, c.name);
                return Err(at(text, find(text, &format!("\"{}\"", c.name)), msg));
            }
        }
    }
    Ok(())
}

impl Spec {
    /// A spec of tables alone, as a stored test reads back (`super::case`): what the evaluator
    /// needs (the tables, the join, the semantics), nothing to enumerate.
    pub fn of_schema(tables: Vec<Table>, join: JoinKind, bag: bool) -> Spec {
        let query = QuerySpec {
            max_terms: 1,
            max_tables: tables.len().max(1),
            join,
            aggregates: Vec::new(),
            aggregate_alone: false,
            count_star: false,
            plain: true,
            distinct: false,
            where_: Clause::None,
            max_where_terms: 1,
            group_by: Clause::None,
            having: Clause::None,
            max_having_terms: 1,
            operators: Vec::new(),
            values: Vec::new(),
        };
        let data = DataSpec { text_atoms: 0, int_values: Vec::new(), max_rows: None, nulls: false };
        let output = OutputSpec { bag, nonempty: false, min_rows: None, max_rows: None };
        let generation = (0..tables.len()).collect();
        Spec { tables, query, data, output, steps: Vec::new(), generation, warnings: Vec::new() }
    }

    /// The name of text atom `i`, as inserted and compared.
    pub fn atom(i: usize) -> String {
        format!("v{i}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_line() {
        let bad = "[[table]]\nname = \"t\"\ncolumns = [{ name = \"a\", type = \"float\" }]\n[query]\n";
        let e = parse(bad).err().map(|e| e.0).unwrap_or_default();
        assert!(e.starts_with("line 3:"), "{e}");
        let syntax = "[[table]]\nname = \"t\"\ncolumns = [\n";
        let e = parse(syntax).err().map(|e| e.0).unwrap_or_default();
        assert!(e.starts_with("line "), "{e}");
        let unknown = "[[table]]\nname = \"t\"\ncolumns = [{ name = \"a\", type = \"int\" }]\nbogus = 1\n[query]\n";
        let e = parse(unknown).err().map(|e| e.0).unwrap_or_default();
        assert!(e.contains("bogus"), "{e}");
    }
}
