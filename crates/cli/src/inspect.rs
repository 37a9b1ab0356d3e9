//! `crosscheck engines` and `crosscheck findings`.

use crate::errors::{user, Result, EXIT_OK};
use crate::kinds::kinds;
use crosscheck_core::store::{self, Store};
use std::path::Path;

pub fn engines(json: bool) -> Result<i32> {
    let mut rows = Vec::new();
    for kind in kinds() {
        for f in crate::kinds::registry(kind.name()) {
            let a = f.availability();
            rows.push(serde_json::json!({
                "kind": kind.name(),
                "name": f.name(),
                "available": a.available,
                "detail": a.detail,
                "install": a.install,
                "description": f.describe(),
                "default": kind.default_engines().contains(&f.name()),
            }));
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&rows).unwrap_or_default());
        return Ok(EXIT_OK);
    }
    let text = |r: &serde_json::Value, k: &str| r[k].as_str().unwrap_or("").to_string();
    let available = |r: &serde_json::Value| r["available"].as_bool().unwrap_or(false);
    let version = |r: &serde_json::Value| if available(r) { text(r, "detail") } else { "-".into() };
    let width = rows.iter().map(|r| version(r).chars().count()).max().unwrap_or(7).max(7);
    println!("{:<8} {:<12} {:<10} {:<width$}  description / how to install", "kind", "engine", "available", "version");
    for r in &rows {
        println!(
            "{:<8} {:<12} {:<10} {:<width$}  {}",
            text(r, "kind"),
            text(r, "name"),
            if available(r) { "yes" } else { "no" },
            version(r),
            if available(r) {
                text(r, "description")
            } else {
                format!("{}; install: {}", text(r, "detail"), text(r, "install"))
            }
        );
    }
    for kind in kinds() {
        println!("{} oracles: {}", kind.name(), kind.oracles().join(", "));
    }
    let faults: Vec<&str> = crosscheck_engines::mutant::FAULTS.iter().map(|(name, _)| *name).collect();
    println!("any engine can be wrapped as mutant:<engine>:<fault> (faults: {})", faults.join(", "));
    Ok(EXIT_OK)
}

pub fn findings(dir: &Path, json: bool) -> Result<i32> {
    if !store::is_store(dir) {
        return Err(user(format!("{} holds no findings.db (give a campaign's --out directory)", dir.display())));
    }
    let store = Store::open(dir)?;
    let bugs = store.bugs()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&bugs).unwrap_or_default());
        return Ok(EXIT_OK);
    }
    let total = store.finding_count()?;
    println!("{} distinct bug(s) from {} finding(s) in {}", bugs.len(), total, dir.display());
    for b in &bugs {
        println!("#{:<3} x{:<5} {:<10} {:<14} {:<20} {}", b.id, b.count, b.class, b.oracle, b.engine, b.summary);
        let d = store::finding_dir(dir, &b.first_finding);
        let repro = store::reproducers_in(&d);
        println!("      {} {}", d.display(), repro.join(" "));
    }
    Ok(EXIT_OK)
}
