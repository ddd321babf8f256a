//! Reading schemas as they were at a git revision, without checking it out.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::diag::Diagnostic;
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

impl GitReader {
    /// Whether the revision has a file at `path`.
    pub fn contains(&self, path: &Path) -> bool {
        Command::new("git")
            .args(["cat-file", "-e", &self.object(path)])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// The revision as given on the command line.
    pub fn rev(&self) -> &str {
        &self.rev
    }
}

/// Compares each of `files` with its version at the reader's revision. A
/// file that did not exist at the revision is all new (its types are added);
/// one that no longer exists in the working tree is all removed.
pub fn compare_with_revision(
    reader: &GitReader,
    files: &[PathBuf],
) -> Result<super::Report, crate::Failed> {
    let old: Vec<PathBuf> = files
        .iter()
        .filter(|f| reader.contains(f))
        .cloned()
        .collect();
    let new: Vec<PathBuf> = files.iter().filter(|f| f.exists()).cloned().collect();
    let missing: Vec<Diagnostic> = files
        .iter()
        .filter(|f| !old.contains(f) && !new.contains(f))
        .map(|f| {
            Diagnostic::bare(format!(
                "cannot read {}: no such file, neither in the working tree nor at revision {}",
                display(f),
                reader.rev
            ))
        })
        .collect();
    if !missing.is_empty() {
        return Err(crate::Failed {
            sources: Default::default(),
            diagnostics: missing,
        });
    }
    super::compare(&old, reader, &new, &crate::load::FsReader)
}

impl FileReader for GitReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        let object = self.object(path);
        let out = Command::new("git").args(["show", &object]).output()?;
        if out.status.success() {
            crate::load::utf8_text(out.stdout)
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
