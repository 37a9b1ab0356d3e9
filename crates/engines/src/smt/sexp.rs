//! Solver replies read as SMT-LIB 2 s-expressions, just enough for the adapters: verdict atoms,
//! `(error "...")` lists, and model lists printed back in one normal form.
//!
//! The SMT leg has the full reader for seeds; the engines layer must not depend on a leg, and
//! a reply's normal form is part of what the leg's oracles compare, so this reader must print
//! and fail exactly as the leg's `sexp` does (the leg's `reply_reader` test pins both). It
//! tokenizes and works out line and column only when it has an error to report.

use std::fmt;

/// An atom keeps its exact source spelling (`|a b|`, `"x""y"`, `#b01`, `1.50`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

impl Sexp {
    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            Sexp::List(_) => None,
        }
    }

    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(l) => Some(l),
            Sexp::Atom(_) => None,
        }
    }
}

/// Atoms as written, lists with one space between items.
impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items = match self {
            Sexp::Atom(a) => return f.write_str(a),
            Sexp::List(items) => items,
        };
        f.write_str("(")?;
        let mut sep = "";
        for x in items {
            write!(f, "{sep}{x}")?;
            sep = " ";
        }
        f.write_str(")")
    }
}

/// Why a reply does not read, and where (1-based line and column, in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: u32,
    pub col: u32,
    pub message: &'static str,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

/// The error `message` at byte `at` of `src`.
fn error_at(src: &[u8], at: usize, message: &'static str) -> SyntaxError {
    let before = &src[..at.min(src.len())];
    let line_start = before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let count = |bytes: &[u8], pred: fn(&u8) -> bool| bytes.iter().filter(|c| pred(c)).count();
    let lines = count(before, |&c| c == b'\n');
    // Characters, not UTF-8 continuation bytes.
    let cols = count(&before[line_start..], |&c| c & 0xC0 != 0x80);
    let at_most = |n: usize| u32::try_from(n.saturating_add(1)).unwrap_or(u32::MAX);
    SyntaxError { line: at_most(lines), col: at_most(cols), message }
}

enum Token {
    Open,
    Close,
    Atom(String),
}

/// Where the token after byte `i` starts and ends (past comments and whitespace), or `None`
/// at the end; an unterminated string or quoted symbol is an error at its start.
fn next_token(src: &[u8], mut i: usize) -> Result<Option<(Token, usize, usize)>, SyntaxError> {
    loop {
        match src.get(i) {
            None => return Ok(None),
            Some(b';') => i += src[i..].iter().position(|&c| c == b'\n').unwrap_or(src.len() - i),
            Some(c) if c.is_ascii_whitespace() => i += 1,
            Some(_) => break,
        }
    }
    let end = match src[i] {
        b'(' => return Ok(Some((Token::Open, i, i + 1))),
        b')' => return Ok(Some((Token::Close, i, i + 1))),
        b'"' => {
            // `""` inside a string is an escaped quote: skip pairs until a lone closing quote.
            let mut j = i + 1;
            loop {
                match src[j..].iter().position(|&c| c == b'"') {
                    None => return Err(error_at(src, i, "unterminated string literal")),
                    Some(k) if src.get(j + k + 1) == Some(&b'"') => j += k + 2,
                    Some(k) => break j + k + 1,
                }
            }
        }
        b'|' => match src[i + 1..].iter().position(|&c| c == b'|') {
            None => return Err(error_at(src, i, "unterminated quoted symbol")),
            Some(k) => i + k + 2,
        },
        _ => {
            let stop = |c: &u8| c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b';' | b'"' | b'|');
            src[i..].iter().position(stop).map_or(src.len(), |k| i + k)
        }
    };
    Ok(Some((Token::Atom(String::from_utf8_lossy(&src[i..end]).into_owned()), i, end)))
}

/// Reads every top-level expression of `src`.
pub fn parse_all(src: &str) -> Result<Vec<Sexp>, SyntaxError> {
    let src = src.as_bytes();
    let mut top = Vec::new();
    // The lists being read, innermost last, with where each opened.
    let mut open: Vec<(Vec<Sexp>, usize)> = Vec::new();
    let mut i = 0;
    while let Some((token, start, end)) = next_token(src, i)? {
        i = end;
        let item = match token {
            Token::Open => {
                open.push((Vec::new(), start));
                continue;
            }
            Token::Close => match open.pop() {
                Some((items, _)) => Sexp::List(items),
                None => return Err(error_at(src, start, "unexpected ')'")),
            },
            Token::Atom(a) => Sexp::Atom(a),
        };
        open.last_mut().map_or(&mut top, |(items, _)| items).push(item);
    }
    match open.last() {
        Some(&(_, start)) => Err(error_at(src, start, "unbalanced parenthesis: this list is never closed")),
        None => Ok(top),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_replies_in_one_normal_form() {
        let reply = "sat\n(\n  (define-fun |a b| () (_ BitVec 8)\n    #b01))\n; done\n(error \"x\"\"y\")";
        let items = parse_all(reply).expect("reads");
        let printed: Vec<String> = items.iter().map(ToString::to_string).collect();
        assert_eq!(printed, ["sat", "((define-fun |a b| () (_ BitVec 8) #b01))", "(error \"x\"\"y\")"]);
        assert_eq!(items[2].list().and_then(|l| l.first()).and_then(Sexp::atom), Some("error"));
    }

    #[test]
    fn reports_where_it_breaks() {
        let at = |src: &str| parse_all(src).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(at("(assert\n  (> x 1)"), Err("1:1: unbalanced parenthesis: this list is never closed".into()));
        assert_eq!(at("(a))"), Err("1:4: unexpected ')'".into()));
        assert_eq!(at("(a \"x)"), Err("1:4: unterminated string literal".into()));
        assert_eq!(at("ok\n é |x"), Err("2:4: unterminated quoted symbol".into()));
    }
}
