//! The cross-setting oracle: the query on each engine under each setting of its dialect that
//! must not change answers (`Dialect::config_variants`), against the answer by default. `dqp`
//! runs the same check over its dialect's plan-changing settings (`under_settings`, `script`).

use super::{bool_as_int, differential, Detail, OracleRules};
use crate::ast::ToSql;
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare_with, fold_flags};
use crate::dialect::{by_name, ConfigVariant, Dialect, Sqlite};
use crate::exec::{dialect_of, exec};
use crate::exprgen::ExprGen;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, FindingClass, Groups, Rows};
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// `config`.
pub struct Config;

impl OracleRules for Config {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        has_settings(engines, "the config oracle knows no alternative settings", |d| d.config_variants())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        // The same kind of query as `differential`: a plain query whose answer is compared.
        differential::whole_query(g, q)
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        vec![("Q".to_string(), q.select.to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        under_settings(case, engines, opts, &|d| d.config_variants().iter().collect())
    }

    fn script(&self, case: &SqlCase, d: &dyn Dialect, out: &mut String) {
        script(case, d, d.config_variants().iter(), out)
    }
}

/// Refuses a run with an engine whose dialect has no settings of the kind `settings` lists.
pub(super) fn has_settings(
    engines: &[EngineInfo],
    refusal: &str,
    settings: fn(&dyn Dialect) -> &'static [ConfigVariant],
) -> Result<(), String> {
    for e in engines {
        if settings(by_name(&e.dialect).unwrap_or(&Sqlite)).is_empty() {
            return Err(format!("{refusal} for {}", e.label));
        }
    }
    Ok(())
}

/// The settings of a dialect a check runs its query under.
pub(super) type Pick<'a> = &'a dyn Fn(&dyn Dialect) -> Vec<&'static ConfigVariant>;

/// The query by default and under each setting, with the statements that switch it.
pub(super) fn script<'a>(
    case: &SqlCase,
    d: &dyn Dialect,
    variants: impl Iterator<Item = &'a ConfigVariant>,
    out: &mut String,
) {
    let q = case.query.select.to_sql(d);
    let _ = writeln!(out, "-- Q:\n{q};");
    for v in variants {
        let _ = writeln!(out, "-- Q with {}:", v.name);
        for s in v.enable {
            let _ = writeln!(out, "{s};");
        }
        let _ = writeln!(out, "{q};");
        for s in v.disable {
            let _ = writeln!(out, "{s};");
        }
    }
}

/// The query on each engine by default and under the settings `pick` chooses of its dialect,
/// each answer grouped by agreement; the key names the oracle (the case's), the groups and the
/// direction.
pub(super) fn under_settings(case: &SqlCase, engines: &mut [Box<dyn Engine>], o: &CheckOptions, pick: Pick) -> Check {
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let answers = match answers(case, e.as_mut(), o, pick) {
            Ok(a) => a,
            Err(c) => return c,
        };
        nonempty |= !answers[0].1.is_empty();
        let colls = Collations::new(&case.setup).under(dialect_of(e.as_ref()));
        let fold = fold_flags(&colls, &case.query.select, &answers[0].1);
        let groups = Groups::of(&answers, |a, b| compare_with(&a.1, &b.1, &fold, &bool_as_int()).is_none());
        if groups.agree() {
            continue;
        }
        let d = differential::disagreement(&answers, &groups, &fold);
        let split = groups.sorted_names(|i| answers[i].0.as_str(), ", ");
        // The settings whose answer is not the default's.
        let settings = groups.0.iter().skip(1).flatten().map(|&i| answers[i].0.clone());
        return Check::finding(Evidence {
            class: FindingClass::Logic,
            engines: vec![e.info().label.clone()],
            summary: format!("{} on {}: {}", case.oracle, e.info().label, d.summary),
            expected: d.expected,
            actual: d.actual,
            key: format!("{}:{}:{}", case.oracle, split.join("|"), d.how),
            detail: crosscheck_core::Detail::of(&Detail { setting: settings.collect(), ..Detail::default() }),
        });
    }
    Check::Pass { nonempty }
}

/// The query's answer by default and under each setting of the engine's dialect, named
/// `default` and by the setting.
fn answers(case: &SqlCase, e: &mut dyn Engine, o: &CheckOptions, pick: Pick) -> Result<Vec<(String, Rows)>, Check> {
    let d = dialect_of(e);
    let sql = case.query.select.to_sql(d);
    let mut out = vec![("default".to_string(), exec(e, &sql, o)?.unwrap_or_default())];
    for v in pick(d) {
        for s in v.enable {
            exec(e, s, o)?;
        }
        let other = exec(e, &sql, o);
        let restored = v.disable.iter().try_for_each(|s| exec(e, s, o).map(drop));
        // The query's own failure first: a DuckDB internal error invalidates the database,
        // and the restoring PRAGMA's "database has been invalidated" would be reported instead.
        let other = other?;
        restored?;
        out.push((v.name.to_string(), other.unwrap_or_default()));
    }
    Ok(out)
}
