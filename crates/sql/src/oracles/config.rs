//! The cross-setting oracle: the query on each engine under each setting of its dialect that
//! must not change answers (`Dialect::config_variants`), against the answer by default.

use super::{bool_as_int, differential, render, Detail, OracleRules};
use crate::ast::ToSql;
use crate::case::{Query, SqlCase};
use crate::collation::Collations;
use crate::compare::{compare_with, fold_flags};
use crate::dialect::{by_name, Dialect, Sqlite};
use crate::exec::{dialect_of, exec};
use crate::exprgen::ExprGen;
use crosscheck_core::{Check, CheckOptions, Engine, EngineInfo, Evidence, FindingClass};
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// `config`.
pub struct Config;

impl OracleRules for Config {
    fn validate(&self, engines: &[EngineInfo]) -> Result<(), String> {
        for e in engines {
            let d = by_name(&e.dialect).unwrap_or(&Sqlite);
            if d.config_variants().is_empty() {
                return Err(format!("the config oracle knows no alternative settings for {}", e.label));
            }
        }
        Ok(())
    }

    fn shape(&self, g: &mut ExprGen, q: &mut Query, _depth: u32) {
        // The same kind of query as `differential`: a plain query whose answer is compared.
        differential::whole_query(g, q)
    }

    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
        vec![("Q".to_string(), q.select.to_sql(d))]
    }

    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check {
        config(case, engines, opts)
    }

    /// The query by default and under each setting, with the statements that switch it.
    fn script(&self, case: &SqlCase, d: &dyn Dialect, out: &mut String) {
        let _ = writeln!(out, "-- Q:\n{};", case.query.select.to_sql(d));
        for v in d.config_variants() {
            let _ = writeln!(out, "-- Q with {}:", v.name);
            for s in v.enable {
                let _ = writeln!(out, "{s};");
            }
            let _ = writeln!(out, "{};", case.query.select.to_sql(d));
            for s in v.disable {
                let _ = writeln!(out, "{s};");
            }
        }
    }
}

fn config(case: &SqlCase, engines: &mut [Box<dyn Engine>], o: &CheckOptions) -> Check {
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
            if compare_with(&base, &other, &fold, &bool_as_int()).is_some() {
                return Check::finding(Evidence {
                    class: FindingClass::Logic,
                    engines: vec![e.info().label.clone()],
                    summary: format!("config: {} rows by default, {} with {}", base.len(), other.len(), v.name),
                    expected: render(&base),
                    actual: render(&other),
                    key: format!("config:{}", v.name),
                    detail: crosscheck_core::Detail::of(&Detail {
                        setting: v.enable.iter().map(|s| s.to_string()).collect(),
                        ..Detail::default()
                    }),
                });
            }
        }
    }
    Check::Pass { nonempty }
}
