//! Dates, timestamps, exact decimals and JSON: the values of each, the expressions that compute
//! them, and how each function prints per dialect.
//!
//! Each construct is here because PostgreSQL 15, DuckDB (1.1.3 and 2.0.0) and MariaDB 10.11
//! gave the same answers for it, measured on the engines; what they answer differently is left
//! out, each with its reason at the place it would be generated.

use crate::ast::{BinOp, Expr, Func, Lit, SqlType, ToSql};
use crate::dialect::{cap, write_args, Dialect};
use crate::exprgen::ExprGen;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// Edge values of the exact and temporal types, `None` for the other types.
pub fn edge_value(rng: &mut ChaCha8Rng, t: SqlType) -> Option<Lit> {
    Some(match t {
        SqlType::Decimal => {
            // Within DECIMAL(12,2), so that every engine stores each exactly.
            const D: &[&str] = &["0.00", "0.01", "-0.01", "1.50", "-2.25", "3.25", "100.00", "99999.99", "-99999.99"];
            Lit::Decimal(D.choose(rng).unwrap_or(&"0.00").to_string())
        }
        SqlType::Date => {
            // Leap days, the ends of months and years, both ends of 32-bit Unix time.
            const D: &[&str] =
                &["2000-01-01", "2000-02-29", "1999-12-31", "2020-02-29", "2024-03-01", "1970-01-01", "2038-01-19"];
            Lit::Date(D.choose(rng).unwrap_or(&"2000-01-01").to_string())
        }
        SqlType::Timestamp => {
            // Whole seconds: each engine prints a fraction its own way.
            const T: &[&str] = &[
                "2000-01-01 00:00:00",
                "2000-02-29 23:59:59",
                "1999-12-31 23:59:59",
                "2020-02-29 12:00:00",
                "2000-01-31 12:34:56",
                "1970-01-01 00:00:01",
                "2038-01-19 03:14:07",
            ];
            Lit::Timestamp(T.choose(rng).unwrap_or(&"2000-01-01 00:00:00").to_string())
        }
        _ => return None,
    })
}

/// Interval counts: month ends (Jan 31 + 1 month is Feb 29 in 2000, in every engine measured),
/// leap years, signs. Small, so that no result leaves the years every engine stores.
const DAYS: &[i64] = &[1, -1, 28, 29, 30, 31, 365, -366];
const MONTHS: &[i64] = &[1, -1, 11, 12, -12, 13, 24];
const SECONDS: &[i64] = &[1, -1, 59, 60, 3600, -3600, 86399, 86400];

fn count(g: &mut ExprGen, counts: &[i64]) -> Expr {
    Expr::Lit(Lit::Int(*counts.choose(g.rng).unwrap_or(&1)))
}

/// Sums and differences of exact decimals, products of two stored values cast back to
/// DECIMAL(12,2) (a product's scale is the sum of its operands' in every engine, so nested
/// products outgrow DuckDB's DECIMAL(18)), round() to 0 to 2 places (half away from zero
/// everywhere), absolute values, choices and subqueries. No quotients: DuckDB divides
/// decimals as DOUBLE, PostgreSQL and MariaDB each to their own scale.
pub fn decimal_expr(g: &mut ExprGen, d: u32) -> Expr {
    let t = SqlType::Decimal;
    match g.rng.gen_range(0..11) {
        0..=2 => {
            let op = if g.rng.gen() { BinOp::Add } else { BinOp::Sub };
            let (a, b) = (g.expr(t, d), g.expr(t, d));
            Expr::bin(op, a, b)
        }
        3 => Expr::un(crate::ast::UnOp::Neg, g.expr(t, d)),
        4 if g.has(Func::Abs) => Expr::Func(Func::Abs, vec![g.expr(t, d)]),
        5 => g.case(t, d),
        6 if g.subqueries => g.scalar_subquery(t, d),
        7 if g.aggregates => g.aggregate(t, d),
        8 => {
            let (a, b) = (g.column_or_literal(t), g.column_or_literal(t));
            Expr::Cast(Box::new(Expr::bin(BinOp::Mul, a, b)), t)
        }
        9 if g.has(Func::DecRound) => {
            let places = Expr::Lit(Lit::Int(g.rng.gen_range(0..3)));
            Expr::Func(Func::DecRound, vec![g.expr(t, d), places])
        }
        _ => g.generic_func(t, d).unwrap_or_else(|| g.column_or_literal(t)),
    }
}

/// Dates and timestamps: chosen, moved by an interval (dates by days and months with
/// `DATE_ADD` style arithmetic: MariaDB's `date + 1` is a number; timestamps by seconds and
/// months), a timestamp truncated to its month, or the other type cast. No differences of
/// timestamps: an INTERVAL in PostgreSQL and DuckDB, a number in MariaDB.
pub fn temporal_expr(g: &mut ExprGen, t: SqlType, d: u32) -> Expr {
    let (adds, other, other_cap): ([(Func, &[i64]); 2], _, _) = match t {
        SqlType::Date => {
            ([(Func::DateAddDays, DAYS), (Func::DateAddMonths, MONTHS)], SqlType::Timestamp, cap::TIMESTAMP)
        }
        _ => ([(Func::TsAddSeconds, SECONDS), (Func::TsAddMonths, MONTHS)], SqlType::Date, cap::DATE),
    };
    match g.rng.gen_range(0..12) {
        0 => g.case(t, d),
        1 if g.subqueries => g.scalar_subquery(t, d),
        2 if g.aggregates => g.aggregate(t, d),
        3 => g.generic_func(t, d).unwrap_or_else(|| g.column_or_literal(t)),
        k @ 4..=7 if g.has(adds[k % 2].0) => {
            let (f, counts) = adds[k % 2];
            let n = count(g, counts);
            Expr::Func(f, vec![g.expr(t, d), n])
        }
        8 if t == SqlType::Timestamp && g.has(Func::TruncMonth) => Expr::Func(Func::TruncMonth, vec![g.expr(t, d)]),
        9 if g.env.caps.has(other_cap) => Expr::Cast(Box::new(g.expr(other, d)), t),
        _ => g.column_or_literal(t),
    }
}

/// An integer computed from dates, timestamps or JSON: a field of a date or timestamp, the
/// days between two dates, the length of a JSON array. `None` where the run has none of them.
/// Dates only in strictly typed runs, as their columns: a loose run would convert any value.
pub fn int_expr(g: &mut ExprGen, d: u32) -> Option<Expr> {
    let caps = &g.env.caps;
    let temporal: Vec<SqlType> = [(cap::DATE, SqlType::Date), (cap::TIMESTAMP, SqlType::Timestamp)]
        .into_iter()
        .filter(|(c, _)| caps.has(c) && !g.env.loose)
        .map(|(_, t)| t)
        .collect();
    match g.rng.gen_range(0..5) {
        0..=2 if !temporal.is_empty() => {
            let from = *temporal.choose(g.rng)?;
            let fields: &[Func] = match from {
                SqlType::Timestamp => &[Func::ExtractYear, Func::ExtractMonth, Func::ExtractDay, Func::ExtractHour],
                _ => &[Func::ExtractYear, Func::ExtractMonth, Func::ExtractDay],
            };
            let f = *fields.choose(g.rng)?;
            if !g.has(f) {
                return None;
            }
            // PostgreSQL's EXTRACT gives a numeric since 14; the others an integer.
            Some(Expr::Cast(Box::new(Expr::Func(f, vec![g.expr(from, d)])), SqlType::Int))
        }
        3 if g.has(Func::DateDiff) && temporal.contains(&SqlType::Date) => {
            let (a, b) = (g.expr(SqlType::Date, d), g.expr(SqlType::Date, d));
            Some(Expr::Func(Func::DateDiff, vec![a, b]))
        }
        _ if g.has(Func::JsonArrayLength) => Some(Expr::Func(Func::JsonArrayLength, json_elements(g, d))),
        _ => None,
    }
}

/// One to three JSON array elements, integers and text only: JSON spells reals, booleans and
/// blobs per engine.
fn json_elements(g: &mut ExprGen, d: u32) -> Vec<Expr> {
    let n = g.rng.gen_range(1..=3);
    (0..n)
        .map(|_| {
            let from = if g.rng.gen() { SqlType::Int } else { SqlType::Text };
            let arg = g.expr(from, d);
            if g.env.loose {
                Expr::Cast(Box::new(arg), from)
            } else {
                arg
            }
        })
        .collect()
}

/// Text from JSON: a key of an object ([`Func::JsonValue`]) or an element of an array, also
/// one past its end (NULL everywhere).
pub fn json_text(g: &mut ExprGen, d: u32) -> Option<Expr> {
    if g.has(Func::JsonArrayGet) && (g.rng.gen() || !g.has(Func::JsonValue)) {
        let mut args = json_elements(g, d);
        args.push(Expr::Lit(Lit::Int(g.rng.gen_range(0..=args.len() as i64))));
        return Some(Expr::Func(Func::JsonArrayGet, args));
    }
    if !g.has(Func::JsonValue) {
        return None;
    }
    let mut arg = json_elements(g, d);
    arg.truncate(1);
    Some(Expr::Func(Func::JsonValue, arg))
}

/// A comparison of an exact decimal with an integer or a real: each engine compares a decimal
/// with an integer exactly and with a double as doubles (measured alike).
pub fn mixed_comparison(g: &mut ExprGen, d: u32) -> Option<Expr> {
    if !g.env.caps.has(cap::DECIMAL) || g.env.loose {
        return None;
    }
    let other = if g.rng.gen() { SqlType::Int } else { SqlType::Real };
    let (mut a, mut b) = (g.expr(SqlType::Decimal, d), g.expr(other, d));
    if g.rng.gen() {
        std::mem::swap(&mut a, &mut b);
    }
    const OPS: &[BinOp] = &[BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];
    Some(Expr::bin(*OPS.choose(g.rng)?, a, b))
}

/// The functions of this module as `d` prints them; false for any other function.
pub fn write_func(d: &dyn Dialect, out: &mut String, f: Func, args: &[Expr]) -> bool {
    let sql = |e: &Expr| e.to_sql(d);
    match (f, args) {
        // Only a reduced case has a count that is not an integer literal: as a value it adds
        // nothing known, and the sum is NULL.
        (Func::DateAddDays | Func::DateAddMonths | Func::TsAddSeconds | Func::TsAddMonths, [_, n])
            if !matches!(n, Expr::Lit(Lit::Int(_))) =>
        {
            let t =
                if matches!(f, Func::DateAddDays | Func::DateAddMonths) { SqlType::Date } else { SqlType::Timestamp };
            let _ = write!(out, "CAST(NULL AS {})", d.cast_type(t));
        }
        // PostgreSQL and DuckDB add an INTERVAL to a date as a TIMESTAMP: cast back.
        (Func::DateAddDays | Func::DateAddMonths, [x, Expr::Lit(Lit::Int(n))]) => {
            let unit = if f == Func::DateAddDays { "DAY" } else { "MONTH" };
            let _ = write!(out, "CAST(({} + ", sql(x));
            write_interval(d, out, *n, unit);
            let _ = write!(out, ") AS {})", d.cast_type(SqlType::Date));
        }
        (Func::TsAddSeconds | Func::TsAddMonths, [x, Expr::Lit(Lit::Int(n))]) => {
            let unit = if f == Func::TsAddSeconds { "SECOND" } else { "MONTH" };
            let _ = write!(out, "({} + ", sql(x));
            write_interval(d, out, *n, unit);
            out.push(')');
        }
        (Func::DateDiff, [a, b]) if d.typed_spelling().date_diff => write_args(d, out, "DATEDIFF", args),
        (Func::DateDiff, [a, b]) => crate::dialect::std_write_binary(d, out, BinOp::Sub, a, b),
        (Func::ExtractYear | Func::ExtractMonth | Func::ExtractDay | Func::ExtractHour, [x]) => {
            let field = match f {
                Func::ExtractYear => "YEAR",
                Func::ExtractMonth => "MONTH",
                Func::ExtractDay => "DAY",
                _ => "HOUR",
            };
            let _ = write!(out, "EXTRACT({field} FROM {})", sql(x));
        }
        // DuckDB 1.1.3 truncates a TIMESTAMP to a DATE, 2.0.0 and PostgreSQL to a TIMESTAMP.
        (Func::TruncMonth, [x]) => {
            let _ = write!(out, "CAST(date_trunc('month', {}) AS {})", sql(x), d.cast_type(SqlType::Timestamp));
        }
        (Func::DecRound, _) => write_args(d, out, "round", args),
        (Func::JsonArrayGet, [elements @ .., i]) => {
            let mut array = String::new();
            write_args(d, &mut array, d.typed_spelling().json_array, elements);
            match i {
                Expr::Lit(Lit::Int(i)) => write_json_get(d, out, &array, *i),
                // Only a reduced case has another index: as a value it reads nothing.
                _ => {
                    let _ = write!(out, "CAST(NULL AS {})", d.cast_type(SqlType::Text));
                }
            }
        }
        (Func::JsonArrayLength, _) => {
            let spelling = d.typed_spelling();
            out.push_str(spelling.json_length);
            out.push('(');
            write_args(d, out, spelling.json_array, args);
            out.push(')');
        }
        _ => return false,
    }
    true
}

/// Whether PostgreSQL takes `e` as an index key: it refuses functions not marked IMMUTABLE
/// ("functions in index expression must be marked IMMUTABLE"), among them its JSON builders
/// and the text of a date or timestamp (which depends on DateStyle). A cast to text is refused
/// whatever it casts: the tree does not say what type its operand has.
pub fn index_safe(e: &Expr) -> bool {
    let mut safe = true;
    e.visit(&mut |x| {
        if matches!(
            x,
            Expr::Func(Func::JsonValue | Func::JsonArrayGet | Func::JsonArrayLength, _) | Expr::Cast(_, SqlType::Text)
        ) {
            safe = false;
        }
    });
    safe
}

/// How a dialect spells the functions of this module where the spellings differ.
pub struct Spelling {
    /// The function that builds a JSON array of its arguments.
    pub json_array: &'static str,
    /// The function that counts a JSON array's elements.
    pub json_length: &'static str,
    pub json_get: JsonGet,
    /// `DATEDIFF(a, b)` for the days between two dates, not `a - b` (MariaDB's `date - date` is
    /// a number made of the digits: <https://mariadb.com/kb/en/datediff/>).
    pub date_diff: bool,
    /// `INTERVAL '3' DAY`, not `INTERVAL 3 DAY`. MariaDB reads a quoted count as a decimal:
    /// `datetime + INTERVAL '1' SECOND` has microseconds there (measured on 10.11).
    pub interval_quoted: bool,
}

/// How element `i` of a JSON array is read as text, NULL for a JSON null or past the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonGet {
    /// `CAST(json_extract(a, '$[i]') AS TEXT)`: SQLite's `json_extract` returns the SQL value
    /// (<https://sqlite.org/json1.html#jex>).
    ExtractCast,
    /// `(a ->> i)`: PostgreSQL; DuckDB's `json_extract_string` (its `json_extract` would give
    /// the JSON text `null`).
    Arrow,
    /// `JSON_UNQUOTE(NULLIF(JSON_EXTRACT(a, '$[i]'), 'null'))` in the cast collation. Not
    /// MariaDB's JSON_VALUE: 10.11.14 reads an empty string as NULL (MDEV-37428,
    /// <https://github.com/MariaDB/server/pull/4304>), which `json_value` meets already.
    /// JSON_EXTRACT keeps a string quoted and a JSON null as `null`; JSON_UNQUOTE's text is
    /// utf8mb4_bin, an "Illegal mix of collations" beside the session's.
    Unquote,
}

/// SQLite's spelling, and the standard interval.
pub const STANDARD: Spelling = Spelling {
    json_array: "json_array",
    json_length: "json_array_length",
    json_get: JsonGet::ExtractCast,
    date_diff: false,
    interval_quoted: true,
};

fn write_interval(d: &dyn Dialect, out: &mut String, n: i64, unit: &str) {
    let _ = match d.typed_spelling().interval_quoted {
        true => write!(out, "INTERVAL '{n}' {unit}"),
        false => write!(out, "INTERVAL {n} {unit}"),
    };
}

fn write_json_get(d: &dyn Dialect, out: &mut String, array: &str, i: i64) {
    let _ = match d.typed_spelling().json_get {
        JsonGet::ExtractCast => write!(out, "CAST(json_extract({array}, '$[{i}]') AS {})", d.cast_type(SqlType::Text)),
        JsonGet::Arrow => write!(out, "({array} ->> {i})"),
        JsonGet::Unquote => {
            let c = d.collation_name(crate::ast::Collation::Binary);
            write!(out, "(JSON_UNQUOTE(NULLIF(JSON_EXTRACT({array}, '$[{i}]'), 'null')) COLLATE {c})")
        }
    };
}
