//! Canonical formatting of `.pkt` source (`pktc fmt`).
//!
//! The layout comes from the syntax tree; the comments, which the tree does
//! not hold, come from [`trivia::comments`] and are put back by position:
//! before emitting a token written at source offset `p`, every comment that
//! starts before `p` is written first. A comment that shared a line with the
//! code before it stays on that line (after it); a block comment that shared
//! a line only with the code after it stays before that code; any other
//! comment gets a line of its own. Blank lines are kept, at most one in a
//! row, and items are always separated by exactly one, but for constants on
//! consecutive lines, which stay together. An attribute the author wrote on
//! the line before a member (`@deprecated("...")` above a field) stays on a
//! line of its own; one written on the member's line stays there.
//!
//! Nothing is aligned in columns (no `=` of enum values, no trailing
//! comments), so adding or renaming a line changes that line only. The file
//! keeps its line breaks: `\r\n` if its first line ends so (a Windows
//! checkout with `core.autocrlf`), else `\n`.
//!
//! Literals are written exactly as in the source (`0xFF_FF` stays), so is the
//! text of every comment (block comments verbatim but for their line breaks,
//! line comments without trailing whitespace). The result parses to the same
//! tree as the input, and formatting it again changes nothing.

use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::*;
use crate::syntax::trivia::{self, line_breaks, Comment, CommentKind};

const INDENT: usize = 4;

/// Formats one file's text. Fails with the syntax error if it does not parse.
/// A byte-order mark stays.
pub fn format_source(text: &str) -> Result<String, Diagnostic> {
    let body = crate::load::without_bom(text);
    let file = crate::syntax::parse(body, FileId(0))?;
    Ok(format!(
        "{}{}",
        &text[..text.len() - body.len()],
        format_file(body, &file)
    ))
}

/// Formats the file at `path`; rewrites it if that changes it, unless
/// `check`. Returns whether the formatted text differs from the file. The
/// error is ready to print (a rendered syntax error or an I/O error).
pub fn format_path(path: &std::path::Path, check: bool) -> Result<bool, String> {
    let shown = crate::load::display(path);
    let mut sources = crate::diag::SourceMap::default();
    let text =
        crate::load::read_source(path).map_err(|e| {
            match crate::load::not_utf8_diagnostic(&e, path, shown.clone(), &mut sources) {
                Some(d) => crate::diag::render(&d, &sources).trim_end().to_string(),
                None => format!(
                    "error: cannot read {shown}: {}",
                    crate::load::describe_io(&e)
                ),
            }
        })?;
    let formatted = match format_source(&text) {
        Ok(f) => f,
        Err(d) => {
            let body = crate::load::without_bom(&text).to_string();
            sources.add(path.to_path_buf(), shown, body);
            return Err(crate::diag::render(&d, &sources).trim_end().to_string());
        }
    };
    if formatted == text {
        return Ok(false);
    }
    if !check {
        std::fs::write(path, &formatted).map_err(|e| {
            format!(
                "error: cannot write {shown}: {}",
                crate::load::describe_io(&e)
            )
        })?;
    }
    Ok(true)
}

/// Formats `file`, which must have been parsed from `text`.
pub fn format_file(text: &str, file: &File) -> String {
    let mut w = Writer::new(text);
    w.file(file);
    w.finish()
}

#[derive(Default)]
struct Line {
    indent: usize,
    text: String,
    blank: bool,
}

struct Writer<'a> {
    src: &'a str,
    comments: Vec<Comment>,
    /// The first comment not written yet.
    next: usize,
    /// Source offset just past the last token or comment written.
    last: usize,
    lines: Vec<Line>,
    /// A line comment ended the current line: the next token needs a new one.
    need_break: bool,
    /// A block comment was written inline: the next token needs a space.
    space: bool,
    /// A block comment opened the current line and the code after it in the
    /// source follows on the same line: the next member goes on this line.
    leading: bool,
    /// Indentation of the lines of the current block.
    indent: usize,
    /// A blank line may be written before the next line (not right after `{`).
    blank_ok: bool,
    /// The source offset of the line that must be preceded by a blank line.
    force_blank_at: Option<usize>,
}

impl<'a> Writer<'a> {
    fn new(src: &'a str) -> Self {
        Writer {
            src,
            comments: trivia::comments(src),
            next: 0,
            last: 0,
            lines: Vec::new(),
            need_break: false,
            space: false,
            leading: false,
            indent: 0,
            blank_ok: false,
            force_blank_at: None,
        }
    }

    fn text(&self, span: Span) -> &'a str {
        &self.src[span.start as usize..span.end as usize]
    }

    fn gap(&self, from: usize, to: usize) -> usize {
        line_breaks(&self.src[from.min(to)..to])
    }

    fn line(&mut self) -> &mut Line {
        if self.lines.is_empty() {
            self.lines.push(Line::default());
        }
        self.lines.last_mut().expect("a line exists")
    }

    fn start_line(&mut self, indent: usize, blank: bool) {
        let after_blank = self.lines.last().is_none_or(|l| l.blank);
        if blank && self.blank_ok && !after_blank {
            self.lines.push(Line {
                blank: true,
                ..Line::default()
            });
        }
        self.lines.push(Line {
            indent,
            ..Line::default()
        });
        self.need_break = false;
        self.space = false;
        self.leading = false;
        self.blank_ok = true;
    }

    /// Writes the comments that start before `to`. Comments on lines of their
    /// own are indented for the block, or as a continuation (`cont`) when they
    /// sit inside a declaration.
    fn flush(&mut self, to: usize, cont: bool) {
        while let Some(&c) = self.comments.get(self.next) {
            if c.start >= to {
                break;
            }
            self.next += 1;
            let breaks = self.gap(self.last, c.start);
            let open_line = self
                .lines
                .last()
                .is_some_and(|l| !l.blank && !l.text.is_empty());
            let text = c.text(self.src);
            if breaks > 0 || c.kind == CommentKind::Doc || !open_line {
                let indent = self.indent + if cont { INDENT } else { 0 };
                let forced = self.force_blank_at == Some(c.start);
                self.start_line(indent, breaks >= 2 || forced);
                self.line().text.push_str(text);
                // What follows the comment in the source: the next comment
                // or the token.
                let next = self.comments.get(self.next).map_or(to, |n| n.start.min(to));
                let code_follows = c.kind == CommentKind::Block && self.gap(c.start, next) == 0;
                self.leading = code_follows;
                self.space = code_follows;
                self.need_break = !code_follows;
            } else {
                let line = self.line();
                if !line.text.ends_with(' ') {
                    line.text.push(' ');
                }
                line.text.push_str(text);
                self.space = true;
                self.need_break = c.kind != CommentKind::Block;
            }
            self.last = c.end;
        }
    }

    /// Writes code with no source position of its own (punctuation, spaces).
    fn put(&mut self, s: &str) {
        if self.need_break {
            let indent = self.indent + INDENT;
            self.start_line(indent, false);
        }
        let space = std::mem::take(&mut self.space);
        self.leading = false;
        let line = self.line();
        if space && !s.starts_with([',', ';', ')', '>', ']', ' ']) && !line.text.ends_with(' ') {
            line.text.push(' ');
        }
        line.text.push_str(s);
    }

    /// Writes punctuation the source has next (`s` trimmed, after spaces and
    /// comments), after the comments before it, so that a comment written
    /// before a `=` or `;` stays before it.
    fn punct(&mut self, s: &str) {
        let at = trivia::skip(self.src, self.last);
        let token = s.trim();
        if self.src[at..].starts_with(token) {
            self.tok(s, at, at + token.len());
        } else {
            self.put(s);
        }
    }

    /// Writes a token that the source has at `start..end`, after the
    /// comments that precede it.
    fn tok(&mut self, s: &str, start: usize, end: usize) {
        self.flush(start, true);
        self.put(s);
        self.last = self.last.max(end);
    }

    fn tok_span(&mut self, s: &str, span: Span) {
        self.tok(s, span.start as usize, span.end as usize);
    }

    fn lit(&mut self, l: &Literal) {
        let text = self.text(l.span);
        self.tok_span(text, l.span);
    }

    /// Starts the line of a declaration or member whose first token is at
    /// `to`, after the comments before it. With `force_blank`, the comments
    /// that belong to it (no blank line between them and it) and it are
    /// preceded by exactly one blank line.
    fn line_break(&mut self, to: usize, force_blank: bool) {
        if force_blank && !self.lines.is_empty() {
            self.force_blank_at = Some(self.leading_block(to));
        }
        self.flush(to, false);
        if self.leading && !self.need_break {
            // `/* note */ field: u8`: the member goes on the comment's line.
            self.leading = false;
            self.force_blank_at = None;
            return;
        }
        let blank = self.gap(self.last, to) >= 2 || self.force_blank_at == Some(to);
        self.start_line(self.indent, blank);
        self.force_blank_at = None;
    }

    /// Where the comments directly above the token at `to` begin.
    fn leading_block(&self, to: usize) -> usize {
        let end = self.comments[self.next..]
            .iter()
            .position(|c| c.start >= to)
            .map_or(self.comments.len(), |i| self.next + i);
        let mut lead = to;
        for j in (self.next..end).rev() {
            let c = self.comments[j];
            if self.gap(c.end, lead) >= 2 {
                break;
            }
            let prev = if j > self.next {
                self.comments[j - 1].end
            } else {
                self.last
            };
            if self.gap(prev, c.start) == 0 && c.kind != CommentKind::Doc {
                break;
            }
            lead = c.start;
        }
        lead
    }

    fn file(&mut self, f: &File) {
        if let Some(ns) = &f.namespace {
            self.line_break(ns.keyword.start as usize, false);
            self.tok_span("namespace", ns.keyword);
            self.put(" ");
            let path: Vec<&str> = ns.path.iter().map(|i| i.name.as_str()).collect();
            if let (Some(first), Some(last)) = (ns.path.first(), ns.path.last()) {
                self.tok(
                    &path.join("."),
                    first.span.start as usize,
                    last.span.end as usize,
                );
            }
            self.punct(";");
        }
        for (i, imp) in f.imports.iter().enumerate() {
            let start = imp.span.start as usize;
            self.line_break(start, i == 0);
            self.tok("import", start, start + "import".len());
            self.put(" ");
            let path = self.text(imp.path_span);
            self.tok_span(path, imp.path_span);
            self.punct(";");
        }
        let mut after_const = false;
        for item in &f.items {
            let is_const = matches!(item.kind, ItemKind::Const(_));
            // Constants written on consecutive lines stay a group; a blank
            // line between two of them is kept as the author left it.
            self.item(item, !(after_const && is_const));
            after_const = is_const;
        }
        self.flush(self.src.len(), false);
    }

    /// Writes one item, after exactly one blank line when `blank`, else
    /// after a blank line only where the source has one.
    fn item(&mut self, item: &Item, blank: bool) {
        let first = item.attrs.first().map_or(item.keyword, |a| a.span);
        self.line_break(first.start as usize, blank);
        for (i, a) in item.attrs.iter().enumerate() {
            if i > 0 {
                self.line_break(a.span.start as usize, false);
            }
            self.attr(a);
        }
        if !item.attrs.is_empty() {
            self.line_break(item.keyword.start as usize, false);
        }
        self.tok_span(item.keyword(), item.keyword);
        self.put(" ");
        let name = item.name();
        self.tok_span(&name.name, name.span);
        match &item.kind {
            ItemKind::Const(c) => {
                self.punct(": ");
                self.ty(&c.ty);
                self.punct(" = ");
                self.lit(&c.value);
                self.punct(";");
            }
            ItemKind::Enum(e) => {
                if let Some(base) = &e.base {
                    self.punct(" : ");
                    self.tok_span(&base.name, base.span);
                }
                let members: Vec<(Span, Member)> = e
                    .values
                    .iter()
                    .map(|v| (first_token(&v.attrs, &v.name), Member::Value(v)))
                    .collect();
                self.block(e.braces, &members);
            }
            ItemKind::Struct(r) | ItemKind::Message(r) => {
                let members: Vec<(Span, Member)> = r
                    .fields
                    .iter()
                    .map(|f| (first_token(&f.attrs, &f.name), Member::Field(f)))
                    .collect();
                self.block(r.braces, &members);
            }
            ItemKind::Union(u) => {
                if let Some(tag) = &u.tag {
                    self.punct(" : ");
                    self.tok_span(&tag.name, tag.span);
                }
                let mut members: Vec<(Span, Member)> = u
                    .variants
                    .iter()
                    .map(|v| (first_token(&v.attrs, &v.name), Member::Variant(v)))
                    .collect();
                for &entry in &u.reserved_entries {
                    let tags = u
                        .reserved
                        .iter()
                        .filter(|l| l.span.start >= entry.start && l.span.end <= entry.end)
                        .collect();
                    members.push((entry, Member::Reserved(entry, tags)));
                }
                members.sort_by_key(|(s, _)| s.start);
                self.block(u.braces, &members);
            }
        }
    }

    fn block(&mut self, braces: Span, members: &[(Span, Member)]) {
        let open = braces.start as usize;
        let close = (braces.end as usize).saturating_sub(1).max(open);
        self.put(" ");
        self.tok("{", open, open + 1);
        let has_comments = self
            .comments
            .get(self.next)
            .is_some_and(|c| c.start < close);
        if members.is_empty() && !has_comments {
            self.put("}");
            self.last = braces.end as usize;
            return;
        }
        let outer = self.indent;
        self.indent += INDENT;
        self.blank_ok = false;
        for (first, m) in members {
            self.line_break(first.start as usize, false);
            self.member(m);
            self.put(",");
        }
        self.flush(close, false);
        self.indent = outer;
        self.start_line(outer, false);
        self.tok("}", close, braces.end as usize);
    }

    /// Writes one member. (`last` follows the tokens written: the spans of
    /// rules that end in an optional part include the trivia after them.)
    fn member(&mut self, m: &Member) {
        match m {
            Member::Field(f) => {
                // `@deprecated` and the like stay before the name, `@max(N)`
                // goes after the type; the order of the attributes is kept.
                let written_before = f
                    .attrs
                    .iter()
                    .take_while(|a| a.span.start < f.name.span.start)
                    .count();
                let first_max = f
                    .attrs
                    .iter()
                    .position(|a| a.name.name == "max")
                    .unwrap_or(f.attrs.len());
                let split = written_before.min(first_max);
                let next = |i: usize| match f.attrs.get(i + 1) {
                    Some(a) if i + 1 < written_before => a.span.start as usize,
                    _ => f.name.span.start as usize,
                };
                for (i, a) in f.attrs[..split].iter().enumerate() {
                    self.attr_before(a, next(i));
                }
                self.tok_span(&f.name.name, f.name.span);
                self.punct(": ");
                self.ty(&f.ty);
                for a in &f.attrs[split..] {
                    self.put(" ");
                    self.attr(a);
                }
                if let Some(d) = &f.default {
                    self.punct(" = ");
                    self.lit(d);
                }
            }
            Member::Value(v) => {
                self.attrs_before(&v.attrs, &v.name);
                self.tok_span(&v.name.name, v.name.span);
                self.punct(" = ");
                self.lit(&v.value);
            }
            Member::Variant(v) => {
                self.attrs_before(&v.attrs, &v.name);
                self.tok_span(&v.name.name, v.name.span);
                self.punct("(");
                self.ty(&v.ty);
                self.punct(")");
                self.punct(" = ");
                self.lit(&v.tag);
            }
            Member::Reserved(entry, tags) => {
                let start = entry.start as usize;
                self.tok("reserved", start, start + "reserved".len());
                for (i, t) in tags.iter().enumerate() {
                    if i == 0 {
                        self.put(" ");
                    } else {
                        self.punct(", ");
                    }
                    self.lit(t);
                }
            }
        }
    }

    /// Attributes written before a member's name, each followed by a space,
    /// or by a line break where the source has one.
    fn attrs_before(&mut self, attrs: &[Attr], name: &Ident) {
        for (i, a) in attrs.iter().enumerate() {
            let next = attrs.get(i + 1).map_or(name.span, |n| n.span);
            self.attr_before(a, next.start as usize);
        }
    }

    /// An attribute before the member's token at `next`: on a line of its
    /// own when the author put it there (`@deprecated("...")` above the
    /// field), else followed by a space.
    fn attr_before(&mut self, a: &Attr, next: usize) {
        self.attr(a);
        if self.gap(self.last, next) > 0 {
            self.line_break(next, false);
        } else {
            self.put(" ");
        }
    }

    fn attr(&mut self, a: &Attr) {
        self.tok(
            &format!("@{}", a.name.name),
            a.span.start as usize,
            a.name.span.end as usize,
        );
        if !a.args.is_empty() {
            self.punct("(");
            for (i, arg) in a.args.iter().enumerate() {
                if i > 0 {
                    self.punct(", ");
                }
                self.lit(arg);
            }
            self.punct(")");
        }
    }

    fn ty(&mut self, t: &TypeExpr) {
        let start = t.span.start as usize;
        match &t.kind {
            TypeExprKind::Named(path) => {
                let text: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
                let end = path.last().map_or(t.span.end, |i| i.span.end);
                self.tok(&text.join("."), start, end as usize);
            }
            TypeExprKind::List(elem) => {
                self.tok("list", start, start + "list".len());
                self.punct("<");
                self.elem_ty(elem);
                self.punct(">");
            }
            TypeExprKind::Map(k, v) => {
                self.tok("map", start, start + "map".len());
                self.punct("<");
                self.elem_ty(k);
                self.punct(", ");
                self.elem_ty(v);
                self.punct(">");
            }
            TypeExprKind::Array(elem, len) => {
                self.tok("[", start, start + 1);
                self.elem_ty(elem);
                self.punct("; ");
                self.lit(len);
                self.punct("]");
            }
            TypeExprKind::Optional(inner) => {
                self.ty(inner);
                self.punct("?");
            }
        }
    }

    /// An element, key or value type, then its attributes.
    fn elem_ty(&mut self, t: &TypeExpr) {
        self.ty(t);
        for a in &t.attrs {
            self.put(" ");
            self.attr(a);
        }
    }

    fn finish(self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            if !line.blank {
                out.push_str(&" ".repeat(line.indent));
                // Block comments spanning lines bring their own line breaks.
                out.push_str(&line.text.replace("\r\n", "\n").replace('\r', "\n"));
            }
            let trimmed = out.trim_end_matches([' ', '\t']).len();
            out.truncate(trimmed);
            out.push('\n');
        }
        let content = out.trim_end_matches('\n').len();
        out.truncate(content);
        if !out.is_empty() {
            out.push('\n');
        }
        if first_line_break(self.src) == "\r\n" {
            out = out.replace('\n', "\r\n");
        }
        out
    }
}

enum Member<'f> {
    Field(&'f Field),
    Value(&'f EnumValue),
    Variant(&'f Variant),
    Reserved(Span, Vec<&'f Literal>),
}

/// The first token of a member: its name or an attribute written before it
/// (a field's `@max` may follow its type).
fn first_token(attrs: &[Attr], name: &Ident) -> Span {
    attrs
        .first()
        .filter(|a| a.span.start < name.span.start)
        .map_or(name.span, |a| a.span)
}

/// How the first line of `text` ends: `\r\n`, or `\n` (also for a file of one
/// line, and for the rare lone `\r`).
fn first_line_break(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(src: &str) -> String {
        format_source(src).unwrap_or_else(|d| panic!("{}: {src}", d.message))
    }

    #[test]
    fn expands_and_indents() {
        assert_eq!(
            fmt("namespace a.b;import \"x.pkt\";struct V{x:f32,y :f32}\nstruct E {}"),
            "namespace a.b;\n\nimport \"x.pkt\";\n\nstruct V {\n    x: f32,\n    y: f32,\n}\n\nstruct E {}\n"
        );
    }

    #[test]
    fn keeps_consecutive_constants_together() {
        assert_eq!(
            fmt("const A: u8 = 1;\nconst B: u8 = 2; const C: u8 = 3;\n\nconst D: u8 = 4;\nstruct S {}\nconst E: u8 = 5;"),
            "const A: u8 = 1;\nconst B: u8 = 2;\nconst C: u8 = 3;\n\nconst D: u8 = 4;\n\nstruct S {}\n\nconst E: u8 = 5;\n"
        );
    }

    #[test]
    fn keeps_an_attribute_on_its_own_line() {
        let src = "message M {\n  @deprecated(\"use b\")\n  a: u8,\n  @deprecated b: u8,\n  @deprecated // why\n  c: u8,\n  @deprecated\n  @max(2) d: string,\n}\nenum E { @deprecated\n A = 1 }\nunion U { @deprecated\n A(u8) = 1 }\n";
        assert_eq!(
            fmt(src),
            "message M {\n    @deprecated(\"use b\")\n    a: u8,\n    @deprecated b: u8,\n    @deprecated // why\n    c: u8,\n    @deprecated\n    d: string @max(2),\n}\n\nenum E {\n    @deprecated\n    A = 1,\n}\n\nunion U {\n    @deprecated\n    A(u8) = 1,\n}\n"
        );
    }

    #[test]
    fn keeps_trailing_and_block_end_comments() {
        let src = "enum E : u8 { A = 1, // one\n  Long = 0x02 /* two */\n\n\n  // end\n}\n// eof\n";
        assert_eq!(
            fmt(src),
            "enum E : u8 {\n    A = 1, // one\n    Long = 0x02, /* two */\n\n    // end\n}\n// eof\n"
        );
    }
}
