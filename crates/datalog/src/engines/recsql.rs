//! Recursive SQL run on an engine of the SQL leg (PostgreSQL's private server, DuckDB's
//! bridge): the adapter the `postgres` and `duckdb` engines share. It receives printed text;
//! from the dialect it needs only the name, the capabilities and the statements that undo a
//! `config` option's session settings.

use crate::dialects::option_line;
use crate::dialects::recsql::{SqlDialect, CAPS};
use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, ErrorClass, Outcome, SetupError};
use std::time::Duration;

/// The factory of a [`SqlLeg`] engine: the SQL leg's factory `sql` opens the engine from the
/// same spec, so locations and labels mean what they mean there.
pub struct SqlLegFactory {
    pub sql: &'static dyn EngineFactory,
    pub dialect: &'static SqlDialect,
    pub describe: &'static str,
    /// Error texts that are a documented refusal (64-bit overflow, as the reference evaluator
    /// has it), not a wrong answer.
    pub expected: &'static [&'static str],
}

impl EngineFactory for SqlLegFactory {
    fn name(&self) -> &'static str {
        self.dialect.name
    }
    fn describe(&self) -> &'static str {
        self.describe
    }
    fn availability(&self) -> Availability {
        self.sql.availability()
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let inner = self.sql.open(spec)?;
        let info = info_for(spec, inner.info().version.clone(), self.dialect.name, CAPS);
        Ok(Box::new(SqlLeg { info, inner, dialect: self.dialect, expected: self.expected }))
    }
}

/// A Datalog engine that runs recursive SQL on an engine of the SQL leg (its private server
/// or bridge, opened by the SQL leg's factory with the same spec).
pub struct SqlLeg {
    info: EngineInfo,
    inner: Box<dyn Engine>,
    dialect: &'static SqlDialect,
    expected: &'static [&'static str],
}

impl Engine for SqlLeg {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        self.inner.reset()
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        let name = self.dialect.name;
        let out = self.inner.run(text, limit);
        // Session settings outlive the statement: the next program must run without them.
        if let Some(s) = option_line(text, "--").and_then(self.dialect.session) {
            if !matches!(self.inner.run(s.undo, limit), Outcome::Done | Outcome::Rows(_)) {
                if let Err(e) = self.inner.reset() {
                    return Outcome::Crash { signal: None, code: None, stderr_tail: format!("{name}: {}", e.message) };
                }
            }
        }
        match out {
            Outcome::Error { message, .. } if self.expected.iter().any(|x| message.contains(x)) => {
                Outcome::Error { message: format!("{name}: {message}"), class: ErrorClass::Expected }
            }
            Outcome::Error { message, class } => Outcome::Error { message: format!("{name}: {message}"), class },
            Outcome::Done => Outcome::error(format!("{name}: the program gave no result set")),
            other => other,
        }
    }
}
