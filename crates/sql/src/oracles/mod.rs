//! The SQL oracles, one module each: Ternary Logic Partitioning (`tlp`: WHERE, DISTINCT,
//! GROUP BY, HAVING, aggregate) and NoREC as SQLancer defines them (`norec`), cross-engine
//! `differential` and cross-setting `config`; CODDTest (`codd`), differential query plans
//! (`dqp`), equivalent expression transformation (`eet`), the performance oracle CERT
//! (`cert`) and Pivoted Query Synthesis (`pqs`, over crosscheck's own evaluator, `eval`). The implicit unexpected-error and crash oracles
//! that every check applies live in `exec`.
//!
//! Each module owns everything its oracle decides: the shape of its query (`OracleRules::shape`),
//! the queries it runs (`plan`), its judgement (`check`), what reduction must keep
//! (`keeps_shape`, `keep`) and its part of the reproducer (`script`). The generator, the
//! reducer and the reproducers ask the case's oracle through `SqlOracle::rules`, so adding an
//! oracle is one module here plus one line in `oracles!` below.

mod cert;
mod codd;
mod config;
mod differential;
mod dqe;
mod dqp;
mod eet;
mod norec;
mod pqs;
mod summary;
mod tlp;

use crate::case::{Query, SqlCase};
use crate::dialect::{Caps, Dialect};
use crate::exec::{dialect_of, rows_of};
use crate::exprgen::ExprGen;
use crosscheck_core::{Check, CheckOptions, CompareOptions, Engine, EngineInfo, Evidence, FindingClass, Oracle, Rows};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
// Writing into a String cannot fail: write!'s Result is always Ok and is dropped.
use std::fmt::Write as _;

/// The registry: one line per oracle, `Variant = "name" => rules`, in the order `crosscheck
/// engines` lists them. It makes the enum, its names and the dispatch to the rules.
macro_rules! oracles {
    ($($variant:ident = $name:literal => $rules:expr,)*) => {
        /// The oracles a run may name. `tlp` picks one TLP variant per case; the case keeps
        /// the variant, so nothing after the generator sees `Tlp`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum SqlOracle {
            $(#[serde(rename = $name)] $variant,)*
        }

        impl Oracle for SqlOracle {
            const ALL: &'static [SqlOracle] = &[$(SqlOracle::$variant,)*];

            fn name(self) -> &'static str {
                match self {
                    $(SqlOracle::$variant => $name,)*
                }
            }
        }

        impl SqlOracle {
            /// What this oracle decides, for the generator, the checker, the reducer and the
            /// reproducers.
            pub fn rules(self) -> &'static dyn OracleRules {
                match self {
                    $(SqlOracle::$variant => &$rules,)*
                }
            }
        }
    };
}

oracles! {
    Tlp = "tlp" => tlp::Any,
    TlpWhere = "tlp-where" => tlp::Where,
    TlpDistinct = "tlp-distinct" => tlp::Distinct,
    TlpGroupBy = "tlp-group-by" => tlp::GroupBy,
    TlpHaving = "tlp-having" => tlp::Having,
    TlpAggregate = "tlp-aggregate" => tlp::Aggregate,
    Norec = "norec" => norec::Norec,
    Differential = "differential" => differential::Differential,
    Config = "config" => config::Config,
    Dqe = "dqe" => dqe::Dqe,
    Codd = "codd" => codd::Codd,
    Dqp = "dqp" => dqp::Dqp,
    Eet = "eet" => eet::Eet,
    Cert = "cert" => cert::Cert,
    Pqs = "pqs" => pqs::Pqs,
    Summary = "summary" => summary::Summary { bag: false },
    SummaryBag = "summary-bag" => summary::Summary { bag: true },
}

impl SqlOracle {
    /// The concrete oracle a case runs: an umbrella oracle (`tlp`) draws one from the case's
    /// rng, every other oracle is itself and draws nothing.
    pub fn resolve(self, rng: &mut ChaCha8Rng, caps: &Caps) -> SqlOracle {
        self.rules().resolve(rng, caps).unwrap_or(self)
    }
}

impl std::fmt::Display for SqlOracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What reduction must keep of a query, beyond what `keeps_shape` checks, so that clause
/// candidates that could only break the oracle's argument are never tried.
pub struct Keep {
    /// The query stays DISTINCT.
    pub distinct: bool,
    /// The query keeps its GROUP BY.
    pub group_by: bool,
    /// The fewest select items a candidate may have; `None`: items are never removed.
    pub min_items: Option<usize>,
    /// The GROUP BY lists exactly the select items, so removing an item removes its key.
    pub items_are_keys: bool,
}

impl Default for Keep {
    fn default() -> Keep {
        Keep { distinct: false, group_by: false, min_items: Some(1), items_are_keys: false }
    }
}

/// One oracle: its part in generating, checking, reducing and reproducing a case.
pub trait OracleRules: Sync {
    /// For an umbrella oracle, the concrete oracle of a case, drawn from the case's rng.
    fn resolve(&self, _rng: &mut ChaCha8Rng, _caps: &Caps) -> Option<SqlOracle> {
        None
    }

    /// Why the run's engines cannot serve this oracle, if they cannot.
    fn validate(&self, _engines: &[EngineInfo]) -> Result<(), String> {
        Ok(())
    }

    /// The depth of the query's predicate, the first draw after the FROM clause.
    fn predicate_depth(&self, rng: &mut ChaCha8Rng) -> u32 {
        rng.gen_range(1..=3)
    }

    /// Shapes the query the generator started (FROM clause and predicate drawn) for this
    /// oracle, drawing from `g`'s rng.
    fn shape(&self, g: &mut ExprGen, q: &mut Query, depth: u32);

    /// The queries the oracle runs for a case, printed in a dialect, each with a label; the
    /// same list the reproducers print.
    fn plan(&self, q: &Query, d: &dyn Dialect) -> Vec<(String, String)>;

    /// Checks a prepared case on the engines of the run.
    fn check(&self, case: &SqlCase, engines: &mut [Box<dyn Engine>], opts: &CheckOptions) -> Check;

    /// Whether a reduced query still has the shape the oracle's argument needs: a candidate
    /// that breaks it could fail for a reason that is no bug (a bare column in a grouped query
    /// takes its value from an arbitrary row).
    fn keeps_shape(&self, _q: &Query) -> bool {
        true
    }

    /// The clauses reduction must leave alone.
    fn keep(&self, _q: &Query) -> Keep {
        Keep::default()
    }

    /// The oracle's queries in a reproducer script, after the setup.
    fn script(&self, case: &SqlCase, d: &dyn Dialect, out: &mut String) {
        for (label, sql) in self.plan(&case.query, d) {
            let _ = writeln!(out, "-- {label}:\n{sql};");
        }
    }

    /// The oracle's queries in the reproducer of finding `ev`: `script`'s, unless they depend
    /// on what the engine answered (PQS's pivot row).
    fn finding_script(&self, case: &SqlCase, _ev: &Evidence, d: &dyn Dialect, out: &mut String) {
        self.script(case, d, out);
    }
}

/// The queries an oracle runs for a case (see `OracleRules::plan`).
pub fn plan(oracle: SqlOracle, q: &Query, d: &dyn Dialect) -> Vec<(String, String)> {
    oracle.rules().plan(q, d)
}

/// Runs an oracle's plan on each engine in turn and judges that engine's answers (in plan
/// order); the first finding or skip ends the check. `judge` says whether the answer was
/// non-empty.
fn on_each_engine(
    rules: &dyn OracleRules,
    case: &SqlCase,
    engines: &mut [Box<dyn Engine>],
    opts: &CheckOptions,
    judge: impl Fn(&mut dyn Engine, &[Rows]) -> Result<bool, Check>,
) -> Check {
    let mut nonempty = false;
    for e in engines.iter_mut() {
        let steps = rules.plan(&case.query, dialect_of(e.as_ref()));
        let mut results = Vec::with_capacity(steps.len());
        for (_, sql) in &steps {
            match rows_of(e.as_mut(), sql, opts) {
                Ok(r) => results.push(r),
                Err(c) => return c,
            }
        }
        match judge(e.as_mut(), &results) {
            Ok(n) => nonempty |= n,
            Err(c) => return c,
        }
    }
    Check::Pass { nonempty }
}

/// After `after`'s items were rewritten from `before`'s, its ORDER BY keys that were items
/// become the rewritten items: a DISTINCT query may order only by its items (PostgreSQL:
/// "for SELECT DISTINCT, ORDER BY expressions must appear in select list"). A key folded into
/// a constant orders nothing and goes (DuckDB refuses `ORDER BY FALSE`).
fn order_follows_items(before: &crate::ast::Select, after: &mut crate::ast::Select) {
    for o in &mut after.order_by {
        if let Some(i) = before.items.iter().position(|i| i.expr == o.expr) {
            if let Some(item) = after.items.get(i) {
                o.expr = item.expr.clone();
            }
        }
    }
    after.order_by.retain(|o| !matches!(o.expr, crate::ast::Expr::Lit(_)));
}

/// A logic finding of a metamorphic oracle on one engine.
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
        engines: vec![engine.info().label.clone()],
        summary: format!("{oracle}: {summary}"),
        expected,
        actual,
        key: key.into(),
        detail: crosscheck_core::Detail::none(),
    })
}

/// What an SQL finding keeps besides its summary, for its reproducer: the failing statement,
/// each engine's answer, the settings (by name) whose answer is not the default's.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Detail {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<EngineRows>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setting: Vec<String>,
}

/// One engine's answer, rendered.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct EngineRows {
    pub engine: String,
    pub rows: String,
}

impl Detail {
    /// The detail of a failing statement.
    pub fn statement(sql: &str) -> crosscheck_core::Detail {
        crosscheck_core::Detail::of(&Detail { sql: Some(sql.to_string()), ..Detail::default() })
    }
}

/// Booleans compare as 0/1: SQLite and MariaDB have no boolean type, and a setting may
/// change how an engine shows them.
fn bool_as_int() -> CompareOptions {
    CompareOptions { bool_as_int: true, ..CompareOptions::default() }
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

#[cfg(test)]
mod tests {
    use super::SqlOracle;
    use crosscheck_core::Oracle;

    #[test]
    fn names_round_trip_through_serde_and_parse() {
        for &o in SqlOracle::ALL {
            let json = serde_json::to_string(&o).expect("serializes");
            assert_eq!(json, format!("\"{}\"", o.name()));
            assert_eq!(serde_json::from_str::<SqlOracle>(&json).expect("parses"), o);
            assert_eq!(SqlOracle::parse(o.name()), Some(o));
        }
    }
}
