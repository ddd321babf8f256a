//! Unions: variants are paired by name, then checked for their tag, which is
//! all the wire knows them by.

use std::collections::{HashMap, HashSet};

use super::{Comparer, Rule};
use crate::ir::*;

impl Comparer<'_> {
    pub(super) fn compare_union(
        &mut self,
        o: &TypeDef,
        n: &TypeDef,
        (ot, ov, or): (Prim, &[Variant], &[u16]),
        (nt, nv, nr): (Prim, &[Variant], &[u16]),
    ) {
        if ot != nt {
            self.push(
                Rule::UnionTagWidthChanged,
                self.new.qualified_name(n),
                format!(
                    "union `{}` changed its tag from `{}` to `{}`",
                    n.display_name,
                    ot.name(),
                    nt.name()
                ),
                Some((o.span, ot.name().into())),
                Some((n.span, nt.name().into())),
                Some("the tag width is part of every frame and never changes"),
            );
            return;
        }
        if let (Some((_, a)), Some((_, b))) = (o.zero_variant(), n.zero_variant()) {
            if a.tag != b.tag {
                self.push(
                    Rule::UnionDefaultChanged,
                    self.new.qualified_name(n),
                    format!(
                        "the default of union `{}` changed from `{}` to `{}`",
                        n.display_name, a.name, b.name
                    ),
                    Some((a.span, "the first variant is the default".into())),
                    Some((b.span, "now first".into())),
                    Some("keep the first variant first; add new variants after it"),
                );
            }
        }
        let new_by_name: HashMap<&str, &Variant> =
            nv.iter().map(|v| (v.name.as_str(), v)).collect();
        let new_by_tag: HashMap<u16, &Variant> = nv.iter().map(|v| (v.tag, v)).collect();
        let old_by_tag: HashMap<u16, &Variant> = ov.iter().map(|v| (v.tag, v)).collect();
        let old_names: HashSet<&str> = ov.iter().map(|v| v.name.as_str()).collect();
        for a in ov {
            if let Some(b) = new_by_name.get(a.name.as_str()) {
                if a.tag == b.tag {
                    self.compare_variant(n, a, b);
                } else {
                    let now_there = new_by_tag.get(&a.tag).map_or(String::new(), |c| {
                        format!("; tag {} now means `{}`", a.tag, c.name)
                    });
                    self.push(
                        Rule::UnionVariantRetagged,
                        b.path.clone(),
                        format!(
                            "variant `{}::{}` moved from tag {} to tag {}{now_there}",
                            n.display_name, a.name, a.tag, b.tag
                        ),
                        Some((a.span, format!("tag {}", a.tag))),
                        Some((b.span, format!("now tag {}", b.tag))),
                        Some("variants are identified by tag, so old and new peers read the variant as another (or as `Unknown`); a variant keeps its tag forever"),
                    );
                }
                continue;
            }
            match new_by_tag.get(&a.tag) {
                // A new name in its place: renamed, or another payload.
                Some(b) if !old_names.contains(b.name.as_str()) => self.compare_variant(n, a, b),
                // Its tag now belongs to a variant that moved there, which
                // is reported for that variant.
                Some(b) => self.push(
                    Rule::UnionVariantRemoved,
                    a.path.clone(),
                    format!(
                        "variant `{}::{}` was removed and its tag {} given to `{}`",
                        n.display_name, a.name, a.tag, b.name
                    ),
                    Some((a.span, "removed".into())),
                    Some((b.span, format!("tag {} now", a.tag))),
                    Some("old peers still send the removed variant with this tag; a tag is never reused"),
                ),
                None if nr.contains(&a.tag) => self.push(
                    Rule::UnionVariantRemovedReserved,
                    a.path.clone(),
                    format!(
                        "variant `{}::{}` was removed and its tag {} reserved",
                        n.display_name, a.name, a.tag
                    ),
                    Some((a.span, "removed".into())),
                    Some((n.span, format!("tag {} reserved", a.tag))),
                    Some("new readers decode it as `Unknown`; code using the variant must be updated"),
                ),
                None => self.push(
                    Rule::UnionVariantRemoved,
                    a.path.clone(),
                    format!(
                        "variant `{}::{}` was removed without reserving tag {}",
                        n.display_name, a.name, a.tag
                    ),
                    Some((a.span, "removed".into())),
                    Some((n.span, "union without it".into())),
                    Some(&format!("add `reserved {},` to the union so the tag is never reused", a.tag)),
                ),
            }
        }
        for b in nv {
            if old_names.contains(b.name.as_str()) {
                continue;
            }
            match old_by_tag.get(&b.tag) {
                // Paired with the old variant above.
                Some(a) if !new_by_name.contains_key(a.name.as_str()) => {}
                Some(a) => self.push(
                    Rule::UnionTagRepointed,
                    b.path.clone(),
                    format!(
                        "tag {} of union `{}` was re-pointed from `{}` to the new variant `{}`",
                        b.tag, n.display_name, a.name, b.name
                    ),
                    Some((a.span, format!("`{}({})`", a.name, self.old.show(&a.ty)))),
                    Some((b.span, format!("`{}({})`", b.name, self.new.show(&b.ty)))),
                    Some("old peers still send the old variant with this tag; add a variant with a new tag"),
                ),
                None if or.contains(&b.tag) => self.push(
                    Rule::UnionReservedTagReused,
                    b.path.clone(),
                    format!(
                        "variant `{}::{}` reuses reserved tag {}",
                        n.display_name, b.name, b.tag
                    ),
                    Some((o.span, format!("tag {} reserved here", b.tag))),
                    Some((b.span, "reused".into())),
                    Some("old peers may still send the removed variant with this tag; pick a new tag"),
                ),
                None => self.push(
                    Rule::UnionVariantAdded,
                    b.path.clone(),
                    format!("variant `{}::{}` (tag {}) was added", n.display_name, b.name, b.tag),
                    None,
                    Some((b.span, "new variant".into())),
                    Some("old readers decode it as `Unknown` and write it back unchanged"),
                ),
            }
        }
        for tag in or {
            if !nr.contains(tag) && !new_by_tag.contains_key(tag) {
                self.push(
                    Rule::UnionTagUnreserved,
                    self.new.qualified_name(n),
                    format!(
                        "tag {tag} of union `{}` is no longer reserved",
                        n.display_name
                    ),
                    Some((o.span, format!("reserved {tag}"))),
                    Some((n.span, "not reserved".into())),
                    Some("a reserved tag stays reserved, so that it is never reused"),
                );
            }
        }
    }

    /// Two variants with the same tag: the same one, or a new name in the
    /// place of one that is gone.
    fn compare_variant(&mut self, n: &TypeDef, a: &Variant, b: &Variant) {
        if !self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()) {
            self.push(
                Rule::UnionTagRepointed,
                b.path.clone(),
                format!(
                    "tag {} of union `{}` was re-pointed from `{}({})` to `{}({})`",
                    a.tag,
                    n.display_name,
                    a.name,
                    self.old.show(&a.ty),
                    b.name,
                    self.new.show(&b.ty)
                ),
                Some((a.span, format!("`{}`", self.old.show(&a.ty)))),
                Some((b.span, format!("`{}`", self.new.show(&b.ty)))),
                Some("a tag keeps its payload type forever; add a variant with a new tag"),
            );
            return;
        }
        if a.name != b.name {
            self.push(
                Rule::UnionVariantRenamed,
                b.path.clone(),
                format!(
                    "variant `{}::{}` was renamed to `{}`",
                    n.display_name, a.name, b.name
                ),
                Some((a.span, "old name".into())),
                Some((b.span, "new name".into())),
                Some("the tag is unchanged, so the wire is too; code using the old name must be updated"),
            );
        }
        self.compare_spelling(
            b.path.clone(),
            format!("the payload of variant `{}::{}`", n.display_name, b.name),
            (&a.ty, a.span),
            (&b.ty, b.span),
        );
        self.compare_element_max(
            &b.path,
            &format!("{}.{}", n.display_name, b.name),
            (&a.ty, a.span),
            (&b.ty, b.span),
        );
        self.compare_deprecation(
            b.path.clone(),
            (a.deprecated, b.deprecated),
            format!("variant `{}::{}`", n.display_name, b.name),
            a.span,
            b.span,
        );
    }
}
