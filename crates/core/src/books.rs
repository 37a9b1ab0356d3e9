//! What the supervisor writes down: each finding to the store, under the bug deduplication
//! files it with, as a full directory (the first few of a bug, and a smaller reduced case) or
//! as a row, so that a flood of one failure neither fills the disk nor buries other bugs.

use crate::dedup::Dedup;
use crate::engine::EngineInfo;
use crate::kind::{Evidence, FindingClass, Kind, Oracle, Shape};
use crate::runner::Sink;
use crate::store::{FindingRecord, Store, StoreError};
use std::collections::HashMap;

/// What the store holds of one bug's occurrences in this campaign.
#[derive(Default)]
struct Kept {
    /// Full finding directories.
    dirs: u32,
    /// Rows in `findings.db`.
    rows: u32,
}

/// Occurrences of one bug recorded as rows, at most; past them a repeat only counts.
const ROWS_PER_BUG: u32 = 1000;

/// The findings of one campaign and the bugs they are: the supervisor's, and those of a
/// command that finds without workers (`crosscheck summary run`).
pub struct Books {
    campaign: i64,
    /// Full directories per bug (besides a smaller reduced case).
    keep: u32,
    /// Findings recorded, every occurrence counted.
    pub findings: u64,
    bugs: Dedup,
    kept: HashMap<String, Kept>,
}

impl Books {
    /// The books of `campaign`, keeping `keep` full directories per bug.
    pub fn new(campaign: i64, keep: u32) -> Books {
        Books { campaign, keep, findings: 0, bugs: Dedup::default(), kept: HashMap::new() }
    }

    /// Distinct bugs so far.
    pub fn distinct(&self) -> usize {
        self.bugs.len()
    }

    /// Writes a finding with its reproducers, counts it and reports it; its id and whether its
    /// signature is a new bug.
    pub fn record<K: Kind>(
        &mut self,
        kind: &K,
        store: &mut Store,
        sink: &mut dyn Sink,
        rec: &mut FindingRecord,
    ) -> Result<(String, bool), StoreError> {
        let (bucket, shape) = bug_of(kind, rec);
        let placed = self.bugs.place(&bucket, &shape);
        rec.signature = placed.signature;
        let folded: u32 = placed.merged.iter().filter_map(|m| self.kept.remove(m)).map(|k| k.rows).sum();
        let kept = self.kept.entry(rec.signature.clone()).or_default();
        kept.rows += folded;
        // The first of a bug (its reproducers are the bug's) and the next few.
        let keep = placed.new || kept.dirs < self.keep;
        let (id, new_bug) = if keep || kept.rows < ROWS_PER_BUG {
            kept.rows += 1;
            kept.dirs += u32::from(keep);
            let files = keep.then(|| reproducer_files(kind, rec));
            store.record(Some(self.campaign), rec, files.as_deref())?
        } else {
            store.count_repeat(&rec.signature)?;
            (String::new(), false)
        };
        if !placed.merged.is_empty() {
            // The merged bugs' directories hold larger cases of this bug: they become rows,
            // so a bug keeps its few directories however many provisional bugs it absorbs.
            store.merge_bugs(&rec.signature, &placed.merged)?;
        }
        self.findings += 1;
        sink.finding(rec, new_bug && placed.new);
        Ok((id, new_bug))
    }
}

/// The signature of a finding on its own: its bucket and the leg's shape of its best case.
pub fn signature<K: Kind>(kind: &K, rec: &FindingRecord) -> String {
    let (bucket, shape) = bug_of(kind, rec);
    format!("{bucket}|{shape}")
}

/// What deduplication files a finding under: its bucket (leg, oracle, class, engine) and the
/// leg's shape of its best case.
pub fn bug_of<K: Kind>(kind: &K, rec: &FindingRecord) -> (String, Shape) {
    let (case, ev) = rec.best_case();
    let oracle = K::Oracle::parse(&rec.oracle);
    let shape = match (serde_json::from_value::<K::Case>(case.clone()), oracle) {
        (Ok(c), Some(oracle)) => kind.signature(oracle, &c, ev),
        _ => Shape::new("?", []),
    };
    (bucket(&rec.kind, &rec.oracle, ev, &rec.engines), shape)
}

/// A finding's bucket, among the engines of its run. A wrong answer is keyed by its oracle and
/// the labels of the engines it names. An unexpected error, a crash or a hang is the same bug
/// whichever oracle's query met it and whichever label the engine had, so it is keyed by the
/// engine's name and version (`oxigraph` and `oxigraph@b` in a self-run are one engine; two
/// releases are two); a label no engine carries stays as it is.
pub fn bucket(kind: &str, oracle: &str, ev: &Evidence, engines: &[EngineInfo]) -> String {
    if !matches!(ev.class, FindingClass::Error | FindingClass::Crash | FindingClass::Hang) {
        return format!("{kind}|{oracle}|{}|{}", ev.class, ev.engine_label());
    }
    let mut who: Vec<String> = ev
        .engines
        .iter()
        .map(|l| match engines.iter().find(|e| &e.label == l) {
            Some(e) => format!("{} {}", e.name, e.version),
            None => l.clone(),
        })
        .collect();
    who.sort();
    who.dedup();
    format!("{kind}|*|{}|{}", ev.class, who.join(" vs "))
}

/// Native reproducers of the original case and, when reduced, of the reduced one.
pub fn reproducer_files<K: Kind>(kind: &K, rec: &FindingRecord) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let Some(oracle) = K::Oracle::parse(&rec.oracle) else { return files };
    if let Ok(c) = serde_json::from_value::<K::Case>(rec.case.clone()) {
        files.extend(kind.reproducers("repro", oracle, &c, &rec.evidence, &rec.engines));
    }
    if let Some(r) = &rec.reduced {
        if let Ok(c) = serde_json::from_value::<K::Case>(r.case.clone()) {
            files.extend(kind.reproducers("reduced", oracle, &c, &r.evidence, &rec.engines));
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::bucket;
    use crate::engine::EngineInfo;
    use crate::kind::{Detail, Evidence, FindingClass};

    fn info(name: &str, label: &str, version: &str) -> EngineInfo {
        EngineInfo { name: name.into(), label: label.into(), version: version.into(), ..EngineInfo::default() }
    }

    fn ev(class: FindingClass, engines: &[&str]) -> Evidence {
        let text = String::new;
        Evidence {
            class,
            engines: engines.iter().map(|e| e.to_string()).collect(),
            summary: text(),
            expected: text(),
            actual: text(),
            key: "panic: x".into(),
            detail: Detail::default(),
        }
    }

    /// One engine under two labels (a self-run) crashes into one bucket; another release of it,
    /// or a disagreement between the two labels, stays apart.
    #[test]
    fn a_crash_is_keyed_by_the_engine_not_its_label() {
        let run = [info("oxigraph", "oxigraph", "0.5.13"), info("oxigraph", "b", "0.5.13")];
        let crash = |label: &str| bucket("sparql", "differential", &ev(FindingClass::Crash, &[label]), &run);
        assert_eq!(crash("oxigraph"), crash("b"));
        assert_eq!(crash("b"), "sparql|*|crash|oxigraph 0.5.13");
        let other = [info("oxigraph", "oxigraph", "0.5.13"), info("oxigraph", "b", "0.4.11")];
        let old = bucket("sparql", "differential", &ev(FindingClass::Crash, &["b"]), &other);
        assert_ne!(old, crash("b"));
        let hang = bucket("sparql", "partition", &ev(FindingClass::Hang, &["oxigraph", "b"]), &run);
        assert_eq!(hang, "sparql|*|hang|oxigraph 0.5.13");
        let logic = ev(FindingClass::Logic, &["b", "oxigraph"]);
        assert_eq!(bucket("sparql", "differential", &logic, &run), "sparql|differential|logic|b vs oxigraph");
    }
}
