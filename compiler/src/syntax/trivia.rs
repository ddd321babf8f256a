//! Comments, which the grammar skips (`COMMENT`) or folds into doc strings
//! (`doc`), recovered with their positions for tools that must keep them,
//! such as the formatter.
//!
//! The scan follows the grammar's lexical rules exactly: `////...` and `//`
//! not followed by `/` are plain line comments, `///` starts a doc comment,
//! `/* */` nests, string literals (where `\` escapes any character) hide
//! whatever they contain, and a line comment ends at `\n` or `\r`. In a file
//! that parses, every `/` outside a string starts a comment, so the scan
//! finds all of them and nothing else.

/// What kind of comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentKind {
    /// `// text` or `//// text`.
    Line,
    /// `/// text`: attached by the grammar to the next item, field, variant or
    /// enum value.
    Doc,
    /// `/* text */`, possibly nested and spanning lines.
    Block,
}

/// One comment: its kind and byte range, delimiters included. Line and doc
/// comments end before the line break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment {
    pub kind: CommentKind,
    pub start: usize,
    pub end: usize,
}

impl Comment {
    /// The comment as written, without trailing whitespace for line comments.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        let t = &source[self.start..self.end];
        match self.kind {
            CommentKind::Block => t,
            CommentKind::Line | CommentKind::Doc => t.trim_end(),
        }
    }
}

/// Every comment of `text`, in order. Never fails: an unterminated block
/// comment or string runs to the end of the text (the parser reports those).
pub fn comments(text: &str) -> Vec<Comment> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' && b[i] != b'\r' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let start = i;
                let doc = b.get(i + 2) == Some(&b'/') && b.get(i + 3) != Some(&b'/');
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                out.push(Comment {
                    kind: if doc {
                        CommentKind::Doc
                    } else {
                        CommentKind::Line
                    },
                    start,
                    end: i,
                });
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(Comment {
                    kind: CommentKind::Block,
                    start,
                    end: i.min(b.len()),
                });
            }
            _ => i += 1,
        }
    }
    out
}

/// The first position at or after `pos` that is neither whitespace nor part
/// of a comment.
pub fn skip(text: &str, mut pos: usize) -> usize {
    let b = text.as_bytes();
    loop {
        while pos < b.len() && matches!(b[pos], b' ' | b'\t' | b'\r' | b'\n') {
            pos += 1;
        }
        let rest = &b[pos.min(b.len())..];
        if !(rest.starts_with(b"//") || rest.starts_with(b"/*")) {
            return pos.min(b.len());
        }
        // The comment starting here is the first one the scanner finds in
        // the rest of the text.
        match comments(&text[pos..]).first() {
            Some(c) => pos += c.end,
            None => return pos,
        }
    }
}

/// Number of line breaks (`\n`, `\r\n` or a lone `\r`) in `text`.
pub fn line_breaks(text: &str) -> usize {
    let b = text.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(CommentKind, &str)> {
        comments(text)
            .iter()
            .map(|c| (c.kind, &text[c.start..c.end]))
            .collect()
    }

    #[test]
    fn classifies_like_the_grammar() {
        use CommentKind::*;
        assert_eq!(
            kinds("// a\n/// b\n//// c\n/* d /* e */ f */ x \"// not\" /**/"),
            vec![
                (Line, "// a"),
                (Doc, "/// b"),
                (Line, "//// c"),
                (Block, "/* d /* e */ f */"),
                (Block, "/**/"),
            ]
        );
        assert_eq!(kinds("\"a\\\"//\" // z\r\n"), vec![(Line, "// z")]);
        assert_eq!(kinds("/* open"), vec![(Block, "/* open")]);
        assert_eq!(kinds("///"), vec![(Doc, "///")]);
    }

    #[test]
    fn doc_comments_match_the_parsed_docs() {
        let src =
            "/// ns\nnamespace a;\n// x\n/// one\n////not\n/// two  \nstruct S { /// f\n x: u8 }\n";
        let file = crate::syntax::parse(src, crate::diag::FileId(0)).expect("parses");
        let docs: Vec<&str> = comments(src)
            .iter()
            .filter(|c| c.kind == CommentKind::Doc)
            .map(|c| c.text(src))
            .collect();
        assert_eq!(docs, ["/// ns", "/// one", "/// two", "/// f"]);
        assert_eq!(file.namespace.unwrap().doc, ["ns"]);
        assert_eq!(file.items[0].doc, ["one", "two"]);
    }

    #[test]
    fn counts_line_breaks_of_every_style() {
        assert_eq!(line_breaks("a\nb\r\nc\rd"), 3);
        assert_eq!(line_breaks(""), 0);
    }
}
