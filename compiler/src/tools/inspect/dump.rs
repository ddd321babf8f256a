//! An annotated hex dump: one line per value with its offset, its own bytes
//! (prefixes, flags, scalars; long values continue on further lines), its
//! path indented by nesting, and what it decoded to.
//!
//! Walked with an explicit stack like the decoder. Indentation stops at
//! [`MAX_INDENT`] levels and long paths show their last
//! [`MAX_PATH`] characters, so a deeply nested value dumps in time and
//! space linear in its size.

use std::fmt::Write;

use super::decode::{Kind, NodeId, Tree};
use super::json::{default_json, enum_name, scalar_json};
use crate::ir::TypeKind;

/// Bytes per line of the dump.
const DUMP_WIDTH: usize = 12;

/// Nesting levels past which the path column stops indenting further.
pub const MAX_INDENT: usize = 32;

/// Characters of a path shown; longer paths show their end after `…`.
pub const MAX_PATH: usize = 120;

struct Row {
    start: usize,
    end: usize,
    depth: usize,
    path: String,
    text: String,
}

enum Step {
    /// A node at a nesting depth.
    Node(NodeId, usize),
    /// The rows of a message or union that follow its children.
    Tail(NodeId, usize),
}

/// An annotated hex dump of the value in `tree`.
pub fn hex_dump(tree: &Tree<'_>) -> String {
    let list = rows(tree);
    let path_width = list
        .iter()
        .map(|r| 2 * r.depth.min(MAX_INDENT) + r.path.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    let bytes_width = DUMP_WIDTH * 3 - 1;
    let input = tree.input;
    let mut out = String::new();
    for r in &list {
        let bytes = input.get(r.start..r.end.min(input.len())).unwrap_or(&[]);
        let mut chunks = bytes.chunks(DUMP_WIDTH);
        let first = chunks.next().map(hex_spaced).unwrap_or_default();
        let label = format!("{}{}", "  ".repeat(r.depth.min(MAX_INDENT)), r.path);
        let line = format!(
            "{:04x}  {first:<bytes_width$}  {label:<path_width$}  {}",
            r.start, r.text
        );
        out.push_str(line.trim_end());
        out.push('\n');
        for (i, chunk) in chunks.enumerate() {
            let _ = writeln!(
                out,
                "{:04x}  {}",
                r.start + (i + 1) * DUMP_WIDTH,
                hex_spaced(chunk)
            );
        }
    }
    out
}

/// The path as shown: its last [`MAX_PATH`] characters.
fn shown(path: &str) -> String {
    let count = path.chars().count();
    if count <= MAX_PATH {
        return path.to_string();
    }
    let tail: String = path.chars().skip(count - (MAX_PATH - 1)).collect();
    format!("…{tail}")
}

fn rows(tree: &Tree<'_>) -> Vec<Row> {
    let ir = tree.ir;
    let mut out = Vec::new();
    // The path of the node being visited, and at each depth the length of
    // the path of the node around it.
    let mut path = String::new();
    let mut base: Vec<usize> = vec![0];
    let mut stack = vec![Step::Node(tree.root(), 0)];
    let mut row = |out: &mut Vec<Row>, start, end, depth, path: &str, text: String| {
        out.push(Row {
            start,
            end,
            depth,
            path: shown(path),
            text,
        })
    };
    while let Some(step) = stack.pop() {
        let (id, depth) = match step {
            Step::Node(id, depth) => (id, depth),
            Step::Tail(id, depth) => {
                path.truncate(base[depth + 1]);
                tail(tree, id, depth, &path, &mut out, &mut row);
                continue;
            }
        };
        path.truncate(base[depth]);
        path.push_str(&tree.seg(id));
        base.truncate(depth + 1);
        base.push(path.len());
        let n = tree.node(id);
        let children = |stack: &mut Vec<Step>| {
            let ids: Vec<NodeId> = tree.children(id).collect();
            stack.extend(ids.into_iter().rev().map(|c| Step::Node(c, depth + 1)));
        };
        if let Kind::Default { id: t, field } = n.kind {
            let f = &ir.ty(t).kind.fields()[field];
            let value = default_json(ir, &f.ty, f.default.as_ref());
            let text = format!("absent, default {value}");
            row(&mut out, n.start, n.start, depth, &path, text);
            continue;
        }
        if let Some(text) = scalar_text(tree, id) {
            row(&mut out, n.start, n.end, depth, &path, text);
            continue;
        }
        let count = tree.children(id).count();
        match n.kind {
            Kind::Optional(false) => row(&mut out, n.start, n.end, depth, &path, "absent".into()),
            Kind::Optional(true) => {
                let only = tree.children(id).next();
                match only.and_then(|c| scalar_text(tree, c)) {
                    Some(text) => row(&mut out, n.start, n.end, depth, &path, text),
                    None => {
                        row(&mut out, n.start, n.head, depth, &path, "present".into());
                        children(&mut stack);
                    }
                }
            }
            Kind::List | Kind::Array | Kind::Map | Kind::Struct(_) => {
                let text = match n.kind {
                    Kind::List => format!("list, {}", plural(count, "element", "elements")),
                    Kind::Array => format!("array, {}", plural(count, "element", "elements")),
                    Kind::Map => format!("map, {}", plural(count.div_ceil(2), "entry", "entries")),
                    Kind::Struct(t) => format!("struct {}", ir.ty(t).display_name),
                    _ => String::new(),
                };
                row(&mut out, n.start, n.head, depth, &path, text);
                children(&mut stack);
            }
            Kind::Message { id: t, .. } => {
                let body = n.end.saturating_sub(n.head);
                let text = format!("message {}, body {body} bytes", ir.ty(t).display_name);
                row(&mut out, n.start, n.head, depth, &path, text);
                stack.push(Step::Tail(id, depth));
                children(&mut stack);
            }
            Kind::Union {
                id: t,
                tag,
                variant,
                ..
            } => {
                let frame = n.end.saturating_sub(n.head);
                let text = format!("union {}, frame {frame} bytes", ir.ty(t).display_name);
                row(&mut out, n.start, n.head, depth, &path, text);
                let width = match &ir.ty(t).kind {
                    TypeKind::Union { tag, .. } => tag.size() as usize,
                    _ => 0,
                };
                let variant = match (&ir.ty(t).kind, variant) {
                    (TypeKind::Union { variants, .. }, Some(i)) => Some(&variants[i].name),
                    _ => None,
                };
                let tag_text = match variant {
                    Some(v) => format!("{tag} = {v}"),
                    None => format!("{tag} (unknown)"),
                };
                let tag_path = format!("{path}.tag");
                row(
                    &mut out,
                    n.head,
                    n.head + width,
                    depth + 1,
                    &tag_path,
                    tag_text,
                );
                stack.push(Step::Tail(id, depth));
                children(&mut stack);
            }
            _ => row(
                &mut out,
                n.start,
                n.start,
                depth,
                &path,
                "(incomplete)".into(),
            ),
        }
    }
    out
}

/// The rows after a message's fields (its unknown bytes) or a union's
/// variant (the body of an unknown tag).
fn tail(
    tree: &Tree<'_>,
    id: NodeId,
    depth: usize,
    path: &str,
    out: &mut Vec<Row>,
    row: &mut impl FnMut(&mut Vec<Row>, usize, usize, usize, &str, String),
) {
    let n = tree.node(id);
    match n.kind {
        Kind::Message { unknown, .. } if unknown.1 > 0 => {
            let text = format!("{} unknown bytes", unknown.1);
            let at = n.end - unknown.1;
            row(out, at, n.end, depth + 1, &format!("{path}.@unknown"), text);
        }
        Kind::Union {
            id: t,
            variant: None,
            unknown,
            ..
        } => {
            let width = match &tree.ir.ty(t).kind {
                TypeKind::Union { tag, .. } => tag.size() as usize,
                _ => 0,
            };
            let text = format!("{} bytes", unknown.1);
            let at = n.head + width;
            row(out, at, n.end, depth + 1, &format!("{path}.body"), text);
        }
        _ => {}
    }
}

/// The value of a scalar as one line of the dump.
fn scalar_text(tree: &Tree<'_>, id: NodeId) -> Option<String> {
    Some(match tree.node(id).kind {
        Kind::Bool(b) => b.to_string(),
        Kind::Uint(u) => u.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::F32(f) => f.to_string(),
        Kind::F64(f) => f.to_string(),
        Kind::Enum { id: t, value } => match enum_name(tree.ir, t, value) {
            Some(n) => format!("{n} ({value})"),
            None => format!("{value} (unknown)"),
        },
        Kind::Str { len, .. } => {
            let quoted = scalar_json(tree, id).unwrap_or_default();
            if quoted.chars().count() > 64 {
                let cut: String = quoted.chars().take(60).collect();
                format!("{cut}\"… ({len} bytes)")
            } else {
                quoted
            }
        }
        Kind::Bytes { len, .. } => format!("{len} bytes"),
        Kind::Zero(ty) => format!("{} (no bytes)", default_json(tree.ir, ty, None)),
        _ => return None,
    })
}

fn hex_spaced(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 3);
    for (i, x) in b.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// `1 element`, `2 elements`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
