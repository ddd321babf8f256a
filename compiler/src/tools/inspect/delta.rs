//! `pktc inspect --delta-against`: applies a delta (docs/wire-format.md,
//! "Deltas") to a baseline with the IR alone, as the generated
//! `apply_delta` does, and gives the ordinary encoding of the value it
//! makes, which `inspect` then decodes and prints, and the fields that
//! changed.
//!
//! The baseline is decoded first ([`decode`]); the delta is read with the
//! runtime's [`Reader`] and the inspect decoder for the values it holds
//! whole, so its errors are the generated code's: the same kinds at the same
//! offsets of the delta, the same limits and decode budget (that of the
//! delta's length). What each field sends is `crate::delta`'s rule, the one
//! every backend generates. The new value is written as it is read: a field
//! the mask leaves out is copied from the baseline (its default, encoded,
//! when an older writer's baseline lacks it), a changed one from the delta,
//! a nested delta or a map's entries merged in turn. Nested `@delta` types
//! are walked with an explicit stack, not by recursion.

use std::collections::BTreeMap;

use pkt_runtime::delta::Mask;
use pkt_runtime::{DecodeBudget, DecodeErrorKind, Limits, Reader};

use super::decode::{decode, DecodeError, Decoder, Kind, NodeId, Tree};
use super::json::scalar_json;
use crate::delta::{field_delta, FieldDelta};
use crate::ir::{DefaultValue, Elem, Field, Ir, Prim, Type, TypeId, TypeKind, Value};

/// What applying a delta made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    /// The ordinary encoding of the new value.
    pub bytes: Vec<u8>,
    /// The changes, in the delta's order: `World.tick`, a field inside a
    /// nested delta (`World.entities[1].health`), a map's entries
    /// (`World.entities[2] removed`, `World.entities[5] added`,
    /// `World.scores[3]`).
    pub changed: Vec<String>,
}

/// Why a delta could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeltaError {
    /// The baseline is not a value of the type.
    Baseline(DecodeError),
    /// The delta is not a delta of the type against this baseline; offsets
    /// count from the start of the delta.
    Delta(DecodeError),
}

impl std::fmt::Display for DeltaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeltaError::Baseline(e) => write!(f, "cannot decode the baseline: {e}"),
            DeltaError::Delta(e) => write!(f, "cannot apply the delta: {e}"),
        }
    }
}

/// Applies `delta`, a delta of the `@delta` struct or message `id`, to
/// `baseline`, the encoding of a value of it. `limits` bound the delta, as
/// they bound the generated `apply_delta`; the baseline, a value the reader
/// already holds there, is decoded under the default limits.
pub fn apply_delta(
    ir: &Ir,
    id: TypeId,
    baseline: &[u8],
    delta: &[u8],
    limits: Limits,
) -> Result<Applied, DeltaError> {
    let (base, error) = decode(ir, id, baseline, Limits::default());
    if let Some(e) = error {
        return Err(DeltaError::Baseline(e));
    }
    let budget = DecodeBudget::new(&limits, delta.len());
    let mut tree = Tree::new(ir, delta);
    let reader = Reader::with_budget(delta, limits, &budget);
    let d = Decoder::new(ir, &mut tree, delta, reader);
    let mut a = Applier {
        ir,
        base: &base,
        baseline,
        delta,
        d,
        out: Vec::new(),
        changed: Vec::new(),
        path: ir.ty(id).display_name.clone(),
        steps: Vec::new(),
        frames: Vec::new(),
        maps: Vec::new(),
    };
    let root = a.base_value(base.root());
    a.steps.push(Step::Begin { id, base: root });
    a.run().map_err(DeltaError::Delta)?;
    if let Err(e) = a.d.reader().expect_end() {
        let mut e = a.d.error(e);
        e.path.clear();
        return Err(DeltaError::Delta(e));
    }
    Ok(Applied {
        bytes: a.out,
        changed: a.changed,
    })
}

/// A baseline value, for a nested delta or a field left out.
#[derive(Clone, Copy, Debug)]
enum Base<'i> {
    /// A decoded node of the baseline (a message, a variable-size struct,
    /// a map, any value to copy).
    Node(NodeId),
    /// A fixed-size value starting at this byte of the baseline; its
    /// fields are at their offsets.
    At(usize),
    /// The default of a field an older writer's baseline lacks: its
    /// declared default, else its type's zero value, whose fields are
    /// their defaults in turn.
    Default(&'i Type, Option<&'i Value>),
}

/// A map key, ordered as the map order (docs/wire-format.md): numeric for
/// integers, enums (by base value) and `bool`, by UTF-8 bytes for strings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Int(i128),
    Bytes(Vec<u8>),
}

/// Where bytes of the new value come from.
#[derive(Clone, Copy, Debug)]
enum Src {
    Baseline(usize, usize),
    Delta(usize, usize),
    /// Written to the output at this range (a changed map value's merge).
    Out(usize, usize),
}

enum Step<'i> {
    /// Read the delta of `id` against `base` and write the new value.
    Begin { id: TypeId, base: Base<'i> },
    /// Field `i` of the innermost struct or message.
    Field(usize),
    /// A nested field's delta is read: back to the path of length `path`.
    Leave { path: usize },
    /// Changed entry `j` of `n` of the innermost map.
    Changed { j: usize, n: usize },
    /// The new value of changed entry `key` starts at `at` of the output.
    ChangedDone { key: Key, at: usize, path: usize },
    /// The innermost map's sections are read: write the new map.
    MapEnd { path: usize },
}

/// A struct or message whose delta is being read.
struct Frame<'i, 'b> {
    id: TypeId,
    base: Base<'i>,
    mask: Mask<'b>,
    /// Where its body length goes in the output (messages).
    length_at: Option<usize>,
    /// The baseline's fields, when `base` is a node.
    children: Vec<NodeId>,
}

/// A map whose delta is being read.
struct MapState<'i> {
    key: &'i Elem,
    value: &'i Elem,
    nested: Option<TypeId>,
    /// The baseline's entries: key bytes and value.
    entries: BTreeMap<Key, (Src, Base<'i>)>,
    removed: Vec<Key>,
    added: Vec<(Key, Src, Src)>,
    changed: Vec<(Key, Src)>,
    /// Where the map's scratch output starts.
    out_at: usize,
}

struct Applier<'i, 't, 'b> {
    ir: &'i Ir,
    base: &'t Tree<'i>,
    baseline: &'b [u8],
    delta: &'b [u8],
    d: Decoder<'i, 't, 'b>,
    out: Vec<u8>,
    changed: Vec<String>,
    /// The path of what is being read (`World.entities[1]`).
    path: String,
    steps: Vec<Step<'i>>,
    frames: Vec<Frame<'i, 'b>>,
    maps: Vec<MapState<'i>>,
}

fn invalid(reason: &'static str, at: usize) -> pkt_runtime::DecodeError {
    pkt_runtime::DecodeError::new(DecodeErrorKind::InvalidDelta { reason }, at)
}

impl<'i, 't, 'b> Applier<'i, 't, 'b>
where
    't: 'b,
    'i: 't,
{
    fn run(&mut self) -> Result<(), DecodeError> {
        while let Some(step) = self.steps.pop() {
            self.step(step)?;
        }
        Ok(())
    }

    /// `e`, raised by the delta's own structure (masks, counts, keys), at
    /// the current path.
    fn fail(&mut self, e: pkt_runtime::DecodeError) -> DecodeError {
        let mut e = self.d.error(e);
        e.path = self.path.clone();
        e
    }

    /// An error of a value decoded whole, whose path follows the current one.
    fn within(&self, mut e: DecodeError) -> DecodeError {
        e.path = format!("{}{}", self.path, e.path);
        e
    }

    fn step(&mut self, step: Step<'i>) -> Result<(), DecodeError> {
        match step {
            Step::Begin { id, base } => self.begin(id, base)?,
            Step::Field(i) => self.field(i)?,
            Step::Leave { path } => {
                self.path.truncate(path);
                self.d.pop_field();
            }
            Step::Changed { j, n } => self.changed_entry(j, n)?,
            Step::ChangedDone { key, at, path } => {
                let end = self.out.len();
                let map = self.maps.last_mut().expect("a map");
                map.changed.push((key, Src::Out(at, end)));
                self.path.truncate(path);
            }
            Step::MapEnd { path } => {
                self.map_end();
                self.path.truncate(path);
            }
        }
        Ok(())
    }

    fn begin(&mut self, id: TypeId, base: Base<'i>) -> Result<(), DecodeError> {
        let def = self.ir.ty(id);
        let fields = def.kind.fields().len();
        let message = matches!(def.kind, TypeKind::Message { .. });
        let length_at = if message {
            let body = self.d.reader().message_body().map_err(|e| self.fail(e))?;
            self.d.push_body(body);
            self.out.extend_from_slice(&[0; 4]);
            Some(self.out.len() - 4)
        } else {
            None
        };
        let mask = if message {
            Mask::read_message(self.d.reader())
        } else {
            Mask::read_struct(self.d.reader(), fields)
        }
        .map_err(|e| self.fail(e))?;
        let children = match base {
            Base::Node(n) => self.base.children(n).collect(),
            _ => Vec::new(),
        };
        self.frames.push(Frame {
            id,
            base,
            mask,
            length_at,
            children,
        });
        self.steps.push(Step::Field(0));
        Ok(())
    }

    fn end(&mut self) {
        let frame = self.frames.pop().expect("a frame");
        if let Some(at) = frame.length_at {
            let def = self.ir.ty(frame.id);
            let keep = matches!(
                def.kind,
                TypeKind::Message {
                    preserve_unknown: true,
                    ..
                }
            );
            if let (true, Base::Node(n)) = (keep, frame.base) {
                // Bytes a newer writer appended to the baseline, which a
                // delta never changes.
                if let Kind::Message { unknown, .. } = self.base.node(n).kind {
                    let (start, len) = unknown;
                    self.out
                        .extend_from_slice(&self.baseline[start..start + len]);
                }
            }
            let len = (self.out.len() - at - 4) as u32;
            self.out[at..at + 4].copy_from_slice(&len.to_le_bytes());
            // A newer writer's fields after the known ones are skipped.
            self.d.pop_body();
        }
    }

    /// The baseline value of field `i` of the innermost frame.
    fn base_field(&self, i: usize) -> Base<'i> {
        let frame = self.frames.last().expect("a frame");
        let f = &self.ir.ty(frame.id).kind.fields()[i];
        match frame.base {
            Base::Node(_) => self.base_value(frame.children[i]),
            Base::At(at) => Base::At(at + f.offset.unwrap_or(0) as usize),
            Base::Default(..) => Base::Default(&f.ty, f.default.as_ref()),
        }
    }

    /// A node of the baseline as a [`Base`].
    fn base_value(&self, node: NodeId) -> Base<'i> {
        let n = self.base.node(node);
        match n.kind {
            Kind::Fixed(_) | Kind::Zero(_) => Base::At(n.start),
            Kind::Default { id, field } => {
                let f = &self.ir.ty(id).kind.fields()[field];
                Base::Default(&f.ty, f.default.as_ref())
            }
            _ => Base::Node(node),
        }
    }

    /// Writes the baseline's value of field `i` (of type `f`) unchanged.
    fn copy_field(&mut self, f: &'i Field, base: Base<'i>) {
        match base {
            Base::Node(n) => {
                let n = self.base.node(n);
                self.out.extend_from_slice(&self.baseline[n.start..n.end]);
            }
            Base::At(at) => {
                let size = f.layout.min_size() as usize;
                self.out.extend_from_slice(&self.baseline[at..at + size]);
            }
            Base::Default(ty, declared) => {
                encode_default(self.ir, ty, declared, f.quantize.as_ref(), &mut self.out)
            }
        }
    }

    fn field(&mut self, i: usize) -> Result<(), DecodeError> {
        let frame = self.frames.last().expect("a frame");
        let (id, mask) = (frame.id, frame.mask);
        let fields = self.ir.ty(id).kind.fields();
        let Some(f) = fields.get(i) else {
            self.end();
            return Ok(());
        };
        self.steps.push(Step::Field(i + 1));
        let base = self.base_field(i);
        if !mask.has(i) {
            self.copy_field(f, base);
            return Ok(());
        }
        let path = self.path.len();
        self.path.push('.');
        self.path.push_str(&f.name);
        match field_delta(self.ir, f) {
            FieldDelta::Whole => {
                self.changed.push(self.path.clone());
                self.path.truncate(path);
                let node = self.d.whole_field(id, i).map_err(|e| self.within(e))?;
                let n = self.d.tree().node(node);
                self.out.extend_from_slice(&self.delta[n.start..n.end]);
            }
            FieldDelta::Nested(nested) => {
                self.d.push_field(id, i);
                self.steps.push(Step::Leave { path });
                self.steps.push(Step::Begin { id: nested, base });
            }
            FieldDelta::Map { key, value, nested } => {
                self.d.push_field(id, i);
                self.steps.push(Step::Leave { path });
                self.map_begin(key, value, nested, base)?;
            }
        }
        Ok(())
    }

    /// Reads a map delta's removed and added sections and the count of its
    /// changed one, checked and charged as the generated readers do.
    fn map_begin(
        &mut self,
        key: &'i Elem,
        value: &'i Elem,
        nested: Option<TypeId>,
        base: Base<'i>,
    ) -> Result<(), DecodeError> {
        let ir = self.ir;
        let mut entries = BTreeMap::new();
        if let Base::Node(n) = base {
            let children: Vec<NodeId> = self.base.children(n).collect();
            for pair in children.chunks(2) {
                let k = self.base.node(pair[0]);
                let bytes = Src::Baseline(k.start, k.end);
                let key = key_of(ir, self.base, pair[0], self.baseline);
                entries.insert(key, (bytes, self.base_value(pair[1])));
            }
        }
        let (kmin, kmem) = (min_size(ir, &key.ty), memory(ir, &key.ty));
        let (vmin, vmem) = (min_size(ir, &value.ty), memory(ir, &value.ty));
        let mut map = MapState {
            key,
            value,
            nested,
            entries,
            removed: Vec::new(),
            added: Vec::new(),
            changed: Vec::new(),
            out_at: self.out.len(),
        };
        let n = self
            .d
            .reader()
            .read_count(kmin, kmem)
            .map_err(|e| self.fail(e))?;
        for _ in 0..n {
            let at = self.d.reader().position();
            let (k, knode) = self.key(key)?;
            if map.removed.last().is_some_and(|p| k <= *p) {
                return Err(self.fail(invalid("map delta keys not in ascending order", at)));
            }
            if !map.entries.contains_key(&k) {
                return Err(self.fail(invalid("removed key not in the baseline", at)));
            }
            let shown = key_text(&k, self.d.tree(), Some(knode));
            self.changed.push(format!("{}[{shown}] removed", self.path));
            map.removed.push(k);
        }
        let n = self
            .d
            .reader()
            .read_map_count(kmin.saturating_add(vmin), kmem.saturating_add(vmem))
            .map_err(|e| self.fail(e))?;
        for _ in 0..n {
            let at = self.d.reader().position();
            let (k, knode) = self.key(key)?;
            if map.added.last().is_some_and(|(p, ..)| k <= *p) {
                return Err(self.fail(invalid("map delta keys not in ascending order", at)));
            }
            if map.entries.contains_key(&k) {
                return Err(self.fail(invalid("added key already in the baseline", at)));
            }
            let shown = format!(
                "{}[{}]",
                self.path,
                key_text(&k, self.d.tree(), Some(knode))
            );
            let vnode = self
                .d
                .whole_value(&value.ty)
                .map_err(|e| self.within_key(e, &shown))?;
            let kn = self.d.tree().node(knode);
            let vn = self.d.tree().node(vnode);
            let (ks, vs) = (Src::Delta(kn.start, kn.end), Src::Delta(vn.start, vn.end));
            self.changed.push(format!("{shown} added"));
            map.added.push((k, ks, vs));
        }
        let change_min = match nested {
            Some(id) if matches!(ir.ty(id).kind, TypeKind::Message { .. }) => {
                crate::wire::BODY_PREFIX as usize
            }
            Some(_) => 1,
            None => vmin,
        };
        let n = self
            .d
            .reader()
            .read_count(kmin.saturating_add(change_min), kmem.saturating_add(vmem))
            .map_err(|e| self.fail(e))?;
        self.maps.push(map);
        self.steps.push(Step::MapEnd {
            path: self.path.len(),
        });
        self.steps.push(Step::Changed { j: 0, n });
        Ok(())
    }

    /// An error inside a map entry's value.
    fn within_key(&self, mut e: DecodeError, shown: &str) -> DecodeError {
        e.path = format!("{shown}{}", e.path);
        e
    }

    /// Reads a key of type `key` whole.
    fn key(&mut self, key: &'i Elem) -> Result<(Key, NodeId), DecodeError> {
        let node = self.d.whole_value(&key.ty).map_err(|e| self.within(e))?;
        Ok((key_of(self.ir, self.d.tree(), node, self.delta), node))
    }

    fn changed_entry(&mut self, j: usize, n: usize) -> Result<(), DecodeError> {
        if j == n {
            return Ok(());
        }
        self.steps.push(Step::Changed { j: j + 1, n });
        let map = self.maps.last().expect("a map");
        let (key, value, nested) = (map.key, map.value, map.nested);
        let at = self.d.reader().position();
        let (k, knode) = self.key(key)?;
        let map = self.maps.last().expect("a map");
        if map.changed.last().is_some_and(|(p, _)| k <= *p) {
            return Err(self.fail(invalid("map delta keys not in ascending order", at)));
        }
        let Some(&(_, base)) = map.entries.get(&k) else {
            return Err(self.fail(invalid("changed key not in the baseline", at)));
        };
        if map.removed.binary_search(&k).is_ok() {
            return Err(self.fail(invalid("changed key also removed", at)));
        }
        let shown = format!("[{}]", key_text(&k, self.d.tree(), Some(knode)));
        let path = self.path.len();
        match nested {
            Some(id) => {
                self.path.push_str(&shown);
                self.steps.push(Step::ChangedDone {
                    key: k,
                    at: self.out.len(),
                    path,
                });
                self.steps.push(Step::Begin { id, base });
            }
            None => {
                let shown = format!("{}{shown}", self.path);
                let vnode = self
                    .d
                    .whole_value(&value.ty)
                    .map_err(|e| self.within_key(e, &shown))?;
                let vn = self.d.tree().node(vnode);
                let src = Src::Delta(vn.start, vn.end);
                self.changed.push(shown);
                self.maps.last_mut().expect("a map").changed.push((k, src));
            }
        }
        Ok(())
    }

    /// Writes the new map: the baseline's entries less the removed ones,
    /// the changed ones' new values, and the added ones, in key order.
    fn map_end(&mut self) {
        let map = self.maps.pop().expect("a map");
        let mut entries: BTreeMap<Key, (Src, Src)> = BTreeMap::new();
        let removed: std::collections::BTreeSet<&Key> = map.removed.iter().collect();
        let changed: BTreeMap<&Key, Src> = map.changed.iter().map(|(k, s)| (k, *s)).collect();
        for (k, (ks, base)) in &map.entries {
            if removed.contains(k) {
                continue;
            }
            let v = match changed.get(k) {
                Some(&s) => s,
                None => match *base {
                    Base::Node(n) => {
                        let n = self.base.node(n);
                        Src::Baseline(n.start, n.end)
                    }
                    Base::At(at) => {
                        let size = min_size(self.ir, &map.value.ty);
                        Src::Baseline(at, at + size)
                    }
                    Base::Default(..) => unreachable!("a map entry is decoded"),
                },
            };
            entries.insert(k.clone(), (*ks, v));
        }
        for (k, ks, vs) in &map.added {
            entries.insert(k.clone(), (*ks, *vs));
        }
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        for (ks, vs) in entries.values() {
            for s in [ks, vs] {
                let part = match *s {
                    Src::Baseline(a, b) => &self.baseline[a..b],
                    Src::Delta(a, b) => &self.delta[a..b],
                    Src::Out(a, b) => &self.out[a..b],
                };
                bytes.extend_from_slice(part);
            }
        }
        self.out.truncate(map.out_at);
        self.out.extend_from_slice(&bytes);
    }
}

fn min_size(ir: &Ir, ty: &Type) -> usize {
    ir.layout(ty).min_size() as usize
}

fn memory(ir: &Ir, ty: &Type) -> usize {
    usize::try_from(ir.memory(ty).size).unwrap_or(usize::MAX)
}

/// The key decoded at `node` of `tree` (whose input is `input`).
fn key_of(ir: &Ir, tree: &Tree<'_>, node: NodeId, input: &[u8]) -> Key {
    match tree.node(node).kind {
        Kind::Uint(u) => Key::Int(i128::from(u)),
        Kind::Int(i) => Key::Int(i128::from(i)),
        Kind::Bool(b) => Key::Int(i128::from(b)),
        Kind::Enum { id, value } => {
            let signed = match &ir.ty(id).kind {
                TypeKind::Enum { base, .. } => match base {
                    Prim::I8 => Some(8),
                    Prim::I16 => Some(16),
                    Prim::I32 => Some(32),
                    Prim::I64 => Some(64),
                    _ => None,
                },
                _ => None,
            };
            match signed {
                Some(bits) => {
                    let shift = 64 - bits;
                    Key::Int(i128::from(((value << shift) as i64) >> shift))
                }
                None => Key::Int(i128::from(value)),
            }
        }
        Kind::Str { at, len } => Key::Bytes(input[at..at + len].to_vec()),
        _ => Key::Bytes(Vec::new()),
    }
}

/// A key as a path shows it: as JSON (strings quoted, enums by name).
fn key_text(key: &Key, tree: &Tree<'_>, node: Option<NodeId>) -> String {
    match node.and_then(|n| scalar_json(tree, n)) {
        Some(text) => text,
        None => match key {
            Key::Int(i) => i.to_string(),
            Key::Bytes(b) => super::json::quoted(&String::from_utf8_lossy(b)),
        },
    }
}

/// Appends the encoding of a default value: the declared `declared`, else
/// the zero value of `ty` (`quantize`: the field's, whose default is
/// stored as its integer). Parts are written with an explicit stack.
fn encode_default(
    ir: &Ir,
    ty: &Type,
    declared: Option<&Value>,
    quantize: Option<&crate::ir::Quantize>,
    out: &mut Vec<u8>,
) {
    enum Part<'a> {
        Value(&'a Type, Option<&'a Value>, Option<&'a crate::ir::Quantize>),
        /// Write the length of what follows `at` at `at`.
        Length(usize),
    }
    let mut stack = vec![Part::Value(ty, declared, quantize)];
    while let Some(part) = stack.pop() {
        let (ty, declared, quantize) = match part {
            Part::Length(at) => {
                let len = (out.len() - at - 4) as u32;
                out[at..at + 4].copy_from_slice(&len.to_le_bytes());
                continue;
            }
            Part::Value(t, d, q) => (t, d, q),
        };
        if let Some(q) = quantize {
            let v = match declared {
                Some(Value::Float(f)) => *f,
                Some(Value::Int(i)) => *i as f64,
                _ => 0.0,
            };
            let stored = q.runtime().quantize(v).unwrap_or(0);
            out.extend_from_slice(&stored.to_le_bytes()[..q.stored.size() as usize]);
            continue;
        }
        match ir.default_value(ty, declared) {
            DefaultValue::Declared(v) => match (v, ty) {
                (Value::Bool(b), _) => out.push(u8::from(*b)),
                (Value::Int(i), Type::Prim(p)) => {
                    out.extend_from_slice(&i.to_le_bytes()[..p.size() as usize])
                }
                (Value::Float(f), Type::Prim(Prim::F32)) => {
                    out.extend_from_slice(&(*f as f32).to_le_bytes())
                }
                (Value::Float(f), _) => out.extend_from_slice(&f.to_le_bytes()),
                (Value::String(s), _) => {
                    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                    out.extend_from_slice(s.as_bytes());
                }
                (Value::Enum { value, .. }, Type::Named(r)) => {
                    let width = match &ir.ty(r.id).kind {
                        TypeKind::Enum { base, .. } => base.size() as usize,
                        _ => 8,
                    };
                    out.extend_from_slice(&value.to_le_bytes()[..width]);
                }
                (Value::Int(i), _) => out.extend_from_slice(&i.to_le_bytes()[..8]),
                (Value::Enum { value, .. }, _) => out.extend_from_slice(&value.to_le_bytes()),
            },
            DefaultValue::Scalar(p) => out.extend(std::iter::repeat_n(0, p.size() as usize)),
            DefaultValue::Empty => out.extend_from_slice(&[0; 4]),
            DefaultValue::Absent => out.push(0),
            DefaultValue::Array { elem, len } => {
                for _ in 0..len {
                    stack.push(Part::Value(&elem.ty, None, None));
                }
            }
            DefaultValue::EnumValue { value, .. } => {
                let width = match ty {
                    Type::Named(r) => match &ir.ty(r.id).kind {
                        TypeKind::Enum { base, .. } => base.size() as usize,
                        _ => 8,
                    },
                    _ => 8,
                };
                out.extend_from_slice(&value.value.to_le_bytes()[..width]);
            }
            DefaultValue::Fields(fields) => {
                let message = match ty {
                    Type::Named(r) => matches!(ir.ty(r.id).kind, TypeKind::Message { .. }),
                    _ => false,
                };
                if message {
                    out.extend_from_slice(&[0; 4]);
                    stack.push(Part::Length(out.len() - 4));
                }
                for f in fields.iter().rev() {
                    stack.push(Part::Value(&f.ty, f.default.as_ref(), f.quantize.as_ref()));
                }
            }
            DefaultValue::Variant { variant, .. } => {
                let tag = match ty {
                    Type::Named(r) => match &ir.ty(r.id).kind {
                        TypeKind::Union { tag, .. } => tag.size() as usize,
                        _ => 2,
                    },
                    _ => 2,
                };
                out.extend_from_slice(&[0; 4]);
                stack.push(Part::Length(out.len() - 4));
                out.extend_from_slice(&variant.tag.to_le_bytes()[..tag]);
                stack.push(Part::Value(&variant.ty, None, None));
            }
        }
    }
}
