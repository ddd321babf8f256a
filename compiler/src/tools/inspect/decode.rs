//! Decodes bytes of any schema type into a [`Tree`] of annotated values,
//! with the runtime's own [`Reader`]: the same checks in the same order, the
//! same limits and decode budget, the same error kinds and absolute offsets
//! as the generated decoders.
//!
//! The walk keeps an explicit stack of tasks instead of recursing, and the
//! tree is one flat vector, so neither decoding, printing nor dropping a
//! value uses stack in proportion to how deeply its types nest (a chain of
//! 100,000 nested struct declarations is one deep value). Values of
//! messages and unions stay within `Limits::max_depth`, as in the runtime.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use pkt_runtime::{DecodeBudget, DecodeErrorKind, Limits, Reader};

use crate::ir::{Elem, Field, Ir, Layout, Prim, Quantize, Type, TypeId, TypeKind};
use crate::wire;

/// A decoding failure: what, the absolute byte offset, and the path of the
/// value being decoded (`ServerPacket.Kick.detail`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub kind: DecodeErrorKind,
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

/// Index of a node in its [`Tree`].
pub type NodeId = usize;

const NONE: NodeId = usize::MAX;

/// A node's part of the path of its value.
#[derive(Clone, Copy, Debug)]
pub enum Seg {
    /// The value decoded, named by its type.
    Root(TypeId),
    /// Frame `n` of a stream of union frames, named by its type (errors
    /// name the frame too).
    Frame(usize, TypeId),
    /// `.field`: field `n` of the struct or message.
    Field(TypeId, usize),
    /// `[n]`: an element of a list or array.
    Index(usize),
    /// `[n].key` and `[n].value`: an entry of a map.
    Key(usize),
    Value(usize),
    /// `.Variant`: variant `n` of the union.
    Variant(TypeId, usize),
    /// The value of a present optional (adds nothing to the path).
    Inner,
}

/// What a node decoded to.
#[derive(Clone, Copy, Debug)]
pub enum Kind<'a> {
    Bool(bool),
    Uint(u64),
    Int(i64),
    F32(f32),
    F64(f64),
    Enum {
        id: TypeId,
        value: u64,
    },
    /// A string, validated UTF-8, at `at..at + len` of the input.
    Str {
        at: usize,
        len: usize,
    },
    Bytes {
        at: usize,
        len: usize,
    },
    /// An optional: absent, or present with the value as the one child.
    Optional(bool),
    List,
    Array,
    /// Children alternate key and value.
    Map,
    Struct(TypeId),
    Message {
        id: TypeId,
        /// Bytes after the last known field, from a newer writer (the range
        /// of the input).
        unknown: (usize, usize),
    },
    Union {
        id: TypeId,
        tag: u16,
        /// The variant's index; `None` for a tag the schema does not know,
        /// whose body is then `unknown`.
        variant: Option<usize>,
        unknown: (usize, usize),
    },
    /// Field `field` of message `id`, which the body did not reach: its
    /// value is its default, rendered from the schema when printed, so an
    /// absent field costs one node however large its default is.
    Default {
        id: TypeId,
        field: usize,
    },
    /// A value of a type that takes no bytes: its zero value, rendered from
    /// the schema.
    Zero(&'a Type),
    /// A fixed-size struct or array, validated: one node for all its
    /// scalars, read again from the input when printed ([`Tree::expand`]),
    /// so that a value costs the same few nodes however deeply its structs
    /// and arrays nest.
    Fixed(&'a Type),
    /// Decoding stopped inside this value.
    Incomplete,
}

/// One decoded value with where it was read.
#[derive(Clone, Debug)]
pub struct Node<'a> {
    pub seg: Seg,
    pub parent: NodeId,
    first_child: NodeId,
    last_child: NodeId,
    next_sibling: NodeId,
    pub start: usize,
    /// End of the bytes that belong to this value itself (prefixes, flags,
    /// scalars), before those of its children.
    pub head: usize,
    pub end: usize,
    pub kind: Kind<'a>,
}

/// Decoded values, in the order they were read: node 0 is the root, each
/// node's children follow it.
#[derive(Clone, Debug)]
pub struct Tree<'a> {
    pub(super) ir: &'a Ir,
    pub(super) input: &'a [u8],
    nodes: Vec<Node<'a>>,
}

impl<'a> Tree<'a> {
    pub(super) fn new(ir: &'a Ir, input: &'a [u8]) -> Self {
        Tree {
            ir,
            input,
            nodes: Vec::new(),
        }
    }

    /// The root value.
    pub fn root(&self) -> NodeId {
        0
    }

    pub fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id]
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut next = self.nodes[id].first_child;
        std::iter::from_fn(move || {
            let id = next;
            (id != NONE).then(|| {
                next = self.nodes[id].next_sibling;
                id
            })
        })
    }

    /// The bytes of the input at `range`.
    pub fn bytes(&self, (at, len): (usize, usize)) -> &'a [u8] {
        &self.input[at..at + len]
    }

    /// The text of a [`Kind::Str`] (validated when it was decoded).
    pub fn str(&self, at: usize, len: usize) -> Cow<'a, str> {
        String::from_utf8_lossy(&self.input[at..at + len])
    }

    /// This node's part of its path: the type name at the top, `.field`,
    /// `[index]`, `.Variant`, or nothing inside an optional.
    pub fn seg(&self, id: NodeId) -> Cow<'a, str> {
        let ir = self.ir;
        match self.nodes[id].seg {
            Seg::Root(t) | Seg::Frame(_, t) => Cow::Borrowed(&ir.ty(t).display_name),
            Seg::Field(t, i) => Cow::Owned(format!(".{}", ir.ty(t).kind.fields()[i].name)),
            Seg::Index(i) => Cow::Owned(format!("[{i}]")),
            Seg::Key(i) => Cow::Owned(format!("[{i}].key")),
            Seg::Value(i) => Cow::Owned(format!("[{i}].value")),
            Seg::Variant(t, i) => match &ir.ty(t).kind {
                TypeKind::Union { variants, .. } => Cow::Owned(format!(".{}", variants[i].name)),
                _ => Cow::Borrowed(""),
            },
            Seg::Inner => Cow::Borrowed(""),
        }
    }

    /// The name of a field or variant node (`seg` without its dot).
    pub fn name(&self, id: NodeId) -> Cow<'a, str> {
        match self.seg(id) {
            Cow::Borrowed(s) => Cow::Borrowed(s.trim_start_matches('.')),
            Cow::Owned(s) => Cow::Owned(s.trim_start_matches('.').to_string()),
        }
    }

    /// The path from the root to `id`, as errors name it (in a stream,
    /// after `frame N: `).
    pub fn path(&self, id: NodeId) -> String {
        let mut ids = Vec::new();
        let mut at = id;
        while at != NONE {
            ids.push(at);
            at = self.nodes[at].parent;
        }
        let mut path = match self.nodes.first().map(|n| n.seg) {
            Some(Seg::Frame(n, _)) => format!("frame {n}: "),
            _ => String::new(),
        };
        path.extend(ids.iter().rev().map(|&i| self.seg(i)));
        path
    }

    fn push(&mut self, parent: NodeId, seg: Seg, at: usize) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node {
            seg,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            start: at,
            head: at,
            end: at,
            kind: Kind::Incomplete,
        });
        if parent != NONE {
            let p = &mut self.nodes[parent];
            let last = p.last_child;
            p.last_child = id;
            if last == NONE {
                p.first_child = id;
            } else {
                self.nodes[last].next_sibling = id;
            }
        }
        id
    }

    /// Ends `id` and every value around it at `pos`: decoding stopped there.
    fn close_open(&mut self, mut id: NodeId, pos: usize) {
        while id != NONE {
            let n = &mut self.nodes[id];
            n.end = n.end.max(pos).max(n.head);
            id = n.parent;
        }
    }
}

impl<'a> Tree<'a> {
    /// The scalars of a [`Kind::Fixed`] node, as a tree of their own whose
    /// root stands for the node (with its place in the path), to print it.
    pub fn expand(&self, id: NodeId) -> Tree<'a> {
        let n = &self.nodes[id];
        let Kind::Fixed(ty) = n.kind else {
            panic!("expand: node {id} is not a fixed-size value");
        };
        let limits = Limits::default();
        let budget = DecodeBudget::new(&limits, self.input.len());
        let mut tree = Tree::new(self.ir, self.input);
        let mut reader = Reader::with_budget(&self.input[..n.end], limits, &budget);
        let _ = reader.read_slice(n.start);
        let mut d = Decoder::new(self.ir, &mut tree, self.input, reader);
        d.expand = true;
        // A fixed-size value holds nothing a limit bounds.
        d.tasks.push(Task::Value {
            ty,
            parent: NONE,
            seg: n.seg,
            max: None,
        });
        if let Err(e) = d.run_tasks() {
            unreachable!("a fixed-size value validated when decoded: {e}");
        }
        tree
    }
}

/// Decodes exactly one value of `ty` from `input`. On failure the tree holds
/// what was decoded up to the error.
pub fn decode<'a>(
    ir: &'a Ir,
    ty: TypeId,
    input: &'a [u8],
    limits: Limits,
) -> (Tree<'a>, Option<DecodeError>) {
    let budget = DecodeBudget::new(&limits, input.len());
    let mut tree = Tree::new(ir, input);
    let reader = Reader::with_budget(input, limits, &budget);
    let mut d = Decoder::new(ir, &mut tree, input, reader);
    let mut error = d.run(ty, Seg::Root(ty)).err();
    if error.is_none() {
        if let Err(e) = d.reader().expect_end() {
            error = Some(d.fail(e, 0));
        }
    }
    (tree, error)
}

/// Decodes a stream of frames of the union `ty`, each `u32 length | tag |
/// variant`, until the input ends, with the limits and budgets of one decode
/// call per frame (as `FrameDecoder` applies them). Stops at the first bad
/// frame; returns the frames (the last one partial if decoding failed inside
/// it), each a tree of its own, and how many of them are complete.
pub fn decode_stream<'a>(
    ir: &'a Ir,
    ty: TypeId,
    input: &'a [u8],
    limits: Limits,
) -> (Vec<Tree<'a>>, usize, Option<DecodeError>) {
    const PREFIX: usize = wire::FRAME_PREFIX as usize;
    let mut frames = Vec::new();
    let mut pos = 0;
    let frame_error = |kind, offset| DecodeError {
        kind,
        offset,
        path: String::new(),
    };
    while pos < input.len() {
        let n = frames.len();
        let rest = input.len() - pos;
        let Some(prefix) = input.get(pos..pos + PREFIX) else {
            let kind = DecodeErrorKind::UnexpectedEnd {
                needed: PREFIX,
                remaining: rest,
            };
            return (frames, n, Some(frame_error(kind, pos)));
        };
        let len = u32::from_le_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
        if len > limits.max_frame {
            let kind = DecodeErrorKind::LimitExceeded {
                what: "frame length",
                value: len,
                max: limits.max_frame,
            };
            return (frames, n, Some(frame_error(kind, pos)));
        }
        if len > rest - PREFIX {
            let kind = DecodeErrorKind::UnexpectedEnd {
                needed: len + PREFIX,
                remaining: rest,
            };
            return (frames, n, Some(frame_error(kind, pos)));
        }
        let end = pos + PREFIX + len;
        let budget = DecodeBudget::new(&limits, PREFIX + len);
        let mut tree = Tree::new(ir, input);
        let mut reader = Reader::with_budget(&input[..end], limits, &budget);
        let mut d = Decoder::new(ir, &mut tree, input, {
            // Start at the frame: offsets stay absolute.
            let _ = reader.read_slice(pos);
            reader
        });
        let mut error = d.run(ty, Seg::Frame(n, ty)).err();
        if error.is_none() {
            if let Err(e) = d.reader().expect_end() {
                error = Some(d.fail(e, 0));
            }
        }
        frames.push(tree);
        if error.is_some() {
            return (frames, n, error);
        }
        pos = end;
    }
    let n = frames.len();
    (frames, n, None)
}

/// What is left to do, innermost last.
enum Task<'i> {
    /// Decode a value of the declared type `id` as the root.
    Root { id: TypeId, seg: Seg },
    /// Decode a value of `ty` as a new child of `parent`; `max`: the
    /// `@max` on it as an element, key or value, checked first.
    Value {
        ty: &'i Type,
        parent: NodeId,
        seg: Seg,
        max: Option<u32>,
    },
    /// A quantized float field (`@quantize`): its stored integer.
    Quantized {
        q: &'i Quantize,
        is_f32: bool,
        parent: NodeId,
        seg: Seg,
    },
    /// Element `i` of `n` of a list, array, map or struct.
    Next {
        node: NodeId,
        items: Items<'i>,
        i: usize,
        n: usize,
    },
    /// Field `i` of a message or variable-size struct.
    Field { node: NodeId, id: TypeId, i: usize },
    /// A message field's value is decoded.
    FieldDone,
    /// A map key that started at `at` is decoded: reject a repeat.
    MapKey { node: NodeId, at: usize },
    /// A map's entries are decoded.
    MapDone,
    /// A list, array, map, struct or present optional is decoded.
    Close(NodeId),
    /// A message's known fields are decoded.
    MessageEnd { node: NodeId, preserve: bool },
    /// A union's variant is decoded.
    UnionEnd { node: NodeId, tag: u16 },
}

#[derive(Clone, Copy)]
enum Items<'i> {
    Elements(&'i Elem),
    Entries(&'i Elem, &'i Elem),
    Fields(TypeId),
}

pub(super) struct Decoder<'i, 't, 'b> {
    ir: &'i Ir,
    tree: &'t mut Tree<'i>,
    input: &'b [u8],
    /// The reader of the value, then one per message body or union frame
    /// being decoded.
    readers: Vec<Reader<'b>>,
    tasks: Vec<Task<'i>>,
    /// The message fields being decoded, innermost last, to name in
    /// `BudgetExceeded`.
    fields: Vec<(TypeId, usize)>,
    /// The keys seen in each map being decoded, innermost last.
    keys: Vec<HashSet<&'b [u8]>>,
    /// Fixed-size structs and arrays get a node for every part
    /// ([`Tree::expand`]) instead of one [`Kind::Fixed`] node.
    expand: bool,
    /// Where in a fixed-size value decoding failed (`.pos[2]`), after the
    /// path of its node.
    fixed_path: String,
}

/// A failure and the node being decoded when it happened.
type Fail = (pkt_runtime::DecodeError, NodeId);

impl<'i, 't, 'b> Decoder<'i, 't, 'b> {
    pub(super) fn new(
        ir: &'i Ir,
        tree: &'t mut Tree<'i>,
        input: &'b [u8],
        reader: Reader<'b>,
    ) -> Self {
        Decoder {
            ir,
            tree,
            input,
            readers: vec![reader],
            tasks: Vec::new(),
            fields: Vec::new(),
            keys: Vec::new(),
            expand: false,
            fixed_path: String::new(),
        }
    }

    pub(super) fn reader(&mut self) -> &mut Reader<'b> {
        self.readers.last_mut().expect("a reader")
    }

    fn pos(&self) -> usize {
        self.readers.last().map_or(0, Reader::position)
    }

    /// The error for `e`, raised while decoding `node`: the path, and the
    /// innermost field named in a `BudgetExceeded` that names none.
    fn fail(&mut self, e: pkt_runtime::DecodeError, node: NodeId) -> DecodeError {
        let e = match self.fields.last() {
            Some(&(id, i)) => e.in_field(self.field_name(id, i)),
            None => e,
        };
        self.tree.close_open(node, self.pos());
        DecodeError {
            kind: e.kind().clone(),
            offset: e.offset(),
            path: self.tree.path(node) + &self.fixed_path,
        }
    }

    /// As the generated code's errors name a field (`game.net.Chat.text`).
    fn field_name(&self, id: TypeId, i: usize) -> String {
        self.ir.ty(id).kind.fields()[i].path.clone()
    }

    /// The tree of the values decoded so far.
    pub(super) fn tree(&self) -> &Tree<'i> {
        self.tree
    }

    /// Reads through `body` (a message body) until [`pop_body`](Self::pop_body).
    pub(super) fn push_body(&mut self, body: Reader<'b>) {
        self.readers.push(body);
    }

    /// Ends the body [`push_body`](Self::push_body) started: its reader is
    /// gone, and the reader around it is past it.
    pub(super) fn pop_body(&mut self) {
        let body = self.readers.pop().expect("a message body");
        self.reader().finish(body);
    }

    /// Errors inside field `i` of `id` name it, if nothing inside does.
    pub(super) fn push_field(&mut self, id: TypeId, i: usize) {
        self.fields.push((id, i));
    }

    pub(super) fn pop_field(&mut self) {
        self.fields.pop();
    }

    /// The error for `e`, raised outside any value being decoded, with no
    /// path: named after the innermost field, as [`fail`](Self::fail) does.
    pub(super) fn error(&mut self, e: pkt_runtime::DecodeError) -> DecodeError {
        self.fail(e, NONE)
    }

    /// Decodes field `i` of the struct or message `id` as its own value,
    /// with the checks a field's read makes (its `@max` on the prefix, the
    /// charge of a boxed field) but no default (a delta's field is there);
    /// returns its node, the root of a tree of its own whose path is
    /// `.field`.
    pub(super) fn whole_field(&mut self, id: TypeId, i: usize) -> Result<NodeId, DecodeError> {
        let f = &self.ir.ty(id).kind.fields()[i];
        let optional = matches!(f.ty, Type::Optional(_));
        self.fields.push((id, i));
        if let Some(max) = f.max {
            if let Err(e) = self.reader().peek_max("", max as usize, optional) {
                return Err(self.fail(e, NONE));
            }
        }
        if f.cyclic {
            let memory = usize::try_from(self.ir.boxed_memory(&f.ty)).unwrap_or(usize::MAX);
            if let Err(e) = self.reader().charge_boxed("", memory, optional) {
                return Err(self.fail(e, NONE));
            }
        }
        let node = self.tree.nodes.len();
        self.tasks.push(Task::FieldDone);
        self.tasks.push(field_task(f, NONE, Seg::Field(id, i)));
        self.run_tasks()?;
        Ok(node)
    }

    /// Decodes one value of `ty` (a map's key or value) as the root of a
    /// tree of its own, whose path is empty; returns its node.
    pub(super) fn whole_value(&mut self, ty: &'i Type) -> Result<NodeId, DecodeError> {
        let node = self.tree.nodes.len();
        self.tasks.push(Task::Value {
            ty,
            parent: NONE,
            seg: Seg::Inner,
            max: None,
        });
        self.run_tasks()?;
        Ok(node)
    }

    fn run(&mut self, id: TypeId, seg: Seg) -> Result<(), DecodeError> {
        self.tasks.push(Task::Root { id, seg });
        self.run_tasks()
    }

    fn run_tasks(&mut self) -> Result<(), DecodeError> {
        while let Some(task) = self.tasks.pop() {
            if let Err((e, node)) = self.step(task) {
                return Err(self.fail(e, node));
            }
        }
        Ok(())
    }

    fn step(&mut self, task: Task<'i>) -> Result<(), Fail> {
        match task {
            Task::Root { id, seg } => {
                let at = self.pos();
                let node = self.tree.push(NONE, seg, at);
                self.declared(id, node).map_err(|e| (e, node))?;
            }
            Task::Value {
                ty,
                parent,
                seg,
                max,
            } => {
                let at = self.pos();
                let node = self.tree.push(parent, seg, at);
                if let Some(max) = max {
                    self.element_max(ty, max, node).map_err(|e| (e, node))?;
                }
                self.value(ty, node).map_err(|e| (e, node))?;
            }
            Task::Quantized {
                q,
                is_f32,
                parent,
                seg,
            } => {
                let at = self.pos();
                let node = self.tree.push(parent, seg, at);
                let rt = q.runtime();
                let r = self.reader();
                let kind = if is_f32 {
                    rt.read_f32(r).map(Kind::F32)
                } else {
                    rt.read_f64(r).map(Kind::F64)
                };
                self.done(node, kind.map_err(|e| (e, node))?);
            }
            Task::Next { node, items, i, n } => {
                if i == n {
                    return Ok(());
                }
                self.tasks.push(Task::Next {
                    node,
                    items,
                    i: i + 1,
                    n,
                });
                match items {
                    Items::Elements(e) => self.tasks.push(Task::Value {
                        ty: &e.ty,
                        parent: node,
                        seg: Seg::Index(i),
                        max: e.max,
                    }),
                    Items::Fields(id) => {
                        let f = &self.ir.ty(id).kind.fields()[i];
                        self.tasks.push(field_task(f, node, Seg::Field(id, i)));
                    }
                    Items::Entries(k, v) => {
                        let at = self.pos();
                        self.tasks.push(Task::Value {
                            ty: &v.ty,
                            parent: node,
                            seg: Seg::Value(i),
                            max: v.max,
                        });
                        self.tasks.push(Task::MapKey { node, at });
                        self.tasks.push(Task::Value {
                            ty: &k.ty,
                            parent: node,
                            seg: Seg::Key(i),
                            max: k.max,
                        });
                    }
                }
            }
            Task::Field { node, id, i } => self.field(node, id, i)?,
            Task::FieldDone => {
                self.fields.pop();
            }
            Task::MapKey { node, at } => {
                let key = &self.input[at..self.pos()];
                let fresh = self.keys.last_mut().is_some_and(|seen| seen.insert(key));
                if !fresh {
                    let e = pkt_runtime::DecodeError::new(DecodeErrorKind::DuplicateMapKey, at);
                    return Err((e, node));
                }
            }
            Task::MapDone => {
                self.keys.pop();
            }
            Task::Close(node) => self.close(node),
            Task::MessageEnd { node, preserve } => {
                let mut body = self.readers.pop().expect("a message body");
                let at = body.position();
                let rest = if preserve {
                    body.keep_rest().map_err(|e| (e, node))?
                } else {
                    body.rest()
                };
                if let Kind::Message { unknown, .. } = &mut self.tree.nodes[node].kind {
                    *unknown = (at, rest.len());
                }
                self.reader().finish(body);
                self.close(node);
            }
            Task::UnionEnd { node, tag } => {
                let frame = self.readers.pop().expect("a union frame");
                let r = self.reader();
                r.finish_variant(&frame, tag).map_err(|e| (e, node))?;
                r.finish(frame);
                self.close(node);
            }
        }
        Ok(())
    }

    fn close(&mut self, node: NodeId) {
        let pos = self.pos();
        let n = &mut self.tree.nodes[node];
        n.end = pos.max(n.head);
    }

    /// Sets `node`'s kind and, for scalars, its end.
    fn done(&mut self, node: NodeId, kind: Kind<'i>) {
        let pos = self.pos();
        let n = &mut self.tree.nodes[node];
        n.kind = kind;
        n.head = pos;
        n.end = pos;
    }

    /// Starts a value with children: its own bytes end here.
    fn open(&mut self, node: NodeId, kind: Kind<'i>) {
        let pos = self.pos();
        let n = &mut self.tree.nodes[node];
        n.kind = kind;
        n.head = pos;
        self.tasks.push(Task::Close(node));
    }

    fn min_size(&self, ty: &Type) -> usize {
        self.ir.layout(ty).min_size() as usize
    }

    fn model(&self, ty: &Type) -> usize {
        usize::try_from(self.ir.memory(ty).size).unwrap_or(usize::MAX)
    }

    /// The charge for a boxed field or variant of type `ty`.
    fn boxed(&self, ty: &Type) -> usize {
        usize::try_from(self.ir.boxed_memory(ty)).unwrap_or(usize::MAX)
    }

    /// The `@max` of an element, key or value of type `ty` (its `T` when
    /// it is `T?`), checked on its prefix before anything of it is read,
    /// as the generated decoders check it (`pkt_runtime::max`).
    fn element_max(
        &mut self,
        ty: &Type,
        max: u32,
        node: NodeId,
    ) -> Result<(), pkt_runtime::DecodeError> {
        let optional = matches!(ty, Type::Optional(_));
        match self.reader().peek_len(optional) {
            Some((len, at)) if len > max as usize => Err(pkt_runtime::DecodeError::new(
                DecodeErrorKind::FieldTooLong {
                    field: Cow::Owned(self.limit_name(node)),
                    len,
                    max: max as usize,
                },
                at,
            )),
            _ => Ok(()),
        }
    }

    /// What errors call the part of a value at `node`, as the generated
    /// decoders call it: the field or variant it is in (`game.net.Chat.mentions`),
    /// then `[]` for an element, `[key]` or `[value]` for a map's.
    fn limit_name(&self, node: NodeId) -> String {
        let mut steps = Vec::new();
        let mut at = node;
        while at != NONE {
            let n = &self.tree.nodes[at];
            match n.seg {
                Seg::Index(_) => steps.push("[]"),
                Seg::Key(_) => steps.push("[key]"),
                Seg::Value(_) => steps.push("[value]"),
                Seg::Inner => {}
                Seg::Field(id, i) => {
                    let mut name = self.field_name(id, i);
                    name.extend(steps.iter().rev().copied());
                    return name;
                }
                Seg::Variant(id, i) => {
                    let def = self.ir.ty(id);
                    let TypeKind::Union { variants, .. } = &def.kind else {
                        unreachable!("a variant segment is in a union");
                    };
                    let mut name = variants[i].path.clone();
                    name.extend(steps.iter().rev().copied());
                    return name;
                }
                Seg::Root(_) | Seg::Frame(..) => break,
            }
            at = n.parent;
        }
        steps.iter().rev().copied().collect()
    }

    /// Decodes the bytes of a value of `ty` into `node`, and schedules its
    /// children.
    fn value(&mut self, ty: &'i Type, node: NodeId) -> Result<(), pkt_runtime::DecodeError> {
        if let Layout::Fixed { size } = self.ir.layout(ty) {
            if size == 0 {
                self.done(node, Kind::Zero(ty));
                return Ok(());
            }
            if !self.expand && self.is_composite(ty) {
                self.skim(ty)?;
                self.done(node, Kind::Fixed(ty));
                return Ok(());
            }
        }
        match ty {
            Type::Prim(p) => {
                let r = self.reader();
                let kind = match p {
                    Prim::Bool => Kind::Bool(r.read_bool()?),
                    Prim::U8 => Kind::Uint(r.read_u8()?.into()),
                    Prim::U16 => Kind::Uint(r.read_u16()?.into()),
                    Prim::U32 => Kind::Uint(r.read_u32()?.into()),
                    Prim::U64 => Kind::Uint(r.read_u64()?),
                    Prim::I8 => Kind::Int(r.read_i8()?.into()),
                    Prim::I16 => Kind::Int(r.read_i16()?.into()),
                    Prim::I32 => Kind::Int(r.read_i32()?.into()),
                    Prim::I64 => Kind::Int(r.read_i64()?),
                    Prim::F32 => Kind::F32(r.read_f32()?),
                    Prim::F64 => Kind::F64(r.read_f64()?),
                };
                self.done(node, kind);
            }
            Type::String => {
                let len = self.reader().read_str()?.len();
                let at = self.pos() - len;
                self.done(node, Kind::Str { at, len });
            }
            Type::Bytes => {
                let len = self.reader().read_bytes_ref()?.len();
                let at = self.pos() - len;
                self.done(node, Kind::Bytes { at, len });
            }
            Type::List(elem) => {
                let (min, memory) = (self.min_size(elem), self.model(elem));
                let n = self.reader().read_count(min, memory)?;
                self.open(node, Kind::List);
                let items = Items::Elements(elem);
                self.tasks.push(Task::Next {
                    node,
                    items,
                    i: 0,
                    n,
                });
            }
            Type::Map(k, v) => {
                let min = self.min_size(k).saturating_add(self.min_size(v));
                let entry = self.model(k).saturating_add(self.model(v));
                let n = self.reader().read_map_count(min, entry)?;
                self.tasks.push(Task::MapDone);
                self.keys.push(HashSet::new());
                self.open(node, Kind::Map);
                let items = Items::Entries(k, v);
                self.tasks.push(Task::Next {
                    node,
                    items,
                    i: 0,
                    n,
                });
            }
            Type::Array(elem, n) => {
                self.open(node, Kind::Array);
                let items = Items::Elements(elem);
                let n = *n as usize;
                self.tasks.push(Task::Next {
                    node,
                    items,
                    i: 0,
                    n,
                });
            }
            Type::Optional(inner) => {
                if self.reader().read_option_flag()? {
                    self.open(node, Kind::Optional(true));
                    let (parent, seg) = (node, Seg::Inner);
                    self.tasks.push(Task::Value {
                        ty: inner,
                        parent,
                        seg,
                        max: None,
                    });
                } else {
                    self.done(node, Kind::Optional(false));
                }
            }
            Type::Named(r) => self.declared(r.id, node)?,
        }
        Ok(())
    }

    /// A fixed-size struct or array (not a number or an enum).
    fn is_composite(&self, ty: &Type) -> bool {
        match ty {
            Type::Array(..) => true,
            Type::Named(r) => matches!(self.ir.ty(r.id).kind, TypeKind::Struct { .. }),
            _ => false,
        }
    }

    /// Reads every scalar of the fixed-size value `ty` in order, with the
    /// reader's checks (a `bool` must be 0 or 1, a scalar cut short is the
    /// error at its offset), building nothing. On failure `fixed_path` says
    /// where in the value. The walk keeps its own stack of (type, next part),
    /// since structs nest as deep as the schema declares them.
    fn skim(&mut self, ty: &'i Type) -> Result<(), pkt_runtime::DecodeError> {
        let ir = self.ir;
        let mut stack: Vec<(&'i Type, u32)> = vec![(ty, 0)];
        while let Some(&(t, part)) = stack.last() {
            if let Some(top) = stack.last_mut() {
                top.1 += 1;
            }
            let inner = match t {
                Type::Array(elem, n) => (part < *n).then_some(&elem.ty),
                Type::Named(r) => match &ir.ty(r.id).kind {
                    TypeKind::Struct { fields } => match fields.get(part as usize) {
                        Some(
                            f @ Field {
                                quantize: Some(q), ..
                            },
                        ) => {
                            let rt = q.runtime();
                            let read = self.read_fixed_part(&stack, |r| rt.read(r).map(drop));
                            if read.is_err() {
                                self.fixed_path.push('.');
                                self.fixed_path.push_str(&f.name);
                            }
                            read?;
                            continue;
                        }
                        f => f.map(|f| &f.ty),
                    },
                    TypeKind::Enum { base, .. } if part == 0 => {
                        let width = base.size() as usize;
                        self.read_fixed_part(&stack, |r| r.read_slice(width).map(drop))?;
                        None
                    }
                    _ => None,
                },
                Type::Prim(p) if part == 0 => {
                    let p = *p;
                    self.read_fixed_part(&stack, |r| match p {
                        Prim::Bool => r.read_bool().map(drop),
                        _ => r.read_slice(p.size() as usize).map(drop),
                    })?;
                    None
                }
                _ => None,
            };
            match inner {
                Some(inner) => stack.push((inner, 0)),
                None => {
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    /// One scalar of a fixed-size value being skimmed; on failure, records
    /// its place in the value (the path below the value's node).
    fn read_fixed_part(
        &mut self,
        stack: &[(&'i Type, u32)],
        read: impl FnOnce(&mut Reader<'b>) -> Result<(), pkt_runtime::DecodeError>,
    ) -> Result<(), pkt_runtime::DecodeError> {
        let result = read(self.reader());
        if result.is_err() {
            let ir = self.ir;
            let mut path = String::new();
            for pair in stack.windows(2) {
                let (outer, next) = pair[0];
                match outer {
                    Type::Array(..) => path.push_str(&format!("[{}]", next - 1)),
                    Type::Named(r) => {
                        let field = &ir.ty(r.id).kind.fields()[next as usize - 1];
                        path.push('.');
                        path.push_str(&field.name);
                    }
                    _ => {}
                }
            }
            self.fixed_path = path;
        }
        result
    }

    /// Decodes a value of the declared type `id` into `node`.
    fn declared(&mut self, id: TypeId, node: NodeId) -> Result<(), pkt_runtime::DecodeError> {
        let ir = self.ir;
        match &ir.ty(id).kind {
            TypeKind::Struct { .. } if !ir.ty(id).layout.is_fixed() => {
                // A variable-size struct: a message's fields, checked and
                // named alike, without the length prefix, depth or defaults.
                self.open(node, Kind::Struct(id));
                self.tasks.push(Task::Field { node, id, i: 0 });
            }
            TypeKind::Struct { fields } => {
                self.open(node, Kind::Struct(id));
                let (items, n) = (Items::Fields(id), fields.len());
                self.tasks.push(Task::Next {
                    node,
                    items,
                    i: 0,
                    n,
                });
            }
            TypeKind::Enum { base, .. } => {
                let b = self.reader().read_slice(base.size() as usize)?;
                let value = le_u64(b);
                self.done(node, Kind::Enum { id, value });
            }
            TypeKind::Message {
                preserve_unknown, ..
            } => {
                let body = self.reader().message_body()?;
                let head = body.position();
                let n = &mut self.tree.nodes[node];
                n.head = head;
                n.kind = Kind::Message {
                    id,
                    unknown: (head, 0),
                };
                let preserve = *preserve_unknown;
                self.readers.push(body);
                self.tasks.push(Task::MessageEnd { node, preserve });
                self.tasks.push(Task::Field { node, id, i: 0 });
            }
            TypeKind::Union { tag, variants, .. } => {
                let width = tag.size() as usize;
                let (tag, mut frame) = self.reader().union_frame(width)?;
                let body_at = frame.position();
                let variant = variants.iter().position(|v| v.tag == tag);
                let n = &mut self.tree.nodes[node];
                n.head = body_at - width;
                n.kind = Kind::Union {
                    id,
                    tag,
                    variant,
                    unknown: (body_at, 0),
                };
                match variant {
                    Some(i) => {
                        let v = &variants[i];
                        if v.cyclic {
                            frame.charge(self.boxed(&v.ty), body_at)?;
                        }
                        self.readers.push(frame);
                        self.tasks.push(Task::UnionEnd { node, tag });
                        self.tasks.push(Task::Value {
                            ty: &v.ty,
                            parent: node,
                            seg: Seg::Variant(id, i),
                            max: None,
                        });
                    }
                    None => {
                        let len = frame.keep_rest()?.len();
                        if let Kind::Union { unknown, .. } = &mut self.tree.nodes[node].kind {
                            *unknown = (body_at, len);
                        }
                        self.reader().finish(frame);
                        self.close(node);
                    }
                }
            }
        }
        Ok(())
    }

    /// Field `i` of message or variable-size struct `id`: for a message
    /// whose body has ended its default, else its value, with the checks
    /// and charges the generated decoders make.
    fn field(&mut self, node: NodeId, id: TypeId, i: usize) -> Result<(), Fail> {
        let def = self.ir.ty(id);
        let message = matches!(def.kind, TypeKind::Message { .. });
        let fields = def.kind.fields();
        let Some(f) = fields.get(i) else {
            return Ok(());
        };
        self.tasks.push(Task::Field { node, id, i: i + 1 });
        let named = |e: pkt_runtime::DecodeError, d: &Self| (e.in_field(d.field_name(id, i)), node);
        let at = self.pos();
        let optional = matches!(f.ty, Type::Optional(_));
        let r = self.readers.last_mut().expect("a reader");
        if message && r.is_empty() {
            if let Some(n) = f.default_charge {
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                if let Err(e) = r.charge(n, at) {
                    return Err(named(e, self));
                }
            }
            let child = self.tree.push(node, Seg::Field(id, i), at);
            self.tree.nodes[child].kind = Kind::Default { id, field: i };
            return Ok(());
        }
        if let Some(max) = f.max {
            if let Err(e) = r.peek_max("", max as usize, optional) {
                return Err(named(e, self));
            }
        }
        if f.cyclic {
            let memory = usize::try_from(self.ir.boxed_memory(&f.ty)).unwrap_or(usize::MAX);
            let r = self.readers.last_mut().expect("a reader");
            if let Err(e) = r.charge_boxed("", memory, optional) {
                return Err(named(e, self));
            }
        }
        self.fields.push((id, i));
        self.tasks.push(Task::FieldDone);
        self.tasks.push(field_task(f, node, Seg::Field(id, i)));
        Ok(())
    }
}

/// The task that decodes field `f`: its value, or for a quantized float its
/// stored integer.
fn field_task(f: &Field, parent: NodeId, seg: Seg) -> Task<'_> {
    match &f.quantize {
        Some(q) => Task::Quantized {
            q,
            is_f32: f.ty == Type::Prim(Prim::F32),
            parent,
            seg,
        },
        None => Task::Value {
            ty: &f.ty,
            parent,
            seg,
            max: None,
        },
    }
}

pub(super) fn le_u64(b: &[u8]) -> u64 {
    b.iter()
        .rev()
        .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

#[cfg(test)]
mod tests {
    /// docs/security.md states the heap `pktc inspect` builds per value.
    #[test]
    fn a_node_is_128_bytes() {
        assert_eq!(std::mem::size_of::<super::Node<'_>>(), 128);
    }
}
