//! mypy (PyPI), the seed's inter-module case: a module's types come from the modules it
//! imports, so a partition that lacks them loses findings (and gains some).
//!
//! Each partition is checked as it stands: `--explicit-package-bases` names modules by their
//! path (a package whose `__init__.py` is in another partition still resolves), installed
//! packages are not searched (`--no-site-packages`: the copy of the workload in the virtualenv
//! must not stand in for the modules a partition lacks), a module outside the partition is
//! `Any` (`--ignore-missing-imports`, the seed's under-approximating tool), and no cache is
//! written, so every partition and the unsplit run start cold.

use super::{relative, version_of, Analyzer, Finding, Language, ToolError, ToolOutput};
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Mypy {
    bin: PathBuf,
}

impl Mypy {
    /// mypy at `bin` (normally the project virtualenv's `bin/mypy`).
    pub fn new(bin: &Path) -> Mypy {
        Mypy { bin: bin.to_path_buf() }
    }
}

#[derive(serde::Deserialize)]
struct Line {
    file: String,
    line: i64,
    message: String,
    code: Option<String>,
    severity: String,
}

impl Analyzer for Mypy {
    fn name(&self) -> &'static str {
        "mypy"
    }

    fn language(&self) -> Language {
        Language::Python
    }

    fn version(&self) -> Result<String, ToolError> {
        version_of("mypy", &self.bin)
    }

    fn command(&self, _dir: &Path, units: &[&str]) -> Command {
        let mut cmd = Command::new(&self.bin);
        cmd.args([
            "--check-untyped-defs",
            "--explicit-package-bases",
            "--namespace-packages",
            "--no-site-packages",
            "--ignore-missing-imports",
            "--cache-dir=/dev/null",
            "--no-error-summary",
            "--output=json",
        ]);
        cmd.args(units);
        cmd
    }

    fn normal_exit(&self, code: i32) -> bool {
        code == 0 || code == 1
    }

    fn parse(&self, out: &ToolOutput<'_>) -> Result<Vec<Finding>, ToolError> {
        let mut found = Vec::new();
        for text in out.stdout.lines().filter(|l| l.starts_with('{')) {
            let l: Line = serde_json::from_str(text)
                .map_err(|e| ToolError::Output { tool: "mypy", reason: format!("{e}: {text}") })?;
            // Notes explain an error on the line before; the error is the finding.
            if l.severity == "error" {
                found.push(Finding {
                    file: relative(&l.file),
                    line: u32::try_from(l.line).unwrap_or(0),
                    rule: l.code.unwrap_or_default(),
                    message: l.message,
                });
            }
        }
        Ok(found)
    }

    fn python(&self) -> Option<PathBuf> {
        Some(super::python_beside(&self.bin))
    }
}
