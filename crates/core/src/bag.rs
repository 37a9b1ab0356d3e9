//! Result bags: multisets of rows, compared as equal / subset / superset, with a diff that
//! names the missing and the extra rows.

use crate::value::{Canon, CompareOptions, Value};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A table of rows as an engine returned it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rows {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    /// True when the query fixed a total order, so row order is part of the answer.
    #[serde(default)]
    pub ordered: bool,
}

/// How two bags relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    Equal,
    /// The actual bag is strictly contained in the expected one (rows are missing).
    Subset,
    /// The actual bag strictly contains the expected one (extra rows).
    Superset,
    /// Rows are both missing and extra, or the order differs.
    Different,
}

impl Relation {
    /// The relation as finding keys name it (`subset`: rows missing, `superset`: extra rows).
    pub fn name(self) -> &'static str {
        match self {
            Relation::Equal => "equal",
            Relation::Subset => "subset",
            Relation::Superset => "superset",
            Relation::Different => "different",
        }
    }
}

/// The difference between an expected and an actual bag.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// Rows the expected bag has and the actual lacks (with multiplicity).
    pub missing: Vec<Vec<Value>>,
    /// Rows the actual bag has beyond the expected.
    pub extra: Vec<Vec<Value>>,
    /// Both bags hold the same rows, in a different order, where the order was fixed.
    pub order_differs: bool,
}

impl Diff {
    pub fn relation(&self) -> Relation {
        match (self.missing.is_empty(), self.extra.is_empty()) {
            (true, true) if !self.order_differs => Relation::Equal,
            (false, true) => Relation::Subset,
            (true, false) => Relation::Superset,
            _ => Relation::Different,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.relation() == Relation::Equal
    }
}

impl Rows {
    pub fn new(columns: Vec<String>, rows: Vec<Vec<Value>>) -> Rows {
        Rows { columns, rows, ordered: false }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows for people: their count, then at most 20 of them, one a line.
    pub fn render(&self) -> String {
        let mut s = format!("{} row(s)", self.len());
        for row in self.rows.iter().take(20) {
            let cells: Vec<String> = row.iter().map(ToString::to_string).collect();
            s.push_str("\n  ");
            s.push_str(&cells.join(" | "));
        }
        if self.len() > 20 {
            s.push_str("\n  ...");
        }
        s
    }

    /// The bag of canonical rows, sorted: two bags are equal iff these are equal.
    pub fn canonical(&self, opts: &CompareOptions) -> Vec<Vec<Canon>> {
        let mut out: Vec<Vec<Canon>> = self.rows.iter().map(|r| canon_row(r, opts)).collect();
        out.sort();
        out
    }
}

fn canon_row(row: &[Value], opts: &CompareOptions) -> Vec<Canon> {
    row.iter().map(|v| v.canon(opts)).collect()
}

/// Compares `actual` against `expected` as bags (or as sequences when both are ordered).
pub fn diff(expected: &Rows, actual: &Rows, opts: &CompareOptions) -> Diff {
    let mut counts: HashMap<Vec<Canon>, Vec<usize>> = HashMap::new();
    for (i, row) in expected.rows.iter().enumerate() {
        counts.entry(canon_row(row, opts)).or_default().push(i);
    }
    let mut extra = Vec::new();
    for row in &actual.rows {
        match counts.get_mut(&canon_row(row, opts)) {
            Some(ix) if !ix.is_empty() => {
                ix.pop();
            }
            _ => extra.push(row.clone()),
        }
    }
    let mut left: Vec<usize> = counts.into_values().flatten().collect();
    left.sort_unstable();
    let mut missing: Vec<Vec<Value>> = left.into_iter().map(|i| expected.rows[i].clone()).collect();
    pair_within_tolerance(&mut missing, &mut extra, opts.float_rel_tol);
    let order_differs = missing.is_empty()
        && extra.is_empty()
        && expected.ordered
        && actual.ordered
        && expected.rows.iter().zip(&actual.rows).any(|(e, a)| canon_row(e, opts) != canon_row(a, opts));
    Diff { missing, extra, order_differs }
}

/// Rounding to a number of digits splits values that straddle a rounding boundary; pair such
/// leftovers again with a relative tolerance so they do not show up as differences.
fn pair_within_tolerance(missing: &mut Vec<Vec<Value>>, extra: &mut Vec<Vec<Value>>, tol: f64) {
    if missing.is_empty() || extra.is_empty() || missing.len() * extra.len() > 1_000_000 {
        return;
    }
    let mut i = 0;
    while i < missing.len() {
        if let Some(j) = extra.iter().position(|e| rows_close(&missing[i], e, tol)) {
            missing.remove(i);
            extra.remove(j);
        } else {
            i += 1;
        }
    }
}

fn rows_close(a: &[Value], b: &[Value], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_close(x, y, tol))
}

fn values_close(a: &Value, b: &Value, tol: f64) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => {
            if x == y || (x.is_nan() && y.is_nan()) {
                return true;
            }
            let scale = x.abs().max(y.abs()).max(f64::MIN_POSITIVE);
            (x - y).abs() / scale <= tol
        }
        _ => a.canon(&CompareOptions::default()) == b.canon(&CompareOptions::default()),
    }
}

/// The multiset union of several bags, for oracles that partition a query.
pub fn union_all<'a>(parts: impl IntoIterator<Item = &'a Rows>) -> Rows {
    let mut out = Rows::default();
    for p in parts {
        if out.columns.is_empty() {
            out.columns = p.columns.clone();
        }
        out.rows.extend(p.rows.iter().cloned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[i64]]) -> Rows {
        Rows::new(vec!["a".into()], v.iter().map(|r| r.iter().map(|x| Value::Int(*x)).collect()).collect())
    }

    fn check(expected: &[&[i64]], actual: &[&[i64]], rel: Relation) {
        let d = diff(&rows(expected), &rows(actual), &CompareOptions::default());
        assert_eq!(d.relation(), rel, "{d:?}");
    }

    #[test]
    fn relations() {
        check(&[&[1], &[2], &[2]], &[&[2], &[1], &[2]], Relation::Equal);
        check(&[&[1], &[2], &[2]], &[&[2], &[1]], Relation::Subset);
        check(&[&[1]], &[&[1], &[1]], Relation::Superset);
        check(&[&[1]], &[&[2]], Relation::Different);
        check(&[], &[], Relation::Equal);
    }

    #[test]
    fn diff_names_rows_with_multiplicity() {
        let d = diff(&rows(&[&[1], &[1], &[3]]), &rows(&[&[1], &[4], &[4]]), &CompareOptions::default());
        assert_eq!(d.missing, vec![vec![Value::Int(1)], vec![Value::Int(3)]]);
        assert_eq!(d.extra, vec![vec![Value::Int(4)], vec![Value::Int(4)]]);
    }

    #[test]
    fn order_matters_only_when_both_are_ordered() {
        let mut a = rows(&[&[1], &[2]]);
        let mut b = rows(&[&[2], &[1]]);
        assert!(diff(&a, &b, &CompareOptions::default()).is_empty());
        a.ordered = true;
        b.ordered = true;
        assert_eq!(diff(&a, &b, &CompareOptions::default()).relation(), Relation::Different);
    }

    #[test]
    fn floats_across_a_rounding_boundary_pair_up() {
        let a = Rows::new(vec!["x".into()], vec![vec![Value::Float(0.12345678901249999)]]);
        let b = Rows::new(vec!["x".into()], vec![vec![Value::Float(0.12345678901250001)]]);
        assert!(diff(&a, &b, &CompareOptions::default()).is_empty());
    }
}
