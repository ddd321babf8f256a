//! Decoded values as JSON text: messages and structs as objects (bytes past
//! the known fields under `"@unknown"`, in hex), unions as `{"Variant":
//! value}` or `{"unknown_tag": N, "body": "hex"}`, enums by name (unknown
//! values as numbers), `bytes` in hex, maps as objects, absent optionals as
//! `null`, non-finite floats as strings.
//!
//! Written with an explicit stack, like the decoder, so a value nested as
//! deeply as its schema allows prints without recursion; absent fields and
//! values of types that take no bytes are rendered from the schema as they
//! are printed. Scalars and strings are formatted by `serde_json`, and the
//! layout is `serde_json`'s, with indentation capped at
//! [`MAX_INDENT`] levels so deep values stay linear in size.

use std::borrow::Cow;

use serde_json::Value as Json;

use super::decode::{Kind, NodeId, Tree};
use crate::ir::{DefaultValue, Ir, Prim, Type, TypeKind, Value};

/// Nesting levels past which pretty output stops indenting further.
pub const MAX_INDENT: usize = 64;

/// The value at the root of `tree` as compact JSON (one line).
pub fn to_json(tree: &Tree<'_>) -> String {
    render(tree, tree.root(), false)
}

/// The value at the root of `tree` as indented JSON.
pub fn to_json_pretty(tree: &Tree<'_>) -> String {
    render(tree, tree.root(), true)
}

/// The default of message field `field` of `id`, as compact JSON.
pub(super) fn default_json(ir: &Ir, ty: &Type, declared: Option<&Value>) -> String {
    let mut out = Out::new(false);
    run(&mut out, None, vec![Step::Default(ty, declared)], ir);
    out.s
}

fn render(tree: &Tree<'_>, node: NodeId, pretty: bool) -> String {
    let mut out = Out::new(pretty);
    run(&mut out, Some(tree), vec![Step::Node(node)], tree.ir);
    out.s
}

enum Step<'a> {
    Node(NodeId),
    /// The default of a field of type `ty` (declared, or the zero value).
    Default(&'a Type, Option<&'a Value>),
    /// `n` zero values of `ty`, as array elements.
    Repeat(&'a Type, u32),
    Key(Cow<'a, str>),
    Scalar(String),
    End(char),
}

fn run<'a>(out: &mut Out, tree: Option<&Tree<'a>>, mut stack: Vec<Step<'a>>, ir: &'a Ir) {
    while let Some(step) = stack.pop() {
        match step {
            Step::Node(id) => match tree {
                Some(tree) => node(out, tree, id, &mut stack),
                None => out.scalar("null"),
            },
            Step::Default(ty, declared) => default(out, ir, ty, declared, &mut stack),
            Step::Repeat(ty, n) => {
                if n > 0 {
                    stack.push(Step::Repeat(ty, n - 1));
                    stack.push(Step::Default(ty, None));
                }
            }
            Step::Key(k) => out.key(&k),
            Step::Scalar(s) => out.scalar(&s),
            Step::End(c) => out.end(c),
        }
    }
}

/// Writes a decoded node, or opens it and schedules its children.
fn node<'a>(out: &mut Out, tree: &Tree<'a>, id: NodeId, stack: &mut Vec<Step<'a>>) {
    let ir = tree.ir;
    let n = tree.node(id);
    match n.kind {
        Kind::Optional(true) => match tree.children(id).next() {
            Some(c) => stack.push(Step::Node(c)),
            None => out.scalar("null"),
        },
        Kind::List | Kind::Array => {
            out.begin('[');
            stack.push(Step::End(']'));
            let children: Vec<NodeId> = tree.children(id).collect();
            stack.extend(children.into_iter().rev().map(Step::Node));
        }
        Kind::Map => {
            out.begin('{');
            stack.push(Step::End('}'));
            let children: Vec<NodeId> = tree.children(id).collect();
            for pair in children.chunks(2).rev() {
                match pair.get(1) {
                    Some(&v) => stack.push(Step::Node(v)),
                    None => stack.push(Step::Scalar("null".into())),
                }
                stack.push(Step::Key(Cow::Owned(key_text(tree, pair[0]))));
            }
        }
        Kind::Struct(_) | Kind::Message { .. } => {
            out.begin('{');
            stack.push(Step::End('}'));
            if let Kind::Message { unknown, .. } = n.kind {
                if unknown.1 > 0 {
                    stack.push(Step::Scalar(quoted(&hex(tree.bytes(unknown)))));
                    stack.push(Step::Key(Cow::Borrowed("@unknown")));
                }
            }
            let children: Vec<NodeId> = tree.children(id).collect();
            for &c in children.iter().rev() {
                stack.push(Step::Node(c));
                stack.push(Step::Key(tree.name(c)));
            }
        }
        Kind::Union {
            tag,
            variant,
            unknown,
            ..
        } => {
            out.begin('{');
            stack.push(Step::End('}'));
            match (variant, tree.children(id).next()) {
                (Some(_), Some(c)) => {
                    stack.push(Step::Node(c));
                    stack.push(Step::Key(tree.name(c)));
                }
                _ => {
                    stack.push(Step::Scalar(quoted(&hex(tree.bytes(unknown)))));
                    stack.push(Step::Key(Cow::Borrowed("body")));
                    stack.push(Step::Scalar(tag.to_string()));
                    stack.push(Step::Key(Cow::Borrowed("unknown_tag")));
                }
            }
        }
        Kind::Default { id, field } => {
            let f = &ir.ty(id).kind.fields()[field];
            stack.push(Step::Default(&f.ty, f.default.as_ref()));
        }
        Kind::Zero(ty) => stack.push(Step::Default(ty, None)),
        Kind::Fixed(_) => {
            // Its parts hold no variable-size value, so this goes one level
            // deep.
            let parts = tree.expand(id);
            run(out, Some(&parts), vec![Step::Node(parts.root())], ir);
        }
        _ => out.scalar(&scalar_json(tree, id).unwrap_or_else(|| "null".into())),
    }
}

/// The JSON text of a scalar node; `None` for a value with parts.
pub(super) fn scalar_json(tree: &Tree<'_>, id: NodeId) -> Option<String> {
    let ir = tree.ir;
    Some(match tree.node(id).kind {
        Kind::Bool(b) => b.to_string(),
        Kind::Uint(u) => u.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::F32(f) => f32_json(f),
        Kind::F64(f) => f64_json(f),
        Kind::Enum { id, value } => match enum_name(ir, id, value) {
            Some(name) => quoted(name),
            None => value.to_string(),
        },
        Kind::Str { at, len } => quoted(&tree.str(at, len)),
        Kind::Bytes { at, len } => quoted(&hex(tree.bytes((at, len)))),
        Kind::Optional(false) | Kind::Incomplete => "null".into(),
        _ => return None,
    })
}

/// A map key as an object key: strings and enum names as they are, other
/// scalars as their JSON text.
fn key_text(tree: &Tree<'_>, id: NodeId) -> String {
    match tree.node(id).kind {
        Kind::Str { at, len } => tree.str(at, len).into_owned(),
        Kind::Enum { id: t, value } => match enum_name(tree.ir, t, value) {
            Some(name) => name.to_string(),
            None => value.to_string(),
        },
        _ => scalar_json(tree, id).unwrap_or_else(|| "null".into()),
    }
}

pub(super) fn enum_name(ir: &Ir, id: crate::ir::TypeId, value: u64) -> Option<&str> {
    match &ir.ty(id).kind {
        TypeKind::Enum { values, .. } => values
            .iter()
            .find(|v| v.value == value)
            .map(|v| v.name.as_str()),
        _ => None,
    }
}

/// Writes a default value: the declared one, else the zero value of `ty`
/// ([`Ir::default_value`]).
fn default<'a>(
    out: &mut Out,
    ir: &'a Ir,
    ty: &'a Type,
    declared: Option<&'a Value>,
    stack: &mut Vec<Step<'a>>,
) {
    match ir.default_value(ty, declared) {
        DefaultValue::Declared(v) => {
            let text = match (v, ty) {
                (Value::Bool(b), _) => b.to_string(),
                (Value::Int(v), Type::Prim(p))
                    if !matches!(p, Prim::U64 | Prim::U32 | Prim::U16 | Prim::U8) =>
                {
                    (*v as i64).to_string()
                }
                (Value::Int(v), _) => (*v as u64).to_string(),
                (Value::Float(f), Type::Prim(Prim::F32)) => f32_json(*f as f32),
                (Value::Float(f), _) => f64_json(*f),
                (Value::String(s), _) => quoted(s),
                (Value::Enum { name, .. }, _) => quoted(name),
            };
            out.scalar(&text);
        }
        DefaultValue::Scalar(Prim::Bool) => out.scalar("false"),
        DefaultValue::Scalar(Prim::F32 | Prim::F64) => out.scalar("0.0"),
        DefaultValue::Scalar(_) => out.scalar("0"),
        DefaultValue::Empty => match ty {
            Type::List(_) => {
                out.begin('[');
                out.end(']');
            }
            Type::Map(..) => {
                out.begin('{');
                out.end('}');
            }
            // A string, and bytes in hex.
            _ => out.scalar("\"\""),
        },
        DefaultValue::Absent => out.scalar("null"),
        DefaultValue::Array { elem, len } => {
            out.begin('[');
            stack.push(Step::End(']'));
            stack.push(Step::Repeat(elem, len));
        }
        DefaultValue::Fields(fields) => {
            out.begin('{');
            stack.push(Step::End('}'));
            for f in fields.iter().rev() {
                stack.push(Step::Default(&f.ty, f.default.as_ref()));
                stack.push(Step::Key(Cow::Borrowed(&f.name)));
            }
        }
        DefaultValue::EnumValue { value, .. } => out.scalar(&quoted(&value.name)),
        DefaultValue::Variant { variant, .. } => {
            out.begin('{');
            stack.push(Step::End('}'));
            stack.push(Step::Default(&variant.ty, None));
            stack.push(Step::Key(Cow::Borrowed(&variant.name)));
        }
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

pub(super) fn quoted(s: &str) -> String {
    Json::String(s.to_string()).to_string()
}

/// Through the shortest text of the `f32`, so 1.1f32 shows as 1.1.
pub(super) fn f32_json(f: f32) -> String {
    float_json(f.to_string(), f.is_finite())
}

pub(super) fn f64_json(f: f64) -> String {
    float_json(f.to_string(), f.is_finite())
}

fn float_json(text: String, finite: bool) -> String {
    if finite {
        if let Some(n) = text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
        {
            return n.to_string();
        }
    }
    quoted(&text)
}

/// JSON text under construction: `serde_json`'s compact or pretty layout.
struct Out {
    s: String,
    pretty: bool,
    /// Whether each open array or object has an item yet, innermost last.
    open: Vec<bool>,
    /// A key was written; its value comes next, on the same line.
    after_key: bool,
}

impl Out {
    fn new(pretty: bool) -> Self {
        Out {
            s: String::new(),
            pretty,
            open: Vec::new(),
            after_key: false,
        }
    }

    fn newline(&mut self, depth: usize) {
        self.s.push('\n');
        for _ in 0..depth.min(MAX_INDENT) {
            self.s.push_str("  ");
        }
    }

    /// Separates the next item of the open container from the previous.
    fn item(&mut self) {
        if std::mem::take(&mut self.after_key) {
            return;
        }
        let depth = self.open.len();
        if let Some(has) = self.open.last_mut() {
            let first = !*has;
            *has = true;
            if !first {
                self.s.push(',');
            }
            if self.pretty {
                self.newline(depth);
            }
        }
    }

    fn scalar(&mut self, text: &str) {
        self.item();
        self.s.push_str(text);
    }

    fn begin(&mut self, c: char) {
        self.item();
        self.s.push(c);
        self.open.push(false);
    }

    fn key(&mut self, k: &str) {
        self.item();
        self.s.push_str(&quoted(k));
        self.s.push_str(if self.pretty { ": " } else { ":" });
        self.after_key = true;
    }

    fn end(&mut self, c: char) {
        let had = self.open.pop().unwrap_or(false);
        if had && self.pretty {
            self.newline(self.open.len());
        }
        self.s.push(c);
    }
}
