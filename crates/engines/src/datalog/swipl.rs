//! SWI-Prolog as a subprocess, running a tabled program printed by the Datalog leg's `swipl` dialect,
//! which prints the output relation itself.

use super::tool::{run, Exited, OneShot, Tool, ToolFactory};
use crosscheck_core::{Outcome, SetupError};
use std::marker::PhantomData;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

const TOOL: Tool = Tool {
    name: "swipl",
    install: "apt-get install swi-prolog-nox (scripts/install-datalog-engines.sh)",
    version: |out| {
        let out = out.trim_start().strip_prefix("SWI-Prolog version ")?;
        out.split_whitespace().next().filter(|w| w.starts_with(|c: char| c.is_ascii_digit())).map(str::to_string)
    },
};

pub static FACTORY: ToolFactory<Swipl> =
    ToolFactory { tool: TOOL, describe: "SWI-Prolog with tabling (Debian swi-prolog-nox)", engine: PhantomData };

/// A private directory for program files (swipl loads files, not stdin).
pub fn tempfile_dir() -> Result<PathBuf, SetupError> {
    let dir = std::env::temp_dir().join(format!("crosscheck-datalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| SetupError::new(format!("cannot create {}: {e}", dir.display())))?;
    Ok(dir)
}

pub struct Swipl {
    bin: PathBuf,
    dir: PathBuf,
    n: u64,
}

impl OneShot for Swipl {
    fn open(bin: PathBuf) -> Result<Self, SetupError> {
        Ok(Swipl { bin, dir: tempfile_dir()?, n: 0 })
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.n += 1;
        let path = self.dir.join(format!("p{}.pl", self.n % 4));
        if let Err(e) = std::fs::write(&path, text) {
            return Outcome::error(format!("cannot write {}: {e}", path.display()));
        }
        let mut cmd = Command::new(&self.bin);
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
}

impl Drop for Swipl {
    fn drop(&mut self) {
        for i in 0..4 {
            let _ = std::fs::remove_file(self.dir.join(format!("p{i}.pl")));
        }
    }
}
