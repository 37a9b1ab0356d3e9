//! Result comparison for SQL: bags of canonical values (see `crosscheck_core::value`), with
//! columns that may legally show any member of a set of equal values compared folded.

use crate::ast::{Agg, Collation, Expr, Select};
use crate::collation::Collations;
use crosscheck_core::bag::{diff, Diff};
use crosscheck_core::{CompareOptions, Rows, Value};
use std::collections::HashSet;

/// Per result column, the collation whose equal values may stand for each other: NOCASE
/// compares folding ASCII case, RTRIM ignoring trailing spaces, BINARY exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold(pub Vec<Collation>);

impl Fold {
    pub fn none(rows: &Rows) -> Fold {
        Fold(vec![Collation::Binary; rows.columns.len()])
    }

    fn any(&self) -> bool {
        self.0.iter().any(|f| *f != Collation::Binary)
    }

    fn get(&self, i: usize) -> Collation {
        self.0.get(i).copied().unwrap_or(Collation::Binary)
    }
}

/// Which columns of `s`'s result carry a collation other than BINARY: a grouped or distinct
/// value, or the MIN/MAX, of such a column is any member of its equivalence class.
pub fn fold_flags(colls: &Collations, s: &Select, q: &Rows) -> Fold {
    if !colls.any(&s.slots()) {
        return Fold::none(q);
    }
    if let Some(items) = colls.items(s) {
        return Fold(
            s.items
                .iter()
                .zip(items)
                .map(|(it, c)| match &it.expr {
                    Expr::Agg { func: Agg::Min | Agg::Max, .. } => c,
                    Expr::Agg { .. } => Collation::Binary,
                    _ => c,
                })
                .collect(),
        );
    }
    if s.items.is_empty() {
        // `*` over collated columns: only TLP-WHERE selects it, which neither groups nor
        // deduplicates, so values are compared exactly.
        return Fold::none(q);
    }
    Fold(
        s.items
            .iter()
            .map(|it| match &it.expr {
                Expr::Agg { func: Agg::Min | Agg::Max, arg: Some(a), .. } => colls.of(a, s, 0),
                Expr::Agg { .. } => Collation::Binary,
                e => colls.of(e, s, 0),
            })
            .collect(),
    )
}

fn fold_value(v: &Value, c: Collation) -> Value {
    match (v, c) {
        (Value::Text(s), c) => Value::Text(crate::collation::class_key(c, s)),
        (other, _) => other.clone(),
    }
}

fn folded(rows: &Rows, fold: &Fold) -> Rows {
    let mut out = rows.clone();
    for r in &mut out.rows {
        for (v, f) in r.iter_mut().zip(&fold.0) {
            *v = fold_value(v, *f);
        }
    }
    out
}

/// The difference between two results as bags, `None` when they agree.
pub fn compare(expected: &Rows, actual: &Rows, fold: &Fold) -> Option<Diff> {
    compare_with(expected, actual, fold, &CompareOptions::default())
}

pub fn compare_with(expected: &Rows, actual: &Rows, fold: &Fold, opts: &CompareOptions) -> Option<Diff> {
    let d = if fold.any() {
        diff(&folded(expected, fold), &folded(actual, fold), opts)
    } else {
        diff(expected, actual, opts)
    };
    (!d.is_empty()).then_some(d)
}

/// 2^63: the floats in `-2^63..2^63` are the ones an i64 holds.
const I64_END: f64 = 9_223_372_036_854_775_808.0;

/// An exact equality key, as SQL's DISTINCT compares: 1 equals 1.0 and 0.0 equals -0.0, but
/// two reals differ by any bit (unlike the rounded canonical form used for comparison).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Null,
    Int(i64),
    Real(u64),
    Text(String),
    Bytes(Vec<u8>),
    Other(String),
}

fn key(v: &Value) -> Key {
    match v {
        Value::Null => Key::Null,
        Value::Int(i) => Key::Int(*i),
        Value::Bool(b) => Key::Int(*b as i64),
        Value::Float(f) => {
            // Exactly the floats that equal an i64: SQL compares 9223372036854774784 and
            // 9.223372036854774784e18 equal, so GROUP BY and DISTINCT keep one of them (integer
            // arithmetic that overflowed to a real meets such integers).
            if *f == f.trunc() && (-I64_END..I64_END).contains(f) {
                Key::Int(crosscheck_core::value::trunc_i64(*f))
            } else {
                Key::Real((*f + 0.0).to_bits())
            }
        }
        Value::Decimal(s) | Value::BigInt(s) => match s.parse::<f64>() {
            Ok(f) => key(&Value::Float(f)),
            Err(_) => Key::Other(s.clone()),
        },
        Value::Text(s) => Key::Text(s.clone()),
        Value::Bytes(b) => Key::Bytes(b.clone()),
        other => Key::Other(other.to_string()),
    }
}

/// The rows of a UNION (without ALL): the first of each set of equal rows.
pub fn dedup(rows: &Rows, fold: &Fold) -> Rows {
    let mut seen = HashSet::new();
    let mut out = Rows::new(rows.columns.clone(), Vec::new());
    for r in &rows.rows {
        let k: Vec<Key> = r.iter().enumerate().map(|(i, v)| key(&fold_value(v, fold.get(i)))).collect();
        if seen.insert(k) {
            out.rows.push(r.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{dedup, Fold};
    use crosscheck_core::{Rows, Value};

    fn distinct(values: Vec<Value>) -> usize {
        let rows = Rows::new(vec!["c".into()], values.into_iter().map(|v| vec![v]).collect());
        dedup(&rows, &Fold::none(&rows)).len()
    }

    /// A real and an integer of the same value are one value for DISTINCT and GROUP BY, up
    /// to the end of the i64 range; 2^63 as a real equals no i64.
    #[test]
    fn integral_reals_join_their_integers_up_to_the_i64_range() {
        let near = 9_223_372_036_854_774_784_i64;
        assert_eq!(distinct(vec![Value::Int(near), Value::Float(near as f64)]), 1);
        assert_eq!(distinct(vec![Value::Int(i64::MIN), Value::Float(-9_223_372_036_854_775_808.0)]), 1);
        assert_eq!(distinct(vec![Value::Int(i64::MAX), Value::Float(9_223_372_036_854_775_808.0)]), 2);
        assert_eq!(distinct(vec![Value::Float(0.0), Value::Float(-0.0), Value::Int(0)]), 1);
    }
}
