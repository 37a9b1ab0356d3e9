//! The deduplication signature of a SQL case: its oracle, the finding's key and the shape of
//! the (reduced) case, so that findings of one bug on differently sized cases group together.

use crate::ast::{BinOp, Expr, Func, JoinKind, PostOp, Select, SqlType, Stmt};
use crate::case::SqlCase;
use crosscheck_core::Shape;
use std::collections::BTreeSet;

/// The shape of a case: the finding's key, and the case's clauses, operators, functions and
/// setup features with names and constants stripped. The TLP variant is left out: the clauses
/// it puts the predicate in are features already, and one fault that every variant meets
/// (rows lost in a scan) is one bug.
pub fn signature(case: &SqlCase, key: &str) -> Shape {
    // The direction (rows lost or extra) keeps a reduction on its failure, but does not split
    // bugs: one wrong predicate evaluation loses rows on some data and adds them on other (a
    // MariaDB outer-join bug did both under EXISTS and NOT EXISTS).
    let (key, direction) = split_direction(key);
    // An aggregate query without GROUP BY must give one row whatever its aggregate: which one
    // the case happened to use says nothing of the bug.
    let row_count_only = key == "aggregate-rows";
    // The set operations that compare rows are one family: one wrong comparison (MariaDB's
    // -0.0 against 0.0) met through UNION, EXCEPT and INTERSECT counted as six bugs.
    let features = features(case, row_count_only)
        .into_iter()
        .map(|f| if SET_COMPARE.contains(&f.as_str()) { "set-compare".to_string() } else { f })
        .collect();
    Shape { head: key.to_string(), features, direction: direction.to_string() }
}

/// The set operations that compare rows (UNION ALL concatenates).
const SET_COMPARE: [&str; 5] = ["union", "intersect", "except", "intersect-all", "except-all"];

/// The constructs a case contains, each set operation by name: what the generator's coverage
/// is reported in (`examples/constructs.rs`).
pub fn constructs(case: &SqlCase) -> BTreeSet<String> {
    let mut f = features(case, false);
    let mut top: Vec<&Expr> = case.query.select.slots();
    top.extend(case.query.pred.as_ref());
    if correlated_twice(&case.query.select, &top) {
        f.insert("correlated-depth-2".into());
    }
    f
}

/// Whether a subquery inside a subquery of `s` (found in `exprs`, `s`'s expressions) reads a
/// column of `s` itself: a correlation two levels deep, which decorrelation must carry through
/// the middle query. Subquery aliases are unique in a query, so a qualifier names one table.
fn correlated_twice(s: &Select, exprs: &[&Expr]) -> bool {
    let outer: Vec<&str> = s.from.iter().chain(s.joins.iter().map(|j| &j.table)).map(|t| t.visible()).collect();
    let reads_outer = |inner: &Select| {
        let mut found = false;
        inner.visit_exprs(&mut |e| found |= matches!(e, Expr::Col(c) if outer.contains(&c.table.as_str())));
        found
    };
    subqueries(exprs).into_iter().any(|middle| subqueries(&middle.slots()).into_iter().any(reads_outer))
}

/// The subqueries directly in `exprs` (not those nested in them).
fn subqueries<'a>(exprs: &[&'a Expr]) -> Vec<&'a Select> {
    fn walk<'a>(e: &'a Expr, out: &mut Vec<&'a Select>) {
        match e.subquery() {
            Some(s) => out.push(s),
            None => e.children().into_iter().for_each(|c| walk(c, out)),
        }
        // The tested expression of `x IN (SELECT ...)` is the outer query's.
        if let Expr::InSelect { expr, .. } = e {
            walk(expr, out);
        }
    }
    let mut out = Vec::new();
    for e in exprs {
        walk(e, &mut out);
    }
    out
}

fn features(case: &SqlCase, row_count_only: bool) -> BTreeSet<String> {
    let mut f: BTreeSet<String> = BTreeSet::new();
    select_features(&case.query.select, row_count_only, &mut f);
    if let Some(p) = &case.query.pred {
        p.visit(&mut |e| f.extend(expr_feature(e, row_count_only)));
    }
    setup_features(&case.setup, &mut f);
    f
}

/// The oracles' ways for an answer to differ, which their keys end with (`rows-differ:subset`);
/// PQS's keys end with what the predicate was on the pivot before it was rectified, which one
/// wrong evaluation meets in every form.
const DIRECTIONS: [&str; 10] =
    ["subset", "superset", "different", "order", "fewer", "more", "unreadable", "true", "false", "null"];

/// A key without its direction, and the direction (empty for a key without one).
fn split_direction(key: &str) -> (&str, &str) {
    match key.rsplit_once(':') {
        Some((head, d)) if DIRECTIONS.contains(&d) => (head, d),
        _ => (key, ""),
    }
}

/// The clauses, joins and expression features of one SELECT (subqueries' expressions included).
fn select_features(s: &Select, row_count_only: bool, f: &mut BTreeSet<String>) {
    s.visit_exprs(&mut |e| f.extend(expr_feature(e, row_count_only)));
    clause_features(s, f);
}

/// The clauses and joins of a select and of the selects it holds outside its expressions.
fn clause_features(s: &Select, f: &mut BTreeSet<String>) {
    for inner in s.inner_selects() {
        clause_features(inner, f);
    }
    if !s.with.is_empty() {
        f.insert("cte".into());
    }
    if s.from.iter().chain(s.joins.iter().map(|j| &j.table)).any(|t| t.body.is_some()) {
        f.insert("derived-table".into());
    }
    for c in &s.compound {
        // UNION ALL is a concatenation; the others compare rows.
        f.insert(format!("{}{}", c.op.keyword().to_lowercase(), if c.all { "-all" } else { "" }));
    }
    for j in &s.joins {
        f.insert(join_feature(j.kind).into());
    }
    for (present, name) in [
        (s.from.len() > 1, "inner-join"),
        (s.distinct, "distinct"),
        (s.where_.is_some(), "where"),
        (!s.group_by.is_empty(), "group-by"),
        (s.having.is_some(), "having"),
        (s.limit.is_some() || s.offset.is_some(), "limit"),
    ] {
        if present {
            f.insert(name.into());
        }
    }
}

fn expr_feature(e: &Expr, row_count_only: bool) -> Option<String> {
    Some(match e {
        Expr::Lit(_) | Expr::Col(_) => return None,
        Expr::Unary(op, _) => format!("{op:?}"),
        Expr::Binary(op, ..) => binary_feature(*op),
        Expr::Postfix(op, _) => postfix_feature(*op),
        // Each is a conjunction or disjunction of comparisons by the standard's definition.
        Expr::Between { .. } | Expr::InList { .. } => "compare".into(),
        // Engines turn each into the other before they plan (MariaDB's `in_to_exists` and
        // `exists_to_in`) or both into a semi-join.
        Expr::InSelect { .. } | Expr::Exists { .. } => "subquery-predicate".into(),
        Expr::Subquery(_) => "scalar-subquery".into(),
        Expr::Case { .. } => "case".into(),
        Expr::Cast(_, t) => format!("cast-{t:?}"),
        Expr::Func(func, _) => func_feature(*func).into(),
        Expr::Agg { .. } if row_count_only => return None,
        Expr::Agg { func, distinct, .. } => format!("{}{}", func.name(), if *distinct { "-distinct" } else { "" }),
        Expr::Collate(_, c) => format!("collate-{c:?}"),
        Expr::Row(_) => "row-value".into(),
        Expr::Window(w) => format!("window-{}", w.func.name().to_lowercase()),
    })
}

// Features name constructs, not which member of a family a case used: the generator puts an
// ordering comparison, a truth test or an outer join wherever one fits, so one bug met
// through `=` and through `>=`, or through LEFT and RIGHT JOIN, counted as two.

fn binary_feature(op: BinOp) -> String {
    match op {
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => "compare".into(),
        BinOp::Is | BinOp::IsNot => "null-safe-compare".into(),
        BinOp::Like | BinOp::NotLike => "like".into(),
        BinOp::Glob | BinOp::NotGlob => "glob".into(),
        op => format!("{op:?}"),
    }
}

fn postfix_feature(op: PostOp) -> String {
    match op {
        PostOp::IsNull | PostOp::NotNull => "null-test".into(),
        PostOp::IsTrue | PostOp::IsFalse | PostOp::IsNotTrue | PostOp::IsNotFalse => "truth-test".into(),
    }
}

/// A cross, natural or comma join is an inner join (on TRUE, or on its shared columns).
fn join_feature(kind: JoinKind) -> &'static str {
    match kind {
        JoinKind::Left | JoinKind::Right | JoinKind::Full => "outer-join",
        JoinKind::Inner | JoinKind::Cross | JoinKind::Natural => "inner-join",
    }
}

/// NULLIF and IIF are CASE expressions by definition (SQL:2016 6.12, SQLite's and DuckDB's
/// docs), and IFNULL is a two-argument COALESCE: engines rewrite them so before they
/// optimize, and a DuckDB filter bug met through CASE, NULLIF and IIF was counted three times.
fn func_feature(func: Func) -> &'static str {
    match func {
        Func::Nullif | Func::Iif => "case",
        Func::Ifnull => "coalesce",
        f => f.name(),
    }
}

/// The features of the setup statements: column constraints, kinds of index, views, ANALYZE.
fn setup_features(setup: &[Stmt], f: &mut BTreeSet<String>) {
    for st in setup {
        match st {
            Stmt::CreateTable { columns, .. } => {
                for c in columns {
                    match c.ty {
                        None => f.insert("untyped-column".into()),
                        // Exact decimals and dates are their own arithmetic and comparisons.
                        Some(SqlType::Decimal) => f.insert("decimal".into()),
                        Some(SqlType::Date) => f.insert("date".into()),
                        Some(SqlType::Timestamp) => f.insert("timestamp".into()),
                        Some(_) => false,
                    };
                    for (on, name) in [
                        (c.primary_key, "pk"),
                        (c.unique, "unique"),
                        (c.not_null, "not-null"),
                        (c.default.is_some(), "default"),
                    ] {
                        if on {
                            f.insert(name.into());
                        }
                    }
                    if let Some(col) = c.collate {
                        f.insert(format!("column-collate-{col:?}"));
                    }
                }
            }
            Stmt::CreateIndex { unique, where_, .. } => {
                f.insert(if *unique { "unique-index" } else { "index" }.into());
                if where_.is_some() {
                    f.insert("partial-index".into());
                }
            }
            // A query reads a view's expressions as its own: a CASE met through a view is the
            // CASE bug, not another one.
            Stmt::CreateView { select, .. } => {
                f.insert("view".into());
                select_features(select, false, f);
            }
            Stmt::Analyze => {
                f.insert("analyze".into());
            }
            Stmt::Insert { .. } => {}
            // The state a case reaches through DML is a feature of it: index entries an UPDATE
            // changed, rows a DELETE left out.
            Stmt::Update { .. } => {
                f.insert("update".into());
            }
            Stmt::Delete { .. } => {
                f.insert("delete".into());
            }
            Stmt::InsertSelect { .. } => {
                f.insert("insert-select".into());
            }
        }
    }
}
