//! The campaign record on disk: `findings.db` (SQLite, WAL) and `findings/<id>/` directories
//! holding `finding.json` and the native reproducers.
//!
//! Architecture invariant: this is the only module that knows the on-disk layout. A finding is
//! durable once [`Store::record`] returns: files are written to a temporary directory, synced
//! and renamed into place before the database row is committed with `synchronous = FULL`.

use crate::engine::EngineInfo;
use crate::kind::Evidence;
use crate::reduce::ReduceStats;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Version of `finding.json` and `findings.db`.
pub const FORMAT: u32 = 2;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot use output directory {path}: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("findings database {path}: {source}")]
    Db { path: PathBuf, source: rusqlite::Error },
    #[error("{path} is not a finding directory: {reason}")]
    NotAFinding { path: PathBuf, reason: String },
}

/// A reduced version of a finding's test case.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reduced {
    pub case: serde_json::Value,
    pub evidence: Evidence,
    pub stats: ReduceStats,
}

/// Everything needed to replay a finding without the generator: the contents of `finding.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingRecord {
    pub format: u32,
    /// Assigned by the store.
    #[serde(default)]
    pub id: String,
    pub tool_version: String,
    pub kind: String,
    pub oracle: String,
    pub engines: Vec<EngineInfo>,
    /// The engines as given on the command line (`name[@label][=location]`), to reopen them.
    pub engine_specs: Vec<String>,
    pub campaign_seed: u64,
    pub worker: u32,
    pub worker_seed: u64,
    pub index: u64,
    /// Per-statement time limit of the campaign, in milliseconds.
    pub timeout_ms: u64,
    pub evidence: Evidence,
    pub case: serde_json::Value,
    pub reduced: Option<Reduced>,
    /// Deduplication signature (of the reduced case when there is one).
    pub signature: String,
    pub created_unix: u64,
    /// The case came from an adaptive generator (`Generator::adaptive`): its index cannot
    /// rebuild it, so a finding kept as a row keeps its case.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub adaptive: bool,
}

impl FindingRecord {
    /// The record a row keeps: less the case, which the generator rebuilds from its index,
    /// unless it cannot.
    fn as_row(&self) -> Option<String> {
        let case = if self.adaptive { self.case.clone() } else { serde_json::Value::Null };
        serde_json::to_string(&FindingRecord { case, ..self.clone() }).ok()
    }

    /// The case a replay should run: the reduced one when present.
    pub fn best_case(&self) -> (&serde_json::Value, &Evidence) {
        match &self.reduced {
            Some(r) => (&r.case, &r.evidence),
            None => (&self.case, &self.evidence),
        }
    }
}

/// One distinct bug: findings grouped by signature.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BugRow {
    pub id: i64,
    pub signature: String,
    pub kind: String,
    pub oracle: String,
    pub class: String,
    pub engine: String,
    pub count: i64,
    pub first_finding: String,
    pub summary: String,
    /// The directory of the first finding, holding its reproducers.
    pub dir: String,
}

/// One point of a campaign's time series: the supervisor's progress summary every few seconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgressPoint {
    pub elapsed_sec: f64,
    pub tests: u64,
    pub tests_per_sec: f64,
    pub valid_pct: f64,
    pub nonempty_pct: f64,
    pub findings: u64,
    pub distinct: u64,
}

/// One campaign that wrote to this record; `summary` is the final JSON summary, absent when
/// the campaign was killed before it ended.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CampaignRow {
    pub id: i64,
    pub started_unix: u64,
    pub kind: String,
    pub args: String,
    pub seed: u64,
    pub summary: Option<String>,
}

/// Number of findings of one oracle on one engine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FindingCount {
    pub oracle: String,
    pub engine: String,
    pub count: i64,
}

/// An open campaign record.
pub struct Store {
    dir: PathBuf,
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY, started_unix INTEGER NOT NULL, kind TEXT NOT NULL, args TEXT NOT NULL,
    seed INTEGER NOT NULL, summary TEXT);
CREATE TABLE IF NOT EXISTS bugs (
    id INTEGER PRIMARY KEY, signature TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, oracle TEXT NOT NULL,
    class TEXT NOT NULL, engine TEXT NOT NULL, first_finding TEXT NOT NULL, summary TEXT NOT NULL,
    count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS findings (
    seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, campaign INTEGER, created_unix INTEGER NOT NULL,
    kind TEXT NOT NULL, oracle TEXT NOT NULL, class TEXT NOT NULL, engine TEXT NOT NULL,
    summary TEXT NOT NULL, signature TEXT NOT NULL, bug INTEGER NOT NULL REFERENCES bugs(id),
    dir TEXT NOT NULL, size_before INTEGER, size_after INTEGER, worker_seed INTEGER, idx INTEGER, record TEXT);
CREATE TABLE IF NOT EXISTS progress (
    campaign INTEGER NOT NULL, elapsed_sec REAL NOT NULL, tests INTEGER NOT NULL, tests_per_sec REAL NOT NULL,
    valid_pct REAL NOT NULL, nonempty_pct REAL NOT NULL, findings INTEGER NOT NULL, distinct_bugs INTEGER NOT NULL);
";

impl Store {
    /// Opens (creating if needed) the record in `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let derr = |source| StoreError::Dir { path: dir.to_path_buf(), source };
        fs::create_dir_all(dir.join("findings")).map_err(derr)?;
        // Fail early on a read-only directory rather than at the first finding.
        let probe = dir.join(".crosscheck-write-test");
        fs::write(&probe, b"").map_err(derr)?;
        let _ = fs::remove_file(&probe);
        let path = db_path(dir);
        let dberr = |source| StoreError::Db { path: path.clone(), source };
        let conn = Connection::open(&path).map_err(dberr)?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(dberr)?;
        conn.pragma_update(None, "journal_mode", "WAL").map_err(dberr)?;
        // NORMAL in WAL mode: a commit survives the process dying at any point (an engine
        // taking the machine down is another matter); FULL synced every one of a flood's rows.
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(dberr)?;
        conn.execute_batch(SCHEMA).map_err(dberr)?;
        // Records made before a finding could be a row without a directory lack the columns
        // a replay rebuilds it from; the error of a column that exists is the expected one.
        for column in ["worker_seed INTEGER", "idx INTEGER", "record TEXT"] {
            let _ = conn.execute(&format!("ALTER TABLE findings ADD COLUMN {column}"), []);
        }
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?1)", params![FORMAT.to_string()]).map_err(dberr)?;
        Ok(Store { dir: dir.to_path_buf(), conn })
    }

    /// The directory of finding `id`.
    pub fn finding_dir(&self, id: &str) -> PathBuf {
        finding_dir(&self.dir, id)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn db_err(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Db { path: db_path(&self.dir), source }
    }

    pub fn begin_campaign(&self, kind: &str, args: &str, seed: u64) -> Result<i64, StoreError> {
        self.conn
            .execute(
                "INSERT INTO campaigns (started_unix, kind, args, seed) VALUES (?1, ?2, ?3, ?4)",
                params![now_unix() as i64, kind, args, seed as i64],
            )
            .map_err(|e| self.db_err(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    pub fn end_campaign(&self, campaign: i64, summary: &str) -> Result<(), StoreError> {
        self.conn
            .execute("UPDATE campaigns SET summary = ?1 WHERE id = ?2", params![summary, campaign])
            .map_err(|e| self.db_err(e))?;
        Ok(())
    }

    /// Writes a finding durably, with its directory of files when `files` is given (else as a
    /// row a replay can rebuild it from); returns its id and whether its signature is a new bug.
    pub fn record(
        &mut self,
        campaign: Option<i64>,
        rec: &mut FindingRecord,
        files: Option<&[(String, String)]>,
    ) -> Result<(String, bool), StoreError> {
        let path = db_path(&self.dir);
        let dbe = |source| StoreError::Db { path: path.clone(), source };
        // IMMEDIATE: another process (a background `crosscheck reduce`) may write too, and a
        // read transaction upgraded to a write one would fail at once instead of waiting.
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(dbe)?;
        let seq: i64 = tx.query_row("SELECT COALESCE(MAX(seq), 0) + 1 FROM findings", [], |r| r.get(0)).map_err(dbe)?;
        let id = format!("{seq:05}-{}-{}", rec.kind, rec.oracle);
        rec.id = id.clone();
        // A finding without a directory keeps its record less the case, which its generator
        // rebuilds from the worker's seed and the case's index.
        let (dir, record) = match files {
            Some(files) => {
                write_dir(&self.dir, rec, files)?;
                (format!("findings/{id}"), None)
            }
            None => (String::new(), rec.as_row()),
        };
        let existing: Option<i64> = tx
            .query_row("SELECT id FROM bugs WHERE signature = ?1", params![rec.signature], |r| r.get(0))
            .optional()
            .map_err(dbe)?;
        let new_bug = existing.is_none();
        let bug = match existing {
            Some(b) => {
                tx.execute("UPDATE bugs SET count = count + 1 WHERE id = ?1", params![b]).map_err(dbe)?;
                b
            }
            None => insert_bug(&tx, rec, &id, 1).map_err(dbe)?,
        };
        let (before, after) = match &rec.reduced {
            Some(r) => (Some(r.stats.size_before as i64), Some(r.stats.size_after as i64)),
            None => (None, None),
        };
        tx.execute(
            "INSERT INTO findings (seq, id, campaign, created_unix, kind, oracle, class, engine, summary,
             signature, bug, dir, size_before, size_after, worker_seed, idx, record)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            params![
                seq,
                id,
                campaign,
                rec.created_unix as i64,
                rec.kind,
                rec.oracle,
                rec.evidence.class.to_string(),
                rec.evidence.engine_label(),
                rec.evidence.summary,
                rec.signature,
                bug,
                dir,
                before,
                after,
                rec.worker_seed as i64,
                rec.index as i64,
                record
            ],
        )
        .map_err(dbe)?;
        tx.commit().map_err(dbe)?;
        Ok((id, new_bug))
    }

    /// Counts one more occurrence of a known bug without a row of its own.
    pub fn count_repeat(&self, signature: &str) -> Result<(), StoreError> {
        self.conn
            .execute("UPDATE bugs SET count = count + 1 WHERE signature = ?1", params![signature])
            .map_err(|e| self.db_err(e))?;
        Ok(())
    }

    /// Files the findings of the bugs signed `from` under the bug signed `into`, which a
    /// smaller case showed to be the same.
    pub fn merge_bugs(&mut self, into: &str, from: &[String]) -> Result<(), StoreError> {
        let path = db_path(&self.dir);
        let dbe = |source| StoreError::Db { path: path.clone(), source };
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(dbe)?;
        let target: Option<i64> = tx
            .query_row("SELECT id FROM bugs WHERE signature = ?1", params![into], |r| r.get(0))
            .optional()
            .map_err(dbe)?;
        let Some(target) = target else { return Ok(()) };
        let mut gone = Vec::new();
        for sig in from.iter().filter(|s| s.as_str() != into) {
            let old: Option<(i64, i64)> = tx
                .query_row("SELECT id, count FROM bugs WHERE signature = ?1", params![sig], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()
                .map_err(dbe)?;
            let Some((old, count)) = old else { continue };
            gone.extend(demote_dirs(&self.dir, &tx, old).map_err(dbe)?);
            tx.execute("UPDATE findings SET bug = ?1 WHERE bug = ?2", params![target, old]).map_err(dbe)?;
            tx.execute("UPDATE bugs SET count = count + ?1 WHERE id = ?2", params![count, target]).map_err(dbe)?;
            tx.execute("DELETE FROM bugs WHERE id = ?1", params![old]).map_err(dbe)?;
        }
        tx.commit().map_err(dbe)?;
        for dir in gone {
            let _ = fs::remove_dir_all(dir);
        }
        Ok(())
    }

    /// Replaces a finding's record after an offline reduction, moving it to the bug of its
    /// new signature.
    pub fn update_reduced(&mut self, rec: &FindingRecord) -> Result<(), StoreError> {
        let path = db_path(&self.dir);
        let dbe = |source| StoreError::Db { path: path.clone(), source };
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(dbe)?;
        let bug: Option<i64> = tx
            .query_row("SELECT id FROM bugs WHERE signature = ?1", params![rec.signature], |r| r.get(0))
            .optional()
            .map_err(dbe)?;
        let bug = match bug {
            Some(b) => b,
            None => insert_bug(&tx, rec, &rec.id, 0).map_err(dbe)?,
        };
        let old: Option<i64> = tx
            .query_row("SELECT bug FROM findings WHERE id = ?1", params![rec.id], |r| r.get(0))
            .optional()
            .map_err(dbe)?;
        if let Some(old) = old {
            if old != bug {
                tx.execute("UPDATE bugs SET count = count - 1 WHERE id = ?1", params![old]).map_err(dbe)?;
                tx.execute("UPDATE bugs SET count = count + 1 WHERE id = ?1", params![bug]).map_err(dbe)?;
            }
            let (before, after) = match &rec.reduced {
                Some(r) => (Some(r.stats.size_before as i64), Some(r.stats.size_after as i64)),
                None => (None, None),
            };
            tx.execute(
                "UPDATE findings SET signature = ?1, bug = ?2, size_before = ?3, size_after = ?4 WHERE id = ?5",
                params![rec.signature, bug, before, after, rec.id],
            )
            .map_err(dbe)?;
        }
        tx.execute("DELETE FROM bugs WHERE count <= 0", []).map_err(dbe)?;
        tx.commit().map_err(dbe)
    }

    /// The distinct bugs, most frequent first.
    pub fn bugs(&self) -> Result<Vec<BugRow>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, signature, kind, oracle, class, engine, count, first_finding, summary FROM bugs
                 WHERE count > 0 ORDER BY count DESC, id",
            )
            .map_err(|e| self.db_err(e))?;
        let rows = stmt
            .query_map([], |r| {
                let first: String = r.get(7)?;
                Ok(BugRow {
                    id: r.get(0)?,
                    signature: r.get(1)?,
                    kind: r.get(2)?,
                    oracle: r.get(3)?,
                    class: r.get(4)?,
                    engine: r.get(5)?,
                    count: r.get(6)?,
                    dir: format!("findings/{first}"),
                    first_finding: first,
                    summary: r.get(8)?,
                })
            })
            .map_err(|e| self.db_err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.db_err(e))
    }

    /// Appends one point to a campaign's time series.
    pub fn record_progress(&self, campaign: i64, p: &ProgressPoint) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO progress (campaign, elapsed_sec, tests, tests_per_sec, valid_pct, nonempty_pct,
                 findings, distinct_bugs) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    campaign,
                    p.elapsed_sec,
                    p.tests as i64,
                    p.tests_per_sec,
                    p.valid_pct,
                    p.nonempty_pct,
                    p.findings as i64,
                    p.distinct as i64
                ],
            )
            .map_err(|e| self.db_err(e))?;
        Ok(())
    }

    /// A campaign's time series, oldest first.
    pub fn progress(&self, campaign: i64) -> Result<Vec<ProgressPoint>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT elapsed_sec, tests, tests_per_sec, valid_pct, nonempty_pct, findings, distinct_bugs
                 FROM progress WHERE campaign = ?1 ORDER BY elapsed_sec, rowid",
            )
            .map_err(|e| self.db_err(e))?;
        let rows = stmt
            .query_map(params![campaign], |r| {
                Ok(ProgressPoint {
                    elapsed_sec: r.get(0)?,
                    tests: r.get::<_, i64>(1)?.max(0) as u64,
                    tests_per_sec: r.get(2)?,
                    valid_pct: r.get(3)?,
                    nonempty_pct: r.get(4)?,
                    findings: r.get::<_, i64>(5)?.max(0) as u64,
                    distinct: r.get::<_, i64>(6)?.max(0) as u64,
                })
            })
            .map_err(|e| self.db_err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.db_err(e))
    }

    /// The campaigns of this record, oldest first.
    pub fn campaigns(&self) -> Result<Vec<CampaignRow>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, started_unix, kind, args, seed, summary FROM campaigns ORDER BY id")
            .map_err(|e| self.db_err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(CampaignRow {
                    id: r.get(0)?,
                    started_unix: r.get::<_, i64>(1)?.max(0) as u64,
                    kind: r.get(2)?,
                    args: r.get(3)?,
                    // Seeds are stored as i64 bit patterns.
                    seed: r.get::<_, i64>(4)? as u64,
                    summary: r.get(5)?,
                })
            })
            .map_err(|e| self.db_err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.db_err(e))
    }

    /// Findings per oracle and engine.
    pub fn finding_counts(&self) -> Result<Vec<FindingCount>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT oracle, engine, COUNT(*) FROM findings GROUP BY oracle, engine ORDER BY oracle, engine")
            .map_err(|e| self.db_err(e))?;
        let rows = stmt
            .query_map([], |r| Ok(FindingCount { oracle: r.get(0)?, engine: r.get(1)?, count: r.get(2)? }))
            .map_err(|e| self.db_err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.db_err(e))
    }

    /// Number of findings recorded.
    pub fn finding_count(&self) -> Result<i64, StoreError> {
        self.conn.query_row("SELECT COUNT(*) FROM findings", [], |r| r.get(0)).map_err(|e| self.db_err(e))
    }
}

/// Writes a finding's directory whole or not at all: files go to a temporary directory
/// that is renamed into place.
fn write_dir(root: &Path, rec: &FindingRecord, files: &[(String, String)]) -> Result<(), StoreError> {
    let final_dir = finding_dir(root, &rec.id);
    let tmp_dir = root.join("findings").join(format!(".tmp-{}", rec.id));
    let _ = fs::remove_dir_all(&tmp_dir);
    fs::create_dir_all(&tmp_dir).map_err(|source| StoreError::Write { path: tmp_dir.clone(), source })?;
    write_finding_files(&tmp_dir, rec, files)?;
    let _ = fs::remove_dir_all(&final_dir);
    fs::rename(&tmp_dir, &final_dir).map_err(|source| StoreError::Write { path: final_dir.clone(), source })?;
    sync_dir(&root.join("findings"));
    Ok(())
}

/// Turns the finding directories of bug `bug` into rows: each keeps its record less the case
/// (`FindingRecord::as_row`), which replay rebuilds. A directory that cannot be read stays as it is. The directories to
/// remove are returned: they go once the rows are committed, so a crash in between leaves an
/// unreferenced directory, never a row pointing at nothing.
fn demote_dirs(root: &Path, tx: &rusqlite::Transaction<'_>, bug: i64) -> rusqlite::Result<Vec<PathBuf>> {
    let dirs: Vec<(String, String)> = tx
        .prepare("SELECT id, dir FROM findings WHERE bug = ?1 AND dir != ''")?
        .query_map(params![bug], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut gone = Vec::new();
    for (id, dir) in dirs {
        let Ok(rec) = load_finding(&root.join(&dir)) else { continue };
        let Some(record) = rec.as_row() else { continue };
        tx.execute("UPDATE findings SET dir = '', record = ?1 WHERE id = ?2", params![record, id])?;
        gone.push(root.join(&dir));
    }
    Ok(gone)
}

/// Writes `finding.json` and reproducer files into `dir`, syncing each.
pub fn write_finding_files(dir: &Path, rec: &FindingRecord, files: &[(String, String)]) -> Result<(), StoreError> {
    let json = serde_json::to_string_pretty(rec).map_err(|e| StoreError::Write {
        path: dir.join("finding.json"),
        source: std::io::Error::other(e.to_string()),
    })?;
    write_synced(&dir.join("finding.json"), json.as_bytes())?;
    for (name, contents) in files {
        write_synced(&dir.join(name), contents.as_bytes())?;
    }
    sync_dir(dir);
    Ok(())
}

/// Rewrites one file of a finding directory atomically (temp file, sync, rename).
pub fn replace_file(dir: &Path, name: &str, contents: &str) -> Result<(), StoreError> {
    let tmp = dir.join(format!(".{name}.tmp"));
    write_synced(&tmp, contents.as_bytes())?;
    let path = dir.join(name);
    fs::rename(&tmp, &path).map_err(|source| StoreError::Write { path, source })?;
    sync_dir(dir);
    Ok(())
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let werr = |source| StoreError::Write { path: path.to_path_buf(), source };
    let mut f = fs::File::create(path).map_err(werr)?;
    f.write_all(bytes).map_err(werr)?;
    f.sync_all().map_err(werr)
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Reads `finding.json` from a finding directory.
pub fn load_finding(dir: &Path) -> Result<FindingRecord, StoreError> {
    let not = |reason: String| StoreError::NotAFinding { path: dir.to_path_buf(), reason };
    if !dir.is_dir() {
        return match row_record(dir) {
            Some(rec) => Ok(rec),
            None => Err(not("no such directory".into())),
        };
    }
    let text = fs::read_to_string(dir.join("finding.json")).map_err(|e| not(format!("finding.json: {e}")))?;
    let rec: FindingRecord = serde_json::from_str(&text).map_err(|e| not(format!("finding.json is corrupt: {e}")))?;
    if rec.format != FORMAT {
        return Err(not(format!("finding.json has format {}, this crosscheck reads {FORMAT}", rec.format)));
    }
    Ok(rec)
}

/// The record of a finding kept as a row only (its case is `null`: the generator rebuilds it),
/// named by the directory it would have.
fn row_record(dir: &Path) -> Option<FindingRecord> {
    let out = store_of(dir)?;
    let id = dir.file_name()?.to_str()?;
    let conn = Connection::open_with_flags(db_path(&out), rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).ok()?;
    let text: Option<String> =
        conn.query_row("SELECT record FROM findings WHERE id = ?1", params![id], |r| r.get(0)).optional().ok()??;
    serde_json::from_str(&text?).ok()
}

/// The directory of finding `id` in the campaign directory `out`.
pub fn finding_dir(out: &Path, id: &str) -> PathBuf {
    out.join("findings").join(id)
}

/// The database of the campaign directory `out`.
fn db_path(out: &Path) -> PathBuf {
    out.join("findings.db")
}

/// Whether `out` holds a campaign's record.
pub fn is_store(out: &Path) -> bool {
    db_path(out).is_file()
}

/// The reproducers in a finding directory, the reduced ones first: they are the ones to read.
pub fn reproducers_in(finding_dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(finding_dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "finding.json")
        .collect();
    names.sort();
    names.sort_by_key(|n| !n.starts_with("reduced"));
    names
}

/// At most `max_bytes` of the reproducer `name` in a finding directory, and whether it was cut
/// short: a flood campaign's cases can be huge, and a report must stay readable.
pub fn read_reproducer(finding_dir: &Path, name: &str, max_bytes: usize) -> Option<(String, bool)> {
    use std::io::Read;
    let f = fs::File::open(finding_dir.join(name)).ok()?;
    let mut buf = Vec::new();
    f.take(max_bytes as u64 + 1).read_to_end(&mut buf).ok()?;
    let cut = buf.len() > max_bytes;
    buf.truncate(max_bytes);
    Some((String::from_utf8_lossy(&buf).into_owned(), cut))
}

/// The store that holds a finding directory (`<out>/findings/<id>`), if any.
pub fn store_of(finding_dir: &Path) -> Option<PathBuf> {
    let out = finding_dir.parent()?.parent()?;
    is_store(out).then(|| out.to_path_buf())
}

pub fn now_unix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// A new bug for `rec`'s signature, first seen in finding `first` and counted `count` times;
/// its row id.
fn insert_bug(tx: &rusqlite::Transaction<'_>, rec: &FindingRecord, first: &str, count: i64) -> rusqlite::Result<i64> {
    tx.execute(
        "INSERT INTO bugs (signature, kind, oracle, class, engine, first_finding, summary, count)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            rec.signature,
            rec.kind,
            rec.oracle,
            rec.evidence.class.to_string(),
            rec.evidence.engine_label(),
            first,
            rec.best_case().1.summary,
            count
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::FindingClass;

    fn record(sig: &str) -> FindingRecord {
        FindingRecord {
            format: FORMAT,
            id: String::new(),
            tool_version: "t".into(),
            kind: "k".into(),
            oracle: "o".into(),
            engines: vec![],
            engine_specs: vec!["e".into()],
            campaign_seed: 1,
            worker: 0,
            worker_seed: 2,
            index: 3,
            timeout_ms: 1000,
            evidence: Evidence {
                class: FindingClass::Logic,
                engines: vec!["e".into()],
                summary: "s".into(),
                expected: "x".into(),
                actual: "y".into(),
                key: "subset".into(),
                detail: crate::kind::Detail::none(),
            },
            case: serde_json::json!({"q": 1}),
            reduced: None,
            signature: sig.into(),
            created_unix: 0,
            adaptive: false,
        }
    }

    #[test]
    fn records_group_into_bugs_and_survive_reopening() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut store = Store::open(tmp.path()).expect("open");
        let c = store.begin_campaign("k", "args", 1).expect("campaign");
        let (id1, new1) =
            store.record(Some(c), &mut record("A"), Some(&[("repro.x".into(), "hi".into())])).expect("rec");
        let (id2, new2) = store.record(Some(c), &mut record("A"), None).expect("rec");
        let (_, new3) = store.record(Some(c), &mut record("B"), Some(&[])).expect("rec");
        assert!(new1 && !new2 && new3);
        // A repeat recorded as a row has no directory.
        assert!(!tmp.path().join("findings").join(&id2).exists());
        drop(store);
        let store = Store::open(tmp.path()).expect("reopen");
        let bugs = store.bugs().expect("bugs");
        assert_eq!(bugs.iter().map(|b| (b.signature.as_str(), b.count)).collect::<Vec<_>>(), vec![("A", 2), ("B", 1)]);
        let dir = tmp.path().join("findings").join(&id1);
        let rec = load_finding(&dir).expect("load");
        assert_eq!(rec.id, id1);
        assert_eq!(fs::read_to_string(dir.join("repro.x")).expect("repro"), "hi");
        assert_eq!(store_of(&dir).as_deref(), Some(tmp.path()));
    }

    #[test]
    fn a_row_keeps_the_case_only_when_its_index_cannot_rebuild_it() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut store = Store::open(tmp.path()).expect("open");
        let (plain, _) = store.record(None, &mut record("A"), None).expect("rec");
        let (adaptive, _) =
            store.record(None, &mut FindingRecord { adaptive: true, ..record("A") }, None).expect("rec");
        let case = |id: &str| row_record(&tmp.path().join("findings").join(id)).expect("row").case;
        assert!(case(&plain).is_null());
        assert_eq!(case(&adaptive), serde_json::json!({"q": 1}));
    }

    #[test]
    fn merged_bugs_move_their_findings() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let mut store = Store::open(tmp.path()).expect("open");
        for sig in ["A|x,y", "A|x,z", "A|x,y", "A|x"] {
            store.record(None, &mut record(sig), None).expect("rec");
        }
        store.merge_bugs("A|x", &["A|x,y".into(), "A|x,z".into()]).expect("merge");
        let bugs = store.bugs().expect("bugs");
        assert_eq!(bugs.iter().map(|b| (b.signature.as_str(), b.count)).collect::<Vec<_>>(), vec![("A|x", 4)]);
        let moved: i64 = store
            .conn
            .query_row("SELECT COUNT(*) FROM findings WHERE bug = ?1", params![bugs[0].id], |r| r.get(0))
            .expect("count");
        assert_eq!(moved, 4);
    }

    #[test]
    fn corrupt_or_missing_findings_are_errors() {
        let tmp = tempfile::tempdir().expect("tempdir");
        assert!(load_finding(&tmp.path().join("nope")).is_err());
        fs::write(tmp.path().join("finding.json"), "{not json").expect("write");
        let e = load_finding(tmp.path()).expect_err("corrupt");
        assert!(e.to_string().contains("corrupt"), "{e}");
    }

    #[test]
    fn an_older_record_gains_the_progress_table() {
        let tmp = tempfile::tempdir().expect("tempdir");
        {
            // A findings.db from before the time series: no progress table.
            let conn = Connection::open(tmp.path().join("findings.db")).expect("db");
            conn.execute_batch(&SCHEMA[..SCHEMA.find("CREATE TABLE IF NOT EXISTS progress").expect("progress")])
                .expect("old schema");
        }
        let store = Store::open(tmp.path()).expect("open");
        let c = store.begin_campaign("k", "args", u64::MAX).expect("campaign");
        let p = ProgressPoint { elapsed_sec: 5.0, tests: 10, tests_per_sec: 2.0, findings: 1, ..Default::default() };
        store.record_progress(c, &p).expect("record");
        store.record_progress(c, &ProgressPoint { elapsed_sec: 7.5, ..p.clone() }).expect("record");
        assert_eq!(store.progress(c).expect("progress").len(), 2);
        assert_eq!(store.progress(c).expect("progress")[0], p);
        let campaigns = store.campaigns().expect("campaigns");
        assert_eq!((campaigns.len(), campaigns[0].seed), (1, u64::MAX));
    }
}
