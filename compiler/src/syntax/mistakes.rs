//! Syntax errors people make, recognised from where parsing stopped, what
//! the parser expected there and the code before it, and told in words with
//! the way to write it instead of a list of expected tokens.

use super::trivia;
use crate::diag::{Diagnostic, FileId, Span};

/// Where parsing stopped.
pub(super) struct Stop<'t> {
    pub text: &'t str,
    /// The furthest position any alternative reached.
    pub at: usize,
    pub file: FileId,
    /// The literal tokens that would have let parsing go on there (`;`, `=`).
    pub expected: &'t [String],
    /// The text before `at` with comments and the contents of strings
    /// blanked out, so that braces and words in them are not taken for code.
    code: String,
}

impl<'t> Stop<'t> {
    pub fn new(text: &'t str, at: usize, file: FileId, expected: &'t [String]) -> Self {
        Stop {
            text,
            at,
            file,
            expected,
            code: code_before(text, at),
        }
    }

    fn expects(&self, token: &str) -> bool {
        self.expected.iter().any(|t| t == token)
    }

    fn rest(&self) -> &'t str {
        &self.text[self.at..]
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// The keyword (`enum`, `union`, `struct`, `message`) of the innermost
    /// declaration whose `{` is open at the stop, or `None` at the top level.
    fn block(&self) -> Option<&str> {
        let mut open = Vec::new();
        for (i, b) in self.code.bytes().enumerate() {
            match b {
                b'{' => open.push(i),
                b'}' => {
                    open.pop();
                }
                _ => {}
            }
        }
        let brace = *open.last()?;
        let header_start = self.code[..brace]
            .rfind([';', '{', '}'])
            .map_or(0, |i| i + 1);
        self.code[header_start..brace]
            .split_whitespace()
            .rev()
            .find(|w| matches!(*w, "enum" | "union" | "struct" | "message"))
            .or(Some(""))
    }

    /// The name that ends the code before the stop, with where it starts.
    fn name_before(&self) -> Option<(usize, &'t str)> {
        let end = self.code.trim_end().len();
        let start = self.code[..end]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &self.text[start..end];
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            .then_some((start, name))
    }
}

/// A diagnostic for a mistake recognised at `stop`, if it is one.
pub(super) fn explain(stop: &Stop) -> Option<Diagnostic> {
    unterminated_string(stop)
        .or_else(|| single_quotes(stop))
        .or_else(|| dangling_doc_comment(stop))
        .or_else(|| out_of_order(stop))
        .or_else(|| missing_semicolon(stop))
        .or_else(|| collection_default(stop))
        .or_else(|| enum_value_without_number(stop))
        .or_else(|| reserved_without_tags(stop))
        .or_else(|| variant_without_payload(stop))
}

/// A hint for an error that [`explain`] does not recognise.
pub(super) fn help(stop: &Stop) -> Option<String> {
    let before = stop.code.trim_end();
    let after = stop.rest().trim_start();
    let in_record = matches!(stop.block(), Some("struct" | "message"));
    if in_record
        && before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        && after.starts_with(|c: char| c.is_alphabetic())
    {
        let last_line = before.lines().last().unwrap_or("");
        return Some(if last_line.contains(':') {
            "fields are separated by `,`".to_string()
        } else {
            "a field is written `name: type`".to_string()
        });
    }
    if after.starts_with('}') && before.ends_with(':') {
        return Some("a field needs a type after `:`".to_string());
    }
    if in_record && before.ends_with('=') {
        return Some(
            "a default is written after `=`, as in `level: u8 = 1`; a field without one \
             defaults to zero or empty"
                .to_string(),
        );
    }
    let keyword = before.rsplit(|c: char| !c.is_ascii_alphanumeric()).next();
    if let Some(k @ ("struct" | "message" | "enum" | "union" | "const")) = keyword {
        return Some(format!(
            "`{k}` is followed by the name it declares, as in `{k} Position`"
        ));
    }
    if after.starts_with('}') && stop.block().is_none() {
        return Some(
            "this `}` closes nothing: a `{` is missing before it, or it is one too many"
                .to_string(),
        );
    }
    None
}

/// `"abc` with the line ending before the closing quote (strings never span
/// lines), or the file ending inside a string.
fn unterminated_string(stop: &Stop) -> Option<Diagnostic> {
    if !(stop.rest().is_empty() || stop.rest().starts_with(['\n', '\r'])) {
        return None;
    }
    let line_start = stop.text[..stop.at]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1);
    // Strings' contents are blanked but their quotes kept: an odd count
    // means the last one opened a string that the line never closed.
    let line = &stop.code[line_start..];
    let quote = line_start + line.rfind('"')?;
    (line.matches('"').count() % 2 == 1).then(|| {
        Diagnostic::error(
            "unterminated string",
            stop.span(quote, stop.at),
            "this string is not closed on its line",
        )
        .with_help("close it with `\"`; a string cannot span lines (write a line break as `\\n`)")
    })
}

fn single_quotes(stop: &Stop) -> Option<Diagnostic> {
    let rest = stop.rest();
    if !rest.starts_with('\'') {
        return None;
    }
    let line = rest.lines().next().unwrap_or("");
    let len = line[1..].find('\'').map_or(1, |i| i + 2);
    let quoted = &line[..len];
    let inner = quoted.trim_matches('\'');
    Some(
        Diagnostic::error(
            format!("strings use double quotes, found `{quoted}`"),
            stop.span(stop.at, stop.at + len),
            "single quotes",
        )
        .with_help(format!("write \"{inner}\"")),
    )
}

/// A `///` comment with nothing after it to document.
fn dangling_doc_comment(stop: &Stop) -> Option<Diagnostic> {
    let next = stop.rest().trim_start();
    if !(next.is_empty() || next.starts_with('}')) {
        return None;
    }
    let before = stop.text[..stop.at].trim_end();
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let last = &before[line_start..];
    let indent = last.len() - last.trim_start().len();
    let comment = last.trim_start();
    if !comment.starts_with("///") || comment.starts_with("////") {
        return None;
    }
    let start = line_start + indent;
    Some(
        Diagnostic::error(
            "doc comment documents nothing",
            stop.span(start, start + comment.len()),
            "nothing follows that it could document",
        )
        .with_help(
            "a `///` comment documents the item, field, variant or enum value after it; \
             write `//` for a plain comment",
        ),
    )
}

/// `import` after a declaration, or `namespace` after anything.
fn out_of_order(stop: &Stop) -> Option<Diagnostic> {
    if stop.block().is_some() {
        return None;
    }
    let rest = stop.rest();
    let keyword = ["import", "namespace"].into_iter().find(|k| {
        rest.strip_prefix(k)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    })?;
    let span = stop.span(stop.at, stop.at + keyword.len());
    Some(if keyword == "import" {
        Diagnostic::error("`import` after a declaration", span, "too late")
            .with_help("imports come after `namespace` and before every `const`, `enum`, `struct`, `message` and `union`; move it up")
    } else {
        Diagnostic::error("`namespace` must come first", span, "too late").with_help(
            "a file declares its namespace once, before its imports and declarations; move it to the top",
        )
    })
}

/// `namespace a` (or an import or constant) without its `;`.
fn missing_semicolon(stop: &Stop) -> Option<Diagnostic> {
    if stop.block().is_some() || !stop.expects(";") {
        return None;
    }
    let end = stop.code.trim_end().len();
    let start = stop.code[..end].rfind([';', '}']).map_or(0, |i| i + 1);
    let statement = stop.code[start..end].trim_start();
    let statement_start = end - statement.len();
    let first_line = stop.text[statement_start..end]
        .lines()
        .next()
        .unwrap_or_default();
    Some(
        Diagnostic::error(
            format!("missing `;` after `{first_line}`"),
            stop.span(end, end),
            "expected `;` here",
        )
        .with_help(format!("write `{};`", first_line.trim_end())),
    )
}

/// `= [1, 2]` or `= {...}`: a default that is a list, map, array or record.
fn collection_default(stop: &Stop) -> Option<Diagnostic> {
    let open = stop
        .rest()
        .chars()
        .next()
        .filter(|c| matches!(c, '[' | '{'))?;
    if !stop.code.trim_end().ends_with('=') {
        return None;
    }
    let span = stop.span(stop.at, stop.at + 1);
    Some(if open == '[' {
        Diagnostic::error(
            "a list or array cannot have a written default",
            span,
            "not a value a default can be",
        )
        .with_help("a list defaults to empty and an array to its elements' defaults; remove `= [...]` and fill the field where the value is built")
    } else {
        Diagnostic::error(
            "a map, struct or message cannot have a written default",
            span,
            "not a value a default can be",
        )
        .with_help("a map defaults to empty, a struct or message to its fields' defaults; remove `= {...}`")
    })
}

/// `enum E { A, B }`: values without their numbers.
fn enum_value_without_number(stop: &Stop) -> Option<Diagnostic> {
    member_cut_short(stop, "enum", "=", |name| {
        (
            format!("enum value `{name}` has no number"),
            "expected `= N` after it",
            format!(
                "write `{name} = 1`: every enum value is numbered explicitly, so that adding or \
                 reordering values never changes the numbers on the wire"
            ),
        )
    })
}

/// `union P { Ping = 1 }`: a variant without its payload type.
fn variant_without_payload(stop: &Stop) -> Option<Diagnostic> {
    member_cut_short(stop, "union", "(", |name| {
        (
            format!("variant `{name}` has no payload type"),
            "expected `(Type)` after it",
            format!(
                "a variant carries one value, as in `{name}(u64) = 1`; for one without data, \
                 declare `message {name} {{}}` and write `{name}({name}) = 1`"
            ),
        )
    })
}

/// `union P { reserved }`: the keyword without the tags it reserves.
fn reserved_without_tags(stop: &Stop) -> Option<Diagnostic> {
    if stop.block() != Some("union") {
        return None;
    }
    let (start, name) = stop.name_before().filter(|(_, name)| *name == "reserved")?;
    Some(
        Diagnostic::error(
            "`reserved` without a tag",
            stop.span(start, start + name.len()),
            "expected the tags it reserves after it",
        )
        .with_help(
            "write `reserved 3` or `reserved 3, 4`: the tags of removed variants stay reserved \
             so that no new variant takes them",
        ),
    )
}

/// A member of a `block` declaration whose name is not followed by the
/// `token` it needs, told by `say(name)`: message, label and help.
fn member_cut_short(
    stop: &Stop,
    block: &str,
    token: &str,
    say: impl Fn(&str) -> (String, &'static str, String),
) -> Option<Diagnostic> {
    if stop.block() != Some(block) || !stop.expects(token) {
        return None;
    }
    let (start, name) = stop.name_before()?;
    let (message, label, help) = say(name);
    Some(Diagnostic::error(message, stop.span(start, start + name.len()), label).with_help(help))
}

/// `text[..at]` with comments, and the contents of strings between their
/// quotes, replaced by spaces; every other byte that is not ASCII too (code
/// is ASCII), so that it can be sliced anywhere.
fn code_before(text: &str, at: usize) -> String {
    let mut code = text.as_bytes()[..at].to_vec();
    for c in trivia::comments(text)
        .into_iter()
        .take_while(|c| c.start < at)
    {
        code[c.start..c.end.min(at)].fill(b' ');
    }
    let mut in_string = false;
    let mut i = 0;
    while i < code.len() {
        match code[i] {
            b'"' => in_string = !in_string,
            b'\n' | b'\r' => in_string = false,
            b'\\' if in_string => {
                code[i] = b' ';
                if let Some(next) = code.get_mut(i + 1) {
                    *next = b' ';
                }
                i += 1;
            }
            _ if in_string => code[i] = b' ',
            _ => {}
        }
        if !code[i].is_ascii() {
            code[i] = b' ';
        }
        i += 1;
    }
    String::from_utf8(code).expect("ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_comments_and_strings() {
        let text = "a /* { */ \"x{\\\"y\" // }\né {";
        // `é` is two bytes, so two spaces.
        assert_eq!(
            code_before(text, text.len()),
            "a         \"     \"     \n   {"
        );
    }
}
