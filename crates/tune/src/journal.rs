//! The journal of a tuning session: every evaluation that ran the tool, one JSON line each,
//! written as it finishes, so that a session stopped half way (a crash, a Ctrl-C, a machine
//! that went down) resumes without running those recipes again: the search is a function of
//! its seed, so it asks for the same recipes, and the evaluator answers them from the journal.
//!
//! The first line names what the evaluations were measured on (the unit, its items, the limit,
//! the solver seeds per item); a journal written for anything else is refused, since its costs
//! would not compare.

use crate::eval::{Evaluation, ItemResult};
use crate::{Cost, RecipeFile, Space, Verdict};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// What a journal's evaluations were measured on.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub unit: String,
    pub items: Vec<String>,
    pub limit: Duration,
    pub seeds: usize,
}

impl Header {
    fn to_json(&self) -> Value {
        json!({"unit": self.unit, "items": self.items, "limit_ns": nanos(self.limit), "seeds": self.seeds})
    }

    fn from_json(v: &Value) -> Option<Header> {
        Some(Header {
            unit: v.get("unit")?.as_str()?.to_string(),
            items: v.get("items")?.as_array()?.iter().map(|s| s.as_str().map(String::from)).collect::<Option<_>>()?,
            limit: Duration::from_nanos(v.get("limit_ns")?.as_u64()?),
            seeds: usize::try_from(v.get("seeds")?.as_u64()?).ok()?,
        })
    }
}

/// An open journal, appended to as evaluations finish.
pub struct Journal {
    file: std::fs::File,
}

impl Journal {
    /// Starts a new journal at `path` (replacing one there).
    pub fn create(path: &Path, header: &Header) -> std::io::Result<Journal> {
        let mut file = std::fs::File::create(path)?;
        writeln!(file, "{}", header.to_json())?;
        Ok(Journal { file })
    }

    /// Reads the evaluations of the journal at `path`, which must have been written for
    /// `header`, and opens it to append more. A last line cut short by a crash is dropped.
    pub fn resume(path: &Path, header: &Header, space: &Space) -> Result<(Journal, Vec<Evaluation>), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = text.lines();
        let first = lines.next().and_then(|l| serde_json::from_str::<Value>(l).ok());
        let found = first
            .as_ref()
            .and_then(Header::from_json)
            .ok_or_else(|| format!("{}: no journal header", path.display()))?;
        if found != *header {
            return Err(format!(
                "{}: written for {} ({} items, limit {:?}, {} seed(s)), not this run's {} ({} items, limit {:?}, {} seed(s))",
                path.display(),
                found.unit,
                found.items.len(),
                found.limit,
                found.seeds,
                header.unit,
                header.items.len(),
                header.limit,
                header.seeds
            ));
        }
        let mut done = Vec::new();
        for line in lines {
            let Ok(v) = serde_json::from_str::<Value>(line) else { break };
            done.push(
                from_json(&v, space, header.items.len())
                    .ok_or_else(|| format!("{}: a malformed entry", path.display()))?,
            );
        }
        // Rewritten whole, so that a cut last line does not precede what comes next.
        let mut journal = Journal::create(path, header).map_err(|e| format!("{}: {e}", path.display()))?;
        for e in &done {
            journal.append(space, e).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok((journal, done))
    }

    /// Appends one evaluation (its raw measurement, before the evaluator judged it).
    pub fn append(&mut self, space: &Space, e: &Evaluation) -> std::io::Result<()> {
        writeln!(self.file, "{}", to_json(space, e))?;
        self.file.flush()
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn to_json(space: &Space, e: &Evaluation) -> Value {
    let items: Vec<Value> = e
        .items
        .iter()
        .map(|r| {
            let (kind, answer) = match &r.verdict {
                Verdict::Resolved(a) => ("resolved", a.as_str()),
                Verdict::Refuted(a) => ("refuted", a.as_str()),
                Verdict::Unreachable => ("unreachable", ""),
                Verdict::Unresolved => ("unresolved", ""),
            };
            json!([kind, answer, r.stage, nanos(r.used), r.conflict])
        })
        .collect();
    json!({
        "recipe": RecipeFile::of(space, &e.recipe),
        "cost": e.cost.is_finite().then_some(e.cost.0),
        "used_ns": nanos(e.used),
        "guards": e.guards,
        "items": items,
    })
}

fn from_json(v: &Value, space: &Space, n: usize) -> Option<Evaluation> {
    let recipe: RecipeFile = serde_json::from_value(v.get("recipe")?.clone()).ok()?;
    let items = v.get("items")?.as_array()?;
    if items.len() != n {
        return None;
    }
    let items = items.iter().map(item_from_json).collect::<Option<Vec<_>>>()?;
    let guards = v.get("guards")?.as_array()?.iter().map(|g| g.as_str().map(String::from)).collect::<Option<_>>()?;
    Some(Evaluation {
        recipe: recipe.resolve(space).ok()?,
        cost: v.get("cost")?.as_f64().map_or(Cost::INFINITE, Cost),
        items,
        used: Duration::from_nanos(v.get("used_ns")?.as_u64()?),
        rejected: None,
        guards,
    })
}

fn item_from_json(v: &Value) -> Option<ItemResult> {
    let a = v.as_array()?;
    let answer = a.get(1)?.as_str()?.to_string();
    let verdict = match a.first()?.as_str()? {
        "resolved" => Verdict::Resolved(answer),
        "refuted" => Verdict::Refuted(answer),
        "unreachable" => Verdict::Unreachable,
        "unresolved" => Verdict::Unresolved,
        _ => return None,
    };
    let stage = match a.get(2)? {
        Value::Null => None,
        s => Some(usize::try_from(s.as_u64()?).ok()?),
    };
    let conflict = a.get(4).and_then(Value::as_str).map(String::from);
    Some(ItemResult { verdict, stage, used: Duration::from_nanos(a.get(3)?.as_u64()?), conflict })
}
