//! Mixed constraints (seed 004 ch. 2–3, JABAL): the spec's `[[constraint]]` entries are a
//! sequence `cs1 ; cs2 ; ...` in the seed's semicolon semantics, each solved in the state the
//! ones before it left. A *generate* step is declarative: the orderly enumerator defines the
//! tables it names (`defs`). A *check* step is imperative: a predicate over the candidate
//! database, written in an SQL-like notation (`COUNT(t) >= 1 AND COUNT(DISTINCT t.c) =
//! COUNT(t)`) and evaluated by crosscheck itself; it reads the tables it `uses`.
//!
//! The def-use analysis is Fig. 3.1's: an error when a step uses a table no earlier step
//! defined (a broken chain), warnings when a predicate reads a table its `uses` does not
//! declare and when a step generates a table already generated. A generate step with no
//! tables generates every table not yet generated (the seed's empty `defs`).
//!
//! A check is applied as soon as the tables it reads are complete: rows are added in the
//! order the steps generate tables, so at a node whose last row is in the i-th table, the
//! tables before it can no longer change below the node; a check over them that fails prunes
//! the whole subtree, one over tables still growing only keeps the node from being a test.

use super::data::Val;
use super::spec::{Spec, SpecError};

/// An expression of the check notation.
#[derive(Clone, Debug, PartialEq)]
pub enum CExpr {
    Int(i64),
    /// `COUNT(t)`, `COUNT(t.c)` (non-NULL values), `COUNT(DISTINCT t.c)`.
    Count {
        table: usize,
        column: Option<usize>,
        distinct: bool,
    },
    Arith(char, Box<CExpr>, Box<CExpr>),
    Cmp(&'static str, Box<CExpr>, Box<CExpr>),
    And(Box<CExpr>, Box<CExpr>),
    Or(Box<CExpr>, Box<CExpr>),
    Not(Box<CExpr>),
}

/// A check step, ready to apply.
#[derive(Clone, Debug)]
pub struct Check {
    pub text: String,
    pub expr: CExpr,
    /// The tables the expression reads (static analysis).
    pub reads: Vec<usize>,
}

impl CExpr {
    fn reads(&self, out: &mut Vec<usize>) {
        match self {
            CExpr::Int(_) => {}
            CExpr::Count { table, .. } => {
                if !out.contains(table) {
                    out.push(*table);
                }
            }
            CExpr::Arith(_, a, b) | CExpr::Cmp(_, a, b) | CExpr::And(a, b) | CExpr::Or(a, b) => {
                a.reads(out);
                b.reads(out);
            }
            CExpr::Not(a) => a.reads(out),
        }
    }
}

/// A value of the notation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CVal {
    Int(i64),
    Bool(bool),
}

impl Check {
    /// Whether the check holds on `tables` (rows per table, indexed like `Spec::tables`).
    pub fn holds(&self, tables: &[Vec<Vec<Val>>]) -> bool {
        matches!(eval(&self.expr, tables), Some(CVal::Bool(true)))
    }
}

fn eval(e: &CExpr, tables: &[Vec<Vec<Val>>]) -> Option<CVal> {
    let int = |e: &CExpr| match eval(e, tables)? {
        CVal::Int(i) => Some(i),
        CVal::Bool(_) => None,
    };
    let boolean = |e: &CExpr| match eval(e, tables)? {
        CVal::Bool(b) => Some(b),
        CVal::Int(_) => None,
    };
    Some(match e {
        CExpr::Int(i) => CVal::Int(*i),
        CExpr::Count { table, column, distinct } => {
            let rows = tables.get(*table)?;
            let n = match column {
                None => rows.len(),
                Some(c) => {
                    let mut vals: Vec<Val> = rows.iter().map(|r| r[*c]).filter(|v| *v != Val::Null).collect();
                    if *distinct {
                        vals.sort_unstable();
                        vals.dedup();
                    }
                    vals.len()
                }
            };
            CVal::Int(i64::try_from(n).ok()?)
        }
        CExpr::Arith(op, a, b) => {
            let (x, y) = (int(a)?, int(b)?);
            CVal::Int(if *op == '+' { x.checked_add(y)? } else { x.checked_sub(y)? })
        }
        CExpr::Cmp(op, a, b) => {
            let (x, y) = (int(a)?, int(b)?);
            CVal::Bool(match *op {
                "<" => x < y,
                "<=" => x <= y,
                ">" => x > y,
                ">=" => x >= y,
                "=" => x == y,
                _ => x != y,
            })
        }
        CExpr::And(a, b) => CVal::Bool(boolean(a)? && boolean(b)?),
        CExpr::Or(a, b) => CVal::Bool(boolean(a)? || boolean(b)?),
        CExpr::Not(a) => CVal::Bool(!boolean(a)?),
    })
}

// ---- the notation's parser -----------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(i64),
    Sym(&'static str),
}

fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < cs.len() && cs[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = cs[start..i].iter().collect();
            out.push(Tok::Int(s.parse().map_err(|_| format!("number {s} too large"))?));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok::Word(cs[start..i].iter().collect()));
        } else {
            let two: String = cs[i..(i + 2).min(cs.len())].iter().collect();
            let sym = ["<=", ">=", "<>", "!="].into_iter().find(|s| *s == two);
            if let Some(s) = sym {
                out.push(Tok::Sym(s));
                i += 2;
            } else {
                let s = ["(", ")", ".", "<", ">", "=", "+", "-"].into_iter().find(|s| s.starts_with(c));
                out.push(Tok::Sym(s.ok_or_else(|| format!("unexpected {c:?}"))?));
                i += 1;
            }
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    spec: &'a Spec,
}

impl Parser<'_> {
    fn peek_word(&self, w: &str) -> bool {
        matches!(self.toks.get(self.at), Some(Tok::Word(x)) if x.eq_ignore_ascii_case(w))
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        let hit = matches!(self.toks.get(self.at), Some(Tok::Sym(x)) if *x == s);
        self.at += usize::from(hit);
        hit
    }
    fn expect(&mut self, s: &str) -> Result<(), String> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(format!("expected {s:?}"))
        }
    }
    fn or(&mut self) -> Result<CExpr, String> {
        let mut e = self.and()?;
        while self.peek_word("OR") {
            self.at += 1;
            e = CExpr::Or(Box::new(e), Box::new(self.and()?));
        }
        Ok(e)
    }
    fn and(&mut self) -> Result<CExpr, String> {
        let mut e = self.not()?;
        while self.peek_word("AND") {
            self.at += 1;
            e = CExpr::And(Box::new(e), Box::new(self.not()?));
        }
        Ok(e)
    }
    fn not(&mut self) -> Result<CExpr, String> {
        if self.peek_word("NOT") {
            self.at += 1;
            return Ok(CExpr::Not(Box::new(self.not()?)));
        }
        let left = self.sum()?;
        for op in ["<=", ">=", "<>", "!=", "<", ">", "="] {
            if self.eat_sym(op) {
                return Ok(CExpr::Cmp(op, Box::new(left), Box::new(self.sum()?)));
            }
        }
        Ok(left)
    }
    fn sum(&mut self) -> Result<CExpr, String> {
        let mut e = self.atom()?;
        loop {
            let op = if self.eat_sym("+") {
                '+'
            } else if self.eat_sym("-") {
                '-'
            } else {
                return Ok(e);
            };
            e = CExpr::Arith(op, Box::new(e), Box::new(self.atom()?));
        }
    }
    fn atom(&mut self) -> Result<CExpr, String> {
        match self.toks.get(self.at).cloned() {
            Some(Tok::Int(i)) => {
                self.at += 1;
                Ok(CExpr::Int(i))
            }
            Some(Tok::Sym("(")) => {
                self.at += 1;
                let e = self.or()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("COUNT") => {
                self.at += 1;
                self.expect("(")?;
                let distinct = self.peek_word("DISTINCT");
                self.at += usize::from(distinct);
                let e = self.count_ref(distinct)?;
                self.expect(")")?;
                Ok(e)
            }
            other => Err(format!("expected a number, COUNT(...) or (, found {other:?}")),
        }
    }
    fn word(&mut self) -> Result<String, String> {
        match self.toks.get(self.at).cloned() {
            Some(Tok::Word(w)) => {
                self.at += 1;
                Ok(w)
            }
            other => Err(format!("expected a name, found {other:?}")),
        }
    }
    fn count_ref(&mut self, distinct: bool) -> Result<CExpr, String> {
        let t = self.word()?;
        let table = self.spec.tables.iter().position(|x| x.name == t).ok_or_else(|| format!("no table {t}"))?;
        if !self.eat_sym(".") {
            if distinct {
                return Err("COUNT(DISTINCT ...) needs a column".into());
            }
            return Ok(CExpr::Count { table, column: None, distinct });
        }
        let c = self.word()?;
        let column = self.spec.tables[table].columns.iter().position(|x| x.name == c);
        let column = column.ok_or_else(|| format!("table {t} has no column {c}"))?;
        Ok(CExpr::Count { table, column: Some(column), distinct })
    }
}

/// Parses one check's text.
pub fn parse_check(spec: &Spec, text: &str) -> Result<Check, String> {
    let mut p = Parser { toks: lex(text)?, at: 0, spec };
    let expr = p.or()?;
    if p.at != p.toks.len() {
        return Err(format!("unexpected {:?}", p.toks[p.at]));
    }
    let mut reads = Vec::new();
    expr.reads(&mut reads);
    Ok(Check { text: text.to_string(), expr, reads })
}

/// One `[[constraint]]` as written: generate tables, or check a predicate.
#[derive(Clone, Debug)]
pub enum Step {
    Generate { tables: Vec<usize> },
    Check { uses: Vec<usize>, check: Check },
}

/// Fig. 3.1 over the steps: the order tables are generated in, and the warnings; an error for
/// a broken def-use chain.
pub fn def_use(spec: &Spec, steps: &[Step]) -> Result<(Vec<usize>, Vec<String>), SpecError> {
    let mut defined: Vec<usize> = Vec::new();
    let mut warnings = Vec::new();
    let name = |t: &usize| spec.tables[*t].name.clone();
    for (i, step) in steps.iter().enumerate() {
        let n = i + 1;
        match step {
            Step::Generate { tables } => {
                let defs: Vec<usize> = if tables.is_empty() {
                    (0..spec.tables.len()).filter(|t| !defined.contains(t)).collect()
                } else {
                    tables.clone()
                };
                let again: Vec<String> = defs.iter().filter(|t| defined.contains(t)).map(name).collect();
                if !again.is_empty() {
                    warnings.push(format!("constraint {n}: multiple generation of {}", again.join(", ")));
                }
                defined.extend(defs.into_iter().filter(|t| !defined.contains(t)).collect::<Vec<_>>());
            }
            Step::Check { uses, check } => {
                let broken: Vec<String> = uses.iter().filter(|t| !defined.contains(t)).map(name).collect();
                if !broken.is_empty() {
                    let msg = format!(
                        "constraint {n}: def-use chain broken: uses {} before any step generates it",
                        broken.join(", ")
                    );
                    return Err(SpecError(msg));
                }
                let undeclared: Vec<String> = check.reads.iter().filter(|t| !uses.contains(t)).map(name).collect();
                if !undeclared.is_empty() {
                    warnings.push(format!("constraint {n}: reads {} not in its uses", undeclared.join(", ")));
                }
            }
        }
    }
    let missing: Vec<String> = (0..spec.tables.len()).filter(|t| !defined.contains(t)).map(|t| name(&t)).collect();
    if !missing.is_empty() {
        return Err(SpecError(format!("no constraint generates {}", missing.join(", "))));
    }
    Ok((defined, warnings))
}
