//! Fault injection: `mutant:<engine>:<fault>` wraps a correct engine and corrupts its answers,
//! so tests can show that each oracle catches the faults it claims to catch.

use crosscheck_core::{Engine, EngineInfo, SetupError};
use crosscheck_core::{Outcome, Verdict};
use std::time::Duration;

/// The faults a mutant can inject. Each is deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Drops one row of every non-empty result: the row at a position chosen by a hash of the
    /// query text. Real wrong answers depend on the query's form (its plan), not on where a row
    /// falls in the output, and a fault tied to output position is invisible to metamorphic
    /// oracles on an engine that sorts its output: dropping the largest tuple of every answer
    /// preserves equality, subset and superset between any two answers.
    DropRow,
    /// Duplicates the first row of every non-empty result.
    DupRow,
    /// Drops the last row, but only of queries that contain a `WHERE` clause (or a `FILTER`).
    WhereDrop,
    /// Turns `sat` into `unsat` and back.
    FlipVerdict,
    /// Kills the whole process with SIGSEGV on one query in 64 that returns rows or verdicts
    /// (chosen by a hash of its text, so a replay crashes again): an in-process engine crash,
    /// for crash isolation tests.
    Crash,
    /// Never returns on one query in 64 (same choice as `Crash`): an engine hang.
    Hang,
    /// UPDATE and DELETE also touch the rows on which their WHERE is NULL (the statement runs
    /// with `WHERE ((p) IS NOT FALSE)`), as an engine that reads an unknown filter as true in
    /// its DML path would; SELECT is left correct.
    DmlNullTrue,
    /// Drops the last row of queries that hold a subquery (a second `SELECT`): a wrong
    /// evaluation or unnesting of subqueries, which the same query with the subquery's
    /// answer written as constants does not meet (CODDTest's target).
    SubqueryDrop,
    /// Drops the last row of answers while the session runs under a changed setting: from a
    /// `SET` or `PRAGMA` statement until one that restores a default (`RESET`, `= DEFAULT`,
    /// `PRAGMA enable_...`). A wrong answer of one plan, which the default plan does not give
    /// (the target of `dqp` and `config`).
    SettingDrop,
    /// Multiplies the row estimates of an EXPLAIN's JSON plan (PostgreSQL's `Plan Rows`,
    /// DuckDB's `Estimated Cardinality`, MariaDB's `rows`) by 1000 for each `AND` in the
    /// statement: an estimator that takes a conjunct for a thousandfold more rows instead of
    /// fewer (the target of `cert`).
    InflateEstimate,
    /// Answers `sat` instead of `unsat` when the script asserts a disjunction at the top level
    /// (`(assert (or ...))`): a solver whose case split loses the conflict of a branch. An
    /// instance satisfiable by construction (STORM's) never shows it; an unsat fusion does.
    UnsatOrAsSat,
    /// Reads `(bvuge a b)` as `(bvule a b)`, its operands swapped (the script text is rewritten
    /// before the solver sees it): one mis-evaluated operator, which an operator mutant that
    /// introduces it shows against a correct solver, and seeds without it never do.
    BvugeSwapped,
}

pub const FAULTS: &[(&str, Fault)] = &[
    ("drop-row", Fault::DropRow),
    ("dup-row", Fault::DupRow),
    ("where-drop", Fault::WhereDrop),
    ("flip-verdict", Fault::FlipVerdict),
    ("crash", Fault::Crash),
    ("hang", Fault::Hang),
    ("dml-null-true", Fault::DmlNullTrue),
    ("subquery-drop", Fault::SubqueryDrop),
    ("setting-drop", Fault::SettingDrop),
    ("inflate-estimate", Fault::InflateEstimate),
    ("unsat-or-as-sat", Fault::UnsatOrAsSat),
    ("bvuge-swapped", Fault::BvugeSwapped),
];

/// FNV-1a: stable across runs and builds, so a replay injects the same fault.
fn text_hash(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Which of `n` rows `drop-row` drops from the answer to `text`. FNV-1a's bits are poorly
/// mixed for short texts, so they go through MurmurHash3's finalizer first.
fn dropped_row(text: &str, n: usize) -> usize {
    let mut h = text_hash(text);
    h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h = (h ^ (h >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    crosscheck_core::position(h ^ (h >> 33), n)
}

/// Whether a crash or hang fault fires on `text`.
pub fn fires_on(text: &str) -> bool {
    text_hash(text).is_multiple_of(64)
}

/// Splits `mutant:<engine>:<fault>` into the inner engine name and the fault.
pub fn parse(name: &str) -> Option<Result<(&str, Fault), String>> {
    let rest = name.strip_prefix("mutant:")?;
    let Some((inner, fault)) = rest.rsplit_once(':') else {
        return Some(Err(format!("mutant engine \"{name}\" must be written mutant:<engine>:<fault>")));
    };
    Some(match FAULTS.iter().find(|(n, _)| *n == fault) {
        Some((_, f)) => Ok((inner, *f)),
        None => {
            let known: Vec<&str> = FAULTS.iter().map(|(n, _)| *n).collect();
            Err(format!("unknown fault \"{fault}\" in \"{name}\" (known: {})", known.join(", ")))
        }
    })
}

/// An engine that answers like `inner`, corrupted by `fault`.
pub struct Mutant {
    inner: Box<dyn Engine>,
    fault: Fault,
    info: EngineInfo,
    /// A setting statement changed the session (for `SettingDrop`).
    changed: bool,
}

impl Mutant {
    pub fn new(inner: Box<dyn Engine>, fault: Fault, full_name: &str, label: Option<&str>) -> Mutant {
        let mut info = inner.info().clone();
        info.name = full_name.to_string();
        info.label = label.map(str::to_string).unwrap_or_else(|| full_name.to_string());
        Mutant { inner, fault, info, changed: false }
    }
}

/// `UPDATE ... WHERE p` / `DELETE ... WHERE p` rewritten to filter with `(p) IS NOT FALSE`
/// (the first WHERE is the statement's own: crosscheck prints none before it); `None` for any
/// other statement.
fn null_as_true(text: &str) -> Option<String> {
    let upper = text.trim_start().to_ascii_uppercase();
    if !(upper.starts_with("UPDATE ") || upper.starts_with("DELETE ")) {
        return None;
    }
    let at = text.to_ascii_uppercase().find(" WHERE ")?;
    let (head, pred) = (&text[..at], &text[at + " WHERE ".len()..]);
    Some(format!("{head} WHERE (({pred}) IS NOT FALSE)"))
}

fn has_where(text: &str) -> bool {
    words(text).any(|w| w == "WHERE" || w == "FILTER")
}

/// The words of a statement, upper-cased.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').map(|w| w.to_ascii_uppercase())
}

fn has_subquery(text: &str) -> bool {
    words(text).filter(|w| w == "SELECT").count() > 1
}

/// `cell` with each row estimate of a JSON plan multiplied by `factor`.
fn inflate(cell: &str, factor: u64) -> String {
    const KEYS: &[&str] = &["\"Plan Rows\": ", "\"Estimated Cardinality\": \"", "\"rows\": "];
    let mut out = String::with_capacity(cell.len());
    let mut rest = cell;
    while let Some((at, key)) = KEYS.iter().filter_map(|k| rest.find(k).map(|i| (i, k))).min() {
        let start = at + key.len();
        out.push_str(&rest[..start]);
        let digits = rest[start..].bytes().take_while(u8::is_ascii_digit).count();
        match rest[start..start + digits].parse::<u64>() {
            Ok(n) => out.push_str(&n.saturating_mul(factor).to_string()),
            Err(_) => out.push_str(&rest[start..start + digits]),
        }
        rest = &rest[start + digits..];
    }
    out.push_str(rest);
    out
}

/// Whether a statement changes a setting (`Some(true)`), restores a default (`Some(false)`), or
/// is no setting statement.
fn setting_change(text: &str) -> Option<bool> {
    let mut w = words(text).filter(|w| !w.is_empty());
    match (w.next()?.as_str(), w.next()) {
        ("RESET", _) => Some(false),
        // DuckDB's `PRAGMA enable_optimizer` undoes `PRAGMA disable_optimizer`.
        ("PRAGMA", Some(name)) => Some(!name.starts_with("ENABLE_")),
        ("SET", _) => Some(!words(text).any(|w| w == "DEFAULT")),
        _ => None,
    }
}

impl Engine for Mutant {
    fn info(&self) -> &EngineInfo {
        &self.info
    }

    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }

    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let rewritten = match self.fault {
            Fault::DmlNullTrue => null_as_true(text),
            Fault::BvugeSwapped if text.contains("(bvuge ") => Some(text.replace("(bvuge ", "(bvule ")),
            _ => None,
        };
        let mut out = self.inner.run(rewritten.as_deref().unwrap_or(text), limit);
        if let Some(changed) = setting_change(text) {
            self.changed = changed;
        }
        // Only queries with answers crash or hang: a fault in a setup statement would poison
        // every case of its database, which tests nothing more.
        let answered = matches!(out, Outcome::Rows(_) | Outcome::Verdicts { .. });
        match self.fault {
            Fault::Crash if answered && fires_on(text) => {
                // Rust's runtime handles SIGSEGV to report stack overflows and returns from a
                // raised one, so the default action is restored first.
                // SAFETY: resetting a disposition and raising a signal touch no memory.
                unsafe {
                    libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                    libc::raise(libc::SIGSEGV);
                }
            }
            Fault::Hang if answered && fires_on(text) => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            _ => {}
        }
        match (&mut out, self.fault) {
            (Outcome::Rows(r), Fault::DropRow) if !r.rows.is_empty() => {
                r.rows.remove(dropped_row(text, r.rows.len()));
            }
            (Outcome::Rows(r), Fault::WhereDrop) if has_where(text) => {
                r.rows.pop();
            }
            (Outcome::Rows(r), Fault::SubqueryDrop) if has_subquery(text) => {
                r.rows.pop();
            }
            (Outcome::Rows(r), Fault::SettingDrop) if self.changed => {
                r.rows.pop();
            }
            (Outcome::Rows(r), Fault::InflateEstimate)
                if words(text).find(|w| !w.is_empty()).as_deref() == Some("EXPLAIN") =>
            {
                let ands = u32::try_from(words(text).filter(|w| w == "AND").count()).unwrap_or(u32::MAX);
                let factor = 1000u64.saturating_pow(ands);
                for v in r.rows.iter_mut().flatten() {
                    if let crosscheck_core::Value::Text(t) = v {
                        *t = inflate(t, factor);
                    }
                }
            }
            (Outcome::Rows(r), Fault::DupRow) => {
                if let Some(first) = r.rows.first().cloned() {
                    r.rows.insert(0, first);
                }
            }
            (Outcome::Verdicts { answers, .. }, Fault::UnsatOrAsSat) if text.contains("(assert (or ") => {
                for a in answers.iter_mut().filter(|a| **a == Verdict::Unsat) {
                    *a = Verdict::Sat;
                }
            }
            (Outcome::Verdicts { answers, .. }, Fault::FlipVerdict) => {
                for a in answers.iter_mut() {
                    *a = match *a {
                        Verdict::Sat => Verdict::Unsat,
                        Verdict::Unsat => Verdict::Sat,
                        Verdict::Unknown => Verdict::Unknown,
                    };
                }
            }
            _ => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mutant_names() {
        assert_eq!(parse("sqlite"), None);
        assert_eq!(parse("mutant:sqlite:drop-row"), Some(Ok(("sqlite", Fault::DropRow))));
        assert_eq!(
            parse("mutant:mutant:sqlite:dup-row:where-drop"),
            Some(Ok(("mutant:sqlite:dup-row", Fault::WhereDrop)))
        );
        assert!(matches!(parse("mutant:sqlite:nope"), Some(Err(_))));
        assert!(matches!(parse("mutant:sqlite"), Some(Err(_))));
    }

    #[test]
    fn drop_row_position_follows_the_query_text() {
        // Same text, same row (a replay reproduces); other texts spread over every position.
        assert_eq!(dropped_row("SELECT 1", 7), dropped_row("SELECT 1", 7));
        let hit: std::collections::BTreeSet<usize> = (0..200).map(|i| dropped_row(&format!("q{i}"), 4)).collect();
        assert_eq!(hit.len(), 4, "{hit:?}");
        assert!((0..50).all(|i| dropped_row(&format!("q{i}"), 1) == 0));
    }

    #[test]
    fn dml_null_true_widens_only_update_and_delete() {
        assert_eq!(
            null_as_true("DELETE FROM t0 WHERE (t0.c0 > 1)").as_deref(),
            Some("DELETE FROM t0 WHERE (((t0.c0 > 1)) IS NOT FALSE)")
        );
        assert_eq!(
            null_as_true("UPDATE t0 SET c0 = 1 WHERE t0.c1").as_deref(),
            Some("UPDATE t0 SET c0 = 1 WHERE ((t0.c1) IS NOT FALSE)")
        );
        assert_eq!(null_as_true("SELECT * FROM t0 WHERE (t0.c0 > 1)"), None);
        assert_eq!(null_as_true("UPDATE t0 SET c0 = 1"), None);
    }

    #[test]
    fn where_detection_is_by_word() {
        assert!(has_where("SELECT * FROM t WHERE a"));
        assert!(has_where("select * from t\nwhere(a)"));
        assert!(!has_where("SELECT nowhere FROM t"));
        assert!(has_subquery("SELECT * FROM t WHERE c IN (select 1)"));
        assert!(!has_subquery("SELECT selected FROM t"));
        assert_eq!(setting_change("SET enable_seqscan = off"), Some(true));
        assert_eq!(setting_change("SET jit = off"), Some(true));
        assert_eq!(setting_change("PRAGMA disable_optimizer"), Some(true));
        assert_eq!(setting_change("RESET enable_seqscan"), Some(false));
        assert_eq!(setting_change("SET optimizer_switch = DEFAULT"), Some(false));
        assert_eq!(setting_change("PRAGMA enable_optimizer"), Some(false));
        assert_eq!(setting_change("SELECT 1"), None);
    }

    #[test]
    fn estimates_are_inflated_in_place() {
        assert_eq!(
            inflate(r#"{"Plan Rows": 12, "Plans": [{"Plan Rows": 3}]}"#, 2),
            r#"{"Plan Rows": 24, "Plans": [{"Plan Rows": 6}]}"#
        );
        assert_eq!(inflate(r#"{"Estimated Cardinality": "7"}"#, 3), r#"{"Estimated Cardinality": "21"}"#);
        assert_eq!(inflate(r#"{"rows": 4, "filtered": 50}"#, 2), r#"{"rows": 8, "filtered": 50}"#);
    }
}
