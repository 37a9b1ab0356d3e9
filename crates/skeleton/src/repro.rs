//! Native reproducers: a file the engine's own client runs, expected and actual in comments.

use crate::model::Case;
use crate::print;
use crosscheck_core::{EngineInfo, Evidence};
use std::fmt::Write;

pub fn reproducers(stem: &str, case: &Case, ev: &Evidence, engines: &[EngineInfo]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for e in engines.iter().filter(|e| ev.engines.contains(&e.label)) {
        let Some(d) = print::dialect(&e.dialect) else { continue };
        let mut text = String::new();
        let _ = writeln!(text, "-- crosscheck skeleton reproducer for {} {} ({})", e.name, e.version, ev.summary);
        let _ = writeln!(text, "-- expected: {}\n-- actual:   {}", ev.expected, ev.actual.replace('\n', " "));
        let _ = writeln!(text, "{};", print::query(&case.expr, d));
        files.push((format!("{stem}.{}.sql", d.name()), text));
    }
    files
}
