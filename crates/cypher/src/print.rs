//! The printer: queries (one Cypher text, the generator having kept to what every dialect of
//! the run has, save for how a dialect writes a construct: `query_in`) and each dialect's graph
//! script.

use crate::dialect::Dialect;
use crate::model::{Agg, Clause, CmpOp, Dir, Expr, Func, Graph, Item, Lit, NodePat, Pattern, Query, RelPat, StrOp};
use std::fmt::Write;

pub fn lit(l: &Lit) -> String {
    match l {
        Lit::Int(i) => i.to_string(),
        Lit::Str(s) => format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")),
        Lit::Bool(b) => b.to_string(),
    }
}

/// The operand of IS [NOT] NULL, a negative number in parentheses: FalkorDB 4.16.3 parses
/// `-1 IS NULL` as `-(1 IS NULL)` and refuses it ("Type mismatch", or "Expected boolean
/// predicate" in a WHERE). Its bug, in its dialect notes; unmasked, it was 145 of the 254
/// findings of a 5-minute FalkorDB campaign, and the parentheses change no other engine's reading.
fn null_test_operand(a: &Expr) -> String {
    match a {
        Expr::Lit(Lit::Int(i)) if *i < 0 => format!("({i})"),
        _ => expr(a),
    }
}

fn props(p: &[(String, Lit)]) -> String {
    if p.is_empty() {
        return String::new();
    }
    let kv: Vec<String> = p.iter().map(|(k, v)| format!("{k}: {}", lit(v))).collect();
    format!(" {{{}}}", kv.join(", "))
}

/// The graph as statements separated by `;` and a newline (the engines' script protocol):
/// the dialect's schema, one CREATE per node, one MATCH ... CREATE per relationship, then the
/// property indexes the dialect can create.
pub fn graph_script(g: &Graph, d: &dyn Dialect) -> String {
    let mut out = d.ddl(&g.schema);
    for n in &g.nodes {
        let labels: String = n.labels.iter().map(|l| format!(":L{l}")).collect();
        let mut p = vec![("id".to_string(), Lit::Int(n.id))];
        p.extend(n.props.iter().cloned());
        out.push(format!("CREATE (n{labels}{})", props(&p)));
    }
    for r in &g.rels {
        let (Some(a), Some(b)) = (g.node(r.from), g.node(r.to)) else { continue };
        // Schema-first engines need the endpoints' tables to pick the relationship table.
        let la = a.labels.first().map(|l| format!(":L{l}")).unwrap_or_default();
        let lb = b.labels.first().map(|l| format!(":L{l}")).unwrap_or_default();
        let mut p = vec![("id".to_string(), Lit::Int(r.id))];
        p.extend(r.props.iter().cloned());
        out.push(format!(
            "MATCH (a{la} {{id: {}}}), (b{lb} {{id: {}}}) CREATE (a)-[:T{}{}]->(b)",
            a.id,
            b.id,
            r.ty,
            props(&p)
        ));
    }
    out.extend(g.indexes.iter().filter_map(|i| d.index(i)));
    out.join(";\n")
}

pub fn cmp_op(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ne => "<>",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

pub fn str_op(op: StrOp) -> &'static str {
    match op {
        StrOp::StartsWith => "STARTS WITH",
        StrOp::EndsWith => "ENDS WITH",
        StrOp::Contains => "CONTAINS",
    }
}

pub fn func(f: Func) -> &'static str {
    match f {
        Func::ToUpper => "toUpper",
        Func::ToLower => "toLower",
        Func::Size => "size",
        Func::Abs => "abs",
    }
}

pub fn agg(a: Agg) -> &'static str {
    match a {
        Agg::CountStar | Agg::Count => "count",
        Agg::Min => "min",
        Agg::Max => "max",
        Agg::Sum => "sum",
        Agg::Avg => "avg",
    }
}

/// An expression, fully parenthesized (precedence differs in no engine then).
pub fn expr(e: &Expr) -> String {
    let bin = |a: &Expr, op: &str, b: &Expr| format!("({} {op} {})", expr(a), expr(b));
    match e {
        Expr::Lit(l) => lit(l),
        Expr::Var(v) => v.clone(),
        Expr::Prop(v, k) => format!("{v}.{k}"),
        Expr::Not(a) => format!("(NOT {})", expr(a)),
        Expr::And(a, b) => bin(a, "AND", b),
        Expr::Or(a, b) => bin(a, "OR", b),
        Expr::Cmp(op, a, b) => bin(a, cmp_op(*op), b),
        Expr::Str(op, a, b) => bin(a, str_op(*op), b),
        Expr::IsNull(a, false) => format!("({} IS NULL)", null_test_operand(a)),
        Expr::IsNull(a, true) => format!("({} IS NOT NULL)", null_test_operand(a)),
        Expr::Add(a, b) | Expr::Concat(a, b) => bin(a, "+", b),
        Expr::Sub(a, b) => bin(a, "-", b),
        Expr::Call(f, a) => format!("{}({})", func(*f), expr(a)),
        Expr::Agg(Agg::CountStar, _) => "count(*)".into(),
        Expr::Agg(a, Some(x)) => format!("{}({})", agg(*a), expr(x)),
        Expr::Agg(a, None) => format!("{}(*)", agg(*a)),
    }
}

fn node(n: &NodePat) -> String {
    let label = n.label.map(|l| format!(":L{l}")).unwrap_or_default();
    format!("({}{label}{})", n.var, props(&n.props))
}

/// A relationship, its variable-length bounds written as `d` writes them (openCypher's when
/// `None`).
fn rel(r: &RelPat, d: Option<&dyn Dialect>) -> String {
    let ty = r.ty.map(|t| format!(":T{t}")).unwrap_or_default();
    let len = match (&r.len, d) {
        (Some(l), Some(d)) => d.var_length(l),
        (Some(l), None) => crate::dialect::open_cypher_bounds(l),
        (None, _) => String::new(),
    };
    let inner = format!("[{}{ty}{len}{}]", r.var, props(&r.props));
    match r.dir {
        Dir::Out => format!("-{inner}->"),
        Dir::In => format!("<-{inner}-"),
        Dir::Both => format!("-{inner}-"),
    }
}

pub fn pattern(p: &Pattern, d: Option<&dyn Dialect>) -> String {
    let mut s = node(&p.start);
    for (r, n) in &p.hops {
        s.push_str(&rel(r, d));
        s.push_str(&node(n));
    }
    s
}

fn items(items: &[Item]) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|i| match &i.expr {
            Expr::Var(v) if *v == i.alias => v.clone(),
            e => format!("{} AS {}", expr(e), i.alias),
        })
        .collect();
    parts.join(", ")
}

fn filter(f: Option<&Expr>) -> String {
    f.map(|e| format!(" WHERE {}", expr(e))).unwrap_or_default()
}

/// One clause, with `filter` as its WHERE.
fn clause(c: &Clause, f: Option<&Expr>, d: Option<&dyn Dialect>) -> String {
    match c {
        Clause::Match { optional, patterns, .. } => {
            let ps: Vec<String> = patterns.iter().map(|p| pattern(p, d)).collect();
            let opt = if *optional { "OPTIONAL " } else { "" };
            format!("{opt}MATCH {}{}", ps.join(", "), filter(f))
        }
        Clause::With { items: it, .. } if it.is_empty() => format!("WITH *{}", filter(f)),
        Clause::With { distinct, items: it, .. } => {
            format!("WITH {}{}{}", if *distinct { "DISTINCT " } else { "" }, items(it), filter(f))
        }
        Clause::Unwind { list, alias } => {
            let l: Vec<String> = list.iter().map(expr).collect();
            format!("UNWIND [{}] AS {alias}", l.join(", "))
        }
    }
}

pub fn own_filter(c: &Clause) -> Option<&Expr> {
    match c {
        Clause::Match { filter, .. } | Clause::With { filter, .. } => filter.as_ref(),
        Clause::Unwind { .. } => None,
    }
}

/// The query as dialect `d` writes it (openCypher when `None`); `replace` gives one clause (by
/// index) another WHERE (the partition oracle).
pub fn query_in(q: &Query, replace: Option<(usize, &Expr)>, d: Option<&dyn Dialect>) -> String {
    let mut s = String::new();
    for (i, c) in q.clauses.iter().enumerate() {
        let f = match replace {
            Some((at, e)) if at == i => Some(e),
            _ => own_filter(c),
        };
        s.push_str(&clause(c, f, d));
        s.push(' ');
    }
    let r = &q.ret;
    let _ = write!(s, "RETURN {}{}", if r.distinct { "DISTINCT " } else { "" }, items(&r.items));
    if r.order {
        let keys: Vec<&str> = r.items.iter().map(|i| i.alias.as_str()).collect();
        let _ = write!(s, " ORDER BY {}", keys.join(", "));
        if let Some(n) = r.limit {
            let _ = write!(s, " LIMIT {n}");
        }
    }
    s
}

/// The query in openCypher.
pub fn query(q: &Query) -> String {
    query_in(q, None, None)
}
