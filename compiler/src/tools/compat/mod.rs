//! `pktc compat`: compares two versions of a schema and classifies every
//! change by the rules of docs/evolution.md.
//!
//! Everything is matched by identity, which is its name: types by qualified
//! name (a type found under its bare name in another namespace has moved),
//! fields and union variants by name within their type, then checked for
//! the place the wire knows them by, a field's position and a variant's
//! tag. A name kept at another place is a move (breaking); only a name that
//! disappears while a new one takes its place is a rename. Wire equality of
//! two different types is decided structurally, so a renamed type with the
//! same layout is `source-only`, and `bytes` ↔ `list<u8>` (the same bytes)
//! is too.

mod consts;
mod delta;
mod enums;
mod git;
mod records;
mod renames;
mod rules;
mod unions;
pub mod waivers;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{self, Write as _};
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
    /// What changed, by qualified name (`game.Chat.text`, `game.MAX_CHAT`,
    /// `game.Team.Red`): in the new version, or in the old one for what was
    /// removed. For constants moved to another file, that file as shown.
    /// Waivers name it.
    pub place: String,
    /// The reason of the waiver that accepts this change, if one does.
    pub waived: Option<String>,
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
    /// The findings of `kind` that no waiver accepts.
    pub fn count(&self, kind: ChangeKind) -> usize {
        self.changes
            .iter()
            .filter(|c| c.kind == kind && c.waived.is_none())
            .count()
    }

    /// The findings a waiver accepts.
    pub fn waived(&self) -> usize {
        self.changes.iter().filter(|c| c.waived.is_some()).count()
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
            let mut d = Self::diagnostic(c);
            let level = match &c.waived {
                Some(reason) => {
                    d.message = format!("{} ({reason})", d.message);
                    format!("waived[{}]", c.rule.id())
                }
                None => format!("{}[{}]", c.kind.word(), c.rule.id()),
            };
            out.push_str(&diag::render_as(&level, &d, &self.sources));
            out.push('\n');
        }
        let _ = write!(
            out,
            "{} breaking, {} source-only, {} safe",
            self.count(ChangeKind::Breaking),
            self.count(ChangeKind::SourceOnly),
            self.count(ChangeKind::Safe)
        );
        match self.waived() {
            0 => out.push('\n'),
            n => {
                let _ = writeln!(out, ", {n} waived");
            }
        }
        if let Some(first) = self.changes.first() {
            let _ = writeln!(
                out,
                "For what a rule means and what to do, try `{}`.",
                first.rule.docs()
            );
        }
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
                    "place": c.place,
                    "waived": c.waived.as_ref().map(|reason| serde_json::json!({ "reason": reason })),
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
            "waived": self.waived(),
            "changes": changes,
        })
    }
}

/// One of the two versions compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Version {
    Old,
    New,
}

/// A version that could not be read or checked, so nothing was compared.
#[derive(Debug)]
pub struct SchemaError {
    pub version: Version,
    pub failed: Failed,
}

impl SchemaError {
    /// The JSON object `pktc compat --format json` prints instead of a
    /// report: which version failed, and its diagnostics.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "error": "schema",
            "version": self.version,
            "diagnostics": self
                .failed
                .diagnostics
                .iter()
                .map(|d| d.to_json(&self.failed.sources))
                .collect::<Vec<_>>(),
        })
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.failed)?;
        write!(
            f,
            "error: the {} version has errors, so nothing was compared",
            match self.version {
                Version::Old => "old",
                Version::New => "new",
            }
        )
    }
}

impl std::error::Error for SchemaError {}

/// Compares `old` (read through `old_reader`) with `new` (read through
/// `new_reader`, usually [`crate::load::FsReader`]).
pub fn compare(
    old: &[PathBuf],
    old_reader: &dyn FileReader,
    new: &[PathBuf],
    new_reader: &dyn FileReader,
) -> Result<Report, SchemaError> {
    let old =
        crate::check_into(SourceMap::default(), old, old_reader).map_err(|failed| SchemaError {
            version: Version::Old,
            failed,
        })?;
    let new =
        crate::check_into(old.sources.clone(), new, new_reader).map_err(|failed| SchemaError {
            version: Version::New,
            failed,
        })?;
    let changes = Comparer::new(&old.ir, &new.ir).run();
    Ok(Report {
        sources: new.sources,
        changes,
    })
}

struct Comparer<'a> {
    old: &'a Ir,
    new: &'a Ir,
    /// Each old type's counterpart in the new version: the type of the same
    /// qualified name, or the one it moved to.
    counterpart: HashMap<TypeId, TypeId>,
    changes: Vec<Change>,
}

/// `namespace.Name`, or `Name` without a namespace.
fn qualified(ir: &Ir, id: TypeId) -> String {
    ir.qualified_name(ir.ty(id))
}

fn by_name(ir: &Ir) -> BTreeMap<String, TypeId> {
    (0..ir.types.len())
        .map(|i| (qualified(ir, TypeId(i)), TypeId(i)))
        .collect()
}

/// The types of `ir` not in `matched`, by bare name, for those whose bare
/// name is unique among them.
fn unique_bare_names(ir: &Ir, unmatched: impl Iterator<Item = TypeId>) -> BTreeMap<&str, TypeId> {
    let mut names: BTreeMap<&str, Option<TypeId>> = BTreeMap::new();
    for id in unmatched {
        names
            .entry(ir.ty(id).name.as_str())
            .and_modify(|e| *e = None)
            .or_insert(Some(id));
    }
    names
        .into_iter()
        .filter_map(|(n, id)| id.map(|id| (n, id)))
        .collect()
}

impl<'a> Comparer<'a> {
    fn new(old: &'a Ir, new: &'a Ir) -> Self {
        Comparer {
            old,
            new,
            counterpart: HashMap::new(),
            changes: Vec::new(),
        }
    }

    fn push(
        &mut self,
        rule: Rule,
        place: String,
        message: String,
        old: Option<(Span, String)>,
        new: Option<(Span, String)>,
        help: Option<&str>,
    ) {
        self.changes.push(Change {
            rule,
            kind: rule.class(),
            place,
            waived: None,
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
            if let Some(&nid) = new_names.get(name) {
                self.counterpart.insert(oid, nid);
            }
        }
        // A type gone from its namespace whose bare name appears, once, in
        // another namespace has moved there.
        let gone = unique_bare_names(
            self.old,
            old_names
                .iter()
                .filter(|(n, _)| !new_names.contains_key(*n))
                .map(|(_, &id)| id),
        );
        let arrived = unique_bare_names(
            self.new,
            new_names
                .iter()
                .filter(|(n, _)| !old_names.contains_key(*n))
                .map(|(_, &id)| id),
        );
        let mut moved = Vec::new();
        for (name, &oid) in &gone {
            if let Some(&nid) = arrived.get(name) {
                self.counterpart.insert(oid, nid);
                moved.push((oid, nid));
            }
        }
        for (oid, nid) in moved {
            let (o, n) = (self.old.ty(oid), self.new.ty(nid));
            self.push(
                Rule::TypeMoved,
                qualified(self.new, nid),
                format!(
                    "{} `{}` moved to namespace `{}`",
                    o.kind.keyword(),
                    qualified(self.old, oid),
                    self.new.namespace_of(n).join(".")
                ),
                Some((o.span, "declared here in the old version".into())),
                Some((n.span, "now declared here".into())),
                Some("the bytes are unchanged; code naming the type by its namespace (a Rust module, a C# namespace) must be updated"),
            );
        }
        for (oid, nid) in self.pair_renamed_types() {
            let (o, n) = (self.old.ty(oid), self.new.ty(nid));
            self.push(
                Rule::TypeRenamed,
                qualified(self.new, nid),
                format!(
                    "{} `{}` was renamed to `{}`",
                    o.kind.keyword(),
                    qualified(self.old, oid),
                    qualified(self.new, nid)
                ),
                Some((o.span, "declared here in the old version".into())),
                Some((n.span, "now declared here".into())),
                Some("it holds the place of the old type where that was used, and its own changes are listed apart; code naming the type must be updated"),
            );
        }
        let mut pairs: Vec<(TypeId, TypeId)> =
            self.counterpart.iter().map(|(&o, &n)| (o, n)).collect();
        pairs.sort();
        for (oid, nid) in pairs {
            self.compare_type(oid, nid);
        }
        let matched_new: HashSet<TypeId> = self.counterpart.values().copied().collect();
        for (name, &oid) in &old_names {
            if !self.counterpart.contains_key(&oid) {
                let def = self.old.ty(oid);
                self.push(
                    Rule::TypeRemoved,
                    name.clone(),
                    format!("{} `{name}` was removed", def.kind.keyword()),
                    Some((def.span, "declared here in the old version".into())),
                    None,
                    Some("the generated type disappears; fields and variants that used it are reported where they are"),
                );
            }
        }
        for (name, &nid) in &new_names {
            if !matched_new.contains(&nid) {
                let def = self.new.ty(nid);
                self.push(
                    Rule::TypeAdded,
                    name.clone(),
                    format!("{} `{name}` was added", def.kind.keyword()),
                    None,
                    Some((def.span, "new".into())),
                    None,
                );
            }
        }
        self.compare_consts();
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
                self.compare_struct(o, n, of, nf);
                self.compare_delta(o, n);
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
                self.compare_delta(o, n);
                if op != np {
                    self.push(
                        Rule::PreserveUnknownChanged,
                        self.new.qualified_name(n),
                        format!(
                            "message `{}` {} `@preserve_unknown`",
                            n.display_name,
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
            ) => self.compare_enum(o, n, (*ob, ov), (*nb, nv)),
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
                self.new.qualified_name(n),
                format!(
                    "`{}` changed from a {} to a {}",
                    n.display_name,
                    o.kind.keyword(),
                    n.kind.keyword()
                ),
                Some((o.span, format!("a {}", o.kind.keyword()))),
                Some((n.span, format!("now a {}", n.kind.keyword()))),
                Some("the kinds have different encodings; declare a new type instead"),
            ),
        }
        self.compare_deprecation(
            self.new.qualified_name(n),
            (o.deprecated, n.deprecated),
            format!("`{}`", n.display_name),
            o.span,
            n.span,
        );
    }

    /// A `deprecation-changed` entry for `what` if its `@deprecated` changed.
    fn compare_deprecation(
        &mut self,
        place: String,
        (old, new): (bool, bool),
        what: String,
        at: Span,
        now: Span,
    ) {
        if old != new {
            self.push(
                Rule::DeprecationChanged,
                place,
                format!(
                    "{what} is {} deprecated",
                    if new { "now" } else { "no longer" }
                ),
                Some((at, "before".into())),
                Some((now, "now".into())),
                None,
            );
        }
    }

    /// A `same-encoding-retyped` entry for `what` (a field or variant) if its
    /// type is spelled differently, `a` and `b` having the same encoding: a
    /// renamed or moved type, an enum for its base integer, `bytes` for
    /// `list<u8>`.
    fn compare_spelling(
        &mut self,
        place: String,
        what: String,
        (a, at): (&Type, Span),
        (b, now): (&Type, Span),
    ) {
        if self.same_type(a, b) {
            return;
        }
        // Element limits are compared apart (`element-max-changed`).
        let (a, b) = (&a.without_max(), &b.without_max());
        let (mut old, mut new) = (self.old.show(a).to_string(), self.new.show(b).to_string());
        if old == new {
            // The same name for another type: one moved namespace.
            (old, new) = (self.old.spelling(a), self.new.spelling(b));
        }
        self.push(
            Rule::SameEncodingRetyped,
            place,
            format!("{what} changed type from `{old}` to `{new}` with the same encoding"),
            Some((at, format!("`{old}`"))),
            Some((now, format!("`{new}`"))),
            Some("the bytes are the same; the generated type changes"),
        );
    }

    /// The `@max` limits on the elements, keys and values of two types with
    /// the same encoding (of field or variant `place`), each change
    /// reported on its own.
    fn compare_element_max(
        &mut self,
        at: &str,
        place: &str,
        (a, a_at): (&Type, Span),
        (b, b_at): (&Type, Span),
    ) {
        let mut changes = Vec::new();
        element_max_changes(a, b, place.to_string(), &mut changes);
        for (part, was, now) in changes {
            self.push(
                Rule::ElementMaxChanged,
                at.to_string(),
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

    /// Whether `a` and `b` are spelled alike: the same type expression, each
    /// declared type by its qualified name (a type that moved namespace is
    /// spelled differently).
    fn same_type(&self, a: &Type, b: &Type) -> bool {
        self.same_shape(a, b, &|x, y| {
            qualified(self.old, x) == qualified(self.new, y)
        })
    }

    /// Whether `a` and `b` are the same type expression, each declared type
    /// being its counterpart (wherever it is declared).
    fn same_identity(&self, a: &Type, b: &Type) -> bool {
        self.same_shape(a, b, &|x, y| self.counterpart.get(&x) == Some(&y))
    }

    fn same_shape(&self, a: &Type, b: &Type, named: &dyn Fn(TypeId, TypeId) -> bool) -> bool {
        match (a, b) {
            (Type::Prim(x), Type::Prim(y)) => x == y,
            (Type::String, Type::String) | (Type::Bytes, Type::Bytes) => true,
            (Type::List(x), Type::List(y)) => self.same_shape(x, y, named),
            (Type::Optional(x), Type::Optional(y)) => self.same_shape(x, y, named),
            (Type::Map(k1, v1), Type::Map(k2, v2)) => {
                self.same_shape(k1, k2, named) && self.same_shape(v1, v2, named)
            }
            (Type::Array(x, n), Type::Array(y, m)) => n == m && self.same_shape(x, y, named),
            (Type::Named(x), Type::Named(y)) => named(x.id, y.id),
            _ => false,
        }
    }

    /// Whether two types have the same encoding. A declared type and its
    /// counterpart are equal (their own changes are reported for them);
    /// other declared types are compared by their definitions, so a renamed
    /// type with the same layout matches.
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
            // An enum is its base integer on the wire.
            (Type::Named(x), Type::Prim(p)) => enum_base(self.old, x.id) == Some(*p),
            (Type::Prim(p), Type::Named(y)) => enum_base(self.new, y.id) == Some(*p),
            (Type::Named(x), Type::Named(y)) => {
                if self.counterpart.get(&x.id) == Some(&y.id) {
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

    /// Whether two different declared types encode alike and mean the same:
    /// the same kind; fields and variants in the same places (a name at
    /// another position or tag is not the same) with the same encodings,
    /// limits and defaults; enums with the same base and first value and no
    /// value renumbered.
    fn def_wire_eq(&self, a: &TypeDef, b: &TypeDef, seen: &mut HashSet<(TypeId, TypeId)>) -> bool {
        match (&a.kind, &b.kind) {
            (TypeKind::Struct { fields: x }, TypeKind::Struct { fields: y })
            | (TypeKind::Message { fields: x, .. }, TypeKind::Message { fields: y, .. }) => {
                self.fields_equivalent(x, y, seen)
            }
            (
                TypeKind::Enum {
                    base: x,
                    values: xv,
                },
                TypeKind::Enum {
                    base: y,
                    values: yv,
                },
            ) => {
                let numbers: HashMap<&str, u64> =
                    yv.iter().map(|w| (w.name.as_str(), w.value)).collect();
                x == y
                    && zero_number(a) == zero_number(b)
                    && xv
                        .iter()
                        .all(|v| numbers.get(v.name.as_str()).is_none_or(|&n| n == v.value))
            }
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
                let tags: HashMap<&str, u16> =
                    v2.iter().map(|q| (q.name.as_str(), q.tag)).collect();
                t1 == t2
                    && v1.len() == v2.len()
                    && v1.iter().zip(v2).all(|(p, q)| {
                        p.tag == q.tag
                            && tags.get(p.name.as_str()).is_none_or(|&t| t == p.tag)
                            && same_element_max(&p.ty, &q.ty)
                            && self.wire_eq(&p.ty, &q.ty, seen)
                    })
            }
            _ => false,
        }
    }
}

/// The base integer of `id`, if it is an enum.
fn enum_base(ir: &Ir, id: TypeId) -> Option<Prim> {
    match ir.ty(id).kind {
        TypeKind::Enum { base, .. } => Some(base),
        _ => None,
    }
}

/// The number of an enum's zero value, which readers fill in.
fn zero_number(def: &TypeDef) -> Option<u64> {
    def.zero_enum_value().map(|(_, v)| v.value)
}

/// Whether two types of the same encoding have the same limits on their
/// elements, keys and values.
fn same_element_max(a: &Type, b: &Type) -> bool {
    let mut changes = Vec::new();
    element_max_changes(a, b, String::new(), &mut changes);
    changes.is_empty()
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
