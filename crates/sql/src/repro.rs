//! Native reproducers: a `.sql` script the engine's own client runs as it is (`sqlite3 <
//! repro.sql`, `psql -f`, `duckdb <`, `mariadb <`), with the finding, the expected and the
//! actual results in comments.

use crate::ast::ToSql;
use crate::case::SqlCase;
use crate::dialect::{by_name, Dialect, Sqlite};
use crate::oracles::SqlOracle;
use crosscheck_core::{EngineInfo, Evidence};

fn comment(out: &mut String, label: &str, text: &str) {
    out.push_str(&format!("-- {label}:\n"));
    for line in text.lines() {
        out.push_str(&format!("--   {line}\n"));
    }
}

/// The reproducer in one dialect.
pub fn script(case: &SqlCase, oracle: SqlOracle, ev: &Evidence, engines: &[EngineInfo], d: &dyn Dialect) -> String {
    let mut out = String::new();
    out.push_str(&format!("-- crosscheck {} reproducer ({} dialect)\n", crosscheck_core::TOOL_VERSION, d.name()));
    out.push_str(&format!("-- run: {}\n", d.client()));
    out.push_str(&format!(
        "-- oracle: {} (run as {oracle}); seed {}, database {}, check {}\n",
        case.oracle, case.seed, case.db, case.index
    ));
    for e in engines {
        out.push_str(&format!("-- engine: {} = {} {} (dialect {})\n", e.label, e.name, e.version, e.dialect));
    }
    out.push_str(&format!("-- finding ({}): {}\n\n", ev.class, ev.summary.replace('\n', " ")));
    for line in d.prelude() {
        out.push_str(line);
        out.push('\n');
    }
    for s in case.setup.iter() {
        out.push_str(&s.to_sql(d));
        out.push_str(";\n");
    }
    out.push('\n');
    // The case holds the TLP variant `tlp` resolved to.
    case.oracle.rules().script(case, d, &mut out);
    out.push('\n');
    comment(&mut out, "expected", &ev.expected);
    comment(&mut out, "actual", &ev.actual);
    if let Some(results) = ev.detail.get("results").and_then(|r| r.as_array()) {
        for r in results {
            let engine = r.get("engine").and_then(|v| v.as_str()).unwrap_or("?");
            let rows = r.get("rows").and_then(|v| v.as_str()).unwrap_or("");
            comment(&mut out, &format!("result of {engine}"), rows);
        }
    }
    if let Some(sql) = ev.detail.get("sql").and_then(|v| v.as_str()) {
        comment(&mut out, "failing statement", sql);
    }
    out
}

/// `<stem>.sql` in the first engine's dialect and, when the run spans several dialects,
/// `<stem>.<dialect>.sql` for each.
pub fn reproducers(
    stem: &str,
    oracle: SqlOracle,
    case: &SqlCase,
    ev: &Evidence,
    engines: &[EngineInfo],
) -> Vec<(String, String)> {
    let mut dialects: Vec<&'static dyn Dialect> = Vec::new();
    for e in engines {
        let d = by_name(&e.dialect).unwrap_or(&Sqlite);
        if !dialects.iter().any(|x| x.name() == d.name()) {
            dialects.push(d);
        }
    }
    let first = dialects.first().copied().unwrap_or(&Sqlite);
    let mut out = vec![(format!("{stem}.sql"), script(case, oracle, ev, engines, first))];
    if dialects.len() > 1 {
        for d in dialects {
            out.push((format!("{stem}.{}.sql", d.name()), script(case, oracle, ev, engines, d)));
        }
    }
    out
}
