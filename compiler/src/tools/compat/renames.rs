//! Renamed types: a type gone from the old version and a type new in the
//! new one are the same type renamed when the new one holds the old one's
//! place (a field or variant paired by name or position, in a type paired
//! already, is spelled with the old type before and the new one after), in
//! that place only, and comparing them as one type finds nothing breaking.
//! They are then compared as one type, so a message renamed and given an
//! appended field is a rename plus an append, not a retyped field.
//!
//! A pair whose comparison is breaking (fields swapped, retyped or removed,
//! another default or limit) is not a rename: the places that hold it are
//! compared structurally, as before, and are breaking there.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::records::pair;
use super::{ChangeKind, Comparer};
use crate::ir::*;

impl Comparer<'_> {
    /// Pairs renamed types in `counterpart` and returns the pairs, sorted.
    pub(super) fn pair_renamed_types(&mut self) -> Vec<(TypeId, TypeId)> {
        let matched_new: HashSet<TypeId> = self.counterpart.values().copied().collect();
        let mut successors: BTreeMap<TypeId, BTreeSet<TypeId>> = BTreeMap::new();
        let mut predecessors: BTreeMap<TypeId, BTreeSet<TypeId>> = BTreeMap::new();
        let mut queue: Vec<(TypeId, TypeId)> =
            self.counterpart.iter().map(|(&o, &n)| (o, n)).collect();
        queue.sort();
        let mut visited = HashSet::new();
        while let Some((o, n)) = queue.pop() {
            if !visited.insert((o, n)) {
                continue;
            }
            let mut found = Vec::new();
            for (a, b) in self.places(o, n) {
                corresponding_named(a, b, &mut found);
            }
            for (x, y) in found {
                if self.counterpart.contains_key(&x) || matched_new.contains(&y) {
                    continue;
                }
                successors.entry(x).or_default().insert(y);
                predecessors.entry(y).or_default().insert(x);
                queue.push((x, y));
            }
        }
        // Only a type that held one place, taken by one type, is renamed;
        // and a type keeps its kind.
        let mut renamed: Vec<(TypeId, TypeId)> = successors
            .iter()
            .filter(|(_, ys)| ys.len() == 1)
            .filter_map(|(&x, ys)| ys.first().map(|&y| (x, y)))
            .filter(|(_, y)| predecessors[y].len() == 1)
            .filter(|&(x, y)| {
                std::mem::discriminant(&self.old.ty(x).kind)
                    == std::mem::discriminant(&self.new.ty(y).kind)
            })
            .collect();
        for &(x, y) in &renamed {
            self.counterpart.insert(x, y);
        }
        // Drop the pairs whose comparison is breaking, until none is: one
        // dropped may make another that holds it breaking.
        loop {
            let breaking: Vec<(TypeId, TypeId)> = renamed
                .iter()
                .copied()
                .filter(|&(x, y)| {
                    let before = self.changes.len();
                    self.compare_type(x, y);
                    let breaking = self.changes[before..]
                        .iter()
                        .any(|c| c.kind == ChangeKind::Breaking);
                    self.changes.truncate(before);
                    breaking
                })
                .collect();
            if breaking.is_empty() {
                break;
            }
            for (x, _) in &breaking {
                self.counterpart.remove(x);
            }
            renamed.retain(|p| !breaking.contains(p));
        }
        renamed
    }

    /// The types of old `o` and new `n` at the places the wire pairs: the
    /// fields compared with each other (kept in their order, or renamed in
    /// place) and the variants of one tag.
    fn places(&self, o: TypeId, n: TypeId) -> Vec<(&Type, &Type)> {
        match (&self.old.ty(o).kind, &self.new.ty(n).kind) {
            (TypeKind::Struct { fields: of }, TypeKind::Struct { fields: nf })
            | (TypeKind::Message { fields: of, .. }, TypeKind::Message { fields: nf, .. }) => {
                let p = pair(of, nf);
                p.kept
                    .iter()
                    .chain(&p.renamed)
                    .filter(|ij| !p.moved.contains(ij))
                    .map(|&(i, j)| (&of[i].ty, &nf[j].ty))
                    .collect()
            }
            (TypeKind::Union { variants: ov, .. }, TypeKind::Union { variants: nv, .. }) => ov
                .iter()
                .filter_map(|a| nv.iter().find(|b| b.tag == a.tag).map(|b| (&a.ty, &b.ty)))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The declared types at the same places of two type expressions of the
/// same shape (`list<A>` and `list<B>` give `(A, B)`).
fn corresponding_named(a: &Type, b: &Type, out: &mut Vec<(TypeId, TypeId)>) {
    match (a, b) {
        (Type::Named(x), Type::Named(y)) => out.push((x.id, y.id)),
        (Type::List(x), Type::List(y)) | (Type::Array(x, _), Type::Array(y, _)) => {
            corresponding_named(&x.ty, &y.ty, out)
        }
        (Type::Optional(x), Type::Optional(y)) => corresponding_named(x, y, out),
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            corresponding_named(&k1.ty, &k2.ty, out);
            corresponding_named(&v1.ty, &v2.ty, out);
        }
        _ => {}
    }
}
