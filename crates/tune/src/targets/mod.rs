//! The tools crosscheck tunes, each one file behind [`crate::Target`].

pub mod clingo;
pub mod eva;
pub mod smt;

use crate::TargetError;
use std::path::{Path, PathBuf};

/// A batch of work items, one file each (queries, programs), read in name order.
pub struct Batch {
    pub names: Vec<String>,
    pub texts: Vec<String>,
}

impl Batch {
    /// The `.ext` files of `workload` (a file, or a directory's).
    pub fn read(workload: &Path, ext: &str) -> Result<Batch, TargetError> {
        let mut batch = Batch { names: Vec::new(), texts: Vec::new() };
        for f in files_with(workload, ext)? {
            let text = std::fs::read_to_string(&f)
                .map_err(|source| TargetError::Io { what: format!("reading {}", f.display()), source })?;
            batch
                .names
                .push(f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into_owned()));
            batch.texts.push(text);
        }
        Ok(batch)
    }
}

/// The files of `workload` ending in `.ext`: the file itself, or a directory's, in name order.
pub fn files_with(workload: &Path, ext: &str) -> Result<Vec<PathBuf>, TargetError> {
    if workload.is_file() {
        return Ok(vec![workload.to_path_buf()]);
    }
    let entries = std::fs::read_dir(workload)
        .map_err(|source| TargetError::Io { what: format!("reading the workload {}", workload.display()), source })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(TargetError::Setup(format!("{}: no .{ext} file in this directory", workload.display())));
    }
    Ok(files)
}
