//! Recursive SQL run on an SQL engine of this layer (SQLite in process, PostgreSQL's private
//! server, DuckDB's bridge): the adapter the `sqlite`, `postgres` and `duckdb` Datalog engines
//! share. It receives printed text and knows, of the dialect, only how to undo the session
//! settings a `config` option leaves behind.

use super::option_line;
use crate::Opener;
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, ErrorClass, Outcome, SetupError};
use std::time::Duration;

/// How a [`SqlLeg`] engine opens: the SQL factory `sql` opens the engine from the same spec,
/// so locations and labels mean what they mean for SQL.
pub struct SqlOn {
    pub sql: &'static dyn EngineFactory,
    pub rules: Rules,
}

/// How the answers and the session of one engine are read.
#[derive(Clone, Copy)]
pub struct Rules {
    /// Error texts that are a documented refusal (64-bit overflow, as the reference evaluator
    /// has it), not a wrong answer.
    pub expected: &'static [&'static str],
    /// The statements that undo the session settings of the `config` option named on the
    /// program's first line (`-- crosscheck-option: NAME`); settings outlive the statement.
    pub undo: fn(&str) -> Option<&'static str>,
    /// For an engine that takes one statement per call (SQLite): the program's leading `PRAGMA`
    /// lines run on their own before its query, and these statements, which undo them, after it.
    pub one_statement: Option<&'static [&'static str]>,
}

impl Opener for SqlOn {
    fn availability(&self, _name: &'static str) -> Availability {
        self.sql.availability()
    }
    fn open(&self, name: &'static str, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let inner = self.sql.open(spec)?;
        let info = info_for(spec, inner.info().version.clone(), name, &[]);
        Ok(Box::new(SqlLeg { info, inner, name, rules: self.rules }))
    }
}

/// A Datalog engine that runs recursive SQL on an SQL engine (opened by the SQL factory with
/// the same spec).
pub struct SqlLeg {
    info: EngineInfo,
    inner: Box<dyn Engine>,
    name: &'static str,
    rules: Rules,
}

impl SqlLeg {
    /// Runs the program, one statement at a time where the engine needs it; what the session
    /// statements answer does not matter, as before on the engine of its own.
    fn execute(&mut self, text: &str, limit: Duration) -> Outcome {
        let Some(undo) = self.rules.one_statement else { return self.inner.run(text, limit) };
        let mut query = text;
        let mut set = false;
        while query.starts_with("PRAGMA ") {
            let Some((pragma, rest)) = query.split_once('\n') else { break };
            let _ = self.inner.run(pragma.trim_end_matches(';'), limit);
            set = true;
            query = rest;
        }
        let out = self.inner.run(query.trim_end().trim_end_matches(';'), limit);
        // Only a program that changed the session leaves anything to undo.
        if set {
            for s in undo {
                let _ = self.inner.run(s, limit);
            }
        }
        out
    }
}

impl Engine for SqlLeg {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let name = self.name;
        let out = self.execute(text, limit);
        // Session settings outlive the statement: the next program must run without them.
        if let Some(undo) = option_line(text, "--").and_then(self.rules.undo) {
            if !matches!(self.inner.run(undo, limit), Outcome::Done | Outcome::Rows(_)) {
                if let Err(e) = self.inner.reset() {
                    return Outcome::Crash { signal: None, code: None, stderr_tail: format!("{name}: {}", e.message) };
                }
            }
        }
        match out {
            Outcome::Error { message, .. } if self.rules.expected.iter().any(|x| message.contains(x)) => {
                Outcome::Error { message: format!("{name}: {message}"), class: ErrorClass::Expected }
            }
            Outcome::Error { message, class } => Outcome::Error { message: format!("{name}: {message}"), class },
            Outcome::Done => Outcome::error(format!("{name}: the program gave no result set")),
            // SQLite's answers were numbered so on the engine of its own; kept, as the same
            // answers must give the same findings.
            Outcome::Rows(r) if self.rules.one_statement.is_some() => super::numbered_rows(r.rows),
            other => other,
        }
    }
}

/// No session settings to undo.
pub fn nothing_to_undo(_option: &str) -> Option<&'static str> {
    None
}
