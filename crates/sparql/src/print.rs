//! The printer: the graph as one `INSERT DATA` update, queries as SPARQL 1.1 text. Terms are
//! written the same way everywhere: IRIs under the round's prefix as prefixed names, others in
//! full; literals with an explicit datatype (`"5"^^xsd:int`), so no store guesses a type from
//! a bare number's spelling.

use crate::model::{
    AggFunc, Aggregate, ArithOp, CmpOp, Expr, Func, Graph, Group, Lit, Node, PTerm, Path, PathPattern, Pattern, Query,
    Values, XsdCast, CONCAT_SEPARATOR, XSD,
};
use std::fmt::Write;

/// The prologue every text starts with: `xsd:` and the round's prefix.
pub fn prologue(g: &Graph) -> String {
    format!("PREFIX xsd: <{XSD}>\nPREFIX {}: <{}>\n", g.prefix.0, g.prefix.1)
}

/// The graph as one update (blank nodes as `_:bN`, which INSERT DATA allows).
pub fn insert_data(g: &Graph) -> String {
    let mut s = prologue(g);
    s.push_str("INSERT DATA {\n");
    for t in &g.triples {
        let _ = writeln!(s, "  {} {} {} .", node(g, &t.s), iri(g, &t.p), node(g, &t.o));
    }
    s.push('}');
    s
}

/// An IRI, as a prefixed name when its local part needs no escaping.
pub fn iri(g: &Graph, i: &str) -> String {
    if let Some(local) = i.strip_prefix(&g.prefix.1) {
        let mut chars = local.chars();
        if chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_alphanumeric()) {
            return format!("{}:{local}", g.prefix.0);
        }
    }
    format!("<{i}>")
}

pub fn literal(l: &Lit) -> String {
    let mut s = String::from("\"");
    for c in l.lexical.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c => s.push(c),
        }
    }
    s.push('"');
    match (&l.lang, l.xsd()) {
        (Some(tag), _) => {
            let _ = write!(s, "@{tag}");
        }
        (None, Some("string")) => {}
        (None, Some(local)) => {
            let _ = write!(s, "^^xsd:{local}");
        }
        (None, None) => {
            let _ = write!(s, "^^<{}>", l.datatype);
        }
    }
    s
}

fn node(g: &Graph, n: &Node) -> String {
    match n {
        Node::Iri(i) => iri(g, i),
        Node::Blank(b) => format!("_:b{b}"),
        Node::Lit(l) => literal(l),
    }
}

pub fn var(v: u32) -> String {
    format!("?v{v}")
}

fn pterm(g: &Graph, t: &PTerm) -> String {
    match t {
        PTerm::Var(v) => var(*v),
        PTerm::Iri(i) => iri(g, i),
        PTerm::Lit(l) => literal(l),
    }
}

fn bgp(g: &Graph, ps: &[Pattern], indent: &str, out: &mut String) {
    for p in ps {
        let _ = writeln!(out, "{indent}{} {} {} .", pterm(g, &p.s), pterm(g, &p.p), pterm(g, &p.o));
    }
}

/// A FILTER expression, fully parenthesized (precedence never decides a meaning).
pub fn expr(g: &Graph, e: &Expr) -> String {
    let bin = |a: &Expr, op: &str, b: &Expr| format!("({} {op} {})", expr(g, a), expr(g, b));
    match e {
        Expr::Var(v) => var(*v),
        Expr::Iri(i) => iri(g, i),
        Expr::Lit(l) => literal(l),
        Expr::Not(a) => format!("(!{})", expr(g, a)),
        Expr::Neg(a) => format!("(-{})", expr(g, a)),
        Expr::Plus(a) => format!("(+{})", expr(g, a)),
        Expr::And(a, b) => bin(a, "&&", b),
        Expr::Or(a, b) => bin(a, "||", b),
        Expr::Cmp(op, a, b) => bin(a, cmp_op(*op), b),
        Expr::Arith(op, a, b) => bin(a, arith_op(*op), b),
        Expr::Bound(v) => format!("BOUND({})", var(*v)),
        Expr::Call(f, args) => {
            let args: Vec<String> = args.iter().map(|a| expr(g, a)).collect();
            format!("{}({})", func(*f), args.join(", "))
        }
        Expr::Exists(negated, ps) => {
            let mut s = String::from(if *negated { "NOT EXISTS {\n" } else { "EXISTS {\n" });
            bgp(g, ps, "    ", &mut s);
            s.push_str("  }");
            s
        }
        Expr::Agg(a) => aggregate(g, a),
    }
}

pub fn aggregate(g: &Graph, a: &Aggregate) -> String {
    let distinct = if a.distinct { "DISTINCT " } else { "" };
    let arg = a.arg.as_ref().map_or_else(|| "*".to_string(), |e| expr(g, e));
    match a.func {
        AggFunc::GroupConcat => format!("GROUP_CONCAT({distinct}{arg}; SEPARATOR=\"{CONCAT_SEPARATOR}\")"),
        f => format!("{}({distinct}{arg})", agg_func(f)),
    }
}

pub fn agg_func(f: AggFunc) -> &'static str {
    match f {
        AggFunc::Count => "COUNT",
        AggFunc::Sum => "SUM",
        AggFunc::Min => "MIN",
        AggFunc::Max => "MAX",
        AggFunc::Avg => "AVG",
        AggFunc::GroupConcat => "GROUP_CONCAT",
    }
}

pub fn cmp_op(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

pub fn arith_op(op: ArithOp) -> &'static str {
    match op {
        ArithOp::Add => "+",
        ArithOp::Sub => "-",
        ArithOp::Mul => "*",
        ArithOp::Div => "/",
    }
}

pub fn func(f: Func) -> &'static str {
    match f {
        Func::Str => "STR",
        Func::Lang => "LANG",
        Func::Datatype => "DATATYPE",
        Func::IsIri => "isIRI",
        Func::IsLiteral => "isLITERAL",
        Func::IsBlank => "isBLANK",
        Func::IsNumeric => "isNUMERIC",
        Func::StrLen => "STRLEN",
        Func::UCase => "UCASE",
        Func::LCase => "LCASE",
        Func::Contains => "CONTAINS",
        Func::StrStarts => "STRSTARTS",
        Func::StrEnds => "STRENDS",
        Func::Regex => "REGEX",
        Func::SameTerm => "sameTerm",
        Func::Abs => "ABS",
        Func::Ceil => "CEIL",
        Func::Floor => "FLOOR",
        Func::Round => "ROUND",
        Func::Coalesce => "COALESCE",
        Func::If => "IF",
        Func::Cast(XsdCast::Integer) => "xsd:integer",
        Func::Cast(XsdCast::Decimal) => "xsd:decimal",
        Func::Cast(XsdCast::Double) => "xsd:double",
        Func::Cast(XsdCast::String) => "xsd:string",
        Func::Cast(XsdCast::Boolean) => "xsd:boolean",
    }
}

/// A path, fully parenthesized like expressions.
pub fn path(g: &Graph, p: &Path) -> String {
    match p {
        Path::Iri(i) => iri(g, i),
        Path::Inv(a) => format!("^({})", path(g, a)),
        Path::Seq(a, b) => format!("({}/{})", path(g, a), path(g, b)),
        Path::Alt(a, b) => format!("({}|{})", path(g, a), path(g, b)),
        Path::Star(a) => format!("({})*", path(g, a)),
        Path::Plus(a) => format!("({})+", path(g, a)),
        Path::Opt(a) => format!("({})?", path(g, a)),
        Path::Neg(set) => {
            let items: Vec<String> =
                set.iter().map(|(i, inv)| format!("{}{}", if *inv { "^" } else { "" }, iri(g, i))).collect();
            format!("!({})", items.join("|"))
        }
    }
}

fn paths(g: &Graph, ps: &[PathPattern], indent: &str, out: &mut String) {
    for p in ps {
        let _ = writeln!(out, "{indent}{} {} {} .", pterm(g, &p.s), path(g, &p.path), pterm(g, &p.o));
    }
}

fn values(g: &Graph, v: &Values, out: &mut String) {
    let vars: Vec<String> = v.vars.iter().map(|x| var(*x)).collect();
    let _ = writeln!(out, "  VALUES ({}) {{", vars.join(" "));
    for row in &v.rows {
        let cells: Vec<String> =
            row.iter().map(|c| c.as_ref().map_or_else(|| "UNDEF".into(), |t| pterm(g, t))).collect();
        let _ = writeln!(out, "    ({})", cells.join(" "));
    }
    out.push_str("  }\n");
}

/// The body of a group, in the order `Group` documents.
fn group(g: &Graph, grp: &Group, s: &mut String) {
    bgp(g, &grp.bgp, "  ", s);
    paths(g, &grp.paths, "  ", s);
    if let Some((a, b)) = &grp.union {
        s.push_str("  {\n");
        bgp(g, a, "    ", s);
        s.push_str("  } UNION {\n");
        bgp(g, b, "    ", s);
        s.push_str("  }\n");
    }
    if let Some(o) = &grp.optional {
        s.push_str("  OPTIONAL {\n");
        bgp(g, o, "    ", s);
        s.push_str("  }\n");
    }
    if let Some(v) = &grp.values {
        values(g, v, s);
    }
    for (e, v) in &grp.binds {
        let _ = writeln!(s, "  BIND({} AS {})", expr(g, e), var(*v));
    }
    if let Some(m) = &grp.minus {
        s.push_str("  MINUS {\n");
        bgp(g, m, "    ", s);
        s.push_str("  }\n");
    }
    for f in &grp.filters {
        let _ = writeln!(s, "  FILTER({})", expr(g, f));
    }
}

/// The query as SPARQL text; `option` becomes the first-line comment an adapter reads.
pub fn query(g: &Graph, q: &Query, option: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(o) = option {
        let _ = writeln!(s, "# crosscheck-option: {o}");
    }
    s.push_str(&prologue(g));
    let vars: Vec<String> = q
        .project
        .iter()
        .map(|v| q.aggregate(*v).map_or_else(|| var(*v), |a| format!("({} AS {})", aggregate(g, a), var(*v))))
        .collect();
    let _ = writeln!(s, "SELECT {}{} WHERE {{", if q.distinct { "DISTINCT " } else { "" }, vars.join(" "));
    group(g, &q.group, &mut s);
    s.push('}');
    if let Some(agg) = &q.aggregation {
        if !agg.keys.is_empty() {
            let keys: Vec<String> = agg.keys.iter().map(|v| var(*v)).collect();
            let _ = write!(s, "\nGROUP BY {}", keys.join(" "));
        }
        for h in &agg.having {
            let _ = write!(s, "\nHAVING({})", expr(g, h));
        }
    }
    if !q.order.is_empty() {
        let keys: Vec<String> =
            q.order.iter().map(|(v, desc)| format!("{}({})", if *desc { "DESC" } else { "ASC" }, var(*v))).collect();
        let _ = write!(s, "\nORDER BY {}", keys.join(" "));
    }
    if let Some(l) = q.limit {
        let _ = write!(s, "\nLIMIT {l}");
    }
    if let Some(o) = q.offset {
        let _ = write!(s, "\nOFFSET {o}");
    }
    s
}

/// Parses a generated text back with `spargebra`: a failure is a bug of the generator or the
/// printer, never of a store, and must not reach one.
pub fn parses(text: &str) -> Result<(), String> {
    let parser = spargebra::SparqlParser::new();
    if text.contains("INSERT DATA") {
        parser.parse_update(text).map(|_| ()).map_err(|e| e.to_string())
    } else {
        parser.parse_query(text).map(|_| ()).map_err(|e| e.to_string())
    }
}
