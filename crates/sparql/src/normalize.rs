//! Result normalization (§7.7 of the extraction) and comparison (§7.8): rows in the query's
//! projection order; literals as (datatype, lexical form, language), with numeric and boolean
//! lexical forms canonical per datatype unless switched off (off: RD²'s raw comparison, which
//! is how it found MarkLogic's `1589301716` for `1.589301716E9`); blank nodes through the
//! marker triples to the generator's ids; bags compared as multisets, and as sequences only
//! under a total ORDER BY whose keys the SPARQL standard orders.

use crate::model::{AggFunc, Query, BNODE_MARK, CONCAT_SEPARATOR, XSD};
use crosscheck_core::bag::{diff, Diff};
use crosscheck_core::{CompareOptions, Rows, Value};
use std::collections::HashMap;

const INTEGERS: &[&str] = &[
    "integer",
    "int",
    "long",
    "short",
    "byte",
    "nonNegativeInteger",
    "nonPositiveInteger",
    "negativeInteger",
    "positiveInteger",
    "unsignedLong",
    "unsignedInt",
    "unsignedShort",
    "unsignedByte",
];

/// How answers are normalized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Norm {
    /// Canonical lexical forms of numbers and booleans (on by default; off to hunt
    /// representation bugs).
    pub numeric_canon: bool,
    /// Significant digits a double or float is compared at, when a store of the run writes
    /// no more (`Cap::FullDoubleResults`); `None`: every digit. Applies with `numeric_canon`.
    pub double_digits: Option<usize>,
}

impl Default for Norm {
    fn default() -> Self {
        Norm { numeric_canon: true, double_digits: None }
    }
}

impl Norm {
    /// The normalization for a run over `dialects`.
    pub fn of(dialects: &[&'static dyn crate::dialect::Dialect]) -> Norm {
        let short = !crate::dialect::all_have(dialects, crate::dialect::Cap::FullDoubleResults);
        Norm { double_digits: short.then_some(DOUBLE_DIGITS), ..Norm::default() }
    }
}

/// What Virtuoso's SPARQL result writers keep of a double (C's `%g`).
pub const DOUBLE_DIGITS: usize = 6;

/// A finite double rounded to `digits` significant digits (half to even on its exact binary
/// value, as C's `printf` rounds), written in [`canonical`]'s form.
pub fn round_double(lexical: &str, digits: usize) -> Option<String> {
    let f: f64 = lexical.trim().parse().ok().filter(|f: &f64| f.is_finite())?;
    let rounded: f64 = format!("{f:.*E}", digits.saturating_sub(1)).parse().ok()?;
    canon_double(&rounded.to_string())
}

/// The query that maps a store's blank-node labels to the generator's ids.
pub fn bnode_query() -> String {
    format!("SELECT ?b ?k WHERE {{ ?b <{BNODE_MARK}> ?k }}")
}

/// A store's labels to generator ids, from its answer to [`bnode_query`].
pub fn bnode_map(rows: &Rows) -> HashMap<String, String> {
    let mut m = HashMap::new();
    for r in &rows.rows {
        if let [Value::Blank(label), Value::Literal { lexical, .. }] = r.as_slice() {
            m.insert(label.clone(), lexical.clone());
        }
    }
    m
}

/// One answer normalized: columns checked against the projection, every term canonical.
/// `None` when the store answered other columns than the query projects.
pub fn normalize(rows: &Rows, project: &[String], bnodes: Option<&HashMap<String, String>>, n: Norm) -> Option<Rows> {
    let idx: Vec<usize> = project.iter().map(|v| rows.columns.iter().position(|c| c == v)).collect::<Option<_>>()?;
    let out = rows
        .rows
        .iter()
        .map(|r| idx.iter().map(|&i| term(r.get(i).unwrap_or(&Value::Null), bnodes, n)).collect())
        .collect();
    Some(Rows { columns: project.to_vec(), rows: out, ordered: rows.ordered })
}

fn term(v: &Value, bnodes: Option<&HashMap<String, String>>, n: Norm) -> Value {
    match v {
        Value::Blank(label) => match bnodes {
            // A node without a marker is only known to be a blank node: the stores' labels of
            // it say nothing, so they must not make two answers differ.
            Some(m) => Value::Blank(m.get(label).map_or_else(|| "unmapped".to_string(), |id| format!("b{id}"))),
            None => v.clone(),
        },
        Value::Literal { lexical, datatype, lang } => {
            let datatype = match (datatype, lang) {
                (_, Some(_)) => None,
                (None, None) => Some(format!("{XSD}string")),
                (Some(d), None) => Some(d.clone()),
            };
            let local = datatype.as_deref().and_then(|d| d.strip_prefix(XSD));
            let (lexical, datatype) = match local.filter(|_| n.numeric_canon) {
                Some(l) => match canonical(l, lexical) {
                    // The derived integer types are subsets of xsd:integer: as values, a store
                    // that answers `xsd:integer` for a stored `"86"^^xsd:long` (Oxigraph,
                    // Virtuoso) gives the number rdflib and Comunica give.
                    Some(c) if INTEGERS.contains(&l) => (c, Some(format!("{XSD}integer"))),
                    Some(c) if l == "double" || l == "float" => {
                        (n.double_digits.and_then(|d| round_double(&c, d)).unwrap_or(c), datatype)
                    }
                    Some(c) => (c, datatype),
                    None => (lexical.clone(), datatype),
                },
                None => (lexical.clone(), datatype),
            };
            Value::Literal { lexical, datatype, lang: lang.as_ref().map(|l| l.to_ascii_lowercase()) }
        }
        other => other.clone(),
    }
}

/// The canonical lexical form of a valid numeric or boolean literal of XSD type `local`;
/// `None` for other types and for ill-typed forms, which are compared as written.
pub fn canonical(local: &str, lexical: &str) -> Option<String> {
    let t = lexical.trim();
    match local {
        "boolean" => match t {
            "true" | "1" => Some("true".into()),
            "false" | "0" => Some("false".into()),
            _ => None,
        },
        l if INTEGERS.contains(&l) => canon_integer(t),
        "decimal" => canon_decimal(t),
        "double" | "float" => canon_double(t),
        _ => None,
    }
}

fn canon_integer(t: &str) -> Option<String> {
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let d = digits.trim_start_matches('0');
    Some(match (d.is_empty(), neg) {
        (true, _) => "0".into(),
        (false, true) => format!("-{d}"),
        (false, false) => d.to_string(),
    })
}

/// XSD 1.1's canonical decimal: no `+`, no leading zeros, no trailing fractional zeros, an
/// integral value without a point (`1.50` → `1.5`, `3.0` → `3`, `-0.0` → `0`).
fn canon_decimal(t: &str) -> Option<String> {
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let mag = if frac.is_empty() { int.to_string() } else { format!("{int}.{frac}") };
    Some(if neg && mag != "0" { format!("-{mag}") } else { mag })
}

/// A double as the shortest form that reads back to the same value, in E notation, with
/// XSD's special values.
fn canon_double(t: &str) -> Option<String> {
    match t {
        "INF" | "+INF" => return Some("INF".into()),
        "-INF" => return Some("-INF".into()),
        "NaN" => return Some("NaN".into()),
        _ => {}
    }
    if t.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') {
        return None;
    }
    let f: f64 = t.parse().ok()?;
    Some(if f == 0.0 {
        if f.is_sign_negative() {
            "-0E0".into()
        } else {
            "0E0".into()
        }
    } else {
        format!("{f:E}")
    })
}

/// Whether SPARQL orders every pair of values of a column (§15.1 and the `<` operator):
/// numbers among numbers, `xsd:string`s among themselves, booleans among themselves, IRIs
/// among IRIs, unbound before all. Blank nodes, language-tagged strings and mixed literal
/// types have no specified order, so a store may legitimately place them anywhere; nor have
/// two different numbers of one value (`0` and `0E0` tie), which a store may put either way.
pub fn column_ordered(rows: &Rows, col: usize) -> bool {
    let mut kind: Option<&str> = None;
    let mut numbers: Vec<(f64, &Value)> = Vec::new();
    for r in &rows.rows {
        let k = match r.get(col) {
            Some(Value::Null) | None => continue,
            Some(Value::Iri(_)) => "iri",
            Some(v @ Value::Literal { datatype: Some(d), lang: None, lexical }) => match d.strip_prefix(XSD) {
                Some(l) if l == "decimal" || l == "double" || l == "float" || INTEGERS.contains(&l) => {
                    numbers.push((lexical.trim().parse::<f64>().unwrap_or(f64::NAN), v));
                    "num"
                }
                Some("string") => "string",
                Some("boolean") => "boolean",
                _ => return false,
            },
            Some(_) => return false,
        };
        if kind.is_some_and(|seen| seen != k) {
            return false;
        }
        kind = Some(k);
    }
    numbers.sort_by(|a, b| a.0.total_cmp(&b.0));
    numbers.windows(2).all(|w| w[0].0 != w[1].0 || w[0].1 == w[1].1)
}

/// How a projected column is compared beyond its terms: an aggregate's result where SPARQL
/// leaves part of it to the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Term,
    /// GROUP_CONCAT: the order of the pieces is the store's, so they are compared as a multiset.
    Concat,
    /// AVG: a decimal quotient's digits past the standard's minimum precision are the store's,
    /// so only the first [`AVG_DIGITS`] fractional digits count.
    Avg,
}

/// The fractional digits of an average that every store computes alike (XSD requires 18
/// digits of a decimal; a quotient that does not end is cut short of that).
pub const AVG_DIGITS: usize = 12;

pub fn columns(q: &Query) -> Vec<Column> {
    q.project
        .iter()
        .map(|v| match q.aggregate(*v).map(|a| a.func) {
            Some(AggFunc::GroupConcat) => Column::Concat,
            Some(AggFunc::Avg) => Column::Avg,
            _ => Column::Term,
        })
        .collect()
}

/// Applies [`Column`] to normalized rows.
pub fn settle(rows: &mut Rows, cols: &[Column]) {
    for row in &mut rows.rows {
        for (cell, col) in row.iter_mut().zip(cols) {
            let Value::Literal { lexical, .. } = cell else { continue };
            match col {
                Column::Term => {}
                Column::Concat => {
                    let mut pieces: Vec<&str> = lexical.split(CONCAT_SEPARATOR).collect();
                    pieces.sort_unstable();
                    *lexical = pieces.join(CONCAT_SEPARATOR);
                }
                Column::Avg => {
                    if let Some((int, frac)) = lexical.split_once('.') {
                        let cut: String = frac.chars().take(AVG_DIGITS).collect();
                        let cut = cut.trim_end_matches('0');
                        *lexical = if cut.is_empty() { int.to_string() } else { format!("{int}.{cut}") };
                    }
                }
            }
        }
    }
}

/// Compares two normalized answers: as sequences when `ordered`, else as bags.
pub fn compare(expected: &Rows, actual: &Rows, ordered: bool) -> Diff {
    let (mut e, mut a) = (expected.clone(), actual.clone());
    e.ordered = ordered;
    a.ordered = ordered;
    diff(&e, &a, &CompareOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        assert_eq!(canonical("integer", "+007").as_deref(), Some("7"));
        assert_eq!(canonical("int", "-0").as_deref(), Some("0"));
        assert_eq!(canonical("decimal", "1.50").as_deref(), Some("1.5"));
        assert_eq!(canonical("decimal", "-0.0").as_deref(), Some("0"));
        assert_eq!(canonical("decimal", ".5").as_deref(), Some("0.5"));
        assert_eq!(canonical("double", "1589301716"), canonical("double", "1.589301716E9"));
        assert_eq!(canonical("double", "1.0e0"), canonical("double", "1"));
        assert_eq!(canonical("boolean", "1").as_deref(), Some("true"));
        assert_eq!(canonical("integer", "abc"), None);
        assert_eq!(canonical("string", "1"), None);
    }

    #[test]
    fn doubles_compare_at_six_digits_only_when_asked() {
        assert_eq!(round_double("8.18829381985009E2", 6), canonical("double", "818.829"));
        assert_eq!(round_double("818.8296", 6), canonical("double", "818.830"));
        assert_eq!(round_double("1.7976931348623157E308", 6), canonical("double", "1.79769E308"));
        assert_eq!(round_double("INF", 6), None);
        let lit = |l: &str| Value::Literal { lexical: l.into(), datatype: Some(format!("{XSD}double")), lang: None };
        let rows = |l: &str| Rows::new(vec!["a".into()], vec![vec![lit(l)]]);
        let six = Norm { double_digits: Some(6), ..Norm::default() };
        let (full, short) = (rows("8.18829381985009E2"), rows("818.829"));
        let at = |r: &Rows, n: Norm| normalize(r, &["a".into()], None, n).map(|r| r.rows);
        assert_eq!(at(&full, six), at(&short, six));
        assert_ne!(at(&full, Norm::default()), at(&short, Norm::default()));
    }

    #[test]
    fn numbers_of_one_value_tie_in_an_order() {
        let lit =
            |l: &str, d: &str| Value::Literal { lexical: l.into(), datatype: Some(format!("{XSD}{d}")), lang: None };
        let col = |vals: Vec<Value>| Rows::new(vec!["a".into()], vals.into_iter().map(|v| vec![v]).collect());
        assert!(column_ordered(&col(vec![lit("0", "integer"), lit("1E0", "double")]), 0));
        // Oxigraph put 0E0 before 0, Jena after: both are right.
        assert!(!column_ordered(&col(vec![lit("0E0", "double"), lit("0", "integer")]), 0));
        assert!(column_ordered(&col(vec![lit("2", "integer"), lit("2", "integer")]), 0));
    }

    #[test]
    fn normalization_follows_the_projection_and_maps_blank_nodes() {
        let lit =
            |l: &str, d: &str| Value::Literal { lexical: l.into(), datatype: Some(format!("{XSD}{d}")), lang: None };
        let rows = Rows::new(vec!["b".into(), "a".into()], vec![vec![Value::Blank("x1".into()), lit("01", "integer")]]);
        let map: HashMap<String, String> = [("x1".to_string(), "3".to_string())].into();
        let n = normalize(&rows, &["a".into(), "b".into()], Some(&map), Norm::default());
        let n = n.unwrap_or_else(|| panic!("columns"));
        assert_eq!(n.rows[0], vec![lit("1", "integer"), Value::Blank("b3".into())]);
        let raw = normalize(&rows, &["a".into()], None, Norm { numeric_canon: false, double_digits: None });
        assert_eq!(raw.map(|r| r.rows[0].clone()), Some(vec![lit("01", "integer")]));
        // A derived integer type is its value; switched off, the datatype as written counts.
        let long = Rows::new(vec!["a".into()], vec![vec![lit("086", "long")]]);
        let canon = normalize(&long, &["a".into()], None, Norm::default());
        assert_eq!(canon.map(|r| r.rows[0].clone()), Some(vec![lit("86", "integer")]));
        let written = normalize(&long, &["a".into()], None, Norm { numeric_canon: false, double_digits: None });
        assert_eq!(written.map(|r| r.rows[0].clone()), Some(vec![lit("086", "long")]));
        assert!(normalize(&rows, &["c".into()], None, Norm::default()).is_none());
    }
}
