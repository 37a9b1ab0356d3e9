//! Recursive SQL, shared by the SQL dialects of this leg (`sqlite`, `postgres`, `duckdb`): one
//! CTE per relation in `WITH RECURSIVE`, in stratification order; facts as `VALUES`, rules as
//! `SELECT`s joined by `UNION` (set semantics), negation as `NOT EXISTS`, aggregates as
//! `GROUP BY`. A [`SqlSpelling`] holds what differs: how constants, typed NULLs and aggregates
//! are spelled, how several recursive rules of one relation must be shaped, and the session
//! settings of its `config` options.
//!
//! What no dialect here takes is refused by every printer (and kept out of their programs by
//! the capability table in `dialects`): mutual recursion (SQLite: "circular reference"; PostgreSQL: "mutual recursion between WITH
//! items is not implemented"; DuckDB: a CTE cannot name a later one) and a rule that reads its
//! own relation twice (SQLite: "multiple references to recursive table"; PostgreSQL: "must not
//! appear more than once"; DuckDB accepts it and reads the last iteration's rows at both
//! places, so `c(X,Z) :- c(X,Y), c(Y,Z)` silently misses pairs).

use super::{agg_form, flatten, rel};
use crate::ast::{AggFn, Atom, CmpOp, Literal, Program, Rule, Term, Type, Val};
use std::collections::BTreeMap;
use std::fmt::Write;

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

/// What differs between the recursive-SQL dialects in how they print a program.
pub struct SqlSpelling {
    /// The dialect, for its refusals.
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

/// The SELECT of one rule as it is built: the enclosing query's alias for the recursive
/// atom (until that atom is met), what binds each variable, the FROM list, the conditions.
struct Query<'a> {
    outer: Option<(&'a str, &'a str)>,
    env: BTreeMap<String, String>,
    from: Vec<String>,
    conds: Vec<String>,
}

struct Printer<'a> {
    d: &'a SqlSpelling,
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
            return self.agg_select(r, &a);
        }
        if r.has_agg() {
            return Err(format!("{name}: only the grouped aggregate form is supported"));
        }
        let r = flatten(r)?;
        let mut q = Query { outer, env: BTreeMap::new(), from: Vec::new(), conds: Vec::new() };
        for l in &r.body {
            match l {
                Literal::Pos(a) => self.positive(a, &mut q)?,
                Literal::Neg(a) => {
                    let c = self.not_exists(a, &q.env)?;
                    q.conds.push(c);
                }
                Literal::Cmp(CmpOp::Eq, Term::Var(x), y) if !q.env.contains_key(x) => {
                    let e = self.expr(y, &q.env)?;
                    q.env.insert(x.clone(), e);
                }
                Literal::Cmp(CmpOp::Eq, x, Term::Var(y)) if !q.env.contains_key(y) => {
                    let e = self.expr(x, &q.env)?;
                    q.env.insert(y.clone(), e);
                }
                Literal::Cmp(op, x, y) => {
                    let o = if *op == CmpOp::Ne { "<>" } else { op.symbol() };
                    let c = format!("{} {o} {}", self.expr(x, &q.env)?, self.expr(y, &q.env)?);
                    q.conds.push(c);
                }
                Literal::Agg { .. } => return Err(format!("{name}: aggregate in a body")),
            }
        }
        if q.outer.is_some() {
            return Err(format!("{name}: a recursive rule without its recursive atom"));
        }
        let cols: Result<Vec<String>, String> = r.head.args.iter().map(|t| self.expr(t, &q.env)).collect();
        let mut s = format!("SELECT {}", cols?.join(", "));
        if !q.from.is_empty() {
            let _ = write!(s, " FROM {}", q.from.join(", "));
        }
        if !q.conds.is_empty() {
            let _ = write!(s, " WHERE {}", q.conds.join(" AND "));
        }
        Ok(s)
    }

    /// The grouped aggregate form as `SELECT .. GROUP BY`.
    fn agg_select(&self, r: &Rule, a: &super::AggForm) -> Result<String, String> {
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
        Ok(format!("SELECT {} FROM {}{by} HAVING COUNT(*) > 0", cols?.join(", "), rel(&a.src)))
    }

    /// A positive atom: a table of the FROM list (or the enclosing query's alias), binding its
    /// variables at their first occurrence and comparing the later ones.
    fn positive(&mut self, a: &Atom, q: &mut Query) -> Result<(), String> {
        let t = match q.outer {
            Some((o, alias)) if o == a.rel => {
                q.outer = None;
                alias.to_string()
            }
            _ => {
                self.n_alias += 1;
                let t = format!("t{}", self.n_alias);
                q.from.push(format!("{} AS {t}", rel(&a.rel)));
                t
            }
        };
        for (i, arg) in a.args.iter().enumerate() {
            let col = format!("{t}.c{i}");
            match arg {
                Term::Var(v) => match q.env.get(v) {
                    Some(prev) => q.conds.push(format!("{col} = {prev}")),
                    None => {
                        q.env.insert(v.clone(), col);
                    }
                },
                Term::Wild => {}
                other => q.conds.push(format!("{col} = {}", self.expr(other, &q.env)?)),
            }
        }
        Ok(())
    }

    /// A negated atom as `NOT EXISTS`.
    fn not_exists(&mut self, a: &Atom, env: &BTreeMap<String, String>) -> Result<String, String> {
        self.n_alias += 1;
        let t = format!("t{}", self.n_alias);
        let mut sub = Vec::new();
        for (i, arg) in a.args.iter().enumerate() {
            if !matches!(arg, Term::Wild) {
                sub.push(format!("{t}.c{i} = {}", self.expr(arg, env)?));
            }
        }
        let w = if sub.is_empty() { String::new() } else { format!(" WHERE {}", sub.join(" AND ")) };
        Ok(format!("NOT EXISTS (SELECT 1 FROM {} AS {t}{w})", rel(&a.rel)))
    }

    /// A `SELECT` that gives no row, with the column types of `types`.
    fn empty(&self, types: &[Type]) -> String {
        let nulls: Vec<String> = types.iter().map(|t| (self.d.null)(*t)).collect();
        format!("SELECT {} WHERE {}", nulls.join(", "), self.d.false_)
    }
}

/// Prints `p` in dialect `d` with `out` as the output relation and an optional `config` option.
pub fn print(d: &SqlSpelling, p: &Program, out: &str, option: Option<&str>) -> Result<String, String> {
    let mut pr = Printer { d, n_alias: 0 };
    let mut ctes = Vec::new();
    for comp in crate::analysis::strata(p)? {
        if comp.len() > 1 {
            return Err(format!("{}: mutual recursion", d.name));
        }
        if let Some(cte) = pr.cte(p, &comp[0], option)? {
            ctes.push(cte);
        }
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

impl Printer<'_> {
    /// The CTE of relation `name` (none for an undeclared one).
    fn cte(&mut self, p: &Program, name: &String, option: Option<&str>) -> Result<Option<String>, String> {
        let Some(decl) = p.decl(name) else { return Ok(None) };
        let cols: Vec<String> = (0..decl.cols.len()).map(|i| format!("c{i}")).collect();
        let mut parts = Vec::new();
        let facts: Vec<String> = p
            .facts_of(name)
            .map(|f| format!("({})", f.vals.iter().map(|v| self.lit(v)).collect::<Vec<_>>().join(", ")))
            .collect();
        if !facts.is_empty() {
            parts.push(format!("VALUES {}", facts.join(", ")));
        }
        let (mut base, mut rec) = self.split_rules(p, name)?;
        if option == Some("reverse") {
            base.reverse();
            rec.reverse();
        }
        // A recursive CTE must start with a non-recursive SELECT ("circular reference"
        // otherwise); a relation with only recursive rules and no facts is empty, and so is
        // this start (a differential campaign found it).
        if parts.is_empty() && base.is_empty() && !rec.is_empty() {
            parts.push(self.empty(&decl.cols));
        }
        for r in base {
            parts.push(self.select(r, None)?);
        }
        self.recursive(name, &cols, &rec, &mut parts)?;
        if parts.is_empty() {
            parts.push(self.empty(&decl.cols));
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
        Ok(Some(format!("{}({}) AS {mat}(\n  {}\n)", rel(name), cols.join(", "), parts.join("\n  UNION\n  "))))
    }

    /// The rules of `name`, non-recursive and linearly recursive; the non-recursive SELECTs
    /// come first, as every dialect wants them before the recursive ones.
    fn split_rules<'p>(&self, p: &'p Program, name: &String) -> Result<(Vec<&'p Rule>, Vec<&'p Rule>), String> {
        let (mut base, mut rec): (Vec<&Rule>, Vec<&Rule>) = (Vec::new(), Vec::new());
        for r in p.rules.iter().filter(|r| r.head.rel == *name) {
            match r.deps().iter().filter(|(d, _)| d == name).count() {
                0 => base.push(r),
                1 => rec.push(r),
                _ => return Err(format!("{}: a rule reads {name} twice (non-linear recursion)", self.d.name)),
            }
        }
        Ok((base, rec))
    }

    /// The recursive SELECTs of `name`, shaped as the dialect takes several of them.
    fn recursive(&mut self, name: &str, cols: &[String], rec: &[&Rule], parts: &mut Vec<String>) -> Result<(), String> {
        match (self.d.multi_rec, rec.len()) {
            (_, 0) => {}
            (MultiRec::Compound, _) | (_, 1) => {
                for r in rec {
                    parts.push(self.select(r, None)?);
                }
            }
            (MultiRec::Derived, _) => {
                let arms: Result<Vec<String>, String> = rec.iter().map(|r| self.select(r, None)).collect();
                self.n_alias += 1;
                let u = format!("u{}", self.n_alias);
                let c = cols.join(", ");
                parts.push(format!("SELECT {c} FROM (\n    {}\n  ) AS {u}({c})", arms?.join("\n    UNION\n    ")));
            }
            (MultiRec::Lateral, _) => {
                self.n_alias += 1;
                let (s, u) = (format!("t{}", self.n_alias), format!("u{}", self.n_alias));
                let arms: Result<Vec<String>, String> = rec.iter().map(|r| self.select(r, Some((name, &s)))).collect();
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
        Ok(())
    }
}

/// An aggregate whose `SUM` comes back wider than 64 bits (PostgreSQL's `numeric`, DuckDB's
/// `HUGEINT`) and is cast back to `BIGINT`.
pub fn bigint_agg(f: AggFn, c: &str) -> String {
    match f {
        AggFn::Sum => format!("CAST(SUM({c}) AS BIGINT)"),
        other => format!("{}({c})", other.name().to_uppercase()),
    }
}
