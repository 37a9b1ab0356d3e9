//! SMT-LIB 2 s-expressions: the reader (with line and column for every node, so a malformed
//! seed is reported where it breaks) and the printer.

use std::fmt;

/// Where a node starts in its source (1-based).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// An atom keeps its exact source spelling (`|a b|`, `"x""y"`, `#b01`, `1.50`) so that what
/// we do not interpret passes through unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    Atom(String, Pos),
    List(Vec<Sexp>, Pos),
}

impl Sexp {
    pub fn pos(&self) -> Pos {
        match self {
            Sexp::Atom(_, p) | Sexp::List(_, p) => *p,
        }
    }

    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a, _) => Some(a),
            Sexp::List(..) => None,
        }
    }

    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(l, _) => Some(l),
            Sexp::Atom(..) => None,
        }
    }

    /// The head symbol of a list (`assert` in `(assert ...)`).
    pub fn head(&self) -> Option<&str> {
        self.list().and_then(|l| l.first()).and_then(Sexp::atom)
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom(a, _) => f.write_str(a),
            Sexp::List(l, _) => {
                f.write_str("(")?;
                for (i, x) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A syntax error with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.pos.line, self.pos.col, self.message)
    }
}

struct Reader<'a> {
    src: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
}

impl Reader<'_> {
    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col }
    }

    fn bump(&mut self) -> Option<u8> {
        let c = *self.src.get(self.i)?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if c & 0xC0 != 0x80 {
            // Count characters, not UTF-8 continuation bytes.
            self.col += 1;
        }
        Some(c)
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b';' {
                while let Some(c) = self.peek() {
                    if c == b'\n' {
                        break;
                    }
                    self.bump();
                }
            } else if c.is_ascii_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn err<T>(&self, pos: Pos, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError { pos, message: message.into() })
    }

    fn text(&self, start: usize) -> String {
        String::from_utf8_lossy(&self.src[start..self.i]).into_owned()
    }

    /// A string literal or quoted symbol from its opening `close` at `pos`, kept as written.
    /// Only strings escape their delimiter, by doubling it (`"x""y"`); a symbol has no `||`.
    fn quoted(&mut self, pos: Pos, close: u8, unterminated: &str) -> Result<Sexp, SyntaxError> {
        let start = self.i;
        self.bump();
        loop {
            match self.bump() {
                None => return self.err(pos, unterminated),
                Some(c) if c == close && close == b'"' && self.peek() == Some(b'"') => {
                    self.bump();
                }
                Some(c) if c == close => break,
                Some(_) => {}
            }
        }
        Ok(Sexp::Atom(self.text(start), pos))
    }

    /// One expression; the caller has skipped whitespace and checked for end of input.
    fn expr(&mut self) -> Result<Sexp, SyntaxError> {
        // An explicit stack instead of recursion: seeds with deeply nested terms must not
        // overflow the worker's stack.
        let mut stack: Vec<(Vec<Sexp>, Pos)> = Vec::new();
        loop {
            self.skip_ws();
            let pos = self.pos();
            let Some(c) = self.peek() else {
                let open = stack.last().map(|(_, p)| *p).unwrap_or(pos);
                return self.err(open, "unbalanced parenthesis: this list is never closed");
            };
            let item = match c {
                b'(' => {
                    self.bump();
                    stack.push((Vec::new(), pos));
                    continue;
                }
                b')' => {
                    self.bump();
                    match stack.pop() {
                        Some((items, p)) => Sexp::List(items, p),
                        None => return self.err(pos, "unexpected ')'"),
                    }
                }
                b'"' => self.quoted(pos, b'"', "unterminated string literal")?,
                b'|' => self.quoted(pos, b'|', "unterminated quoted symbol")?,
                _ => {
                    let start = self.i;
                    while let Some(c) = self.peek() {
                        if c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b';' | b'"' | b'|') {
                            break;
                        }
                        self.bump();
                    }
                    Sexp::Atom(self.text(start), pos)
                }
            };
            match stack.last_mut() {
                Some((items, _)) => items.push(item),
                None => return Ok(item),
            }
        }
    }
}

/// Reads every top-level expression of `src`.
pub fn parse_all(src: &str) -> Result<Vec<Sexp>, SyntaxError> {
    let mut r = Reader { src: src.as_bytes(), i: 0, line: 1, col: 1 };
    let mut out = Vec::new();
    loop {
        r.skip_ws();
        if r.peek().is_none() {
            return Ok(out);
        }
        out.push(r.expr()?);
    }
}

/// Reads exactly one expression.
pub fn parse_one(src: &str) -> Result<Sexp, SyntaxError> {
    let mut all = parse_all(src)?;
    match all.len() {
        1 => Ok(all.remove(0)),
        0 => Err(SyntaxError { pos: Pos { line: 1, col: 1 }, message: "empty input".into() }),
        _ => Err(SyntaxError { pos: all[1].pos(), message: "more than one expression".into() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_atoms_lists_and_positions() {
        let s = parse_all("; c\n(assert (= |a b| \"x\"\"y\" #b01))\n(check-sat)").expect("parses");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].to_string(), "(assert (= |a b| \"x\"\"y\" #b01))");
        assert_eq!(s[0].pos(), Pos { line: 2, col: 1 });
        assert_eq!(s[1].head(), Some("check-sat"));
    }

    #[test]
    fn reports_where_it_breaks() {
        let e = parse_all("(assert\n  (> x 1)").expect_err("unbalanced");
        assert_eq!(e.pos, Pos { line: 1, col: 1 });
        let e = parse_all("(a))").expect_err("extra paren");
        assert_eq!(e.pos, Pos { line: 1, col: 4 });
        let e = parse_all("(a \"x)").expect_err("string");
        assert_eq!(e.pos, Pos { line: 1, col: 4 });
    }
}
