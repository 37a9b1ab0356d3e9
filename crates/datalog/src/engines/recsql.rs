//! Recursive SQL, shared by the SQL dialects of this leg (`sqlite`, `postgres`, `duckdb`): one
//! CTE per relation in `WITH RECURSIVE`, in stratification order; facts as `VALUES`, rules as
//! `SELECT`s joined by `UNION` (set semantics), negation as `NOT EXISTS`, aggregates as
//! `GROUP BY`. A [`Dialect`] holds what differs: how constants, typed NULLs and aggregates are
//! spelled, how several recursive rules of one relation must be shaped, and the session
//! settings of its `config` options.
//!
//! What no dialect here takes is refused by every printer (and kept out by the engines' CAPS):
//! mutual recursion (SQLite: "circular reference"; PostgreSQL: "mutual recursion between WITH
//! items is not implemented"; DuckDB: a CTE cannot name a later one) and a rule that reads its
//! own relation twice (SQLite: "multiple references to recursive table"; PostgreSQL: "must not
//! appear more than once"; DuckDB accepts it and reads the last iteration's rows at both
//! places, so `c(X,Z) :- c(X,Y), c(Y,Z)` silently misses pairs).

use super::{agg_form, flatten};
use crate::ast::{AggFn, CmpOp, Literal, Program, Rule, Term, Type, Val};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, ErrorClass, Outcome, SetupError};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// How a relation with several recursive rules is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiRec {
    /// One recursive `SELECT` per rule in the compound (SQLite 3.34+).
    Compound,
    /// One recursive `SELECT` that reads the relation once and joins it `LATERAL` to the union
    /// of the rules' other parts (PostgreSQL: the recursive term is everything after the first
    /// recursive `UNION` arm, and the relation may appear there once, not in a subquery).
    Lateral,
    /// One recursive `SELECT` over a derived table holding the union of the rules (DuckDB
    /// takes the self-references inside it, but not two recursive arms of the compound).
    Derived,
}

/// Statements a `config` option runs before the query, and the ones that undo them.
pub struct Session {
    pub setup: &'static str,
    pub undo: &'static str,
}

/// What differs between the recursive-SQL dialects.
pub struct Dialect {
    pub name: &'static str,
    pub num: fn(i64) -> String,
    pub sym: fn(&str) -> String,
    /// A NULL of a column type, for the empty start of a relation without facts or base rules.
    pub null: fn(Type) -> String,
    /// A false condition.
    pub false_: &'static str,
    /// An aggregate of one column, as a 64-bit integer.
    pub agg: fn(AggFn, &str) -> String,
    pub multi_rec: MultiRec,
    /// The session settings of an option (none for options the printer spells itself).
    pub session: fn(&str) -> Option<Session>,
    /// Whether an option is named on a first-line comment (an adapter that must undo a
    /// session setting reads it there).
    pub tag_options: bool,
}

pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn rel(n: &str) -> String {
    format!("r_{n}")
}

struct Printer<'a> {
    d: &'a Dialect,
    n_alias: usize,
}

impl Printer<'_> {
    fn lit(&self, v: &Val) -> String {
        match v {
            Val::Num(n) => (self.d.num)(*n),
            Val::Sym(s) => (self.d.sym)(s),
        }
    }

    /// A term as SQL, with variables replaced by the column (or expression) that binds them.
    fn expr(&self, t: &Term, env: &BTreeMap<String, String>) -> Result<String, String> {
        Ok(match t {
            Term::Var(v) => env.get(v).cloned().ok_or_else(|| format!("{}: unbound variable {v}", self.d.name))?,
            Term::Const(c) => self.lit(c),
            Term::Wild => return Err(format!("{}: wildcard in an expression", self.d.name)),
            Term::Bin(op, a, b) => format!("({} {} {})", self.expr(a, env)?, op.symbol(), self.expr(b, env)?),
        })
    }

    /// A rule as a `SELECT`. With `outer = (relation, alias)`, the rule's one atom of that
    /// relation reads the alias of an enclosing query instead of a table of its own.
    fn select(&mut self, r: &Rule, outer: Option<(&str, &str)>) -> Result<String, String> {
        let name = self.d.name;
        if let Some(a) = agg_form(r) {
            let group: Vec<String> =
                a.cols.iter().enumerate().filter(|(_, c)| c.is_some()).map(|(i, _)| format!("c{i}")).collect();
            let k = a.cols.iter().position(Option::is_none).unwrap_or(0);
            let mut env = BTreeMap::new();
            for (i, c) in a.cols.iter().enumerate() {
                if let Some(v) = c {
                    env.insert(v.clone(), format!("c{i}"));
                }
            }
            env.insert(a.result.clone(), (self.d.agg)(a.func, &format!("c{k}")));
            let cols: Result<Vec<String>, String> = r.head.args.iter().map(|t| self.expr(t, &env)).collect();
            let by = if group.is_empty() { String::new() } else { format!(" GROUP BY {}", group.join(", ")) };
            return Ok(format!("SELECT {} FROM {}{by} HAVING COUNT(*) > 0", cols?.join(", "), rel(&a.src)));
        }
        if r.has_agg() {
            return Err(format!("{name}: only the grouped aggregate form is supported"));
        }
        let r = flatten(r)?;
        let mut outer = outer;
        let mut env: BTreeMap<String, String> = BTreeMap::new();
        let mut from = Vec::new();
        let mut conds = Vec::new();
        for l in &r.body {
            match l {
                Literal::Pos(a) => {
                    let t = match outer {
                        Some((o, alias)) if o == a.rel => {
                            outer = None;
                            alias.to_string()
                        }
                        _ => {
                            self.n_alias += 1;
                            let t = format!("t{}", self.n_alias);
                            from.push(format!("{} AS {t}", rel(&a.rel)));
                            t
                        }
                    };
                    for (i, arg) in a.args.iter().enumerate() {
                        let col = format!("{t}.c{i}");
                        match arg {
                            Term::Var(v) => match env.get(v) {
                                Some(prev) => conds.push(format!("{col} = {prev}")),
                                None => {
                                    env.insert(v.clone(), col);
                                }
                            },
                            Term::Wild => {}
                            other => conds.push(format!("{col} = {}", self.expr(other, &env)?)),
                        }
                    }
                }
                Literal::Neg(a) => {
                    self.n_alias += 1;
                    let t = format!("t{}", self.n_alias);
                    let mut sub = Vec::new();
                    for (i, arg) in a.args.iter().enumerate() {
                        if !matches!(arg, Term::Wild) {
                            sub.push(format!("{t}.c{i} = {}", self.expr(arg, &env)?));
                        }
                    }
                    let w = if sub.is_empty() { String::new() } else { format!(" WHERE {}", sub.join(" AND ")) };
                    conds.push(format!("NOT EXISTS (SELECT 1 FROM {} AS {t}{w})", rel(&a.rel)));
                }
                Literal::Cmp(CmpOp::Eq, Term::Var(x), y) if !env.contains_key(x) => {
                    let e = self.expr(y, &env)?;
                    env.insert(x.clone(), e);
                }
                Literal::Cmp(CmpOp::Eq, x, Term::Var(y)) if !env.contains_key(y) => {
                    let e = self.expr(x, &env)?;
                    env.insert(y.clone(), e);
                }
                Literal::Cmp(op, x, y) => {
                    let o = if *op == CmpOp::Ne { "<>" } else { op.symbol() };
                    conds.push(format!("{} {o} {}", self.expr(x, &env)?, self.expr(y, &env)?));
                }
                Literal::Agg { .. } => return Err(format!("{name}: aggregate in a body")),
            }
        }
        if outer.is_some() {
            return Err(format!("{name}: a recursive rule without its recursive atom"));
        }
        let cols: Result<Vec<String>, String> = r.head.args.iter().map(|t| self.expr(t, &env)).collect();
        let mut s = format!("SELECT {}", cols?.join(", "));
        if !from.is_empty() {
            let _ = write!(s, " FROM {}", from.join(", "));
        }
        if !conds.is_empty() {
            let _ = write!(s, " WHERE {}", conds.join(" AND "));
        }
        Ok(s)
    }

    /// A `SELECT` that gives no row, with the column types of `types`.
    fn empty(&self, types: &[Type]) -> String {
        let nulls: Vec<String> = types.iter().map(|t| (self.d.null)(*t)).collect();
        format!("SELECT {} WHERE {}", nulls.join(", "), self.d.false_)
    }
}

/// Prints `p` in dialect `d` with `out` as the output relation and an optional `config` option.
pub fn print(d: &Dialect, p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut pr = Printer { d, n_alias: 0 };
    let mut ctes = Vec::new();
    for comp in crate::analysis::strata(p)? {
        if comp.len() > 1 {
            return Err(format!("{}: mutual recursion", d.name));
        }
        let name = &comp[0];
        let Some(decl) = p.decl(name) else { continue };
        let cols: Vec<String> = (0..decl.cols.len()).map(|i| format!("c{i}")).collect();
        let mut parts = Vec::new();
        let facts: Vec<String> = p
            .facts_of(name)
            .map(|f| format!("({})", f.vals.iter().map(|v| pr.lit(v)).collect::<Vec<_>>().join(", ")))
            .collect();
        if !facts.is_empty() {
            parts.push(format!("VALUES {}", facts.join(", ")));
        }
        // The non-recursive SELECTs come first: every dialect wants them before the recursive
        // ones.
        let (mut base, mut rec): (Vec<&Rule>, Vec<&Rule>) = (Vec::new(), Vec::new());
        for r in p.rules.iter().filter(|r| r.head.rel == *name) {
            match r.deps().iter().filter(|(d, _)| d == name).count() {
                0 => base.push(r),
                1 => rec.push(r),
                _ => return Err(format!("{}: a rule reads {name} twice (non-linear recursion)", d.name)),
            }
        }
        if option == Some("reverse") {
            base.reverse();
            rec.reverse();
        }
        // A recursive CTE must start with a non-recursive SELECT ("circular reference"
        // otherwise); a relation with only recursive rules and no facts is empty, and so is
        // this start (a differential campaign found it).
        if parts.is_empty() && base.is_empty() && !rec.is_empty() {
            parts.push(pr.empty(&decl.cols));
        }
        for r in base {
            parts.push(pr.select(r, None)?);
        }
        match (d.multi_rec, rec.len()) {
            (_, 0) => {}
            (MultiRec::Compound, _) | (_, 1) => {
                for r in rec {
                    parts.push(pr.select(r, None)?);
                }
            }
            (MultiRec::Derived, _) => {
                let arms: Result<Vec<String>, String> = rec.iter().map(|r| pr.select(r, None)).collect();
                pr.n_alias += 1;
                let u = format!("u{}", pr.n_alias);
                let c = cols.join(", ");
                parts.push(format!("SELECT {c} FROM (\n    {}\n  ) AS {u}({c})", arms?.join("\n    UNION\n    ")));
            }
            (MultiRec::Lateral, _) => {
                pr.n_alias += 1;
                let (s, u) = (format!("t{}", pr.n_alias), format!("u{}", pr.n_alias));
                let arms: Result<Vec<String>, String> = rec.iter().map(|r| pr.select(r, Some((name, &s)))).collect();
                let c = cols.join(", ");
                let picked: Vec<String> = cols.iter().map(|c| format!("{u}.{c}")).collect();
                parts.push(format!(
                    "SELECT {} FROM {} AS {s}, LATERAL (\n    {}\n  ) AS {u}({c})",
                    picked.join(", "),
                    rel(name),
                    arms?.join("\n    UNION\n    ")
                ));
            }
        }
        if parts.is_empty() {
            parts.push(pr.empty(&decl.cols));
        }
        // Without a UNION nothing removes duplicates: a rule that projects a column away, or a
        // fact written twice, would make a bag, and an aggregate over it count a tuple twice
        // (the SQLite printer did; the suite's "aggregate over a projection" program).
        if let [only] = parts.as_mut_slice() {
            if let Some(rest) = only.strip_prefix("SELECT ") {
                *only = format!("SELECT DISTINCT {rest}");
            } else if facts.len() > 1 {
                *only = format!("SELECT DISTINCT * FROM ({only}) AS v");
            }
        }
        let recursive = p.rules.iter().any(|r| r.head.rel == *name && r.deps().iter().any(|(d, _)| d == name));
        let mat = if option == Some("materialized") && !recursive { "MATERIALIZED " } else { "" };
        ctes.push(format!("{}({}) AS {mat}(\n  {}\n)", rel(name), cols.join(", "), parts.join("\n  UNION\n  ")));
    }
    let mut s = String::new();
    if let Some(o) = option {
        if d.tag_options {
            let _ = writeln!(s, "-- crosscheck-option: {o}");
        }
        if let Some(session) = (d.session)(o) {
            s.push_str(session.setup);
        }
    }
    let n = p.cols(out).len();
    let cols: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    // `order-desc`: the answer through the engine's sorter, descending; a set must not change.
    let order = if option == Some("order-desc") && n > 0 {
        format!(" ORDER BY {}", (1..=n).map(|i| format!("{i} DESC")).collect::<Vec<_>>().join(", "))
    } else {
        String::new()
    };
    let _ = write!(s, "WITH RECURSIVE\n{}\nSELECT {} FROM {}{order};\n", ctes.join(",\n"), cols.join(", "), rel(out));
    Ok(s)
}

/// What every recursive-SQL dialect here supports: linear self-recursion only (none of the
/// three takes mutual or non-linear recursion, see each engine's file).
pub const CAPS: &[&str] = &["negation", "aggregates", "arithmetic", "comparisons", "symbols", "negative", "recursion"];

/// An aggregate whose `SUM` comes back wider than 64 bits (PostgreSQL's `numeric`, DuckDB's
/// `HUGEINT`) and is cast back to `BIGINT`.
pub fn bigint_agg(f: AggFn, c: &str) -> String {
    match f {
        AggFn::Sum => format!("CAST(SUM({c}) AS BIGINT)"),
        other => format!("{}({c})", other.name().to_uppercase()),
    }
}

/// The factory of a [`SqlLeg`] engine: the SQL leg's factory `sql` opens the engine from the
/// same spec, so locations and labels mean what they mean there.
pub struct SqlLegFactory {
    pub sql: &'static dyn EngineFactory,
    pub dialect: &'static Dialect,
    pub describe: &'static str,
    /// Error texts that are a documented refusal (64-bit overflow, as the reference evaluator
    /// has it), not a wrong answer.
    pub expected: &'static [&'static str],
}

impl EngineFactory for SqlLegFactory {
    fn name(&self) -> &'static str {
        self.dialect.name
    }
    fn describe(&self) -> &'static str {
        self.describe
    }
    fn availability(&self) -> Availability {
        self.sql.availability()
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let inner = self.sql.open(spec)?;
        let info = info_for(spec, inner.info().version.clone(), self.dialect.name, CAPS);
        Ok(Box::new(SqlLeg { info, inner, dialect: self.dialect, expected: self.expected }))
    }
}

/// A Datalog engine that runs recursive SQL on an engine of the SQL leg (its private server
/// or bridge, opened by the SQL leg's factory with the same spec).
pub struct SqlLeg {
    info: EngineInfo,
    inner: Box<dyn Engine>,
    dialect: &'static Dialect,
    expected: &'static [&'static str],
}

impl Engine for SqlLeg {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let name = self.dialect.name;
        let out = self.inner.run(text, limit);
        // Session settings outlive the statement: the next program must run without them.
        if let Some(s) = super::option_line(text, "--").and_then(self.dialect.session) {
            if !matches!(self.inner.run(s.undo, limit), Outcome::Done | Outcome::Rows(_)) {
                if let Err(e) = self.inner.reset() {
                    return Outcome::Crash { signal: None, code: None, stderr_tail: format!("{name}: {}", e.message) };
                }
            }
        }
        match out {
            Outcome::Error { message, .. } if self.expected.iter().any(|x| message.contains(x)) => {
                Outcome::Error { message: format!("{name}: {message}"), class: ErrorClass::Expected }
            }
            Outcome::Error { message, class } => Outcome::Error { message: format!("{name}: {message}"), class },
            Outcome::Done => Outcome::error(format!("{name}: the program gave no result set")),
            other => other,
        }
    }
}
