//! Delta snapshots (`@delta`): what each field of a `@delta` struct or
//! message sends when it changed, and how a backend decides that it
//! changed. One place for the rules every backend generates
//! (docs/wire-format.md, "Deltas").

use crate::ir::{Elem, Field, Ir, Prim, Type, TypeId, TypeKind};

/// The most fields a `@delta` type may have: its mask is a `u8` count of
/// mask bytes, eight fields a byte.
pub const MAX_FIELDS: usize = 255 * 8;

/// What a changed field of a `@delta` type sends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldDelta<'a> {
    /// Its whole ordinary encoding.
    Whole,
    /// Its own delta: the field's type is a `@delta` struct or message.
    Nested(TypeId),
    /// A map delta (removed keys, added entries, changed entries). `value`
    /// is `Some` when the values are `@delta` types, whose changes are
    /// their deltas; else a changed value is sent whole.
    Map {
        key: &'a Elem,
        value: &'a Elem,
        nested: Option<TypeId>,
    },
}

/// How field `f` of a `@delta` type is sent when it changed. A map
/// bounded by an `@max` anywhere (on the field, its keys or its values)
/// is sent whole: its limits bound the whole map, which a delta of it
/// never holds.
pub fn field_delta<'a>(ir: &Ir, f: &'a Field) -> FieldDelta<'a> {
    match &f.ty {
        Type::Named(r) if is_delta(ir, r.id) && !f.cyclic => FieldDelta::Nested(r.id),
        Type::Map(key, value) if f.max.is_none() && !f.ty.has_element_max() => FieldDelta::Map {
            key,
            value,
            nested: delta_id(ir, value),
        },
        _ => FieldDelta::Whole,
    }
}

/// The `@delta` struct or message `ty` names, if it names one.
pub fn delta_id(ir: &Ir, ty: &Type) -> Option<TypeId> {
    match ty {
        Type::Named(r) if is_delta(ir, r.id) => Some(r.id),
        _ => None,
    }
}

/// Whether `id` is a struct or message declared `@delta`.
pub fn is_delta(ir: &Ir, id: TypeId) -> bool {
    let def = ir.ty(id);
    def.delta && matches!(def.kind, TypeKind::Struct { .. } | TypeKind::Message { .. })
}

/// How generated code decides that a value of a type changed: "changed"
/// means that its ordinary encoding differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// A float: by bit pattern (`-0.0` differs from `0.0`; a NaN equals
    /// the same NaN).
    Bits,
    /// Value equality, which is encoding equality for types that hold no
    /// float.
    Equal,
    /// The encodings, for a fixed-size type of this many bytes that holds
    /// a float.
    Fixed(u32),
    /// The encodings, for a variable-size type that holds a float.
    Encoded,
}

/// The most bytes a fixed-size comparison encodes on the stack.
pub const MAX_FIXED_COMPARE: u32 = 256;

/// How values of `ty` are compared (see [`Compare`]).
pub fn compare(ir: &Ir, ty: &Type) -> Compare {
    if let Type::Prim(Prim::F32 | Prim::F64) = ty {
        return Compare::Bits;
    }
    if !holds_float(ir, ty, &mut Vec::new()) {
        return Compare::Equal;
    }
    match ir.layout(ty) {
        crate::ir::Layout::Fixed { size } if size <= MAX_FIXED_COMPARE => Compare::Fixed(size),
        _ => Compare::Encoded,
    }
}

/// Whether a value of `ty` may hold an `f32` or `f64` anywhere inside.
fn holds_float(ir: &Ir, ty: &Type, seen: &mut Vec<TypeId>) -> bool {
    match ty {
        Type::Prim(p) => matches!(p, Prim::F32 | Prim::F64),
        Type::String | Type::Bytes => false,
        Type::List(t) | Type::Array(t, _) => holds_float(ir, t, seen),
        Type::Map(k, v) => holds_float(ir, k, seen) || holds_float(ir, v, seen),
        Type::Optional(t) => holds_float(ir, t, seen),
        Type::Named(r) => {
            if seen.contains(&r.id) {
                return false;
            }
            seen.push(r.id);
            match &ir.ty(r.id).kind {
                TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                    fields.iter().any(|f| holds_float(ir, &f.ty, seen))
                }
                TypeKind::Union { variants, .. } => {
                    variants.iter().any(|v| holds_float(ir, &v.ty, seen))
                }
                TypeKind::Enum { .. } => false,
            }
        }
    }
}

/// The bytes of a delta's mask for `fields` fields.
pub fn mask_bytes(fields: usize) -> usize {
    fields.div_ceil(8)
}
