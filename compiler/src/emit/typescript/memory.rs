//! The decoded-size model ([`crate::ir::Memory`]) as the TypeScript code
//! states it, by the rule of the C# backend's `PktMemory` constants: every
//! struct, message and union's companion has a `memory` property, a number
//! when the type's model depends only on its own file and on frozen
//! (fixed-size) types, else an expression naming the `memory` of the types
//! it holds (alignments, which rarely change, as numbers). Code charging
//! the model of a type names its `memory`, so a change to one schema file
//! changes no number in the generated code of another.

use crate::emit::model::Models;
use crate::ir::{round_up, FileIndex, Ir, Memory, Type, TypeId, TypeKind};

/// A model as a TypeScript `number` expression.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum MemoryExpr {
    Literal(u64),
    Expr(String),
}

impl MemoryExpr {
    pub(super) fn add(self, other: MemoryExpr) -> MemoryExpr {
        match (self, other) {
            (MemoryExpr::Literal(a), MemoryExpr::Literal(b)) => {
                MemoryExpr::Literal(a.saturating_add(b))
            }
            (MemoryExpr::Literal(0), e) | (e, MemoryExpr::Literal(0)) => e,
            (a, b) => MemoryExpr::Expr(format!("{a} + {b}")),
        }
    }

    fn times(self, n: u64) -> MemoryExpr {
        match self {
            MemoryExpr::Literal(a) => MemoryExpr::Literal(a.saturating_mul(n)),
            MemoryExpr::Expr(e) if e.contains(' ') => MemoryExpr::Expr(format!("({e}) * {n}")),
            MemoryExpr::Expr(e) => MemoryExpr::Expr(format!("{e} * {n}")),
        }
    }

    /// `self` rounded up to a multiple of `align`, given that it is already
    /// a multiple of `known`.
    fn round_up(self, align: u64, known: u64) -> MemoryExpr {
        match self {
            MemoryExpr::Literal(n) => MemoryExpr::Literal(round_up(n, align as u32)),
            e if align <= known => e,
            MemoryExpr::Expr(e) => {
                MemoryExpr::Expr(format!("globalThis.Math.ceil(({e}) / {align}) * {align}"))
            }
        }
    }
}

impl std::fmt::Display for MemoryExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Models are at most a few times the 64 KiB value bound; a
            // saturated one stays above any budget as a double.
            MemoryExpr::Literal(n) => write!(f, "{n}"),
            MemoryExpr::Expr(e) => f.write_str(e),
        }
    }
}

/// A type's `memory` property and the comment of its parts.
#[derive(Clone, Debug)]
pub(super) struct MemoryConst {
    pub value: MemoryExpr,
    pub parts: String,
}

fn alignment_of(n: u64) -> u64 {
    if n == 0 {
        8
    } else {
        (1u64 << n.trailing_zeros()).min(8)
    }
}

/// Where [`inline`] writes a model: where it is charged, or inside the sum
/// of a type declared in `file` (numbers for what cannot change while
/// `file` does not).
#[derive(Clone, Copy)]
pub(super) enum Within<'a> {
    Charge,
    Sum { file: FileIndex, models: &'a Models },
}

/// The model of a value of type `ty` stored inline (a pointer when boxed),
/// `name` writing a declared type's `memory` property.
pub(super) fn inline(
    ir: &Ir,
    name: &dyn Fn(TypeId) -> String,
    ty: &Type,
    boxed: bool,
    within: Within<'_>,
) -> MemoryExpr {
    if boxed {
        return MemoryExpr::Literal(Memory::POINTER.size);
    }
    let literal = || MemoryExpr::Literal(ir.memory(ty).size);
    match ty {
        Type::Named(r) => {
            let def = ir.ty(r.id);
            let number = match within {
                Within::Charge => def.layout.is_fixed(),
                Within::Sum { file, models } => models.numbers_stay(ir, file, &[r.id]),
            };
            if number || matches!(def.kind, TypeKind::Enum { .. }) {
                literal()
            } else {
                MemoryExpr::Expr(format!("{}.memory", name(r.id)))
            }
        }
        Type::Optional(t) => match inline(ir, name, t, false, within) {
            MemoryExpr::Literal(_) => literal(),
            e => e.add(MemoryExpr::Literal(u64::from(ir.memory(t).align))),
        },
        Type::Array(t, n) => match inline(ir, name, t, false, within) {
            MemoryExpr::Literal(_) => literal(),
            e => e
                .times(u64::from(*n))
                .add(MemoryExpr::Literal(Memory::ARRAY)),
        },
        _ => literal(),
    }
}

/// The `memory` property of a struct, message or union.
pub(super) fn constant(
    ir: &Ir,
    models: &Models,
    name: &dyn Fn(TypeId) -> String,
    field_name: &dyn Fn(&str) -> String,
    id: TypeId,
) -> MemoryConst {
    let def = ir.ty(id);
    let within = Within::Sum {
        file: def.file,
        models,
    };
    match &def.kind {
        TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
            let unknown = matches!(
                def.kind,
                TypeKind::Message {
                    preserve_unknown: true,
                    ..
                }
            );
            let mut parts = Vec::new();
            for f in fields {
                let expr = inline(ir, name, &f.ty, f.cyclic, within);
                parts.push((field_name(&f.name), expr, ir.slot_memory(&f.ty, f.cyclic)));
            }
            if unknown {
                let handle = Memory::HANDLE;
                parts.push((
                    "unknown fields".to_string(),
                    MemoryExpr::Literal(handle.size),
                    handle,
                ));
            }
            let object = !(matches!(def.kind, TypeKind::Struct { .. }) && def.layout.is_fixed());
            record(&parts, def.memory, object)
        }
        TypeKind::Union { tag, variants, .. } => {
            let unknown = Memory::sequence([Memory::scalar(tag.size()), Memory::HANDLE]);
            let mut largest: (String, u64) = ("Unknown".to_string(), unknown.size);
            let mut largest_tag = None;
            let mut named = Vec::new();
            for v in variants {
                match inline(ir, name, &v.ty, v.cyclic, within) {
                    MemoryExpr::Literal(n)
                        if n > largest.1
                            || (n == largest.1 && largest_tag.is_some_and(|t| v.tag < t)) =>
                    {
                        largest = (v.name.clone(), n);
                        largest_tag = Some(v.tag);
                    }
                    MemoryExpr::Literal(_) => {}
                    e => named.push(e.to_string()),
                }
            }
            let discriminant = u64::from(def.memory.align);
            if named.is_empty() {
                let (variant, size) = largest;
                return MemoryConst {
                    value: MemoryExpr::Literal(def.memory.size),
                    parts: format!(
                        "{size} {variant}, the largest variant, + {} for the discriminant + {} for the object",
                        def.memory
                            .size
                            .saturating_sub(size)
                            .saturating_sub(Memory::OBJECT),
                        Memory::OBJECT
                    ),
                };
            }
            let payload = MemoryExpr::Expr(format!(
                "globalThis.Math.max({}, {})",
                largest.1,
                named.join(", ")
            ))
            .round_up(discriminant, 1);
            MemoryConst {
                value: payload.add(MemoryExpr::Literal(discriminant + Memory::OBJECT)),
                parts: format!(
                    "the largest variant, at least {} {}, rounded up to {discriminant}, + {discriminant} for the discriminant + {} for the object",
                    largest.1, largest.0, Memory::OBJECT
                ),
            }
        }
        TypeKind::Enum { .. } => MemoryConst {
            value: MemoryExpr::Literal(def.memory.size),
            parts: String::new(),
        },
    }
}

/// A struct's or message's model from its fields' (name, expression,
/// model), as `memory.rs` of the C# backend sums it.
fn record(parts: &[(String, MemoryExpr, Memory)], whole: Memory, object: bool) -> MemoryConst {
    let mut at = MemoryExpr::Literal(0);
    let mut known = 8;
    let mut terms = Vec::new();
    for (name, expr, m) in parts {
        let align = u64::from(m.align);
        let start = at.clone().round_up(align, known);
        if let (MemoryExpr::Literal(a), MemoryExpr::Literal(s)) = (&at, &start) {
            if s > a {
                terms.push(format!("{} padding", s - a));
            }
        }
        known = match expr {
            MemoryExpr::Literal(n) => {
                terms.push(format!("{n} {name}"));
                known.max(align).min(alignment_of(*n))
            }
            MemoryExpr::Expr(_) => {
                terms.push(name.clone());
                align
            }
        };
        at = start.add(expr.clone());
        if let MemoryExpr::Literal(n) = at {
            known = alignment_of(n);
        }
    }
    let end = at.clone().round_up(u64::from(whole.align), known);
    if let (MemoryExpr::Literal(a), MemoryExpr::Literal(s)) = (&at, &end) {
        if s > a {
            terms.push(format!("{} padding", s - a));
        }
    }
    let end = match end {
        end if object => {
            terms.push(format!("{} for the object", Memory::OBJECT));
            end.add(MemoryExpr::Literal(Memory::OBJECT))
        }
        MemoryExpr::Literal(0) => {
            terms.push("1 for an empty struct".to_string());
            MemoryExpr::Literal(1)
        }
        end => end,
    };
    if let MemoryExpr::Literal(n) = end {
        debug_assert_eq!(n, whole.size, "the TypeScript sum follows the model");
    }
    MemoryConst {
        value: end,
        parts: terms.join(" + "),
    }
}
