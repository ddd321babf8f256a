//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io;
use std::path::{Path, PathBuf};

use pktc::load::FileReader;

/// The workspace root, so tests can name schemas as `schemas/x.pkt` (which is
/// also how they appear in snapshots).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("compiler/ has a parent")
        .to_path_buf()
}

/// Reads paths relative to the workspace root.
pub struct RootReader;

impl FileReader for RootReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        std::fs::read_to_string(root().join(path))
    }
}

/// `.pkt` files directly inside `dir` (relative to the root), sorted.
pub fn schemas_in(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pkt"))
        .map(|p| Path::new(dir).join(p.file_name().expect("file name")))
        .collect();
    out.sort();
    out
}

pub fn stem(path: &Path) -> String {
    path.file_stem()
        .expect("file stem")
        .to_string_lossy()
        .into_owned()
}

pub fn check(path: &Path) -> Result<pktc::Checked, pktc::Failed> {
    pktc::check_with(&[path.to_path_buf()], &RootReader)
}
