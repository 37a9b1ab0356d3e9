//! Oracles across engines (`differential`) and across settings of one engine (`config`).
//!
//! Where engines may legally differ the generator does not go (capabilities), so every
//! difference that remains is a finding; an error a dialect expects on one engine only (an
//! overflow PostgreSQL reports and SQLite turns into a real) skips the check instead.

use crate::ast::ToSql;
use crate::case::SqlCase;
use crate::collation::Collations;
use crate::compare::{compare_with, fold_flags};
use crate::oracle::{dialect_of, exec, render};
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, Evidence, FindingClass, Rows};

/// Booleans compare as 0/1: SQLite and MariaDB have no boolean type.
fn opts() -> CompareOptions {
    CompareOptions { bool_as_int: true, ..CompareOptions::default() }
}

/// The same query on every engine, each in its own dialect; engines are grouped by answer.
pub fn differential(case: &SqlCase, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
    let mut results: Vec<(String, Rows)> = Vec::new();
    for e in engines.iter_mut() {
        let sql = case.query.select.to_sql(dialect_of(e.as_ref()));
        match exec(e.as_mut(), &sql, o) {
            Ok(r) => results.push((e.info().label.clone(), r.unwrap_or_default())),
            Err(c) => return c,
        }
    }
    let Some(first) = results.first() else { return Check::Skip("no engine".into()) };
    let colls = Collations::new(&case.setup);
    let fold = fold_flags(&colls, &case.query.select, &first.1);
    // Group engines whose answers agree, each group represented by its first member.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, (_, r)) in results.iter().enumerate() {
        match groups.iter_mut().find(|g| compare_with(&results[g[0]].1, r, &fold, &opts()).is_none()) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    if groups.len() == 1 {
        return Check::Pass { nonempty: !first.1.is_empty() };
    }
    let names = |g: &Vec<usize>| g.iter().map(|&i| results[i].0.clone()).collect::<Vec<_>>().join(", ");
    let summary: Vec<String> =
        groups.iter().map(|g| format!("{{{}}}: {} row(s)", names(g), results[g[0]].1.len())).collect();
    let mut key: Vec<String> = groups.iter().map(names).collect();
    key.sort();
    let (a, b) = (&results[groups[0][0]], &results[groups[1][0]]);
    Check::finding(Evidence {
        class: FindingClass::Logic,
        engine: key.join(" vs "),
        summary: format!("engines disagree: {}", summary.join("; ")),
        expected: format!("{}:\n{}", a.0, render(&a.1)),
        actual: format!("{}:\n{}", b.0, render(&b.1)),
        key: format!("differential:{}", key.join("|")),
        detail: serde_json::json!({
            "results": results.iter().map(|(l, r)| serde_json::json!({"engine": l, "rows": render(r)})).collect::<Vec<_>>()
        }),
    })
}

/// The query on each engine under each setting of its dialect that must not change answers.
pub fn config(case: &SqlCase, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let d = dialect_of(e.as_ref());
        let sql = case.query.select.to_sql(d);
        let base = match exec(e.as_mut(), &sql, o) {
            Ok(r) => r.unwrap_or_default(),
            Err(c) => return c,
        };
        nonempty |= !base.is_empty();
        let colls = Collations::new(&case.setup);
        let fold = fold_flags(&colls, &case.query.select, &base);
        for v in d.config_variants() {
            for s in v.enable {
                if let Err(c) = exec(e.as_mut(), s, o) {
                    return c;
                }
            }
            let other = exec(e.as_mut(), &sql, o);
            for s in v.disable {
                if let Err(c) = exec(e.as_mut(), s, o) {
                    return c;
                }
            }
            let other = match other {
                Ok(r) => r.unwrap_or_default(),
                Err(c) => return c,
            };
            if compare_with(&base, &other, &fold, &opts()).is_some() {
                return Check::finding(Evidence {
                    class: FindingClass::Logic,
                    engine: e.info().label.clone(),
                    summary: format!("config: {} rows by default, {} with {}", base.len(), other.len(), v.name),
                    expected: render(&base),
                    actual: render(&other),
                    key: format!("config:{}", v.name),
                    detail: serde_json::json!({ "setting": v.enable }),
                });
            }
        }
    }
    Check::Pass { nonempty }
}
