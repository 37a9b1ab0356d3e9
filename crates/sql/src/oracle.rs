//! The SQL oracles: Ternary Logic Partitioning (WHERE, DISTINCT, GROUP BY, HAVING, aggregate)
//! and NoREC as SQLancer defines them, cross-engine `differential`, cross-setting `config`, and
//! the implicit unexpected-error and crash oracles that every check applies.
//!
//! Every partition runs as its own query (SQLancer unions them into one when it can): a fault
//! that drops or duplicates one row per result then shows up as a count mismatch.

use crate::ast::{Agg, Expr, Item, Lit, PostOp, Select, ToSql};
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare, dedup, fold_flags, Fold};
use crate::dialect::{by_name, cap, Dialect, Sqlite};
use crosscheck_core::{Check, CheckOptions, Engine, Evidence, FindingClass, Oracle, Outcome, Rows, Value};
use serde::{Deserialize, Serialize};

/// The oracles a run may name. `tlp` picks one TLP variant per case; the case keeps the
/// variant, so nothing after the generator sees `Tlp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SqlOracle {
    Tlp,
    TlpWhere,
    TlpDistinct,
    TlpGroupBy,
    TlpHaving,
    TlpAggregate,
    Norec,
    Differential,
    Config,
}

impl SqlOracle {
    /// The variants `tlp` chooses among, in the order of the generator's draw.
    pub const TLP_VARIANTS: &'static [SqlOracle] = &[
        SqlOracle::TlpWhere,
        SqlOracle::TlpDistinct,
        SqlOracle::TlpGroupBy,
        SqlOracle::TlpHaving,
        SqlOracle::TlpAggregate,
    ];
}

impl Oracle for SqlOracle {
    const ALL: &'static [SqlOracle] = &[
        SqlOracle::Tlp,
        SqlOracle::TlpWhere,
        SqlOracle::TlpDistinct,
        SqlOracle::TlpGroupBy,
        SqlOracle::TlpHaving,
        SqlOracle::TlpAggregate,
        SqlOracle::Norec,
        SqlOracle::Differential,
        SqlOracle::Config,
    ];

    fn name(self) -> &'static str {
        match self {
            SqlOracle::Tlp => "tlp",
            SqlOracle::TlpWhere => "tlp-where",
            SqlOracle::TlpDistinct => "tlp-distinct",
            SqlOracle::TlpGroupBy => "tlp-group-by",
            SqlOracle::TlpHaving => "tlp-having",
            SqlOracle::TlpAggregate => "tlp-aggregate",
            SqlOracle::Norec => "norec",
            SqlOracle::Differential => "differential",
            SqlOracle::Config => "config",
        }
    }
}

impl std::fmt::Display for SqlOracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The dialect an engine speaks (SQLite when it names none we know).
pub fn dialect_of(e: &dyn Engine) -> &'static dyn Dialect {
    by_name(&e.info().dialect).unwrap_or(&Sqlite)
}

/// The three TLP partitions of `p`: `p`, `NOT p`, `p IS NULL`.
pub fn partitions(p: &Expr) -> [Expr; 3] {
    [p.clone(), Expr::negate(p.clone()), Expr::is_null(p.clone())]
}

fn with_where(s: &Select, p: Expr) -> Select {
    let mut s = s.clone();
    s.where_ = Some(match s.where_.take() {
        Some(w) => Expr::bin(crate::ast::BinOp::And, w, p),
        None => p,
    });
    s
}

/// The queries an oracle runs for a case, printed in a dialect, each with a label; the same
/// list the reproducers print.
pub fn plan(oracle: SqlOracle, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
    let s = &q.select;
    let p = q.pred.clone().unwrap_or(Expr::Lit(Lit::Bool(true)));
    if oracle == SqlOracle::Norec {
        return norec_plan(q, s, p, d);
    }
    let mut out = vec![("Q".to_string(), s.to_sql(d))];
    match oracle {
        SqlOracle::TlpWhere | SqlOracle::TlpDistinct | SqlOracle::TlpGroupBy => {
            for (label, part) in ["p", "NOT p", "p IS NULL"].iter().zip(partitions(&p)) {
                out.push((format!("Q WHERE {label}"), with_where(s, part).to_sql(d)));
            }
        }
        SqlOracle::TlpHaving => {
            for (label, part) in ["p", "NOT p", "p IS NULL"].iter().zip(partitions(&p)) {
                let mut h = s.clone();
                h.having = Some(part);
                out.push((format!("Q HAVING {label}"), h.to_sql(d)));
            }
        }
        SqlOracle::TlpAggregate => {
            let parts: Vec<String> = partitions(&p).into_iter().map(|part| with_where(s, part).to_sql(d)).collect();
            let (outer, collate) = match s.items.first().map(|i| &i.expr) {
                Some(Expr::Agg { func, arg, .. }) => (
                    match func {
                        Agg::Count => "SUM",
                        other => other.name(),
                    },
                    match arg.as_deref() {
                        Some(Expr::Collate(_, c)) => format!(" COLLATE {}", d.collation_name(*c)),
                        _ => String::new(),
                    },
                ),
                _ => ("SUM", String::new()),
            };
            out.push((
                "partitions".into(),
                format!("SELECT {outer}(agg{collate}) FROM ({}) AS tlp", parts.join(" UNION ALL ")),
            ));
        }
        SqlOracle::Tlp | SqlOracle::Norec | SqlOracle::Differential | SqlOracle::Config => {}
    }
    out
}

/// NoREC: the optimized query filters with `p`; the unoptimized one evaluates `p` on every row
/// in the select list, where no optimizer can use it to skip rows, and sums its truth.
/// (SQLancer wraps that select in a derived table; summing in place is the same count and
/// spares the engine a subquery flattening on every check.)
fn norec_plan(q: &Query, s: &Select, p: Expr, d: &dyn Dialect) -> Vec<(String, String)> {
    // One copy of the select serves both queries: copying and dropping the tree cost as much
    // as printing it.
    let mut sel = s.clone();
    if !q.count_rows {
        sel.items = vec![Item { expr: Expr::Agg { func: Agg::Count, distinct: false, arg: None }, alias: None }];
        sel.order_by.clear();
    }
    sel.where_ = Some(p);
    let optimized = sel.to_sql(d);
    let p = std::mem::replace(&mut sel.where_, s.where_.clone()).unwrap_or(Expr::Lit(Lit::Bool(true)));
    let truth = if d.has_cap(cap::LOOSE) || d.has_cap(cap::LOOSE_MARIADB) {
        Expr::post(PostOp::IsTrue, p)
    } else {
        Expr::Case {
            operand: None,
            whens: vec![(p, Expr::Lit(Lit::Int(1)))],
            otherwise: Some(Box::new(Expr::Lit(Lit::Int(0)))),
        }
    };
    sel.items = vec![Item {
        expr: Expr::Agg { func: Agg::Sum, distinct: false, arg: Some(Box::new(truth)) },
        alias: Some("norec".into()),
    }];
    sel.order_by.clear();
    vec![("optimized".into(), optimized), ("unoptimized".into(), sel.to_sql(d))]
}

/// A one-line, stable form of an engine error for deduplication keys.
pub fn error_key(message: &str) -> String {
    // Drop what follows the message proper: names, the statement SQLite appends (" in SELECT
    // ... at offset N").
    let head = message.split([':', '"', '\'']).next().unwrap_or(message);
    let head = head.split(" in ").next().unwrap_or(head);
    // Parenthesised details name the operands (MariaDB's "Illegal mix of collations
    // (utf8mb4_bin,IMPLICIT) and (...)" lists whichever collations the query met).
    let mut depth = 0usize;
    let mut k = String::with_capacity(head.len());
    for c in head.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_ascii_digit() => k.push('#'),
            c => k.push(c),
        }
    }
    let mut k = k.split_whitespace().collect::<Vec<_>>().join(" ");
    k.truncate(80);
    format!("error:{k}")
}

fn error_evidence(engine: &dyn Engine, sql: &str, message: &str) -> Evidence {
    Evidence {
        class: FindingClass::Error,
        engine: engine.info().label.clone(),
        summary: format!("unexpected error from {}: {message}", engine.info().label),
        expected: "no error".into(),
        actual: message.to_string(),
        key: error_key(message),
        detail: serde_json::json!({ "sql": sql }),
    }
}

/// Runs one statement; an error the dialect expects or a timeout skips the check, any other
/// error or a crash is a finding.
pub fn exec(engine: &mut dyn Engine, sql: &str, opts: &CheckOptions) -> Result<Option<Rows>, Check> {
    match engine.run(sql, opts.timeout) {
        Outcome::Rows(r) => Ok(Some(r)),
        Outcome::Done => Ok(None),
        Outcome::Error { message, .. } => {
            if dialect_of(engine).expected_error(&message) {
                Err(Check::Skip(format!("expected error: {message}")))
            } else {
                Err(Check::finding(error_evidence(engine, sql, &message)))
            }
        }
        Outcome::Timeout { after_ms } => Err(Check::Skip(format!("timeout after {after_ms} ms"))),
        Outcome::Crash { signal, code, stderr_tail } => Err(Check::finding(Evidence {
            class: FindingClass::Crash,
            engine: engine.info().label.clone(),
            summary: format!("{} crashed (signal {signal:?}, code {code:?})", engine.info().label),
            expected: "an answer".into(),
            actual: stderr_tail.clone(),
            key: match signal {
                Some(s) => format!("signal {s}"),
                None => "crash".into(),
            },
            detail: serde_json::json!({ "sql": sql }),
        })),
        Outcome::Verdicts { .. } => Err(Check::Skip("a solver verdict from a SQL engine".into())),
    }
}

fn rows_of(engine: &mut dyn Engine, sql: &str, opts: &CheckOptions) -> Result<Rows, Check> {
    Ok(exec(engine, sql, opts)?.unwrap_or_default())
}

/// Renders rows as the `sqlite3` shell does (`|` between values), at most 20.
pub fn render(rows: &Rows) -> String {
    let mut lines: Vec<String> =
        rows.rows.iter().take(20).map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("|")).collect();
    if rows.rows.len() > 20 {
        lines.push(format!("... ({} rows)", rows.rows.len()));
    }
    if lines.is_empty() {
        "(no rows)".into()
    } else {
        lines.join("\n")
    }
}

fn logic(
    engine: &dyn Engine,
    oracle: SqlOracle,
    key: &str,
    expected: String,
    actual: String,
    summary: String,
) -> Check {
    Check::finding(Evidence {
        class: FindingClass::Logic,
        engine: engine.info().label.clone(),
        summary: format!("{oracle}: {summary}"),
        expected,
        actual,
        key: key.into(),
        detail: serde_json::Value::Null,
    })
}

/// Checks a prepared case with one of the metamorphic oracles on every engine of the run.
pub fn check_metamorphic(
    oracle: SqlOracle,
    case: &SqlCase,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
) -> Check {
    let mut nonempty = false;
    for e in engines.iter_mut() {
        match check_one(oracle, case, e.as_mut(), opts) {
            Ok(n) => nonempty |= n,
            Err(c) => return c,
        }
    }
    Check::Pass { nonempty }
}

fn check_one(oracle: SqlOracle, case: &SqlCase, e: &mut dyn Engine, opts: &CheckOptions) -> Result<bool, Check> {
    let d = dialect_of(e);
    let steps = plan(oracle, &case.query, d);
    let mut results = Vec::with_capacity(steps.len());
    for (_, sql) in &steps {
        results.push(rows_of(e, sql, opts)?);
    }
    let colls = Collations::new(&case.setup);
    let s = &case.query.select;
    match oracle {
        SqlOracle::TlpWhere | SqlOracle::TlpHaving | SqlOracle::TlpDistinct | SqlOracle::TlpGroupBy => {
            let q = &results[0];
            let fold = match oracle {
                SqlOracle::TlpWhere => Fold::none(q),
                _ => fold_flags(&colls, s, q),
            };
            let union = crosscheck_core::bag::union_all(&results[1..]);
            let union = if matches!(oracle, SqlOracle::TlpDistinct | SqlOracle::TlpGroupBy) {
                dedup(&union, &fold)
            } else {
                union
            };
            if overflowed(q) || overflowed(&union) {
                // A float SUM in a grouped select that reached infinity depends on the order of
                // addition, which the HAVING partition may change: no verdict.
                return Err(Check::Skip("float overflow in an aggregate".into()));
            }
            if let Some(diff) = compare(q, &union, &fold) {
                let summary = format!(
                    "Q returned {} row(s), the partitions {} ({} missing, {} extra)",
                    q.len(),
                    union.len(),
                    diff.missing.len(),
                    diff.extra.len()
                );
                return Err(logic(e, oracle, "rows-differ", render(q), render(&union), summary));
            }
            Ok(!q.is_empty())
        }
        SqlOracle::TlpAggregate => {
            let (q, parts) = (&results[0], &results[1]);
            for (what, r) in [("Q", q), ("the partitions' query", parts)] {
                if r.len() != 1 {
                    let summary = format!("{what} is an aggregate without GROUP BY but returned {} rows", r.len());
                    return Err(logic(e, oracle, "aggregate-rows", "1 row".into(), render(r), summary));
                }
            }
            let fold = fold_flags(&colls, s, q);
            let nan_as_null = |a: &Rows, b: &Rows| {
                matches!((first_value(a), first_value(b)), (Some(Value::Null), Some(Value::Float(_))))
            };
            let floats = [q, parts].iter().any(|r| matches!(first_value(r), Some(Value::Float(_))));
            if overflowed(q)
                || overflowed(parts)
                || nan_as_null(q, parts)
                || nan_as_null(parts, q)
                || (floats && huge_numbers(case))
            {
                // A float SUM that reached infinity (or inf - inf = NaN, which SQL shows as
                // NULL) depends on the order of addition: no verdict.
                return Err(Check::Skip("float overflow in an aggregate".into()));
            }
            if compare(q, parts, &fold).is_some() {
                let summary = "the aggregate of Q differs from the aggregate of its partitions".to_string();
                return Err(logic(e, oracle, "aggregate-differs", render(q), render(parts), summary));
            }
            Ok(q.rows.first().and_then(|r| r.first()).is_some_and(|v| !v.is_null()))
        }
        SqlOracle::Norec => {
            let (opt, unopt) = (&results[0], &results[1]);
            let count = if case.query.count_rows { Some(opt.len() as i64) } else { single_int(opt) };
            let reference = match unopt.rows.as_slice() {
                [row] => match row.first() {
                    Some(Value::Null) => Some(0),
                    Some(v) => v.as_f64().map(|f| f as i64),
                    None => None,
                },
                _ => None,
            };
            match (count, reference) {
                (Some(c), Some(r)) if c == r => Ok(c > 0),
                _ => {
                    let summary = format!(
                        "the optimized query counts {}, the unoptimized one {}",
                        count.map_or("?".into(), |c| c.to_string()),
                        reference.map_or("?".into(), |c| c.to_string())
                    );
                    Err(logic(e, oracle, "count-differs", render(unopt), render(opt), summary))
                }
            }
        }
        SqlOracle::Tlp | SqlOracle::Differential | SqlOracle::Config => Ok(!results[0].is_empty()),
    }
}

/// A non-finite float, or a NULL SUM next to a float one (NaN shown as NULL).
fn overflowed(r: &Rows) -> bool {
    r.rows.iter().flatten().any(|v| matches!(v, Value::Float(f) if !f.is_finite()))
}

/// Numbers beyond 2^53 in the case: a float SUM over them loses different low-order parts in a
/// different order of addition (1e308 + 9e18 - 1e308).
fn huge_numbers(case: &SqlCase) -> bool {
    let mut huge = false;
    let mut look = |e: &Expr| match e {
        Expr::Lit(Lit::Real(f)) => huge |= f.abs() >= 9.0e15,
        Expr::Lit(Lit::Int(i)) => huge |= i.unsigned_abs() >= 1 << 53,
        _ => {}
    };
    for s in case.setup.iter() {
        match s {
            crate::ast::Stmt::Insert { values, .. } => values.iter().for_each(|v| v.visit(&mut look)),
            crate::ast::Stmt::CreateTable { columns, .. } => {
                columns.iter().filter_map(|c| c.default.clone()).for_each(|l| look(&Expr::Lit(l)))
            }
            _ => {}
        }
    }
    case.query.select.visit_exprs(&mut look);
    if let Some(p) = &case.query.pred {
        p.visit(&mut look);
    }
    huge
}

fn first_value(r: &Rows) -> Option<&Value> {
    r.rows.first().and_then(|row| row.first())
}

fn single_int(rows: &Rows) -> Option<i64> {
    match rows.rows.as_slice() {
        [row] if row.len() == 1 => match &row[0] {
            Value::Int(i) => Some(*i),
            other => other.as_f64().map(|f| f as i64),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn error_keys_drop_names_numbers_and_operand_lists() {
        let k = super::error_key(
            "Illegal mix of collations (utf8mb4_bin,IMPLICIT), (utf8mb4_nopad_bin,COERCIBLE) for operation 'in'",
        );
        assert_eq!(k, "error:Illegal mix of collations , for operation");
        assert_eq!(super::error_key("no such column: t0.c9"), "error:no such column");
        assert_eq!(super::error_key("integer overflow at offset 12"), "error:integer overflow at offset ##");
    }
}
