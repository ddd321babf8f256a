//! Reads the input files and everything they import, parsing each once.

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::diag::{Diagnostic, FileId, SourceMap};
use crate::syntax::{self, ast};

/// Deepest chain of imports followed. Distinct paths can lead on forever (a
/// symbolic link to a parent directory makes `sub/a.pkt`, `sub/sub/a.pkt`, ...),
/// which cycle detection by path cannot see.
const MAX_IMPORT_DEPTH: usize = 64;

/// Most files one compilation reads: far more than real schema sets use,
/// few enough that a pathological import graph stays fast to reject.
const MAX_FILES: usize = 1024;

/// Largest schema file: some hundred times the largest real schema, small
/// enough that a huge or endless file (`/dev/zero`) is refused before it is
/// read, and that every later pass stays fast.
pub const MAX_SOURCE_BYTES: u64 = 16 * 1024 * 1024;

/// The error for a file over [`MAX_SOURCE_BYTES`].
fn too_large(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "the file is {len} bytes, more than the {} MiB a schema file may have",
            MAX_SOURCE_BYTES / (1024 * 1024)
        ),
    )
}

/// The first bytes of a file that is not UTF-8, as the error of
/// [`utf8_text`]: the loader reports it at its line and column.
#[derive(Debug)]
pub struct NotUtf8 {
    /// The text with each invalid sequence replaced by U+FFFD, to show.
    pub lossy: String,
    /// The byte offset of the first invalid byte (the same in `lossy`).
    pub at: usize,
    pub byte: u8,
}

impl std::fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not UTF-8 (byte 0x{:02X} at offset {})",
            self.byte, self.at
        )
    }
}

impl std::error::Error for NotUtf8 {}

/// Schema text from a file's bytes, which must be UTF-8; a [`NotUtf8`]
/// error otherwise.
pub fn utf8_text(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bad = NotUtf8 {
            lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
            at,
            byte: e.as_bytes()[at],
        };
        io::Error::new(io::ErrorKind::InvalidData, bad)
    })
}

/// The text without a leading byte-order mark, which editors on Windows
/// write and which rustc and protoc accept too.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// The diagnostic for a file that [`utf8_text`] refused, pointing at its
/// first invalid byte in its text as shown (added to `sources`).
pub fn not_utf8_diagnostic(
    e: &io::Error,
    path: &Path,
    shown: String,
    sources: &mut SourceMap,
) -> Option<Diagnostic> {
    let bad = e.get_ref()?.downcast_ref::<NotUtf8>()?;
    let message = format!("{shown} is not UTF-8 text");
    let id = sources.add(path.to_path_buf(), shown, bad.lossy.clone());
    let end = bad.at + '\u{FFFD}'.len_utf8();
    Some(
        Diagnostic::error(
            message,
            crate::diag::Span::new(id, bad.at, end),
            format!("byte 0x{:02X} is not UTF-8", bad.byte),
        )
        .with_help("schema files are UTF-8; save the file as UTF-8 (an editor's encoding setting)"),
    )
}

/// Where schema text comes from: the file system, or e.g. a git revision.
pub trait FileReader {
    fn read(&self, path: &Path) -> io::Result<String>;

    /// How a file read through this reader is named in diagnostics.
    fn display(&self, path: &Path) -> String {
        display(path)
    }

    /// What identifies the file, so that one file reached by two paths is
    /// loaded once (and an import cycle through a symbolic link is seen as
    /// a cycle). Defaults to the path itself.
    fn identity(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
}

/// Reads from the file system.
pub struct FsReader;

impl FileReader for FsReader {
    fn read(&self, path: &Path) -> io::Result<String> {
        read_source(path)
    }

    fn identity(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }
}

/// Reads a schema file from the file system: a regular file (or a link to
/// one) of at most [`MAX_SOURCE_BYTES`]. Anything else is refused before a
/// byte is read: a FIFO would wait for a writer forever, a device may never
/// end.
pub fn read_source(path: &Path) -> io::Result<String> {
    use std::io::Read;
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > MAX_SOURCE_BYTES {
        return Err(too_large(len));
    }
    // Read one byte past the limit, in case the file grows meanwhile.
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    utf8_text(bytes)
}

/// Opens `path` for reading if it is a regular file. On Unix it is opened
/// without blocking (opening a FIFO for reading otherwise waits for a
/// writer) and its type is read from the open file, so a file swapped for
/// a FIFO after a check cannot slip through.
fn open_regular(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        Ok(file)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", describe_kind(kind)),
        ))
    }
}

/// What a file that is not a regular file is, for the error.
fn describe_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// A parsed file and the files its imports resolved to.
pub struct LoadedFile {
    pub id: FileId,
    pub ast: ast::File,
    /// For each import of `ast.imports`, the index of the imported file in
    /// [`Loaded::files`]; `None` where the import failed.
    pub imports: Vec<Option<usize>>,
    pub is_input: bool,
    /// The file did not parse: its syntax error is reported, and `ast` is
    /// empty, so what other files use from it is not reported again.
    pub unparsed: bool,
}

pub struct Loaded {
    pub sources: SourceMap,
    pub files: Vec<LoadedFile>,
}

/// Loads `inputs` and their imports. Files are returned in the order they are
/// first reached, inputs before what only they import. Problems in one file do
/// not stop the others from loading, so one run reports them all.
pub fn load(inputs: &[PathBuf], reader: &dyn FileReader) -> (Loaded, Vec<Diagnostic>) {
    load_into(SourceMap::default(), inputs, reader)
}

/// As [`load`], adding the files to `sources` (which may hold files of
/// another compilation, e.g. the old version of a schema being compared).
pub fn load_into(
    sources: SourceMap,
    inputs: &[PathBuf],
    reader: &dyn FileReader,
) -> (Loaded, Vec<Diagnostic>) {
    let mut cx = Loader {
        reader,
        loaded: Loaded {
            sources,
            files: Vec::new(),
        },
        paths: Vec::new(),
        diags: Vec::new(),
        stack: Vec::new(),
    };
    for input in inputs {
        let path = normalize(input);
        let id = reader.identity(&path);
        match cx.paths.iter().position(|p| *p == id) {
            Some(i) => cx.loaded.files[i].is_input = true,
            None => {
                if let Some(i) = cx.visit(&path, None) {
                    cx.loaded.files[i].is_input = true;
                }
            }
        }
    }
    (cx.loaded, cx.diags)
}

struct Loader<'r> {
    reader: &'r dyn FileReader,
    loaded: Loaded,
    /// Identity (see [`FileReader::identity`]) of each entry of `loaded.files`.
    paths: Vec<PathBuf>,
    diags: Vec<Diagnostic>,
    /// Files being loaded, for cycle detection.
    stack: Vec<usize>,
}

impl Loader<'_> {
    /// Loads one file and, depth first, its imports. `from` is the import that
    /// asked for it, for error locations.
    fn visit(&mut self, path: &Path, from: Option<&ast::Import>) -> Option<usize> {
        if let Some(imp) = from {
            let too_many = if self.stack.len() >= MAX_IMPORT_DEPTH {
                Some(format!(
                    "imports nest more than {MAX_IMPORT_DEPTH} files deep"
                ))
            } else if self.loaded.files.len() >= MAX_FILES {
                Some(format!("more than {MAX_FILES} files are imported"))
            } else {
                None
            };
            if let Some(message) = too_many {
                self.diags.push(
                    Diagnostic::error(message, imp.span, "not followed").with_help(
                        "check for a symbolic link that points back to a parent directory",
                    ),
                );
                return None;
            }
        }
        let read = self.reader.read(path).and_then(|t| {
            // Other readers (git revisions, tests) are held to the same limit.
            if t.len() as u64 > MAX_SOURCE_BYTES {
                Err(too_large(t.len() as u64))
            } else {
                Ok(t)
            }
        });
        let text = match read {
            Ok(mut t) => {
                let bom = t.len() - without_bom(&t).len();
                t.drain(..bom);
                t
            }
            Err(e) => {
                let shown = display(path);
                if let Some(d) = not_utf8_diagnostic(
                    &e,
                    path,
                    self.reader.display(path),
                    &mut self.loaded.sources,
                ) {
                    self.diags.push(d);
                    return None;
                }
                let d = match from {
                    Some(imp) => Diagnostic::error(
                        format!("cannot import `{}`: {}", imp.path, describe_io(&e)),
                        imp.span,
                        format!("looked for {shown}"),
                    )
                    .with_help("import paths are relative to the importing file"),
                    None => Diagnostic::bare(format!("cannot read {shown}: {}", describe_io(&e))),
                };
                self.diags.push(d);
                return None;
            }
        };
        let id = self
            .loaded
            .sources
            .add(path.to_path_buf(), self.reader.display(path), text);
        let index = self.loaded.files.len();
        let source = &self.loaded.sources.get(id).text;
        let (ast, unparsed) = match syntax::parse(source, id) {
            Ok(ast) => (ast, false),
            Err(d) => {
                self.diags.push(d);
                let empty = ast::File {
                    namespace: None,
                    imports: Vec::new(),
                    items: Vec::new(),
                };
                (empty, true)
            }
        };
        let imports = ast.imports.clone();
        self.loaded.files.push(LoadedFile {
            id,
            ast,
            imports: Vec::new(),
            is_input: false,
            unparsed,
        });
        self.paths.push(self.reader.identity(path));
        self.stack.push(index);

        let dir = path.parent().unwrap_or(Path::new(""));
        let mut resolved = Vec::with_capacity(imports.len());
        for imp in &imports {
            let target = normalize(&dir.join(&imp.path));
            let id = self.reader.identity(&target);
            let r = match self.paths.iter().position(|p| *p == id) {
                Some(i) if self.stack.contains(&i) => {
                    self.diags.push(self.cycle_error(i, imp));
                    None
                }
                Some(i) => Some(i),
                None => self.visit(&target, Some(imp)),
            };
            resolved.push(r);
        }
        self.stack.pop();
        self.loaded.files[index].imports = resolved;
        Some(index)
    }

    fn cycle_error(&self, target: usize, imp: &ast::Import) -> Diagnostic {
        let start = self.stack.iter().position(|&i| i == target).unwrap_or(0);
        let mut chain: Vec<String> = self.stack[start..]
            .iter()
            .map(|&i| {
                self.loaded
                    .sources
                    .get(self.loaded.files[i].id)
                    .name
                    .clone()
            })
            .collect();
        chain.push(chain[0].clone());
        Diagnostic::error(
            format!("import cycle: {}", chain.join(" → ")),
            imp.span,
            "this import leads back to a file that is still being loaded",
        )
        .with_help("move the shared declarations into a file that both can import")
    }
}

/// An I/O error as every command words it: `no such file`, `permission
/// denied`, …, without the operating system's error number.
pub fn describe_io(e: &io::Error) -> String {
    let text = match e.kind() {
        io::ErrorKind::NotFound => return "no such file".to_string(),
        io::ErrorKind::PermissionDenied => return "permission denied".to_string(),
        io::ErrorKind::AlreadyExists => return "already exists".to_string(),
        _ => e.to_string(),
    };
    let text = match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    };
    // `Not a directory` → `not a directory`, as the messages above.
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if chars.clone().next().is_some_and(|n| n.is_lowercase()) => {
            c.to_lowercase().chain(chars).collect()
        }
        _ => text,
    }
}

/// Removes `.` and resolves `..` without touching the file system, so the
/// same file reached two ways is loaded once.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A path as shown to people: `/` separators on every platform.
pub fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_lexically() {
        assert_eq!(
            normalize(Path::new("a/./b/../c.pkt")),
            PathBuf::from("a/c.pkt")
        );
        assert_eq!(normalize(Path::new("../x.pkt")), PathBuf::from("../x.pkt"));
    }
}
