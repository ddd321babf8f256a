//! Sizes, offsets and containment cycles: the one place where layouts are
//! decided.

use crate::diag::{Diagnostic, Span};
use crate::ir::*;
use crate::wire;

use super::size::{self, MAX_VALUE_SIZE};

pub fn compute(ir: &mut Ir) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let n = ir.types.len();

    // Enums, messages and unions have a layout that depends on nothing else.
    for def in &mut ir.types {
        def.layout = match &def.kind {
            TypeKind::Enum { base, .. } => Layout::Fixed { size: base.size() },
            TypeKind::Message { .. } => Layout::Variable {
                min_size: wire::BODY_PREFIX,
            },
            TypeKind::Union { tag, .. } => Layout::Variable {
                min_size: wire::union_header(*tag),
            },
            TypeKind::Struct { .. } => Layout::Variable { min_size: 0 },
        };
    }

    // Structs depend on the structs they contain: settle them depth first.
    let mut state = vec![Visit::New; n];
    for i in 0..n {
        if matches!(ir.types[i].kind, TypeKind::Struct { .. }) {
            struct_layout(ir, TypeId(i), &mut state, &mut diags);
        }
    }
    struct_recursion(ir, &state, &mut diags);

    // Field layouts and offsets, now that every named type has its layout.
    for i in 0..n {
        let mut offset: Option<u64> = Some(0);
        let is_struct = matches!(ir.types[i].kind, TypeKind::Struct { .. });
        let fields: Vec<Layout> = ir.types[i]
            .kind
            .fields()
            .iter()
            .map(|f| ir.field_layout(f))
            .collect();
        if let TypeKind::Struct { fields: fs } | TypeKind::Message { fields: fs, .. } =
            &mut ir.types[i].kind
        {
            for (f, layout) in fs.iter_mut().zip(fields) {
                f.layout = layout;
                // Offsets are known up to the first variable-size field.
                if is_struct {
                    f.offset = offset.map(|o| o.min(u32::MAX as u64) as u32);
                    offset = match layout {
                        Layout::Fixed { size } => offset.map(|o| o + size as u64),
                        Layout::Variable { .. } => None,
                    };
                }
            }
        }
    }

    zero_size_elements(ir, &mut diags);
    infinite_values(ir, &mut diags);
    mark_cyclic(ir);
    diags
}

#[derive(Clone, Copy, PartialEq)]
enum Visit {
    New,
    Active,
    Done,
    /// Reported already; enclosing types stay quiet about it.
    Failed,
}

/// One struct being laid out: the field and named part reached so far.
struct Frame {
    id: TypeId,
    fields: Vec<Field>,
    field: usize,
    parts: Vec<TypeId>,
    part: usize,
    size: u64,
    /// Some field has no fixed size: the struct is variable-size, `size`
    /// its minimum.
    variable: bool,
    ok: bool,
}

impl Frame {
    fn new(ir: &Ir, id: TypeId) -> Frame {
        let fields = ir.ty(id).kind.fields().to_vec();
        let parts = fields
            .first()
            .map(|f| fixed_parts(&f.ty))
            .unwrap_or_default();
        Frame {
            id,
            fields,
            field: 0,
            parts,
            part: 0,
            size: 0,
            variable: false,
            ok: true,
        }
    }
}

/// Lays out `root` and the structs it contains, depth first, with an
/// explicit stack: declarations may nest far deeper than the thread's stack
/// would allow recursion. `path` holds each struct on the stack with the
/// span of the field being followed.
fn struct_layout(ir: &mut Ir, root: TypeId, state: &mut [Visit], diags: &mut Vec<Diagnostic>) {
    let mut path: Vec<(TypeId, Span)> = Vec::new();
    if !enter_struct(ir, root, state, &path, diags) {
        return;
    }
    let mut stack = vec![Frame::new(ir, root)];
    while let Some(top) = stack.last_mut() {
        if top.field < top.fields.len() {
            // Settle the structs this field's type names first.
            if top.part < top.parts.len() {
                let inner = top.parts[top.part];
                top.part += 1;
                if matches!(ir.ty(inner).kind, TypeKind::Struct { .. }) {
                    path.push((top.id, top.fields[top.field].span));
                    if enter_struct(ir, inner, state, &path, diags) {
                        stack.push(Frame::new(ir, inner));
                        continue;
                    }
                    path.pop();
                    if state[inner.0] != Visit::Done {
                        top.ok = false;
                    }
                }
                continue;
            }
            let f = &top.fields[top.field];
            if top.ok {
                match ir.field_layout(f) {
                    Layout::Fixed { size } if f.quantize.is_some() => {
                        top.size = top.size.saturating_add(u64::from(size))
                    }
                    // Computed in 64 bits: the 32-bit layout saturates, and
                    // the error below should state the real size.
                    Layout::Fixed { .. } => {
                        top.size = top.size.saturating_add(exact_size(ir, &f.ty))
                    }
                    // A frozen variable-size struct: its fields back to
                    // back, at least their minimum sizes.
                    Layout::Variable { min_size } => {
                        top.variable = true;
                        top.size = top.size.saturating_add(u64::from(min_size));
                    }
                }
            }
            top.field += 1;
            top.parts = top
                .fields
                .get(top.field)
                .map(|f| fixed_parts(&f.ty))
                .unwrap_or_default();
            top.part = 0;
            continue;
        }
        let done = stack.pop().expect("a frame is on the stack");
        finish_struct(ir, &done, state, diags);
        if let Some(parent) = stack.last_mut() {
            path.pop();
            if state[done.id.0] != Visit::Done {
                parent.ok = false;
            }
        }
    }
}

/// Starts laying out `id`; false when there is nothing to do (settled
/// already, or on the path: a cycle, reported here).
fn enter_struct(
    ir: &Ir,
    id: TypeId,
    state: &mut [Visit],
    path: &[(TypeId, Span)],
    diags: &mut Vec<Diagnostic>,
) -> bool {
    match state[id.0] {
        Visit::Done | Visit::Failed => false,
        Visit::Active => {
            let start = path.iter().position(|(t, _)| *t == id).unwrap_or(0);
            let cycle: Vec<&str> = path[start..]
                .iter()
                .map(|(t, _)| ir.ty(*t).name.as_str())
                .chain([ir.ty(id).name.as_str()])
                .collect();
            let (_, at) = path[path.len() - 1];
            let mut d = Diagnostic::error(
                format!("struct `{}` contains itself", ir.ty(id).name),
                at,
                "this field closes the cycle",
            )
            .with_note(format!("cycle: {}", cycle.join(" → ")))
            .with_help("a struct's size must be finite; use a `message` with an optional or list field for recursive data");
            for (_, span) in &path[start..path.len() - 1] {
                d = d.with_label(*span, "");
            }
            diags.push(d);
            false
        }
        Visit::New => {
            state[id.0] = Visit::Active;
            true
        }
    }
}

fn finish_struct(ir: &mut Ir, frame: &Frame, state: &mut [Visit], diags: &mut Vec<Diagnostic>) {
    let id = frame.id;
    let size = frame.size;
    let mut ok = frame.ok;
    // The size bound of a value (`size.rs`), checked here on the wire,
    // where the struct's exact size is known.
    if size > MAX_VALUE_SIZE {
        ok = false;
        diags.push(size::too_large(
            &format!("struct `{}`", ir.ty(id).name),
            size,
            size::on_the_wire(!frame.variable),
            ir.ty(id).span,
        ));
    }
    if ok {
        ir.types[id.0].layout = if frame.variable {
            Layout::Variable {
                min_size: size as u32,
            }
        } else {
            Layout::Fixed { size: size as u32 }
        };
        state[id.0] = Visit::Done;
    } else {
        state[id.0] = Visit::Failed;
    }
}

/// A struct may reach itself only through a message or union, whose
/// decoders and encoders count the nesting depth: a struct that holds itself
/// through lists, maps, optionals and other structs alone would let input
/// nest without a depth limit. (Holding itself by value is reported by the
/// layout, as an infinite size.)
fn struct_recursion(ir: &Ir, layout_state: &[Visit], diags: &mut Vec<Diagnostic>) {
    let is_struct = |t: TypeId| matches!(ir.ty(t).kind, TypeKind::Struct { .. });
    let edges: Vec<Vec<(TypeId, Span)>> = ir
        .types
        .iter()
        .map(|def| match &def.kind {
            TypeKind::Struct { fields } => fields
                .iter()
                .flat_map(|f| {
                    let mut out = Vec::new();
                    f.ty.named_parts(&mut out);
                    out.into_iter()
                        .filter(|t| is_struct(*t))
                        .map(move |t| (t, f.span))
                })
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    let mut state = vec![Visit::New; ir.types.len()];
    for start in 0..ir.types.len() {
        if !is_struct(TypeId(start)) {
            continue;
        }
        let mut path = Vec::new();
        find_cycle(TypeId(start), &edges, &mut state, &mut path, &mut |cycle| {
            if cycle
                .iter()
                .any(|(t, _)| layout_state[t.0] == Visit::Failed)
            {
                return;
            }
            let (first, span) = cycle[0];
            let names: Vec<&str> = cycle
                .iter()
                .map(|(t, _)| ir.ty(*t).name.as_str())
                .chain([ir.ty(first).name.as_str()])
                .collect();
            let mut d = Diagnostic::error(
                format!(
                    "struct `{}` contains itself through a list, map or optional",
                    ir.ty(first).name
                ),
                span,
                "this field leads back to the struct",
            )
            .with_note(format!("cycle: {}", names.join(" → ")))
            .with_help("structs do not count nesting depth; use a message to recurse");
            for (_, s) in &cycle[1..] {
                d = d.with_label(*s, "");
            }
            diags.push(d);
        });
    }
}

/// The size of a fixed-size type without the 32-bit cap of [`Layout`].
fn exact_size(ir: &Ir, ty: &Type) -> u64 {
    match ty {
        Type::Array(elem, n) => exact_size(ir, elem).saturating_mul(u64::from(*n)),
        _ => ir.layout(ty).min_size() as u64,
    }
}

/// The named types a type stores inline (not behind a length prefix).
fn fixed_parts(ty: &Type) -> Vec<TypeId> {
    match ty {
        Type::Named(r) => vec![r.id],
        Type::Array(elem, _) => fixed_parts(elem),
        _ => Vec::new(),
    }
}

/// A list of zero-size elements would let a count claim billions of elements
/// in zero bytes of input; an array of them carries nothing at all, yet a
/// decoder would build and visit every element of it for no input.
fn zero_size_elements(ir: &Ir, diags: &mut Vec<Diagnostic>) {
    fn walk(ir: &Ir, ty: &Type, span: Span, diags: &mut Vec<Diagnostic>) {
        let zero = |elem: &Type| ir.layout(elem) == (Layout::Fixed { size: 0 });
        match ty {
            Type::List(elem) => {
                if zero(elem) {
                    diags.push(
                        Diagnostic::error(
                            format!("`{elem}` has size 0 and cannot be a list element"),
                            span,
                            "zero-size list element",
                        )
                        .with_help("a list of empty values carries only its count; store the count as an integer instead"),
                    );
                }
                walk(ir, elem, span, diags);
            }
            Type::Array(elem, _) => {
                // `[[Empty; 1]; 4]`: reported at the innermost array.
                if zero(elem) && !matches!(elem.ty, Type::Array(..)) {
                    diags.push(
                        Diagnostic::error(
                            format!("`{elem}` has size 0 and cannot be an array element"),
                            span,
                            "zero-size array element",
                        )
                        .with_help("an array of empty values carries nothing; remove it, or give the element type a field"),
                    );
                } else {
                    walk(ir, elem, span, diags);
                }
            }
            Type::Map(k, v) => {
                walk(ir, k, span, diags);
                walk(ir, v, span, diags);
            }
            Type::Optional(elem) => walk(ir, elem, span, diags),
            _ => {}
        }
    }
    for def in &ir.types {
        for f in def.kind.fields() {
            walk(ir, &f.ty, f.span, diags);
        }
        if let TypeKind::Union { variants, .. } = &def.kind {
            for v in variants {
                walk(ir, &v.ty, v.span, diags);
            }
        }
    }
}

/// A message or union whose default value contains itself would be infinite:
/// messages hold every field, a union's default holds its first variant.
fn infinite_values(ir: &Ir, diags: &mut Vec<Diagnostic>) {
    let n = ir.types.len();
    let edges: Vec<Vec<(TypeId, Span)>> = ir
        .types
        .iter()
        .map(|def| match &def.kind {
            TypeKind::Message { fields, .. } => fields
                .iter()
                .flat_map(|f| fixed_parts(&f.ty).into_iter().map(move |t| (t, f.span)))
                .collect(),
            TypeKind::Union { variants, .. } => variants
                .first()
                .map(|v| {
                    fixed_parts(&v.ty)
                        .into_iter()
                        .map(|t| (t, v.span))
                        .collect()
                })
                .unwrap_or_default(),
            // A variable-size struct may hold a message or union inline.
            TypeKind::Struct { fields } => fields
                .iter()
                .flat_map(|f| fixed_parts(&f.ty).into_iter().map(move |t| (t, f.span)))
                .collect(),
            TypeKind::Enum { .. } => Vec::new(),
        })
        .collect();
    let is_struct = |t: TypeId| matches!(ir.ty(t).kind, TypeKind::Struct { .. });
    let mut state = vec![Visit::New; n];
    let mut reported = vec![false; n];
    for start in 0..n {
        if !matches!(
            ir.types[start].kind,
            TypeKind::Message { .. } | TypeKind::Union { .. }
        ) {
            continue;
        }
        let mut path = Vec::new();
        find_cycle(TypeId(start), &edges, &mut state, &mut path, &mut |cycle| {
            // Structs alone: reported by the struct layout.
            if cycle.iter().all(|(t, _)| is_struct(*t)) {
                return;
            }
            if cycle.iter().any(|(t, _)| reported[t.0]) {
                return;
            }
            for (t, _) in cycle {
                reported[t.0] = true;
            }
            let (first, span) = cycle[0];
            let names: Vec<&str> = cycle
                .iter()
                .map(|(t, _)| ir.ty(*t).name.as_str())
                .chain([ir.ty(first).name.as_str()])
                .collect();
            diags.push(
                Diagnostic::error(
                    format!(
                        "`{}` contains itself, so every value would be infinite",
                        ir.ty(first).name
                    ),
                    span,
                    "always present, and contains the enclosing type again",
                )
                .with_note(format!("cycle: {}", names.join(" → ")))
                .with_help(
                    "make the field optional (`T?`) or a `list<T>`, so that the recursion can end",
                ),
            );
        });
    }
}

/// A path through the type graph: each type with the span of the edge leaving it.
type Path = [(TypeId, Span)];

/// Depth-first search reporting each back edge as the cycle it closes:
/// `(type, span of the edge leaving it)` for every type on the cycle. The
/// stack is explicit (type, next edge), so depth is bounded by memory only.
fn find_cycle(
    root: TypeId,
    edges: &[Vec<(TypeId, Span)>],
    state: &mut [Visit],
    path: &mut Vec<(TypeId, Span)>,
    report: &mut dyn FnMut(&Path),
) {
    if state[root.0] != Visit::New {
        return;
    }
    state[root.0] = Visit::Active;
    let mut stack: Vec<(TypeId, usize)> = vec![(root, 0)];
    while let Some((id, next_edge)) = stack.last_mut() {
        let id = *id;
        let Some(&(next, span)) = edges[id.0].get(*next_edge) else {
            state[id.0] = Visit::Done;
            stack.pop();
            if !stack.is_empty() {
                // The edge that led here is done too.
                path.pop();
            }
            continue;
        };
        *next_edge += 1;
        path.push((id, span));
        match state[next.0] {
            Visit::Active => {
                let start = path.iter().position(|(t, _)| *t == next).unwrap_or(0);
                report(&path[start..]);
                path.pop();
            }
            Visit::New => {
                state[next.0] = Visit::Active;
                stack.push((next, 0));
            }
            Visit::Done | Visit::Failed => {
                path.pop();
            }
        }
    }
}

/// Marks fields and variants whose type leads back to the enclosing type
/// without a list or map in between (Tarjan's strongly connected components
/// over "stores inline" edges). Languages that store values inline box them.
fn mark_cyclic(ir: &mut Ir) {
    fn inline_parts(ty: &Type) -> Vec<TypeId> {
        match ty {
            Type::Named(r) => vec![r.id],
            Type::Array(elem, _) => inline_parts(elem),
            Type::Optional(inner) => inline_parts(inner),
            _ => Vec::new(),
        }
    }
    let n = ir.types.len();
    let edges: Vec<Vec<TypeId>> = ir
        .types
        .iter()
        .map(|def| match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                fields.iter().flat_map(|f| inline_parts(&f.ty)).collect()
            }
            TypeKind::Union { variants, .. } => {
                variants.iter().flat_map(|v| inline_parts(&v.ty)).collect()
            }
            TypeKind::Enum { .. } => Vec::new(),
        })
        .collect();
    let component = tarjan(n, &edges);
    for i in 0..n {
        let same = |ty: &Type| {
            inline_parts(ty)
                .iter()
                .any(|t| component[t.0] == component[i])
        };
        match &mut ir.types[i].kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                for f in fields {
                    f.cyclic = same(&f.ty);
                }
            }
            TypeKind::Union { variants, .. } => {
                for v in variants {
                    v.cyclic = same(&v.ty);
                }
            }
            TypeKind::Enum { .. } => {}
        }
    }
}

/// Component number of each node; nodes on a common cycle share one
/// (Tarjan's algorithm with an explicit call stack of (node, next edge)).
pub(crate) fn tarjan(n: usize, edges: &[Vec<TypeId>]) -> Vec<usize> {
    let mut index: Vec<Option<usize>> = vec![None; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut comp = vec![0; n];
    let (mut next, mut comps) = (0, 0);
    for root in 0..n {
        if index[root].is_some() {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = Vec::new();
        index[root] = Some(next);
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        calls.push((root, 0));
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            if let Some(w) = edges[v].get(*e).map(|w| w.0) {
                *e += 1;
                match index[w] {
                    None => {
                        index[w] = Some(next);
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    }
                    Some(iw) if on_stack[w] => low[v] = low[v].min(iw),
                    _ => {}
                }
                continue;
            }
            calls.pop();
            if Some(low[v]) == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = comps;
                    if w == v {
                        break;
                    }
                }
                comps += 1;
            }
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    comp
}
