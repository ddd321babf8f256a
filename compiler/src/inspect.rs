//! Decodes bytes of any schema type with the IR and the wire-format rules
//! alone (no generated code), for `pktc inspect`: the values as JSON, or an
//! annotated hex dump with one line per field.
//!
//! The decoder follows `docs/wire-format.md` and fails the way the runtime
//! does: the same error kinds, the same checks in the same order, the same
//! absolute byte offsets, the same default limits. Every length and count is
//! checked against the bytes that are left before anything is allocated, and
//! no input makes it panic.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

use serde_json::{Map, Value as Json};

use crate::ir::{Ir, Prim, Type, TypeDef, TypeId, TypeKind, Value};

/// Bounds on untrusted input: the runtime's own type, so the defaults are
/// the same by construction.
pub use pkt_runtime::Limits;

/// What went wrong; the kinds and texts of the runtime's `DecodeErrorKind`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    UnexpectedEnd {
        needed: usize,
        remaining: usize,
    },
    InvalidBool(u8),
    InvalidOptionFlag(u8),
    InvalidUtf8,
    LengthExceedsInput {
        len: usize,
        remaining: usize,
    },
    LimitExceeded {
        what: &'static str,
        value: usize,
        max: usize,
    },
    FieldTooLong {
        field: String,
        len: usize,
        max: usize,
    },
    DepthExceeded {
        max: u32,
    },
    TrailingBytes {
        count: usize,
    },
    VariantLength {
        tag: u16,
        expected: usize,
        consumed: usize,
    },
    DuplicateMapKey,
    BudgetExceeded {
        field: String,
        needed: usize,
        left: usize,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedEnd { needed, remaining } => write!(
                f,
                "unexpected end of input: needed {needed} bytes, {remaining} remaining"
            ),
            Self::InvalidBool(b) => write!(f, "invalid bool byte 0x{b:02x}"),
            Self::InvalidOptionFlag(b) => write!(f, "invalid optional flag byte 0x{b:02x}"),
            Self::InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            Self::LengthExceedsInput { len, remaining } => write!(
                f,
                "length prefix claims {len} bytes but only {remaining} remain"
            ),
            Self::LimitExceeded { what, value, max } => {
                write!(f, "{what} {value} exceeds the limit of {max}")
            }
            Self::FieldTooLong { field, len, max } => write!(
                f,
                "field `{field}` has length {len}, more than its maximum {max}"
            ),
            Self::DepthExceeded { max } => write!(f, "nesting deeper than {max} levels"),
            Self::TrailingBytes { count } => write!(f, "{count} trailing bytes after the value"),
            Self::VariantLength {
                tag,
                expected,
                consumed,
            } => write!(
                f,
                "union variant {tag} consumed {consumed} of its {expected} bytes"
            ),
            Self::DuplicateMapKey => f.write_str("duplicate map key"),
            Self::BudgetExceeded {
                field,
                needed,
                left,
            } if field.is_empty() => write!(
                f,
                "decoding needs {needed} more bytes of memory, only {left} left in the decode budget"
            ),
            Self::BudgetExceeded {
                field,
                needed,
                left,
            } => write!(
                f,
                "field `{field}` needs {needed} more bytes of memory, only {left} left in the decode budget"
            ),
        }
    }
}

/// A decoding failure: what, the absolute byte offset, and the path of the
/// value being decoded (`ServerPacket.Kick.detail`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub kind: ErrorKind,
    pub offset: usize,
    pub path: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)?;
        if !self.path.is_empty() {
            write!(f, " (in {})", self.path)?;
        }
        Ok(())
    }
}

/// One decoded value with where it was read.
#[derive(Clone, Debug)]
pub struct Node {
    /// This value's part of the path: the type name at the top, `.field`,
    /// `[index]`, `.Variant`, or nothing inside an optional.
    pub seg: String,
    pub start: usize,
    /// End of the bytes that belong to this value itself (prefixes, flags,
    /// scalars), before those of its children.
    pub head: usize,
    pub end: usize,
    pub kind: Kind,
    pub children: Vec<Node>,
    /// A message field the body did not reach: the value is its default.
    pub absent: bool,
}

#[derive(Clone, Debug)]
pub enum Kind {
    Bool(bool),
    Uint(u64),
    Int(i64),
    F32(f32),
    F64(f64),
    Enum {
        value: u64,
        name: Option<String>,
    },
    Str(String),
    Bytes(Vec<u8>),
    /// An optional: absent, or present with the value as the one child.
    Optional(bool),
    List,
    Array,
    /// Children alternate key and value.
    Map,
    Struct(String),
    Message {
        name: String,
        /// Bytes after the last known field, from a newer writer.
        unknown: Vec<u8>,
    },
    Union {
        name: String,
        tag: u16,
        tag_width: usize,
        /// The variant's name; `None` for a tag the schema does not know,
        /// whose body is then in `unknown`.
        variant: Option<String>,
        unknown: Vec<u8>,
    },
    /// A message field the body did not reach, as the JSON of its default
    /// (built once per field and shared, so that absent fields cost no more
    /// than a pointer however large their defaults are).
    Default(Rc<Json>),
    /// Decoding stopped inside this value.
    Incomplete,
}

impl Node {
    fn new(seg: impl Into<String>, at: usize) -> Node {
        Node {
            seg: seg.into(),
            start: at,
            head: at,
            end: at,
            kind: Kind::Incomplete,
            children: Vec::new(),
            absent: false,
        }
    }
}

/// Finds a declared type by qualified (`game.net.ServerPacket`) or, when
/// only one type has that name, bare name.
pub fn find_type(ir: &Ir, name: &str) -> Result<TypeId, String> {
    let qualified = |t: &TypeDef| {
        let ns = &ir.files[t.file].namespace;
        if ns.is_empty() {
            t.name.clone()
        } else {
            format!("{}.{}", ns.join("."), t.name)
        }
    };
    if let Some(i) = ir.types.iter().position(|t| qualified(t) == name) {
        return Ok(TypeId(i));
    }
    let bare: Vec<usize> = (0..ir.types.len())
        .filter(|&i| ir.types[i].name == name)
        .collect();
    match bare.as_slice() {
        [i] => Ok(TypeId(*i)),
        [] => Err(format!("no type named `{name}` in these schemas")),
        many => Err(format!(
            "`{name}` is ambiguous; name one of {}",
            many.iter()
                .map(|&i| format!("`{}`", qualified(&ir.types[i])))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Decodes exactly one value of `ty` from `input`. On failure the tree holds
/// what was decoded up to the error.
pub fn decode(ir: &Ir, ty: TypeId, input: &[u8], limits: Limits) -> (Node, Option<DecodeError>) {
    let mut d = Decoder::new(ir, input, input.len(), limits);
    let t = named(ir, ty);
    let mut root = Node::new(ir.ty(ty).name.clone(), 0);
    let mut pos = 0;
    d.path.push(root.seg.clone());
    let mut result = d.value(&t, &mut pos, input.len(), 0, &mut root);
    if result.is_ok() && pos < input.len() {
        result = Err(d.error(
            ErrorKind::TrailingBytes {
                count: input.len() - pos,
            },
            pos,
        ));
    }
    (root, result.err())
}

/// Decodes a stream of frames of the union `ty`, each `u32 length | tag |
/// variant`, until the input ends. Stops at the first bad frame; returns the
/// frames (the last one partial if decoding failed inside it) and how many
/// of them are complete.
pub fn decode_stream(
    ir: &Ir,
    ty: TypeId,
    input: &[u8],
    limits: Limits,
) -> (Vec<Node>, usize, Option<DecodeError>) {
    let mut frames = Vec::new();
    let mut pos = 0;
    while pos < input.len() {
        let n = frames.len();
        let rest = input.len() - pos;
        let mut d = Decoder::new(ir, input, rest.min(4), limits);
        let Some(prefix) = input.get(pos..pos + 4) else {
            let e = d.error(
                ErrorKind::UnexpectedEnd {
                    needed: 4,
                    remaining: rest,
                },
                pos,
            );
            return (frames, n, Some(e));
        };
        let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
        if len > limits.max_frame {
            let e = d.error(
                ErrorKind::LimitExceeded {
                    what: "frame length",
                    value: len,
                    max: limits.max_frame,
                },
                pos,
            );
            return (frames, n, Some(e));
        }
        if len > rest - 4 {
            let e = d.error(
                ErrorKind::UnexpectedEnd {
                    needed: len + 4,
                    remaining: rest,
                },
                pos,
            );
            return (frames, n, Some(e));
        }
        let end = pos + 4 + len;
        d.memory = limits.decode_budget(4 + len);
        let mut node = Node::new(ir.ty(ty).name.clone(), pos);
        d.path.push(format!("frame {}: {}", frames.len(), node.seg));
        let r = d.value(&named(ir, ty), &mut pos, end, 0, &mut node);
        frames.push(node);
        if let Err(e) = r {
            return (frames, n, Some(e));
        }
        if pos < end {
            let e = d.error(ErrorKind::TrailingBytes { count: end - pos }, pos);
            return (frames, n, Some(e));
        }
    }
    let n = frames.len();
    (frames, n, None)
}

fn named(ir: &Ir, ty: TypeId) -> Type {
    Type::Named(crate::ir::TypeRef {
        id: ty,
        name: ir.ty(ty).name.clone(),
    })
}

struct Decoder<'a> {
    ir: &'a Ir,
    buf: &'a [u8],
    limits: Limits,
    /// List and map elements left for this decode.
    budget: usize,
    /// Decode budget left (`Limits::decode_budget`), charged as the
    /// generated decoders charge it.
    memory: usize,
    /// The message fields being decoded (`Type.field`), innermost last, to
    /// name in `BudgetExceeded`.
    fields: Vec<String>,
    /// Path of the value being decoded, for errors.
    path: Vec<String>,
    /// The default of each absent message field, by type and field index.
    defaults: HashMap<(TypeId, usize), Rc<Json>>,
}

type Res = Result<(), DecodeError>;

impl<'a> Decoder<'a> {
    /// A decoder over `buf` whose value (or frame) is `len` bytes long.
    fn new(ir: &'a Ir, buf: &'a [u8], len: usize, limits: Limits) -> Self {
        Decoder {
            ir,
            buf,
            limits,
            budget: limits.max_total_elements,
            memory: limits.decode_budget(len),
            fields: Vec::new(),
            path: Vec::new(),
            defaults: HashMap::new(),
        }
    }

    /// Charges `needed` bytes of decoded memory at `at`.
    fn charge_memory(&mut self, needed: usize, at: usize) -> Res {
        if needed > self.memory {
            let kind = ErrorKind::BudgetExceeded {
                field: self.fields.last().cloned().unwrap_or_default(),
                needed,
                left: self.memory,
            };
            return Err(self.error(kind, at));
        }
        self.memory -= needed;
        Ok(())
    }

    fn model(&self, ty: &Type) -> usize {
        usize::try_from(self.ir.memory(ty).size).unwrap_or(usize::MAX)
    }

    fn error(&self, kind: ErrorKind, offset: usize) -> DecodeError {
        DecodeError {
            kind,
            offset,
            path: self.path.concat(),
        }
    }

    /// The next `n` bytes before `end`.
    fn take(&self, pos: &mut usize, end: usize, n: usize) -> Result<&'a [u8], DecodeError> {
        let remaining = end.saturating_sub(*pos);
        if n > remaining {
            return Err(self.error(
                ErrorKind::UnexpectedEnd {
                    needed: n,
                    remaining,
                },
                *pos,
            ));
        }
        let s = &self.buf[*pos..*pos + n];
        *pos += n;
        Ok(s)
    }

    fn u32(&self, pos: &mut usize, end: usize) -> Result<usize, DecodeError> {
        let b = self.take(pos, end, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    /// A `u32` byte length, checked against the input and the limit.
    fn len(
        &mut self,
        pos: &mut usize,
        end: usize,
        what: &'static str,
    ) -> Result<usize, DecodeError> {
        let at = *pos;
        let len = self.u32(pos, end)?;
        let remaining = end - *pos;
        if len > remaining {
            return Err(self.error(ErrorKind::LengthExceedsInput { len, remaining }, at));
        }
        if len > self.limits.max_len {
            let max = self.limits.max_len;
            let kind = ErrorKind::LimitExceeded {
                what,
                value: len,
                max,
            };
            return Err(self.error(kind, at));
        }
        self.charge_memory(len, at)?;
        Ok(len)
    }

    /// A `u32` element count, checked against the input (count times the
    /// smallest element), the limit and the element budget, then charged
    /// `memory` per element against the decode budget.
    fn count(
        &mut self,
        pos: &mut usize,
        end: usize,
        min: usize,
        memory: usize,
    ) -> Result<usize, DecodeError> {
        let at = *pos;
        let count = self.u32(pos, end)?;
        let remaining = end - *pos;
        let needed = count.saturating_mul(min);
        if needed > remaining {
            let kind = ErrorKind::LengthExceedsInput {
                len: needed,
                remaining,
            };
            return Err(self.error(kind, at));
        }
        if count > self.limits.max_len {
            let kind = ErrorKind::LimitExceeded {
                what: "count",
                value: count,
                max: self.limits.max_len,
            };
            return Err(self.error(kind, at));
        }
        let left = self.budget;
        if count > left {
            // The element check comes first, as in the runtime.
            self.take_elements(count, at)?;
        }
        self.charge_memory(count.saturating_mul(memory), at)?;
        self.take_elements(count, at)?;
        Ok(count)
    }

    fn take_elements(&mut self, count: usize, at: usize) -> Res {
        if count > self.budget {
            let max = self.limits.max_total_elements;
            let kind = ErrorKind::LimitExceeded {
                what: "total elements",
                value: (max - self.budget).saturating_add(count),
                max,
            };
            return Err(self.error(kind, at));
        }
        self.budget -= count;
        Ok(())
    }

    /// Memory charged per element of a list or map count.
    fn entry_memory(&self, ty: &Type) -> usize {
        match ty {
            Type::Map(k, v) => self
                .model(k)
                .saturating_add(self.model(v))
                .saturating_mul(2)
                .saturating_add(16),
            Type::List(e) => self.model(e),
            _ => 0,
        }
    }

    fn min_size(&self, ty: &Type) -> usize {
        self.ir.layout(ty).min_size() as usize
    }

    /// Decodes a child value of `node` and adds it, also when it fails.
    fn child(
        &mut self,
        node: &mut Node,
        seg: String,
        ty: &Type,
        pos: &mut usize,
        end: usize,
        depth: u32,
    ) -> Res {
        let mut c = Node::new(seg, *pos);
        self.path.push(c.seg.clone());
        let r = self.value(ty, pos, end, depth, &mut c);
        self.path.pop();
        node.children.push(c);
        r
    }

    /// Decodes one value of `ty` at `pos`, reading no further than `end`.
    /// `depth` counts the messages and unions around it.
    fn value(
        &mut self,
        ty: &Type,
        pos: &mut usize,
        end: usize,
        depth: u32,
        node: &mut Node,
    ) -> Res {
        node.start = *pos;
        let r = self.value_inner(ty, pos, end, depth, node);
        node.end = (*pos).max(node.head);
        if node.head < node.start {
            node.head = node.start;
        }
        r
    }

    fn value_inner(
        &mut self,
        ty: &Type,
        pos: &mut usize,
        end: usize,
        depth: u32,
        node: &mut Node,
    ) -> Res {
        match ty {
            Type::Prim(p) => {
                let at = *pos;
                let b = self.take(pos, end, p.size() as usize)?;
                node.kind = match prim(*p, b) {
                    Some(k) => k,
                    None => return Err(self.error(ErrorKind::InvalidBool(b[0]), at)),
                };
                node.head = *pos;
            }
            Type::String => {
                let len = self.len(pos, end, "string length")?;
                let at = *pos;
                let b = self.take(pos, end, len)?;
                match std::str::from_utf8(b) {
                    Ok(s) => node.kind = Kind::Str(s.to_string()),
                    Err(e) => return Err(self.error(ErrorKind::InvalidUtf8, at + e.valid_up_to())),
                }
                node.head = *pos;
            }
            Type::Bytes => {
                let len = self.len(pos, end, "bytes length")?;
                node.kind = Kind::Bytes(self.take(pos, end, len)?.to_vec());
                node.head = *pos;
            }
            Type::List(elem) => {
                let memory = self.entry_memory(ty);
                let count = self.count(pos, end, self.min_size(elem), memory)?;
                node.kind = Kind::List;
                node.head = *pos;
                node.children.reserve(count);
                for i in 0..count {
                    self.child(node, format!("[{i}]"), elem, pos, end, depth)?;
                }
            }
            Type::Map(k, v) => {
                let min = self.min_size(k).saturating_add(self.min_size(v));
                let memory = self.entry_memory(ty);
                let count = self.count(pos, end, min, memory)?;
                node.kind = Kind::Map;
                node.head = *pos;
                let mut seen: HashSet<&[u8]> = HashSet::new();
                for i in 0..count {
                    let at = *pos;
                    self.child(node, format!("[{i}].key"), k, pos, end, depth)?;
                    if !seen.insert(&self.buf[at..*pos]) {
                        return Err(self.error(ErrorKind::DuplicateMapKey, at));
                    }
                    self.child(node, format!("[{i}].value"), v, pos, end, depth)?;
                }
            }
            Type::Array(elem, n) => {
                let n = *n as usize;
                if self.min_size(elem) == 0 {
                    // Nothing on the wire bounds these: count them as elements.
                    self.take_elements(n, *pos)?;
                }
                node.kind = Kind::Array;
                for i in 0..n {
                    self.child(node, format!("[{i}]"), elem, pos, end, depth)?;
                }
            }
            Type::Optional(inner) => {
                let at = *pos;
                let flag = self.take(pos, end, 1)?[0];
                node.head = *pos;
                match flag {
                    0 => node.kind = Kind::Optional(false),
                    1 => {
                        node.kind = Kind::Optional(true);
                        self.child(node, String::new(), inner, pos, end, depth)?;
                    }
                    b => return Err(self.error(ErrorKind::InvalidOptionFlag(b), at)),
                }
            }
            Type::Named(r) => self.declared(r.id, pos, end, depth, node)?,
        }
        Ok(())
    }

    fn declared(
        &mut self,
        id: TypeId,
        pos: &mut usize,
        end: usize,
        depth: u32,
        node: &mut Node,
    ) -> Res {
        let ir = self.ir;
        let def = ir.ty(id);
        match &def.kind {
            TypeKind::Struct { fields } if !def.layout.is_fixed() => {
                // A variable-size struct: a message's fields without the
                // length prefix, the depth and the defaults.
                node.kind = Kind::Struct(def.name.clone());
                for f in fields {
                    self.fields.push(format!("{}.{}", def.name, f.name));
                    let mut read = || -> Res {
                        if let Some(max) = f.max {
                            self.peek_max(&def.name, &f.name, &f.ty, max as usize, *pos, end)?;
                        }
                        if f.cyclic {
                            let optional = matches!(f.ty, Type::Optional(_));
                            if !optional || self.buf.get(*pos) == Some(&1) {
                                self.charge_memory(self.boxed(&f.ty), *pos)?;
                            }
                        }
                        self.child(node, format!(".{}", f.name), &f.ty, pos, end, depth)
                    };
                    let r = read();
                    self.fields.pop();
                    r?;
                }
            }
            TypeKind::Struct { fields } => {
                node.kind = Kind::Struct(def.name.clone());
                for f in fields {
                    self.child(node, format!(".{}", f.name), &f.ty, pos, end, depth)?;
                }
            }
            TypeKind::Enum { base, values } => {
                let b = self.take(pos, end, base.size() as usize)?;
                let value = le_u64(b);
                let name = values
                    .iter()
                    .find(|v| v.value == value)
                    .map(|v| v.name.clone());
                node.kind = Kind::Enum { value, name };
                node.head = *pos;
            }
            TypeKind::Message { fields, .. } => {
                let at = *pos;
                let depth = self.enter(depth, at)?;
                let len = self.frame(pos, end)?;
                let body_end = *pos + len;
                node.head = *pos;
                node.kind = Kind::Message {
                    name: def.name.clone(),
                    unknown: Vec::new(),
                };
                for (i, f) in fields.iter().enumerate() {
                    self.fields.push(format!("{}.{}", def.name, f.name));
                    let r = self.field(node, id, i, pos, body_end, depth);
                    self.fields.pop();
                    r?;
                }
                if matches!(
                    def.kind,
                    TypeKind::Message {
                        preserve_unknown: true,
                        ..
                    }
                ) {
                    // Kept and re-encoded, so charged.
                    self.charge_memory(body_end - *pos, *pos)?;
                }
                if let Kind::Message { unknown, .. } = &mut node.kind {
                    unknown.extend_from_slice(&self.buf[*pos..body_end]);
                }
                *pos = body_end;
            }
            TypeKind::Union { tag, variants, .. } => {
                let at = *pos;
                let depth = self.enter(depth, at)?;
                let len = self.frame(pos, end)?;
                let frame_end = *pos + len;
                node.head = *pos;
                let width = tag.size() as usize;
                let tag_bytes = self.take(pos, frame_end, width)?;
                let tag = le_u64(tag_bytes) as u16;
                let variant = variants.iter().find(|v| v.tag == tag);
                node.kind = Kind::Union {
                    name: def.name.clone(),
                    tag,
                    tag_width: width,
                    variant: variant.map(|v| v.name.clone()),
                    unknown: Vec::new(),
                };
                match variant {
                    Some(v) => {
                        let body_start = *pos;
                        if v.cyclic {
                            self.charge_memory(self.boxed(&v.ty), body_start)?;
                        }
                        let seg = format!(".{}", v.name);
                        self.child(node, seg, &v.ty, pos, frame_end, depth)?;
                        if *pos != frame_end {
                            let kind = ErrorKind::VariantLength {
                                tag,
                                expected: frame_end - body_start,
                                consumed: *pos - body_start,
                            };
                            return Err(self.error(kind, *pos));
                        }
                    }
                    None => {
                        self.charge_memory(frame_end - *pos, *pos)?;
                        if let Kind::Union { unknown, .. } = &mut node.kind {
                            unknown.extend_from_slice(&self.buf[*pos..frame_end]);
                        }
                        *pos = frame_end;
                    }
                }
            }
        }
        Ok(())
    }

    /// Field `index` of message `id`: its default when the body has ended,
    /// else its value, with the charges the generated decoders make.
    fn field(
        &mut self,
        node: &mut Node,
        id: TypeId,
        index: usize,
        pos: &mut usize,
        body_end: usize,
        depth: u32,
    ) -> Res {
        let ir = self.ir;
        let def = ir.ty(id);
        let f = &def.kind.fields()[index];
        if *pos == body_end {
            if let Some(Value::String(s)) = &f.default {
                self.charge_memory(s.len(), *pos)?;
            }
            let json = self
                .defaults
                .entry((id, index))
                .or_insert_with(|| {
                    Rc::new(to_json(&default_node(ir, &f.ty, f.default.as_ref(), 0)))
                })
                .clone();
            let mut c = Node::new(format!(".{}", f.name), *pos);
            c.kind = Kind::Default(json);
            c.absent = true;
            node.children.push(c);
            return Ok(());
        }
        if let Some(max) = f.max {
            self.peek_max(&def.name, &f.name, &f.ty, max as usize, *pos, body_end)?;
        }
        if f.cyclic {
            let optional = matches!(f.ty, Type::Optional(_));
            if !optional || self.buf.get(*pos) == Some(&1) {
                self.charge_memory(self.boxed(&f.ty), *pos)?;
            }
        }
        self.child(node, format!(".{}", f.name), &f.ty, pos, body_end, depth)
    }

    /// The charge for a boxed field or variant of type `ty`.
    fn boxed(&self, ty: &Type) -> usize {
        usize::try_from(self.ir.boxed_memory(ty)).unwrap_or(usize::MAX)
    }

    fn enter(&self, depth: u32, at: usize) -> Result<u32, DecodeError> {
        if depth >= self.limits.max_depth {
            let kind = ErrorKind::DepthExceeded {
                max: self.limits.max_depth,
            };
            return Err(self.error(kind, at));
        }
        Ok(depth + 1)
    }

    /// A message body or union frame length, checked against the input.
    fn frame(&self, pos: &mut usize, end: usize) -> Result<usize, DecodeError> {
        let at = *pos;
        let len = self.u32(pos, end)?;
        let remaining = end - *pos;
        if len > remaining {
            return Err(self.error(ErrorKind::LengthExceedsInput { len, remaining }, at));
        }
        Ok(len)
    }

    /// `@max(N)`: checks the length or count prefix of the field about to be
    /// read before anything else, as the generated decoders do.
    fn peek_max(
        &self,
        ty: &str,
        field: &str,
        fty: &Type,
        max: usize,
        pos: usize,
        end: usize,
    ) -> Res {
        let mut at = pos;
        if matches!(fty, Type::Optional(_)) {
            if self.buf.get(at) != Some(&1) {
                return Ok(());
            }
            at += 1;
        }
        if at + 4 > end {
            return Ok(());
        }
        let b = &self.buf[at..at + 4];
        let len = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        if len > max {
            let kind = ErrorKind::FieldTooLong {
                field: format!("{ty}.{field}"),
                len,
                max,
            };
            return Err(self.error(kind, at));
        }
        Ok(())
    }
}

fn le_u64(b: &[u8]) -> u64 {
    b.iter()
        .rev()
        .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

/// A scalar from its bytes; `None` for a bool byte other than 0 or 1.
fn prim(p: Prim, b: &[u8]) -> Option<Kind> {
    let u = le_u64(b);
    Some(match p {
        Prim::Bool => match u {
            0 => Kind::Bool(false),
            1 => Kind::Bool(true),
            _ => return None,
        },
        Prim::U8 | Prim::U16 | Prim::U32 | Prim::U64 => Kind::Uint(u),
        Prim::I8 => Kind::Int(i64::from(u as u8 as i8)),
        Prim::I16 => Kind::Int(i64::from(u as u16 as i16)),
        Prim::I32 => Kind::Int(i64::from(u as u32 as i32)),
        Prim::I64 => Kind::Int(u as i64),
        Prim::F32 => Kind::F32(f32::from_bits(u as u32)),
        Prim::F64 => Kind::F64(f64::from_bits(u)),
    })
}

/// The value a decoder gives a field the body does not reach: the declared
/// default, else the zero value of the type.
fn default_node(ir: &Ir, ty: &Type, declared: Option<&Value>, depth: u32) -> Node {
    let mut n = Node::new("", 0);
    n.kind = match (declared, ty) {
        (Some(Value::Bool(b)), _) => Kind::Bool(*b),
        (Some(Value::Int(v)), Type::Prim(p))
            if !matches!(p, Prim::U64 | Prim::U32 | Prim::U16 | Prim::U8) =>
        {
            Kind::Int(*v as i64)
        }
        (Some(Value::Int(v)), _) => Kind::Uint(*v as u64),
        (Some(Value::Float(f)), Type::Prim(Prim::F32)) => Kind::F32(*f as f32),
        (Some(Value::Float(f)), _) => Kind::F64(*f),
        (Some(Value::String(s)), _) => Kind::Str(s.clone()),
        (Some(Value::Enum { name, value, .. }), _) => Kind::Enum {
            value: *value,
            name: Some(name.clone()),
        },
        (None, _) if depth > 64 => Kind::Incomplete,
        (None, Type::Prim(p)) => prim(*p, &[0; 8][..p.size() as usize]).unwrap_or(Kind::Uint(0)),
        (None, Type::String) => Kind::Str(String::new()),
        (None, Type::Bytes) => Kind::Bytes(Vec::new()),
        (None, Type::List(_)) => Kind::List,
        (None, Type::Map(..)) => Kind::Map,
        (None, Type::Optional(_)) => Kind::Optional(false),
        (None, Type::Array(elem, len)) => {
            // Bounded for display: an absent array of a million zeros says
            // nothing a few of them do not.
            for i in 0..(*len).min(4096) {
                let mut c = default_node(ir, elem, None, depth + 1);
                c.seg = format!("[{i}]");
                n.children.push(c);
            }
            Kind::Array
        }
        (None, Type::Named(r)) => {
            let def = ir.ty(r.id);
            match &def.kind {
                TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                    for f in fields {
                        let mut c = default_node(ir, &f.ty, f.default.as_ref(), depth + 1);
                        c.seg = format!(".{}", f.name);
                        n.children.push(c);
                    }
                    if matches!(def.kind, TypeKind::Struct { .. }) {
                        Kind::Struct(def.name.clone())
                    } else {
                        Kind::Message {
                            name: def.name.clone(),
                            unknown: Vec::new(),
                        }
                    }
                }
                TypeKind::Enum { values, .. } => Kind::Enum {
                    value: values.first().map_or(0, |v| v.value),
                    name: values.first().map(|v| v.name.clone()),
                },
                TypeKind::Union { tag, variants, .. } => match variants.first() {
                    Some(v) => {
                        let mut c = default_node(ir, &v.ty, None, depth + 1);
                        c.seg = format!(".{}", v.name);
                        n.children.push(c);
                        Kind::Union {
                            name: def.name.clone(),
                            tag: v.tag,
                            tag_width: tag.size() as usize,
                            variant: Some(v.name.clone()),
                            unknown: Vec::new(),
                        }
                    }
                    None => Kind::Incomplete,
                },
            }
        }
    };
    n
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn float_json(text: String, finite: bool) -> Json {
    if finite {
        if let Some(n) = text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
        {
            return Json::Number(n);
        }
    }
    Json::String(text)
}

/// The decoded values as JSON: messages and structs as objects (bytes past
/// the known fields under `"@unknown"`, in hex), unions as `{"Variant":
/// value}` or `{"unknown_tag": N, "body": "hex"}`, enums by name (unknown
/// values as numbers), `bytes` in hex, maps as objects, absent optionals as
/// `null`, non-finite floats as strings.
pub fn to_json(node: &Node) -> Json {
    match &node.kind {
        Kind::Bool(b) => Json::Bool(*b),
        Kind::Uint(u) => Json::from(*u),
        Kind::Int(i) => Json::from(*i),
        // Through the shortest text of the f32, so 1.1f32 shows as 1.1.
        Kind::F32(f) => float_json(f.to_string(), f.is_finite()),
        Kind::F64(f) => float_json(f.to_string(), f.is_finite()),
        Kind::Enum { value, name } => match name {
            Some(n) => Json::String(n.clone()),
            None => Json::from(*value),
        },
        Kind::Str(s) => Json::String(s.clone()),
        Kind::Bytes(b) => Json::String(hex(b)),
        Kind::Optional(_) => node.children.first().map_or(Json::Null, to_json),
        Kind::List | Kind::Array => Json::Array(node.children.iter().map(to_json).collect()),
        Kind::Map => {
            let mut m = Map::new();
            for pair in node.children.chunks(2) {
                let key = match to_json(&pair[0]) {
                    Json::String(s) => s,
                    other => other.to_string(),
                };
                m.insert(key, pair.get(1).map_or(Json::Null, to_json));
            }
            Json::Object(m)
        }
        Kind::Struct(_) | Kind::Message { .. } => {
            let mut m = Map::new();
            for c in &node.children {
                m.insert(c.seg.trim_start_matches('.').to_string(), to_json(c));
            }
            if let Kind::Message { unknown, .. } = &node.kind {
                if !unknown.is_empty() {
                    m.insert("@unknown".to_string(), Json::String(hex(unknown)));
                }
            }
            Json::Object(m)
        }
        Kind::Union {
            tag,
            variant,
            unknown,
            ..
        } => {
            let mut m = Map::new();
            match (variant, node.children.first()) {
                (Some(v), Some(c)) => {
                    m.insert(v.clone(), to_json(c));
                }
                _ => {
                    m.insert("unknown_tag".to_string(), Json::from(*tag));
                    m.insert("body".to_string(), Json::String(hex(unknown)));
                }
            }
            Json::Object(m)
        }
        Kind::Default(json) => (**json).clone(),
        Kind::Incomplete => Json::Null,
    }
}

/// The value of a scalar as one line of the dump.
fn scalar_text(node: &Node) -> Option<String> {
    Some(match &node.kind {
        Kind::Bool(b) => b.to_string(),
        Kind::Uint(u) => u.to_string(),
        Kind::Int(i) => i.to_string(),
        Kind::F32(f) => f.to_string(),
        Kind::F64(f) => f.to_string(),
        Kind::Enum { value, name } => match name {
            Some(n) => format!("{n} ({value})"),
            None => format!("{value} (unknown)"),
        },
        Kind::Str(s) => {
            let quoted = Json::String(s.clone()).to_string();
            if quoted.chars().count() > 64 {
                let cut: String = quoted.chars().take(60).collect();
                format!("{cut}\"… ({} bytes)", s.len())
            } else {
                quoted
            }
        }
        Kind::Bytes(b) => format!("{} bytes", b.len()),
        _ => return None,
    })
}

struct Row {
    start: usize,
    end: usize,
    depth: usize,
    path: String,
    text: String,
}

fn rows(node: &Node, depth: usize, prefix: &str, out: &mut Vec<Row>) {
    let path = format!("{prefix}{}", node.seg);
    let row =
        |out: &mut Vec<Row>, start: usize, end: usize, depth: usize, path: String, text: String| {
            out.push(Row {
                start,
                end,
                depth,
                path,
                text,
            })
        };
    if node.absent {
        let value = to_json(node).to_string();
        row(
            out,
            node.start,
            node.start,
            depth,
            path,
            format!("absent, default {value}"),
        );
        return;
    }
    if let Some(text) = scalar_text(node) {
        row(out, node.start, node.end, depth, path, text);
        return;
    }
    let n = node.children.len();
    match &node.kind {
        Kind::Optional(false) => row(out, node.start, node.end, depth, path, "absent".into()),
        Kind::Optional(true) => match node.children.first() {
            Some(c) if scalar_text(c).is_some() => {
                let text = scalar_text(c).unwrap_or_default();
                row(out, node.start, node.end, depth, path, text);
            }
            _ => {
                row(
                    out,
                    node.start,
                    node.head,
                    depth,
                    path.clone(),
                    "present".into(),
                );
                for c in &node.children {
                    rows(c, depth + 1, &path, out);
                }
            }
        },
        Kind::List | Kind::Array | Kind::Map | Kind::Struct(_) => {
            let text = match &node.kind {
                Kind::List => format!("list, {}", plural(n, "element", "elements")),
                Kind::Array => format!("array, {}", plural(n, "element", "elements")),
                Kind::Map => format!("map, {}", plural(n.div_ceil(2), "entry", "entries")),
                Kind::Struct(name) => format!("struct {name}"),
                _ => String::new(),
            };
            row(out, node.start, node.head, depth, path.clone(), text);
            for c in &node.children {
                rows(c, depth + 1, &path, out);
            }
        }
        Kind::Message { name, unknown } => {
            let body = node.end.saturating_sub(node.head);
            let text = format!("message {name}, body {body} bytes");
            row(out, node.start, node.head, depth, path.clone(), text);
            for c in &node.children {
                rows(c, depth + 1, &path, out);
            }
            if !unknown.is_empty() {
                let text = format!("{} unknown bytes", unknown.len());
                row(
                    out,
                    node.end - unknown.len(),
                    node.end,
                    depth + 1,
                    format!("{path}.@unknown"),
                    text,
                );
            }
        }
        Kind::Union {
            name,
            tag,
            tag_width,
            variant,
            unknown,
        } => {
            let frame = node.end.saturating_sub(node.head);
            let text = format!("union {name}, frame {frame} bytes");
            row(out, node.start, node.head, depth, path.clone(), text);
            let tag_end = node.head + tag_width;
            let tag_text = match variant {
                Some(v) => format!("{tag} = {v}"),
                None => format!("{tag} (unknown)"),
            };
            row(
                out,
                node.head,
                tag_end,
                depth + 1,
                format!("{path}.tag"),
                tag_text,
            );
            for c in &node.children {
                rows(c, depth + 1, &path, out);
            }
            if variant.is_none() {
                let text = format!("{} bytes", unknown.len());
                row(
                    out,
                    tag_end,
                    node.end,
                    depth + 1,
                    format!("{path}.body"),
                    text,
                );
            }
        }
        _ => row(
            out,
            node.start,
            node.start,
            depth,
            path,
            "(incomplete)".into(),
        ),
    }
}

/// Bytes per line of the dump.
const DUMP_WIDTH: usize = 12;

/// An annotated hex dump of `node`, decoded from `input`: one line per value
/// with its offset, its own bytes (prefixes, flags, scalars; long values
/// continue on further lines), its path indented by nesting, and what it
/// decoded to.
pub fn hex_dump(node: &Node, input: &[u8]) -> String {
    let mut list = Vec::new();
    rows(node, 0, "", &mut list);
    let path_width = list
        .iter()
        .map(|r| 2 * r.depth + r.path.chars().count())
        .max()
        .unwrap_or(0)
        .min(60);
    let bytes_width = DUMP_WIDTH * 3 - 1;
    let mut out = String::new();
    for r in &list {
        let bytes = input.get(r.start..r.end.min(input.len())).unwrap_or(&[]);
        let mut chunks = bytes.chunks(DUMP_WIDTH);
        let first = chunks.next().map(hex_spaced).unwrap_or_default();
        let label = format!("{}{}", "  ".repeat(r.depth), r.path);
        let line = format!(
            "{:04x}  {first:<bytes_width$}  {label:<path_width$}  {}",
            r.start, r.text
        );
        out.push_str(line.trim_end());
        out.push('\n');
        for (i, chunk) in chunks.enumerate() {
            let line = format!(
                "{:04x}  {}",
                r.start + (i + 1) * DUMP_WIDTH,
                hex_spaced(chunk)
            );
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn hex_spaced(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `1 element`, `2 elements`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Bytes from hex text: pairs of hex digits, with whitespace, `,`, `:` and
/// `0x` prefixes ignored.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let mut digits = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ':') {
        let word = word
            .strip_prefix("0x")
            .or_else(|| word.strip_prefix("0X"))
            .unwrap_or(word);
        for c in word.chars() {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => return Err(format!("`{c}` is not a hex digit")),
            }
        }
    }
    if digits.len() % 2 != 0 {
        return Err("odd number of hex digits".to_string());
    }
    Ok(digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect())
}

/// How `pktc inspect` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Hex,
}

/// `pktc inspect`: decodes `input` as the type named `type_name` (one value,
/// or with `stream` a sequence of union frames) and returns what to print,
/// and the error, if any, to report after it.
pub fn inspect(
    ir: &Ir,
    type_name: &str,
    input: &[u8],
    format: Format,
    stream: bool,
) -> Result<String, (String, String)> {
    let id = find_type(ir, type_name).map_err(|e| (String::new(), e))?;
    let limits = Limits::default();
    let (nodes, complete, error) = if stream {
        if !matches!(ir.ty(id).kind, TypeKind::Union { .. }) {
            let e = format!("--stream reads union frames; `{type_name}` is not a union");
            return Err((String::new(), e));
        }
        decode_stream(ir, id, input, limits)
    } else {
        let (node, error) = decode(ir, id, input, limits);
        (vec![node], usize::from(error.is_none()), error)
    };
    let mut out = String::new();
    match format {
        Format::Json if stream => {
            for n in &nodes[..complete] {
                out.push_str(&to_json(n).to_string());
                out.push('\n');
            }
        }
        Format::Json => {
            if error.is_none() {
                let json = serde_json::to_string_pretty(&to_json(&nodes[0]))
                    .unwrap_or_else(|e| e.to_string());
                out.push_str(&json);
                out.push('\n');
            }
        }
        Format::Hex => {
            for (i, n) in nodes.iter().enumerate() {
                if stream {
                    out.push_str(&format!("# frame {i}\n"));
                }
                out.push_str(&hex_dump(n, input));
            }
        }
    }
    match error {
        Some(e) => Err((out, format!("cannot decode: {e}"))),
        None => Ok(out),
    }
}

#[cfg(test)]
mod same_texts_as_the_runtime {
    use super::ErrorKind;
    use pkt_runtime::DecodeErrorKind as Rt;

    /// `pktc inspect` reports decode errors in the runtime's words; this pins
    /// every kind so that the two cannot drift apart.
    #[test]
    fn every_error_kind_reads_like_the_runtime() {
        let pairs: Vec<(ErrorKind, Rt)> = vec![
            (
                ErrorKind::UnexpectedEnd {
                    needed: 4,
                    remaining: 1,
                },
                Rt::UnexpectedEnd {
                    needed: 4,
                    remaining: 1,
                },
            ),
            (ErrorKind::InvalidBool(2), Rt::InvalidBool(2)),
            (ErrorKind::InvalidOptionFlag(7), Rt::InvalidOptionFlag(7)),
            (ErrorKind::InvalidUtf8, Rt::InvalidUtf8),
            (
                ErrorKind::LengthExceedsInput {
                    len: 9,
                    remaining: 3,
                },
                Rt::LengthExceedsInput {
                    len: 9,
                    remaining: 3,
                },
            ),
            (
                ErrorKind::LimitExceeded {
                    what: "count",
                    value: 5,
                    max: 4,
                },
                Rt::LimitExceeded {
                    what: "count",
                    value: 5,
                    max: 4,
                },
            ),
            (
                ErrorKind::FieldTooLong {
                    field: "Chat.text".into(),
                    len: 33,
                    max: 32,
                },
                Rt::FieldTooLong {
                    field: "Chat.text",
                    len: 33,
                    max: 32,
                },
            ),
            (
                ErrorKind::DepthExceeded { max: 64 },
                Rt::DepthExceeded { max: 64 },
            ),
            (
                ErrorKind::TrailingBytes { count: 2 },
                Rt::TrailingBytes { count: 2 },
            ),
            (
                ErrorKind::VariantLength {
                    tag: 3,
                    expected: 8,
                    consumed: 5,
                },
                Rt::VariantLength {
                    tag: 3,
                    expected: 8,
                    consumed: 5,
                },
            ),
            (ErrorKind::DuplicateMapKey, Rt::DuplicateMapKey),
        ];
        for (ours, theirs) in pairs {
            assert_eq!(ours.to_string(), theirs.to_string());
        }
    }
}
