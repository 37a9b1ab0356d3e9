//! A tool that speaks crosscheck's own finding format: it analyzes the units named on its
//! command line and prints one JSON [`Finding`] per line on stdout, exit code 0. The binary uses
//! it to split workloads it evaluates itself (a Datalog program by relation through the
//! reference evaluator, an SMT-LIB script by assertion through a solver, a SQL workload by
//! statement on SQLite), so that they run in partitions with the same isolation and limits as
//! any external analyzer.

use super::{Analyzer, Finding, Language, ToolError, ToolOutput};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The hidden subcommand of the `crosscheck` binary that evaluates Datalog unit files.
pub const DATALOG_COMMAND: &str = "__split-datalog";
/// The hidden subcommand of the `crosscheck` binary that solves SMT-LIB unit files.
pub const SMT_COMMAND: &str = "__split-smt";
/// The hidden subcommand of the `crosscheck` binary that runs SQL unit files on SQLite.
pub const SQL_COMMAND: &str = "__split-sql";

pub struct JsonLines {
    name: &'static str,
    bin: PathBuf,
    args: Vec<String>,
    version: String,
}

impl JsonLines {
    /// `bin args... UNITS` as the tool `name`, which reports `version`.
    pub fn new(name: &'static str, bin: &Path, args: &[&str], version: &str) -> JsonLines {
        JsonLines {
            name,
            bin: bin.to_path_buf(),
            args: args.iter().map(|a| (*a).to_string()).collect(),
            version: version.to_string(),
        }
    }
}

impl Analyzer for JsonLines {
    fn name(&self) -> &'static str {
        self.name
    }

    fn language(&self) -> Language {
        Language::Given
    }

    fn version(&self) -> Result<String, ToolError> {
        if self.bin.is_file() {
            Ok(self.version.clone())
        } else {
            Err(ToolError::Missing { tool: self.name, path: self.bin.clone() })
        }
    }

    fn command(&self, _dir: &Path, units: &[&str]) -> Command {
        let mut cmd = Command::new(&self.bin);
        cmd.args(&self.args).args(units);
        cmd
    }

    fn normal_exit(&self, code: i32) -> bool {
        code == 0
    }

    fn parse(&self, out: &ToolOutput<'_>) -> Result<Vec<Finding>, ToolError> {
        out.stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str(l).map_err(|e| ToolError::Output { tool: self.name, reason: format!("{e}: {l}") })
            })
            .collect()
    }
}
