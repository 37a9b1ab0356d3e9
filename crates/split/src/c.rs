//! C dependencies: every `.c` and `.h` file under a root is a unit; a file depends on the files
//! it `#include "..."`s and on the `.c` files that define the functions it calls.
//!
//! Includes are preprocessor lines, read as such (resolved beside the including file, then at
//! the root, then by a unique file name anywhere under it). Calls come from a token scan, not a C
//! parser: comments, literals and preprocessor lines are dropped, a definition is a name followed
//! by a parenthesised list and then a body at brace depth 0 (K&R parameter declarations
//! included), a call is a name followed by `(` inside a body. A function defined in several files
//! (per-platform variants) gives no call edge: which one links is the build's choice.

use crate::deps::{source_files, DepError, Workload};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The C units under `root` and their include and call edges.
pub fn workload(root: &Path) -> Result<Workload, DepError> {
    let files = source_files(root, &["c", "h"])?;
    let mut texts = BTreeMap::new();
    for f in &files {
        let path = root.join(f);
        let bytes = std::fs::read(&path).map_err(|e| DepError::Read { path: path.clone(), reason: e.to_string() })?;
        texts.insert(f.as_str(), String::from_utf8_lossy(&bytes).into_owned());
    }
    let known: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut edges = BTreeSet::new();
    let mut definers: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut calls: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (&file, text) in &texts {
        for inc in includes(text) {
            if let Some(target) = resolve(file, &inc, &known) {
                if target != file {
                    edges.insert((file.to_string(), target.to_string()));
                }
            }
        }
        let scan = scan(text);
        if file.ends_with(".c") {
            for d in scan.defined {
                definers.entry(d).or_default().push(file);
            }
        }
        calls.insert(file, scan.called);
    }
    for (file, called) in calls {
        for name in called {
            if let Some([definer]) = definers.get(&name).map(Vec::as_slice) {
                if *definer != file {
                    edges.insert((file.to_string(), (*definer).to_string()));
                }
            }
        }
    }
    Ok(Workload { units: files, edges: edges.into_iter().collect() })
}

/// The quoted includes of a file (`#include <...>` names the system's headers, never a unit).
fn includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim_start().strip_prefix('#')?.trim_start().strip_prefix("include")?.trim_start();
            let rest = rest.strip_prefix('"')?;
            Some(rest.split('"').next()?.to_string())
        })
        .collect()
}

fn resolve<'a>(from: &str, inc: &str, known: &BTreeSet<&'a str>) -> Option<&'a str> {
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let beside = if dir.is_empty() { inc.to_string() } else { format!("{dir}/{inc}") };
    for candidate in [normalize(&beside), normalize(inc)] {
        if let Some(k) = known.get(candidate.as_str()) {
            return Some(k);
        }
    }
    let name = inc.rsplit('/').next().unwrap_or(inc);
    let mut same = known.iter().filter(|k| k.rsplit('/').next() == Some(name));
    match (same.next(), same.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// `a/./b/../c.h` is `a/c.h`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[derive(Default)]
struct Scan {
    defined: BTreeSet<String>,
    called: BTreeSet<String>,
}

const NOT_CALLS: &[&str] = &["if", "while", "for", "switch", "return", "sizeof", "defined", "do", "else", "case"];

#[derive(Debug, PartialEq)]
enum Tok {
    Name(String),
    Punct(char),
}

/// Definitions and calls of a file, from its tokens at brace depth 0 and inside bodies.
fn scan(text: &str) -> Scan {
    let toks = tokens(text);
    let mut out = Scan::default();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Name(n) if toks.get(i + 1) == Some(&Tok::Punct('(')) && !NOT_CALLS.contains(&n.as_str()) => {
                if depth > 0 {
                    out.called.insert(n.clone());
                } else if let Some(close) = matching_paren(&toks, i + 1) {
                    if is_definition(&toks[close + 1..]) {
                        out.defined.insert(n.clone());
                    }
                    i = close;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// What follows a parameter list at depth 0 makes it a definition: a body at once, or K&R
/// parameter declarations (`int a; char *b;`) and then a body. A `;`, `,` or `=` at once is a
/// prototype, a variable or a macro use.
fn is_definition(after: &[Tok]) -> bool {
    match after.first() {
        Some(Tok::Punct('{')) => true,
        Some(Tok::Name(_)) => {
            after.iter().find(|t| matches!(t, Tok::Punct('{' | '(' | '=' | '}'))) == Some(&Tok::Punct('{'))
        }
        _ => false,
    }
}

fn matching_paren(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// Names and the punctuation that matters, with comments, literals and preprocessor lines gone.
fn tokens(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if line_start && c == b'#' {
            // Skip the directive with its continuation lines.
            while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                i += 1;
            }
            continue;
        }
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if b[i..].starts_with(b"//") {
            i = text[i..].find('\n').map_or(b.len(), |e| i + e);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Name(text[start..i].to_string()));
        } else {
            if matches!(c, b'{' | b'}' | b'(' | b')' | b';' | b',' | b'=') {
                out.push(Tok::Punct(c as char));
            }
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_calls_and_includes() {
        let text = "#include \"a.h\"\n#include <stdio.h>\n/* f( */ static int f(int x);\n\
                    int g(a) int a; { return f(a) + h(\"k(\"); }\nint x = m(1);\n";
        let s = scan(text);
        assert_eq!(s.defined.into_iter().collect::<Vec<_>>(), vec!["g"]);
        assert_eq!(s.called.into_iter().collect::<Vec<_>>(), vec!["f", "h"]);
        assert_eq!(includes(text), vec!["a.h"]);
    }

    #[test]
    fn includes_resolve_beside_the_file_then_by_name() {
        let known: BTreeSet<&str> = ["src/a.h", "include/b.h", "src/x.c"].into_iter().collect();
        assert_eq!(resolve("src/x.c", "a.h", &known), Some("src/a.h"));
        assert_eq!(resolve("src/x.c", "../include/b.h", &known), Some("include/b.h"));
        assert_eq!(resolve("src/x.c", "b.h", &known), Some("include/b.h"));
        assert_eq!(resolve("src/x.c", "c.h", &known), None);
    }
}
