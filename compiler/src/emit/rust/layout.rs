//! Line breaking as rustfmt does it, for the generated Rust to be
//! rustfmt-clean as written.
//!
//! Where rustfmt breaks a line depends on the column the line starts at,
//! which only the template knows. So the view models do not lay out what
//! may need breaking: they build a [`Span`] (a call, an expression, a type,
//! an `if` head, ...), which writes itself into the text on one line between
//! markers; templates place it like any other text, at the indentation of
//! the block it is in; and [`lay_out`] breaks each marked line once the
//! file is rendered, at that line's own indentation, with the text before
//! the span on its line as its lead and the text after it as its tail.
//! Indentation is stated once, by nesting in the templates.
//!
//! Names in the schema have no length limit, so any such line may need
//! breaking; rustfmt's widths (100 columns a line, 60 the arguments of a
//! call, 18 the fields of a struct literal on one line) are applied here.

/// Starts a span: its kind letter follows.
const OPEN: char = '\u{1}';
/// Ends a span.
const CLOSE: char = '\u{2}';
/// Separates the parts of a span.
const PART: char = '\u{1f}';
/// Separates the items of a list part (a call's arguments).
const ITEM: char = '\u{1e}';

/// rustfmt's `max_width`.
const MAX_WIDTH: usize = 100;
/// rustfmt's `fn_call_width`: the most a call's arguments take on one line.
const CALL_WIDTH: usize = 60;
/// rustfmt's `struct_lit_width`: the most a struct literal's fields take
/// on one line.
const STRUCT_LIT_WIDTH: usize = 18;

/// What [`lay_out`] breaks: the kinds of line whose breaking depends on
/// the column.
pub(super) enum Span<'a> {
    /// `callee(args)`: on one line when its arguments take at most 60
    /// columns and the line at most 100, else one argument per line with a
    /// trailing comma.
    Call { callee: &'a str, args: &'a [String] },
    /// A macro call statement, as [`Span::Call`] but without a trailing
    /// comma when broken.
    Macro { callee: &'a str, args: &'a [String] },
    /// A call after a lead (`let v = `): moved to the next line, indented
    /// once more, rather than broken, when it fits there on one line.
    MovableCall { callee: &'a str, args: &'a [String] },
    /// `lhs sep rhs`: `rhs` on the next line, indented once more, when the
    /// line passes 100 columns (a field initialiser, an assignment).
    Split {
        lhs: &'a str,
        sep: &'a str,
        rhs: &'a str,
    },
    /// An expression (a default value: calls, closures, literals); see
    /// [`expr_lines`]. `movable`: it may move to the next line after its
    /// lead.
    Expr { expr: &'a str, movable: bool },
    /// A type; see [`type_lines`]. `movable` as for [`Span::Expr`].
    Type { ty: &'a str, movable: bool },
    /// `if cond {`, with the brace on a line of its own when the line
    /// would pass 100 columns.
    IfHead { head: &'a str },
    /// A match arm `pat => expr,`, as a block when it does not fit.
    Arm { pat: &'a str, expr: &'a str },
    /// `Self { name: value, ... }`: on one line when the fields take at
    /// most 18 columns, else one field per line, each value an expression
    /// that may move.
    Fields { fields: &'a [(String, String)] },
    /// `name: self.name.into_owned(),`: on one line, else one element of
    /// the method chain per line.
    OwnedField { name: &'a str },
    /// `Name { a, b }` whose fields are written as they are (a macro's
    /// struct-like argument): on one line when they take at most 18
    /// columns, else one per line.
    Literal { name: &'a str, fields: &'a [String] },
}

impl Span<'_> {
    /// The span as one line of text, for a template to place.
    pub(super) fn text(&self) -> String {
        let list = |items: &[String]| items.join(&ITEM.to_string());
        let (kind, parts): (char, Vec<String>) = match self {
            Span::Call { callee, args } => ('c', vec![callee.to_string(), list(args)]),
            Span::Macro { callee, args } => ('m', vec![callee.to_string(), list(args)]),
            Span::MovableCall { callee, args } => ('v', vec![callee.to_string(), list(args)]),
            Span::Split { lhs, sep, rhs } => {
                ('s', vec![lhs.to_string(), sep.to_string(), rhs.to_string()])
            }
            Span::Expr { expr, movable } => {
                (if *movable { 'E' } else { 'e' }, vec![expr.to_string()])
            }
            Span::Type { ty, movable } => (if *movable { 'T' } else { 't' }, vec![ty.to_string()]),
            Span::IfHead { head } => ('i', vec![head.to_string()]),
            Span::Arm { pat, expr } => ('a', vec![pat.to_string(), expr.to_string()]),
            Span::Fields { fields } => (
                'f',
                fields
                    .iter()
                    .map(|(n, v)| format!("{n}{ITEM}{v}"))
                    .collect(),
            ),
            Span::OwnedField { name } => ('o', vec![name.to_string()]),
            Span::Literal { name, fields } => ('l', vec![name.to_string(), list(fields)]),
        };
        let mut out = String::new();
        out.push(OPEN);
        out.push(kind);
        out.push_str(&parts.join(&PART.to_string()));
        out.push(CLOSE);
        out
    }
}

/// `callee(args)`, laid out by [`lay_out`] as [`Span::Call`].
pub(super) fn call(callee: &str, args: &[String]) -> String {
    Span::Call { callee, args }.text()
}

/// `callee(args)tail` (`tail` a `;` or `?;`), laid out as [`Span::Call`].
pub(super) fn statement(callee: &str, args: &[String], tail: &str) -> String {
    format!("{}{tail}", call(callee, args))
}

/// A macro call, laid out as [`Span::Macro`].
pub(super) fn macro_call(callee: &str, args: &[String]) -> String {
    Span::Macro { callee, args }.text()
}

/// A call after a lead, laid out as [`Span::MovableCall`].
pub(super) fn movable_call(callee: &str, args: &[String]) -> String {
    Span::MovableCall { callee, args }.text()
}

/// `lhs sep rhs`, laid out as [`Span::Split`].
pub(super) fn split(lhs: &str, sep: &str, rhs: &str) -> String {
    Span::Split { lhs, sep, rhs }.text()
}

/// An expression, laid out as [`Span::Expr`].
pub(super) fn expr(expr: &str, movable: bool) -> String {
    Span::Expr { expr, movable }.text()
}

/// A type, laid out as [`Span::Type`].
pub(super) fn ty(ty: &str, movable: bool) -> String {
    Span::Type { ty, movable }.text()
}

/// `head {`, laid out as [`Span::IfHead`].
pub(super) fn if_head(head: &str) -> String {
    Span::IfHead { head }.text()
}

/// `pat => expr,`, laid out as [`Span::Arm`].
pub(super) fn arm(pat: &str, expr: &str) -> String {
    Span::Arm { pat, expr }.text()
}

/// `Self { fields }`, laid out as [`Span::Fields`].
pub(super) fn fields(fields: &[(String, String)]) -> String {
    Span::Fields { fields }.text()
}

/// `name: self.name.into_owned(),`, laid out as [`Span::OwnedField`].
pub(super) fn owned_field(name: &str) -> String {
    Span::OwnedField { name }.text()
}

/// `Name { fields }`, laid out as [`Span::Literal`].
pub(super) fn literal(name: &str, fields: &[String]) -> String {
    Span::Literal { name, fields }.text()
}

/// Text from the schema (a doc comment, a file name) as it goes into the
/// output: a marker character in it is written as its escape (`\u{1}`),
/// so that no schema text is taken for a span.
pub(super) fn plain(text: &str) -> String {
    if !text.contains([OPEN, CLOSE, PART, ITEM]) {
        return text.to_string();
    }
    text.chars()
        .map(|c| match c {
            OPEN | CLOSE | PART | ITEM => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// Breaks every line holding a span as rustfmt would, at the line's own
/// indentation; other lines are kept as they are. A line holds at most one
/// span; text that only looks like one (a marker character in a doc
/// comment) is kept as it is.
pub(super) fn lay_out(text: &str) -> String {
    if !text.contains(OPEN) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match line_lines(line) {
            Some(lines) => out.push_str(&lines.join("\n")),
            None => out.push_str(line),
        }
    }
    out
}

/// The lines of one line holding a span; `None` when it holds none.
fn line_lines(line: &str) -> Option<Vec<String>> {
    let open = line.find(OPEN)?;
    let close = open + line[open..].find(CLOSE)?;
    let indent = line.len() - line.trim_start_matches(' ').len();
    let lead = &line[indent..open];
    let tail = &line[close + CLOSE.len_utf8()..];
    let body = &line[open + OPEN.len_utf8()..close];
    let kind = body.chars().next()?;
    let parts: Vec<&str> = body[kind.len_utf8()..].split(PART).collect();
    let list = |s: &str| -> Vec<String> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split(ITEM).map(str::to_string).collect()
        }
    };
    let one = |s: String| Some(s.split('\n').map(str::to_string).collect());
    match (kind, parts.as_slice()) {
        ('c', [callee, args]) => one(call_statement(
            indent,
            &format!("{lead}{callee}"),
            &list(args),
            tail,
        )),
        ('m', [callee, args]) => one(macro_statement(
            indent,
            &format!("{lead}{callee}"),
            &list(args),
            tail,
        )),
        ('v', [callee, args]) => one(movable_call_statement(
            indent,
            lead,
            callee,
            &list(args),
            tail,
        )),
        ('s', [lhs, sep, rhs]) => one(split_line(
            indent,
            &format!("{lead}{lhs}"),
            sep,
            &format!("{rhs}{tail}"),
        )),
        ('E' | 'e', [expr]) => Some(expr_lines(indent, lead, expr, tail, kind == 'E')),
        ('T' | 't', [ty]) => Some(type_lines(indent, lead, ty, tail, kind == 'T')),
        ('i', [head]) => one(if_head_lines(indent, &format!("{lead}{head}"), tail)),
        ('a', [pat, expr]) => one(match_arm(indent, &format!("{lead}{pat}"), expr, tail)),
        ('f', fields) => {
            let fields: Option<Vec<(String, String)>> = fields
                .iter()
                .filter(|f| !f.is_empty())
                .map(|f| {
                    let (n, v) = f.split_once(ITEM)?;
                    Some((n.to_string(), v.to_string()))
                })
                .collect();
            Some(struct_literal(indent, lead, &fields?, tail))
        }
        ('o', [name]) => one(owned_field_lines(
            indent,
            &format!("{lead}{name}"),
            name,
            tail,
        )),
        ('l', [name, fields]) => Some(literal_lines(
            indent,
            &format!("{lead}{name}"),
            &list(fields),
            tail,
        )),
        _ => None,
    }
}

/// A call statement at `indent` spaces laid out as rustfmt lays it out: on
/// one line when its arguments take at most 60 columns (rustfmt's
/// `fn_call_width`) and the line at most 100, else one argument per line
/// with a trailing comma.
fn call_statement(indent: usize, callee: &str, args: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let joined = args.join(", ");
    let line = format!("{pad}{callee}({joined}){tail}");
    // rustfmt lets a lone string literal argument run past the 60 columns
    // of call arguments while the line fits.
    let lone_string = matches!(args, [a] if a.starts_with('"') && a.ends_with('"'));
    if (joined.len() <= CALL_WIDTH || lone_string) && width(&line) <= MAX_WIDTH {
        return line;
    }
    let mut out = format!("{pad}{callee}(\n");
    for a in args {
        out.push_str(&format!("{pad}    {a},\n"));
    }
    out.push_str(&format!("{pad}){tail}"));
    out
}

/// A macro call statement laid out as rustfmt lays it out: as
/// [`call_statement`], but without a trailing comma when broken.
fn macro_statement(indent: usize, callee: &str, args: &[String], tail: &str) -> String {
    let one = call_statement(indent, callee, args, tail);
    if !one.contains('\n') {
        return one;
    }
    let pad = " ".repeat(indent);
    let lines: Vec<String> = args.iter().map(|a| format!("{pad}    {a}")).collect();
    format!("{pad}{callee}(\n{}\n{pad}){tail}", lines.join(",\n"))
}

/// `lead callee(args)tail`: after a `lead` (`let v = `), the call moves to
/// the next line rather than break its arguments when it fits there on one
/// line, as rustfmt prefers.
fn movable_call_statement(
    indent: usize,
    lead: &str,
    callee: &str,
    args: &[String],
    tail: &str,
) -> String {
    let here = call_statement(indent, &format!("{lead}{callee}"), args, tail);
    if lead.is_empty() || !here.contains('\n') {
        return here;
    }
    let next = call_statement(indent + 4, callee, args, tail);
    if next.contains('\n') {
        return here;
    }
    format!("{:indent$}{}\n{next}", "", lead.trim_end())
}

/// `lhs sep rhs` at `indent` spaces: on one line when it fits rustfmt's 100
/// columns, else `rhs` on the next line, indented once more (a struct
/// field initialiser with `sep` `": "`, or an assignment with `" = "`).
fn split_line(indent: usize, lhs: &str, sep: &str, rhs: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{lhs}{sep}{rhs}");
    if width(&line) <= MAX_WIDTH {
        return line;
    }
    format!("{pad}{lhs}{}\n{pad}    {rhs}", sep.trim_end())
}

/// An `if cond {` line, with the brace on a line of its own when the
/// line would pass 100 columns, as rustfmt does.
fn if_head_lines(indent: usize, head: &str, tail: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{head} {{{tail}");
    if width(&line) <= MAX_WIDTH {
        return line;
    }
    format!("{pad}{head}\n{pad}{{{tail}")
}

/// A match arm `pat => expr,`, or as a block when it does not fit.
fn match_arm(indent: usize, pat: &str, expr: &str, tail: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{pat} => {expr},{tail}");
    if width(&line) <= MAX_WIDTH {
        return line;
    }
    format!("{pad}{pat} => {{\n{pad}    {expr}\n{pad}}}{tail}")
}

/// `field: self.name.into_owned(),` as rustfmt lays out a struct field
/// whose value is a method chain: on one line, else one chain element per
/// line.
fn owned_field_lines(indent: usize, field: &str, name: &str, tail: &str) -> String {
    let pad = " ".repeat(indent);
    let one = format!("{pad}{field}: self.{name}.into_owned(),{tail}");
    if width(&one) <= MAX_WIDTH {
        return one;
    }
    format!("{pad}{field}: self\n{pad}    .{name}\n{pad}    .into_owned(),{tail}")
}

/// `head { fields }tail`, as rustfmt lays out a struct literal: on one line
/// while its fields take at most 18 columns (`struct_lit_width`), else one
/// field per line.
fn literal_lines(indent: usize, head: &str, fields: &[String], tail: &str) -> Vec<String> {
    let pad = " ".repeat(indent);
    let body = fields.join(", ");
    let one = format!("{pad}{head} {{ {body} }}{tail}");
    if width(&body) <= STRUCT_LIT_WIDTH && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut lines = vec![format!("{pad}{head} {{")];
    lines.extend(fields.iter().map(|f| format!("{pad}    {f},")));
    lines.push(format!("{pad}}}{tail}"));
    lines
}

/// `lead Self { name: value, ... } tail`: on one line when the fields take
/// at most 18 columns (rustfmt's `struct_lit_width`), else a field per
/// line, each value laid out by [`expr_lines`].
fn struct_literal(
    indent: usize,
    lead: &str,
    fields: &[(String, String)],
    tail: &str,
) -> Vec<String> {
    let pad = " ".repeat(indent);
    let body: Vec<String> = fields.iter().map(|(n, v)| format!("{n}: {v}")).collect();
    let body = body.join(", ");
    let one = format!("{pad}{lead}Self {{ {body} }}{tail}");
    if width(&body) <= STRUCT_LIT_WIDTH && flat_fits(&body) && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut out = vec![format!("{pad}{lead}Self {{")];
    for (name, value) in fields {
        out.extend(expr_lines(
            indent + 4,
            &format!("{name}: "),
            value,
            ",",
            true,
        ));
    }
    out.push(format!("{pad}}}{tail}"));
    out
}

/// The signature line(s) of `pub fn {name}(params) -> {head}<args> {` of a
/// method, at the 4 columns of a top-level `impl` block's members, laid out
/// as rustfmt lays it out (laid out here rather than by [`lay_out`]: a
/// signature has no text before or after it on its line): on one line; else one
/// parameter per line; else also one type argument per line. Each argument
/// is one type or, with several parts, a tuple of them.
pub(super) fn method_signature(
    name: &str,
    params: &[String],
    head: &str,
    args: &[Vec<String>],
) -> Vec<String> {
    let arg = |parts: &Vec<String>| {
        if parts.len() == 1 {
            parts[0].clone()
        } else {
            format!("({})", parts.join(", "))
        }
    };
    let joined: Vec<String> = args.iter().map(arg).collect();
    let ret = format!("{head}<{}>", joined.join(", "));
    let one = format!("    pub fn {name}({}) -> {ret} {{", params.join(", "));
    if width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let mut lines = vec![format!("    pub fn {name}(")];
    lines.extend(params.iter().map(|p| format!("        {p},")));
    let tail = format!("    ) -> {ret}");
    // rustfmt measures the return type as if it were indented once more
    // (8 columns, not 4) when it decides whether the brace follows it.
    if width(&tail) + 4 + 2 <= MAX_WIDTH {
        lines.push(format!("{tail} {{"));
        return lines;
    }
    if width(&tail) <= MAX_WIDTH {
        // The return type fits the line only without the brace.
        lines.push(tail);
        lines.push("    {".to_string());
        return lines;
    }
    lines.push(format!("    ) -> {head}<"));
    for parts in args {
        if parts.len() == 1 || parts.join(", ").len() <= CALL_WIDTH {
            lines.push(format!("        {},", arg(parts)));
        } else {
            lines.push("        (".to_string());
            lines.extend(parts.iter().map(|p| format!("            {p},")));
            lines.push("        ),".to_string());
        }
    }
    lines.push("    > {".to_string());
    lines
}

/// `head for ty {` opening a top-level `impl` block: the `for` clause and
/// the brace on lines of their own when the line would pass 100 columns.
pub(super) fn impl_head(head: &str, ty: &str) -> String {
    let one = format!("{head} for {ty} {{");
    if width(&one) <= MAX_WIDTH {
        return one;
    }
    format!("{head}\n    for {ty}\n{{")
}

/// A union variant's declaration, `Name(Type),`, as rustfmt lays it out.
/// Laid out here rather than by [`lay_out`], at the 4 columns of a member
/// of an enum (always a top-level item), because whether it takes several
/// lines decides how the enum's `Unknown` variant is laid out
/// (`unknown_on_one_line`), which is another line.
pub(super) fn variant_decl(name: &str, ty: &str) -> String {
    const COLUMN: usize = 4;
    let pad = " ".repeat(COLUMN);
    let one = format!("{pad}{name}({ty}),");
    if width(&one) <= MAX_WIDTH {
        return one;
    }
    let mut lines = vec![format!("{pad}{name}(")];
    lines.extend(type_lines(COLUMN + 4, "", ty, ",", false));
    lines.push(format!("{pad}),"));
    lines.join("\n")
}

/// A type as rustfmt lays it out on a line that starts with `lead` at
/// `indent` columns and ends with `tail`: on that line when it fits 100
/// columns; else, when `may_move`, alone on the next line, indented once
/// more, if it fits there; else broken at its generic arguments, one per
/// line with a trailing comma, each laid out the same way. (A declaration's
/// type has no length limit: schema names have none, and types nest.)
fn type_lines(indent: usize, lead: &str, ty: &str, tail: &str, may_move: bool) -> Vec<String> {
    let pad = " ".repeat(indent);
    let one = format!("{pad}{lead}{ty}{tail}");
    if width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    let moved = may_move && !lead.is_empty();
    if moved {
        let next = format!("{pad}    {ty}{tail}");
        if width(&next) <= MAX_WIDTH {
            return vec![format!("{pad}{}", lead.trim_end()), next];
        }
    }
    let Some((head, args)) = generic_args(ty) else {
        // `[T; N]` is broken inside `T`, the brackets staying on its first
        // and last lines.
        return match array_parts(ty) {
            Some((elem, n)) if generic_args(elem).is_some() || array_parts(elem).is_some() => {
                type_lines(
                    indent,
                    &format!("{lead}["),
                    elem,
                    &format!("; {n}]{tail}"),
                    false,
                )
            }
            _ => vec![one],
        };
    };
    let same = format!("{pad}{lead}{head}<");
    let (mut out, inner) = if width(&same) <= MAX_WIDTH || !moved {
        (vec![same], indent)
    } else {
        (
            vec![
                format!("{pad}{}", lead.trim_end()),
                format!("{pad}    {head}<"),
            ],
            indent + 4,
        )
    };
    for a in args {
        out.extend(type_lines(inner + 4, "", a, ",", false));
    }
    out.push(format!("{}>{tail}", " ".repeat(inner)));
    out
}

/// `[T; N]` as `T` and `N`.
fn array_parts(ty: &str) -> Option<(&str, &str)> {
    let inner = ty.strip_prefix('[')?.strip_suffix(']')?;
    let mut depth = 0usize;
    let mut split = None;
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.checked_sub(1)?,
            ';' if depth == 0 => split = Some(i),
            _ => {}
        }
    }
    let i = split?;
    Some((inner[..i].trim(), inner[i + 1..].trim()))
}

/// `Head<a, b>` as `Head` and its top-level arguments; `None` for a type
/// without arguments of its own (`u8`, `&'a str`, `[T; 4]`).
fn generic_args(ty: &str) -> Option<(&str, Vec<&str>)> {
    if ty.starts_with(['[', '&', '(']) {
        return None;
    }
    let open = ty.find('<')?;
    let inner = ty.strip_suffix('>')?.get(open + 1..)?;
    let mut args = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(inner[start..].trim());
    Some((&ty[..open], args))
}

/// An expression (a default value: calls, closures, literals) at `indent`
/// columns between `lead` and `tail`, laid out as rustfmt lays it out: on
/// one line when every argument list takes at most 60 columns (rustfmt's
/// `fn_call_width`) and the line at most 100; else, when `may_move`, alone
/// on the next line if it fits there; else a call's closure argument
/// `|_| body` becomes a block, a call whose only argument is a call hands
/// its line to that argument (rustfmt's overflow of the last argument), and
/// any other argument goes on a line of its own.
fn expr_lines(indent: usize, lead: &str, expr: &str, tail: &str, may_move: bool) -> Vec<String> {
    expr_layout(indent, lead, expr, tail, may_move, true)
}

fn expr_layout(
    indent: usize,
    lead: &str,
    expr: &str,
    tail: &str,
    may_move: bool,
    may_be_flat: bool,
) -> Vec<String> {
    let pad = " ".repeat(indent);
    let flat = flat_fits(expr);
    let one = format!("{pad}{lead}{expr}{tail}");
    if may_be_flat && flat && width(&one) <= MAX_WIDTH {
        return vec![one];
    }
    if may_move && flat && !lead.trim().is_empty() {
        let next = format!("{pad}    {expr}{tail}");
        if width(&next) <= MAX_WIDTH {
            return vec![format!("{pad}{}", lead.trim_end()), next];
        }
    }
    if let Some((callee, arg)) = single_call(expr) {
        if let Some(body) = arg.strip_prefix("|_| ") {
            let mut out = vec![format!("{pad}{lead}{callee}(|_| {{")];
            out.extend(expr_layout(indent + 4, "", body, "", false, true));
            out.push(format!("{pad}}}){tail}"));
            return out;
        }
        if single_call(arg).is_some() {
            // The argument, formatted on this line, may not be flat: the
            // call's own arguments would then pass 60 columns.
            let lead = format!("{lead}{callee}(");
            return expr_layout(indent, &lead, arg, &format!("){tail}"), false, false);
        }
        let alone = format!("{pad}    {arg},");
        if flat_fits(arg) && width(&alone) <= MAX_WIDTH {
            return vec![
                format!("{pad}{lead}{callee}("),
                alone,
                format!("{pad}){tail}"),
            ];
        }
    }
    // Nothing fits (a long name or string): the value after the lead's
    // line break, as rustfmt would place it if it fitted.
    if may_move && !lead.trim().is_empty() {
        return vec![
            format!("{pad}{}", lead.trim_end()),
            format!("{pad}    {expr}{tail}"),
        ];
    }
    vec![one]
}

/// Whether rustfmt keeps `expr` on one line as far as its argument lists
/// and array expressions go: each at most 60 columns.
pub(super) fn flat_fits(expr: &str) -> bool {
    let mut open: Vec<usize> = Vec::new();
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in expr.char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' => open.push(i),
            ')' | ']' => {
                if let Some(start) = open.pop() {
                    if width(&expr[start + 1..i]) > CALL_WIDTH {
                        return false;
                    }
                }
            }
            _ => {}
        }
    }
    true
}

/// `callee(arg)` as its callee and its one argument, when `expr` is a call
/// of one argument (not `a(b)(c)`, not `x + f(y)`).
fn single_call(expr: &str) -> Option<(&str, &str)> {
    let body = expr.strip_suffix(')')?;
    let open = expr.find('(')?;
    let callee = &expr[..open];
    if callee.is_empty() || callee.contains([' ', '|', '"', '[']) {
        return None;
    }
    let arg = &body[open + 1..];
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for c in arg.chars() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
            }
            ',' if depth == 0 => return None,
            _ => {}
        }
    }
    (depth == 0 && !in_str).then_some((callee, arg))
}

/// Columns, as rustfmt counts them: characters.
fn width(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_breaks_at_the_column_of_its_line() {
        let args = [
            "&self.a_rather_long_field_name".to_string(),
            "w".to_string(),
        ];
        let line = call("::pkt_runtime::Encode::encode_raw", &args);
        assert_eq!(
            lay_out(&format!("    {line};")),
            "    ::pkt_runtime::Encode::encode_raw(&self.a_rather_long_field_name, w);"
        );
        let deep = " ".repeat(40);
        assert_eq!(
            lay_out(&format!("{deep}{line};")),
            format!(
                "{deep}::pkt_runtime::Encode::encode_raw(\n{deep}    &self.a_rather_long_field_name,\n{deep}    w,\n{deep});"
            )
        );
    }

    #[test]
    fn the_text_around_a_span_is_its_lead_and_tail() {
        let line = format!("        x: {}", expr("::core::array::from_fn(|_| 0)", true));
        assert_eq!(lay_out(&line), "        x: ::core::array::from_fn(|_| 0)");
        // A string of 88 columns: too long after `let v = `, not alone.
        let long = format!("\"{}\"", "y".repeat(86));
        let line = format!(
            "    let v = {};",
            movable_call("f", std::slice::from_ref(&long))
        );
        assert_eq!(lay_out(&line), format!("    let v =\n        f({long});"));
    }

    #[test]
    fn schema_text_is_never_taken_for_a_span() {
        let doc = format!("/// {}", plain(&call("f", &["x".repeat(200)])));
        assert_eq!(lay_out(&doc), doc);
        assert_eq!(plain("a\u{1}c\u{2}"), "a\\u{1}c\\u{2}");
        assert_eq!(plain("plain text"), "plain text");
    }

    #[test]
    fn lines_without_a_whole_span_are_kept() {
        let text = "/// a \u{1} in a doc comment\nfn f() {}\n";
        assert_eq!(lay_out(text), text);
        let text = "/// \u{1}q\u{2} unknown kind\n";
        assert_eq!(lay_out(text), text);
    }
}
