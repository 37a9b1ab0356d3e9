//! cppcheck (Debian) with its cross-file checks: `unusedFunction` (a function no file of the run
//! calls) and whole-program (CTU) null-pointer and uninitialized-data checks, so a partition that
//! lacks a caller gains findings and one that lacks a callee loses them.
//!
//! Only `.c` files are named; headers are units too (copied with their partition, found through
//! `-I` for each directory of the partition that holds one). One configuration per file
//! (`--max-configs=1`): the research found the same findings at a sixth of the time.

use super::{relative, version_of, Analyzer, Finding, Language, ToolError, ToolOutput};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cppcheck {
    bin: PathBuf,
}

impl Cppcheck {
    /// cppcheck at `bin` (a path, or a name looked up on PATH).
    pub fn new(bin: &Path) -> Cppcheck {
        Cppcheck { bin: bin.to_path_buf() }
    }
}

const TEMPLATE: &str = "--template=@@{file}\t{line}\t{id}\t{severity}\t{message}";

impl Analyzer for Cppcheck {
    fn name(&self) -> &'static str {
        "cppcheck"
    }

    fn language(&self) -> Language {
        Language::C
    }

    fn version(&self) -> Result<String, ToolError> {
        version_of("cppcheck", &self.bin)
    }

    fn command(&self, _dir: &Path, units: &[&str]) -> Command {
        let mut cmd = Command::new(&self.bin);
        cmd.args(["--quiet", "--enable=warning,style,performance,portability,unusedFunction", "--max-configs=1"]);
        cmd.arg(TEMPLATE);
        let header_dirs: BTreeSet<&str> =
            units.iter().filter(|u| u.ends_with(".h")).map(|u| u.rsplit_once('/').map_or(".", |(d, _)| d)).collect();
        for d in header_dirs {
            cmd.arg(format!("-I{d}"));
        }
        cmd.args(units.iter().filter(|u| self.analyzes(u)));
        cmd
    }

    fn analyzes(&self, unit: &str) -> bool {
        unit.ends_with(".c")
    }

    fn normal_exit(&self, code: i32) -> bool {
        code == 0
    }

    fn parse(&self, out: &ToolOutput<'_>) -> Result<Vec<Finding>, ToolError> {
        let mut found = Vec::new();
        for line in out.stderr.lines().chain(out.stdout.lines()) {
            let Some(rest) = line.strip_prefix("@@") else { continue };
            let mut f = rest.splitn(5, '\t');
            let (Some(file), Some(num), Some(id), Some(severity), Some(msg)) =
                (f.next(), f.next(), f.next(), f.next(), f.next())
            else {
                return Err(ToolError::Output { tool: "cppcheck", reason: format!("unexpected line {line:?}") });
            };
            // Notes about the run itself (`toomanyconfigs` on "nofile"), not about the code.
            if severity == "information" {
                continue;
            }
            found.push(Finding {
                file: relative(file),
                line: num.parse().unwrap_or(0),
                rule: id.to_string(),
                message: msg.to_string(),
            });
        }
        Ok(found)
    }
}
