//! Diagnostics are plain values; [`render`] is the one place that turns them
//! into rustc-style text.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path used to read the file.
    pub path: PathBuf,
    /// The path as shown in diagnostics and generated headers.
    pub name: String,
    pub text: String,
}

/// Every file read during one compilation.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, name: String, text: String) -> FileId {
        self.files.push(SourceFile { path, name, text });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn find(&self, path: &Path) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(|i| FileId(i as u32))
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let text = &self.get(file).text;
        let offset = (offset as usize).min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        (line, col)
    }

    fn line_text(&self, file: FileId, line: usize) -> &str {
        self.get(file)
            .text
            .lines()
            .nth(line - 1)
            .unwrap_or("")
            .trim_end_matches('\r')
    }
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// A problem found in a schema, ready to render.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            labels: vec![Label {
                span,
                message: label.into(),
                primary: true,
            }],
            help: None,
            notes: Vec::new(),
        }
    }

    pub fn warning(message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, span, label)
        }
    }

    /// A diagnostic that is not about a place in a file (e.g. an unreadable input).
    pub fn bare(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
        }
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The span of the primary label, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }

    /// The diagnostic as JSON, for tools that report to bots: message,
    /// labels with file, line and column, help and notes.
    pub fn to_json(&self, sources: &SourceMap) -> serde_json::Value {
        let labels: Vec<serde_json::Value> = self
            .labels
            .iter()
            .map(|l| {
                let (line, column) = sources.line_col(l.span.file, l.span.start);
                serde_json::json!({
                    "file": sources.get(l.span.file).name,
                    "line": line,
                    "column": column,
                    "label": l.message,
                    "primary": l.primary,
                })
            })
            .collect();
        serde_json::json!({
            "severity": match self.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            "message": self.message,
            "labels": labels,
            "help": self.help,
            "notes": self.notes,
        })
    }
}

/// A warning that a schema can turn off for one type by writing
/// `@allow(name)` before it, where the type is deliberate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lint {
    /// A type named like the last segment of its namespace (`Sky.Guild.Guild`
    /// in C#), which C# code in an enclosing namespace cannot name.
    TypeNamedLikeNamespace,
}

impl Lint {
    pub const ALL: [Lint; 1] = [Lint::TypeNamedLikeNamespace];

    /// The name `@allow` takes.
    pub fn name(self) -> &'static str {
        match self {
            Lint::TypeNamedLikeNamespace => "type_named_like_namespace",
        }
    }

    pub fn from_name(name: &str) -> Option<Lint> {
        Lint::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// Renders diagnostics in the order given, separated by blank lines, followed
/// by a summary line when there is more than one error.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&render(d, sources));
        out.push('\n');
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if errors > 1 {
        let _ = writeln!(out, "error: aborting due to {errors} previous errors");
    }
    out
}

/// Renders one diagnostic:
///
/// ```text
/// error: unknown type `Vec4`
///   --> schemas/game.pkt:4:10
///    |
///  4 |     pos: Vec4,
///    |          ^^^^ not declared in this file or its imports
///    |
///    = help: did you mean `Vec3`?
/// ```
pub fn render(d: &Diagnostic, sources: &SourceMap) -> String {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    render_as(level, d, sources)
}

/// As [`render`], with another word in place of `error` or `warning` (the
/// compatibility report says `breaking`, `safe` or `source-only`).
pub fn render_as(level: &str, d: &Diagnostic, sources: &SourceMap) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{level}: {}", d.message);

    // Labels grouped by file, primary file first, then by position.
    let mut labels: Vec<&Label> = d.labels.iter().collect();
    labels.sort_by_key(|l| (!l.primary, l.span.file, l.span.start));
    let primary_file = labels.first().map(|l| l.span.file);
    let mut by_file: Vec<(FileId, Vec<&Label>)> = Vec::new();
    for l in labels {
        match by_file.iter_mut().find(|(f, _)| *f == l.span.file) {
            Some((_, v)) => v.push(l),
            None => by_file.push((l.span.file, vec![l])),
        }
    }
    let width = d
        .labels
        .iter()
        .map(|l| {
            sources
                .line_col(l.span.file, l.span.start)
                .0
                .to_string()
                .len()
        })
        .max()
        .unwrap_or(1);
    let pad = " ".repeat(width);

    for (i, (file, mut group)) in by_file.into_iter().enumerate() {
        if i > 0 {
            let _ = writeln!(out, "{pad} |");
        }
        group.sort_by_key(|l| l.span.start);
        let anchor = group.iter().find(|l| l.primary).unwrap_or(&group[0]);
        let (line, col) = sources.line_col(file, anchor.span.start);
        let arrow = if Some(file) == primary_file && anchor.primary {
            "-->"
        } else {
            ":::"
        };
        let _ = writeln!(out, "{pad}{arrow} {}:{line}:{col}", sources.get(file).name);
        let _ = writeln!(out, "{pad} |");
        let mut last_line = None;
        for l in &group {
            let (line, col) = sources.line_col(file, l.span.start);
            let text = sources.line_text(file, line);
            if let Some(prev) = last_line {
                if line > prev + 1 {
                    let _ = writeln!(out, "{pad}...");
                }
            }
            if last_line != Some(line) {
                let _ = writeln!(out, "{line:>width$} | {text}");
            }
            last_line = Some(line);
            // Underline up to the end of the span or of the line, whichever comes first.
            let (end_line, end_col) = sources.line_col(file, l.span.end.max(l.span.start));
            let line_chars = text.chars().count();
            let end_col = if end_line == line {
                end_col
            } else {
                line_chars + 1
            };
            let len = end_col.saturating_sub(col).max(1);
            let marker = if l.primary { "^" } else { "-" };
            let indent: String = text
                .chars()
                .take(col - 1)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let underline = marker.repeat(len);
            if l.message.is_empty() {
                let _ = writeln!(out, "{pad} | {indent}{underline}");
            } else {
                let _ = writeln!(out, "{pad} | {indent}{underline} {}", l.message);
            }
        }
    }
    if d.help.is_some() || !d.notes.is_empty() {
        if !d.labels.is_empty() {
            let _ = writeln!(out, "{pad} |");
        }
        for note in &d.notes {
            let _ = writeln!(out, "{pad} = note: {note}");
        }
        if let Some(help) = &d.help {
            let _ = writeln!(out, "{pad} = help: {help}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_caret_under_span_with_help() {
        let mut sm = SourceMap::default();
        let f = sm.add(
            "a.pkt".into(),
            "a.pkt".into(),
            "struct A {\n    pos: Vec4,\n}\n".into(),
        );
        let start = 20;
        let d = Diagnostic::error(
            "unknown type `Vec4`",
            Span::new(f, start, start + 4),
            "here",
        )
        .with_help("did you mean `Vec3`?");
        let text = render(&d, &sm);
        assert_eq!(
            text,
            "error: unknown type `Vec4`\n --> a.pkt:2:10\n  |\n2 |     pos: Vec4,\n  |          ^^^^ here\n  |\n  = help: did you mean `Vec3`?\n"
        );
    }

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let mut sm = SourceMap::default();
        let f = sm.add("a".into(), "a".into(), "// é\nx".into());
        assert_eq!(sm.line_col(f, 6), (2, 1));
        assert_eq!(sm.line_col(f, 4), (1, 4));
    }
}
