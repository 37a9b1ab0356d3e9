//! Comunica (npm `@comunica/query-sparql-rdfjs`) over an N3.js store (npm `n3`), in one
//! long-lived Node process (`bridge/comunica.js`) speaking the Python host's protocol. The npm
//! packages live in `<venv>/node/node_modules`, installed by `scripts/install-rdf-engines.sh`
//! into the project virtualenv, so the engine is found the way the Python engines are;
//! `comunica=/path/to/venv` (or a directory holding `node_modules`) runs another release.
//! Comunica cannot interrupt a query: past the limit the process is killed, and the next
//! request starts a new one with the store's updates replayed (`bridged`).

use super::bridged::{Bridged, Host};
use crate::transport::bridge::Library;
use crate::transport::find_tool;
use crate::Entry;
use crosscheck_core::SetupError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The Node host, compiled in like the Python host.
const SCRIPT: &str = include_str!("../../bridge/comunica.js");

const INSTALL: &str = "scripts/install-rdf-engines.sh (npm install @comunica/query-sparql-rdfjs n3 in .venv/node)";

const LIB: Library =
    Library { host: "comunica", product: "Comunica", module: "@comunica/query-sparql-rdfjs", install: INSTALL };

pub static FACTORY: Entry<Bridged<NodeHost>> = Entry {
    name: "comunica",
    describe: "Comunica (npm @comunica/query-sparql-rdfjs) over an N3.js store in one Node process; comunica=/path/to/venv (its node/node_modules) for another release",
    opener: Bridged { lib: LIB, dialect: "comunica", grace: Duration::ZERO, host: NodeHost },
};

/// Node, with the npm packages found as [`modules_dir`] finds them.
#[derive(Clone, Copy)]
pub struct NodeHost;

impl Host for NodeHost {
    fn interpreter(&self, name: &str, location: Option<&str>) -> Result<PathBuf, SetupError> {
        // Checked here so that a missing package is an availability answer, not a start failure.
        modules_dir(name, location)?;
        find_tool("node")
            .ok_or_else(|| SetupError::new(format!("{name}: no node found (apt-get install nodejs); then {INSTALL}")))
    }

    fn command(&self, interpreter: &Path, location: Option<&str>) -> Result<Command, SetupError> {
        let modules = modules_dir("comunica", location)?;
        let mut cmd = Command::new(interpreter);
        cmd.args(["-e", SCRIPT, "comunica"]).env("NODE_PATH", modules);
        Ok(cmd)
    }
}

/// The `node_modules` directory holding Comunica: the location's (a virtualenv with
/// `node/node_modules`, a directory with `node_modules`, or a `node_modules` directory), else
/// the project virtualenv's, searched as `find_tool` searches (`$CROSSCHECK_VENV`, `.venv` of
/// the current directory, of the crosscheck executable's ancestors).
pub fn modules_dir(name: &str, location: Option<&str>) -> Result<PathBuf, SetupError> {
    let has = |d: &Path| d.join("@comunica/query-sparql-rdfjs/package.json").is_file() && d.join("n3").is_dir();
    let candidates = |root: &Path| [root.join("node/node_modules"), root.join("node_modules"), root.to_path_buf()];
    if let Some(loc) = location {
        return candidates(Path::new(loc)).into_iter().find(|d| has(d)).ok_or_else(|| {
            SetupError::new(format!(
                "{name}={loc}: no @comunica/query-sparql-rdfjs and n3 there; give a virtualenv whose node/node_modules holds them ({name}=/path/to/venv) or a node_modules directory"
            ))
        });
    }
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Some(v) = std::env::var_os("CROSSCHECK_VENV") {
        roots.push(PathBuf::from(v));
    }
    if let Ok(cwd) = std::env::current_dir() {
        roots.push(cwd.join(".venv"));
    }
    if let Ok(exe) = std::env::current_exe() {
        roots.extend(exe.ancestors().skip(1).map(|a| a.join(".venv")));
    }
    roots.iter().map(|r| r.join("node/node_modules")).find(|d| has(d)).ok_or_else(|| {
        SetupError::new(format!("{name}: @comunica/query-sparql-rdfjs not found in .venv/node; install with {INSTALL}"))
    })
}
