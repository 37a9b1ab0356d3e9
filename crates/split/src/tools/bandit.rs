//! bandit (PyPI), the seed's per-file case: each file is checked alone, so SIZELIMITING loses
//! nothing and SPLITMERGE's dependency analysis is pure overhead.

use super::{relative, version_of, Analyzer, Finding, Language, ToolError, ToolOutput};
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Bandit {
    bin: PathBuf,
}

impl Bandit {
    /// bandit at `bin` (normally the project virtualenv's `bin/bandit`).
    pub fn new(bin: &Path) -> Bandit {
        Bandit { bin: bin.to_path_buf() }
    }
}

#[derive(serde::Deserialize)]
struct Report {
    results: Vec<Issue>,
}

#[derive(serde::Deserialize)]
struct Issue {
    filename: String,
    line_number: i64,
    test_id: String,
    issue_text: String,
}

impl Analyzer for Bandit {
    fn name(&self) -> &'static str {
        "bandit"
    }

    fn language(&self) -> Language {
        Language::Python
    }

    fn version(&self) -> Result<String, ToolError> {
        version_of("bandit", &self.bin)
    }

    fn command(&self, _dir: &Path, units: &[&str]) -> Command {
        let mut cmd = Command::new(&self.bin);
        cmd.args(["--format", "json", "--quiet"]);
        cmd.args(units);
        cmd
    }

    fn normal_exit(&self, code: i32) -> bool {
        code == 0 || code == 1
    }

    fn parse(&self, out: &ToolOutput<'_>) -> Result<Vec<Finding>, ToolError> {
        let report: Report = serde_json::from_str(out.stdout)
            .map_err(|e| ToolError::Output { tool: "bandit", reason: e.to_string() })?;
        Ok(report
            .results
            .into_iter()
            .map(|i| Finding {
                file: relative(&i.filename),
                line: u32::try_from(i.line_number).unwrap_or(0),
                rule: i.test_id,
                message: i.issue_text,
            })
            .collect())
    }

    fn python(&self) -> Option<PathBuf> {
        Some(super::python_beside(&self.bin))
    }
}
