//! SMT-LIB 2 scripts: commands over hash-consed terms, parsed from a seed file with errors
//! that name file, line and column. Commands we do not interpret are kept verbatim.

use crate::sexp::{self, Pos, Sexp, SyntaxError};
use crate::term::{Arena, TermId};
use std::fmt::{self, Write as _};
use std::path::Path;

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    SetLogic(String),
    /// `set-option` / `set-info`, verbatim.
    Option(String),
    /// A declaration or definition (`declare-fun`, `declare-const`, `declare-sort`,
    /// `define-sort`, `define-fun`, `declare-datatypes`...), verbatim, in order.
    Decl(String),
    Assert(TermId),
    CheckSat,
    /// Z3's `(check-sat-using <tactic>)`; the tactic kept as text.
    CheckSatUsing(String),
    Push(u32),
    Pop(u32),
    GetModel,
    GetValue(Vec<TermId>),
    Reset,
    Exit,
    /// Anything else (`echo`, `get-info`, `get-unsat-core`...), verbatim.
    Other(String),
}

/// A parsed script; its terms live in `arena`.
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub arena: Arena,
    pub commands: Vec<Command>,
    /// The `define-fun`s, for the evaluator.
    pub defines: Vec<Vec<Sexp>>,
    /// Declared constants (nullary functions) with their sort text.
    pub consts: Vec<(String, String)>,
}

/// A seed that cannot be read: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub file: String,
    pub pos: Pos,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.pos.line, self.pos.col, self.message)
    }
}

impl std::error::Error for ParseError {}

impl Script {
    pub fn logic(&self) -> Option<&str> {
        self.commands.iter().find_map(|c| if let Command::SetLogic(l) = c { Some(l.as_str()) } else { None })
    }

    pub fn decls(&self) -> Vec<String> {
        self.commands.iter().filter_map(|c| if let Command::Decl(d) = c { Some(d.clone()) } else { None }).collect()
    }

    pub fn asserts(&self) -> Vec<TermId> {
        self.commands.iter().filter_map(|c| if let Command::Assert(t) = c { Some(*t) } else { None }).collect()
    }

    /// Parses script text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Script, ParseError> {
        let wrap = |e: SyntaxError| ParseError { file: file.to_string(), pos: e.pos, message: e.message };
        let items = sexp::parse_all(text).map_err(wrap)?;
        let mut s = Script::default();
        for it in &items {
            s.command(it).map_err(wrap)?;
        }
        Ok(s)
    }

    pub fn parse_file(path: &Path) -> Result<Script, ParseError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ParseError {
            file: name.clone(),
            pos: Pos { line: 1, col: 1 },
            message: format!("cannot read: {e}"),
        })?;
        Script::parse(&text, &name)
    }

    fn command(&mut self, it: &Sexp) -> Result<(), SyntaxError> {
        let err = |m: String| Err(SyntaxError { pos: it.pos(), message: m });
        let Some(items) = it.list() else {
            return err(format!("expected a command in parentheses, found `{it}`"));
        };
        let Some(head) = items.first().and_then(Sexp::atom) else {
            return err("a command must start with its name".into());
        };
        let n = items.len();
        let count = |i: usize| -> Result<u32, SyntaxError> {
            match items.get(i).and_then(Sexp::atom) {
                None => Ok(1),
                Some(a) => a.parse().map_err(|_| SyntaxError {
                    pos: items[i].pos(),
                    message: format!("expected a numeral, found `{a}`"),
                }),
            }
        };
        let cmd = match head {
            "set-logic" => match items.get(1).and_then(Sexp::atom) {
                Some(l) if n == 2 => Command::SetLogic(l.to_string()),
                _ => return err("set-logic needs one logic name".into()),
            },
            "set-option" | "set-info" => Command::Option(it.to_string()),
            "declare-fun" | "declare-const" => {
                let name = items.get(1).and_then(Sexp::atom);
                let (args, sort) = match (head, n) {
                    ("declare-fun", 4) => (items[2].list().map(<[Sexp]>::len), items.get(3)),
                    ("declare-const", 3) => (Some(0), items.get(2)),
                    _ => return err(format!("malformed {head}")),
                };
                let (Some(name), Some(args), Some(sort)) = (name, args, sort) else {
                    return err(format!("malformed {head}: expected a name, argument sorts and a sort"));
                };
                if args == 0 {
                    self.consts.push((name.to_string(), sort.to_string()));
                }
                Command::Decl(it.to_string())
            }
            "define-fun" => {
                if n != 5 || items[1].atom().is_none() || items[2].list().is_none() {
                    return err("malformed define-fun: expected (define-fun name ((x S) ...) S body)".into());
                }
                // The body must be a well-formed term even though we print it verbatim.
                self.arena.from_sexp(&items[4])?;
                self.defines.push(items.to_vec());
                Command::Decl(it.to_string())
            }
            "declare-sort" | "define-sort" | "declare-datatype" | "declare-datatypes" | "define-fun-rec"
            | "define-funs-rec" | "define-const" => Command::Decl(it.to_string()),
            "assert" => match items.get(1) {
                Some(t) if n == 2 => Command::Assert(self.arena.from_sexp(t)?),
                _ => return err("assert needs exactly one term".into()),
            },
            "check-sat" => Command::CheckSat,
            "check-sat-using" => match items.get(1) {
                Some(t) => Command::CheckSatUsing(t.to_string()),
                None => return err("check-sat-using needs a tactic".into()),
            },
            "check-sat-assuming" => Command::CheckSat,
            "push" => Command::Push(count(1)?),
            "pop" => Command::Pop(count(1)?),
            "get-model" => Command::GetModel,
            "get-value" => {
                let Some(ts) = items.get(1).and_then(Sexp::list) else {
                    return err("get-value needs a list of terms".into());
                };
                let mut ids = Vec::new();
                for t in ts {
                    ids.push(self.arena.from_sexp(t)?);
                }
                Command::GetValue(ids)
            }
            "reset" | "reset-assertions" => Command::Reset,
            "exit" => Command::Exit,
            _ => Command::Other(it.to_string()),
        };
        self.commands.push(cmd);
        Ok(())
    }

    /// Prints the script back as SMT-LIB text, one command a line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for c in &self.commands {
            match c {
                Command::SetLogic(l) => {
                    let _ = write!(out, "(set-logic {l})");
                }
                Command::Option(t) | Command::Decl(t) | Command::Other(t) => out.push_str(t),
                Command::Assert(t) => {
                    out.push_str("(assert ");
                    self.arena.print(*t, &mut out);
                    out.push(')');
                }
                Command::CheckSat => out.push_str("(check-sat)"),
                Command::CheckSatUsing(t) => {
                    let _ = write!(out, "(check-sat-using {t})");
                }
                Command::Push(n) => {
                    let _ = write!(out, "(push {n})");
                }
                Command::Pop(n) => {
                    let _ = write!(out, "(pop {n})");
                }
                Command::GetModel => out.push_str("(get-model)"),
                Command::GetValue(ts) => {
                    out.push_str("(get-value (");
                    for (i, t) in ts.iter().enumerate() {
                        if i > 0 {
                            out.push(' ');
                        }
                        self.arena.print(*t, &mut out);
                    }
                    out.push_str("))");
                }
                Command::Reset => out.push_str("(reset)"),
                Command::Exit => out.push_str("(exit)"),
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_script() {
        let src =
            "(set-logic QF_LIA)\n(set-option :produce-models true)\n(declare-fun x () Int)\n(declare-const y Int)\n\
                   (define-fun f ((a Int)) Int (+ a 1))\n(assert (and (> x 1) (< (f y) 0)))\n(push 1)\n\
                   (check-sat-using (then simplify smt))\n(pop 1)\n(get-value (x (+ x 1)))\n(echo \"hi\")\n";
        let s = Script::parse(src, "t.smt2").expect("parses");
        assert_eq!(s.logic(), Some("QF_LIA"));
        assert_eq!(s.consts, vec![("x".to_string(), "Int".to_string()), ("y".to_string(), "Int".to_string())]);
        assert_eq!(s.asserts().len(), 1);
        assert_eq!(s.to_text(), src);
    }

    #[test]
    fn malformed_seed_names_file_line_and_column() {
        let e = Script::parse("(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 1) (< x 2))\n", "bad.smt2")
            .expect_err("two terms");
        assert_eq!(e.to_string(), "bad.smt2:3:1: assert needs exactly one term");
        let e = Script::parse("(assert (> x\n", "b2.smt2").expect_err("unbalanced");
        assert_eq!(e.to_string(), "b2.smt2:1:9: unbalanced parenthesis: this list is never closed");
    }
}
