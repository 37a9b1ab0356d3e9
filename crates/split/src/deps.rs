//! What dependency extractors share: a workload (units named by their path under the input
//! root, and dependency edges between them) and the walk that lists a root's source files.

use crate::graph::{DepGraph, GraphError};
use std::path::{Path, PathBuf};

/// Units and dependency edges, by name, as an extractor found them.
#[derive(Debug, Clone, Default)]
pub struct Workload {
    pub units: Vec<String>,
    pub edges: Vec<(String, String)>,
}

impl Workload {
    pub fn graph(self) -> Result<DepGraph, GraphError> {
        DepGraph::new(self.units, self.edges)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DepError {
    #[error("cannot read {}: {reason}", path.display())]
    Read { path: PathBuf, reason: String },
    #[error("{} does not parse: {reason}", file.display())]
    Parse { file: PathBuf, reason: String },
    #[error("dependency analysis with {tool} failed: {reason}")]
    Tool { tool: String, reason: String },
    #[error("no {what} files under {}", root.display())]
    Empty { what: String, root: PathBuf },
}

/// The files under `root` whose extension is one of `exts`, as sorted '/'-separated paths
/// relative to `root`. Hidden directories and `__pycache__` are skipped; symlinks are not
/// followed (a partition copies files, and a link cycle would never end).
pub fn source_files(root: &Path, exts: &[&str]) -> Result<Vec<String>, DepError> {
    let mut out = Vec::new();
    walk(root, root, exts, &mut out)?;
    if out.is_empty() {
        return Err(DepError::Empty { what: exts.join("/"), root: root.to_path_buf() });
    }
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, exts: &[&str], out: &mut Vec<String>) -> Result<(), DepError> {
    let read = |e: std::io::Error| DepError::Read { path: dir.to_path_buf(), reason: e.to_string() };
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let entry = entry.map_err(read)?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        let kind = entry.file_type().map_err(read)?;
        if kind.is_dir() {
            if !name.starts_with('.') && name != "__pycache__" {
                walk(root, &path, exts, out)?;
            }
        } else if kind.is_file() && path.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().to_string()).collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}
