//! Analyzer targets behind one trait: how to run a tool on a directory holding one partition's
//! files, and how to read what it found into [`Finding`]s that compare across partitions.

mod bandit;
mod cppcheck;
mod jsonlines;
mod mypy;

pub use bandit::Bandit;
pub use cppcheck::Cppcheck;
pub use jsonlines::{JsonLines, DATALOG_COMMAND, SMT_COMMAND, SQL_COMMAND};
pub use mypy::Mypy;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One finding, normalized so that the same finding from two partitions (or from a partition
/// and the unsplit run) is equal: the unit's path relative to the input root, the line, the
/// tool's rule identifier and its message.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    pub file: String,
    pub line: u32,
    pub rule: String,
    pub message: String,
}

/// Which extractor finds a tool's units and their dependencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Python,
    C,
    /// Units and dependencies come from the caller ([`crate::plan::make_plan_from`]).
    Given,
}

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{tool} is not installed at {}: run scripts/install-split-tools.sh", path.display())]
    Missing { tool: &'static str, path: PathBuf },
    #[error("{tool} output unreadable: {reason}")]
    Output { tool: &'static str, reason: String },
}

/// What a tool wrote and how it ended, handed to [`Analyzer::parse`].
pub struct ToolOutput<'a> {
    pub stdout: &'a str,
    pub stderr: &'a str,
    pub code: i32,
}

/// An analyzer run as a child process on a directory of files.
pub trait Analyzer: Sync {
    fn name(&self) -> &'static str;
    fn language(&self) -> Language;
    /// The tool's version line; an error when it is not installed.
    fn version(&self) -> Result<String, ToolError>;
    /// The command that analyzes `units` (paths relative to `dir`, which is its working directory).
    fn command(&self, dir: &Path, units: &[&str]) -> Command;
    /// Whether the tool is given this unit to analyze (a C header is only read through the
    /// files that include it); a partition with no such unit is not run.
    fn analyzes(&self, _unit: &str) -> bool {
        true
    }
    /// Whether an exit code is a normal end (findings or none) rather than a crash or a usage error.
    fn normal_exit(&self, code: i32) -> bool;
    /// The findings of a normal run, files relative to the run's directory.
    fn parse(&self, out: &ToolOutput<'_>) -> Result<Vec<Finding>, ToolError>;
    /// The interpreter that can read this tool's units (Python tools), for dependency analysis.
    fn python(&self) -> Option<PathBuf> {
        None
    }
}

/// The first line `bin --version` prints, or why there is none.
pub(crate) fn version_of(tool: &'static str, bin: &Path) -> Result<String, ToolError> {
    let missing = || ToolError::Missing { tool, path: bin.to_path_buf() };
    let out = Command::new(bin).arg("--version").output().map_err(|_| missing())?;
    if !out.status.success() {
        return Err(missing());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().next().unwrap_or("").trim().to_string())
}

/// The interpreter of a Python tool's virtualenv (`bin/python` beside the tool), else `python3`.
pub(crate) fn python_beside(bin: &Path) -> PathBuf {
    let beside = bin.with_file_name("python");
    if beside.exists() {
        beside
    } else {
        PathBuf::from("python3")
    }
}

/// A path the tool printed, made relative to the run's directory.
pub(crate) fn relative(path: &str) -> String {
    path.strip_prefix("./").unwrap_or(path).to_string()
}

/// The analyzers crosscheck can split for, as a plan names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    Mypy,
    Bandit,
    Cppcheck,
    /// A Datalog program split by relation, evaluated by the binary's reference evaluator.
    Datalog,
    /// An SMT-LIB script split by assertion, solved by the binary through z3.
    Smt,
    /// A SQL workload split by statement, run by the binary on SQLite.
    Sql,
}

impl Tool {
    /// The tool's name, as `--tool` and plans spell it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Mypy => "mypy",
            Tool::Bandit => "bandit",
            Tool::Cppcheck => "cppcheck",
            Tool::Datalog => "datalog",
            Tool::Smt => "smt",
            Tool::Sql => "sql",
        }
    }

    /// Whether the tool runs one of crosscheck's own workloads (a Datalog program, an SMT
    /// script, a SQL workload), run by the crosscheck binary, whose partitions must carry their
    /// units' whole dependency closure (extraction D.2).
    pub fn whole_closures(self) -> bool {
        matches!(self, Tool::Datalog | Tool::Smt | Tool::Sql)
    }

    /// The tool's executable name.
    pub fn command_name(self) -> &'static str {
        if self.whole_closures() {
            "crosscheck"
        } else {
            self.name()
        }
    }

    /// The analyzer whose executable is `bin` (for `Datalog`, `Smt` and `Sql`, the crosscheck
    /// binary).
    pub fn analyzer(self, bin: &Path) -> Box<dyn Analyzer> {
        match self {
            Tool::Mypy => Box::new(Mypy::new(bin)),
            Tool::Bandit => Box::new(Bandit::new(bin)),
            Tool::Cppcheck => Box::new(Cppcheck::new(bin)),
            Tool::Datalog => Box::new(JsonLines::new("datalog", bin, &[DATALOG_COMMAND], "reference evaluator")),
            Tool::Smt => Box::new(JsonLines::new("smt", bin, &[SMT_COMMAND], "z3")),
            Tool::Sql => Box::new(JsonLines::new("sql", bin, &[SQL_COMMAND], "sqlite")),
        }
    }
}
