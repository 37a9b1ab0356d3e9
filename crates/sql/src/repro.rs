//! Native reproducers: a `.sql` script the engine's own client runs as it is (`sqlite3 <
//! repro.sql`, `psql -f`, `duckdb <`, `mariadb <`), with the finding, the expected and the
//! actual results in comments.

use crate::ast::ToSql;
use crate::case::SqlCase;
use crate::dialect::{by_name, Dialect, Sqlite};
use crate::oracles::{Detail, SqlOracle};
use crosscheck_core::{EngineInfo, Evidence};
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

fn comment(out: &mut String, label: &str, text: &str) {
    let _ = writeln!(out, "-- {label}:");
    for line in text.lines() {
        let _ = writeln!(out, "--   {line}");
    }
}

/// The reproducer in one dialect.
pub fn script(case: &SqlCase, oracle: SqlOracle, ev: &Evidence, engines: &[EngineInfo], d: &dyn Dialect) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "-- crosscheck {} reproducer ({} dialect)", crosscheck_core::TOOL_VERSION, d.name());
    let _ = writeln!(out, "-- run: {}", d.client());
    let _ = writeln!(
        out,
        "-- oracle: {} (run as {oracle}); seed {}, database {}, check {}",
        case.oracle, case.seed, case.db, case.index
    );
    for e in engines {
        let _ = writeln!(out, "-- engine: {} = {} {} (dialect {})", e.label, e.name, e.version, e.dialect);
    }
    let _ = writeln!(out, "-- finding ({}): {}\n", ev.class, ev.summary.replace('\n', " "));
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
    case.oracle.rules().finding_script(case, ev, d, &mut out);
    out.push('\n');
    comment(&mut out, "expected", &ev.expected);
    comment(&mut out, "actual", &ev.actual);
    let detail: Detail = ev.detail.read();
    for r in &detail.results {
        comment(&mut out, &format!("result of {}", r.engine), &r.rows);
    }
    if let Some(sql) = &detail.sql {
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
