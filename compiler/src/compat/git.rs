//! Reading schemas as they were at a git revision, without checking it out.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::load::{display, FileReader};

/// Reads `REV:path` with `git show`, for paths relative to the current
/// directory or absolute paths inside the repository.
pub struct GitReader {
    rev: String,
    /// The repository's top level, for absolute paths.
    top: PathBuf,
}

impl GitReader {
    pub fn new(rev: impl Into<String>) -> io::Result<Self> {
        let out = Command::new("git")
            .args(["rev-parse", "--show-toplevel"])
            .output()?;
        if !out.status.success() {
            return Err(io::Error::other(format!(
                "not inside a git repository: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let top = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        let rev = rev.into();
        let check = Command::new("git")
            .args([
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ])
            .output()?;
        if !check.status.success() {
            return Err(io::Error::other(format!("unknown git revision `{rev}`")));
        }
        Ok(GitReader { rev, top })
    }

    fn object(&self, path: &Path) -> String {
        let rel = if path.is_absolute() {
            let canonical_top = self.top.canonicalize().unwrap_or_else(|_| self.top.clone());
            path.strip_prefix(&self.top)
                .or_else(|_| path.strip_prefix(&canonical_top))
                .map(|p| p.to_path_buf())
                .unwrap_or_else(|_| path.to_path_buf())
        } else {
            // `REV:./path` is relative to the current directory.
            Path::new(".").join(path)
        };
        format!("{}:{}", self.rev, display(&rel))
    }
}

impl FileReader for GitReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        let object = self.object(path);
        let out = Command::new("git").args(["show", &object]).output()?;
        if out.status.success() {
            String::from_utf8(out.stdout)
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8"))
        } else {
            Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("not in revision {}", self.rev),
            ))
        }
    }

    fn display(&self, path: &Path) -> String {
        format!("{}@{}", display(path), self.rev)
    }
}
