//! SWI-Prolog as a subprocess, running a tabled program printed by the Datalog leg's `swipl` dialect,
//! which prints the output relation itself.

use crosscheck_core::engine::info_for;
use crosscheck_core::{Availability, Engine, EngineFactory, EngineInfo, EngineSpec, Outcome, SetupError};
use crate::transport::{find_tool, run_once, RunOnce};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

pub struct Factory;

fn binary(loc: Option<&str>) -> Option<PathBuf> {
    loc.map(PathBuf::from).or_else(|| find_tool("swipl"))
}

fn version(bin: &PathBuf) -> Option<String> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.split_whitespace().find(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit())).map(str::to_string)
}

impl EngineFactory for Factory {
    fn name(&self) -> &'static str {
        "swipl"
    }
    fn describe(&self) -> &'static str {
        "SWI-Prolog with tabling (Debian swi-prolog-nox)"
    }
    fn availability(&self) -> Availability {
        let install = "apt-get install swi-prolog-nox (scripts/install-datalog-engines.sh)".to_string();
        match binary(None).and_then(|b| version(&b)) {
            Some(v) => Availability { available: true, detail: v, install },
            None => Availability { available: false, detail: "swipl not found".into(), install },
        }
    }
    fn open(&self, spec: &EngineSpec) -> Result<Box<dyn Engine>, SetupError> {
        let bin = binary(spec.location.as_deref())
            .ok_or_else(|| SetupError::new("swipl not found: run scripts/install-datalog-engines.sh"))?;
        let v = version(&bin).ok_or_else(|| SetupError::new(format!("{} does not run", bin.display())))?;
        let dir = tempfile_dir()?;
        Ok(Box::new(Swipl { info: info_for(spec, v, "swipl", &[]), bin, dir, n: 0 }))
    }
}

/// A private directory for program files (swipl loads files, not stdin).
pub fn tempfile_dir() -> Result<PathBuf, SetupError> {
    let dir = std::env::temp_dir().join(format!("crosscheck-datalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| SetupError::new(format!("cannot create {}: {e}", dir.display())))?;
    Ok(dir)
}

pub struct Swipl {
    info: EngineInfo,
    bin: PathBuf,
    dir: PathBuf,
    n: u64,
}

impl Engine for Swipl {
    fn info(&self) -> &EngineInfo {
        &self.info
    }
    fn reset(&mut self) -> Result<(), SetupError> {
        Ok(())
    }
    fn run(&mut self, text: &str, limit: Duration) -> Outcome {
        self.n += 1;
        let path = self.dir.join(format!("p{}.pl", self.n % 4));
        if let Err(e) = std::fs::write(&path, text) {
            return Outcome::error(format!("cannot write {}: {e}", path.display()));
        }
        let mut cmd = Command::new(&self.bin);
        cmd.arg("-q").arg(&path);
        let (stdout, stderr, status) = match run_once(&mut cmd, "", limit) {
            Ok(RunOnce::Exited { status, stdout, stderr }) => (stdout, stderr, status),
            Ok(RunOnce::TimedOut { .. }) => return Outcome::Timeout { after_ms: limit.as_millis() as u64 },
            Err(e) => return Outcome::error(format!("cannot run swipl: {e}")),
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
