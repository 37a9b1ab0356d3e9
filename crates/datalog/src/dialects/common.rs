//! Helpers the printers share: the aggregate rule shape every dialect can express, rules
//! flattened for dialects that want plain variables in atoms, the `config` option's first-line
//! comment, model values and column names as the core sees them, relation names, the binding
//! order of a body, [`TextDialect`], the one `Dialect` impl, and [`Spelling`], the Prolog-like
//! rule syntax that clingo, Nemo and SWI-Prolog write with different punctuation.

use super::recsql::{self, SqlSpelling};
use super::Dialect;
use crate::ast::{AggFn, Atom, CmpOp, Fact, Literal, Program, Rule, Term, Val};
use crosscheck_core::Value;
use std::collections::BTreeSet;

/// A dialect is a printer plus a few fixed facts: the dialects differ only in those, so they
/// are values of this one type.
pub struct TextDialect {
    pub name: &'static str,
    pub options: &'static [&'static str],
    pub extension: &'static str,
    pub command: &'static str,
    pub comment_prefix: &'static str,
    pub print_by: PrintBy,
}

/// How a dialect prints a program.
#[derive(Clone, Copy)]
pub enum PrintBy {
    /// A printer of its own.
    Own(fn(&Program, &str, Option<&str>) -> Result<String, String>),
    /// The recursive-SQL printer the SQL dialects share, with the dialect's spelling.
    Sql(&'static SqlSpelling),
}

impl TextDialect {
    /// A dialect named `name` with its `config` options, whose reproducer `repro.<extension>`
    /// runs by `command`, whose line comments start with `comment_prefix`, printed by `print`.
    pub const fn new(
        name: &'static str,
        options: &'static [&'static str],
        extension: &'static str,
        command: &'static str,
        comment_prefix: &'static str,
        print: fn(&Program, &str, Option<&str>) -> Result<String, String>,
    ) -> TextDialect {
        TextDialect { name, options, extension, command, comment_prefix, print_by: PrintBy::Own(print) }
    }

    /// A recursive-SQL dialect, named by its spelling: `repro.sql` reproducers run by
    /// `command`, `--` comments.
    pub const fn sql(options: &'static [&'static str], command: &'static str, spelling: &'static SqlSpelling) -> Self {
        let print_by = PrintBy::Sql(spelling);
        TextDialect { name: spelling.name, options, extension: "sql", command, comment_prefix: "--", print_by }
    }
}

impl Dialect for TextDialect {
    fn name(&self) -> &'static str {
        self.name
    }
    fn options(&self) -> &'static [&'static str] {
        self.options
    }
    fn extension(&self) -> &'static str {
        self.extension
    }
    fn command(&self) -> &'static str {
        self.command
    }
    fn comment_prefix(&self) -> &'static str {
        self.comment_prefix
    }
    fn print(&self, p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
        match self.print_by {
            PrintBy::Own(print) => print(p, out, option),
            PrintBy::Sql(spelling) => recsql::print(spelling, p, out, option),
        }
    }
}

/// The aggregate rule shape every dialect can express:
/// `h(G.., R) :- p(G.., _), R = f V : { p(G.., V) }`, grouping `p` by the columns `G`.
pub struct AggForm {
    pub src: String,
    /// For each column of `p`: the group variable, or `None` at the aggregated column.
    pub cols: Vec<Option<String>>,
    pub value: String,
    pub func: AggFn,
    pub result: String,
}

impl AggForm {
    /// The arguments of the aggregated atom `p(G.., V)`, each variable spelled by `var`.
    pub fn inner_args(&self, var: impl Fn(&str) -> String) -> Vec<String> {
        self.cols.iter().map(|c| var(c.as_deref().unwrap_or(&self.value))).collect()
    }

    /// The arguments of the guard `p(G.., _)`, each group variable spelled by `var`.
    pub fn guard_args(&self, var: impl Fn(&str) -> String) -> Vec<String> {
        self.cols.iter().map(|c| c.as_deref().map(&var).unwrap_or_else(|| "_".into())).collect()
    }
}

/// Recognises [`AggForm`] in a rule whose head holds every group variable and the result once.
pub fn agg_form(r: &Rule) -> Option<AggForm> {
    let [Literal::Pos(guard), Literal::Agg { result, func, value, body }] = r.body.as_slice() else { return None };
    let [Literal::Pos(inner)] = body.as_slice() else { return None };
    if guard.rel != inner.rel || guard.args.len() != inner.args.len() {
        return None;
    }
    let mut cols = Vec::new();
    let mut value_var = None;
    for (g, i) in guard.args.iter().zip(&inner.args) {
        match (g, i) {
            (Term::Wild, Term::Var(v)) if value_var.is_none() => {
                value_var = Some(v.clone());
                cols.push(None);
            }
            // `count : { p(G, _) }` counts the distinct values of the wildcard column.
            (Term::Wild, Term::Wild) if value_var.is_none() && *func == AggFn::Count => {
                value_var = Some("AGGV".to_string());
                cols.push(None);
            }
            (Term::Var(a), Term::Var(b)) if a == b => cols.push(Some(a.clone())),
            _ => return None,
        }
    }
    let value_var = value_var?;
    match (func, value) {
        (AggFn::Count, None) => {}
        (_, Some(Term::Var(v))) if *v == value_var => {}
        _ => return None,
    }
    let group: Vec<&String> = cols.iter().flatten().collect();
    let mut head: Vec<&String> = Vec::new();
    for t in &r.head.args {
        let Term::Var(v) = t else { return None };
        head.push(v);
    }
    let mut expect: Vec<&String> = group.clone();
    expect.push(result);
    let (mut a, mut b) = (head.clone(), expect);
    a.sort();
    b.sort();
    let distinct = a.windows(2).all(|w| w[0] != w[1]);
    if a != b || !distinct || group.contains(&result) || group.contains(&&value_var) {
        return None;
    }
    Some(AggForm { src: guard.rel.clone(), cols, value: value_var, func: *func, result: result.clone() })
}

/// A copy of `r` for dialects that want plain variables in atoms and distinct head variables:
/// constants in atoms become fresh variables bound by `V = c`, a repeated head variable
/// becomes a fresh variable equal to the first. The body comes back in evaluation order.
pub fn flatten(r: &Rule) -> Result<Rule, String> {
    let mut r = r.clone();
    let mut n = 0;
    let mut extra = Vec::new();
    for l in r.body.iter_mut() {
        if let Literal::Pos(a) | Literal::Neg(a) = l {
            for t in a.args.iter_mut() {
                if matches!(t, Term::Const(_) | Term::Bin(..)) {
                    n += 1;
                    let v = format!("K{n}");
                    let old = std::mem::replace(t, Term::Var(v.clone()));
                    extra.push(Literal::Cmp(CmpOp::Eq, Term::Var(v), old));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    for t in r.head.args.iter_mut() {
        if let Term::Var(v) = t {
            if !seen.insert(v.clone()) {
                n += 1;
                let fresh = format!("K{n}");
                extra.push(Literal::Cmp(CmpOp::Eq, Term::Var(fresh.clone()), Term::Var(v.clone())));
                *v = fresh;
            }
        }
    }
    r.body.extend(extra);
    let order = crate::analysis::plan(&r)?;
    r.body = order.into_iter().map(|i| r.body[i].clone()).collect();
    Ok(r)
}

/// A relation's name in every printed dialect: the prefix keeps it clear of keywords and of
/// Prolog's variables (a name that starts with a capital).
pub fn rel(n: &str) -> String {
    format!("r_{n}")
}

/// Appends the clauses one a line, reversed under the `reverse` option (clause order must
/// not change an answer).
pub fn push_clauses(s: &mut String, mut clauses: Vec<String>, option: Option<&str>) {
    if option == Some("reverse") {
        clauses.reverse();
    }
    for c in clauses {
        s.push_str(&c);
        s.push('\n');
    }
}

/// A literal of a flattened body as a printer that binds left to right sees it ([`bound_body`]).
pub enum Goal<'a> {
    Atom(&'a Atom),
    Neg(&'a Atom),
    /// `X = t` where `X` is not bound yet: an assignment to `X`.
    Assign(&'a str, &'a Term),
    /// A comparison of bound values.
    Test(CmpOp, &'a Term, &'a Term),
}

/// A rule without aggregates, [`flatten`]ed: its head, and its body in evaluation order, each
/// goal spelled by `spell`, joined by `, `. An `=` that binds a variable is told apart from a
/// test: Cozo and Prolog spell the two differently.
pub fn bound_body(r: &Rule, dialect: &str, spell: impl Fn(Goal) -> String) -> Result<(Atom, String), String> {
    let r = flatten(r)?;
    let mut bound: BTreeSet<&str> = BTreeSet::new();
    let mut body = Vec::new();
    for l in &r.body {
        let goal = match l {
            Literal::Pos(a) => {
                let mut vs = Vec::new();
                l.vars(&mut vs);
                bound.extend(vs);
                Goal::Atom(a)
            }
            Literal::Neg(a) => Goal::Neg(a),
            Literal::Cmp(CmpOp::Eq, Term::Var(x), y) if !bound.contains(x.as_str()) => {
                bound.insert(x);
                Goal::Assign(x, y)
            }
            Literal::Cmp(CmpOp::Eq, x, Term::Var(y)) if !bound.contains(y.as_str()) => {
                bound.insert(y);
                Goal::Assign(y, x)
            }
            Literal::Cmp(op, x, y) => Goal::Test(*op, x, y),
            Literal::Agg { .. } => return Err(format!("{dialect}: aggregate in a body")),
        };
        body.push(spell(goal));
    }
    Ok((r.head.clone(), body.join(", ")))
}

/// Converts a model value into a core value.
pub fn value(v: &Val) -> Value {
    match v {
        Val::Num(n) => Value::Int(*n),
        Val::Sym(s) => Value::Text(s.clone()),
    }
}

/// Column names of an output relation.
pub fn columns(p: &Program, rel: &str) -> Vec<String> {
    (0..p.cols(rel).len()).map(|i| format!("c{i}")).collect()
}

/// The option named on a first-line comment `<prefix> crosscheck-option: X`.
pub fn option_line<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let first = text.lines().next()?;
    first.strip_prefix(prefix)?.trim().strip_prefix("crosscheck-option:").map(str::trim)
}

/// The punctuation of a Prolog-like rule syntax (`r_p(X, 1), not r_q(X)`): the dialects that
/// write one differ only in these, so their terms, atoms, facts and plain rules are printed
/// once here.
pub struct Spelling {
    /// The dialect, for its refusals.
    pub name: &'static str,
    /// What a variable's name is prefixed with.
    pub var: &'static str,
    /// The symbol quote; it and the backslash are escaped by a backslash inside.
    pub quote: char,
    /// Whether a negative number is parenthesised (Prolog reads `X*-5` as one operator `*-`).
    pub paren_negative: bool,
    /// What stands either side of an arithmetic or comparison operator.
    pub op_space: &'static str,
    /// What separates the arguments of an atom.
    pub arg_sep: &'static str,
    /// What ends a clause.
    pub end: &'static str,
}

impl Spelling {
    pub fn term(&self, t: &Term) -> String {
        let q = self.quote;
        match t {
            Term::Var(v) => format!("{}{v}", self.var),
            Term::Const(Val::Num(n)) if *n < 0 && self.paren_negative => format!("({n})"),
            Term::Const(Val::Num(n)) => n.to_string(),
            Term::Const(Val::Sym(s)) => format!("{q}{}{q}", s.replace('\\', "\\\\").replace(q, &format!("\\{q}"))),
            Term::Wild => "_".into(),
            Term::Bin(op, a, b) => {
                format!("({}{sp}{}{sp}{})", self.term(a), op.symbol(), self.term(b), sp = self.op_space)
            }
        }
    }

    pub fn atom(&self, a: &Atom) -> String {
        let args: Vec<String> = a.args.iter().map(|t| self.term(t)).collect();
        format!("{}({})", rel(&a.rel), args.join(self.arg_sep))
    }

    pub fn fact(&self, f: &Fact) -> String {
        let args: Vec<String> = f.vals.iter().map(|v| self.term(&Term::Const(v.clone()))).collect();
        format!("{}({}){}", rel(&f.rel), args.join(self.arg_sep), self.end)
    }

    /// A rule without aggregates, flattened, its literals in evaluation order as they are,
    /// negated atoms prefixed with `not`.
    pub fn plain_rule(&self, r: &Rule, not: &str) -> Result<String, String> {
        let r = flatten(r)?;
        let body: Vec<String> = r
            .body
            .iter()
            .map(|l| match l {
                Literal::Pos(a) => self.atom(a),
                Literal::Neg(a) => format!("{not}{}", self.atom(a)),
                Literal::Cmp(op, x, y) => {
                    let o = if *op == CmpOp::Eq { "=" } else { op.symbol() };
                    format!("{}{sp}{o}{sp}{}", self.term(x), self.term(y), sp = self.op_space)
                }
                Literal::Agg { .. } => String::new(),
            })
            .collect();
        Ok(format!("{} :- {}{}", self.atom(&r.head), body.join(", "), self.end))
    }

    /// The facts, then the rules: the grouped aggregate form spelled by `agg`, other rules by
    /// `plain`; any other aggregate is refused.
    pub fn clauses(
        &self,
        p: &Program,
        agg: impl Fn(&Rule, &AggForm) -> String,
        plain: impl Fn(&Rule) -> Result<String, String>,
    ) -> Result<Vec<String>, String> {
        let mut lines: Vec<String> = p.facts.iter().map(|f| self.fact(f)).collect();
        for r in &p.rules {
            if let Some(a) = agg_form(r) {
                lines.push(agg(r, &a));
            } else if r.has_agg() {
                return Err(format!("{}: only the grouped aggregate form is supported", self.name));
            } else {
                lines.push(plain(r)?);
            }
        }
        Ok(lines)
    }
}
