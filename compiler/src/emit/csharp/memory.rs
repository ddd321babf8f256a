//! The decoded-size model ([`crate::ir::Memory`]) as the C# code states
//! it. A struct, message or union has a `PktMemory` constant when its value
//! can be written so that it changes only with its own schema file: as a
//! sum that names the `PktMemory` constants of the types it holds (the
//! alignments, which rarely change, as numbers), for a union as the largest
//! of its payloads' constants (C# constants cannot call a function, so a
//! private class compares them one variant at a time), or as a number when
//! it depends on nothing outside its file but types that are frozen. Code
//! charging the model of such a type names its constant, so that a change
//! to one schema file changes no number in the generated code of another.
//! Any other type's model is written as a number where it is used.

use crate::emit::model::Models;
use crate::ir::{round_up, FileIndex, Ir, Memory, Type, TypeId, TypeKind};
use crate::names::NameKind;

use super::{field_name, qualified, NAMING};

/// A model as a C# `long` expression: a number, or a sum naming the
/// `PktMemory` constants of the types it is made of.
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

    pub(super) fn times(self, n: u64) -> MemoryExpr {
        match self {
            MemoryExpr::Literal(a) => MemoryExpr::Literal(a.saturating_mul(n)),
            MemoryExpr::Expr(e) if e.contains(' ') => MemoryExpr::Expr(format!("({e}) * {n}")),
            MemoryExpr::Expr(e) => MemoryExpr::Expr(format!("{e} * {n}")),
        }
    }

    /// `self` rounded up to a multiple of `align` (a power of two), given
    /// that it is already a multiple of `known`.
    fn round_up(self, align: u64, known: u64) -> MemoryExpr {
        match self {
            MemoryExpr::Literal(n) => MemoryExpr::Literal(round_up(n, align as u32)),
            e if align <= known => e,
            MemoryExpr::Expr(e) => {
                MemoryExpr::Expr(format!("({e} + {}) / {align} * {align}", align - 1))
            }
        }
    }
}

impl std::fmt::Display for MemoryExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Saturated at `long.MaxValue`.
            MemoryExpr::Literal(n) => write!(f, "{}L", (*n).min(i64::MAX as u64)),
            MemoryExpr::Expr(e) => f.write_str(e),
        }
    }
}

/// A type's `PktMemory` constant: its value, and a comment of its parts so
/// that a reviewer can check the sum.
#[derive(Clone, Debug)]
pub(super) struct MemoryConst {
    pub value: MemoryExpr,
    pub parts: String,
    /// For a union of other files' types, the largest payload among its
    /// first variants, per variant (named after it): C# constants cannot
    /// call a maximum function, and a conditional per variant over the
    /// previous one keeps the text linear.
    pub largest_so_far: Vec<(String, String)>,
}

/// The name of the private class holding a union's
/// [`MemoryConst::largest_so_far`].
pub const PARTS_CLASS: &str = "PktMemoryParts";

/// The largest power of two that divides `n` (a model size), at most 8,
/// the largest alignment; 8 for 0.
fn alignment_of(n: u64) -> u64 {
    if n == 0 {
        8
    } else {
        (1u64 << n.trailing_zeros()).min(8)
    }
}

/// Where [`inline`] writes a model: where it is charged (a declared type by
/// its constant, where it has one), or inside the sum of a type declared in
/// `file`, where the types whose number cannot change while `file` does not
/// ([`Models::numbers_stay`]) are numbers, so that the sum stays simple.
#[derive(Clone, Copy)]
pub(super) enum Within<'a> {
    Charge,
    Sum { file: FileIndex, models: &'a Models },
}

/// The model of a value of type `ty` stored inline (a pointer when boxed)
/// as C# writes it (see [`Within`]): naming the constants of `consts`, and
/// numbers for what it holds that has none; `None` when it holds a type
/// without a constant whose number may change with another file.
pub(super) fn inline(
    ir: &Ir,
    consts: &[Option<MemoryConst>],
    ty: &Type,
    boxed: bool,
    within: Within<'_>,
) -> Option<MemoryExpr> {
    if boxed {
        return Some(MemoryExpr::Literal(Memory::POINTER.size));
    }
    let literal = || MemoryExpr::Literal(ir.memory(ty).size);
    match ty {
        Type::Named(r) => {
            let def = ir.ty(r.id);
            let number = match within {
                Within::Charge => def.layout.is_fixed(),
                Within::Sum { file, models } => models.numbers_stay(ir, file, &[r.id]),
            };
            match &consts[r.id.0] {
                _ if number && !matches!(within, Within::Charge) => Some(literal()),
                Some(_) => Some(MemoryExpr::Expr(format!(
                    "{}.PktMemory",
                    qualified(ir, def)
                ))),
                None if number => Some(literal()),
                None => None,
            }
        }
        // The value's size is a multiple of its alignment, so the flag adds
        // one alignment unit.
        Type::Optional(t) => Some(match inline(ir, consts, t, false, within)? {
            MemoryExpr::Literal(_) => literal(),
            e => e.add(MemoryExpr::Literal(u64::from(ir.memory(t).align))),
        }),
        // The elements, and the C# array object.
        Type::Array(t, n) => Some(match inline(ir, consts, t, false, within)? {
            MemoryExpr::Literal(_) => literal(),
            e => e
                .times(u64::from(*n))
                .add(MemoryExpr::Literal(Memory::ARRAY)),
        }),
        _ => Some(literal()),
    }
}

/// The `PktMemory` constant of every struct, message and union that can
/// have one (see the module's documentation), computed with every type
/// after the types it holds inline.
pub(super) fn constants(ir: &Ir) -> Vec<Option<MemoryConst>> {
    let models = crate::emit::model::analyze(ir);
    let mut consts: Vec<Option<MemoryConst>> = vec![None; ir.types.len()];
    for &id in &models.order {
        consts[id.0] = constant(ir, &consts, &models, id);
    }
    consts
}

fn constant(
    ir: &Ir,
    consts: &[Option<MemoryConst>],
    models: &Models,
    id: TypeId,
) -> Option<MemoryConst> {
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
                let expr = inline(ir, consts, &f.ty, f.cyclic, within)?;
                parts.push((field_name(def, f), expr, ir.slot_memory(&f.ty, f.cyclic)));
            }
            if unknown {
                let handle = Memory::HANDLE;
                parts.push((
                    "UnknownFields".to_string(),
                    MemoryExpr::Literal(handle.size),
                    handle,
                ));
            }
            // A fixed-size struct is a C# struct, anything else an object.
            let object = !(matches!(def.kind, TypeKind::Struct { .. }) && def.layout.is_fixed());
            Some(record(&parts, def.memory, object))
        }
        TypeKind::Union { tag, variants, .. } => {
            let unknown = Memory::sequence([Memory::scalar(tag.size()), Memory::HANDLE]);
            let ident =
                |v: &crate::ir::Variant| NAMING.member_ident(NameKind::Variant, &v.name, def);
            // The largest payload whose model is a number here (the unknown
            // variant's at least; of equal ones, the lowest tag's), then
            // those naming another file's constants, in declaration order.
            let mut largest: (Option<&crate::ir::Variant>, u64) = (None, unknown.size);
            let mut named = Vec::new();
            for v in variants {
                match inline(ir, consts, &v.ty, v.cyclic, within)? {
                    MemoryExpr::Literal(n)
                        if n > largest.1
                            || (n == largest.1 && largest.0.is_some_and(|l| v.tag < l.tag)) =>
                    {
                        largest = (Some(v), n)
                    }
                    MemoryExpr::Literal(_) => {}
                    e => named.push((ident(v), e)),
                }
            }
            let largest = (largest.0.map_or("Unknown".to_string(), ident), largest.1);
            let discriminant = u64::from(def.memory.align);
            if named.is_empty() {
                let (name, size) = largest;
                return Some(MemoryConst {
                    value: MemoryExpr::Literal(def.memory.size),
                    parts: format!(
                        "{size} {name}, the largest variant, + {} for the discriminant + {} for the object",
                        def.memory
                            .size
                            .saturating_sub(size)
                            .saturating_sub(Memory::OBJECT),
                        Memory::OBJECT
                    ),
                    largest_so_far: Vec::new(),
                });
            }
            let mut previous = MemoryExpr::Literal(largest.1).to_string();
            let mut steps = Vec::new();
            for (name, e) in named {
                let e = match e.to_string() {
                    e if e.contains(' ') => format!("({e})"),
                    e => e,
                };
                steps.push((name.clone(), format!("{e} > {previous} ? {e} : {previous}")));
                previous = name;
            }
            let payload =
                MemoryExpr::Expr(format!("{PARTS_CLASS}.{previous}")).round_up(discriminant, 1);
            Some(MemoryConst {
                value: payload.add(MemoryExpr::Literal(discriminant + Memory::OBJECT)),
                parts: format!(
                    "the largest variant, at least {} {}, rounded up to {discriminant}, + {discriminant} for the discriminant + {} for the object",
                    largest.1, largest.0, Memory::OBJECT
                ),
                largest_so_far: steps,
            })
        }
        _ => None,
    }
}

/// A struct's or message's model from its fields' (name, C# expression,
/// model): each at its alignment, the whole rounded up to the largest, and
/// [`Memory::OBJECT`] for a C# `object`, or at least 1 byte for a C# struct.
/// Where the offset is a number, padding is shown in the comment; after a
/// named part, the rounding is in the expression.
fn record(parts: &[(String, MemoryExpr, Memory)], whole: Memory, object: bool) -> MemoryConst {
    let mut at = MemoryExpr::Literal(0);
    // What `at` is known to be a multiple of.
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
                known.max(align).min(align)
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
        // An empty C# struct takes a byte; a named part takes at least one.
        MemoryExpr::Literal(0) => {
            terms.push("1 for an empty struct".to_string());
            MemoryExpr::Literal(1)
        }
        end => end,
    };
    if let MemoryExpr::Literal(n) = end {
        debug_assert_eq!(n, whole.size, "the C# sum follows the model");
    }
    MemoryConst {
        value: end,
        parts: terms.join(" + "),
        largest_so_far: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(n: u64) -> MemoryExpr {
        MemoryExpr::Literal(n)
    }

    fn part(name: &str, expr: MemoryExpr, size: u64, align: u32) -> (String, MemoryExpr, Memory) {
        (name.to_string(), expr, Memory { size, align })
    }

    #[test]
    fn numbers_are_summed_with_their_padding() {
        let c = record(
            &[part("Id", lit(4), 4, 4), part("Name", lit(24), 24, 8)],
            Memory { size: 32, align: 8 },
            false,
        );
        assert_eq!(c.value, lit(32));
        assert_eq!(c.parts, "4 Id + 4 padding + 24 Name");
    }

    #[test]
    fn objects_add_their_header_and_empty_structs_take_a_byte() {
        let c = record(
            &[part("Id", lit(4), 4, 4)],
            Memory { size: 28, align: 4 },
            true,
        );
        assert_eq!(c.value, lit(28));
        assert_eq!(c.parts, "4 Id + 24 for the object");
        let c = record(&[], Memory { size: 24, align: 1 }, true);
        assert_eq!((c.value, c.parts.as_str()), (lit(24), "24 for the object"));
        let c = record(&[], Memory { size: 1, align: 1 }, false);
        assert_eq!(
            (c.value, c.parts.as_str()),
            (lit(1), "1 for an empty struct")
        );
        let item = MemoryExpr::Expr("global::X.Item.PktMemory".into());
        let c = record(
            &[part("It", item, 32, 8)],
            Memory { size: 56, align: 8 },
            true,
        );
        assert_eq!(
            c.value,
            MemoryExpr::Expr("global::X.Item.PktMemory + 24L".into())
        );
    }

    #[test]
    fn named_parts_are_summed_and_rounded_only_where_needed() {
        let item = MemoryExpr::Expr("global::X.Item.PktMemory".into());
        // Handles are multiples of 8, and so is an 8-aligned part.
        let c = record(
            &[
                part("Kids", lit(24), 24, 8),
                part("It", item.clone(), 32, 8),
                part("Count", lit(4), 4, 4),
            ],
            Memory { size: 64, align: 8 },
            false,
        );
        assert_eq!(
            c.value,
            MemoryExpr::Expr("(24L + global::X.Item.PktMemory + 4L + 7) / 8 * 8".into())
        );
        assert_eq!(c.parts, "24 Kids + It + 4 Count");
        // After a 4-byte part, an 8-aligned one is rounded up to.
        let c = record(
            &[
                part("Count", lit(4), 4, 4),
                part("It", item.clone(), 32, 8),
                part("More", item, 32, 8),
            ],
            Memory { size: 72, align: 8 },
            false,
        );
        assert_eq!(
            c.value,
            MemoryExpr::Expr("8L + global::X.Item.PktMemory + global::X.Item.PktMemory".into())
        );
    }

    #[test]
    fn alignment_of_a_number_is_its_largest_power_of_two_up_to_8() {
        assert_eq!(alignment_of(24), 8);
        assert_eq!(alignment_of(12), 4);
        assert_eq!(alignment_of(6), 2);
        assert_eq!(alignment_of(3), 1);
        assert_eq!(alignment_of(0), 8);
    }
}
