//! A summary run's wrong answers as findings of the store `crosscheck run` writes: each first
//! wrong answer of a query is checked again on a fresh database (the leg's own case, oracle
//! `summary`), reduced with that oracle as the interestingness test, and recorded under the
//! bug deduplication files it with, so `findings`, `replay`, `reduce` and `report` read it as
//! they read any finding.

use crate::errors::{user, Result};
use crosscheck_core::books::{bucket, Books};
use crosscheck_core::dedup::Dedup;
use crosscheck_core::store::{now_unix, FindingRecord, Reduced, Store};
use crosscheck_core::worker::reduce_case;
use crosscheck_core::{Check, CheckOptions, Detail, Engine, EngineInfo, Evidence, FindingClass, Helpers, Kind, Oracle};
use crosscheck_core::{Outcome, Rows};
use crosscheck_sql::case::SqlCase;
use crosscheck_sql::oracles::render;
use crosscheck_sql::summary::check::Wrong;
use crosscheck_sql::SqlKind;
use std::time::{Duration, Instant};

/// A distinct wrong answer of one engine: its case, what a fresh check said, its reduction.
pub struct Found {
    pub engine: EngineInfo,
    pub spec: String,
    pub case: SqlCase,
    pub evidence: Evidence,
    pub reduced: Option<Reduced>,
    /// Tests that answered this query wrongly in this way.
    pub count: u64,
}

/// What a part of the run knows of the bugs it has reduced, so a wrong answer a known bug
/// explains is not reduced again.
pub type Known = Dedup;

/// Checks `case` again on a fresh database and reduces it. A wrong answer the fresh database
/// does not repeat is kept with the clustered run's evidence: the engine answered wrongly
/// after the inserts and deletes of the trie, which is a finding of its own.
#[allow(clippy::too_many_arguments)]
pub fn confirm(
    engine: &mut Box<dyn Engine>,
    spec: &str,
    case: SqlCase,
    expected: &Rows,
    answer: &Outcome,
    wrong: &Wrong,
    limit: Duration,
    reduce_time: Duration,
    known: &mut Known,
) -> Found {
    let info = engine.info().clone();
    let opts = CheckOptions { timeout: limit };
    let engines = std::slice::from_mut(engine);
    let fresh = match SqlKind.prepare(&case, engines, &opts) {
        Check::Pass { .. } => SqlKind.check(case.oracle, &case, engines, &opts),
        other => other,
    };
    let Check::Finding(evidence) = fresh else {
        let fresh = match fresh {
            Check::Skip(why) => format!("is no test there ({why})"),
            _ => "answer rightly".to_string(),
        };
        let evidence = after_undo(&info, expected, answer, wrong, &fresh);
        return Found { engine: info, spec: spec.to_string(), case, evidence, reduced: None, count: 1 };
    };
    let evidence = *evidence;
    let b = bucket(SqlKind::NAME, case.oracle.name(), &evidence, std::slice::from_ref(&info));
    let shape = SqlKind.signature(case.oracle, &case, &evidence);
    let reduced = (!reduce_time.is_zero() && !known.covers(&b, &shape))
        .then(|| {
            let deadline = Instant::now() + reduce_time;
            let pair = (engines, &mut Helpers::none());
            reduce_case(&SqlKind, case.oracle, &case, &evidence, pair, &opts, deadline, None)
        })
        .flatten();
    let small = reduced.as_ref().and_then(|r| serde_json::from_value::<SqlCase>(r.case.clone()).ok());
    let shape = small.map_or(shape, |c| SqlKind.signature(case.oracle, &c, &evidence));
    known.place(&b, &shape);
    Found { engine: info, spec: spec.to_string(), case, evidence, reduced, count: 1 }
}

/// The evidence of a wrong answer only the clustered run saw.
fn after_undo(info: &EngineInfo, expected: &Rows, answer: &Outcome, wrong: &Wrong, fresh: &str) -> Evidence {
    let class = match wrong {
        Wrong::Rows { .. } => FindingClass::Logic,
        Wrong::Error { .. } => FindingClass::Error,
        Wrong::Lost { .. } => FindingClass::Crash,
    };
    let actual = match answer {
        Outcome::Rows(r) => render(r),
        other => other.to_string(),
    };
    Evidence {
        class,
        engines: vec![info.label.clone()],
        summary: format!(
            "summary: {wrong} in the clustered run (after its inserts and deletes); the same rows \
             inserted into a fresh database {fresh}"
        ),
        expected: render(expected),
        actual,
        key: format!("{}-after-undo", wrong.class()),
        detail: Detail::none(),
    }
}

/// What the store keeps of a summary run's end.
#[derive(serde::Serialize)]
struct Ended {
    findings: u64,
    distinct: usize,
}

/// Records every distinct wrong answer in the store at `out`, as one campaign; the number of
/// distinct bugs.
pub fn record(out: &std::path::Path, found: &[Found], keep: u32, limit: Duration) -> Result<usize> {
    let mut store = Store::open(out).map_err(|e| user(format!("{}: {e}", out.display())))?;
    let argv: Vec<String> = std::env::args().collect();
    let campaign = store.begin_campaign(SqlKind::NAME, &argv.join(" "), 0).map_err(|e| user(e.to_string()))?;
    let mut books = Books::new(campaign, keep);
    let mut sink = crate::run::Terminal { out: out.to_path_buf() };
    for (i, f) in found.iter().enumerate() {
        let mut rec = FindingRecord {
            format: crosscheck_core::store::FORMAT,
            id: String::new(),
            tool_version: crosscheck_core::TOOL_VERSION.to_string(),
            kind: SqlKind::NAME.to_string(),
            oracle: f.case.oracle.name().to_string(),
            engines: vec![f.engine.clone()],
            engine_specs: vec![f.spec.clone()],
            campaign_seed: 0,
            worker: 0,
            worker_seed: 0,
            index: i as u64,
            timeout_ms: crosscheck_core::millis(limit),
            evidence: f.evidence.clone(),
            case: serde_json::to_value(&f.case).map_err(|e| user(e.to_string()))?,
            reduced: f.reduced.clone(),
            signature: String::new(),
            created_unix: now_unix(),
            // A summary's case comes from its spec, which no generator index rebuilds.
            adaptive: true,
        };
        books.record(&SqlKind, &mut store, &mut sink, &mut rec).map_err(|e| user(e.to_string()))?;
    }
    let ended = Ended { findings: books.findings, distinct: books.distinct() };
    let summary = serde_json::to_string(&ended).map_err(|e| user(e.to_string()))?;
    store.end_campaign(campaign, &summary).map_err(|e| user(e.to_string()))?;
    Ok(books.distinct())
}
