//! How deep types and values nest, against two limits outside the schema:
//!
//! - rustc lays out a type by laying out every type it holds inline, and
//!   gives up at its recursion limit (128 by default; a generated file is
//!   included in a module of the user's crate, so it cannot raise the
//!   crate's limit). A chain of 128 structs each holding the next fails
//!   with "reached the recursion limit finding the struct tail"; 127
//!   compile. [`MAX_RUST_NESTING`] bounds the Rust types nested in one
//!   another: each struct, message, union and enum, each array and each
//!   optional is a level; a list, a map or a boxed (recursive) field holds
//!   its values behind a pointer and starts again.
//! - Every message and union is a level of the depth the runtimes allow
//!   (`max_depth`, 64 by default: docs/security.md, "Bounded stack"); structs
//!   are none. A value must hold what its type holds always: every field of
//!   a message or struct, every element of an array, the first variant of a
//!   union (its default), but nothing of an optional, list or map, which may
//!   be empty. A type whose smallest value nests deeper than
//!   [`MAX_DEPTH`] levels has no value any encoder writes or any decoder
//!   accepts, so it is refused.
//!
//! Each measure is computed once per type, in an order where the types a
//! type holds inline come first (they form a DAG once boxed fields are left
//! out), with an explicit stack: declarations may chain far deeper than the
//! thread's stack would allow recursion. Each limit is reported where it is
//! crossed: at a type over it whose inline parts are within it, so a chain
//! of 10,000 structs gets one error, not 9,873.

use crate::diag::Diagnostic;
use crate::ir::*;

/// The most Rust types one type may nest inline, itself included: rustc's
/// default `recursion_limit` (128) less one (found by experiment: chains of
/// 127 structs, 127 messages, 63 structs each holding an array of the next
/// and 63 messages each holding an optional of the next compile with
/// `cargo check`; 128 structs do not).
pub const MAX_RUST_NESTING: u32 = 127;

/// The nesting depth every runtime accepts by default
/// (`pkt_runtime::Limits::DEFAULT.max_depth`, `PktLimits` in C# and
/// TypeScript): messages and unions count a level each, the top one
/// included.
pub const MAX_DEPTH: u32 = 64;

pub fn check(ir: &Ir) -> Vec<Diagnostic> {
    let n = ir.types.len();
    let mut nesting = vec![0u32; n];
    let mut levels = vec![0u32; n];
    for id in inline_order(ir) {
        let def = &ir.types[id];
        nesting[id] = match &def.kind {
            TypeKind::Enum { .. } => 1,
            _ => {
                1 + members(def)
                    .filter(|m| !m.cyclic)
                    .map(|m| rust_nesting(m.ty, &nesting))
                    .max()
                    .unwrap_or(0)
            }
        };
        levels[id] = match &def.kind {
            TypeKind::Enum { .. } => 0,
            TypeKind::Struct { fields } => fields
                .iter()
                .map(|f| min_levels(&f.ty, &levels))
                .max()
                .unwrap_or(0),
            TypeKind::Message { fields, .. } => {
                1 + fields
                    .iter()
                    .map(|f| min_levels(&f.ty, &levels))
                    .max()
                    .unwrap_or(0)
            }
            TypeKind::Union { variants, .. } => {
                1 + variants.first().map_or(0, |v| min_levels(&v.ty, &levels))
            }
        };
    }

    let mut diags = Vec::new();
    for (id, def) in ir.types.iter().enumerate() {
        if nesting[id] > MAX_RUST_NESTING {
            let deepest = members(def)
                .filter(|m| !m.cyclic)
                .max_by_key(|m| rust_nesting(m.ty, &nesting));
            if let Some(m) = deepest.filter(|m| rust_nesting(m.ty, &nesting) <= MAX_RUST_NESTING) {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "{} `{}` nests {} types deep in generated Rust, more than the {} rustc lays out",
                            def.kind.keyword(),
                            def.name,
                            nesting[id],
                            MAX_RUST_NESTING
                        ),
                        def.span,
                        "too deep",
                    )
                    .with_label(
                        m.span,
                        format!(
                            "`{}` (`{}`) nests {} deep, held inline",
                            m.name,
                            m.ty,
                            rust_nesting(m.ty, &nesting)
                        ),
                    )
                    .with_note(format!(
                        "rustc stops at its recursion limit (128) when it lays out types held \
                         inside one another; each struct, message, union, enum, array and \
                         optional is a level, and a list or map starts again (the limit is \
                         {MAX_RUST_NESTING})"
                    ))
                    .with_help(
                        "hold one type of the chain in a `list<T>`, or nest fewer types inside \
                         one another",
                    ),
                );
            }
        }
        if levels[id] > MAX_DEPTH {
            let deepest = always_held(def).max_by_key(|m| min_levels(m.ty, &levels));
            if let Some(m) = deepest.filter(|m| min_levels(m.ty, &levels) <= MAX_DEPTH) {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "every value of {} `{}` nests {} messages and unions deep, more than \
                             the {} levels decoders and encoders accept",
                            def.kind.keyword(),
                            def.name,
                            levels[id],
                            MAX_DEPTH
                        ),
                        def.span,
                        "too deep",
                    )
                    .with_label(
                        m.span,
                        format!(
                            "{} `{}` (`{}`), {} levels deep at the least",
                            if matches!(def.kind, TypeKind::Union { .. }) {
                                "defaults to"
                            } else {
                                "always holds"
                            },
                            m.name,
                            m.ty,
                            min_levels(m.ty, &levels)
                        ),
                    )
                    .with_note(format!(
                        "each message and union is a level of the nesting depth (`max_depth`, \
                         {MAX_DEPTH} by default), so no value of this type can be encoded \
                         (`DepthExceeded`), though a short body decodes to one"
                    ))
                    .with_help(
                        "make a field of the chain optional (`T?`) or a `list<T>`, so that a \
                         value can end sooner",
                    ),
                );
            }
        }
    }
    diags
}

/// A field or variant, as far as nesting is concerned.
struct Member<'a> {
    name: &'a str,
    ty: &'a Type,
    cyclic: bool,
    span: crate::diag::Span,
}

fn members(def: &TypeDef) -> Box<dyn Iterator<Item = Member<'_>> + '_> {
    match &def.kind {
        TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
            Box::new(fields.iter().map(|f| Member {
                name: &f.name,
                ty: &f.ty,
                cyclic: f.cyclic,
                span: f.span,
            }))
        }
        TypeKind::Union { variants, .. } => Box::new(variants.iter().map(|v| Member {
            name: &v.name,
            ty: &v.ty,
            cyclic: v.cyclic,
            span: v.span,
        })),
        TypeKind::Enum { .. } => Box::new(std::iter::empty()),
    }
}

/// The members every value of `def` holds: every field, or a union's
/// first variant (its default).
fn always_held(def: &TypeDef) -> Box<dyn Iterator<Item = Member<'_>> + '_> {
    match &def.kind {
        TypeKind::Union { .. } => Box::new(members(def).take(1)),
        _ => members(def),
    }
}

/// The Rust types `ty` nests inline, with `nesting` known for the declared
/// types it holds.
fn rust_nesting(ty: &Type, nesting: &[u32]) -> u32 {
    match ty {
        Type::Named(r) => nesting[r.id.0],
        Type::Array(elem, _) => rust_nesting(&elem.ty, nesting).saturating_add(1),
        Type::Optional(inner) => rust_nesting(inner, nesting).saturating_add(1),
        Type::Prim(_) | Type::String | Type::Bytes | Type::List(_) | Type::Map(..) => 0,
    }
}

/// The levels the smallest value of `ty` nests, with `levels` known for the
/// declared types it holds.
fn min_levels(ty: &Type, levels: &[u32]) -> u32 {
    match ty {
        Type::Named(r) => levels[r.id.0],
        // Arrays have at least one element.
        Type::Array(elem, _) => min_levels(&elem.ty, levels),
        Type::Prim(_)
        | Type::String
        | Type::Bytes
        | Type::List(_)
        | Type::Map(..)
        | Type::Optional(_) => 0,
    }
}

/// Every type, each after the types it holds inline (boxed members left
/// out), by a depth-first walk with an explicit stack.
fn inline_order(ir: &Ir) -> Vec<usize> {
    let n = ir.types.len();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        // (type, whether its dependencies have been pushed)
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if done[id] {
                continue;
            }
            if expanded {
                done[id] = true;
                order.push(id);
                continue;
            }
            stack.push((id, true));
            for dep in super::memory::inline_dependencies(&ir.types[id].kind) {
                if !done[dep.0] {
                    stack.push((dep.0, false));
                }
            }
        }
    }
    order
}
