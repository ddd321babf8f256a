//! Canonical formatting of `.pkt` source (`pktc fmt`).
//!
//! The layout comes from the syntax tree; the comments, which the tree does
//! not hold, come from [`trivia::comments`] and are put back by position:
//! before emitting a token written at source offset `p`, every comment that
//! starts before `p` is written first. A comment that shared a line with the
//! code before it stays on that line (after it); any other comment gets a
//! line of its own. Blank lines are kept, at most one in a row, and items are
//! always separated by exactly one.
//!
//! Literals are written exactly as in the source (`0xFF_FF` stays), so is the
//! text of every comment (block comments verbatim, line comments without
//! trailing whitespace). The result parses to the same tree as the input, and
//! formatting it again changes nothing.

use crate::diag::{Diagnostic, FileId, Span};
use crate::syntax::ast::*;
use crate::syntax::trivia::{self, line_breaks, Comment, CommentKind};

const INDENT: usize = 4;
/// Values of an enum get their `=` aligned unless their names differ in
/// length by more than this.
const ALIGN_EQ_SPREAD: usize = 24;
/// Trailing comments of neighbouring lines are aligned unless the code
/// before them differs in length by more than this.
const ALIGN_COMMENT_SPREAD: usize = 32;
/// ... or the aligned comments would start past this column.
const ALIGN_COMMENT_MAX_COLUMN: usize = 80;

/// Formats one file's text. Fails with the syntax error if it does not parse.
pub fn format_source(text: &str) -> Result<String, Diagnostic> {
    let file = crate::syntax::parse(text, FileId(0))?;
    Ok(format_file(text, &file))
}

/// Formats the file at `path`; rewrites it if that changes it, unless
/// `check`. Returns whether the formatted text differs from the file. The
/// error is ready to print (a rendered syntax error or an I/O error).
pub fn format_path(path: &std::path::Path, check: bool) -> Result<bool, String> {
    let shown = crate::load::display(path);
    let text = crate::load::read_source(path).map_err(|e| {
        format!(
            "error: cannot read {shown}: {}",
            crate::load::describe_io(&e)
        )
    })?;
    let formatted = match format_source(&text) {
        Ok(f) => f,
        Err(d) => {
            let mut sources = crate::diag::SourceMap::default();
            sources.add(path.to_path_buf(), shown, text);
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
    /// Where the comments that end the line begin in `text`.
    trailing: Option<usize>,
    /// Where ` = value` begins in an enum value's line.
    eq: Option<usize>,
    /// The code goes on in the next line: not aligned with its neighbours.
    broken: bool,
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
                if cont {
                    self.line().broken = true;
                }
                self.start_line(indent, breaks >= 2 || forced);
                self.line().text.push_str(text);
                self.need_break = true;
            } else {
                let line = self.line();
                let at = line.text.len();
                if !line.text.ends_with(' ') {
                    line.text.push(' ');
                }
                line.trailing.get_or_insert(at);
                line.text.push_str(text);
                if text.contains('\n') {
                    line.broken = true;
                }
                self.space = true;
                self.need_break = c.kind != CommentKind::Block;
            }
            self.last = c.end;
        }
    }

    /// Writes code with no source position of its own (punctuation, spaces).
    fn put(&mut self, s: &str) {
        if self.need_break {
            self.line().broken = true;
            let indent = self.indent + INDENT;
            self.start_line(indent, false);
        }
        let space = std::mem::take(&mut self.space);
        let line = self.line();
        if space && !s.starts_with([',', ';', ')', '>', ']', ' ']) && !line.text.ends_with(' ') {
            line.text.push(' ');
        }
        line.text.push_str(s);
        line.trailing = None;
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
            self.put(";");
            self.last = ns.span.end as usize;
        }
        for (i, imp) in f.imports.iter().enumerate() {
            let start = imp.span.start as usize;
            self.line_break(start, i == 0);
            self.tok("import", start, start + "import".len());
            self.put(" ");
            let path = self.text(imp.path_span);
            self.tok_span(path, imp.path_span);
            self.put(";");
            self.last = imp.span.end as usize;
        }
        for item in &f.items {
            self.item(item);
        }
        self.flush(self.src.len(), false);
    }

    fn item(&mut self, item: &Item) {
        let first = item.attrs.first().map_or(item.keyword, |a| a.span);
        self.line_break(first.start as usize, true);
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
                self.put(": ");
                self.ty(&c.ty);
                self.put(" = ");
                self.lit(&c.value);
                self.put(";");
                self.last = item.span.end as usize;
            }
            ItemKind::Enum(e) => {
                if let Some(base) = &e.base {
                    self.put(" : ");
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
                    self.put(" : ");
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
            let end = self.member(m);
            self.put(",");
            self.last = end;
        }
        self.flush(close, false);
        self.indent = outer;
        self.start_line(outer, false);
        self.tok("}", close, braces.end as usize);
    }

    /// Writes one member and returns where it ends in the source.
    fn member(&mut self, m: &Member) -> usize {
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
                for a in &f.attrs[..split] {
                    self.attr(a);
                    self.put(" ");
                }
                self.tok_span(&f.name.name, f.name.span);
                self.put(": ");
                self.ty(&f.ty);
                for a in &f.attrs[split..] {
                    self.put(" ");
                    self.attr(a);
                }
                if let Some(d) = &f.default {
                    self.put(" = ");
                    self.lit(d);
                }
                f.span.end as usize
            }
            Member::Value(v) => {
                for a in &v.attrs {
                    self.attr(a);
                    self.put(" ");
                }
                self.tok_span(&v.name.name, v.name.span);
                // Aligning `=` lines up names; a name behind an attribute
                // would only push the others' `=` out.
                if v.attrs.is_empty() {
                    let line = self.line();
                    line.eq = Some(line.text.len());
                }
                self.put(" = ");
                self.lit(&v.value);
                v.span.end as usize
            }
            Member::Variant(v) => {
                for a in &v.attrs {
                    self.attr(a);
                    self.put(" ");
                }
                self.tok_span(&v.name.name, v.name.span);
                self.put("(");
                self.ty(&v.ty);
                self.put(")");
                self.put(" = ");
                self.lit(&v.tag);
                v.span.end as usize
            }
            Member::Reserved(entry, tags) => {
                let start = entry.start as usize;
                self.tok("reserved", start, start + "reserved".len());
                for (i, t) in tags.iter().enumerate() {
                    self.put(if i == 0 { " " } else { ", " });
                    self.lit(t);
                }
                entry.end as usize
            }
        }
    }

    fn attr(&mut self, a: &Attr) {
        self.tok(
            &format!("@{}", a.name.name),
            a.span.start as usize,
            a.name.span.end as usize,
        );
        if !a.args.is_empty() {
            self.put("(");
            for (i, arg) in a.args.iter().enumerate() {
                if i > 0 {
                    self.put(", ");
                }
                self.lit(arg);
            }
            self.put(")");
        }
        self.last = self.last.max(a.span.end as usize);
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
                self.put("<");
                self.elem_ty(elem);
                self.put(">");
            }
            TypeExprKind::Map(k, v) => {
                self.tok("map", start, start + "map".len());
                self.put("<");
                self.elem_ty(k);
                self.put(", ");
                self.elem_ty(v);
                self.put(">");
            }
            TypeExprKind::Array(elem, len) => {
                self.tok("[", start, start + 1);
                self.elem_ty(elem);
                self.put("; ");
                self.lit(len);
                self.put("]");
            }
            TypeExprKind::Optional(inner) => {
                self.ty(inner);
                self.put("?");
            }
        }
        self.last = self.last.max(t.span.end as usize);
    }

    /// An element, key or value type, then its attributes.
    fn elem_ty(&mut self, t: &TypeExpr) {
        self.ty(t);
        for a in &t.attrs {
            self.put(" ");
            self.attr(a);
        }
    }

    fn finish(mut self) -> String {
        align(&mut self.lines);
        let mut out = String::new();
        for line in &self.lines {
            if !line.blank {
                out.push_str(&" ".repeat(line.indent));
                out.push_str(&line.text);
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
        out
    }
}

enum Member<'f> {
    Field(&'f Field),
    Value(&'f EnumValue),
    Variant(&'f Variant),
    Reserved(Span, Vec<&'f Literal>),
}

fn first_token(attrs: &[Attr], name: &Ident) -> Span {
    attrs.first().map_or(name.span, |a| a.span)
}

/// Aligns `=` of enum values and trailing comments within each run of
/// neighbouring lines of one block (no blank line between them).
fn align(lines: &mut [Line]) {
    let mut i = 0;
    while i < lines.len() {
        let mut j = i + 1;
        let alignable = |l: &Line| !l.blank && !l.broken && !l.text.contains('\n');
        if alignable(&lines[i]) {
            while j < lines.len() && alignable(&lines[j]) && lines[j].indent == lines[i].indent {
                j += 1;
            }
            align_eq(&mut lines[i..j]);
            align_comments(&mut lines[i..j]);
        }
        i = j;
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn align_eq(group: &mut [Line]) {
    let widths: Vec<usize> = group
        .iter()
        .filter_map(|l| l.eq.map(|e| width(&l.text[..e])))
        .collect();
    let (Some(&min), Some(&max)) = (widths.iter().min(), widths.iter().max()) else {
        return;
    };
    if widths.len() < 2 || max - min > ALIGN_EQ_SPREAD {
        return;
    }
    for l in group.iter_mut() {
        if let Some(e) = l.eq {
            let pad = max - width(&l.text[..e]);
            l.text.insert_str(e, &" ".repeat(pad));
            if let Some(t) = &mut l.trailing {
                if *t >= e {
                    *t += pad;
                }
            }
        }
    }
}

fn align_comments(group: &mut [Line]) {
    let widths: Vec<usize> = group
        .iter()
        .filter_map(|l| l.trailing.map(|t| width(l.text[..t].trim_end())))
        .collect();
    let (Some(&min), Some(&max)) = (widths.iter().min(), widths.iter().max()) else {
        return;
    };
    let indent = group[0].indent;
    let aligned = widths.len() >= 2
        && max - min <= ALIGN_COMMENT_SPREAD
        && indent + max < ALIGN_COMMENT_MAX_COLUMN;
    for l in group.iter_mut() {
        if let Some(t) = l.trailing {
            let code = l.text[..t].trim_end();
            let comment = l.text[t..].trim_start();
            let pad = if aligned { max - width(code) + 1 } else { 1 };
            l.text = format!("{code}{}{comment}", " ".repeat(pad));
        }
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
    fn keeps_trailing_and_block_end_comments() {
        let src = "enum E : u8 { A = 1, // one\n  Long = 0x02 /* two */\n\n\n  // end\n}\n// eof\n";
        assert_eq!(
            fmt(src),
            "enum E : u8 {\n    A    = 1,    // one\n    Long = 0x02, /* two */\n\n    // end\n}\n// eof\n"
        );
    }
}
