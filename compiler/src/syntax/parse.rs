use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::*;
use super::mistakes;
use crate::diag::{Diagnostic, FileId, Span};

#[derive(pest_derive::Parser)]
#[grammar = "syntax/pkt.pest"]
struct PktParser;

/// Parses one file. A syntax error stops the file at the first error: what
/// follows it cannot be trusted.
pub fn parse(text: &str, file: FileId) -> Result<File, Diagnostic> {
    // Detail mode records the literal tokens (`:`, `;`, ...) that would have
    // let parsing go further, which is what a syntax error should name.
    pest::set_error_detail(true);
    check_nesting(text, file)?;
    let mut pairs = PktParser::parse(Rule::file, text).map_err(|e| syntax_error(e, file, text))?;
    let root = pairs.next().expect("the file rule always yields one pair");
    let mut cx = Cx {
        file,
        text,
        errors: None,
    };
    let ast = cx.file(root);
    match cx.errors {
        Some(d) => Err(d),
        None => Ok(ast),
    }
}

/// Deepest nesting of brackets and block comments accepted. The parser and
/// the checker recurse on nesting, so a hostile file must not choose the depth.
const MAX_NESTING: usize = 64;

fn check_nesting(text: &str, file: FileId) -> Result<(), Diagnostic> {
    let bytes = text.as_bytes();
    let (mut depth, mut comments, mut i) = (0usize, 0usize, 0usize);
    // Where the outermost open block comment began.
    let mut comment_start = 0;
    while i < bytes.len() {
        let pair = &bytes[i..(i + 2).min(bytes.len())];
        if comments > 0 {
            match pair {
                b"/*" => {
                    comments += 1;
                    i += 1;
                }
                b"*/" => {
                    comments -= 1;
                    i += 1;
                }
                _ => {}
            }
        } else {
            match bytes[i] {
                // Line comments and strings end at any newline the grammar
                // knows, a lone `\r` included, so that this scan sees the
                // same block comments the parser will.
                _ if pair == b"//" => {
                    while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                        i += 1;
                    }
                }
                _ if pair == b"/*" => {
                    comments = 1;
                    comment_start = i;
                    i += 1;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && !matches!(bytes[i], b'"' | b'\n' | b'\r') {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'<' | b'[' | b'(' | b'{' => depth += 1,
                b'>' | b']' | b')' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        if depth.max(comments) > MAX_NESTING {
            return Err(Diagnostic::error(
                format!("nesting deeper than {MAX_NESTING} levels"),
                Span::new(file, i, (i + 1).min(text.len())),
                "too deep",
            )
            .with_help("split the type into named declarations"));
        }
        i += 1;
    }
    // Rejected here rather than by the grammar: an unclosed `/*` makes the
    // parser rescan the rest of the file for every opener, which a hostile
    // file can make arbitrarily slow.
    if comments > 0 {
        return Err(Diagnostic::error(
            "unterminated block comment",
            Span::new(file, comment_start, comment_start + 2),
            "this `/*` is never closed",
        )
        .with_help(
            "close it with `*/`; block comments nest, so every `/*` inside needs its own `*/`",
        ));
    }
    Ok(())
}

struct Cx<'t> {
    file: FileId,
    text: &'t str,
    /// The first literal that could not be read (e.g. an integer too large).
    errors: Option<Diagnostic>,
}

impl Cx<'_> {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, s.start(), s.end())
    }

    fn file(&mut self, root: Pair<Rule>) -> File {
        let mut namespace = None;
        let mut imports = Vec::new();
        let mut items = Vec::new();
        for p in root.into_inner() {
            match p.as_rule() {
                Rule::namespace_decl => {
                    let span = self.span(&p);
                    let mut doc = Vec::new();
                    let mut path = Vec::new();
                    let mut keyword = span;
                    for q in p.into_inner() {
                        match q.as_rule() {
                            Rule::doc => doc.push(doc_text(q)),
                            Rule::kw_namespace => keyword = self.span(&q),
                            Rule::path => path = self.path(q),
                            _ => {}
                        }
                    }
                    namespace = Some(Namespace {
                        doc,
                        path,
                        keyword,
                        span,
                    });
                }
                Rule::import_decl => {
                    let span = self.span(&p);
                    let lit = p
                        .into_inner()
                        .find(|q| q.as_rule() == Rule::string_lit)
                        .expect("grammar: import has a string");
                    let path_span = self.span(&lit);
                    imports.push(Import {
                        path: self.string(lit),
                        path_span,
                        span,
                    });
                }
                Rule::item => items.push(self.item(p)),
                _ => {}
            }
        }
        File {
            namespace,
            imports,
            items,
        }
    }

    fn path(&self, p: Pair<Rule>) -> Vec<Ident> {
        p.into_inner().map(|q| self.ident(q)).collect()
    }

    fn ident(&self, p: Pair<Rule>) -> Ident {
        Ident {
            span: self.span(&p),
            name: p.as_str().to_string(),
        }
    }

    fn item(&mut self, p: Pair<Rule>) -> Item {
        let span = self.span(&p);
        let mut doc = Vec::new();
        let mut attrs = Vec::new();
        let mut kind = None;
        let mut keyword = span;
        for q in p.into_inner() {
            if let Some(kw) = q.clone().into_inner().next() {
                if matches!(
                    kw.as_rule(),
                    Rule::kw_const
                        | Rule::kw_enum
                        | Rule::kw_struct
                        | Rule::kw_message
                        | Rule::kw_union
                ) {
                    keyword = self.span(&kw);
                }
            }
            match q.as_rule() {
                Rule::doc => doc.push(doc_text(q)),
                Rule::attr => attrs.push(self.attr(q)),
                Rule::const_decl => kind = Some(ItemKind::Const(self.const_decl(q))),
                Rule::enum_decl => kind = Some(ItemKind::Enum(self.enum_decl(q))),
                Rule::struct_decl => kind = Some(ItemKind::Struct(self.record(q))),
                Rule::message_decl => kind = Some(ItemKind::Message(self.record(q))),
                Rule::union_decl => kind = Some(ItemKind::Union(self.union_decl(q))),
                _ => {}
            }
        }
        Item {
            doc,
            attrs,
            kind: kind.expect("grammar: item has a declaration"),
            keyword,
            span,
        }
    }

    fn attr(&mut self, p: Pair<Rule>) -> Attr {
        let mut span = self.span(&p);
        let parens = p.as_str().ends_with(')');
        let mut inner = p.into_inner();
        let name = self.ident(inner.next().expect("grammar: attribute name"));
        // Without parentheses, the rule has consumed the blanks and comments
        // after the name while looking for `(`: they are not the attribute's.
        if !parens {
            span.end = name.span.end;
        }
        let args = inner.map(|q| self.literal(q)).collect();
        Attr { name, args, span }
    }

    fn const_decl(&mut self, p: Pair<Rule>) -> ConstDecl {
        let mut inner = p.into_inner().filter(|q| q.as_rule() != Rule::kw_const);
        let name = self.ident(inner.next().expect("grammar: const name"));
        let ty = self.ty(inner.next().expect("grammar: const type"));
        let value = self.literal(inner.next().expect("grammar: const value"));
        ConstDecl { name, ty, value }
    }

    fn enum_decl(&mut self, p: Pair<Rule>) -> EnumDecl {
        let end = p.as_span().end();
        let mut name = None;
        let mut base = None;
        let mut values = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::ident if name.is_none() => name = Some(self.ident(q)),
                Rule::ident => base = Some(self.ident(q)),
                Rule::enum_value => {
                    let span = self.span(&q);
                    let mut doc = Vec::new();
                    let mut attrs = Vec::new();
                    let mut vname = None;
                    let mut value = None;
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::doc => doc.push(doc_text(r)),
                            Rule::attr => attrs.push(self.attr(r)),
                            Rule::ident => vname = Some(self.ident(r)),
                            Rule::literal => value = Some(self.literal(r)),
                            _ => {}
                        }
                    }
                    values.push(EnumValue {
                        doc,
                        attrs,
                        name: vname.expect("grammar: enum value name"),
                        value: value.expect("grammar: enum value"),
                        span,
                    });
                }
                _ => {}
            }
        }
        let name = name.expect("grammar: enum name");
        let braces = self.braces(base.as_ref().unwrap_or(&name).span, end);
        EnumDecl {
            name,
            base,
            values,
            braces,
        }
    }

    fn record(&mut self, p: Pair<Rule>) -> Record {
        let end = p.as_span().end();
        let mut name = None;
        let mut fields = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::ident => name = Some(self.ident(q)),
                Rule::field_list => {
                    for f in q.into_inner() {
                        fields.push(self.field(f));
                    }
                }
                _ => {}
            }
        }
        let name = name.expect("grammar: record name");
        let braces = self.braces(name.span, end);
        Record {
            name,
            fields,
            braces,
        }
    }

    fn field(&mut self, p: Pair<Rule>) -> Field {
        let span = self.span(&p);
        let mut doc = Vec::new();
        let mut attrs = Vec::new();
        let mut name = None;
        let mut ty = None;
        let mut default = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::doc => doc.push(doc_text(q)),
                Rule::attr => attrs.push(self.attr(q)),
                Rule::ident => name = Some(self.ident(q)),
                Rule::ty => ty = Some(self.ty(q)),
                Rule::literal => default = Some(self.literal(q)),
                _ => {}
            }
        }
        Field {
            doc,
            attrs,
            name: name.expect("grammar: field name"),
            ty: ty.expect("grammar: field type"),
            default,
            span,
        }
    }

    fn union_decl(&mut self, p: Pair<Rule>) -> UnionDecl {
        let end = p.as_span().end();
        let mut name = None;
        let mut tag = None;
        let mut variants = Vec::new();
        let mut reserved = Vec::new();
        let mut reserved_entries = Vec::new();
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::ident if name.is_none() => name = Some(self.ident(q)),
                Rule::ident => tag = Some(self.ident(q)),
                Rule::reserved => {
                    // From the keyword on: a doc comment before it is
                    // trivia, as for every other declaration.
                    let mut span = self.span(&q);
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::kw_reserved => span.start = r.as_span().start() as u32,
                            Rule::literal => reserved.push(self.literal(r)),
                            _ => {}
                        }
                    }
                    reserved_entries.push(span);
                }
                Rule::variant => {
                    let span = self.span(&q);
                    let mut doc = Vec::new();
                    let mut attrs = Vec::new();
                    let mut vname = None;
                    let mut ty = None;
                    let mut vtag = None;
                    for r in q.into_inner() {
                        match r.as_rule() {
                            Rule::doc => doc.push(doc_text(r)),
                            Rule::attr => attrs.push(self.attr(r)),
                            Rule::ident => vname = Some(self.ident(r)),
                            Rule::ty => ty = Some(self.ty(r)),
                            Rule::literal => vtag = Some(self.literal(r)),
                            _ => {}
                        }
                    }
                    variants.push(Variant {
                        doc,
                        attrs,
                        name: vname.expect("grammar: variant name"),
                        ty: ty.expect("grammar: variant type"),
                        tag: vtag.expect("grammar: variant tag"),
                        span,
                    });
                }
                _ => {}
            }
        }
        let name = name.expect("grammar: union name");
        let braces = self.braces(tag.as_ref().unwrap_or(&name).span, end);
        UnionDecl {
            name,
            tag,
            variants,
            reserved,
            reserved_entries,
            braces,
        }
    }

    /// The `{ ... }` of a declaration: the first token after `after` (the
    /// name or base type) up to `end`, the end of the declaration.
    fn braces(&self, after: Span, end: usize) -> Span {
        let open = super::trivia::skip(self.text, after.end as usize);
        Span::new(self.file, open.min(end), end)
    }

    fn ty(&mut self, p: Pair<Rule>) -> TypeExpr {
        let span = self.span(&p);
        let mut inner = p.into_inner();
        let base = inner.next().expect("grammar: type has a base");
        let mut ty = self.ty_base(base);
        // Each `?` wraps what precedes it. `T??` is rejected by the checker, so
        // two levels say all there is to say about any number of marks.
        for mark in inner.take(2) {
            let end = mark.as_span().end();
            ty = TypeExpr {
                kind: TypeExprKind::Optional(Box::new(ty)),
                attrs: Vec::new(),
                span: Span::new(self.file, span.start as usize, end),
            };
        }
        ty
    }

    fn ty_base(&mut self, p: Pair<Rule>) -> TypeExpr {
        let span = self.span(&p);
        let kind = match p.as_rule() {
            Rule::named_ty => {
                let path = p.into_inner().next().expect("grammar: named type path");
                TypeExprKind::Named(self.path(path))
            }
            Rule::list_ty => {
                let elem = self.elem_ty(p.into_inner().next().expect("grammar: list element"));
                TypeExprKind::List(Box::new(elem))
            }
            Rule::map_ty => {
                let mut inner = p.into_inner();
                let k = self.elem_ty(inner.next().expect("grammar: map key"));
                let v = self.elem_ty(inner.next().expect("grammar: map value"));
                TypeExprKind::Map(Box::new(k), Box::new(v))
            }
            Rule::array_ty => {
                let mut inner = p.into_inner();
                let elem = self.elem_ty(inner.next().expect("grammar: array element"));
                let len = self.literal(inner.next().expect("grammar: array length"));
                TypeExprKind::Array(Box::new(elem), len)
            }
            r => unreachable!("grammar: unexpected type rule {r:?}"),
        };
        TypeExpr {
            kind,
            attrs: Vec::new(),
            span,
        }
    }

    /// An element, key or value type and the attributes after it.
    fn elem_ty(&mut self, p: Pair<Rule>) -> TypeExpr {
        let mut inner = p.into_inner();
        let mut ty = self.ty(inner.next().expect("grammar: element type"));
        ty.attrs = inner.map(|a| self.attr(a)).collect();
        ty
    }

    /// The value of a string literal; an unknown or malformed escape is
    /// recorded as the file's error.
    fn string(&mut self, p: Pair<Rule>) -> String {
        let Some(inner) = p.into_inner().next() else {
            return String::new();
        };
        let start = inner.as_span().start();
        match unescape(inner.as_str()) {
            Ok(s) => s,
            Err((at, len, problem)) => {
                let span = Span::new(self.file, start + at, start + at + len);
                self.errors.get_or_insert_with(|| {
                    Diagnostic::error(problem, span, "not an escape of the language").with_help(
                        "strings know the escapes \\\\, \\\", \\n, \\r, \\t, \\0 and \\u{...} (1 to 6 hex digits); write a backslash as \\\\",
                    )
                });
                String::new()
            }
        }
    }

    fn literal(&mut self, p: Pair<Rule>) -> Literal {
        let span = self.span(&p);
        let inner = p.into_inner().next().expect("grammar: literal has a kind");
        let text = inner.as_str();
        let kind = match inner.as_rule() {
            Rule::int_lit => match parse_int(text) {
                Some(v) => LitKind::Int(v),
                None => {
                    self.errors.get_or_insert_with(|| {
                        Diagnostic::error(
                            format!("integer literal `{text}` is too large"),
                            span,
                            "does not fit in 64 bits",
                        )
                    });
                    LitKind::Int(0)
                }
            },
            Rule::float_lit => LitKind::Float(text.parse().unwrap_or(f64::NAN)),
            Rule::string_lit => LitKind::Str(self.string(inner)),
            Rule::bool_lit => LitKind::Bool(text == "true"),
            Rule::path => LitKind::Ident(text.to_string()),
            Rule::neg_path => LitKind::NegIdent(text[1..].to_string()),
            r => unreachable!("grammar: unexpected literal rule {r:?}"),
        };
        Literal { kind, span }
    }
}

fn doc_text(p: Pair<Rule>) -> String {
    let text = p
        .into_inner()
        .next()
        .map(|t| t.as_str())
        .unwrap_or_default();
    // `/// text` → `text`; keep deeper indentation for code in docs.
    text.strip_prefix(' ')
        .unwrap_or(text)
        .trim_end()
        .to_string()
}

/// Resolves the escapes of a string literal's contents: `\\`, `\"`, `\n`,
/// `\r`, `\t`, `\0` and `\u{X}` with 1 to 6 hex digits naming a Unicode
/// scalar value. On error: the byte offset and length of the bad escape and
/// what is wrong with it.
fn unescape(s: &str) -> Result<String, (usize, usize, String)> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else {
            return Err((at, 1, "a string cannot end in a lone `\\`".to_string()));
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            'u' => {
                let rest = &s[at + 2..];
                let close = rest.find('}');
                let digits = match (rest.strip_prefix('{'), close) {
                    (Some(_), Some(close)) => &rest[1..close],
                    _ => {
                        return Err((
                            at,
                            2,
                            "`\\u` must be followed by hex digits in braces, as in `\\u{e9}`"
                                .to_string(),
                        ))
                    }
                };
                let len = 2 + close.expect("matched above") + 1;
                let value = (1..=6)
                    .contains(&digits.len())
                    .then(|| u32::from_str_radix(digits, 16).ok())
                    .flatten()
                    .and_then(char::from_u32);
                match value {
                    Some(ch) => out.push(ch),
                    None => {
                        return Err((
                            at,
                            len,
                            format!(
                            "`\\u{{{digits}}}` is not a Unicode scalar value in 1 to 6 hex digits"
                        ),
                        ))
                    }
                }
                for _ in 0..len - 2 {
                    chars.next();
                }
            }
            other => {
                return Err((
                    at,
                    1 + other.len_utf8(),
                    format!("unknown escape `\\{other}` in a string"),
                ))
            }
        }
    }
    Ok(out)
}

/// Integers up to the range of u64 and i64, in decimal or hex, with `_` separators.
fn parse_int(text: &str) -> Option<i128> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits: String = body.chars().filter(|&c| c != '_').collect();
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    let v = magnitude as i128;
    Some(if neg { -v } else { v })
}

fn syntax_error(e: pest::error::Error<Rule>, file: FileId, text: &str) -> Diagnostic {
    let (mut start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let mut expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => describe(positives),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    // The furthest point any alternative reached is where the mistake is.
    let mut tokens: Vec<String> = Vec::new();
    if let Some(attempts) = e.parse_attempts() {
        tokens = attempts
            .expected_tokens()
            .iter()
            .map(|t| t.to_string())
            .filter(|t| !t.trim().is_empty() && !t.starts_with("/"))
            .collect();
        if attempts.max_position >= start && !tokens.is_empty() {
            start = attempts.max_position;
            let after_word = text
                .get(..attempts.max_position)
                .is_some_and(|t| t.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'));
            expected = say_tokens(&tokens, after_word);
        } else {
            tokens.clear();
        }
    }
    let start = start.min(text.len());
    // Point at the token that was found, not at the whitespace before it.
    let token_end = text[start..]
        .char_indices()
        .find(|&(_, c)| c.is_whitespace() || "{}()<>[];:,=?@".contains(c))
        .map_or(text.len(), |(i, c)| {
            start + if i == 0 { c.len_utf8() } else { i }
        });
    let end = end.max(token_end).min(text.len()).max(start);
    let stop = mistakes::Stop::new(text, start, file, &tokens);
    if let Some(d) = mistakes::explain(&stop) {
        return d;
    }
    let found = if start >= text.len() {
        "end of file".to_string()
    } else if text[start..].starts_with(['\n', '\r']) {
        "the end of the line".to_string()
    } else if text[start..].starts_with(char::is_whitespace) {
        "a space".to_string()
    } else {
        format!("`{}`", &text[start..end])
    };
    let span = Span::new(file, start, end);
    let message = format!("expected {expected}, found {found}");
    let mut d = Diagnostic::error(message, span, format!("expected {expected}"));
    if let Some(help) = mistakes::help(&stop) {
        d = d.with_help(help);
    }
    d
}

fn one_of(mut words: Vec<String>) -> String {
    words.dedup();
    match words.len() {
        0 => "something else".to_string(),
        1 => words.remove(0),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// The tokens that would have let parsing go on, as a reader of the schema
/// would say them: punctuation and keywords as written, the character ranges
/// and prefixes that start a name or a value in words (`a name` for `_`,
/// `A..Z` and `a..z`). Right after a letter or digit (`after_word`), the
/// characters that would only lengthen that word are left out: `N` may go on
/// as `N2`, but what the reader needs to hear is what may follow it.
fn say_tokens(tokens: &[String], after_word: bool) -> String {
    // Characters and prefixes that start or continue a name or a literal.
    const CLASSES: [&str; 16] = [
        "_", "A..Z", "a..z", "0..9", "A..F", "a..f", "E", "e", "+", "-", "0x", "0X", "-inf", "\"",
        "true", "false",
    ];
    const LENGTHEN: [&str; 10] = [
        "_", "A..Z", "a..z", "0..9", "A..F", "a..f", "E", "e", "+", "-",
    ];
    let has = |t: &[&str]| tokens.iter().any(|x| t.contains(&x.as_str()));
    const ITEMS: [&str; 6] = ["@", "const", "enum", "message", "struct", "union"];
    let item = ITEMS.iter().all(|k| has(&[k]));
    let mut words: Vec<String> = tokens
        .iter()
        .filter(|t| !(CLASSES.contains(&t.as_str()) || item && ITEMS.contains(&t.as_str())))
        .map(|t| format!("`{t}`"))
        .collect();
    if item {
        words.push("a declaration (`struct`, `message`, `enum`, `union` or `const`)".to_string());
    }
    let only_lengthen = tokens.iter().all(|t| LENGTHEN.contains(&t.as_str()));
    if after_word && !only_lengthen {
        // Whatever else could come: the name or number may also go on.
        if !words.is_empty() || !has(&["0x", "0X", "-inf", "\"", "true", "false"]) {
            return one_of(words);
        }
    }
    let hex = has(&["A..F", "a..f"]);
    let name = has(&["_", "A..Z", "a..z"]);
    let number = has(&["0..9", "0x", "0X", "-", "-inf"]);
    let string = has(&["\""]);
    if name && number && string {
        words.push("a value".to_string());
    } else {
        let classes = [
            (hex, "a hex digit"),
            (number && !hex, "a number"),
            (string, "a string"),
            (has(&["true", "false"]), "`true` or `false`"),
            (name && !hex, "a name"),
        ];
        words.extend(classes.iter().filter(|c| c.0).map(|c| c.1.to_string()));
    }
    one_of(words)
}

/// Rule names in an "expected" list, as a reader of the schema would say them.
fn describe(rules: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    for r in rules {
        let w = match r {
            Rule::ident | Rule::path | Rule::named_ty => "a name",
            Rule::ty | Rule::elem_ty | Rule::list_ty | Rule::map_ty | Rule::array_ty => "a type",
            Rule::literal
            | Rule::int_lit
            | Rule::float_lit
            | Rule::string_lit
            | Rule::bool_lit
            | Rule::neg_path => "a value",
            Rule::item
            | Rule::kw_const
            | Rule::kw_enum
            | Rule::kw_struct
            | Rule::kw_message
            | Rule::kw_union => "an item (`struct`, `message`, `enum`, `union` or `const`)",
            Rule::kw_import | Rule::import_decl => "`import`",
            Rule::kw_namespace | Rule::namespace_decl => "`namespace`",
            Rule::field | Rule::field_list => "a field",
            Rule::variant | Rule::reserved | Rule::kw_reserved => "a variant",
            Rule::enum_value => "an enum value",
            Rule::attr => "an attribute",
            Rule::doc => "a doc comment",
            Rule::optional_mark => "`?`",
            Rule::EOI => "end of file",
            _ => continue,
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    one_of(words.into_iter().map(String::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(src: &str) -> File {
        parse(src, FileId(0)).unwrap_or_else(|d| panic!("{}", d.message))
    }

    #[test]
    fn parses_every_construct_of_the_language() {
        let f = parse_ok(
            r#"
/// The game's wire protocol.
namespace game.net;
import "common.pkt";
const MAX_NAME: u16 = 32;
enum ItemKind : u8 { Sword = 1, Shield = 2, }
/// Fixed.
struct Vec3 { x: f32, y: f32, z: f32 }
message Chat {
    nickname: string @max(MAX_NAME),
    color: u32 = 0xFF_FF_FF, // trailing comment
    reply_to: u64?,
    tags: list<string>,
    attrs: map<string, i32>,
    matrix: [f32; 16],
    /* block */ blob: bytes,
    /// doc
    @deprecated old_flag: bool,
}
union ServerPacket : u16 {
    Transform(TransformPacket) = 1,
    Chat(Chat) = 2,
    reserved 3, 4,
    Ping(u64) = 5,
}
"#,
        );
        assert_eq!(f.namespace.as_ref().unwrap().path.len(), 2);
        assert_eq!(f.imports[0].path, "common.pkt");
        assert_eq!(f.items.len(), 5);
        let ItemKind::Message(chat) = &f.items[3].kind else {
            panic!("expected a message")
        };
        assert_eq!(chat.fields.len(), 8);
        assert_eq!(
            chat.fields[1].default.as_ref().unwrap().kind,
            LitKind::Int(0xFFFFFF)
        );
        assert_eq!(chat.fields[7].doc, vec!["doc".to_string()]);
        assert_eq!(chat.fields[7].attrs[0].name.name, "deprecated");
        let ItemKind::Union(u) = &f.items[4].kind else {
            panic!("expected a union")
        };
        assert_eq!(u.variants.len(), 3);
        assert_eq!(u.reserved.len(), 2);
    }

    #[test]
    fn constants_may_be_named_by_namespace() {
        let f = parse_ok(
            "const L: u16 = x.b.MAX_NAME;\n\
             message M { name: string @max(x.b.MAX_NAME), key: [u8; x.b.MAX_NAME] }",
        );
        let ItemKind::Const(c) = &f.items[0].kind else {
            panic!("expected a constant")
        };
        assert_eq!(c.value.kind, LitKind::Ident("x.b.MAX_NAME".into()));
        let ItemKind::Message(m) = &f.items[1].kind else {
            panic!("expected a message")
        };
        assert_eq!(
            m.fields[0].attrs[0].args[0].kind,
            LitKind::Ident("x.b.MAX_NAME".into())
        );
        let TypeExprKind::Array(_, len) = &m.fields[1].ty.kind else {
            panic!("expected an array")
        };
        assert_eq!(len.kind, LitKind::Ident("x.b.MAX_NAME".into()));
    }

    #[test]
    fn reports_position_of_syntax_error() {
        let d = parse("struct A {\n    x u8\n}\n", FileId(0)).unwrap_err();
        assert!(d.message.starts_with("expected"), "{}", d.message);
        assert_eq!(d.primary_span().unwrap().start, 17);
        assert!(d.message.contains("`:`"), "{}", d.message);
    }

    /// What the parser expected is said in words: a name, a number, a
    /// value, never the character ranges of the grammar (`A..Z`, `0..9`).
    #[test]
    fn syntax_errors_say_names_and_values_in_words() {
        let message = |src: &str| parse(src, FileId(0)).unwrap_err().message;
        assert_eq!(message("struct { }"), "expected a name, found `{`");
        assert_eq!(
            message("message M { x: u8 = }"),
            "expected a value, found `}`"
        );
        assert_eq!(message("namespace 1a;"), "expected a name, found `1a`");
        assert_eq!(
            message("message M { x: [u8; ] }"),
            "expected a value, found `]`"
        );
        assert_eq!(
            message("const X: u8 = 0x;"),
            "expected a hex digit, found `;`"
        );
        assert_eq!(
            message("message M { f: f32 = 1.5e }"),
            "expected a number, found a space"
        );
        // After a name, what may follow it, not what may lengthen it.
        assert_eq!(
            message("struct S { x: [u8; N}"),
            "expected `.` or `]`, found `}`"
        );
        let schema = "namespace a.b;\nimport \"c.pkt\";\nconst N: u16 = 0x10;\n\
                      enum E : u8 { A = 1 }\nstruct S { x: [u8; N] }\n\
                      message M { @max(4) s: string = \"d\", f: f32 = -1.5, b: bool = true, \
                      l: list<map<u8, E?>> }\nunion U { A(M) = 1, reserved 2 }\n";
        for end in 0..schema.len() {
            let Err(d) = parse(&schema[..end], FileId(0)) else {
                continue;
            };
            for raw in ["A..Z", "a..z", "0..9", "`_`", "`0x`", "`-inf`", "`\"`"] {
                assert!(
                    !d.message.contains(raw),
                    "{:?}: {}",
                    &schema[..end],
                    d.message
                );
            }
        }
    }

    #[test]
    fn unterminated_block_comments_are_rejected_quickly() {
        let mut src = String::from("message A { x: u8 }\n");
        for _ in 0..50 {
            src.push_str("/* open ");
        }
        let start = std::time::Instant::now();
        let d = parse(&src, FileId(0)).unwrap_err();
        assert_eq!(d.message, "unterminated block comment");
        assert_eq!(d.primary_span().unwrap().start, 20);
        // Far below what rescanning 50 nested openers would take.
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        assert!(parse("/* a /* nested */ comment */ message A {}", FileId(0)).is_ok());
        // A lone carriage return ends a line comment, as the grammar says.
        let d = parse("// note\r/* open\nmessage A {}", FileId(0)).unwrap_err();
        assert_eq!(d.message, "unterminated block comment");
    }

    #[test]
    fn resolves_the_string_escapes_and_rejects_others() {
        assert_eq!(
            unescape(r#"a\n\t\r\0\\\"\u{e9}\u{1F600}z"#).unwrap(),
            "a\n\t\r\0\\\"\u{e9}\u{1F600}z"
        );
        assert_eq!(unescape(r"h\u00e9llo").unwrap_err().0, 1);
        let (at, len, msg) = unescape(r"ab\q").unwrap_err();
        assert_eq!((at, len), (2, 2));
        assert!(msg.contains("unknown escape `\\q`"), "{msg}");
        for bad in [
            r"\u{}",
            r"\u{1234567}",
            r"\u{D800}",
            r"\u{110000}",
            r"\u{zz}",
            r"\u{41",
        ] {
            assert!(unescape(bad).is_err(), "{bad}");
        }
        let d = parse("import \"a\\qb.pkt\";", FileId(0)).unwrap_err();
        assert_eq!(d.primary_span().unwrap().start, 9);
    }

    #[test]
    fn rejects_integer_too_large() {
        let d = parse("const A: u64 = 99999999999999999999999;", FileId(0)).unwrap_err();
        assert!(d.message.contains("too large"));
    }
}
