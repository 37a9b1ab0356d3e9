//! SWI-Prolog as a subprocess, running a tabled program printed by the Datalog leg's `swipl` dialect,
//! which prints the output relation itself.

use super::tool::{run, Exited, Tool};
use crate::Entry;
use crosscheck_core::{Outcome, SetupError};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub static FACTORY: Entry<Tool<Programs>> = Entry {
    name: "swipl",
    describe: "SWI-Prolog with tabling (Debian swi-prolog-nox); swipl=/path/to/swipl for another build",
    opener: Tool {
        binary: "swipl",
        install: "apt-get install swi-prolog-nox (scripts/install-datalog-engines.sh)",
        version: |out| {
            let out = out.trim_start().strip_prefix("SWI-Prolog version ")?;
            out.split_whitespace().next().filter(|w| w.starts_with(|c: char| c.is_ascii_digit())).map(str::to_string)
        },
        probe: None,
        open: || Programs::new("pl"),
        run: run_swipl,
    },
};

/// A private directory for program files (swipl and z3's native format load files, not
/// stdin), and how many were written: four names in turn, removed when the engine goes.
pub struct Programs {
    dir: PathBuf,
    ext: &'static str,
    n: u64,
}

impl Programs {
    /// Files with the extension `ext` (which is how z3 knows its native format).
    pub fn new(ext: &'static str) -> Result<Programs, SetupError> {
        let dir = std::env::temp_dir().join(format!("crosscheck-datalog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| SetupError::new(format!("cannot create {}: {e}", dir.display())))?;
        Ok(Programs { dir, ext, n: 0 })
    }

    /// Writes the next program file.
    pub fn write(&mut self, text: &str) -> Result<PathBuf, Outcome> {
        self.n += 1;
        let path = self.dir.join(format!("p{}.{}", self.n % 4, self.ext));
        std::fs::write(&path, text).map_err(|e| Outcome::error(format!("cannot write {}: {e}", path.display())))?;
        Ok(path)
    }
}

impl Drop for Programs {
    fn drop(&mut self) {
        for i in 0..4 {
            let _ = std::fs::remove_file(self.dir.join(format!("p{i}.{}", self.ext)));
        }
    }
}

fn run_swipl(programs: &mut Programs, bin: &Path, text: &str, limit: Duration) -> Outcome {
    let path = match programs.write(text) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let mut cmd = Command::new(bin);
    cmd.arg("-q").arg(&path);
    let Exited { stdout, stderr, status } = match run(&mut cmd, "", limit, limit, "swipl") {
        Ok(done) => done,
        Err(o) => return o,
    };
    use std::os::unix::process::ExitStatusExt;
    if status.signal().is_some() {
        return crate::transport::crash_from(Some(status), stderr);
    }
    if !status.success() || stderr.contains("Warning:") || stderr.contains("ERROR") {
        return Outcome::error(format!("swipl: {}", stderr.lines().take(4).collect::<Vec<_>>().join(" ")));
    }
    let rows: Vec<Vec<crosscheck_core::Value>> =
        stdout.lines().filter(|l| !l.is_empty()).map(|l| l.split('\t').map(super::parse_cell).collect()).collect();
    super::numbered_rows(rows)
}
