//! The decoded-size model across schema files, as both backends state it:
//! a type's model written as a number in its own file must depend on
//! nothing another file can change, or that file's change would leak into
//! this file's generated code.

use crate::ir::{Ir, TypeId};

/// The declared types in an order in which every type comes after the
/// types it holds inline (whose models its model reads), and for each type
/// whether its model is *local*: it depends only on declarations of its own
/// file and on fixed-size types, which are frozen (they never change but
/// by a breaking change).
pub(crate) struct Models {
    pub order: Vec<TypeId>,
    pub local: Vec<bool>,
}

/// Walks the inline dependencies with an explicit stack: declarations may
/// chain deeper than the thread's stack allows recursion.
pub(crate) fn analyze(ir: &Ir) -> Models {
    let n = ir.types.len();
    let mut local = vec![false; n];
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if done[id] {
                continue;
            }
            let deps = crate::sema::memory::inline_dependencies(&ir.types[id].kind);
            if !expanded {
                stack.push((id, true));
                stack.extend(deps.iter().filter(|d| !done[d.0]).map(|d| (d.0, false)));
                continue;
            }
            let file = ir.types[id].file;
            local[id] = deps.iter().all(|d| {
                let dep = ir.ty(*d);
                dep.layout.is_fixed() || (dep.file == file && local[d.0])
            });
            done[id] = true;
            order.push(TypeId(id));
        }
    }
    Models { order, local }
}

impl Models {
    /// Whether a part of a type declared in `file` that holds `held` (the
    /// declared types of a field or payload) may state its model as a number:
    /// every type it holds is fixed-size, or of `file` and local.
    pub(crate) fn numbers_stay(
        &self,
        ir: &Ir,
        file: crate::ir::FileIndex,
        held: &[TypeId],
    ) -> bool {
        held.iter().all(|&id| {
            let d = ir.ty(id);
            d.layout.is_fixed() || (d.file == file && self.local[id.0])
        })
    }
}
