//! The size bound of one value: what any value of a type may take in
//! memory (its decoded-size model, [`Memory`]) and on the wire (its fixed or
//! smallest encoding), checked for every declared type and every field and
//! variant type, whole, not one array level at a time.
//!
//! A value of a type is built whole whether or not the input holds
//! anything: every `new` of a C# message allocates its arrays, a Rust value
//! is built on the stack, and each element of a list of it is charged its
//! size. `[[u8; 1048576]; 1048576]` would be a terabyte per value; the
//! bound keeps every value small enough to build on a thread's stack, to
//! allocate per message and to generate code for.

use crate::diag::{Diagnostic, Span};
use crate::ir::*;

/// The most bytes one value of a type may take, in memory by the
/// decoded-size model and on the wire by its fixed or smallest encoding.
pub const MAX_VALUE_SIZE: u64 = 64 * 1024;

/// The error for a value that takes `size` bytes `where_` ("in memory",
/// "on the wire"), over [`MAX_VALUE_SIZE`].
pub(super) fn too_large(what: &str, size: u64, where_: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        format!(
            "{what} takes {size} bytes {where_}, more than the {MAX_VALUE_SIZE} a value may take"
        ),
        span,
        "too large",
    )
    .with_help(
        "every value of the type is built whole, input or not; for large data use a \
         `list<T> @max(N)` or `bytes @max(N)`, which grow with the input",
    )
}

/// The fewest bytes a value of `ty` encodes to, without the 32-bit cap of
/// [`Layout`]. Declared types have passed the layout's own bound.
fn min_size(ir: &Ir, ty: &Type) -> u64 {
    match ty {
        Type::Array(elem, n) => min_size(ir, elem).saturating_mul(u64::from(*n)),
        _ => u64::from(ir.layout(ty).min_size()),
    }
}

/// The first bound a value `ty` builds whole breaks: the type itself or,
/// outermost first, an element, key or value inside it (each element of a
/// `list<[u32?; 262144]>` is built whole as surely as a field of its type).
/// Returns the value too large, its size and where.
fn excess_within<'t>(ir: &Ir, ty: &'t Type) -> Option<(&'t Type, u64, &'static str)> {
    if let Some((size, where_)) = excess(ir, ty) {
        return Some((ty, size, where_));
    }
    match ty {
        Type::List(t) | Type::Array(t, _) => excess_within(ir, &t.ty),
        Type::Optional(t) => excess_within(ir, t),
        Type::Map(k, v) => excess_within(ir, &k.ty).or_else(|| excess_within(ir, &v.ty)),
        Type::Prim(_) | Type::String | Type::Bytes | Type::Named(_) => None,
    }
}

/// The first bound `ty` breaks: the size and where.
fn excess(ir: &Ir, ty: &Type) -> Option<(u64, &'static str)> {
    let memory = ir.memory(ty).size;
    let wire = min_size(ir, ty);
    if memory > MAX_VALUE_SIZE {
        Some((memory, IN_MEMORY))
    } else if wire > MAX_VALUE_SIZE {
        Some((wire, on_the_wire(ir.is_fixed(ty))))
    } else {
        None
    }
}

const IN_MEMORY: &str = "in memory";

/// Where a wire size is taken: exactly, or at least.
pub(super) fn on_the_wire(fixed: bool) -> &'static str {
    if fixed {
        "on the wire"
    } else {
        "on the wire at the least"
    }
}

/// Reports each value over [`MAX_VALUE_SIZE`] once, where it is declared:
/// at the field or variant whose type is too large or holds an element, a
/// key or a value too large (boxed or not), else at the declared
/// type whose fields add up to too much. A type too large only because it
/// holds another type too large is not reported again.
pub fn check(ir: &Ir) -> Vec<Diagnostic> {
    let declared: Vec<bool> = ir
        .types
        .iter()
        .map(|def| {
            def.memory.size > MAX_VALUE_SIZE || u64::from(def.layout.min_size()) > MAX_VALUE_SIZE
        })
        .collect();
    let mut diags = Vec::new();
    for def in &ir.types {
        let members: Vec<(&str, &Type, bool, Span)> = match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => fields
                .iter()
                .map(|f| (f.name.as_str(), &f.ty, f.cyclic, f.span))
                .collect(),
            TypeKind::Union { variants, .. } => variants
                .iter()
                .map(|v| (v.name.as_str(), &v.ty, v.cyclic, v.span))
                .collect(),
            TypeKind::Enum { .. } => Vec::new(),
        };
        let mut blamed = false;
        for (name, ty, cyclic, span) in members {
            let mut parts = Vec::new();
            ty.named_parts(&mut parts);
            if parts.iter().any(|t| declared[t.0]) {
                // Reported where it is declared. A boxed (cyclic) field
                // takes a pointer inline: its type does not make this one
                // too large.
                blamed |= !cyclic;
                continue;
            }
            if let Some((part, size, where_)) = excess_within(ir, ty) {
                let what = if std::ptr::eq(part, ty) {
                    format!("`{}.{name}` (`{ty}`)", def.name)
                } else {
                    format!("`{part}` in `{}.{name}` (`{ty}`)", def.name)
                };
                diags.push(too_large(&what, size, where_, span));
                blamed = true;
            }
        }
        if blamed {
            continue;
        }
        let wire = u64::from(def.layout.min_size());
        let excess = if def.memory.size > MAX_VALUE_SIZE {
            Some((def.memory.size, IN_MEMORY))
        } else {
            (wire > MAX_VALUE_SIZE).then_some((wire, on_the_wire(def.layout.is_fixed())))
        };
        if let Some((size, where_)) = excess {
            let what = format!("{} `{}`", def.kind.keyword(), def.name);
            diags.push(too_large(&what, size, where_, def.span));
        }
    }
    diags
}
