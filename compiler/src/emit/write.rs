//! Writing generated files: only when their content changes, so build tools
//! that watch timestamps do not rebuild for nothing.

use std::io;
use std::path::{Path, PathBuf};

use super::GeneratedFile;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteMode {
    /// Write files whose content differs from what is on disk.
    Write,
    /// Write nothing; report what would change.
    Check,
}

/// What [`write_files`] did (or would do, in [`WriteMode::Check`]).
#[derive(Debug, Default)]
pub struct WriteReport {
    /// Files created or changed, as full paths.
    pub changed: Vec<PathBuf>,
    /// Files already up to date.
    pub unchanged: Vec<PathBuf>,
}

pub fn write_files(
    out_dir: &Path,
    files: &[GeneratedFile],
    mode: WriteMode,
) -> io::Result<WriteReport> {
    let mut report = WriteReport::default();
    for f in files {
        let path = out_dir.join(&f.path);
        let current = std::fs::read(&path).ok();
        if current.as_deref() == Some(f.contents.as_bytes()) {
            report.unchanged.push(path);
            continue;
        }
        if mode == WriteMode::Write {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, &f.contents)?;
        }
        report.changed.push(path);
    }
    Ok(report)
}
