//! Writing generated files: only when their content changes, so build tools
//! that watch timestamps do not rebuild for nothing; and removing the files an
//! earlier run wrote that the current one no longer produces.
//!
//! Nothing is written outside the output directory: a generated file's path
//! must lie inside it, a symbolic link (or anything but a regular file or a
//! directory) on the way is refused, and a file is replaced by renaming a new
//! one over it, so a hard link to a file elsewhere is cut rather than
//! written through.

use std::fmt;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use super::output::is_generated;
use super::GeneratedFile;
use crate::load::{describe_io, display};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteMode {
    /// Write files whose content differs from what is on disk, remove stale ones.
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
    /// Files an earlier run generated that the current output does not
    /// include (a renamed or removed schema), removed in [`WriteMode::Write`].
    pub stale: Vec<PathBuf>,
}

impl WriteReport {
    /// Whether the output directory differs from what was generated.
    pub fn is_outdated(&self) -> bool {
        !self.changed.is_empty() || !self.stale.is_empty()
    }
}

/// A failure to write the output, naming the path it concerns.
#[derive(Debug)]
pub struct WriteError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", display(&self.path), self.message)
    }
}

impl std::error::Error for WriteError {}

fn failed(path: &Path, what: &str, e: &io::Error) -> WriteError {
    WriteError {
        path: path.to_path_buf(),
        message: format!("{what}: {}", describe_io(e)),
    }
}

/// Writes `files` into `out_dir` and removes stale generated files there.
///
/// A file is stale when it sits directly in `out_dir`, is a regular file,
/// has the extension of one of `files` (so Rust and C# output may share a
/// directory; see [`kind`]), starts with pktc's header exactly
/// ([`is_generated`](super::output::is_generated)) and is not one of
/// `files`. No other file is ever removed.
///
/// A path of `files` that would leave `out_dir` (absolute, or with `..`), or
/// that passes through or ends in a symbolic link or a special file (a FIFO
/// would block the read of the old content), is an error before anything
/// is written.
pub fn write_files(
    out_dir: &Path,
    files: &[GeneratedFile],
    mode: WriteMode,
) -> Result<WriteReport, WriteError> {
    match std::fs::metadata(out_dir) {
        Ok(m) if !m.is_dir() => {
            return Err(WriteError {
                path: out_dir.to_path_buf(),
                message: "the output directory is a file".to_string(),
            })
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(failed(out_dir, "cannot access the output directory", &e)),
    }
    let paths = files
        .iter()
        .map(|f| target(out_dir, &f.path))
        .collect::<Result<Vec<_>, _>>()?;
    let mut report = WriteReport::default();
    for (f, path) in files.iter().zip(paths) {
        let current = std::fs::read(&path).ok();
        if current.as_deref() == Some(f.contents.as_bytes()) {
            report.unchanged.push(path);
            continue;
        }
        if mode == WriteMode::Write {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| failed(parent, "cannot create directory", &e))?;
            }
            replace(&path, f.contents.as_bytes())?;
        }
        report.changed.push(path);
    }
    report.stale = stale_files(out_dir, files)?;
    if mode == WriteMode::Write {
        for path in &report.stale {
            std::fs::remove_file(path).map_err(|e| failed(path, "cannot remove", &e))?;
        }
    }
    Ok(report)
}

/// Where a generated file at `relative` goes in `out_dir`, once it is sure
/// to stay inside: only plain names, none of them an existing symbolic link
/// or special file.
fn target(out_dir: &Path, relative: &Path) -> Result<PathBuf, WriteError> {
    use std::path::Component;
    let refused = |path: &Path, message: String| WriteError {
        path: path.to_path_buf(),
        message,
    };
    let mut path = out_dir.to_path_buf();
    let mut parts = relative.components().peekable();
    if parts.peek().is_none() {
        return Err(refused(&path, "a generated file has an empty name".into()));
    }
    while let Some(part) = parts.next() {
        let Component::Normal(name) = part else {
            return Err(refused(
                &out_dir.join(relative),
                "a generated file's path leaves the output directory".into(),
            ));
        };
        path.push(name);
        let last = parts.peek().is_none();
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(refused(
                    &path,
                    "is a symbolic link: pktc writes only inside the output directory, never through a link; remove it".into(),
                ))
            }
            Ok(m) if (last && !m.is_file()) || (!last && !m.is_dir()) => {
                return Err(refused(
                    &path,
                    format!(
                        "is not a {}: pktc does not replace it; remove it",
                        if last { "regular file" } else { "directory" }
                    ),
                ))
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(failed(&path, "cannot access", &e)),
        }
    }
    Ok(path)
}

/// Replaces the file at `path` with `contents`: written to a new file
/// beside it, then renamed over it, so that readers never see half a file
/// and a hard link to the old file keeps the old content.
fn replace(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    use std::io::Write as _;
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".pktc-tmp");
    let temp = path.with_file_name(name);
    // A temporary file left by an interrupted run (or anything else of its
    // name: removing a link removes the link only) goes first.
    match std::fs::remove_file(&temp) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(failed(&temp, "cannot remove", &e)),
    }
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| f.write_all(contents));
    if let Err(e) = written.and_then(|()| std::fs::rename(&temp, path)) {
        let _ = std::fs::remove_file(&temp);
        return Err(failed(path, "cannot write", &e));
    }
    Ok(())
}

fn stale_files(out_dir: &Path, files: &[GeneratedFile]) -> Result<Vec<PathBuf>, WriteError> {
    let entries = match std::fs::read_dir(out_dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(failed(out_dir, "cannot list", &e)),
    };
    let mut stale = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| failed(out_dir, "cannot list", &e))?;
        let name = PathBuf::from(entry.file_name());
        let ours = files.iter().any(|f| f.path == name);
        let same_kind = files
            .iter()
            .any(|f| f.path.extension().is_some() && kind(&f.path) == kind(&name));
        // Symbolic links and directories are never pktc's.
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if ours || !same_kind || !is_file {
            continue;
        }
        let path = entry.path();
        if has_header(&path) {
            stale.push(path);
        }
    }
    stale.sort();
    Ok(stale)
}

/// The language output a file belongs to, by extension: a Unity assembly
/// definition goes with C# files, so generating C# without `--asmdef`
/// removes the one an earlier run wrote.
fn kind(path: &Path) -> Option<&std::ffi::OsStr> {
    match path.extension() {
        Some(e) if e == "asmdef" => Some(std::ffi::OsStr::new("cs")),
        other => other,
    }
}

/// Reads only the first lines: an unrelated large file costs nothing.
fn has_header(path: &Path) -> bool {
    let mut head = Vec::with_capacity(512);
    let read = std::fs::File::open(path).and_then(|f| f.take(512).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    is_generated(&String::from_utf8_lossy(&head))
}
