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
//! - rustc's drop check follows what a type holds through pointers too:
//!   the values of a `Vec`, an `Option`, a `Box` and a `BTreeMap` are
//!   each a step deeper, a map's two (its nodes hold `(K, V)` behind a
//!   box), and it gives up past its recursion limit (E0320, "overflow while
//!   adding drop-check rules"). Structs held inline add no step. A chain of
//!   63 structs each holding a `map<u8, Next>` overflows where the
//!   generated code or its serde derives hold the head in a `Vec` or an
//!   `Option` (62 compile), and so does a chain of 128 through
//!   `list<Next>` (127 compile). [`MAX_DROP_NESTING`] bounds these steps,
//!   counted through lists, maps, optionals, arrays, boxes and strings;
//!   a recursive type is a cycle rustc walks once, so the steps around a
//!   cycle count once each.
//! - A `@delta` type's patch (what a delta is read into before it is
//!   applied) is a tuple of an `Option` a field: the field's value, or the
//!   patch of a `@delta` field, held inline. rustc lays the patches out
//!   inside one another too, and gives up at its query depth limit (128,
//!   "queries overflow the depth limit!" or E0275): a chain of `@delta`
//!   types nests two levels a type, so that chains of 64 overflow where
//!   their types alone nest 64. [`MAX_PATCH_NESTING`] bounds the levels of
//!   a patch ([`patch_nesting`]).
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

/// The most drop-check steps ([`drop_nesting`]) one type may take, found
/// by experiment (generated Rust built with and without serde derives, with
/// `cargo check` and `cargo test`): 127 structs or messages each holding a
/// `list<Next>` (127 steps) and 62 each holding a `map<u8, Next>` (126
/// steps) compile; 128 and 63 (128 steps) overflow rustc's drop check.
pub const MAX_DROP_NESTING: u32 = 127;

/// The most levels a `@delta` type's patch may nest ([`patch_nesting`]),
/// found by experiment (generated Rust built with and without serde
/// derives): chains of `@delta` structs or messages each holding the next,
/// the last holding a chain of plain structs, compile at 127 levels (63
/// `@delta` types and one struct, 62 and three, 55 and 17, 40 and 47) and
/// fail at 128 (63 and two, 62 and four, 60 and eight, 50 and 28: "queries
/// overflow the depth limit!" when rustc lays the patch out).
pub const MAX_PATCH_NESTING: u32 = 127;

/// The nesting depth every runtime accepts by default
/// (`pkt_runtime::Limits::DEFAULT.max_depth`, `PktLimits` in C# and
/// TypeScript): messages and unions count a level each, the top one
/// included.
pub const MAX_DEPTH: u32 = pkt_runtime::Limits::DEFAULT.max_depth;

pub fn check(ir: &Ir) -> Vec<Diagnostic> {
    let n = ir.types.len();
    let mut nesting = vec![0u32; n];
    let mut levels = vec![0u32; n];
    let mut patches = vec![0u32; n];
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
        if crate::delta::is_delta(ir, TypeId(id)) {
            patches[id] = 1 + def
                .kind
                .fields()
                .iter()
                .map(|f| patch_member_nesting(ir, f, &nesting, &patches))
                .max()
                .unwrap_or(0);
        }
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
    let drops = drop_nesting(ir);
    for (id, def) in ir.types.iter().enumerate() {
        let DropSteps { steps, reported } = drops[id];
        if steps > MAX_DROP_NESTING && reported {
            let deepest = members(def)
                .map(|m| (drop_steps(m.ty, m.cyclic, &|t| drops[t].steps), m))
                .max_by_key(|(w, _)| *w);
            let mut diag = Diagnostic::error(
                format!(
                    "{} `{}` nests {} drop-check steps deep in generated Rust, more than the {} \
                     rustc follows",
                    def.kind.keyword(),
                    def.name,
                    steps,
                    MAX_DROP_NESTING
                ),
                def.span,
                "too deep",
            );
            if let Some((w, m)) = deepest {
                diag = diag.with_label(
                    m.span,
                    format!("`{}` (`{}`) nests {} steps deep", m.name, m.ty, w),
                );
            }
            diags.push(
                diag.with_note(format!(
                    "rustc's drop check follows the values that lists, maps and optionals hold \
                     and stops at its recursion limit (128, error E0320); a list, an optional, \
                     an array, a string and a recursive field are a step each, a map two (and \
                     at least four), a type held inline none (the limit is {MAX_DROP_NESTING})"
                ))
                .with_help(
                    "nest fewer maps and lists inside one another, or hold the values of one \
                     type of the chain in a `list<T>` rather than a map",
                ),
            );
        }
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
        if patches[id] > MAX_PATCH_NESTING {
            let fields = def.kind.fields();
            let deepest = fields
                .iter()
                .max_by_key(|f| patch_member_nesting(ir, f, &nesting, &patches));
            if let Some(f) = deepest
                .filter(|f| patch_member_nesting(ir, f, &nesting, &patches) <= MAX_PATCH_NESTING)
            {
                let part = patch_member_nesting(ir, f, &nesting, &patches);
                let what = match crate::delta::field_delta(ir, f) {
                    crate::delta::FieldDelta::Nested(_) => "its patch",
                    crate::delta::FieldDelta::Map { .. } => "its map patch",
                    crate::delta::FieldDelta::Whole => "its value",
                };
                diags.push(
                    Diagnostic::error(
                        format!(
                            "the patch of @delta {} `{}` nests {} types deep in generated Rust, \
                             more than the {} rustc lays out",
                            def.kind.keyword(),
                            def.name,
                            patches[id],
                            MAX_PATCH_NESTING
                        ),
                        def.span,
                        "too deep",
                    )
                    .with_label(
                        f.span,
                        format!(
                            "`{}` (`{}`): {what} in an `Option`, {part} deep",
                            f.name, f.ty
                        ),
                    )
                    .with_note(format!(
                        "a delta is read into a patch before it is applied: a tuple of an \
                         `Option` for each field, holding the field's value or, for a `@delta` \
                         field, its patch, inline; rustc stops at its query depth limit (128) \
                         when it lays out patches held inside one another, and each `@delta` \
                         type of a chain is two levels (the limit is {MAX_PATCH_NESTING})"
                    ))
                    .with_help(
                        "declare fewer types of the chain `@delta` (a field whose type is not \
                         `@delta` changes whole), or hold one type of the chain in a `list<T>`",
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

/// The levels the patch of field `f` of a `@delta` type nests, with
/// `nesting` and `patches` known for the types it holds inline: the
/// `Option` around its change, and the change: the patch of a `@delta`
/// type, a map patch (a struct of vectors and a map, whose contents lie
/// behind pointers), or the field's value (a `Box` when boxed).
fn patch_member_nesting(ir: &Ir, f: &Field, nesting: &[u32], patches: &[u32]) -> u32 {
    let change = match crate::delta::field_delta(ir, f) {
        crate::delta::FieldDelta::Nested(id) => patches[id.0],
        crate::delta::FieldDelta::Map { .. } => 1,
        crate::delta::FieldDelta::Whole if f.cyclic => 1,
        crate::delta::FieldDelta::Whole => rust_nesting(&f.ty, nesting),
    };
    change.saturating_add(1)
}

/// A type's drop-check steps.
#[derive(Clone, Copy, Default)]
struct DropSteps {
    /// The steps rustc's drop check may take from the type (the same for
    /// every type of a cycle): see [`drop_steps`].
    steps: u32,
    /// Whether an error over the limit is reported at this type: its parts
    /// are within the limit, and it is the first type of its cycle.
    reported: bool,
}

/// The steps rustc's drop check may take from each type (see the module
/// docs): the most, over the paths from it, of the steps each part on the
/// path adds ([`drop_steps`]). Types are taken a cycle at a time (Tarjan's
/// components over every type a type holds, however), each after the types
/// it reaches: rustc walks each type once, so a path goes around a cycle at
/// most once, and its steps are bounded by the sum of the steps of each
/// type's costliest way back into the cycle plus the costliest way out.
fn drop_nesting(ir: &Ir) -> Vec<DropSteps> {
    let n = ir.types.len();
    let edges: Vec<Vec<TypeId>> = ir
        .types
        .iter()
        .map(|def| {
            let mut out = Vec::new();
            for m in members(def) {
                named_parts(m.ty, &mut out);
            }
            out
        })
        .collect();
    let comp = super::layout::tarjan(n, &edges);
    let comps = comp.iter().copied().max().map_or(0, |c| c + 1);
    let mut by_comp: Vec<Vec<usize>> = vec![Vec::new(); comps];
    for (id, &c) in comp.iter().enumerate() {
        by_comp[c].push(id);
    }
    let mut result = vec![DropSteps::default(); n];
    // Tarjan numbers a component after every component it reaches.
    for (c, ids) in by_comp.iter().enumerate() {
        let outside = |t: usize| {
            if comp[t] == c {
                0
            } else {
                result[t].steps
            }
        };
        let (mut around, mut out, mut parts_over) = (0u32, 0u32, false);
        for &id in ids {
            let mut back: Option<u32> = None;
            for m in members(&ir.types[id]) {
                out = out.max(drop_steps(m.ty, m.cyclic, &outside));
                if let Some(b) = steps_back(m.ty, m.cyclic, &|t| comp[t] == c) {
                    back = Some(back.map_or(b, |x| x.max(b)));
                }
                let mut parts = Vec::new();
                named_parts(m.ty, &mut parts);
                parts_over |= parts
                    .iter()
                    .any(|t| comp[t.0] != c && result[t.0].steps > MAX_DROP_NESTING);
            }
            around = around.saturating_add(back.unwrap_or(0));
        }
        let steps = around.saturating_add(out);
        for (k, &id) in ids.iter().enumerate() {
            result[id] = DropSteps {
                steps,
                reported: k == 0 && !parts_over,
            };
        }
    }
    result
}

/// The declared types `ty` names, however deep.
fn named_parts(ty: &Type, out: &mut Vec<TypeId>) {
    match ty {
        Type::Named(r) => out.push(r.id),
        Type::List(e) | Type::Array(e, _) => named_parts(&e.ty, out),
        Type::Optional(t) => named_parts(t, out),
        Type::Map(k, v) => {
            named_parts(&k.ty, out);
            named_parts(&v.ty, out);
        }
        Type::Prim(_) | Type::String | Type::Bytes => {}
    }
}

/// The drop-check steps from a type to the deepest part of its member of
/// type `ty` (boxed if `cyclic`), with `steps` known for the declared types
/// it names: a `Vec`, an `Option`, an array, a `Box` and a string's bytes
/// are a step each; a `BTreeMap<K, V>` two to its keys and values, and four
/// at the least (its nodes' markers, and `(K, V)`, lie that deep); a
/// declared type held inline none (rustc merges its parts' rules).
fn drop_steps(ty: &Type, cyclic: bool, steps: &dyn Fn(usize) -> u32) -> u32 {
    fn inner(ty: &Type, steps: &dyn Fn(usize) -> u32) -> u32 {
        match ty {
            Type::Prim(_) => 0,
            Type::String | Type::Bytes => 1,
            Type::Named(r) => steps(r.id.0),
            Type::List(e) | Type::Array(e, _) => inner(&e.ty, steps).saturating_add(1),
            Type::Optional(t) => inner(t, steps).saturating_add(1),
            Type::Map(k, v) => inner(&k.ty, steps)
                .max(inner(&v.ty, steps))
                .saturating_add(2)
                .max(4),
        }
    }
    inner(ty, steps).saturating_add(u32::from(cyclic))
}

/// The steps from a member of type `ty` to the most distant type it names
/// that `back` holds (the member's way back into its cycle), if any.
fn steps_back(ty: &Type, cyclic: bool, back: &dyn Fn(usize) -> bool) -> Option<u32> {
    fn inner(ty: &Type, back: &dyn Fn(usize) -> bool) -> Option<u32> {
        match ty {
            Type::Prim(_) | Type::String | Type::Bytes => None,
            Type::Named(r) => back(r.id.0).then_some(0),
            Type::List(e) | Type::Array(e, _) => inner(&e.ty, back).map(|s| s + 1),
            Type::Optional(t) => inner(t, back).map(|s| s + 1),
            Type::Map(k, v) => match (inner(&k.ty, back), inner(&v.ty, back)) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).max(b.unwrap_or(0)) + 2),
            },
        }
    }
    inner(ty, back).map(|s| s + u32::from(cyclic))
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
