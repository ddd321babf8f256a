//! `@delta` structs and messages in C#: `EncodeDelta` and `ApplyDelta`,
//! as a partial declaration after the type's codec (`delta.hbs`). What each
//! field sends is `crate::delta`'s rule; the bytes are docs/wire-format.md's
//! "Deltas". A field changed when its encoding differs from the baseline's:
//! both are written, compared and the baseline's dropped, which compares
//! floats by their bits as the rule says.

use serde::Serialize;

use super::code::{Gen, Lines, ReadCx};
use super::memory::MemoryExpr;
use super::{field_name, qualified, type_ident};
use crate::delta::{field_delta, FieldDelta};
use crate::ir::{Elem, Field, Type, TypeDef, TypeKind};

#[derive(Serialize)]
struct DeltaView {
    name: String,
    /// `class` or `struct`.
    kind: &'static str,
    /// A class checks that its baseline is not null.
    class: bool,
    /// The nesting depth of a top-level value (1 for a message).
    top_depth: u32,
    field_count: usize,
    message: bool,
    /// `PktPatchMemory`, the patch model, and the comment of its parts.
    patch_memory: String,
    patch_parts: String,
    patch_fields: Vec<PatchField>,
    write: Vec<String>,
    read_mask: String,
    read: Vec<String>,
    apply: Vec<String>,
}

/// A field of a `DeltaPatch`, a struct that holds the patches of its
/// nested `@delta` fields inline and a map's sections as arrays allocated at
/// their counts: it takes about what the model charges for the value
/// (docs/security.md), with no object per nested patch or map.
#[derive(Serialize)]
struct PatchField {
    ty: String,
    name: String,
}

fn indent(lines: Lines, by: usize) -> Lines {
    let pad = "    ".repeat(by);
    lines
        .into_iter()
        .map(|l| if l.is_empty() { l } else { format!("{pad}{l}") })
        .collect()
}

fn block(body: Lines) -> Lines {
    let mut out = vec!["{".to_string()];
    out.extend(indent(body, 1));
    out.push("}".to_string());
    out
}

/// The delta part of a `@delta` type, or `None` for any other.
pub(super) fn part(gen: &Gen, def: &TypeDef) -> Option<String> {
    if !def.delta {
        return None;
    }
    let (fields, message) = match &def.kind {
        TypeKind::Struct { fields } => (fields, false),
        TypeKind::Message { fields, .. } => (fields, true),
        _ => return None,
    };
    let class = message || !def.layout.is_fixed();
    let owner = if class { "this" } else { "null" };
    let mut view = DeltaView {
        name: type_ident(def),
        kind: if class { "class" } else { "struct" },
        class,
        top_depth: u32::from(message),
        field_count: fields.len(),
        message,
        patch_memory: String::new(),
        patch_parts: String::new(),
        patch_fields: Vec::new(),
        write: Vec::new(),
        // A type without fields reads its mask only to check it.
        read_mask: format!(
            "{}global::Pkt.PktDeltaMask.{};",
            if fields.is_empty() { "" } else { "var mask = " },
            if message {
                "ReadMessage(ref r)".to_string()
            } else {
                format!("ReadStruct(ref r, {})", fields.len())
            }
        ),
        read: Vec::new(),
        apply: Vec::new(),
    };
    // Flags after the values, which packs them.
    let mut flags = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let name = field_name(def, f);
        let gen = gen.for_member(&f.path);
        let this = format!("this.{name}");
        let base = format!("baseline.{name}");
        let var = format!("p.F{i}");
        let field = format!("{owner}, {i}");
        let cx = ReadCx {
            field: &field,
            place: f.path.clone(),
            fresh: "true",
            boxed: f.cyclic.then(|| gen.boxed_memory(&f.ty)),
        };
        let (patch, flagged, write, read, apply) = match field_delta(gen.ir, f) {
            FieldDelta::Whole => {
                // A quantized float sends its stored integer, and changed
                // when that differs.
                let (encode_this, encode_base, read) = match &f.quantize {
                    Some(q) => {
                        let one = |expr: &str| {
                            let (size, line, _) = gen.quantized_record(&f.ty, q, expr);
                            block(vec![
                                format!("long n = {size};"),
                                "var w = d.Writer(n);".to_string(),
                                line,
                            ])
                        };
                        let read = gen.quantized_record(&f.ty, q, &var).2;
                        (one(&this), one(&base), read)
                    }
                    None => {
                        let mut read = super::field_max(f, &field);
                        read.extend(gen.read_lines(&f.ty, &var, false, &cx));
                        (
                            encode(&gen, &f.ty, &this, f.max),
                            encode(&gen, &f.ty, &base, f.max),
                            read,
                        )
                    }
                };
                let mut write = vec!["int at = d.Length;".to_string()];
                write.extend(encode_this);
                write.push("int mid = d.Length;".to_string());
                write.extend(encode_base);
                write.push(format!(
                    "if (d.KeepIfDiffers(at, at, mid)) d.Set(mask, {i});"
                ));
                (
                    vec![patch_field(gen.cs_type(&f.ty), &var)],
                    true,
                    write,
                    read,
                    vec![format!("{this} = {var};")],
                )
            }
            FieldDelta::Nested(id) => {
                let q = qualified(gen.ir, gen.ir.ty(id));
                let depth = if matches!(gen.ir.ty(id).kind, TypeKind::Message { .. }) {
                    "depth + 1"
                } else {
                    "depth"
                };
                // A null object encodes as its default, so it is diffed as
                // one. A C# struct's patch needs no flag: one its delta did
                // not name changes nothing, and the model charges no more
                // for a struct than its fields.
                let fixed = gen.ir.ty(id).layout.is_fixed();
                let (cur, old, mut apply) = if fixed {
                    (this.clone(), base, Vec::new())
                } else {
                    (
                        format!("({this} ?? new {q}())"),
                        format!("({base} ?? new {q}())"),
                        vec![format!("if ({this} == null) {this} = new {q}();")],
                    )
                };
                let write = vec![
                    "int at = d.Length;".to_string(),
                    format!("d.Nested(mask, {i}, at, {cur}.WriteDelta({old}, d, {depth}));"),
                ];
                apply.push(format!("{this}.ApplyPatch(ref {var});"));
                (
                    vec![patch_field(format!("{q}.DeltaPatch"), &var)],
                    !fixed,
                    write,
                    vec![format!("{cur}.ReadDelta(ref r, ref {var});")],
                    apply,
                )
            }
            FieldDelta::Map { key, value, nested } => {
                let k = gen.cs_type(key);
                let v = gen.cs_type(value);
                let change = match nested {
                    Some(id) => format!("{}.DeltaPatch", qualified(gen.ir, gen.ir.ty(id))),
                    None => v.clone(),
                };
                let sections = [
                    patch_field(format!("{k}[]"), &format!("{var}Removed")),
                    patch_field(
                        format!("global::Pkt.PktMapEntry<{k}, {v}>[]"),
                        &format!("{var}Added"),
                    ),
                    patch_field(
                        format!("global::Pkt.PktMapEntry<{k}, {change}>[]"),
                        &format!("{var}Changed"),
                    ),
                ];
                let map = MapCx {
                    gen: &gen,
                    key,
                    value,
                    nested: nested.is_some(),
                    order: gen.key_order(key),
                    field: &field,
                    cx: &cx,
                };
                (
                    sections.into(),
                    true,
                    map.write(i, &this, &base),
                    map.read(&this, &var),
                    map.apply(&this, &var),
                )
            }
        };
        view.patch_fields.extend(patch);
        view.write.extend(block(write));
        let mut read_body = Vec::new();
        if flagged {
            flags.push(patch_field("bool".to_string(), &format!("p.Has{i}")));
            read_body.push(format!("p.Has{i} = true;"));
        }
        read_body.extend(read);
        view.read.push(format!("if (mask.Has(ref r, {i}))"));
        view.read.extend(block(read_body));
        if flagged {
            view.apply.push(format!("if (p.Has{i})"));
            view.apply.extend(block(apply));
        } else {
            view.apply.extend(apply);
        }
    }
    view.patch_fields.extend(flags);
    (view.patch_memory, view.patch_parts) = patch_memory(gen, def, fields);
    Some(super::templates().render("delta", &view))
}

/// `PktPatchMemory` of a `@delta` type (`crate::delta::PatchPart`): a
/// number, plus the constants of the types whose models it names (those
/// of nested `@delta` fields always), and the comment of its parts.
fn patch_memory(gen: &Gen, def: &TypeDef, fields: &[Field]) -> (String, String) {
    use crate::delta::{PatchPart, MAP_PATCH_MEMORY, PATCH, PATCH_FIELD};
    let mut sum = MemoryExpr::Literal(PATCH);
    let mut terms = vec![format!("{PATCH} for the patch")];
    if !fields.is_empty() {
        terms.push(format!("{PATCH_FIELD} per field"));
    }
    let mut named = MemoryExpr::Literal(0);
    for f in fields {
        sum = sum.add(MemoryExpr::Literal(PATCH_FIELD));
        let part = match crate::delta::patch_part(gen.ir, f) {
            PatchPart::Whole { ty, cyclic: true } => {
                MemoryExpr::Literal(gen.ir.slot_memory(ty, true).size)
            }
            PatchPart::Whole { ty, .. } => gen.memory_expr(ty),
            PatchPart::Nested(id) => MemoryExpr::Expr(format!(
                "{}.PktPatchMemory",
                qualified(gen.ir, gen.ir.ty(id))
            )),
            PatchPart::Map => MemoryExpr::Literal(MAP_PATCH_MEMORY),
        };
        let name = field_name(def, f);
        match part {
            MemoryExpr::Literal(n) => {
                terms.push(format!("{n} {name}"));
                sum = sum.add(MemoryExpr::Literal(n));
            }
            e => {
                terms.push(name);
                named = named.add(e);
            }
        }
    }
    (sum.add(named).to_string(), terms.join(" + "))
}

/// The patch field `p.<name>` of type `ty`.
fn patch_field(ty: String, var: &str) -> PatchField {
    PatchField {
        ty,
        name: var.trim_start_matches("p.").to_string(),
    }
}

/// Statements appending the whole encoding of `expr` to the delta `d`.
fn encode(gen: &Gen, ty: &Type, expr: &str, max: Option<u32>) -> Lines {
    let mut size = Lines::new();
    let constant = gen.size_lines(&mut size, ty, expr);
    let mut body = vec![format!("long n = {constant};")];
    if !size.is_empty() {
        body.push("checked".to_string());
        body.extend(block(size));
    }
    body.push("var w = d.Writer(n);".to_string());
    let mut write = super::code::Code::new(0);
    gen.write(&mut write, ty, expr, max, 0);
    body.extend(write.finish().lines().map(str::to_string));
    block(body)
}

/// One map field's delta: keys removed, entries added, entries changed.
struct MapCx<'a> {
    gen: &'a Gen<'a>,
    key: &'a Elem,
    value: &'a Elem,
    /// The values are `@delta` types: a change is their delta.
    nested: bool,
    order: String,
    field: &'a str,
    cx: &'a ReadCx<'a>,
}

impl MapCx<'_> {
    fn write(&self, i: usize, this: &str, base: &str) -> Lines {
        let (kt, vt) = (&self.key.ty, &self.value.ty);
        let mut l = vec![
            "int at = d.Length;".to_string(),
            format!("var cur = {this};"),
            format!("var old = {base};"),
            "int nc = cur == null ? 0 : cur.Count;".to_string(),
            "int no = old == null ? 0 : old.Count;".to_string(),
            "bool any = false;".to_string(),
            "int count = d.BeginCount();".to_string(),
            "int entries = 0;".to_string(),
            "for (int i = 0; i < no; i++)".to_string(),
        ];
        let mut removed =
            vec!["if (cur != null && cur.ContainsKey(old.KeyAt(i))) continue;".into()];
        removed.extend(encode(self.gen, kt, "old.KeyAt(i)", None));
        removed.push("entries++;".into());
        l.extend(block(removed));
        l.push("d.EndCount(count, entries);".into());
        l.push("any |= entries > 0;".into());
        l.push("count = d.BeginCount();".into());
        l.push("entries = 0;".into());
        l.push("for (int i = 0; i < nc; i++)".into());
        let mut added = vec!["if (old != null && old.ContainsKey(cur.KeyAt(i))) continue;".into()];
        added.extend(encode(self.gen, kt, "cur.KeyAt(i)", None));
        added.extend(encode(self.gen, vt, "cur.ValueAt(i)", None));
        added.push("entries++;".into());
        l.extend(block(added));
        l.push("d.EndCount(count, entries);".into());
        l.push("any |= entries > 0;".into());
        l.push("count = d.BeginCount();".into());
        l.push("entries = 0;".into());
        l.push("for (int i = 0; i < nc; i++)".into());
        let mut changed = vec![
            format!("{} b;", self.gen.cs_type(self.value)),
            "if (old == null || !old.TryGetValue(cur.KeyAt(i), out b)) continue;".into(),
            "int kat = d.Length;".into(),
        ];
        changed.extend(encode(self.gen, kt, "cur.KeyAt(i)", None));
        if self.nested {
            changed.push(format!("var v = {};", self.or_default("cur.ValueAt(i)")));
            changed.push(format!(
                "if (v.WriteDelta({}, d, depth + 1)) entries++;",
                self.or_default("b")
            ));
            changed.push("else d.Truncate(kat);".into());
        } else {
            changed.push("int vat = d.Length;".into());
            changed.extend(encode(self.gen, vt, "cur.ValueAt(i)", None));
            changed.push("int mid = d.Length;".into());
            changed.extend(encode(self.gen, vt, "b", None));
            changed.push("if (d.KeepIfDiffers(kat, vat, mid)) entries++;".into());
        }
        l.extend(block(changed));
        l.push("d.EndCount(count, entries);".into());
        l.push(format!("d.Nested(mask, {i}, at, any || entries > 0);"));
        l
    }

    /// `expr`, or a new default value for a null object (which encodes
    /// as the default).
    fn or_default(&self, expr: &str) -> String {
        match &self.value.ty {
            Type::Named(r) if !self.gen.ir.ty(r.id).layout.is_fixed() => {
                format!(
                    "({expr} ?? new {}())",
                    qualified(self.gen.ir, self.gen.ir.ty(r.id))
                )
            }
            _ => expr.to_string(),
        }
    }

    /// Reads the three sections into `{var}Removed`, `{var}Added` and
    /// `{var}Changed`, each array allocated after its count is charged.
    fn read(&self, this: &str, var: &str) -> Lines {
        let gen = self.gen;
        let (kt, vt) = (&self.key.ty, &self.value.ty);
        let (k, v) = (gen.cs_type(self.key), gen.cs_type(self.value));
        let (min_k, min_v) = (gen.min_size(kt), gen.min_size(vt));
        let change_min = match (self.nested, vt) {
            (true, Type::Named(r)) if matches!(gen.ir.ty(r.id).kind, TypeKind::Message { .. }) => {
                crate::wire::BODY_PREFIX
            }
            (true, _) => 1,
            (false, _) => min_v,
        };
        let change = match (self.nested, vt) {
            (true, Type::Named(r)) => format!("{}.DeltaPatch", qualified(gen.ir, gen.ir.ty(r.id))),
            _ => v.clone(),
        };
        let (mem_k, mem_v) = (gen.memory_expr(kt), gen.memory_expr(vt));
        let entry = mem_k.clone().add(mem_v);
        let order = &self.order;
        let field = self.field;
        let key_cx = ReadCx {
            field,
            place: format!("{}[key]", self.cx.place),
            fresh: "false",
            boxed: None,
        };
        let value_cx = ReadCx {
            field,
            place: format!("{}[value]", self.cx.place),
            fresh: "false",
            boxed: None,
        };
        let read_key = gen.read_lines(kt, "k", false, &key_cx);
        let section = |count: String, array: String, name: &str, body: Lines| -> Lines {
            let mut l = vec![count, "if (c > 0)".to_string()];
            let mut inner = vec![
                format!("var s = new {array}[c];"),
                format!("{var}{name} = s;"),
                "for (int i = 0; i < c; i++)".to_string(),
            ];
            inner.extend(block(body));
            l.extend(block(inner));
            l
        };
        let mut l = vec![format!("var old = {this};")];
        let mut removed = vec!["int at = r.Position;".to_string(), format!("{k} k;")];
        removed.extend(read_key.clone());
        removed.push(format!(
            "global::Pkt.PktDelta.Removed(ref r, {order}, old, s, i, k, at);"
        ));
        l.extend(section(
            format!("int c = r.ReadCount({min_k}, {mem_k}, {field});"),
            k.clone(),
            "Removed",
            removed,
        ));
        let mut added = vec!["int at = r.Position;".to_string(), format!("{k} k;")];
        added.extend(read_key.clone());
        added.push(format!(
            "global::Pkt.PktDelta.Added(ref r, {order}, old, s, i, k, at);"
        ));
        added.push(format!("{v} v;"));
        added.extend(gen.read_lines(vt, "v", false, &value_cx));
        added.push("s[i].Value = v;".into());
        l.extend(section(
            format!("c = r.ReadMapCount({}, {entry}, {field});", min_k + min_v),
            format!("global::Pkt.PktMapEntry<{k}, {v}>"),
            "Added",
            added,
        ));
        let mut changed = vec!["int at = r.Position;".to_string(), format!("{k} k;")];
        changed.extend(read_key);
        let check =
            format!("global::Pkt.PktDelta.Changed(ref r, {order}, old, {var}Removed, s, i, k, at)");
        if self.nested {
            changed.push(format!("var b = {check};"));
            changed.push(format!(
                "{}.ReadDelta(ref r, ref s[i].Value);",
                self.or_default("b")
            ));
        } else {
            changed.push(format!("{check};"));
            changed.push(format!("{v} v;"));
            changed.extend(gen.read_lines(vt, "v", false, &value_cx));
            changed.push("s[i].Value = v;".into());
        }
        // A patch is charged its model when that is more than the value's.
        let change_entry = match (self.nested, vt) {
            (true, Type::Named(r)) => mem_k.clone().add(MemoryExpr::Expr(format!(
                "global::Pkt.PktDelta.ChangeMemory({}, {}.PktPatchMemory)",
                gen.memory_expr(vt),
                qualified(gen.ir, gen.ir.ty(r.id))
            ))),
            _ => entry.clone(),
        };
        l.extend(section(
            format!(
                "c = r.ReadCount({}, {change_entry}, {field});",
                min_k + change_min
            ),
            format!("global::Pkt.PktMapEntry<{k}, {change}>"),
            "Changed",
            changed,
        ));
        l
    }

    /// Applies the sections in one pass over the map (`PktDelta.Apply`);
    /// a changed value is replaced, or patched by a cached lambda.
    fn apply(&self, this: &str, var: &str) -> Lines {
        let gen = self.gen;
        let v = gen.cs_type(self.value);
        let change = match &self.value.ty {
            Type::Named(r) if self.nested => {
                let q = qualified(gen.ir, gen.ir.ty(r.id));
                let fresh = if gen.ir.ty(r.id).layout.is_fixed() {
                    String::new()
                } else {
                    format!("if (v == null) v = new {q}(); ")
                };
                format!(
                    "({v} v, ref {q}.DeltaPatch c) => {{ {fresh}v.ApplyPatch(ref c); return v; }}"
                )
            }
            _ => format!("global::Pkt.PktDelta.Whole<{v}>()"),
        };
        vec![format!(
            "{this} = global::Pkt.PktDelta.Apply({this}, {}, {var}Removed, {var}Added, {var}Changed, {change});",
            self.order
        )]
    }
}
