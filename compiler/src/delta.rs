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

/// What the patch model `P(T)` of a `@delta` type counts for one field's
/// change (docs/security.md, "Bounded memory when applying deltas"): the
/// patch Rust reads a delta into holds an `Option` of each field's change,
/// and a changed entry of a map whose values are `@delta` types is charged
/// `M(K) + max(M(V), P(V))` in every language. Rust checks at compile time
/// that its patch takes no more than `P(T)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PatchPart<'a> {
    /// A field sent whole: its model `M(F)`, or a pointer when it is boxed
    /// (`cyclic`).
    Whole { ty: &'a Type, cyclic: bool },
    /// A nested `@delta` field: its patch model `P(F)`.
    Nested(TypeId),
    /// A map field: the runtime's map patch, [`MAP_PATCH_MEMORY`].
    Map,
}

/// What `P(T)` charges for the patch itself.
pub const PATCH: u64 = pkt_runtime::delta::PATCH as u64;

/// What `P(T)` charges for each field beside its part.
pub const PATCH_FIELD: u64 = pkt_runtime::delta::PATCH_FIELD as u64;

/// The part of a map field: a map patch, three vectors and a map.
pub const MAP_PATCH_MEMORY: u64 = pkt_runtime::delta::MAP_PATCH_MEMORY as u64;

/// The part of field `f` of a `@delta` type in its patch model.
pub fn patch_part<'a>(ir: &Ir, f: &'a Field) -> PatchPart<'a> {
    match field_delta(ir, f) {
        FieldDelta::Whole => PatchPart::Whole {
            ty: &f.ty,
            cyclic: f.cyclic,
        },
        FieldDelta::Nested(id) => PatchPart::Nested(id),
        FieldDelta::Map { .. } => PatchPart::Map,
    }
}

/// What `P(T)` adds up besides the patch models of nested `@delta` fields:
/// [`PATCH`], [`PATCH_FIELD`] per field, and the parts of fields sent whole
/// and of maps. A backend states `P(T)` as this number plus the patch
/// models of the nested fields, named, so that it changes only with `T`'s
/// own schema file and those types.
pub fn patch_base(ir: &Ir, fields: &[Field]) -> u64 {
    fields.iter().fold(PATCH, |sum, f| {
        let part = match patch_part(ir, f) {
            PatchPart::Whole { ty, cyclic } => ir.slot_memory(ty, cyclic).size,
            PatchPart::Nested(_) => 0,
            PatchPart::Map => MAP_PATCH_MEMORY,
        };
        sum.saturating_add(PATCH_FIELD).saturating_add(part)
    })
}

/// The patch model `P(T)` of every `@delta` type (`None` for any other):
/// [`patch_base`] and the models of its nested `@delta` fields. Nested
/// fields are not boxed, so they form no cycle; they are walked with an
/// explicit stack, as declarations may chain deeper than recursion allows.
pub fn patch_models(ir: &Ir) -> Vec<Option<u64>> {
    let n = ir.types.len();
    let mut models: Vec<Option<u64>> = vec![None; n];
    let nested = |id: usize| -> Vec<TypeId> {
        ir.types[id]
            .kind
            .fields()
            .iter()
            .filter_map(|f| match patch_part(ir, f) {
                PatchPart::Nested(t) => Some(t),
                _ => None,
            })
            .collect()
    };
    for root in (0..n).filter(|&i| is_delta(ir, TypeId(i))) {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if models[id].is_some() {
                continue;
            }
            let deps = nested(id);
            if !expanded {
                stack.push((id, true));
                stack.extend(deps.iter().map(|d| (d.0, false)));
                continue;
            }
            let base = patch_base(ir, ir.types[id].kind.fields());
            models[id] = Some(deps.iter().fold(base, |sum, d| {
                sum.saturating_add(models[d.0].expect("nested patches first"))
            }));
        }
    }
    models
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ir(src: &str) -> Ir {
        let dir = std::env::temp_dir().join(format!("pktc-patch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.pkt");
        std::fs::write(&path, src).unwrap();
        let checked = crate::check(&[path]).expect("schema is valid");
        let _ = std::fs::remove_dir_all(&dir);
        checked.ir
    }

    fn patch(ir: &Ir, models: &[Option<u64>], name: &str) -> Option<u64> {
        let id = ir.types.iter().position(|t| t.name == name).expect("type");
        models[id]
    }

    #[test]
    fn patch_models_count_each_field_change() {
        let ir = ir("@delta struct V { x: f32, y: f32, z: f32 }
             @delta message Node { v: u32, kids: map<u32, Node> }
             @delta message E { pos: V, name: string, hp: u16?, tags: map<string, u8> }
             @delta message Empty {}
             message Plain { a: u8 }
             @delta message Deep { e: E, next: Deep? }");
        let models = patch_models(&ir);
        // 8 for the patch, 8 per field and each field's change.
        assert_eq!(patch(&ir, &models, "V"), Some(8 + 3 * (8 + 4)));
        // A map field is a map patch whatever it holds, so a tree's model
        // is finite.
        assert_eq!(patch(&ir, &models, "Node"), Some(8 + 8 + 4 + 8 + 96));
        assert_eq!(
            patch(&ir, &models, "E"),
            Some(8 + (8 + 44) + (8 + 24) + (8 + 4) + (8 + 96))
        );
        assert_eq!(patch(&ir, &models, "Empty"), Some(8));
        assert_eq!(patch(&ir, &models, "Plain"), None);
        // A nested `@delta` field adds its patch; a boxed one is sent whole,
        // a pointer.
        assert_eq!(patch(&ir, &models, "Deep"), Some(8 + (8 + 208) + (8 + 8)));
    }
}
