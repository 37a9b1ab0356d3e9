//! crosscheck's own evaluator of the expressions PQS generates (`oracles/pqs.rs`): a
//! predicate's truth on one row (the pivot), computed without asking an engine.
//!
//! Each dialect family answers with its own semantics ([`Semantics`], which the dialect layer
//! names through `Dialect::semantics`): SQLite's type affinities, storage-class order and
//! collations (<https://sqlite.org/datatype3.html>), PostgreSQL's and DuckDB's strict typing,
//! MariaDB's same-typed comparisons under its `utf8mb4_nopad_bin` collation. Whatever it cannot
//! evaluate with certainty (an overflow, a conversion whose text it does not know, a mixed-type
//! comparison outside SQLite, a type it has no rule for) is [`Unknown`]: PQS then skips the
//! check rather than guess.

use crate::ast::{BinOp, Collation, Expr, Func, Lit, PostOp, SqlType, UnOp};
use crosscheck_core::Value;
use std::cmp::Ordering;

/// How a dialect family evaluates the expressions PQS generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Semantics {
    /// Affinities, storage classes compared NULL < numbers < text < blob, collations.
    Sqlite,
    /// PostgreSQL and DuckDB: operands of one type, booleans of their own type.
    Strict,
    /// Operands of one type, comparisons answer 0 or 1, text compared by bytes.
    MariaDb,
}

/// Why the evaluator refuses an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown(pub String);

fn unknown<T>(why: impl Into<String>) -> Result<T, Unknown> {
    Err(Unknown(why.into()))
}

/// A value as the evaluator holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Null,
    Bool(bool),
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// A three-valued truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    True,
    False,
    Null,
}

/// One column of the pivot row: its value as the engine stored it, its declared type and
/// collation.
#[derive(Clone, Debug)]
pub struct PivotCol {
    /// The name it is qualified with in the query.
    pub table: String,
    pub column: String,
    pub value: Value,
    pub ty: Option<SqlType>,
    pub collate: Option<Collation>,
}

/// SQLite's affinity of an operand, ordered as SQLite's codes (none < blob < text < numeric).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Aff {
    None,
    Blob,
    Text,
    Numeric,
}

/// An evaluated operand: its value and what SQLite's comparison rules read off its expression.
#[derive(Clone, Debug)]
struct Op {
    v: V,
    aff: Aff,
    coll: Option<Collation>,
    /// A 64-bit integer by its type (a column, or arithmetic over one), not a literal that a
    /// strict dialect may type narrower.
    wide: bool,
}

impl Op {
    fn plain(v: V) -> Op {
        Op { v, aff: Aff::None, coll: None, wide: false }
    }
}

/// The truth of predicate `e` on the pivot row.
pub fn truth(e: &Expr, pivot: &[PivotCol], sem: Semantics) -> Result<Truth, Unknown> {
    let ev = Eval { pivot, sem };
    let v = ev.eval(e)?.v;
    ev.truth_of(&v)
}

/// The value of expression `e` on the pivot row.
pub fn value(e: &Expr, pivot: &[PivotCol], sem: Semantics) -> Result<V, Unknown> {
    Eval { pivot, sem }.eval(e).map(|o| o.v)
}

struct Eval<'a> {
    pivot: &'a [PivotCol],
    sem: Semantics,
}

impl Eval<'_> {
    fn eval(&self, e: &Expr) -> Result<Op, Unknown> {
        match e {
            // Printed `CAST(-9223372036854775808 AS INTEGER)` (see `Dialect::write_int`): a cast,
            // which has the affinity of its type in SQLite.
            Expr::Lit(Lit::Int(i64::MIN)) => Ok(Op { v: V::Int(i64::MIN), aff: Aff::Numeric, coll: None, wide: true }),
            Expr::Lit(l) => self.lit(l).map(Op::plain),
            Expr::Cast(inner, _) if matches!(**inner, Expr::Lit(Lit::Null)) => Ok(Op::plain(V::Null)),
            Expr::Col(c) => self.column(&c.table, &c.column),
            Expr::Unary(UnOp::Not, a) => {
                let t = self.truth_of(&self.eval(a)?.v)?;
                Ok(Op::plain(self.boolean(not(t))))
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Postfix(op, a) => self.postfix(*op, a),
            Expr::Between { expr, low, high, not: negated } => {
                let x = self.eval(expr)?;
                let ge = self.compare(&x, &self.eval(low)?)?.map(|o| o != Ordering::Less);
                let le = self.compare(&x, &self.eval(high)?)?.map(|o| o != Ordering::Greater);
                let t = and(of_bool(ge), of_bool(le));
                Ok(Op::plain(self.boolean(if *negated { not(t) } else { t })))
            }
            Expr::InList { expr, list, not: negated } => {
                let x = self.eval(expr)?;
                let mut t = Truth::False;
                for item in list {
                    // SQLite reads `x IN (a, b)` as `x = +a OR x = +b`: the items lose affinity.
                    let mut y = self.eval(item)?;
                    y.aff = Aff::None;
                    t = or(t, of_bool(self.compare(&x, &y)?.map(|o| o == Ordering::Equal)));
                }
                Ok(Op::plain(self.boolean(if *negated { not(t) } else { t })))
            }
            Expr::Case { operand: None, whens, otherwise } => {
                // Every branch is evaluated: one the evaluator refuses is refused even where the
                // engine would not reach it.
                let (mut chosen, mut coll) = (None, None);
                for (w, then) in whens {
                    let t = self.truth_of(&self.eval(w)?.v)?;
                    let r = self.eval(then)?;
                    coll = self.carried(coll, &r);
                    if chosen.is_none() && t == Truth::True {
                        chosen = Some(r.v);
                    }
                }
                let other = match otherwise {
                    Some(o) => {
                        let r = self.eval(o)?;
                        coll = self.carried(coll, &r);
                        r.v
                    }
                    None => V::Null,
                };
                Ok(Op { coll, ..Op::plain(chosen.unwrap_or(other)) })
            }
            Expr::Func(Func::Coalesce, args) => {
                let (mut first, mut coll) = (None, None);
                for a in args {
                    let r = self.eval(a)?;
                    coll = self.carried(coll, &r);
                    if first.is_none() && r.v != V::Null {
                        first = Some(r.v);
                    }
                }
                Ok(Op { coll, ..Op::plain(first.unwrap_or(V::Null)) })
            }
            Expr::Func(Func::Nullif, args) if args.len() == 2 => {
                let (mut x, mut y) = (self.eval(&args[0])?, self.eval(&args[1])?);
                // A function compares its arguments as they are: no affinity.
                (x.aff, y.aff) = (Aff::None, Aff::None);
                let equal = self.compare(&x, &y)? == Some(Ordering::Equal);
                let coll = self.carried(None, &x);
                Ok(Op { coll, ..Op::plain(if equal { V::Null } else { x.v }) })
            }
            other => unknown(format!("no rule for {}", kind_of(other))),
        }
    }

    /// `x LIKE p`: `%` any run, `_` any one character, no escape; ASCII case ignored in
    /// SQLite, kept elsewhere (PostgreSQL, DuckDB, MariaDB's binary collation).
    fn like(&self, x: &V, p: &V) -> Result<Truth, Unknown> {
        let text = |v: &V| match (v, self.sem) {
            (V::Text(s), _) => Ok(s.clone()),
            // SQLite matches a number as its text.
            (V::Int(i), Semantics::Sqlite) => Ok(i.to_string()),
            (V::Real(f), Semantics::Sqlite) => real_text(*f),
            (other, _) => unknown(format!("{other:?} in LIKE")),
        };
        if *x == V::Null || *p == V::Null {
            return Ok(Truth::Null);
        }
        let (mut s, mut pat) = (text(x)?, text(p)?);
        // PostgreSQL's and MariaDB's default escape.
        if pat.contains('\\') {
            return unknown("a backslash in a LIKE pattern");
        }
        // SQLite's LIKE reads a string only up to its first NUL
        // (<https://sqlite.org/nulinstr.html>).
        if s.contains('\0') || pat.contains('\0') {
            return unknown("a NUL in LIKE");
        }
        if self.sem == Semantics::Sqlite {
            (s, pat) = (s.to_ascii_lowercase(), pat.to_ascii_lowercase());
        }
        let (s, pat): (Vec<char>, Vec<char>) = (s.chars().collect(), pat.chars().collect());
        Ok(of_bool(Some(like_match(&s, &pat))))
    }

    fn lit(&self, l: &Lit) -> Result<V, Unknown> {
        Ok(match l {
            Lit::Null => V::Null,
            // SQLite's TRUE and FALSE are the integers 1 and 0.
            Lit::Bool(b) if self.sem == Semantics::Strict => V::Bool(*b),
            Lit::Bool(b) => V::Int(i64::from(*b)),
            Lit::Int(i) => V::Int(*i),
            Lit::Real(f) => V::Real(*f),
            Lit::Text(s) => V::Text(s.clone()),
            Lit::Blob(b) => V::Blob(b.clone()),
            Lit::Decimal(_) | Lit::Date(_) | Lit::Timestamp(_) => {
                return unknown("a DECIMAL, DATE or TIMESTAMP literal")
            }
        })
    }

    fn column(&self, table: &str, column: &str) -> Result<Op, Unknown> {
        let Some(c) = self.pivot.iter().find(|c| c.table == table && c.column == column) else {
            return unknown(format!("{table}.{column} is not in the pivot row"));
        };
        let v = match (&c.value, c.ty) {
            (_, Some(SqlType::Decimal | SqlType::Date | SqlType::Timestamp)) => {
                return unknown("a DECIMAL, DATE or TIMESTAMP column")
            }
            (Value::Null, _) => V::Null,
            (Value::Bool(b), _) => V::Bool(*b),
            (Value::Int(i), _) => V::Int(*i),
            (Value::Float(f), _) => V::Real(*f),
            (Value::Text(s), _) => V::Text(s.clone()),
            (Value::Bytes(b), _) => V::Blob(b.clone()),
            (other, _) => return unknown(format!("a stored value {other:?}")),
        };
        let aff = match c.ty {
            Some(SqlType::Int | SqlType::Real | SqlType::Bool | SqlType::Decimal) => Aff::Numeric,
            Some(SqlType::Text | SqlType::Date | SqlType::Timestamp) => Aff::Text,
            Some(SqlType::Blob) | None => Aff::Blob,
        };
        Ok(Op { v, aff, coll: Some(c.collate.unwrap_or(Collation::Binary)), wide: true })
    }

    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> Result<Op, Unknown> {
        let (x, y) = (self.eval(a)?, self.eval(b)?);
        let ordered = |want: fn(Ordering) -> bool| -> Result<Op, Unknown> {
            let o = self.compare(&x, &y)?;
            Ok(Op::plain(self.boolean(of_bool(o.map(want)))))
        };
        match op {
            BinOp::Eq => ordered(|o| o == Ordering::Equal),
            BinOp::Ne => ordered(|o| o != Ordering::Equal),
            BinOp::Lt => ordered(|o| o == Ordering::Less),
            BinOp::Le => ordered(|o| o != Ordering::Greater),
            BinOp::Gt => ordered(|o| o == Ordering::Greater),
            BinOp::Ge => ordered(|o| o != Ordering::Less),
            BinOp::Is | BinOp::IsNot => {
                let same = match (&x.v, &y.v) {
                    (V::Null, V::Null) => true,
                    (V::Null, _) | (_, V::Null) => false,
                    _ => self.compare(&x, &y)? == Some(Ordering::Equal),
                };
                let t = if same == (op == BinOp::Is) { Truth::True } else { Truth::False };
                Ok(Op::plain(self.boolean(t)))
            }
            BinOp::And | BinOp::Or => {
                let (s, t) = (self.truth_of(&x.v)?, self.truth_of(&y.v)?);
                Ok(Op::plain(self.boolean(if op == BinOp::And { and(s, t) } else { or(s, t) })))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => self.arithmetic(op, &x, &y),
            BinOp::Like | BinOp::NotLike => {
                // MariaDB's LIKE follows the column's collation (case-blind under `_ci`).
                let collated = [x.coll, y.coll].into_iter().flatten().any(|c| c != Collation::Binary);
                if collated && self.sem != Semantics::Sqlite {
                    return unknown("LIKE under a collation");
                }
                let t = self.like(&x.v, &y.v)?;
                Ok(Op::plain(self.boolean(if op == BinOp::Like { t } else { not(t) })))
            }
            other => unknown(format!("no rule for operator {other:?}")),
        }
    }

    /// Integer `+ - *`; an overflow is SQLite's REAL or another engine's error, both refused.
    fn arithmetic(&self, op: BinOp, x: &Op, y: &Op) -> Result<Op, Unknown> {
        // A strict dialect types a small literal as a 32-bit integer, and literal-only
        // arithmetic then overflows at 32 bits.
        if self.sem != Semantics::Sqlite && !x.wide && !y.wide {
            return unknown("arithmetic over literals only");
        }
        let wide = x.wide || y.wide;
        let (a, b) = match (&x.v, &y.v) {
            (V::Null, V::Null | V::Int(_) | V::Real(_)) | (V::Int(_) | V::Real(_), V::Null) => {
                return Ok(Op { wide, ..Op::plain(V::Null) });
            }
            (V::Int(a), V::Int(b)) => (*a, *b),
            // An INTEGER column of SQLite may hold a REAL: the arithmetic is then a double's.
            (V::Real(_), V::Int(_) | V::Real(_)) | (V::Int(_), V::Real(_)) if self.sem == Semantics::Sqlite => {
                return real_arithmetic(op, as_f64(&x.v), as_f64(&y.v));
            }
            _ => return unknown("arithmetic on a value that is not an integer"),
        };
        let r = match op {
            BinOp::Add => a.checked_add(b),
            BinOp::Sub => a.checked_sub(b),
            _ => a.checked_mul(b),
        };
        match r {
            Some(r) => Ok(Op { wide, ..Op::plain(V::Int(r)) }),
            None => unknown("integer overflow"),
        }
    }

    fn postfix(&self, op: PostOp, a: &Expr) -> Result<Op, Unknown> {
        let v = self.eval(a)?.v;
        let t = match op {
            PostOp::IsNull => of_bool(Some(v == V::Null)),
            PostOp::NotNull => of_bool(Some(v != V::Null)),
            _ => {
                let t = self.truth_of(&v)?;
                of_bool(Some(match op {
                    PostOp::IsTrue => t == Truth::True,
                    PostOp::IsFalse => t == Truth::False,
                    PostOp::IsNotTrue => t != Truth::True,
                    _ => t != Truth::False,
                }))
            }
        };
        Ok(Op::plain(self.boolean(t)))
    }

    /// A truth as the dialect's value: a boolean, or SQLite's and MariaDB's 1 and 0.
    fn boolean(&self, t: Truth) -> V {
        match (t, self.sem) {
            (Truth::Null, _) => V::Null,
            (t, Semantics::Strict) => V::Bool(t == Truth::True),
            (t, _) => V::Int(i64::from(t == Truth::True)),
        }
    }

    /// A value where a condition is expected.
    fn truth_of(&self, v: &V) -> Result<Truth, Unknown> {
        match (v, self.sem) {
            (V::Null, _) => Ok(Truth::Null),
            (V::Bool(b), _) => Ok(of_bool(Some(*b))),
            (V::Int(i), Semantics::Sqlite | Semantics::MariaDb) => Ok(of_bool(Some(*i != 0))),
            (V::Real(f), Semantics::Sqlite) => Ok(of_bool(Some(*f != 0.0))),
            // Text is read by its numeric prefix, blobs too: not evaluated.
            (other, _) => unknown(format!("{other:?} as a condition")),
        }
    }

    /// The collation a CASE, COALESCE or NULLIF result takes from an operand `r`, given what
    /// it took so far: outside SQLite (whose function results are BINARY) an operand's
    /// collation stays with the value (MariaDB's `COALESCE(c, '')` compares under the column's
    /// `_ci`), and a case-blind one wins, so that `compare` refuses what it cannot judge.
    fn carried(&self, so_far: Option<Collation>, r: &Op) -> Option<Collation> {
        match (self.sem, so_far, r.coll) {
            (Semantics::Sqlite, ..) => None,
            (_, Some(c), _) if c != Collation::Binary => Some(c),
            (_, c, None) => c,
            (_, _, c) => c,
        }
    }

    /// `x` against `y` (`None`: one is NULL), by the dialect's comparison rules.
    fn compare(&self, x: &Op, y: &Op) -> Result<Option<Ordering>, Unknown> {
        if x.v == V::Null || y.v == V::Null {
            return Ok(None);
        }
        match self.sem {
            Semantics::Sqlite => sqlite_compare(x, y).map(Some),
            // Text under a column's case- or accent-blind collation (DuckDB NOCASE, MariaDB
            // `_ci`, PostgreSQL ICU ordering) is not evaluated here.
            Semantics::Strict | Semantics::MariaDb => {
                let text = matches!(x.v, V::Text(_)) || matches!(y.v, V::Text(_));
                let collated = [x.coll, y.coll].into_iter().flatten().any(|c| c != Collation::Binary);
                if text && collated {
                    return unknown("text under a collation");
                }
                same_type_compare(&x.v, &y.v).map(Some)
            }
        }
    }
}

/// Operands of one type compared: numbers by value (-0.0 equal to 0.0), text and blobs by
/// their bytes (PostgreSQL's C locale, DuckDB's default, MariaDB's `utf8mb4_nopad_bin`).
fn same_type_compare(x: &V, y: &V) -> Result<Ordering, Unknown> {
    match (x, y) {
        (V::Bool(a), V::Bool(b)) => Ok(a.cmp(b)),
        (V::Int(a), V::Int(b)) => Ok(a.cmp(b)),
        (V::Real(a), V::Real(b)) => a.partial_cmp(b).ok_or_else(|| Unknown("NaN".into())),
        (V::Text(a), V::Text(b)) => Ok(a.as_bytes().cmp(b.as_bytes())),
        (V::Blob(a), V::Blob(b)) => Ok(a.cmp(b)),
        (a, b) => unknown(format!("{a:?} against {b:?} of another type")),
    }
}

fn as_f64(v: &V) -> f64 {
    match v {
        // Rounded to the nearest double, as C's conversion in SQLite.
        V::Int(i) => *i as f64,
        V::Real(f) => *f,
        _ => f64::NAN,
    }
}

/// SQLite's `+ - *` of doubles; an infinity or NaN (shown as NULL) is refused.
fn real_arithmetic(op: BinOp, a: f64, b: f64) -> Result<Op, Unknown> {
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        _ => a * b,
    };
    if r.is_finite() {
        Ok(Op::plain(V::Real(r)))
    } else {
        unknown("a REAL overflow")
    }
}

/// SQLite: the affinity of the comparison applied to both operands, then storage classes in
/// the order NULL < INTEGER, REAL < TEXT < BLOB, text by the collation of the left column, else
/// of the right one (<https://sqlite.org/datatype3.html#comparisons>).
fn sqlite_compare(x: &Op, y: &Op) -> Result<Ordering, Unknown> {
    // sqlite3CompareAffinity: two operands with affinity take NUMERIC if one is numeric, else
    // none; one operand with affinity gives it to both.
    let aff = if x.aff > Aff::None && y.aff > Aff::None {
        if x.aff == Aff::Numeric || y.aff == Aff::Numeric {
            Aff::Numeric
        } else {
            Aff::Blob
        }
    } else {
        x.aff.max(y.aff)
    };
    let (a, b) = (apply_affinity(&x.v, aff)?, apply_affinity(&y.v, aff)?);
    let coll = x.coll.or(y.coll).unwrap_or(Collation::Binary);
    let class = |v: &V| match v {
        V::Null => 0,
        V::Bool(_) | V::Int(_) | V::Real(_) => 1,
        V::Text(_) => 2,
        V::Blob(_) => 3,
    };
    match (&a, &b) {
        (V::Int(i), V::Int(j)) => Ok(i.cmp(j)),
        (V::Real(f), V::Real(g)) => f.partial_cmp(g).ok_or_else(|| Unknown("NaN".into())),
        (V::Int(i), V::Real(f)) => int_real(*i, *f),
        (V::Real(f), V::Int(i)) => int_real(*i, *f).map(Ordering::reverse),
        // NOCASE compares up to the first NUL (`sqlite3StrNICmp`).
        (V::Text(s), V::Text(t)) if coll == Collation::NoCase && (s.contains('\0') || t.contains('\0')) => {
            unknown("a NUL under NOCASE")
        }
        (V::Text(s), V::Text(t)) => Ok(collate(s, coll)?.cmp(&collate(t, coll)?)),
        (V::Blob(s), V::Blob(t)) => Ok(s.cmp(t)),
        _ => Ok(class(&a).cmp(&class(&b))),
    }
}

/// The bytes SQLite compares under its collation `c` (the other engines' collations are not
/// SQLite's and are not evaluated).
fn collate(s: &str, c: Collation) -> Result<Vec<u8>, Unknown> {
    match c {
        Collation::Binary => Ok(s.as_bytes().to_vec()),
        Collation::NoCase => Ok(s.to_ascii_lowercase().into_bytes()),
        Collation::RTrim => Ok(s.trim_end_matches(' ').as_bytes().to_vec()),
        other => unknown(format!("text under {other:?}")),
    }
}

/// An integer against a real, exactly (SQLite compares them without rounding the integer).
fn int_real(i: i64, f: f64) -> Result<Ordering, Unknown> {
    if f.is_nan() {
        return unknown("NaN");
    }
    // 2^63 is exact as a double; every double in [-2^63, 2^63) truncates to an i64.
    const TWO63: f64 = 9_223_372_036_854_775_808.0;
    if f >= TWO63 {
        return Ok(Ordering::Less);
    }
    if f < -TWO63 {
        return Ok(Ordering::Greater);
    }
    let whole = f.trunc();
    // In range, checked above: the truncation is exact.
    #[allow(clippy::cast_possible_truncation)]
    let w = whole as i64;
    Ok(i.cmp(&w).then(if f > whole {
        Ordering::Less
    } else if f < whole {
        Ordering::Greater
    } else {
        Ordering::Equal
    }))
}

/// A value under the comparison's affinity: NUMERIC turns text that is a well-formed number
/// into that number, TEXT turns a number into its text.
fn apply_affinity(v: &V, aff: Aff) -> Result<V, Unknown> {
    match (v, aff) {
        (V::Text(s), Aff::Numeric) => numeric_text(s),
        (V::Int(i), Aff::Text) => Ok(V::Text(i.to_string())),
        (V::Real(f), Aff::Text) => real_text(*f).map(V::Text),
        (other, _) => Ok(other.clone()),
    }
}

/// SQLite's text of a REAL, `"%!.15g"`: where the shortest decimal form has at most 15
/// significant digits and no exponent, those digits, with `.0` when they have no point.
/// Other reals (exponents, zeros of either sign, longer forms) are refused.
fn real_text(f: f64) -> Result<String, Unknown> {
    let a = f.abs();
    if !(1e-4..1e15).contains(&a) {
        return unknown(format!("the text of REAL {f:?}"));
    }
    let s = format!("{f}");
    let significant = s.trim_start_matches(['-', '0', '.']).bytes().filter(u8::is_ascii_digit).count();
    if significant > 15 {
        return unknown(format!("the text of REAL {f:?}"));
    }
    Ok(if s.contains('.') { s } else { format!("{s}.0") })
}

/// SQLite's reading of text under NUMERIC affinity: a number if the text, spaces around it
/// aside, is one; else the text itself.
fn numeric_text(s: &str) -> Result<V, Unknown> {
    let t = s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r'));
    if !t.bytes().any(|b| b.is_ascii_digit()) {
        // No digit: no number, so SQLite keeps the text (`''`, `'a'`, `'%'`).
        return Ok(V::Text(s.to_string()));
    }
    if !well_formed_number(t) {
        return unknown(format!("text {s:?} that SQLite may read as a number's prefix"));
    }
    let digits = t.bytes().filter(u8::is_ascii_digit).count();
    if t.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
        return match t.parse::<i64>() {
            Ok(i) => Ok(V::Int(i)),
            Err(_) => unknown(format!("integer text {s:?} beyond 64 bits")),
        };
    }
    // SQLite's own text-to-double conversion is exact for short numbers only.
    if digits > 15 {
        return unknown(format!("text {s:?} with more digits than a double keeps"));
    }
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(V::Real(f)),
        _ => unknown(format!("text {s:?} out of a double's range")),
    }
}

/// `[+-]digits[.digits][e[+-]digits]` or `[+-].digits[...]`.
fn well_formed_number(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let mut n = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        n += digits(&mut i);
    }
    if n == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Whether `s` matches the LIKE pattern `p` (dynamic programming over both).
fn like_match(s: &[char], p: &[char]) -> bool {
    // ok[j]: p[..i] matches s[..j].
    let mut ok = vec![false; s.len() + 1];
    ok[0] = true;
    for &pc in p {
        let mut next = vec![false; s.len() + 1];
        if pc == '%' {
            let mut any = false;
            for j in 0..=s.len() {
                any |= ok[j];
                next[j] = any;
            }
        } else {
            for j in 1..=s.len() {
                next[j] = ok[j - 1] && (pc == '_' || pc == s[j - 1]);
            }
        }
        ok = next;
    }
    ok[s.len()]
}

fn of_bool(b: Option<bool>) -> Truth {
    match b {
        Some(true) => Truth::True,
        Some(false) => Truth::False,
        None => Truth::Null,
    }
}

fn not(t: Truth) -> Truth {
    match t {
        Truth::True => Truth::False,
        Truth::False => Truth::True,
        Truth::Null => Truth::Null,
    }
}

fn and(a: Truth, b: Truth) -> Truth {
    match (a, b) {
        (Truth::False, _) | (_, Truth::False) => Truth::False,
        (Truth::True, Truth::True) => Truth::True,
        _ => Truth::Null,
    }
}

fn or(a: Truth, b: Truth) -> Truth {
    not(and(not(a), not(b)))
}

fn kind_of(e: &Expr) -> &'static str {
    match e {
        Expr::Func(..) => "a function",
        Expr::Agg { .. } | Expr::Window(_) => "an aggregate",
        Expr::Subquery(_) | Expr::InSelect { .. } | Expr::Exists { .. } => "a subquery",
        Expr::Cast(..) => "a cast",
        Expr::Collate(..) => "COLLATE",
        Expr::Row(_) => "a row value",
        _ => "this expression",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_reads_text_as_a_number_only_when_it_is_one() {
        assert_eq!(numeric_text(" 1 "), Ok(V::Int(1)));
        assert_eq!(numeric_text("1e3"), Ok(V::Real(1000.0)));
        assert_eq!(numeric_text("-0.5"), Ok(V::Real(-0.5)));
        assert_eq!(numeric_text("a"), Ok(V::Text("a".into())));
        assert_eq!(numeric_text(""), Ok(V::Text(String::new())));
        assert!(numeric_text("1a").is_err());
        assert!(numeric_text("99999999999999999999").is_err());
    }

    #[test]
    fn like_matches_runs_and_single_characters() {
        let m = |s: &str, p: &str| like_match(&s.chars().collect::<Vec<_>>(), &p.chars().collect::<Vec<_>>());
        assert!(m("abc", "a%"));
        assert!(m("abc", "%c"));
        assert!(m("abc", "_b_"));
        assert!(m("", "%"));
        assert!(!m("", "_"));
        assert!(!m("ab", "a"));
        assert!(m("x%y", "x%y"));
        assert!(!m("abc", "%d%"));
    }

    /// One text column `t0.c0` holding `value` under `collate`.
    fn text_pivot(value: &str, collate: Collation) -> Vec<PivotCol> {
        let (table, column) = ("t0".into(), "c0".into());
        vec![PivotCol {
            table,
            column,
            value: Value::Text(value.into()),
            ty: Some(SqlType::Text),
            collate: Some(collate),
        }]
    }

    #[test]
    fn text_with_a_nul_is_refused_where_sqlite_stops_at_it() {
        let pivot = text_pivot("\u{0}0.5", Collation::NoCase);
        let c = Expr::col("t0", "c0");
        let like = Expr::bin(BinOp::Like, c.clone(), Expr::Lit(Lit::Text(String::new())));
        assert!(truth(&like, &pivot, Semantics::Sqlite).is_err());
        let eq = Expr::bin(BinOp::Eq, c, Expr::Lit(Lit::Text("a".into())));
        assert!(truth(&eq, &pivot, Semantics::Sqlite).is_err());
    }

    /// MariaDB's `COALESCE(c, '') = 'ab'` compares under the `_ci` column's collation (the
    /// PQS finding of a 10-minute campaign): refused, as the column itself is; SQLite's
    /// COALESCE is BINARY and judged.
    #[test]
    fn a_collated_column_passed_through_is_refused_as_the_column_is() {
        let pivot = text_pivot("Ab", Collation::NoCasePad);
        let c = Expr::col("t0", "c0");
        let ab = Expr::Lit(Lit::Text("ab".into()));
        let through = [
            Expr::Func(Func::Coalesce, vec![c.clone(), Expr::Lit(Lit::Text(String::new()))]),
            Expr::Func(Func::Nullif, vec![c.clone(), Expr::Lit(Lit::Text("x".into()))]),
            Expr::Case { operand: None, whens: vec![(Expr::Lit(Lit::Bool(true)), c.clone())], otherwise: None },
        ];
        for e in through {
            let eq = Expr::bin(BinOp::Eq, e, ab.clone());
            assert!(truth(&eq, &pivot, Semantics::MariaDb).is_err(), "{eq:?}");
        }
        let sqlite = Expr::bin(BinOp::Eq, Expr::Func(Func::Coalesce, vec![c, ab.clone()]), ab);
        assert!(truth(&sqlite, &pivot, Semantics::Sqlite).is_ok());
    }

    #[test]
    fn integers_and_reals_compare_exactly() {
        assert_eq!(int_real(i64::MAX, 9.223_372_036_854_776e18), Ok(Ordering::Less));
        assert_eq!(int_real(1, 1.0), Ok(Ordering::Equal));
        assert_eq!(int_real(1, 0.5), Ok(Ordering::Greater));
        assert_eq!(int_real(-1, -0.5), Ok(Ordering::Less));
        assert_eq!(int_real(0, -0.0), Ok(Ordering::Equal));
    }
}
