//! Values returned by engines of every kind, and their canonical forms for comparison.
//!
//! Engines disagree on how they spell the same value (`1` vs `1.0` vs `1.00`, `true` vs `1`),
//! so results are compared through [`Canon`], never through [`Value`] directly. The float
//! policy is explicit: non-integral floats are rounded to [`CompareOptions::float_digits`]
//! significant digits, and whatever still differs is paired up again within a relative
//! tolerance by the bag comparison (see `bag.rs`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// One value as an engine returned it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "v", rename_all = "snake_case")]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer beyond 64 bits, as decimal digits with an optional leading `-`.
    BigInt(String),
    /// An exact decimal as text (`12.50`).
    Decimal(String),
    Float(f64),
    Text(String),
    Bytes(Vec<u8>),
    Iri(String),
    /// An RDF literal that is not a plain number, boolean or string: its lexical form with a
    /// datatype IRI (`"2024-01-01"^^xsd:date`) or a language tag (`"chat"@fr`). A leg maps
    /// numeric and boolean literals to the numeric variants, so that `1` and `1.0` compare
    /// under the shared number policy.
    Literal {
        lexical: String,
        datatype: Option<String>,
        lang: Option<String>,
    },
    /// A blank node label; compared up to renaming when [`Identities::Opaque`].
    Blank(String),
    /// A graph node or edge identity; compared up to renaming when [`Identities::Opaque`].
    Node(String),
    Edge(String),
    List(Vec<Value>),
    Map(Vec<(String, Value)>),
}

/// How identities (blank nodes, graph node and edge ids) are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Identities {
    /// Labels must match exactly.
    #[default]
    Exact,
    /// Every identity compares equal to every other of its sort: a hook for legs whose engines
    /// invent their own ids. A full isomorphism check can replace it per leg.
    Opaque,
}

/// Options for turning values into canonical forms.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareOptions {
    /// Significant digits kept of a non-integral float.
    pub float_digits: u32,
    /// Relative tolerance used to pair up rows that still differ after rounding.
    pub float_rel_tol: f64,
    /// Compare booleans as the integers 0 and 1 (engines without a boolean type).
    pub bool_as_int: bool,
    /// Treat integers, decimals and floats as one numeric domain.
    pub unify_numbers: bool,
    pub identities: Identities,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            float_digits: 12,
            float_rel_tol: 1e-9,
            bool_as_int: false,
            unify_numbers: true,
            identities: Identities::Exact,
        }
    }
}

/// The canonical, hashable and totally ordered form of a [`Value`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Canon {
    Null,
    Bool(bool),
    /// An exact integer, as normalized decimal digits.
    Int(String),
    /// A non-integral number: rounded scientific notation, or `NaN` / `inf` / `-inf`.
    Num(String),
    /// A number of a given source type, when numbers are not unified.
    Typed(&'static str, String),
    Text(String),
    Bytes(Vec<u8>),
    Iri(String),
    /// Lexical form, datatype, and language tag in lower case (tags compare without case).
    Literal(String, String, String),
    Blank(String),
    Node(String),
    Edge(String),
    List(Vec<Canon>),
    Map(Vec<(String, Canon)>),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value as a float, for numeric values only.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::BigInt(s) | Value::Decimal(s) => s.parse().ok(),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub fn canon(&self, opts: &CompareOptions) -> Canon {
        match self {
            Value::Null => Canon::Null,
            Value::Bool(b) if opts.bool_as_int => Canon::Int(if *b { "1" } else { "0" }.into()),
            Value::Bool(b) => Canon::Bool(*b),
            Value::Int(i) => number(Canon::Int(i.to_string()), "int", opts),
            Value::BigInt(s) => number(canon_int_text(s), "int", opts),
            Value::Decimal(s) => number(canon_decimal_text(s, opts.float_digits), "decimal", opts),
            Value::Float(f) => number(canon_float(*f, opts.float_digits), "float", opts),
            Value::Text(s) => Canon::Text(s.clone()),
            Value::Bytes(b) => Canon::Bytes(b.clone()),
            Value::Iri(s) => Canon::Iri(s.clone()),
            Value::Literal { lexical, datatype, lang } => Canon::Literal(
                lexical.clone(),
                datatype.clone().unwrap_or_default(),
                lang.as_deref().map(str::to_ascii_lowercase).unwrap_or_default(),
            ),
            Value::Blank(s) => Canon::Blank(opaque(s, opts)),
            Value::Node(s) => Canon::Node(opaque(s, opts)),
            Value::Edge(s) => Canon::Edge(opaque(s, opts)),
            Value::List(items) => Canon::List(items.iter().map(|v| v.canon(opts)).collect()),
            Value::Map(items) => {
                let mut m: Vec<_> = items.iter().map(|(k, v)| (k.clone(), v.canon(opts))).collect();
                m.sort();
                Canon::Map(m)
            }
        }
    }
}

fn opaque(label: &str, opts: &CompareOptions) -> String {
    match opts.identities {
        Identities::Exact => label.to_string(),
        Identities::Opaque => String::new(),
    }
}

fn number(c: Canon, ty: &'static str, opts: &CompareOptions) -> Canon {
    if opts.unify_numbers {
        return c;
    }
    match c {
        Canon::Int(s) | Canon::Num(s) => Canon::Typed(ty, s),
        other => other,
    }
}

/// Normalizes an integer written in decimal (`-0`, `+12`, `007`).
fn canon_int_text(s: &str) -> Canon {
    let t = s.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Canon::Text(s.to_string());
    }
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Canon::Int("0".into());
    }
    Canon::Int(if neg { format!("-{digits}") } else { digits.to_string() })
}

fn canon_decimal_text(s: &str, digits: u32) -> Canon {
    let t = s.trim();
    // An integral decimal (`12.000`) is the integer 12, exactly.
    if let Some((int, frac)) = t.split_once('.') {
        if frac.bytes().all(|b| b == b'0') {
            return canon_int_text(if int.is_empty() || int == "-" { "0" } else { int });
        }
    } else if !t.contains(['e', 'E']) {
        return canon_int_text(t);
    }
    match t.parse::<f64>() {
        Ok(f) => canon_float(f, digits),
        Err(_) => Canon::Text(s.to_string()),
    }
}

/// `f` toward zero, saturating at the ends of `i64` and 0 for NaN: what `as` does. One named
/// place for the float-to-integer step, which has no lossless `TryFrom`; the callers either
/// checked that `f` is integral and in range first or want exactly this truncation.
#[expect(clippy::cast_possible_truncation, reason = "truncation toward zero is the documented intent")]
pub fn trunc_i64(f: f64) -> i64 {
    f as i64
}

/// Integral floats within the exactly representable range become integers; others are
/// rounded to `digits` significant digits.
pub fn canon_float(f: f64, digits: u32) -> Canon {
    if f.is_nan() {
        return Canon::Num("NaN".into());
    }
    if f.is_infinite() {
        return Canon::Num(if f > 0.0 { "inf" } else { "-inf" }.into());
    }
    if f == f.trunc() && f.abs() < 1e18 {
        // -0.0 and 0.0 are the same number.
        return Canon::Int(format!("{}", trunc_i64(f)));
    }
    let s = format!("{:.*e}", digits.saturating_sub(1) as usize, f);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mant = if mant.contains('.') { mant.trim_end_matches('0').trim_end_matches('.') } else { mant };
    Canon::Num(format!("{mant}e{exp}"))
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::BigInt(s) | Value::Decimal(s) => f.write_str(s),
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Text(s) => write!(f, "'{}'", s.replace('\'', "''")),
            Value::Bytes(b) => {
                f.write_str("x'")?;
                for byte in b {
                    write!(f, "{byte:02X}")?;
                }
                f.write_str("'")
            }
            Value::Iri(s) => write!(f, "<{s}>"),
            Value::Literal { lexical, datatype, lang } => {
                write!(f, "\"{}\"", lexical.replace('\\', "\\\\").replace('"', "\\\""))?;
                match (lang, datatype) {
                    (Some(l), _) => write!(f, "@{l}"),
                    (None, Some(d)) => write!(f, "^^<{d}>"),
                    (None, None) => Ok(()),
                }
            }
            Value::Blank(s) => write!(f, "_:{s}"),
            Value::Node(s) => write!(f, "node({s})"),
            Value::Edge(s) => write!(f, "edge({s})"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Map(items) => {
                f.write_str("{")?;
                for (i, (k, v)) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: Value) -> Canon {
        v.canon(&CompareOptions::default())
    }

    #[test]
    fn numbers_unify_across_representations() {
        assert_eq!(c(Value::Int(3)), c(Value::Float(3.0)));
        assert_eq!(c(Value::Int(3)), c(Value::Decimal("3.000".into())));
        assert_eq!(c(Value::Int(-12)), c(Value::BigInt("-0012".into())));
        assert_eq!(c(Value::Float(0.0)), c(Value::Float(-0.0)));
        assert_eq!(c(Value::Decimal("1.50".into())), c(Value::Float(1.5)));
        assert_ne!(c(Value::Int(3)), c(Value::Float(3.5)));
        assert_ne!(c(Value::Int(3)), c(Value::Text("3".into())));
    }

    #[test]
    fn floats_are_rounded_to_the_policy() {
        assert_eq!(c(Value::Float(0.1 + 0.2)), c(Value::Float(0.3)));
        assert_ne!(c(Value::Float(0.3001)), c(Value::Float(0.3)));
        assert_eq!(c(Value::Float(f64::NAN)), Canon::Num("NaN".into()));
    }

    #[test]
    fn strict_numbers_keep_their_type() {
        let o = CompareOptions { unify_numbers: false, ..CompareOptions::default() };
        assert_ne!(Value::Int(1).canon(&o), Value::Float(1.0).canon(&o));
    }

    #[test]
    fn booleans_as_integers_when_asked() {
        let o = CompareOptions { bool_as_int: true, ..CompareOptions::default() };
        assert_eq!(Value::Bool(true).canon(&o), Value::Int(1).canon(&o));
    }

    #[test]
    fn opaque_identities_ignore_labels() {
        let o = CompareOptions { identities: Identities::Opaque, ..CompareOptions::default() };
        assert_eq!(Value::Blank("b1".into()).canon(&o), Value::Blank("x".into()).canon(&o));
        assert_ne!(c(Value::Blank("b1".into())), c(Value::Blank("x".into())));
    }

    #[test]
    fn literals_keep_datatype_and_compare_tags_without_case() {
        let lit = |lex: &str, dt: Option<&str>, lang: Option<&str>| Value::Literal {
            lexical: lex.into(),
            datatype: dt.map(Into::into),
            lang: lang.map(Into::into),
        };
        let o = CompareOptions::default();
        assert_eq!(lit("chat", None, Some("FR")).canon(&o), lit("chat", None, Some("fr")).canon(&o));
        assert_ne!(lit("chat", None, Some("fr")).canon(&o), lit("chat", None, Some("en")).canon(&o));
        let date = "http://www.w3.org/2001/XMLSchema#date";
        assert_ne!(lit("2024-01-01", Some(date), None).canon(&o), Value::Text("2024-01-01".into()).canon(&o));
        assert_eq!(lit("a\"b", None, Some("en")).to_string(), "\"a\\\"b\"@en");
        assert_eq!(lit("x", Some(date), None).to_string(), format!("\"x\"^^<{date}>"));
    }
}
