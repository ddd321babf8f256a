//! Diagnostics are plain values; [`render`] is the one place that turns them
//! into rustc-style text.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::text::{escaped, escaped_width};

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
    index: LineIndex,
}

/// Where lines and characters are in a text, found once when the file is
/// read, so that placing a diagnostic costs a binary search and a short
/// scan however many diagnostics a file has and however long its lines are.
#[derive(Debug, Clone)]
struct LineIndex {
    /// The byte offset where each line starts, the first at 0.
    line_starts: Vec<u32>,
    /// The number of characters before byte `k * CHAR_STRIDE`, for each `k`.
    chars_before: Vec<u32>,
}

/// Bytes between two entries of [`LineIndex::chars_before`]: the most a
/// character count scans.
const CHAR_STRIDE: usize = 256;

impl LineIndex {
    fn new(text: &str) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
            .collect();
        let mut chars = 0u32;
        let mut chars_before: Vec<u32> = text
            .as_bytes()
            .chunks(CHAR_STRIDE)
            .map(|chunk| {
                let before = chars;
                chars += count_chars(chunk);
                before
            })
            .collect();
        // For the end of a text whose length is a multiple of the stride.
        chars_before.push(chars);
        LineIndex {
            line_starts,
            chars_before,
        }
    }

    /// The 0-based line holding byte `offset`, and where that line starts.
    fn line_of(&self, offset: usize) -> (usize, usize) {
        let line = self
            .line_starts
            .partition_point(|&start| start as usize <= offset)
            - 1;
        (line, self.line_starts[line] as usize)
    }

    /// The number of characters before `offset`, a character boundary of
    /// `text` (its end included).
    fn chars_to(&self, text: &str, offset: usize) -> usize {
        let k = offset / CHAR_STRIDE;
        self.chars_before[k] as usize
            + count_chars(&text.as_bytes()[k * CHAR_STRIDE..offset]) as usize
    }
}

/// The characters that start in `bytes` (every byte but UTF-8 continuations).
fn count_chars(bytes: &[u8]) -> u32 {
    #[cfg(test)]
    tests::SCANNED.with(|n| n.set(n.get() + bytes.len()));
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32
}

impl SourceFile {
    fn new(path: PathBuf, name: String, text: String) -> Self {
        let index = LineIndex::new(&text);
        SourceFile {
            path,
            name,
            text,
            index,
        }
    }

    /// 1-based line and column (in characters) of byte `offset`, and the
    /// byte range of that line without its line break.
    fn locate(&self, offset: u32) -> (usize, usize, std::ops::Range<usize>) {
        let text = &self.text;
        let offset = floor_char_boundary(text, (offset as usize).min(text.len()));
        let (line, start) = self.index.line_of(offset);
        let col = self.index.chars_to(text, offset) - self.index.chars_to(text, start);
        let end = self
            .index
            .line_starts
            .get(line + 1)
            .map_or(text.len(), |&next| next as usize - 1);
        let end = start + text[start..end].trim_end_matches('\r').len();
        (line + 1, col + 1, start..end)
    }
}

/// Every file read during one compilation.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, name: String, text: String) -> FileId {
        self.files.push(SourceFile::new(path, name, text));
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
        let (line, col, _) = self.get(file).locate(offset);
        (line, col)
    }
}

/// Source lines up to this many bytes are shown whole; a longer one is cut
/// to the part around the label, so that a diagnostic's size does not grow
/// with its line (a schema written on one line may have thousands).
const SHOWN_LINE: usize = 160;

/// Bytes of a long line shown on each side of a label.
const SHOWN_CONTEXT: usize = 60;

/// A label and where its span lies on its first line.
struct Placed<'a> {
    label: &'a Label,
    /// 1-based.
    line: usize,
    /// The line's bytes in the file, without its line break.
    line_range: Range<usize>,
    /// Where the span starts and ends in the line's bytes; a span that runs
    /// on past its line is underlined to the line's end.
    start: usize,
    end: usize,
}

impl<'a> Placed<'a> {
    fn new(source: &SourceFile, label: &'a Label) -> Self {
        let text = &source.text;
        let (line, _, line_range) = source.locate(label.span.start);
        let at = |offset: u32| floor_char_boundary(text, (offset as usize).min(text.len()));
        let start = at(label.span.start) - line_range.start;
        let end = at(label.span.end.max(label.span.start));
        let end = end.min(line_range.end) - line_range.start;
        Placed {
            label,
            line,
            line_range,
            start,
            end,
        }
    }

    /// Whether the span starts inside `window` of a line `len` bytes long.
    fn fits(&self, window: &Range<usize>, len: usize) -> bool {
        self.start >= window.start && (self.start < window.end || window.end == len)
    }
}

/// The bytes of `line` shown for labels from byte `start` reaching to
/// `reach`: the whole line when it is short, else the part around them.
fn window(line: &str, start: usize, reach: usize) -> Range<usize> {
    if line.len() <= SHOWN_LINE {
        return 0..line.len();
    }
    let from = floor_char_boundary(line, start.saturating_sub(SHOWN_CONTEXT));
    let to = reach
        .max(start)
        .saturating_add(SHOWN_CONTEXT)
        .min(from + SHOWN_LINE)
        .min(line.len());
    from..ceil_char_boundary(line, to)
}

/// `window` of `line`, with `...` where it is cut, and with the characters
/// a terminal must not receive as they are escaped ([`escaped`]: a control
/// character or a bidirectional override in a hostile schema becomes a
/// visible `\u202E`).
fn shown(line: &str, window: &Range<usize>) -> String {
    let before = if window.start > 0 { "..." } else { "" };
    let after = if window.end < line.len() { "..." } else { "" };
    format!("{before}{}{after}", escaped(&line[window.clone()]))
}

/// What goes before a label's underline in `window` of `line` as [`shown`]
/// shows it (a space per character shown before it, a tab for a tab, to
/// line up), and how many characters it underlines (at least one).
fn underline(line: &str, window: &Range<usize>, start: usize, end: usize) -> (String, usize) {
    let mut indent = String::new();
    if window.start > 0 {
        indent.push_str("   ");
    }
    for c in line[window.start..start].chars() {
        if c == '\t' {
            indent.push('\t');
        } else {
            indent.extend(std::iter::repeat_n(' ', escaped_width(c)));
        }
    }
    let underlined: usize = line[start..end.min(window.end).max(start)]
        .chars()
        .map(escaped_width)
        .sum();
    (indent, underlined.max(1))
}

fn ceil_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
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
    /// The target language the diagnostic is about, as that language's
    /// backend names itself (`Naming::language`: `C#`), when only code in
    /// that language meets the problem: a warning about a C# name. Set
    /// where the diagnostic is made ([`Diagnostic::for_language`]); `None`
    /// for what concerns every language. `pktc gen` shows a warning only to
    /// the language it is about ([`Diagnostic::concerns`]).
    pub language: Option<&'static str>,
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
            language: None,
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
            language: None,
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

    /// The diagnostic concerns only code in `language` (a backend's
    /// `Naming::language`).
    pub fn for_language(mut self, language: &'static str) -> Self {
        self.language = Some(language);
        self
    }

    /// Whether the diagnostic concerns code in `lang`: it is about every
    /// language, or about that one.
    pub fn concerns(&self, lang: crate::Lang) -> bool {
        self.language.is_none_or(|l| l == lang.display())
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
            "language": self.language,
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
    // Schema text reaches every part of a diagnostic (names, paths, string
    // defaults in messages and labels): escaped like the source lines.
    let _ = writeln!(out, "{level}: {}", escaped(&d.message));

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
        let name = escaped(&sources.get(file).name);
        let _ = writeln!(out, "{pad}{arrow} {name}:{line}:{col}");
        let _ = writeln!(out, "{pad} |");
        let source = sources.get(file);
        let placed: Vec<Placed> = group.iter().map(|l| Placed::new(source, l)).collect();
        let mut last: Option<(usize, Range<usize>)> = None;
        for (i, p) in placed.iter().enumerate() {
            let line_text = &source.text[p.line_range.clone()];
            let window = match &last {
                Some((line, w)) if *line == p.line && p.fits(w, line_text.len()) => w.clone(),
                _ => {
                    // As far as the labels after this one on its line reach.
                    let reach = placed[i..]
                        .iter()
                        .take_while(|q| q.line == p.line)
                        .map(|q| q.end)
                        .max()
                        .unwrap_or(p.end);
                    let w = window(line_text, p.start, reach);
                    if let Some((prev, _)) = &last {
                        if p.line > prev + 1 {
                            let _ = writeln!(out, "{pad}...");
                        }
                    }
                    let _ = writeln!(out, "{:>width$} | {}", p.line, shown(line_text, &w));
                    w
                }
            };
            let (indent, underline) = underline(line_text, &window, p.start, p.end);
            let marker = if p.label.primary { "^" } else { "-" };
            let underline = marker.repeat(underline);
            if p.label.message.is_empty() {
                let _ = writeln!(out, "{pad} | {indent}{underline}");
            } else {
                let message = escaped(&p.label.message);
                let _ = writeln!(out, "{pad} | {indent}{underline} {message}");
            }
            last = Some((p.line, window));
        }
    }
    if d.help.is_some() || !d.notes.is_empty() {
        if !d.labels.is_empty() {
            let _ = writeln!(out, "{pad} |");
        }
        for note in &d.notes {
            let _ = writeln!(out, "{pad} = note: {}", escaped(note));
        }
        if let Some(help) = &d.help {
            let _ = writeln!(out, "{pad} = help: {}", escaped(help));
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

    thread_local! {
        /// Bytes the character counts of this thread have read.
        pub(super) static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Line and column the slow way: everything before the offset, counted.
    fn counted(text: &str, offset: usize) -> (usize, usize) {
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (
            before.matches('\n').count() + 1,
            before[line_start..].chars().count() + 1,
        )
    }

    /// Placing a diagnostic reads a bounded number of bytes, not the file
    /// up to it: 16,000 of them in a file of 16,000 lines and one of 16,000
    /// declarations on a line (the shapes that took half a minute when each
    /// counted the lines before it) read the text once to index it, then at
    /// most two strides each.
    #[test]
    fn placing_a_diagnostic_reads_a_bounded_number_of_bytes() {
        let decl = "struct \u{e9}A { x: u8 } ";
        for text in [
            decl.repeat(16_000).replace("} ", "}\n"),
            decl.repeat(16_000),
        ] {
            let mut sm = SourceMap::default();
            SCANNED.with(|n| n.set(0));
            let f = sm.add("a".into(), "a".into(), text.clone());
            let indexed = SCANNED.with(|n| n.replace(0));
            assert_eq!(indexed, text.len());
            let offsets: Vec<usize> = text.match_indices('A').map(|(i, _)| i).collect();
            assert_eq!(offsets.len(), 16_000);
            for &at in &offsets {
                sm.line_col(f, at as u32);
            }
            let scanned = SCANNED.with(|n| n.get());
            assert!(
                scanned <= offsets.len() * 2 * CHAR_STRIDE,
                "{scanned} bytes read to place {} diagnostics",
                offsets.len()
            );
            for &at in offsets.iter().step_by(997).chain([0, text.len()].iter()) {
                assert_eq!(sm.line_col(f, at as u32), counted(&text, at), "at {at}");
            }
        }
    }

    /// Every offset of texts around the stride's multiples, `é` and line
    /// breaks included, the end too.
    #[test]
    fn line_col_is_right_at_every_offset() {
        let lens = [0, 1, 255, 256, 257, 511, 512, 513];
        for (len, pattern) in lens
            .iter()
            .flat_map(|&n| [(n, "ab\u{e9}\ncd\r\nx"), (n, "ab\ncd\r\nx")])
        {
            let text: String = pattern.chars().cycle().take(len).collect();
            let mut sm = SourceMap::default();
            let f = sm.add("a".into(), "a".into(), text.clone());
            for at in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(
                    sm.line_col(f, at as u32),
                    counted(&text, at),
                    "{len}: at {at}"
                );
            }
        }
    }

    /// Schema text reaches a terminal escaped: a hostile schema's bidi
    /// overrides, escape sequences and line breaks (in the source line, the
    /// file name, the message, labels, notes and help) show as `\u202E`,
    /// and the underline stays under its span, each escaped character
    /// taking the six columns it is shown in.
    #[test]
    fn schema_text_is_escaped_and_underlined_where_it_is_shown() {
        let line = "message A\u{202E}\u{1B}[2J { x: Vec4, }\u{2028}// \u{2066}\r";
        let mut sm = SourceMap::default();
        let f = sm.add(
            "evil\u{1B}]0;x\u{7}.pkt".into(),
            "evil\u{1B}]0;x\u{7}.pkt".into(),
            format!("{line}\nnext\n"),
        );
        let name = line.find('A').unwrap();
        let ty = line.find("Vec4").unwrap();
        let d = Diagnostic::error(
            "unknown type `Vec4\u{202E}`",
            Span::new(f, ty, ty + 4),
            "not declared\u{2029}here",
        )
        .with_label(
            Span::new(f, name, line.find(" {").unwrap()),
            "in `A\u{202E}\u{1B}[2J`",
        )
        .with_note("see \u{2067}")
        .with_help("did you mean `Vec3`?\n\u{1B}[31m");
        let shown = render(&d, &sm);
        assert!(
            !shown
                .chars()
                .any(|c| c != '\n' && crate::text::must_escape(c)),
            "{shown:?}"
        );
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(
            lines,
            [
                "error: unknown type `Vec4\\u202E`",
                " --> evil\\u001B]0;x\\u0007.pkt:1:21",
                "  |",
                "1 | message A\\u202E\\u001B[2J { x: Vec4, }\\u2028// \\u2066",
                "  |         ---------------- in `A\\u202E\\u001B[2J`",
                "  |                               ^^^^ not declared\\u2029here",
                "  |",
                "  = note: see \\u2067",
                "  = help: did you mean `Vec3`?\\u000A\\u001B[31m",
            ],
            "{shown}"
        );
        // The carets stand under the text they name, as shown.
        let source = &lines[3]["1 | ".len()..];
        let at = |l: &str, c: char| l.find(c).unwrap() - "  | ".len();
        assert_eq!(at(lines[5], '^'), source.find("Vec4").unwrap());
        assert_eq!(at(lines[4], '-'), source.find('A').unwrap());
        assert_eq!(
            lines[4].matches('-').count(),
            source.find(" {").unwrap() - source.find('A').unwrap()
        );
    }

    /// A diagnostic on a long line shows the part around its labels, so
    /// its size does not grow with the line; labels far apart on the line
    /// get a part each.
    #[test]
    fn a_long_line_is_cut_around_the_labels() {
        let text = format!(
            "{}struct A {{}} struct A {{}}{}",
            "x ".repeat(5000),
            " y".repeat(5000)
        );
        let mut sm = SourceMap::default();
        let f = sm.add("a.pkt".into(), "a.pkt".into(), text.clone());
        let first = text.find("A").unwrap();
        let second = text.rfind("A").unwrap();
        let d = Diagnostic::error(
            "`A` is declared twice",
            Span::new(f, second, second + 1),
            "declared again here",
        )
        .with_label(Span::new(f, first, first + 1), "first declared here");
        let shown = render(&d, &sm);
        assert!(shown.len() < 3 * SHOWN_LINE, "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[1], " --> a.pkt:1:10020");
        assert!(
            lines[3].starts_with("1 | ... x x")
                && lines[3].contains(" x struct A {} struct A {} y "),
            "{shown}"
        );
        assert!(lines[3].ends_with(" y ..."), "{shown}");
        let caret = |l: &str, c: char| l.find(c).unwrap() - "  | ".len();
        let source_line = &lines[3]["1 | ".len()..];
        assert_eq!(caret(lines[4], '-'), source_line.find("A").unwrap());
        assert_eq!(caret(lines[5], '^'), source_line.rfind("A").unwrap());

        let far = Diagnostic::error("far", Span::new(f, 2, 3), "here")
            .with_label(Span::new(f, second, second + 1), "and here");
        let shown = render(&far, &sm);
        assert_eq!(shown.matches("1 | ").count(), 2, "{shown}");
        assert!(shown.len() < 4 * SHOWN_LINE, "{shown}");
    }
}
