//! A SQL workload as a workload to split (extraction D.2): the units are its statements; a
//! statement depends on every statement that creates or writes a relation (table or view) it
//! names. A query's closure (k = ∞) holds the tables, rows and views it reads, so it answers as
//! in the whole workload; a partition that lacks a view makes the query an error, which is why
//! a SQL workload must be split with whole closures.
//!
//! Statements are found by a token scan (quotes and comments respected), not a parser: a
//! relation is written by `CREATE TABLE|VIEW name`, `INSERT INTO name`, `UPDATE name`,
//! `DELETE FROM name`, and named by any word equal to a written relation's name.

use std::collections::{BTreeMap, BTreeSet};

/// A unit file (name, text), or a dependency edge between two unit files (by name).
pub type Pair = (String, String);

#[derive(Debug, PartialEq)]
enum Tok<'a> {
    Word(&'a str),
    Other,
    End,
}

/// The script's statements, each as its text and its words (lowercase, unquoted identifiers).
fn statements(src: &str) -> Vec<(String, Vec<String>)> {
    let b = src.as_bytes();
    let (mut out, mut words, mut start, mut i) = (Vec::new(), Vec::new(), 0, 0);
    while i < b.len() {
        let (tok, next) = token(src, i);
        match tok {
            Tok::Word(w) => words.push(w.to_ascii_lowercase()),
            Tok::End => {
                let text = src[start..i].trim();
                if !text.is_empty() {
                    out.push((text.to_string(), std::mem::take(&mut words)));
                }
                words.clear();
                start = next;
            }
            Tok::Other => {}
        }
        i = next;
    }
    let text = src[start..].trim();
    if !text.is_empty() {
        out.push((text.to_string(), words));
    }
    out
}

/// The token at `i` and where the next one starts. A double-quoted identifier is a word.
fn token(src: &str, i: usize) -> (Tok<'_>, usize) {
    let b = src.as_bytes();
    let until = |from: usize, end: &str| src[from..].find(end).map_or(b.len(), |e| from + e + end.len());
    match b[i] {
        b';' => (Tok::End, i + 1),
        b'\'' => (Tok::Other, until(i + 1, "'")),
        b'"' => {
            let end = until(i + 1, "\"");
            (Tok::Word(&src[i + 1..end.saturating_sub(1).max(i + 1)]), end)
        }
        b'-' if b.get(i + 1) == Some(&b'-') => (Tok::Other, until(i, "\n")),
        b'/' if b.get(i + 1) == Some(&b'*') => (Tok::Other, until(i + 2, "*/")),
        c if c.is_ascii_alphabetic() || c == b'_' => {
            let end = (i..b.len()).find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_')).unwrap_or(b.len());
            (Tok::Word(&src[i..end]), end)
        }
        _ => (Tok::Other, i + 1),
    }
}

/// The relation a statement creates or writes, if any.
fn written(words: &[String]) -> Option<&str> {
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let after = |k: usize| w.get(k).copied();
    match w.as_slice() {
        ["create", rest @ ..] => {
            let at = rest.iter().position(|x| *x == "table" || *x == "view")?;
            let skip = if rest.get(at + 1) == Some(&"if") { 4 } else { 1 };
            after(1 + at + skip)
        }
        ["insert" | "replace", "into", name, ..] | ["update", name, ..] | ["delete", "from", name, ..] => Some(*name),
        _ => None,
    }
}

/// One unit file per statement, `s<N>.sql`, and the edges from each statement to the
/// statements that create or write the relations it names.
pub fn unit_files(src: &str) -> (Vec<Pair>, Vec<Pair>) {
    let stmts = statements(src);
    let width = stmts.len().to_string().len();
    let names: Vec<String> = (0..stmts.len()).map(|i| format!("s{i:0width$}.sql")).collect();
    let mut writers: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (_, words)) in stmts.iter().enumerate() {
        if let Some(rel) = written(words) {
            writers.entry(rel).or_default().push(i);
        }
    }
    let mut edges = BTreeSet::new();
    for (i, (_, words)) in stmts.iter().enumerate() {
        for w in words {
            for &j in writers.get(w.as_str()).into_iter().flatten() {
                if j != i {
                    edges.insert((names[i].clone(), names[j].clone()));
                }
            }
        }
    }
    let files = names.iter().zip(&stmts).map(|(n, (text, _))| (n.clone(), format!("{text};\n"))).collect();
    (files, edges.into_iter().collect())
}

/// Whether a statement returns rows (its answer is what a split must keep).
pub fn is_query(text: &str) -> bool {
    let first = statements(text).into_iter().next().and_then(|(_, w)| w.into_iter().next());
    matches!(first.as_deref(), Some("select" | "with" | "values"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = "CREATE TABLE t(a INT, b TEXT);\nINSERT INTO t VALUES (1, 'x;y'), (2, 'v');\n\
        CREATE VIEW v AS SELECT a FROM t WHERE b <> 'v'; -- a comment; with a semicolon\n\
        CREATE TABLE \"u\"(c INT);\nSELECT * FROM v;\nSELECT count(*) FROM u /* t; */;\n";

    #[test]
    fn statements_and_who_writes_what() {
        let (files, edges) = unit_files(SCRIPT);
        let texts: Vec<&str> = files.iter().map(|(_, t)| t.trim_end()).collect();
        assert_eq!(texts[1], "INSERT INTO t VALUES (1, 'x;y'), (2, 'v');");
        assert_eq!(files.len(), 6);
        let edges: Vec<String> = edges.iter().map(|(a, b)| format!("{a}->{b}")).collect();
        // The view reads t (created by s0, written by s1); the queries read v and u; the
        // comment's `t` is no reference.
        assert_eq!(
            edges,
            [
                "s0.sql->s1.sql",
                "s1.sql->s0.sql",
                "s2.sql->s0.sql",
                "s2.sql->s1.sql",
                "s4.sql->s2.sql",
                "s5.sql->s3.sql"
            ]
        );
        assert!(
            is_query("SELECT 1")
                && is_query("with x as (select 1) select * from x")
                && !is_query("CREATE TABLE t(a INT)")
        );
    }
}
