//! Analyses of the whole `Ir` that the Rust backend makes once per
//! generation (`Shared`): which types are boxed, checked, plain, total, and
//! how large each fixed-size struct is in Rust.

use super::*;

/// The declared types some field or variant stores in a `Box`: their
/// decoders build a boxed value in place (`Decode::decode_boxed`).
pub(super) fn boxed_types(ir: &Ir) -> std::collections::BTreeSet<TypeId> {
    fn inner(ty: &Type) -> Option<TypeId> {
        match ty {
            Type::Optional(t) => inner(t),
            t => t.named(),
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for def in &ir.types {
        let boxed: Vec<&Type> = match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                fields.iter().filter(|f| f.cyclic).map(|f| &f.ty).collect()
            }
            TypeKind::Union { variants, .. } => variants
                .iter()
                .filter(|v| v.cyclic)
                .map(|v| &v.ty)
                .collect(),
            TypeKind::Enum { .. } => Vec::new(),
        };
        out.extend(boxed.into_iter().filter_map(inner));
    }
    out
}

/// The fields (type, index) of `@delta` types whose patch is
/// `pkt_runtime::delta::Deferred`: maps whose values are `@delta` types
/// whose patch holds, directly or through other patches, the patch of the
/// field's own type (`@delta message Node { kids: map<u32, Node> }`).
/// Written as `PatchOf<V>` there, the patch type would be defined by itself
/// and rustc fails with E0275, as it would on an inline cycle of owned
/// types without a `Box`. A cycle of patches always passes through such a
/// map: a field of a `@delta` type on a cycle of inline types is sent whole.
pub(super) fn deferred_patches(ir: &Ir) -> std::collections::BTreeSet<(TypeId, usize)> {
    use crate::delta::{field_delta, is_delta, FieldDelta};
    // Edges from a `@delta` type to the `@delta` types its patch holds.
    let edges: Vec<Vec<TypeId>> = ir
        .types
        .iter()
        .enumerate()
        .map(|(i, def)| {
            if !is_delta(ir, TypeId(i)) {
                return Vec::new();
            }
            def.kind
                .fields()
                .iter()
                .filter_map(|f| match field_delta(ir, f) {
                    FieldDelta::Nested(id) => Some(id),
                    FieldDelta::Map { nested, .. } => nested,
                    FieldDelta::Whole => None,
                })
                .collect()
        })
        .collect();
    let component = crate::sema::tarjan(ir.types.len(), &edges);
    let mut out = std::collections::BTreeSet::new();
    for (i, def) in ir.types.iter().enumerate() {
        if !is_delta(ir, TypeId(i)) {
            continue;
        }
        for (index, f) in def.kind.fields().iter().enumerate() {
            if let FieldDelta::Map {
                nested: Some(id), ..
            } = field_delta(ir, f)
            {
                if component[id.0] == component[i] {
                    out.insert((TypeId(i), index));
                }
            }
        }
    }
    out
}

/// The structs whose encoder check (`Encode::check_at`) has something to
/// do: a variable-size struct with a field with `@max`, or a field holding a
/// message or a union; a struct with a quantized float (`@quantize`, checked
/// by `FixedSize::check_fixed` in a fixed-size struct); or a struct holding
/// such a struct. Found backwards from the structs that check
/// something themselves, so that struct chains of any depth take no
/// recursion.
pub(super) fn checked_structs(ir: &Ir) -> std::collections::BTreeSet<TypeId> {
    let n = ir.types.len();
    // users[s]: the structs with a field holding struct `s`.
    let mut users: Vec<Vec<TypeId>> = vec![Vec::new(); n];
    let mut work = Vec::new();
    for (i, def) in ir.types.iter().enumerate() {
        let TypeKind::Struct { fields } = &def.kind else {
            continue;
        };
        let mut own = false;
        for f in fields {
            own |= f.max.is_some() || f.ty.has_element_max() || f.quantize.is_some();
            let mut parts = Vec::new();
            f.ty.named_parts(&mut parts);
            for t in parts {
                match ir.ty(t).kind {
                    TypeKind::Message { .. } | TypeKind::Union { .. } => own = true,
                    TypeKind::Struct { .. } => users[t.0].push(TypeId(i)),
                    TypeKind::Enum { .. } => {}
                }
            }
        }
        if own {
            work.push(TypeId(i));
        }
    }
    let mut out = std::collections::BTreeSet::new();
    while let Some(t) = work.pop() {
        if out.insert(t) {
            work.extend(users[t.0].iter().copied());
        }
    }
    out
}

/// Which declared types are plain structs: memory is the wire layout on
/// little-endian targets, so they implement `pkt_runtime::plain::Plain` and
/// lists of them are copied in bulk. A struct is plain when its fields are
/// numbers other than `bool`, arrays of them or plain structs, and their
/// wire sizes laid out in declaration order with the alignments of the
/// decoded-size model (natural alignment: the layout of `#[repr(C)]`) leave
/// no padding, so its size is the wire size.
/// `pkt_runtime::plain!` checks the same at compile time.
///
/// Computed once for all types with an explicit stack, since structs nest
/// arbitrarily deep (a chain of 100,000 structs is a valid schema).
pub(super) fn plain_structs(ir: &Ir) -> Vec<bool> {
    /// The declared type inside `ty` through arrays; `Err` when `ty` can
    /// never be plain.
    fn named(ty: &Type) -> Result<Option<TypeId>, ()> {
        match ty {
            Type::Prim(Prim::Bool) => Err(()),
            Type::Prim(_) => Ok(None),
            Type::Array(t, _) => named(t),
            Type::Named(r) => Ok(Some(r.id)),
            _ => Err(()),
        }
    }
    /// Whether the struct could be plain if its named fields are, and those
    /// fields' types.
    fn candidate(ir: &Ir, id: TypeId) -> Option<Vec<TypeId>> {
        let def = ir.ty(id);
        let TypeKind::Struct { fields } = &def.kind else {
            return None;
        };
        let size = def.layout.fixed_size().filter(|&s| s > 0)?;
        let laid_out = Memory::sequence(fields.iter().map(|f| Memory {
            size: u64::from(ir.layout(&f.ty).min_size()),
            align: ir.memory(&f.ty).align,
        }));
        if u64::from(size) != laid_out.size {
            return None;
        }
        let mut deps = Vec::new();
        for f in fields {
            // A quantized float's memory is not its encoding.
            if f.cyclic || f.quantize.is_some() {
                return None;
            }
            deps.extend(named(&f.ty).ok()?);
        }
        Some(deps)
    }
    struct_closure(ir, candidate)
}

/// The size of each fixed-size declared type as Rust lays it out (fields in
/// declaration order, natural alignment; an enum twice its base): the
/// decoded-size model without what C# adds (arrays are objects there), for
/// what the generated Rust keeps inline. 0 for the other types.
///
/// Computed once, inner structs first, with an explicit stack: structs nest
/// as deep as the schema declares them.
pub(super) fn fixed_sizes(ir: &Ir) -> Vec<u64> {
    fn inner(ty: &Type) -> Option<TypeId> {
        match ty {
            Type::Named(r) => Some(r.id),
            Type::Array(t, _) => inner(t),
            _ => None,
        }
    }
    fn layout(ir: &Ir, ty: &Type, out: &[Option<Memory>]) -> Memory {
        match ty {
            Type::Array(t, n) => {
                let m = layout(ir, t, out);
                Memory {
                    size: m.size.saturating_mul(u64::from(*n)),
                    align: m.align,
                }
            }
            Type::Named(r) => out[r.id.0].unwrap_or(Memory::EMPTY),
            _ => ir.memory(ty),
        }
    }
    let n = ir.types.len();
    let mut out: Vec<Option<Memory>> = vec![None; n];
    for root in 0..n {
        let mut stack = vec![TypeId(root)];
        while let Some(&id) = stack.last() {
            if out[id.0].is_some() {
                stack.pop();
                continue;
            }
            let def = ir.ty(id);
            let fields = match &def.kind {
                TypeKind::Struct { fields } if def.layout.is_fixed() => fields,
                TypeKind::Enum { .. } => {
                    out[id.0] = Some(def.memory);
                    stack.pop();
                    continue;
                }
                _ => {
                    out[id.0] = Some(Memory::EMPTY);
                    stack.pop();
                    continue;
                }
            };
            if let Some(next) = fields
                .iter()
                .filter_map(|f| inner(&f.ty))
                .find(|t| out[t.0].is_none())
            {
                stack.push(next);
                continue;
            }
            out[id.0] = Some(Memory::sequence(
                fields.iter().map(|f| layout(ir, &f.ty, &out)),
            ));
            stack.pop();
        }
    }
    out.into_iter().map(|m| m.map_or(0, |m| m.size)).collect()
}

/// Which declared types are total structs: every string of their size is a
/// valid value, so they are read without a `Result`
/// (`FixedSize::TOTAL`). A struct is total when it has fields and they are
/// numbers other than `bool`, enums (an unnamed number is `Unknown`), arrays
/// of them or total structs.
pub(super) fn total_structs(ir: &Ir) -> Vec<bool> {
    /// The struct inside `ty` through arrays; `Err` when `ty` can be
    /// invalid.
    fn named(ir: &Ir, ty: &Type) -> Result<Option<TypeId>, ()> {
        match ty {
            Type::Prim(Prim::Bool) => Err(()),
            Type::Prim(_) => Ok(None),
            Type::Array(t, _) => named(ir, t),
            Type::Named(r) => match ir.ty(r.id).kind {
                TypeKind::Enum { .. } => Ok(None),
                TypeKind::Struct { .. } => Ok(Some(r.id)),
                _ => Err(()),
            },
            _ => Err(()),
        }
    }
    fn candidate(ir: &Ir, id: TypeId) -> Option<Vec<TypeId>> {
        let TypeKind::Struct { fields } = &ir.ty(id).kind else {
            return None;
        };
        if fields.is_empty() || !ir.ty(id).layout.is_fixed() {
            return None;
        }
        let mut deps = Vec::new();
        for f in fields {
            // A quantized float's stored integer may exceed its steps.
            if f.quantize.is_some() {
                return None;
            }
            deps.extend(named(ir, &f.ty).ok()?);
        }
        Some(deps)
    }
    struct_closure(ir, candidate)
}

/// For every declared type, whether `candidate` accepts it (returning the
/// types it depends on) and all its dependencies are accepted too; a cycle
/// is not. An explicit stack, since structs nest arbitrarily deep.
fn struct_closure(ir: &Ir, candidate: fn(&Ir, TypeId) -> Option<Vec<TypeId>>) -> Vec<bool> {
    let n = ir.types.len();
    let mut ok: Vec<Option<bool>> = vec![None; n];
    let mut on_stack = vec![false; n];
    for root in 0..n {
        let mut stack = vec![root];
        while let Some(&id) = stack.last() {
            if ok[id].is_some() {
                stack.pop();
                continue;
            }
            on_stack[id] = true;
            let Some(deps) = candidate(ir, TypeId(id)) else {
                ok[id] = Some(false);
                on_stack[id] = false;
                stack.pop();
                continue;
            };
            if let Some(next) = deps.iter().find(|d| ok[d.0].is_none() && !on_stack[d.0]) {
                stack.push(next.0);
                continue;
            }
            ok[id] = Some(deps.iter().all(|d| ok[d.0] == Some(true)));
            on_stack[id] = false;
            stack.pop();
        }
    }
    ok.into_iter().map(|p| p == Some(true)).collect()
}
