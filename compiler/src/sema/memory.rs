//! The decoded-memory model of every declared type (see [`Memory`]).
//!
//! A type's model depends on the types it stores inline. Boxed (cyclic)
//! fields and variants are pointers, so the "stores inline" edges that remain
//! form a DAG; it is walked with an explicit stack, because a schema may chain
//! declarations far deeper than the thread's stack would allow recursion.

use crate::ir::*;

pub fn compute(ir: &mut Ir) {
    let n = ir.types.len();
    let mut done = vec![false; n];
    for root in 0..n {
        if done[root] {
            continue;
        }
        // (type, whether its dependencies have been pushed)
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if done[id] {
                continue;
            }
            if expanded {
                ir.types[id].memory = model(ir, TypeId(id));
                done[id] = true;
                continue;
            }
            stack.push((id, true));
            for dep in inline_dependencies(&ir.types[id].kind) {
                if !done[dep.0] {
                    stack.push((dep.0, false));
                }
            }
        }
    }
}

/// The declared types whose model this kind's model reads.
pub(crate) fn inline_dependencies(kind: &TypeKind) -> Vec<TypeId> {
    fn named(ty: &Type, out: &mut Vec<TypeId>) {
        match ty {
            Type::Named(r) => out.push(r.id),
            Type::Array(t, _) => named(t, out),
            Type::Optional(t) => named(t, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match kind {
        TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
            for f in fields.iter().filter(|f| !f.cyclic) {
                named(&f.ty, &mut out);
            }
        }
        TypeKind::Union { variants, .. } => {
            for v in variants.iter().filter(|v| !v.cyclic) {
                named(&v.ty, &mut out);
            }
        }
        TypeKind::Enum { .. } => {}
    }
    out
}

/// The model of one declared type, once those it depends on are known.
fn model(ir: &Ir, id: TypeId) -> Memory {
    match &ir.ty(id).kind {
        TypeKind::Enum { base, .. } => Memory {
            size: 2 * u64::from(base.size()),
            align: base.size(),
        },
        TypeKind::Struct { fields } => {
            let fields = Memory::sequence(fields.iter().map(|f| ir.slot_memory(&f.ty, f.cyclic)));
            if ir.ty(id).layout.is_fixed() {
                // A C# struct; an empty one still takes a byte.
                Memory {
                    size: fields.size.max(1),
                    align: fields.align,
                }
            } else {
                // A C# class, like a message.
                fields.object()
            }
        }
        TypeKind::Message {
            fields,
            preserve_unknown,
        } => Memory::sequence(
            fields
                .iter()
                .map(|f| ir.slot_memory(&f.ty, f.cyclic))
                .chain(preserve_unknown.then_some(Memory::HANDLE)),
        )
        .object(),
        TypeKind::Union { tag, variants, .. } => {
            // The unknown variant keeps its tag and a `Vec<u8>` body.
            let unknown = Memory::sequence([Memory::scalar(tag.size()), Memory::HANDLE]);
            let payload = variants
                .iter()
                .map(|v| ir.slot_memory(&v.ty, v.cyclic))
                .fold(unknown, |a, b| Memory {
                    size: a.size.max(b.size),
                    align: a.align.max(b.align),
                });
            // The C# union is an object of the variant's class.
            Memory {
                size: round_up(payload.size, payload.align)
                    .saturating_add(u64::from(payload.align)),
                align: payload.align,
            }
            .object()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::Ir;

    fn ir(src: &str) -> Ir {
        let dir = std::env::temp_dir().join(format!("pktc-memory-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.pkt");
        std::fs::write(&path, src).unwrap();
        let checked = crate::check(&[path]).expect("schema is valid");
        let _ = std::fs::remove_dir_all(&dir);
        checked.ir
    }

    fn size(ir: &Ir, name: &str) -> u64 {
        ir.types
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.memory.size)
            .expect("type exists")
    }

    #[test]
    fn models_follow_natural_alignment() {
        let ir = ir("enum E : u32 { A = 1 }
             struct S { a: u8, b: u64, c: u8 }
             struct P { a: u8, b: u8 }
             message M { s: string, e: E, o: u16? }
             message Big { a: [u64; 4096] }
             message Rec { child: Rec? }
             union U { A(P) = 1, B(Big) = 2 }
             union Small { A(P) = 1 }");
        assert_eq!(size(&ir, "E"), 8);
        assert_eq!(size(&ir, "S"), 24);
        assert_eq!(size(&ir, "P"), 2);
        // 24 (string) + 8 (enum) + 4 (u16? as flag + value), aligned to 8,
        // and a C# object.
        assert_eq!(size(&ir, "M"), 40 + 24);
        // The elements, a C# array (40) and a C# object (24).
        assert_eq!(size(&ir, "Big"), 32768 + 40 + 24);
        assert_eq!(size(&ir, "Rec"), 8 + 24);
        assert_eq!(size(&ir, "U"), 32768 + 64 + 8 + 24);
        // The unknown variant (u8 tag + Vec) is the largest payload.
        assert_eq!(size(&ir, "Small"), 32 + 8 + 24);
    }

    #[test]
    fn arrays_and_empty_structs_count_what_csharp_allocates() {
        let ir = ir("struct Empty {}
             struct One { a: [u8; 1] }
             struct Nested { a: [[u8; 1]; 2] }
             struct V { s: string }");
        assert_eq!(size(&ir, "Empty"), 1);
        assert_eq!(size(&ir, "One"), 41);
        assert_eq!(size(&ir, "Nested"), 2 * 41 + 40);
        assert_eq!(size(&ir, "V"), 24 + 24);
    }
}
