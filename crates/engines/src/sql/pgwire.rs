//! PostgreSQL's side of the wire: splitting a script into statements (quotes, dollar quotes and
//! comments respected) and turning result columns into values, with a decoder of the binary
//! `numeric` format so that decimals stay exact.

use crosscheck_core::Value;
use postgres::types::{FromSql, Type};
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// Splits a script at the semicolons that end statements: not those in quotes ('', "",
/// $tag$...$tag$) or comments. Empty statements are dropped.
pub(super) fn split_statements(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += 1;
                }
            }
            b'-' if b.get(i + 1) == Some(&b'-') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'$' => {
                // $tag$ ... $tag$ (a tag is letters, digits and underscores).
                let tag_end =
                    b[i + 1..].iter().position(|c| !(c.is_ascii_alphanumeric() || *c == b'_')).map(|p| i + 1 + p);
                if let Some(e) = tag_end.filter(|e| b[*e] == b'$' && (*e == i + 1 || !b[i + 1].is_ascii_digit())) {
                    let tag = &text[i..=e];
                    match text[e + 1..].find(tag) {
                        Some(p) => i = e + 1 + p + tag.len() - 1,
                        None => i = b.len(),
                    }
                }
            }
            b';' => {
                let s = text[start..i].trim();
                if !s.is_empty() {
                    out.push(s);
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let s = text[start.min(text.len())..].trim();
    if !s.is_empty() {
        out.push(s);
    }
    out
}

pub(super) fn binary_supported(t: &Type) -> bool {
    matches!(
        *t,
        Type::BOOL
            | Type::INT2
            | Type::INT4
            | Type::INT8
            | Type::OID
            | Type::FLOAT4
            | Type::FLOAT8
            | Type::NUMERIC
            | Type::TEXT
            | Type::VARCHAR
            | Type::BPCHAR
            | Type::NAME
            | Type::UNKNOWN
            | Type::BYTEA
    )
}

pub(super) fn binary_value(row: &postgres::Row, i: usize, t: &Type) -> Result<Value, postgres::Error> {
    fn opt<T, F: FnOnce(T) -> Value>(v: Option<T>, f: F) -> Value {
        v.map(f).unwrap_or(Value::Null)
    }
    Ok(match *t {
        Type::BOOL => opt(row.try_get::<_, Option<bool>>(i)?, Value::Bool),
        Type::INT2 => opt(row.try_get::<_, Option<i16>>(i)?, |v| Value::Int(v.into())),
        Type::INT4 => opt(row.try_get::<_, Option<i32>>(i)?, |v| Value::Int(v.into())),
        Type::INT8 => opt(row.try_get::<_, Option<i64>>(i)?, Value::Int),
        Type::OID => opt(row.try_get::<_, Option<u32>>(i)?, |v| Value::Int(v.into())),
        // A float4 as the shortest decimal that reads back as the same float4 (0.1, not 0.100000001).
        Type::FLOAT4 => {
            opt(row.try_get::<_, Option<f32>>(i)?, |v| Value::Float(v.to_string().parse::<f64>().unwrap_or(v as f64)))
        }
        Type::FLOAT8 => opt(row.try_get::<_, Option<f64>>(i)?, Value::Float),
        Type::NUMERIC => opt(row.try_get::<_, Option<Numeric>>(i)?, |n| n.0),
        Type::BYTEA => opt(row.try_get::<_, Option<Vec<u8>>>(i)?, Value::Bytes),
        _ => opt(row.try_get::<_, Option<String>>(i)?, Value::Text),
    })
}

/// A value of the text protocol, typed by its column's type when known.
pub(super) fn text_value(s: &str, t: Option<&Type>) -> Value {
    let Some(t) = t else { return Value::Text(s.to_string()) };
    match *t {
        Type::BOOL => Value::Bool(s == "t"),
        Type::INT2 | Type::INT4 | Type::INT8 | Type::OID => {
            s.parse().map(Value::Int).unwrap_or_else(|_| Value::BigInt(s.to_string()))
        }
        Type::FLOAT4 | Type::FLOAT8 => Value::Float(match s {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            _ => s.parse().unwrap_or(f64::NAN),
        }),
        Type::NUMERIC => match s {
            "NaN" => Value::Float(f64::NAN),
            "Infinity" => Value::Float(f64::INFINITY),
            "-Infinity" => Value::Float(f64::NEG_INFINITY),
            _ => Value::Decimal(s.to_string()),
        },
        Type::BYTEA => match s.strip_prefix("\\x").and_then(hex_decode) {
            Some(b) => Value::Bytes(b),
            None => Value::Text(s.to_string()),
        },
        _ => Value::Text(s.to_string()),
    }
}

fn hex_decode(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

/// `numeric` decoded from PostgreSQL's binary format into exact decimal text.
struct Numeric(Value);

impl<'a> FromSql<'a> for Numeric {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        decode_numeric(raw).map(Numeric).ok_or_else(|| "malformed numeric".into())
    }

    fn accepts(ty: &Type) -> bool {
        *ty == Type::NUMERIC
    }
}

fn decode_numeric(raw: &[u8]) -> Option<Value> {
    let word = |i: usize| -> Option<u16> { Some(u16::from_be_bytes([*raw.get(i)?, *raw.get(i + 1)?])) };
    let ndigits = word(0)? as usize;
    let weight = word(2)? as i16 as i32;
    let sign = word(4)?;
    let dscale = word(6)? as usize;
    match sign {
        0xC000 => return Some(Value::Float(f64::NAN)),
        0xD000 => return Some(Value::Float(f64::INFINITY)),
        0xF000 => return Some(Value::Float(f64::NEG_INFINITY)),
        _ => {}
    }
    let digits: Vec<u16> = (0..ndigits).map(|k| word(8 + 2 * k)).collect::<Option<_>>()?;
    // Digit k (base 10000) has weight `weight - k`.
    let digit_at = |w: i32| -> u16 {
        let k = weight - w;
        if k >= 0 && (k as usize) < digits.len() {
            digits[k as usize]
        } else {
            0
        }
    };
    let mut s = String::new();
    if sign == 0x4000 {
        s.push('-');
    }
    if weight < 0 {
        s.push('0');
    } else {
        for w in (0..=weight).rev() {
            if w == weight {
                s.push_str(&digit_at(w).to_string());
            } else {
                let _ = write!(s, "{:04}", digit_at(w));
            }
        }
    }
    if dscale > 0 {
        let mut frac = String::new();
        let mut w = -1;
        while frac.len() < dscale {
            let _ = write!(frac, "{:04}", digit_at(w));
            w -= 1;
        }
        frac.truncate(dscale);
        s.push('.');
        s.push_str(&frac);
    }
    Some(Value::Decimal(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric(ndigits: u16, weight: i16, sign: u16, dscale: u16, digits: &[u16]) -> Option<Value> {
        let mut raw = Vec::new();
        for w in [ndigits, weight as u16, sign, dscale] {
            raw.extend(w.to_be_bytes());
        }
        for d in digits {
            raw.extend(d.to_be_bytes());
        }
        decode_numeric(&raw)
    }

    #[test]
    fn decodes_numeric() {
        // 12345.678 = [1, 2345, 6780], weight 1, dscale 3
        assert_eq!(numeric(3, 1, 0, 3, &[1, 2345, 6780]), Some(Value::Decimal("12345.678".into())));
        // -0.0012 = [12], weight -1, dscale 4
        assert_eq!(numeric(1, -1, 0x4000, 4, &[12]), Some(Value::Decimal("-0.0012".into())));
        // 0 with dscale 2
        assert_eq!(numeric(0, 0, 0, 2, &[]), Some(Value::Decimal("0.00".into())));
        // 10000 = [1], weight 1
        assert_eq!(numeric(1, 1, 0, 0, &[1]), Some(Value::Decimal("10000".into())));
        // 1.5 = [1, 5000], weight 0, dscale 1
        assert_eq!(numeric(2, 0, 0, 1, &[1, 5000]), Some(Value::Decimal("1.5".into())));
        assert!(matches!(numeric(0, 0, 0xC000, 0, &[]), Some(Value::Float(f)) if f.is_nan()));
    }

    #[test]
    fn splits_scripts() {
        assert_eq!(split_statements("a; b ;; c"), ["a", "b", "c"]);
        assert_eq!(
            split_statements("select ';', \"x;y\" -- ;\n; /* ; */ d"),
            ["select ';', \"x;y\" -- ;", "/* ; */ d"]
        );
        assert_eq!(split_statements("select $$a;b$$, $t$;$t$; select $1"), ["select $$a;b$$, $t$;$t$", "select $1"]);
        assert_eq!(split_statements("select 'it''s; ok'"), ["select 'it''s; ok'"]);
    }

    #[test]
    fn text_values() {
        assert_eq!(text_value("t", Some(&Type::BOOL)), Value::Bool(true));
        assert_eq!(text_value("\\x0102", Some(&Type::BYTEA)), Value::Bytes(vec![1, 2]));
        assert_eq!(text_value("2020-01-01", Some(&Type::DATE)), Value::Text("2020-01-01".into()));
    }
}
