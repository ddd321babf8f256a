//! Structs and messages: fields are paired by name, then checked for their
//! position, which is all the wire knows them by.

use std::collections::{HashMap, HashSet};

use super::{same_element_max, show_max, Comparer, Rule};
use crate::ir::*;

/// How the fields of two versions of a struct or message correspond.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Pairing {
    /// (old index, new index) of fields with the same name, in old order.
    pub kept: Vec<(usize, usize)>,
    /// The kept pairs whose order among the kept fields changed: each now
    /// sits where another field was.
    pub moved: Vec<(usize, usize)>,
    /// (old index, new index) of a name that disappeared while a new name
    /// took its position.
    pub renamed: Vec<(usize, usize)>,
    /// Old fields whose name is gone, not renamed.
    pub removed: Vec<usize>,
    /// New fields with a new name, not renamed, and whether each comes after
    /// every field that was there before (appended rather than inserted).
    pub added: Vec<(usize, bool)>,
}

/// Pairs `old` with `new` by name.
pub(super) fn pair(old: &[Field], new: &[Field]) -> Pairing {
    let new_at: HashMap<&str, usize> = new
        .iter()
        .enumerate()
        .map(|(j, f)| (f.name.as_str(), j))
        .collect();
    let old_names: HashSet<&str> = old.iter().map(|f| f.name.as_str()).collect();
    let mut p = Pairing::default();
    for (i, f) in old.iter().enumerate() {
        if let Some(&j) = new_at.get(f.name.as_str()) {
            p.kept.push((i, j));
        }
    }
    // Ranks among the kept fields: fields removed or added around them move
    // their positions, not their order.
    let mut by_new: Vec<usize> = (0..p.kept.len()).collect();
    by_new.sort_by_key(|&k| p.kept[k].1);
    for (rank, &k) in by_new.iter().enumerate() {
        if rank != k {
            p.moved.push(p.kept[k]);
        }
    }
    p.moved.sort_unstable();
    let gone = |i: usize| !new_at.contains_key(old[i].name.as_str());
    let fresh = |j: usize| !old_names.contains(new[j].name.as_str());
    for i in (0..old.len()).filter(|&i| gone(i)) {
        if i < new.len() && fresh(i) {
            p.renamed.push((i, i));
        } else {
            p.removed.push(i);
        }
    }
    let renamed: HashSet<usize> = p.renamed.iter().map(|&(_, j)| j).collect();
    let last_known = p.kept.iter().chain(&p.renamed).map(|&(_, j)| j).max();
    for j in (0..new.len()).filter(|&j| fresh(j) && !renamed.contains(&j)) {
        p.added.push((j, last_known.is_none_or(|l| j > l)));
    }
    p
}

/// Whether every field of `new` is where the field of that name was in
/// `old`, or renamed in place, with none added or removed.
fn same_places(old: &[Field], new: &[Field]) -> bool {
    let p = pair(old, new);
    old.len() == new.len() && p.moved.is_empty() && p.kept.iter().all(|(i, j)| i == j)
}

/// A field's default as what a reader fills in, for comparing two versions.
#[derive(Clone, Debug, PartialEq)]
enum Filled {
    Bool(bool),
    Int(i128),
    /// The bits, so that `nan` equals `nan` and `-0.0` differs from `0.0`.
    Float(u64),
    String(String),
    /// A value of an enum by name and number.
    Enum(String, u64),
    /// The zero value of a type without a literal form (a list, a
    /// message, an absent optional).
    Empty,
}

fn filled(ir: &Ir, ty: &Type, default: Option<&Value>) -> Filled {
    match ir.default_value(ty, default) {
        DefaultValue::Declared(Value::Bool(b)) => Filled::Bool(*b),
        DefaultValue::Declared(Value::Int(i)) => Filled::Int(*i),
        DefaultValue::Declared(Value::Float(f)) => Filled::Float(f.to_bits()),
        DefaultValue::Declared(Value::String(s)) => Filled::String(s.clone()),
        DefaultValue::Declared(Value::Enum { name, value, .. }) => {
            Filled::Enum(name.clone(), *value)
        }
        DefaultValue::Scalar(Prim::Bool) => Filled::Bool(false),
        DefaultValue::Scalar(p) if p.is_float() => Filled::Float(0f64.to_bits()),
        DefaultValue::Scalar(_) => Filled::Int(0),
        DefaultValue::Empty if *ty == Type::String => Filled::String(String::new()),
        DefaultValue::EnumValue { value, .. } => Filled::Enum(value.name.clone(), value.value),
        _ => Filled::Empty,
    }
}

/// The same number, whether spelled as an integer or an enum value.
fn same_number(a: &Filled, b: &Filled) -> bool {
    match (a, b) {
        (Filled::Enum(_, x), Filled::Enum(_, y)) => x == y,
        (Filled::Enum(_, x), Filled::Int(i)) | (Filled::Int(i), Filled::Enum(_, x)) => {
            i128::from(*x) == *i
        }
        _ => a == b,
    }
}

impl Comparer<'_> {
    /// Whether the fields of two different types are the same fields: in
    /// the same places, with the same encodings, limits and defaults.
    pub(super) fn fields_equivalent(
        &self,
        old: &[Field],
        new: &[Field],
        seen: &mut HashSet<(TypeId, TypeId)>,
    ) -> bool {
        same_places(old, new)
            && old.iter().zip(new).all(|(a, b)| {
                a.max == b.max
                    && a.quantize == b.quantize
                    && same_element_max(&a.ty, &b.ty)
                    && same_number(
                        &filled(self.old, &a.ty, a.default.as_ref()),
                        &filled(self.new, &b.ty, b.default.as_ref()),
                    )
                    && self.wire_eq(&a.ty, &b.ty, seen)
            })
    }

    pub(super) fn compare_struct(&mut self, o: &TypeDef, n: &TypeDef, of: &[Field], nf: &[Field]) {
        let p = pair(of, nf);
        let frozen = "a struct's bytes are its raw layout and are frozen; declare a new struct (or use a message, which can grow)";
        for &(i, j) in &p.moved {
            self.push(
                Rule::StructFieldsReordered,
                nf[j].path.clone(),
                format!(
                    "field `{}` of struct `{}` moved from position {} to {}",
                    nf[j].name,
                    n.display_name,
                    i + 1,
                    j + 1
                ),
                Some((of[i].span, format!("field {}", i + 1))),
                Some((nf[j].span, format!("now field {}", j + 1))),
                Some("fields are identified by position, so old and new peers read each other's values as the wrong fields; never reorder them"),
            );
        }
        let moved: HashSet<(usize, usize)> = p.moved.iter().copied().collect();
        for &(i, j) in p.kept.iter().chain(&p.renamed) {
            if moved.contains(&(i, j)) {
                continue;
            }
            let (a, b) = (&of[i], &nf[j]);
            if !self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()) {
                let what = if a.name == b.name {
                    format!(
                        "field `{}` is now `{}` (was `{}`)",
                        b.name,
                        self.new.show(&b.ty),
                        self.old.show(&a.ty)
                    )
                } else {
                    format!(
                        "field {} is now `{}: {}` (was `{}: {}`)",
                        j + 1,
                        b.name,
                        self.new.show(&b.ty),
                        a.name,
                        self.old.show(&a.ty)
                    )
                };
                self.push(
                    Rule::StructLayoutChanged,
                    b.path.clone(),
                    format!("struct `{}` changed layout: {what}", n.display_name),
                    Some((a.span, format!("`{}: {}`", a.name, self.old.show(&a.ty)))),
                    Some((b.span, format!("`{}: {}`", b.name, self.new.show(&b.ty)))),
                    Some(frozen),
                );
                continue;
            }
            self.compare_field_source(n, a, b);
            self.compare_max(Rule::StructMaxChanged, n, a, b);
            self.compare_quantize(n, a, b);
        }
        for &i in &p.removed {
            self.push(
                Rule::StructLayoutChanged,
                of[i].path.clone(),
                format!(
                    "struct `{}` changed layout: field `{}` was removed",
                    n.display_name, of[i].name
                ),
                Some((of[i].span, "removed".into())),
                Some((n.span, "struct without it".into())),
                Some(frozen),
            );
        }
        for &(j, _) in &p.added {
            self.push(
                Rule::StructLayoutChanged,
                nf[j].path.clone(),
                format!(
                    "struct `{}` changed layout: field `{}` was added",
                    n.display_name, nf[j].name
                ),
                Some((o.span, "old layout".into())),
                Some((nf[j].span, "new field".into())),
                Some(frozen),
            );
        }
    }

    /// `rule` (the struct's or the message's) when a field's `@max` changed.
    fn compare_max(&mut self, rule: Rule, owner: &TypeDef, a: &Field, b: &Field) {
        if a.max != b.max {
            self.push(
                rule,
                b.path.clone(),
                format!(
                    "the limit of `{}.{}` changed from {} to {}",
                    owner.display_name,
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

    /// A field's `@quantize` added, removed or changed: the stored integer
    /// means another value, or the field another width.
    fn compare_quantize(&mut self, owner: &TypeDef, a: &Field, b: &Field) {
        if a.quantize == b.quantize {
            return;
        }
        let show = |q: &Option<Quantize>| match q {
            Some(q) => format!("`{} -> {}`", q.attribute(), q.stored.name()),
            None => "none".to_string(),
        };
        self.push(
            Rule::QuantizeChanged,
            b.path.clone(),
            format!(
                "the quantization of `{}.{}` changed from {} to {}",
                owner.display_name,
                b.name,
                show(&a.quantize),
                show(&b.quantize)
            ),
            Some((a.span, show(&a.quantize))),
            Some((b.span, show(&b.quantize))),
            Some("the bytes of a quantized field are a number of steps, which another range, step or width reads as another value; add a new field instead"),
        );
    }

    /// Changes that leave the bytes alone: names, spelled types, deprecation.
    fn compare_field_source(&mut self, owner: &TypeDef, a: &Field, b: &Field) {
        if a.name != b.name {
            self.push(
                Rule::FieldRenamed,
                b.path.clone(),
                format!(
                    "field `{}` of `{}` was renamed to `{}`",
                    a.name, owner.display_name, b.name
                ),
                Some((a.span, "old name".into())),
                Some((b.span, "new name".into())),
                Some("renaming is wire-safe (fields are identified by position); code using the field must be updated"),
            );
        }
        self.compare_spelling(
            b.path.clone(),
            format!("field `{}` of `{}`", b.name, owner.display_name),
            (&a.ty, a.span),
            (&b.ty, b.span),
        );
        self.compare_element_max(
            &b.path,
            &format!("{}.{}", owner.display_name, b.name),
            (&a.ty, a.span),
            (&b.ty, b.span),
        );
        self.compare_deprecation(
            b.path.clone(),
            (a.deprecated, b.deprecated),
            format!("field `{}` of `{}`", b.name, owner.display_name),
            a.span,
            b.span,
        );
    }

    pub(super) fn compare_message(&mut self, n: &TypeDef, of: &[Field], nf: &[Field]) {
        let p = pair(of, nf);
        for &(i, j) in &p.moved {
            self.push(
                Rule::MessageFieldsReordered,
                nf[j].path.clone(),
                format!(
                    "field `{}` of message `{}` moved from position {} to {}",
                    nf[j].name,
                    n.display_name,
                    i + 1,
                    j + 1
                ),
                Some((of[i].span, format!("field {}: `{}`", i + 1, self.old.show(&of[i].ty)))),
                Some((nf[j].span, format!("now field {}: `{}`", j + 1, self.new.show(&nf[j].ty)))),
                Some("fields are identified by position, so old and new peers read each other's values as the wrong fields; never reorder them, only append"),
            );
        }
        let moved: HashSet<(usize, usize)> = p.moved.iter().copied().collect();
        for &(i, j) in p.kept.iter().chain(&p.renamed) {
            if moved.contains(&(i, j)) {
                continue;
            }
            let (a, b) = (&of[i], &nf[j]);
            if !self.wire_eq(&a.ty, &b.ty, &mut HashSet::new()) {
                let message = if a.name == b.name {
                    format!(
                        "field `{}` of message `{}` changed type from `{}` to `{}`",
                        b.name,
                        n.display_name,
                        self.old.show(&a.ty),
                        self.new.show(&b.ty)
                    )
                } else {
                    format!(
                        "field {} of message `{}` changed from `{}: {}` to `{}: {}`",
                        j + 1,
                        n.display_name,
                        a.name,
                        self.old.show(&a.ty),
                        b.name,
                        self.new.show(&b.ty)
                    )
                };
                self.push(
                    Rule::MessageFieldRetyped,
                    b.path.clone(),
                    message,
                    Some((a.span, format!("`{}: {}`", a.name, self.old.show(&a.ty)))),
                    Some((b.span, format!("`{}: {}`", b.name, self.new.show(&b.ty)))),
                    Some("a field's type never changes; append a new field and deprecate the old one"),
                );
                continue;
            }
            self.compare_field_source(n, a, b);
            self.compare_default(n, a, b);
            self.compare_max(Rule::MessageMaxChanged, n, a, b);
            self.compare_quantize(n, a, b);
        }
        let last = p.kept.iter().chain(&p.renamed).map(|&(_, j)| j).max();
        for &i in &p.removed {
            let inside = last.is_some_and(|l| i <= l);
            self.push(
                Rule::MessageFieldRemoved,
                of[i].path.clone(),
                format!("field `{}` was removed from message `{}`", of[i].name, n.display_name),
                Some((of[i].span, "removed".into())),
                Some((n.span, "message without it".into())),
                Some(if inside {
                    "fields are identified by position, so every later field now decodes as another; mark it `@deprecated` instead (it stays on the wire)"
                } else {
                    "fields are never removed; mark it `@deprecated` instead (it stays on the wire)"
                }),
            );
        }
        for &(j, appended) in &p.added {
            let b = &nf[j];
            if appended {
                self.push(
                    Rule::MessageFieldAppended,
                    b.path.clone(),
                    format!(
                        "field `{}` was appended to message `{}`",
                        b.name, n.display_name
                    ),
                    None,
                    Some((b.span, format!("default {}", show_default(&b.default)))),
                    None,
                );
            } else {
                let old_names: HashSet<&str> = of.iter().map(|f| f.name.as_str()).collect();
                let next = nf[j + 1..]
                    .iter()
                    .find(|f| old_names.contains(f.name.as_str()))
                    .map_or(String::new(), |f| format!(" before `{}`", f.name));
                self.push(
                    Rule::MessageFieldInserted,
                    b.path.clone(),
                    format!(
                        "field `{}` was added to message `{}`{next}, not at the end",
                        b.name, n.display_name
                    ),
                    None,
                    Some((b.span, format!("new field {}", j + 1))),
                    Some("fields are identified by position, so every later field now decodes as another; append new fields at the end"),
                );
            }
        }
    }

    /// `message-default-changed` when readers fill in another value for a
    /// missing field. A default naming an enum value by the same name or
    /// number is unchanged: a renumbered value or a new first value of the
    /// enum is reported once, for the enum.
    fn compare_default(&mut self, owner: &TypeDef, a: &Field, b: &Field) {
        let same_type = self.same_identity(&a.ty, &b.ty);
        if same_type && a.default.is_none() && b.default.is_none() {
            return;
        }
        let (x, y) = (
            filled(self.old, &a.ty, a.default.as_ref()),
            filled(self.new, &b.ty, b.default.as_ref()),
        );
        let unchanged = same_number(&x, &y)
            || matches!((&x, &y), (Filled::Enum(p, _), Filled::Enum(q, _)) if same_type && p == q);
        if unchanged {
            return;
        }
        self.push(
            Rule::MessageDefaultChanged,
            b.path.clone(),
            format!("the default of `{}.{}` changed", owner.display_name, b.name),
            Some((a.span, format!("was {}", show_filled(&x)))),
            Some((b.span, format!("now {}", show_filled(&y)))),
            Some("new readers fill the field into older data that lacks it, so old and new readers disagree on the same bytes"),
        );
    }
}

fn show_filled(v: &Filled) -> String {
    match v {
        Filled::Bool(b) => format!("`{b}`"),
        Filled::Int(i) => format!("`{i}`"),
        Filled::Float(bits) => format!("`{}`", f64::from_bits(*bits)),
        Filled::String(s) => format!("`{s:?}`"),
        Filled::Enum(name, _) => format!("`{name}`"),
        Filled::Empty => "the empty value".to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(names: &str) -> Vec<Field> {
        names
            .split_whitespace()
            .map(|name| Field {
                name: name.to_string(),
                path: format!("T.{name}"),
                doc: Vec::new(),
                ty: Type::Prim(Prim::U32),
                default: None,
                default_charge: None,
                max: None,
                quantize: None,
                deprecated: false,
                deprecated_note: None,
                layout: Layout::Fixed { size: 4 },
                offset: None,
                cyclic: false,
                span: Default::default(),
            })
            .collect()
    }

    fn pairing(old: &str, new: &str) -> Pairing {
        pair(&fields(old), &fields(new))
    }

    #[test]
    fn a_swap_moves_both_fields() {
        let p = pairing("to body", "body to");
        assert_eq!(p.moved, vec![(0, 1), (1, 0)]);
        assert!(p.renamed.is_empty() && p.removed.is_empty() && p.added.is_empty());
    }

    #[test]
    fn a_removal_shifts_positions_without_moving() {
        let p = pairing("a b c", "a c");
        assert_eq!(p.kept, vec![(0, 0), (2, 1)]);
        assert!(p.moved.is_empty());
        assert_eq!(p.removed, vec![1]);
    }

    #[test]
    fn only_a_new_name_in_the_same_place_is_a_rename() {
        assert_eq!(pairing("a b c", "a x c").renamed, vec![(1, 1)]);
        // `body` is gone and `text` is new, but not in its place.
        let p = pairing("to body", "text to");
        assert!(p.renamed.is_empty());
        assert_eq!(p.removed, vec![1]);
        assert_eq!(p.added, vec![(0, false)]);
        assert!(p.moved.is_empty(), "`to` is shifted by the insertion");
    }

    #[test]
    fn a_rename_and_a_move_in_one_change() {
        // `x` renamed to `w` in place, `y` and `z` swapped.
        let p = pairing("x y z", "w z y");
        assert_eq!(p.renamed, vec![(0, 0)]);
        assert_eq!(p.moved, vec![(1, 2), (2, 1)]);
    }

    #[test]
    fn new_fields_after_every_old_one_are_appended() {
        assert_eq!(pairing("a b", "a b c d").added, vec![(2, true), (3, true)]);
        assert_eq!(pairing("a b", "a x b").added, vec![(1, false)]);
        assert!(same_places(&fields("a b"), &fields("a c")));
        assert!(!same_places(&fields("a b"), &fields("b a")));
        assert!(!same_places(&fields("a b"), &fields("a b c")));
    }
}
