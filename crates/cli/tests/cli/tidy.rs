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

/// The non-test part of a source file.
fn non_test(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or("")
}

fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    non_test(text).lines().filter(|l| !l.trim_start().starts_with("//"))
}

#[test]
fn only_the_binary_writes_to_the_terminal() {
    let mut files = Vec::new();
    for krate in ["core", "sql", "smt", "datalog", "sparql", "cypher", "engines", "skeleton", "split", "tune"] {
        rust_files(&root().join("crates").join(krate).join("src"), &mut files);
    }
    // The test kit tells a test's reader which engines it skipped; no campaign runs it.
    files.retain(|f| !f.ends_with("testing.rs"));
    assert!(files.len() > 50, "found the sources of core, the legs and the engines");
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for word in ["println!", "eprintln!", "print!(", "eprint!(", "std::io::stdout()", "std::io::stderr()"] {
            if code_lines(&text).any(|l| l.contains(word)) {
                problems.push(format!("{}: {word} (raise a notice with crosscheck_core::notes instead)", f.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn core_names_no_subcommand_and_only_the_store_knows_the_layout() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/core/src"), &mut files);
    rust_files(&root().join("crates/cli/src"), &mut files);
    assert!(files.len() > 15, "found the sources of core and the binary");
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let in_core = f.to_string_lossy().contains("crates/core/");
        if in_core && code_lines(&text).any(|l| l.contains(".arg(") || l.contains("\"__")) {
            problems
                .push(format!("{}: core starts a command line of its own (the binary's Launcher does)", f.display()));
        }
        if !f.ends_with("store.rs")
            && code_lines(&text).any(|l| l.contains("\"findings\"") || l.contains("\"findings.db\""))
        {
            problems.push(format!("{}: knows the findings layout (ask crosscheck_core::store)", f.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The `crosscheck-*` crates a manifest depends on (dev-dependencies excluded).
fn internal_deps(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut section = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_string();
        } else if section == "[dependencies]" && line.starts_with("crosscheck-") {
            out.push(line.split(['.', ' ', '=']).next().unwrap_or("").to_string());
        }
    }
    out
}

#[test]
fn no_leg_depends_on_another_and_core_on_none() {
    // Allowed edges: legs -> core, engines -> core (legs use the engines layer only in tests;
    // the binary pairs them).
    let legs = ["crosscheck-sql", "crosscheck-smt", "crosscheck-datalog", "crosscheck-sparql", "crosscheck-cypher"];
    let mut problems = Vec::new();
    for krate in ["core", "sql", "smt", "datalog", "sparql", "cypher", "engines", "skeleton", "split", "tune"] {
        // A crate that moved must move here too: a rule over no files would pass whatever they say.
        let path = root().join("crates").join(krate).join("Cargo.toml");
        let manifest = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let deps = internal_deps(&manifest);
        let allowed: &[&str] = match krate {
            // Splitting knows units and dependency edges, no engine and no leg; the binary
            // wires legs to it. The tuner knows no language, leg or engine adapter: it runs
            // tools as children.
            "core" | "split" | "tune" => &[],
            _ => &["crosscheck-core"],
        };
        for d in deps.iter().filter(|d| !allowed.contains(&d.as_str())) {
            let why = match d.as_str() {
                d if legs.contains(&d) => "a leg depends on a leg",
                "crosscheck-engines" => "only the binary pairs a leg with its engines (a dev-dependency is fine)",
                _ => "not an allowed edge",
            };
            problems.push(format!("crates/{krate} depends on {d}: {why}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
