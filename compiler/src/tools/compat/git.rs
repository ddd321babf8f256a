//! Reading schemas as they were at a git revision, without checking it out.

use std::io;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use super::{Report, SchemaError, Version};
use crate::diag::Diagnostic;
use crate::load::{display, FileReader};

/// Reads `REV:path` with `git show` from the repository that holds the
/// schemas, wherever the command runs: paths (relative to the current
/// directory, or absolute) are placed in that repository's tree.
pub struct GitReader {
    rev: String,
    /// The repository's top level, canonical.
    top: PathBuf,
}

/// `git` run in `dir`.
fn git(dir: &Path, args: &[&str]) -> io::Result<std::process::Output> {
    Command::new("git").arg("-C").arg(dir).args(args).output()
}

/// `path` made absolute and canonical as far as it exists (a schema deleted
/// since the revision has no file, and perhaps no directory, any more), with
/// `.` and `..` resolved in the part that does not.
fn canonical(path: &Path) -> io::Result<PathBuf> {
    let absolute = std::env::current_dir()?.join(path);
    let mut existing = absolute.as_path();
    let base = loop {
        match existing.canonicalize() {
            Ok(c) => break c,
            Err(_) => {
                existing = existing.parent().ok_or_else(|| {
                    io::Error::other(format!("no part of {} exists", display(path)))
                })?;
            }
        }
    };
    let mut out = base;
    let tail: PathBuf = absolute
        .strip_prefix(existing)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    for c in tail.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    Ok(out)
}

impl GitReader {
    /// A reader of revision `rev` of the git repository that holds `schema`
    /// (which need not exist in the working tree).
    pub fn new(rev: impl Into<String>, schema: &Path) -> io::Result<Self> {
        let at = canonical(schema)?;
        let mut dir = at.as_path();
        while !dir.is_dir() {
            dir = dir.parent().unwrap_or(Path::new("/"));
        }
        let out = git(dir, &["rev-parse", "--show-toplevel"])?;
        if !out.status.success() {
            return Err(io::Error::other(format!(
                "{} is not inside a git repository: {}",
                display(schema),
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let top = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end_matches('\n'));
        let top = top.canonicalize().unwrap_or(top);
        let rev = rev.into();
        let check = git(
            &top,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ],
        )?;
        if !check.status.success() {
            return Err(io::Error::other(format!(
                "unknown git revision `{rev}` in the repository at {}",
                display(&top)
            )));
        }
        Ok(GitReader { rev, top })
    }

    /// `REV:path` with the path relative to the repository's top level.
    fn object(&self, path: &Path) -> io::Result<String> {
        let at = canonical(path)?;
        let rel = at.strip_prefix(&self.top).map_err(|_| {
            io::Error::other(format!(
                "{} is outside the git repository at {}",
                display(path),
                display(&self.top)
            ))
        })?;
        Ok(format!("{}:{}", self.rev, display(rel)))
    }

    /// Whether the revision has a file at `path`.
    pub fn contains(&self, path: &Path) -> bool {
        self.object(path).is_ok_and(|object| {
            git(&self.top, &["cat-file", "-e", &object]).is_ok_and(|o| o.status.success())
        })
    }

    /// The revision as given on the command line.
    pub fn rev(&self) -> &str {
        &self.rev
    }

    /// The commit that `rev` (a branch, a tag, a SHA, `HEAD~2`) names in
    /// the reader's repository, if it names one.
    pub fn commit(&self, rev: &str) -> Option<String> {
        let out = git(
            &self.top,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{rev}^{{commit}}"),
            ],
        )
        .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }
}

/// Compares each of `files` with its version at the reader's revision. A
/// file that did not exist at the revision is all new (its types are added);
/// one that no longer exists in the working tree is all removed. A file in
/// neither place is an error of the new version.
pub fn compare_with_revision(reader: &GitReader, files: &[PathBuf]) -> Result<Report, SchemaError> {
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
        return Err(SchemaError {
            version: Version::New,
            failed: crate::Failed {
                sources: Default::default(),
                diagnostics: missing,
            },
        });
    }
    super::compare(&old, reader, &new, &crate::load::FsReader)
}

impl FileReader for GitReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        let object = self.object(path)?;
        let out = git(&self.top, &["show", &object])?;
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
