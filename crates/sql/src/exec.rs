//! Running one statement on an engine and classifying what came back: rows, an error the
//! dialect expects (which skips the check), or an unexpected error, a crash (findings).
//! Every oracle and the setup of a case go through `exec`, so they classify alike.

use crate::dialect::{by_name, Dialect, Sqlite};
use crate::oracles::Detail;
use crosscheck_core::{Check, CheckOptions, Engine, ErrorClass, Evidence, FindingClass, Outcome, Rows};

/// The dialect an engine speaks (SQLite when it names none we know).
pub fn dialect_of(e: &dyn Engine) -> &'static dyn Dialect {
    by_name(&e.info().dialect).unwrap_or(&Sqlite)
}

/// A one-line, stable form of an engine error for deduplication keys.
pub fn error_key(message: &str) -> String {
    // Drop what follows the message proper: names, the statement SQLite appends (" in SELECT
    // ... at offset N").
    // DuckDB names the error's class first ("Binder Error: Table ... does not have ..."): the
    // class alone would make every binder error one key, and reduction could trade one for
    // another, so the message after it is kept.
    let (class, message) = match message.split_once(':') {
        Some((class, rest)) if class.ends_with("Error") && class.len() < 40 => {
            (format!("{class}: "), rest.trim_start())
        }
        _ => (String::new(), message),
    };
    let head = message.split([':', '"', '\'']).next().unwrap_or(message);
    let head = head.split(" in ").next().unwrap_or(head);
    // Parenthesised details name the operands (MariaDB's "Illegal mix of collations
    // (utf8mb4_bin,IMPLICIT) and (...)" lists whichever collations the query met).
    let mut depth = 0usize;
    let mut k = String::with_capacity(head.len());
    for c in head.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_ascii_digit() => k.push('#'),
            c => k.push(c),
        }
    }
    // What joined the operands goes with them: "(a) and (b)" and "(a), (b), (c)" are one
    // message.
    let words = k.split_whitespace().filter(|w| !matches!(*w, "," | "and" | "or"));
    let mut k = words.map(|w| w.trim_end_matches(',')).collect::<Vec<_>>().join(" ");
    k.truncate(80);
    format!("error:{class}{k}")
}

fn error_evidence(engine: &dyn Engine, sql: &str, message: &str) -> Evidence {
    Evidence {
        class: FindingClass::Error,
        engines: vec![engine.info().label.clone()],
        summary: format!("unexpected error from {}: {message}", engine.info().label),
        expected: "no error".into(),
        actual: message.to_string(),
        key: error_key(message),
        detail: Detail::statement(sql),
    }
}

/// Runs one statement; an error the dialect expects or a timeout skips the check, any other
/// error or a crash is a finding.
pub fn exec(engine: &mut dyn Engine, sql: &str, opts: &CheckOptions) -> Result<Option<Rows>, Check> {
    match engine.run(sql, opts.timeout) {
        Outcome::Rows(r) => Ok(Some(r)),
        Outcome::Done => Ok(None),
        Outcome::Error { message, class } => {
            // `Expected` from the engine itself: its state is gone after a crash it already
            // reported (a bridge, a private server), until the next reset.
            if class == ErrorClass::Expected || dialect_of(engine).expected_error(&message) {
                Err(Check::Skip(format!("expected error: {message}")))
            } else {
                Err(Check::finding(error_evidence(engine, sql, &message)))
            }
        }
        Outcome::Timeout { after_ms } => Err(Check::Skip(format!("timeout after {after_ms} ms"))),
        out @ Outcome::Crash { .. } => {
            Err(Check::finding(Evidence::crash(&engine.info().label, &out, Detail::statement(sql))))
        }
        Outcome::Verdicts { .. } => Err(Check::Skip("a solver verdict from a SQL engine".into())),
    }
}

/// The rows of a query (none for a statement that returns no result set).
pub fn rows_of(engine: &mut dyn Engine, sql: &str, opts: &CheckOptions) -> Result<Rows, Check> {
    Ok(exec(engine, sql, opts)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    #[test]
    fn error_keys_drop_names_numbers_and_operand_lists() {
        let k = super::error_key(
            "Illegal mix of collations (utf8mb4_bin,IMPLICIT), (utf8mb4_nopad_bin,COERCIBLE) for operation 'in'",
        );
        assert_eq!(k, "error:Illegal mix of collations for operation");
        for two in [
            "Illegal mix of collations (a,IMPLICIT) and (b,COERCIBLE) for operation '='",
            "Illegal mix of collations (a,IMPLICIT), (b,COERCIBLE), (c,COERCIBLE) for operation 'in'",
        ] {
            assert_eq!(super::error_key(two), k);
        }
        assert_eq!(super::error_key("no such column: t0.c9"), "error:no such column");
        assert_eq!(super::error_key("integer overflow at offset 12"), "error:integer overflow at offset ##");
        // DuckDB's class of error is not the error.
        let binder = |m: &str| super::error_key(&format!("Binder Error: {m}"));
        assert_eq!(
            binder("ORDER BY non-integer literal has no effect."),
            "error:Binder Error: ORDER BY non-integer literal has no effect."
        );
        assert_ne!(binder("Table \"t0\" does not have a column named \"c0\""), binder("No function matches"));
    }
}
