//! Rules of the codebase, checked under `cargo test`: every source file opens with a `//!`
//! comment, stays under the size limit, and the core names no query language or engine crate.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 800;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn sources_have_module_docs_and_stay_small() {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    assert!(files.len() > 10, "found the sources");
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if !first.starts_with("//!") {
            problems.push(format!("{}: does not open with a //! comment", f.display()));
        }
        let n = text.lines().count();
        if n > MAX_LINES {
            problems.push(format!("{}: {n} lines (limit {MAX_LINES})", f.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn core_depends_on_no_leg_and_names_no_engine() {
    let manifest = std::fs::read_to_string(root().join("crates/core/Cargo.toml")).unwrap_or_default();
    for leg in ["crosscheck-sql", "crosscheck-smt", "crosscheck-datalog", "cozo", "postgres", "mysql", "duckdb"] {
        assert!(!manifest.contains(leg), "crates/core/Cargo.toml names {leg}");
    }
    let mut files = Vec::new();
    rust_files(&root().join("crates/core/src"), &mut files);
    // The store keeps the campaign record in SQLite: that is storage, not an engine under test.
    files.retain(|f| !f.ends_with("store.rs"));
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        // Unit tests may use any language as example input.
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for word in ["SELECT ", "check-sat", "sqlite", "z3"] {
            let hits = text.lines().filter(|l| !l.trim_start().starts_with("//") && l.contains(word)).count();
            assert_eq!(hits, 0, "{} mentions {word:?} outside comments", f.display());
        }
    }
}
