//! `pktc compat`: compares two versions of a schema and classifies every
//! change by the rules of docs/evolution.md.
//!
//! Types are matched by qualified name (`namespace.Name`). Wire equality is
//! decided structurally, so a renamed type or field with the same layout is
//! `source-only`, and `bytes` ↔ `list<u8>` (the same bytes) is too.

mod git;
mod rules;

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

pub use git::{compare_with_revision, GitReader};
pub use rules::Rule;

use crate::diag::{self, Diagnostic, SourceMap, Span};
use crate::ir::*;
use crate::load::FileReader;
use crate::Failed;

/// How a change affects peers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// Old and new peers can no longer exchange some data correctly.
    Breaking,
    /// The wire stays compatible both ways, but generated source changes
    /// (code using it may need edits).
    SourceOnly,
    /// Compatible both ways; existing code keeps compiling.
    Safe,
}

impl ChangeKind {
    pub fn word(self) -> &'static str {
        match self {
            ChangeKind::Breaking => "breaking",
            ChangeKind::SourceOnly => "source-only",
            ChangeKind::Safe => "safe",
        }
    }
}

/// One classified change, with where it is in each version.
#[derive(Clone, Debug)]
pub struct Change {
    pub rule: Rule,
    pub kind: ChangeKind,
    pub message: String,
    pub old: Option<(Span, String)>,
    pub new: Option<(Span, String)>,
    pub help: Option<String>,
}

/// The result of a comparison. Both versions' files are in `sources`.
pub struct Report {
    pub sources: SourceMap,
    pub changes: Vec<Change>,
}

impl Report {
    pub fn count(&self, kind: ChangeKind) -> usize {
        self.changes.iter().filter(|c| c.kind == kind).count()
    }

    pub fn is_breaking(&self) -> bool {
        self.count(ChangeKind::Breaking) > 0
    }

    fn diagnostic(c: &Change) -> Diagnostic {
        let mut d = Diagnostic::bare(c.message.clone());
        if let Some((span, label)) = &c.new {
            d = Diagnostic::error(c.message.clone(), *span, label.clone());
        }
        if let Some((span, label)) = &c.old {
            d = if c.new.is_some() {
                d.with_label(*span, label.clone())
            } else {
                Diagnostic::error(c.message.clone(), *span, label.clone())
            };
        }
        if let Some(h) = &c.help {
            d = d.with_help(h.clone());
        }
        d
    }

    /// rustc-style text: one block per change, most severe first, then a summary.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for c in &self.changes {
            out.push_str(&diag::render_as(
                &format!("{}[{}]", c.kind.word(), c.rule.id()),
                &Self::diagnostic(c),
                &self.sources,
            ));
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{} breaking, {} source-only, {} safe",
            self.count(ChangeKind::Breaking),
            self.count(ChangeKind::SourceOnly),
            self.count(ChangeKind::Safe)
        );
        out
    }

    /// Machine-readable form, for bots.
    pub fn to_json(&self) -> serde_json::Value {
        let loc = |s: &Option<(Span, String)>| {
            s.as_ref().map(|(span, label)| {
                let (line, column) = self.sources.line_col(span.file, span.start);
                serde_json::json!({
                    "file": self.sources.get(span.file).name,
                    "line": line,
                    "column": column,
                    "label": label,
                })
            })
        };
        let changes: Vec<serde_json::Value> = self
            .changes
            .iter()
            .map(|c| {
                serde_json::json!({
                    "kind": c.kind,
                    "rule": c.rule,
                    "docs": c.rule.docs(),
                    "message": c.message,
                    "old": loc(&c.old),
                    "new": loc(&c.new),
                    "help": c.help,
                })
            })
            .collect();
        serde_json::json!({
            "breaking": self.count(ChangeKind::Breaking),
            "source_only": self.count(ChangeKind::SourceOnly),
            "safe": self.count(ChangeKind::Safe),
            "changes": changes,
        })
    }
}

/// Compares `old` (read through `old_reader`) with `new` (read through
/// `new_reader`, usually [`crate::load::FsReader`]).
pub fn compare(
    old: &[PathBuf],
    old_reader: &dyn FileReader,
    new: &[PathBuf],
    new_reader: &dyn FileReader,
) -> Result<Report, Failed> {
    let old = crate::check_into(SourceMap::default(), old, old_reader)?;
    let new = crate::check_into(old.sources.clone(), new, new_reader)?;
    let changes = Comparer {
        old: &old.ir,
        new: &new.ir,
        changes: Vec::new(),
    }
    .run();
    Ok(Report {
        sources: new.sources,
        changes,
    })
}

struct Comparer<'a> {
    old: &'a Ir,
    new: &'a Ir,
    changes: Vec<Change>,
}

fn qualified(ir: &Ir, id: TypeId) -> String {
    let def = ir.ty(id);
    let ns = ir.namespace_of(def);
    if ns.is_empty() {
        def.name.clone()
    } else {
        format!("{}.{}", ns.join("."), def.name)
    }
}

fn by_name(ir: &Ir) -> BTreeMap<String, TypeId> {
    (0..ir.types.len())
        .map(|i| (qualified(ir, TypeId(i)), TypeId(i)))
        .collect()
}

impl Comparer<'_> {
    fn push(
        &mut self,
        rule: Rule,
        message: String,
        old: Option<(Span, String)>,
        new: Option<(Span, String)>,
        help: Option<&str>,
    ) {
        self.changes.push(Change {
            rule,
            kind: rule.class(),
            message,
            old,
            new,
            help: help.map(str::to_string),
        });
    }

    fn run(mut self) -> Vec<Change> {
        let old_names = by_name(self.old);
        let new_names = by_name(self.new);
        for (name, &oid) in &old_names {
            match new_names.get(name) {
                Some(&nid) => self.compare_type(oid, nid),
                None => {
                    let def = self.old.ty(oid);
                    self.push(
                        Rule::TypeRemoved,
                        format!("{} `{name}` was removed", def.kind.keyword()),
                        Some((def.span, "declared here in the old version".into())),
                        None,
                        Some("the generated type disappears; fields and variants that used it are reported where they are"),
                    );
                }
            }
        }
        for (name, &nid) in &new_names {
            if !old_names.contains_key(name) {
                let def = self.new.ty(nid);
                self.push(
                    Rule::TypeAdded,
                    format!("{} `{name}` was added", def.kind.keyword()),
                    None,
                    Some((def.span, "new".into())),
                    None,
                );
            }
        }
        // Most severe first; within a kind, in source order of the new
        // version (removals, which have only an old location, after).
        self.changes.sort_by_key(|c| {
            let at = |s: &Option<(Span, String)>| s.as_ref().map(|(s, _)| (s.file, s.start));
            (c.kind, at(&c.new).is_none(), at(&c.new).or(at(&c.old)))
        });
        self.changes
    }

    fn compare_type(&mut self, oid: TypeId, nid: TypeId) {
        let (o, n) = (self.old.ty(oid), self.new.ty(nid));
        match (&o.kind, &n.kind) {
            (TypeKind::Struct { fields: of }, TypeKind::Struct { fields: nf }) => {
                self.compare_struct(o, n, of, nf)
            }
            (
                TypeKind::Message {
                    fields: of,
                    preserve_unknown: op,
                },
                TypeKind::Message {
                    fields: nf,
                    preserve_unknown: np,
                },
            ) => {
                self.compare_message(n, of, nf);
                if op != np {
                    self.push(
                        Rule::PreserveUnknownChanged,
                        format!(
                            "message `{}` {} `@preserve_unknown`",
                            n.name,
                            if *np { "gained" } else { "lost" }
                        ),
                        Some((o.span, "before".into())),
                        Some((n.span, "now".into())),
                        Some("the bytes are unchanged; the generated type gains or loses its unknown_fields member"),
                    );
                }
            }
            (
                TypeKind::Enum {
                    base: ob,
                    values: ov,
                },
                TypeKind::Enum {
                    base: nb,
                    values: nv,
                },
            ) => self.compare_enum(o, n, *ob, *nb, ov, nv),
            (
                TypeKind::Union {
                    tag: ot,
                    variants: ov,
                    reserved: or,
                },
                TypeKind::Union {
                    tag: nt,
                    variants: nv,
                    reserved: nr,
                },
            ) => self.compare_union(o, n, (*ot, ov, or), (*nt, nv, nr)),
            _ => self.push(
                Rule::KindChanged,
                format!(
                    "`{}` changed from a {} to a {}",
                    n.name,
                    o.kind.keyword(),
                    n.kind.keyword()
                ),
                Some((o.span, format!("a {}", o.kind.keyword()))),
                Some((n.span, format!("now a {}", n.kind.keyword()))),
                Some("the kinds have different encodings; declare a new type instead"),
            ),
        }
        if o.deprecated != n.deprecated {
            self.push(
                Rule::DeprecationChanged,
                format!(
                    "`{}` is {} deprecated",
                    n.name,
                    if n.deprecated { "now" } else { "no longer" }
                ),
                Some((o.span, "before".into())),
                Some((n.span, "now".into())),
                None,
            );
        }
    }

    fn compare_struct(&mut self, o: &TypeDef, n: &TypeDef, of: &[Field], nf: &[Field]) {
        let same_layout = of.len() == nf.len()
            && of
                .iter()
                .zip(nf)
                .all(|(a, b)| self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()));
        if !same_layout {
            let (old_at, new_at, what) = match of
                .iter()
                .zip(nf)
                .position(|(a, b)| !self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()))
            {
                Some(i) => (
                    of[i].span,
                    nf[i].span,
                    format!(
                        "field `{}` is now `{}` (was `{}`)",
                        nf[i].name, nf[i].ty, of[i].ty
                    ),
                ),
                None if nf.len() > of.len() => (
                    o.span,
                    nf[of.len()].span,
                    format!("field `{}` was added", nf[of.len()].name),
                ),
                None => (
                    of[nf.len()].span,
                    n.span,
                    format!("field `{}` was removed", of[nf.len()].name),
                ),
            };
            self.push(
                Rule::StructLayoutChanged,
                format!("struct `{}` changed layout: {what}", n.name),
                Some((old_at, "old layout".into())),
                Some((new_at, "new layout".into())),
                Some("a struct's bytes are its raw layout and are frozen; declare a new struct (or use a message, which can grow)"),
            );
            return;
        }
        for (a, b) in of.iter().zip(nf) {
            self.compare_field_source(n, a, b);
            if a.max != b.max {
                self.push(
                    Rule::StructMaxChanged,
                    format!(
                        "the limit of `{}.{}` changed from {} to {}",
                        n.name,
                        b.name,
                        show_max(a.max),
                        show_max(b.max)
                    ),
                    Some((a.span, show_max(a.max))),
                    Some((b.span, show_max(b.max))),
                    Some("the side with the lower limit rejects values the other side may send"),
                );
            }
        }
    }

    /// Changes that leave the bytes alone: names, spelled types, deprecation.
    fn compare_field_source(&mut self, owner: &TypeDef, a: &Field, b: &Field) {
        if a.name != b.name {
            self.push(
                Rule::FieldRenamed,
                format!(
                    "field `{}` of `{}` was renamed to `{}`",
                    a.name, owner.name, b.name
                ),
                Some((a.span, "old name".into())),
                Some((b.span, "new name".into())),
                Some("renaming is wire-safe (fields are identified by position); code using the field must be updated"),
            );
        }
        let (at, bt) = (a.ty.without_max(), b.ty.without_max());
        if at.to_string() != bt.to_string() {
            self.push(
                Rule::SameEncodingRetyped,
                format!(
                    "field `{}` of `{}` changed type from `{at}` to `{bt}` with the same encoding",
                    b.name, owner.name
                ),
                Some((a.span, format!("`{at}`"))),
                Some((b.span, format!("`{bt}`"))),
                Some("the bytes are the same; the generated field type changes"),
            );
        }
        let place = format!("{}.{}", owner.name, b.name);
        self.compare_element_max(&place, (&a.ty, a.span), (&b.ty, b.span));
        if a.deprecated != b.deprecated {
            self.push(
                Rule::DeprecationChanged,
                format!(
                    "field `{}` of `{}` is {} deprecated",
                    b.name,
                    owner.name,
                    if b.deprecated { "now" } else { "no longer" }
                ),
                Some((a.span, "before".into())),
                Some((b.span, "now".into())),
                None,
            );
        }
    }

    fn compare_message(&mut self, n: &TypeDef, of: &[Field], nf: &[Field]) {
        if self.removed_inside(n, of, nf) {
            return;
        }
        for (i, (a, b)) in of.iter().zip(nf).enumerate() {
            if !self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()) {
                let moved = of.iter().position(|f| f.name == b.name).filter(|&j| j != i);
                let (rule, message, help) = match moved {
                    Some(_) => (
                        Rule::MessageFieldsReordered,
                        format!("fields of message `{}` were reordered: `{}` is now field {}", n.name, b.name, i + 1),
                        "fields are identified by position; never reorder them, only append",
                    ),
                    None => (
                        Rule::MessageFieldRetyped,
                        format!(
                            "field {} of message `{}` changed type from `{}` to `{}`",
                            i + 1,
                            n.name,
                            a.ty,
                            b.ty
                        ),
                        "a field's type never changes; append a new field and deprecate the old one",
                    ),
                };
                self.push(
                    rule,
                    message,
                    Some((a.span, format!("`{}: {}`", a.name, a.ty))),
                    Some((b.span, format!("`{}: {}`", b.name, b.ty))),
                    Some(help),
                );
                continue;
            }
            self.compare_field_source(n, a, b);
            if a.default != b.default {
                self.push(
                    Rule::MessageDefaultChanged,
                    format!("the default of `{}.{}` changed", n.name, b.name),
                    Some((a.span, format!("was {}", show_default(&a.default)))),
                    Some((b.span, format!("now {}", show_default(&b.default)))),
                    Some("new readers fill the field into older data that lacks it, so old and new readers disagree on the same bytes"),
                );
            }
            if a.max != b.max {
                self.push(
                    Rule::MessageMaxChanged,
                    format!(
                        "the limit of `{}.{}` changed from {} to {}",
                        n.name,
                        b.name,
                        show_max(a.max),
                        show_max(b.max)
                    ),
                    Some((a.span, show_max(a.max))),
                    Some((b.span, show_max(b.max))),
                    Some("the side with the lower limit rejects values the other side may send"),
                );
            }
        }
        for b in nf.iter().skip(of.len()) {
            self.push(
                Rule::MessageFieldAppended,
                format!("field `{}` was appended to message `{}`", b.name, n.name),
                None,
                Some((b.span, format!("default {}", show_default(&b.default)))),
                None,
            );
        }
        for a in of.iter().skip(nf.len()) {
            self.push(
                Rule::MessageFieldRemoved,
                format!("field `{}` was removed from message `{}`", a.name, n.name),
                Some((a.span, "removed".into())),
                Some((n.span, "message without it".into())),
                Some("fields are never removed; mark it `@deprecated` instead (it stays on the wire)"),
            );
        }
    }

    /// Fields removed before the last kept one, the rest in order: reported
    /// as the removals they are, rather than as every later field changing
    /// type or moving. Returns whether that was the case.
    fn removed_inside(&mut self, n: &TypeDef, of: &[Field], nf: &[Field]) -> bool {
        let kept = |a: &&Field| nf.iter().any(|b| b.name == a.name);
        let Some(last_kept) = of.iter().rposition(|a| kept(&a)) else {
            return false;
        };
        let removed: Vec<&Field> = of[..last_kept].iter().filter(|a| !kept(a)).collect();
        let survivors: Vec<&str> = of.iter().filter(kept).map(|a| a.name.as_str()).collect();
        let same_order = nf
            .iter()
            .take(survivors.len())
            .map(|b| b.name.as_str())
            .eq(survivors.iter().copied());
        if removed.is_empty() || !same_order {
            return false;
        }
        for a in removed {
            self.push(
                Rule::MessageFieldRemoved,
                format!("field `{}` was removed from message `{}`", a.name, n.name),
                Some((a.span, "removed".into())),
                Some((n.span, "message without it".into())),
                Some("fields are identified by position, so every later field now decodes as another; mark it `@deprecated` instead (it stays on the wire)"),
            );
        }
        for b in nf.iter().skip(survivors.len()) {
            self.push(
                Rule::MessageFieldAppended,
                format!("field `{}` was appended to message `{}`", b.name, n.name),
                None,
                Some((b.span, format!("default {}", show_default(&b.default)))),
                None,
            );
        }
        true
    }

    fn compare_enum(
        &mut self,
        o: &TypeDef,
        n: &TypeDef,
        ob: Prim,
        nb: Prim,
        ov: &[EnumValue],
        nv: &[EnumValue],
    ) {
        if ob != nb {
            self.push(
                Rule::EnumBaseChanged,
                format!(
                    "enum `{}` changed its base type from `{}` to `{}`",
                    n.name,
                    ob.name(),
                    nb.name()
                ),
                Some((o.span, ob.name().into())),
                Some((n.span, nb.name().into())),
                Some("the base type is the size on the wire and never changes"),
            );
            return;
        }
        if let (Some(a), Some(b)) = (ov.first(), nv.first()) {
            if a.value != b.value {
                self.push(
                    Rule::EnumDefaultChanged,
                    format!(
                        "the default of enum `{}` changed from `{}` to `{}`",
                        n.name, a.name, b.name
                    ),
                    Some((a.span, "the first value is the default".into())),
                    Some((b.span, "now first".into())),
                    Some("keep the first value first; add new values after it"),
                );
            }
        }
        for a in ov {
            match nv.iter().find(|b| b.name == a.name) {
                Some(b) if b.value != a.value => self.push(
                    Rule::EnumValueRenumbered,
                    format!(
                        "`{}::{}` was renumbered from {} to {}",
                        n.name, a.name, a.value, b.value
                    ),
                    Some((a.span, a.value.to_string())),
                    Some((b.span, b.value.to_string())),
                    Some("enum values are never renumbered"),
                ),
                Some(b) => {
                    if a.deprecated != b.deprecated {
                        self.push(
                            Rule::DeprecationChanged,
                            format!(
                                "`{}::{}` is {} deprecated",
                                n.name,
                                b.name,
                                if b.deprecated { "now" } else { "no longer" }
                            ),
                            Some((a.span, "before".into())),
                            Some((b.span, "now".into())),
                            None,
                        );
                    }
                }
                None => match nv
                    .iter()
                    .find(|b| b.value == a.value && !ov.iter().any(|x| x.name == b.name))
                {
                    Some(b) => self.push(
                        Rule::EnumValueRenamed,
                        format!("`{}::{}` was renamed to `{}`", n.name, a.name, b.name),
                        Some((a.span, "old name".into())),
                        Some((b.span, "new name".into())),
                        Some("the number is unchanged, so the wire is too; code using the old name must be updated"),
                    ),
                    None => self.push(
                        Rule::EnumValueRemoved,
                        format!("`{}::{}` ({}) was removed", n.name, a.name, a.value),
                        Some((a.span, "removed".into())),
                        Some((n.span, "enum without it".into())),
                        Some("values are never removed: old peers still send it; mark it `@deprecated` instead"),
                    ),
                },
            }
        }
        for b in nv {
            if !ov.iter().any(|a| a.name == b.name || a.value == b.value) {
                self.push(
                    Rule::EnumValueAdded,
                    format!("`{}::{}` ({}) was added", n.name, b.name, b.value),
                    None,
                    Some((b.span, "new value".into())),
                    Some("old readers keep it as an unknown value and write it back unchanged"),
                );
            }
        }
    }

    fn compare_union(
        &mut self,
        o: &TypeDef,
        n: &TypeDef,
        (ot, ov, or): (Prim, &[Variant], &[u16]),
        (nt, nv, nr): (Prim, &[Variant], &[u16]),
    ) {
        if ot != nt {
            self.push(
                Rule::UnionTagWidthChanged,
                format!(
                    "union `{}` changed its tag from `{}` to `{}`",
                    n.name,
                    ot.name(),
                    nt.name()
                ),
                Some((o.span, ot.name().into())),
                Some((n.span, nt.name().into())),
                Some("the tag width is part of every frame and never changes"),
            );
            return;
        }
        if let (Some(a), Some(b)) = (ov.first(), nv.first()) {
            if a.tag != b.tag {
                self.push(
                    Rule::UnionDefaultChanged,
                    format!(
                        "the default of union `{}` changed from `{}` to `{}`",
                        n.name, a.name, b.name
                    ),
                    Some((a.span, "the first variant is the default".into())),
                    Some((b.span, "now first".into())),
                    Some("keep the first variant first; add new variants after it"),
                );
            }
        }
        for a in ov {
            match nv.iter().find(|b| b.tag == a.tag) {
                Some(b) if !self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()) => self.push(
                    Rule::UnionTagRepointed,
                    format!(
                        "tag {} of union `{}` was re-pointed from `{}({})` to `{}({})`",
                        a.tag, n.name, a.name, a.ty, b.name, b.ty
                    ),
                    Some((a.span, format!("`{}`", a.ty))),
                    Some((b.span, format!("`{}`", b.ty))),
                    Some("a tag keeps its payload type forever; add a variant with a new tag"),
                ),
                Some(b) => {
                    if a.name != b.name {
                        self.push(
                            Rule::UnionVariantRenamed,
                            format!(
                                "variant `{}::{}` was renamed to `{}`",
                                n.name, a.name, b.name
                            ),
                            Some((a.span, "old name".into())),
                            Some((b.span, "new name".into())),
                            Some("the tag is unchanged, so the wire is too; code using the old name must be updated"),
                        );
                    }
                    let (at, bt) = (a.ty.without_max(), b.ty.without_max());
                    if at.to_string() != bt.to_string() {
                        self.push(
                            Rule::SameEncodingRetyped,
                            format!(
                                "variant `{}::{}` changed payload type from `{at}` to `{bt}` with the same encoding",
                                n.name, b.name
                            ),
                            Some((a.span, format!("`{at}`"))),
                            Some((b.span, format!("`{bt}`"))),
                            None,
                        );
                    }
                    let place = format!("{}.{}", n.name, b.name);
                    self.compare_element_max(&place, (&a.ty, a.span), (&b.ty, b.span));
                }
                None if nr.contains(&a.tag) => self.push(
                    Rule::UnionVariantRemovedReserved,
                    format!(
                        "variant `{}::{}` was removed and its tag {} reserved",
                        n.name, a.name, a.tag
                    ),
                    Some((a.span, "removed".into())),
                    Some((n.span, format!("tag {} reserved", a.tag))),
                    Some("new readers decode it as `Unknown`; code using the variant must be updated"),
                ),
                None => self.push(
                    Rule::UnionVariantRemoved,
                    format!(
                        "variant `{}::{}` was removed without reserving tag {}",
                        n.name, a.name, a.tag
                    ),
                    Some((a.span, "removed".into())),
                    Some((n.span, "union without it".into())),
                    Some(&format!("add `reserved {},` to the union so the tag is never reused", a.tag)),
                ),
            }
        }
        for b in nv {
            if ov.iter().any(|a| a.tag == b.tag) {
                continue;
            }
            if or.contains(&b.tag) {
                self.push(
                    Rule::UnionReservedTagReused,
                    format!(
                        "variant `{}::{}` reuses reserved tag {}",
                        n.name, b.name, b.tag
                    ),
                    Some((o.span, format!("tag {} reserved here", b.tag))),
                    Some((b.span, "reused".into())),
                    Some("old peers may still send the removed variant with this tag; pick a new tag"),
                );
            } else {
                self.push(
                    Rule::UnionVariantAdded,
                    format!("variant `{}::{}` (tag {}) was added", n.name, b.name, b.tag),
                    None,
                    Some((b.span, "new variant".into())),
                    Some("old readers decode it as `Unknown` and write it back unchanged"),
                );
            }
        }
        for tag in or {
            if !nr.contains(tag) && !nv.iter().any(|b| b.tag == *tag) {
                self.push(
                    Rule::UnionTagUnreserved,
                    format!("tag {tag} of union `{}` is no longer reserved", n.name),
                    Some((o.span, format!("reserved {tag}"))),
                    Some((n.span, "not reserved".into())),
                    Some("a reserved tag stays reserved, so that it is never reused"),
                );
            }
        }
    }

    /// The `@max` limits on the elements, keys and values of two types with
    /// the same encoding (of field or variant `place`), each change
    /// reported on its own.
    fn compare_element_max(
        &mut self,
        place: &str,
        (a, a_at): (&Type, Span),
        (b, b_at): (&Type, Span),
    ) {
        let mut changes = Vec::new();
        element_max_changes(a, b, place.to_string(), &mut changes);
        for (part, was, now) in changes {
            self.push(
                Rule::ElementMaxChanged,
                format!(
                    "the limit on `{part}` changed from {} to {}",
                    show_max(was),
                    show_max(now)
                ),
                Some((a_at, show_max(was))),
                Some((b_at, show_max(now))),
                Some("the side with the lower limit rejects values the other side may send"),
            );
        }
    }

    /// Whether two types have the same encoding. Declared types are compared
    /// by their definitions, so a renamed type with the same layout matches.
    fn wire_eq(&self, a: &Type, b: &Type, seen: &mut HashSet<(TypeId, TypeId)>) -> bool {
        let is_byte_list = |t: &Type| matches!(t, Type::List(e) if e.ty == Type::Prim(Prim::U8));
        match (a, b) {
            (Type::Prim(x), Type::Prim(y)) => x == y,
            (Type::String, Type::String) => true,
            (Type::Bytes, Type::Bytes) => true,
            (Type::Bytes, t) | (t, Type::Bytes) => is_byte_list(t),
            (Type::List(x), Type::List(y)) => self.wire_eq(x, y, seen),
            (Type::Optional(x), Type::Optional(y)) => self.wire_eq(x, y, seen),
            (Type::Map(k1, v1), Type::Map(k2, v2)) => {
                self.wire_eq(k1, k2, seen) && self.wire_eq(v1, v2, seen)
            }
            (Type::Array(x, n), Type::Array(y, m)) => n == m && self.wire_eq(x, y, seen),
            (Type::Named(x), Type::Named(y)) => {
                if qualified(self.old, x.id) == qualified(self.new, y.id) {
                    // The same type: its own changes are reported for it.
                    return true;
                }
                if !seen.insert((x.id, y.id)) {
                    return true;
                }
                self.def_wire_eq(self.old.ty(x.id), self.new.ty(y.id), seen)
            }
            _ => false,
        }
    }

    fn def_wire_eq(&self, a: &TypeDef, b: &TypeDef, seen: &mut HashSet<(TypeId, TypeId)>) -> bool {
        let fields_eq =
            |this: &Self, x: &[Field], y: &[Field], seen: &mut HashSet<(TypeId, TypeId)>| {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(f, g)| this.wire_eq(&f.ty, &g.ty, seen))
            };
        match (&a.kind, &b.kind) {
            (TypeKind::Struct { fields: x }, TypeKind::Struct { fields: y })
            | (TypeKind::Message { fields: x, .. }, TypeKind::Message { fields: y, .. }) => {
                fields_eq(self, x, y, seen)
            }
            (TypeKind::Enum { base: x, .. }, TypeKind::Enum { base: y, .. }) => x == y,
            (
                TypeKind::Union {
                    tag: t1,
                    variants: v1,
                    ..
                },
                TypeKind::Union {
                    tag: t2,
                    variants: v2,
                    ..
                },
            ) => {
                t1 == t2
                    && v1.len() == v2.len()
                    && v1
                        .iter()
                        .zip(v2)
                        .all(|(p, q)| p.tag == q.tag && self.wire_eq(&p.ty, &q.ty, seen))
            }
            _ => false,
        }
    }
}

fn show_default(v: &Option<Value>) -> String {
    match v {
        None => "the zero value".to_string(),
        Some(Value::Bool(b)) => format!("`{b}`"),
        Some(Value::Int(i)) => format!("`{i}`"),
        Some(Value::Float(f)) => format!("`{f}`"),
        Some(Value::String(s)) => format!("`{s:?}`"),
        Some(Value::Enum { name, .. }) => format!("`{name}`"),
    }
}

/// The element, key and value limits that differ between two types of the
/// same encoding, each with its part (`Chat.mentions[]`), in wire order.
fn element_max_changes(
    a: &Type,
    b: &Type,
    place: String,
    out: &mut Vec<(String, Option<u32>, Option<u32>)>,
) {
    let parts = |x: &Elem, y: &Elem, part: String, out: &mut Vec<_>| {
        if x.max != y.max {
            out.push((part.clone(), x.max, y.max));
        }
        element_max_changes(&x.ty, &y.ty, part, out);
    };
    match (a, b) {
        (Type::List(x), Type::List(y)) | (Type::Array(x, _), Type::Array(y, _)) => {
            parts(x, y, format!("{place}[]"), out);
        }
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            parts(k1, k2, format!("{place}[key]"), out);
            parts(v1, v2, format!("{place}[value]"), out);
        }
        (Type::Optional(x), Type::Optional(y)) => element_max_changes(x, y, place, out),
        // `bytes` and `list<u8>`: `u8` takes no limit.
        _ => {}
    }
}

fn show_max(m: Option<u32>) -> String {
    match m {
        Some(n) => format!("@max({n})"),
        None => "no limit".to_string(),
    }
}
