//! CERT (cardinality estimation restriction testing, Ba and Rigger, ICSE 2024), a performance
//! oracle: a query restricted further must not get a higher estimate of its rows from the
//! optimizer than the query itself. Restrictions, one per case: a conjunct added to the WHERE
//! clause (`conjunct`), the first LEFT join made an INNER join (`inner-join`), DISTINCT added
//! (`distinct`). As SQLancer does, the estimates are compared only where the two plans differ
//! by at most one operator: another plan shape may estimate by other means, which is no bug.
//!
//! The estimate is the plan root's: PostgreSQL's `Plan Rows`, DuckDB's `Estimated
//! Cardinality`; MariaDB's EXPLAIN estimates each table access only, so its estimate is the
//! product of each table's `rows` and `filtered` share (the join's output as its cost model
//! sees it). SQLite shows no estimate and is refused.

use super::{differential, OracleRules};
use crate::ast::{BinOp, Expr, JoinKind, Select, ToSql};
use crate::case::{Query, SqlCase};
use crate::dialect::{by_name, Dialect, Explain, Sqlite};
use crate::exec::{dialect_of, rows_of};
use crate::exprgen::ExprGen;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, FindingClass, Rows, Value};
use rand::Rng;
use serde_json::Value as Json;

/// `cert`.
pub struct Cert;

impl OracleRules for Cert {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        for e in engines {
            let d = by_name(&e.dialect).unwrap_or(&Sqlite);
            if d.explain().is_none() {
                return Err(format!(
                    "the cert oracle compares the row estimates of EXPLAIN, and {} ({}) shows none",
                    e.label,
                    d.name()
                ));
            }
        }
        Ok(())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        differential::whole_query(g, q);
        q.select.distinct = false;
        // CERT restricts one query block; MariaDB shows a set operation's members' accesses,
        // not an estimate of its rows.
        q.select.compound.clear();
        let left = q.select.joins.iter().any(|j| j.kind == JoinKind::Left);
        // The restriction `restricted` derives: a conjunct where the case holds one, else the
        // LEFT join, else DISTINCT.
        match g.rng.gen_range(0..3) {
            1 if left => {}
            2 if !left => {}
            _ => q.pred = Some(g.predicate(1)),
        }
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        let (restricted, how) = restricted(q);
        let explain = |s: &Select| match d.explain() {
            Some(e) => explain_statement(e, &s.to_sql(d)),
            None => s.to_sql(d),
        };
        vec![("Q".to_string(), explain(&q.select)), (format!("restricted ({how})"), explain(&restricted))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        let mut nonempty = false;
        for e in engines.iter_mut() {
            match check_one(self, case, e.as_mut(), opts) {
                Ok(n) => nonempty |= n,
                Err(c) => return c,
            }
        }
        Check::Pass { nonempty }
    }
}

/// The query restricted further, and how.
pub fn restricted(q: &Query) -> (Select, &'static str) {
    let mut s = q.select.clone();
    if let Some(p) = &q.pred {
        s.where_ = Some(match s.where_.take() {
            Some(w) => Expr::bin(BinOp::And, w, p.clone()),
            None => p.clone(),
        });
        return (s, "conjunct");
    }
    if let Some(j) = s.joins.iter_mut().find(|j| j.kind == JoinKind::Left) {
        j.kind = JoinKind::Inner;
        return (s, "inner-join");
    }
    s.distinct = true;
    (s, "distinct")
}

fn explain_statement(e: Explain, sql: &str) -> String {
    match e {
        Explain::Postgres | Explain::DuckDb => format!("EXPLAIN (FORMAT JSON) {sql}"),
        Explain::MariaDb => format!("EXPLAIN FORMAT=JSON {sql}"),
    }
}

/// Both estimates on one engine: whether the query is estimated to return rows, or the check's
/// end.
fn check_one(rules: &Cert, case: &SqlCase, e: &mut dyn Engine, opts: &CheckOptions) -> Result<bool, Check> {
    let d = dialect_of(e);
    let Some(format) = d.explain() else { return Err(Check::Skip(format!("no estimates in {}", d.name()))) };
    let plan = rules.plan(&case.query, d);
    let mut est = Vec::with_capacity(2);
    for (_, sql) in &plan {
        let rows = rows_of(e, sql, opts)?;
        match estimate(format, &rows) {
            Some(x) => est.push(x),
            None => return Err(Check::Skip("a plan without an estimate of its rows".into())),
        }
    }
    let [(base, ops), (restricted, rops)] =
        <[(f64, Vec<String>); 2]>::try_from(est).map_err(|_| Check::Skip("not two plans".into()))?;
    // Another plan shape estimates by other means; and an estimate of one row is a floor,
    // not an estimate (PostgreSQL clamps every node but a provably empty one to at least one
    // row, so DISTINCT over `WHERE FALSE`'s zero is one).
    // MariaDB's estimate is our product of its accesses', so there the accesses must be the same.
    let allowed = if format == Explain::MariaDb { 0 } else { 1 };
    if edit_distance(&ops, &rops) > allowed || restricted <= base || restricted <= 1.0 {
        return Ok(base > 0.0);
    }
    let how = plan.get(1).map_or("", |(label, _)| label.as_str());
    Err(Check::finding(Evidence {
        class: FindingClass::Performance,
        engines: vec![e.info().label.clone()],
        summary: format!("cert: the {how} query is estimated at {restricted} rows, the query it restricts at {base}"),
        expected: format!("at most {base} rows"),
        actual: format!("{restricted} rows"),
        key: format!("cert:{}:more", restricted_kind(&case.query)),
        detail: crosscheck_core::Detail::none(),
    }))
}

fn restricted_kind(q: &Query) -> &'static str {
    restricted(q).1
}

/// The plan's estimate of the rows the query returns and its operators in preorder.
pub fn estimate(format: Explain, plan: &Rows) -> Option<(f64, Vec<String>)> {
    let cell = |c: usize| match plan.rows.first()?.get(c)? {
        Value::Text(t) => serde_json::from_str::<Json>(t).ok(),
        _ => None,
    };
    match format {
        Explain::Postgres => {
            let root = cell(0)?.get(0)?.get("Plan")?.clone();
            let mut ops = Vec::new();
            preorder(&root, "Plans", &mut |n| {
                ops.push(n.get("Node Type")?.as_str()?.to_string());
                Some(())
            });
            Some((root.get("Plan Rows")?.as_f64()?, ops))
        }
        Explain::DuckDb => {
            let root = cell(1)?.get(0)?.clone();
            let (mut ops, mut first) = (Vec::new(), None);
            preorder(&root, "children", &mut |n| {
                let name = n.get("name")?.as_str()?.trim();
                ops.push(name.to_string());
                // The optimizer proved the input empty: no rows, and no estimate printed.
                if name == "EMPTY_RESULT" {
                    first.get_or_insert(0.0);
                }
                let c = n.get("extra_info")?.get("Estimated Cardinality")?;
                let c = c.as_f64().or_else(|| c.as_str()?.parse().ok())?;
                first.get_or_insert(c);
                Some(())
            });
            Some((first?, ops))
        }
        Explain::MariaDb => {
            let block = cell(0)?.get("query_block")?.clone();
            // A set operation's plan shows its members' accesses, not the rows of the result.
            if block.get("union_result").is_some() {
                return None;
            }
            // A query block the optimizer settled without reading a table says why instead.
            if let Some(m) = block.get("table").and_then(|t| t.get("message")).and_then(Json::as_str) {
                let rows = match m {
                    "No tables used" | "Select tables optimized away" => 1.0,
                    "Zero limit" => 0.0,
                    m if m.starts_with("Impossible") || m.starts_with("no matching row") => 0.0,
                    _ => return None,
                };
                return Some((rows, vec![m.to_string()]));
            }
            let (mut rows, mut ops) = (1.0, Vec::new());
            mariadb_tables(&block, &mut |t| {
                let r = t.get("rows")?.as_f64()?;
                rows *= r * t.get("filtered").and_then(Json::as_f64).unwrap_or(100.0) / 100.0;
                let name = t.get("table_name")?.as_str()?;
                ops.push(format!("{name}:{}", t.get("access_type")?.as_str()?));
                Some(())
            });
            (!ops.is_empty()).then_some((rows, ops))
        }
    }
}

/// Calls `f` on a plan node and on each node below it (under `children`), in preorder.
fn preorder(n: &Json, children: &str, f: &mut dyn FnMut(&Json) -> Option<()>) {
    let _ = f(n);
    for c in n.get(children).and_then(Json::as_array).into_iter().flatten() {
        preorder(c, children, f);
    }
}

/// The tables the outer query block of a MariaDB plan reads, not those of its subqueries.
fn mariadb_tables(n: &Json, f: &mut dyn FnMut(&Json) -> Option<()>) {
    match n {
        Json::Object(m) => {
            for (k, v) in m {
                if k == "table" {
                    let _ = f(v);
                } else if !k.contains("subquer") && !k.contains("materializ") {
                    mariadb_tables(v, f);
                }
            }
        }
        Json::Array(a) => a.iter().for_each(|v| mariadb_tables(v, f)),
        _ => {}
    }
}

/// Levenshtein distance between two operator sequences.
fn edit_distance(a: &[String], b: &[String]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, y) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(x != y);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::{edit_distance, estimate};
    use crate::dialect::Explain;
    use crosscheck_core::{Rows, Value};

    fn one(cells: Vec<&str>) -> Rows {
        let cols = (0..cells.len()).map(|i| format!("c{i}")).collect();
        Rows::new(cols, vec![cells.into_iter().map(|c| Value::Text(c.into())).collect()])
    }

    #[test]
    fn estimates_are_read_from_each_explain() {
        let pg = r#"[{"Plan": {"Node Type": "Hash Join", "Plan Rows": 12, "Plans": [{"Node Type": "Seq Scan", "Plan Rows": 40}]}}]"#;
        assert_eq!(
            estimate(Explain::Postgres, &one(vec![pg])),
            Some((12.0, vec!["Hash Join".into(), "Seq Scan".into()]))
        );
        let duck = r#"[{"name": "PROJECTION ", "children": [{"name": "SEQ_SCAN", "children": [], "extra_info": {"Estimated Cardinality": "2"}}], "extra_info": {}}]"#;
        assert_eq!(
            estimate(Explain::DuckDb, &one(vec!["physical_plan", duck])),
            Some((2.0, vec!["PROJECTION".into(), "SEQ_SCAN".into()]))
        );
        let empty = r#"[{"name": "EMPTY_RESULT", "children": [], "extra_info": {}}]"#;
        assert_eq!(
            estimate(Explain::DuckDb, &one(vec!["physical_plan", empty])),
            Some((0.0, vec!["EMPTY_RESULT".into()]))
        );
        let maria = r#"{"query_block": {"select_id": 1, "nested_loop": [{"table": {"table_name": "t0", "access_type": "ALL", "rows": 4, "filtered": 50}}, {"table": {"table_name": "t1", "access_type": "ALL", "rows": 3, "filtered": 100}}], "subqueries": [{"query_block": {"table": {"table_name": "t2", "access_type": "ALL", "rows": 9}}}]}}"#;
        assert_eq!(estimate(Explain::MariaDb, &one(vec![maria])), Some((6.0, vec!["t0:ALL".into(), "t1:ALL".into()])));
        let impossible = r#"{"query_block": {"select_id": 1, "table": {"message": "Impossible WHERE"}}}"#;
        assert_eq!(estimate(Explain::MariaDb, &one(vec![impossible])), Some((0.0, vec!["Impossible WHERE".into()])));
        assert_eq!(estimate(Explain::Postgres, &one(vec!["not json"])), None);
    }

    #[test]
    fn plans_differ_by_their_edit_distance() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(edit_distance(&v(&["a", "b"]), &v(&["a", "b"])), 0);
        assert_eq!(edit_distance(&v(&["a", "b"]), &v(&["a", "c", "b"])), 1);
        assert_eq!(edit_distance(&v(&["a", "b"]), &v(&["c", "d"])), 2);
    }
}
