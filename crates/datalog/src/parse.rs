//! A parser for Soufflé-syntax `.dl` files (the subset the program model holds): `.decl`,
//! `.type` aliases of `number`/`symbol`/`unsigned`, `.input` (with `<rel>.facts` TSV files
//! beside the program), `.output`/`.printsize`, facts, rules with several heads, `;`
//! disjunctions at the top of a body, `!` negation, comparisons, `+ - *` and the aggregates
//! `count`, `sum`, `min`, `max`. Anything else is an error naming the file and the line.

use crate::ast::{AggFn, ArOp, Atom, CmpOp, Fact, Literal, Program, RelDecl, Rule, Term, Type, Val};
use std::collections::HashMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(i64),
    Str(String),
    Dir(String),
    P(&'static str),
}

struct Lexed {
    toks: Vec<(Tok, usize)>,
}

fn lex(src: &str) -> Result<Lexed, (usize, String)> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut line = 1;
    let mut toks = Vec::new();
    const PUNCT: [&str; 20] =
        [":-", "!=", "<=", ">=", "<:", "(", ")", ",", ".", ":", "!", "=", "<", ">", "+", "-", "*", "{", "}", ";"];
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if src[i..].starts_with("/*") {
            let end = src[i + 2..].find("*/").ok_or((line, "unterminated comment".to_string()))?;
            line += src[i..i + 2 + end].matches('\n').count();
            i += end + 4;
        } else if c == b'#' {
            return Err((line, "preprocessor directives (#include, #define) are not supported".into()));
        } else if c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                match b.get(i) {
                    None | Some(b'\n') => return Err((line, "unterminated string".into())),
                    Some(b'"') => break,
                    Some(b'\\') if i + 1 < b.len() => {
                        s.push(b[i + 1] as char);
                        i += 2;
                    }
                    Some(_) => {
                        let ch = src[i..].chars().next().unwrap_or(' ');
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            i += 1;
            toks.push((Tok::Str(s), line));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                return Err((line, "float constants are not supported".into()));
            }
            let n = src[start..i].parse().map_err(|_| (line, format!("number {} out of range", &src[start..i])))?;
            toks.push((Tok::Num(n), line));
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'?' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'?') {
                i += 1;
            }
            toks.push((Tok::Ident(src[start..i].to_string()), line));
        } else if c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_alphabetic()) {
            let start = i + 1;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            toks.push((Tok::Dir(src[start..i].to_string()), line));
        } else if let Some(p) = PUNCT.iter().find(|p| src[i..].starts_with(**p)) {
            toks.push((Tok::P(p), line));
            i += p.len();
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err((line, format!("unexpected character '{ch}'")));
        }
    }
    Ok(Lexed { toks })
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    types: HashMap<String, Type>,
    prog: Program,
    dir: Option<&'a Path>,
    inputs: Vec<String>,
    fresh: usize,
}

type PResult<T> = Result<T, (usize, String)>;

impl Parser<'_> {
    fn line(&self) -> usize {
        self.toks.get(self.pos).or(self.toks.last()).map(|t| t.1).unwrap_or(1)
    }
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err((self.line(), msg.into()))
    }
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::P(q)) if *q == p)
    }
    fn expect(&mut self, p: &str) -> PResult<()> {
        if self.is(p) {
            self.pos += 1;
            Ok(())
        } else {
            let found = self.peek().map(|t| format!("{t:?}")).unwrap_or_else(|| "end of file".into());
            self.err(format!("expected '{p}', found {found}"))
        }
    }
    fn ident(&mut self) -> PResult<String> {
        match self.next() {
            Some(Tok::Ident(s)) => Ok(s),
            other => {
                self.pos -= 1;
                self.err(format!("expected a name, found {other:?}"))
            }
        }
    }
    fn ty(&mut self) -> PResult<Type> {
        let n = self.ident()?;
        match n.as_str() {
            "number" | "unsigned" => Ok(Type::Number),
            "symbol" => Ok(Type::Symbol),
            "float" => self.err("float columns are not supported"),
            other => match self.types.get(other) {
                Some(t) => Ok(*t),
                None => self.err(format!("unknown type {other}")),
            },
        }
    }

    fn program(&mut self) -> PResult<()> {
        while let Some(t) = self.peek().cloned() {
            match t {
                Tok::Dir(d) => {
                    self.pos += 1;
                    self.directive(&d)?;
                }
                _ => self.clause()?,
            }
        }
        Ok(())
    }

    fn names(&mut self) -> PResult<Vec<String>> {
        let mut out = vec![self.ident()?];
        while self.is(",") {
            self.pos += 1;
            out.push(self.ident()?);
        }
        // I/O parameters: `(IO=file, filename="x")`; the defaults are what we support.
        if self.is("(") {
            while !self.is(")") {
                if self.next().is_none() {
                    return self.err("unterminated I/O parameters");
                }
            }
            self.pos += 1;
        }
        Ok(out)
    }

    fn directive(&mut self, d: &str) -> PResult<()> {
        match d {
            "decl" => {
                let name = self.ident()?;
                self.expect("(")?;
                let mut cols = Vec::new();
                while !self.is(")") {
                    self.ident()?;
                    self.expect(":")?;
                    cols.push(self.ty()?);
                    if !self.is(")") {
                        self.expect(",")?;
                    }
                }
                self.pos += 1;
                // Representation and optimisation qualifiers change nothing in the model.
                while let Some(Tok::Ident(q)) = self.peek() {
                    if ["brie", "btree", "btree_delete", "inline", "no_inline", "magic", "no_magic", "overridable"]
                        .contains(&q.as_str())
                    {
                        self.pos += 1;
                    } else if q == "eqrel" {
                        return self.err("eqrel relations are not supported");
                    } else {
                        break;
                    }
                }
                if self.prog.decl(&name).is_some() {
                    return self.err(format!("relation {name} declared twice"));
                }
                self.prog.decls.push(RelDecl { name, cols });
            }
            "type" => {
                let name = self.ident()?;
                if self.is("<:") || self.is("=") {
                    self.pos += 1;
                    let t = self.ty()?;
                    if self.is("|") || self.is("[") {
                        return self.err("union and record types are not supported");
                    }
                    self.types.insert(name, t);
                } else {
                    return self.err("only `.type T <: base` and `.type T = base` are supported");
                }
            }
            "input" => {
                let n = self.names()?;
                self.inputs.extend(n);
            }
            "output" | "printsize" => {
                let n = self.names()?;
                for o in n {
                    if !self.prog.outputs.contains(&o) {
                        self.prog.outputs.push(o);
                    }
                }
            }
            other => return self.err(format!(".{other} is not supported")),
        }
        Ok(())
    }

    fn clause(&mut self) -> PResult<()> {
        let mut heads = vec![self.atom()?];
        while self.is(",") {
            self.pos += 1;
            heads.push(self.atom()?);
        }
        let mut bodies = vec![Vec::new()];
        if self.is(":-") {
            self.pos += 1;
            bodies = self.body(true)?;
        }
        self.expect(".")?;
        for head in heads {
            for body in &bodies {
                let all_const = head.args.iter().all(|t| matches!(t, Term::Const(_)));
                if body.is_empty() && all_const {
                    let vals =
                        head.args.iter().filter_map(|t| if let Term::Const(c) = t { Some(c.clone()) } else { None });
                    self.prog.facts_mut().push(Fact { rel: head.rel.clone(), vals: vals.collect() });
                } else {
                    let r = self.normalize(Rule { head: head.clone(), body: body.clone() });
                    self.prog.rules.push(r);
                }
            }
        }
        Ok(())
    }

    /// Head terms become variables (constants and expressions move into the body), so every
    /// printer can assume a head of variables.
    fn normalize(&mut self, mut r: Rule) -> Rule {
        for t in r.head.args.iter_mut() {
            if !matches!(t, Term::Var(_)) {
                self.fresh += 1;
                let v = format!("H_{}", self.fresh);
                let old = std::mem::replace(t, Term::Var(v.clone()));
                r.body.push(Literal::Cmp(CmpOp::Eq, Term::Var(v), old));
            }
        }
        r
    }

    /// A body: `;`-separated conjunctions (only at the top when `top`).
    fn body(&mut self, top: bool) -> PResult<Vec<Vec<Literal>>> {
        let mut out = vec![Vec::new()];
        loop {
            if self.is("(") {
                return self.err("parenthesised disjunctions are not supported");
            }
            let l = self.literal()?;
            if let Some(cur) = out.last_mut() {
                cur.push(l);
            }
            if self.is(",") {
                self.pos += 1;
            } else if self.is(";") && top {
                self.pos += 1;
                out.push(Vec::new());
            } else {
                break;
            }
        }
        Ok(out)
    }

    fn literal(&mut self) -> PResult<Literal> {
        if self.is("!") {
            self.pos += 1;
            return Ok(Literal::Neg(self.atom()?));
        }
        if let (Some(Tok::Ident(_)), Some((Tok::P("("), _))) = (self.peek(), self.toks.get(self.pos + 1)) {
            return Ok(Literal::Pos(self.atom()?));
        }
        let left = self.term()?;
        let op = match self.next() {
            Some(Tok::P(p)) => match p {
                "=" => CmpOp::Eq,
                "!=" => CmpOp::Ne,
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                ">=" => CmpOp::Ge,
                _ => {
                    self.pos -= 1;
                    return self.err(format!("expected a comparison, found '{p}'"));
                }
            },
            other => {
                self.pos -= 1;
                return self.err(format!("expected a comparison, found {other:?}"));
            }
        };
        if let (CmpOp::Eq, Term::Var(result), Some(Tok::Ident(f))) = (op, &left, self.peek()) {
            let func = match f.as_str() {
                "count" => Some(AggFn::Count),
                "sum" => Some(AggFn::Sum),
                "min" => Some(AggFn::Min),
                "max" => Some(AggFn::Max),
                "mean" => return self.err("the mean aggregate is not supported"),
                _ => None,
            };
            if let Some(func) = func {
                self.pos += 1;
                let value = if func == AggFn::Count { None } else { Some(self.term()?) };
                self.expect(":")?;
                let body = if self.is("{") {
                    self.pos += 1;
                    let b = self.body(false)?;
                    self.expect("}")?;
                    b.into_iter().next().unwrap_or_default()
                } else {
                    vec![Literal::Pos(self.atom()?)]
                };
                return Ok(Literal::Agg { result: result.clone(), func, value, body });
            }
        }
        let right = self.term()?;
        Ok(Literal::Cmp(op, left, right))
    }

    fn atom(&mut self) -> PResult<Atom> {
        let rel = self.ident()?;
        self.expect("(")?;
        let mut args = Vec::new();
        while !self.is(")") {
            args.push(self.term()?);
            if !self.is(")") {
                self.expect(",")?;
            }
        }
        self.pos += 1;
        Ok(Atom { rel, args })
    }

    fn term(&mut self) -> PResult<Term> {
        let mut t = self.factor()?;
        loop {
            let op = if self.is("+") {
                ArOp::Add
            } else if self.is("-") {
                ArOp::Sub
            } else {
                break;
            };
            self.pos += 1;
            let r = self.factor()?;
            t = Term::Bin(op, Box::new(t), Box::new(r));
        }
        Ok(t)
    }

    fn factor(&mut self) -> PResult<Term> {
        let mut t = self.primary()?;
        while self.is("*") {
            self.pos += 1;
            let r = self.primary()?;
            t = Term::Bin(ArOp::Mul, Box::new(t), Box::new(r));
        }
        Ok(t)
    }

    fn primary(&mut self) -> PResult<Term> {
        match self.next() {
            Some(Tok::Num(n)) => Ok(Term::Const(Val::Num(n))),
            Some(Tok::Str(s)) => Ok(Term::Const(Val::Sym(s))),
            Some(Tok::P("-")) => match self.next() {
                Some(Tok::Num(n)) => Ok(Term::Const(Val::Num(-n))),
                _ => {
                    self.pos -= 1;
                    let t = self.primary()?;
                    Ok(Term::Bin(ArOp::Sub, Box::new(Term::Const(Val::Num(0))), Box::new(t)))
                }
            },
            Some(Tok::P("(")) => {
                let t = self.term()?;
                self.expect(")")?;
                Ok(t)
            }
            Some(Tok::Ident(s)) if s == "_" => Ok(Term::Wild),
            Some(Tok::Ident(s)) => {
                if self.is("(") {
                    return self.err(format!("functor {s}(...) is not supported"));
                }
                Ok(Term::Var(s))
            }
            other => {
                self.pos -= 1;
                self.err(format!("expected a term, found {other:?}"))
            }
        }
    }

    fn load_inputs(&mut self) -> PResult<()> {
        let Some(dir) = self.dir else { return Ok(()) };
        for rel in self.inputs.clone() {
            let cols = match self.prog.decl(&rel) {
                Some(d) => d.cols.clone(),
                None => return Err((0, format!(".input of undeclared relation {rel}"))),
            };
            let path = dir.join(format!("{rel}.facts"));
            let text = std::fs::read_to_string(&path).map_err(|e| (0, format!("{}: {e}", path.display())))?;
            for (n, line) in text.lines().enumerate() {
                if line.is_empty() {
                    continue;
                }
                let parts: Vec<&str> = line.split('\t').collect();
                if parts.len() != cols.len() {
                    return Err((0, format!("{}:{}: expected {} columns", path.display(), n + 1, cols.len())));
                }
                let mut vals = Vec::new();
                for (p, t) in parts.iter().zip(&cols) {
                    vals.push(match t {
                        Type::Number => Val::Num(
                            p.trim()
                                .parse()
                                .map_err(|_| (0, format!("{}:{}: bad number {p}", path.display(), n + 1)))?,
                        ),
                        Type::Symbol => Val::Sym(p.to_string()),
                    });
                }
                self.prog.facts_mut().push(Fact { rel: rel.clone(), vals });
            }
        }
        Ok(())
    }
}

/// Parses Soufflé text. `name` labels errors; `dir` is where `.input` fact files live.
pub fn parse_named(src: &str, name: &str, dir: Option<&Path>) -> Result<Program, String> {
    let at = |(line, msg): (usize, String)| {
        if line == 0 {
            msg
        } else {
            format!("{name}:{line}: {msg}")
        }
    };
    let lexed = lex(src).map_err(at)?;
    let mut p = Parser {
        toks: lexed.toks,
        pos: 0,
        types: HashMap::new(),
        prog: Program::default(),
        dir,
        inputs: vec![],
        fresh: 0,
    };
    p.program().map_err(at)?;
    p.load_inputs().map_err(at)?;
    let prog = p.prog;
    crate::analysis::validate(&prog).map_err(|e| format!("{name}: {e}"))?;
    Ok(prog)
}

pub fn parse(src: &str) -> Result<Program, String> {
    parse_named(src, "<program>", None)
}

/// Reads a seed file; facts of `.input` relations come from `<rel>.facts` beside it.
pub fn parse_file(path: &Path) -> Result<Program, String> {
    let src = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut p = parse_named(&src, &path.display().to_string(), path.parent())?;
    p.seed_rels = p.decls.iter().map(|d| d.name.clone()).collect();
    Ok(p)
}
