//! `@delta` structs and messages: the `pkt_runtime::delta::Delta` impl
//! (write the changes, read them into a patch, apply the patch) and the
//! `encode_delta`/`apply_delta` methods, after the type's other code
//! (`delta.rs.hbs`). What each field sends is `crate::delta`'s rule.

use serde::Serialize;

use super::{layout, max::Marker, member_ident, quantize::Quantized, Cx};
use crate::delta::{compare, field_delta, Compare, FieldDelta, PatchPart};
use crate::ir::*;
use crate::names::NameKind;

const PATH: &str = "::pkt_runtime::delta::";

#[derive(Serialize)]
pub(super) struct DeltaView {
    name: String,
    allow_deprecated: bool,
    /// The patch's tuple type on one line, when it fits; else empty and
    /// the elements one a line.
    patch_type: String,
    patch_elems: Vec<String>,
    min_len: u32,
    /// The arguments of `pkt_runtime::patch_memory!`, one a field: how the
    /// field's change counts in the patch model (`crate::delta::PatchPart`).
    patch_memory: Vec<String>,
    /// `const _: () = check_patch_memory::<Name>();`, laid out.
    patch_check: String,
    field_count: usize,
    message: bool,
    baseline_param: &'static str,
    write: Vec<String>,
    read_mask: String,
    read: Vec<ReadView>,
    patch_value: String,
    patch_param: &'static str,
    destructure: bool,
    apply: Vec<ApplyView>,
}

/// The reading of one field's change: the checks before it, then the
/// value (an expression without its `?`).
#[derive(Serialize)]
struct ReadView {
    var: String,
    index: usize,
    checks: Vec<String>,
    value: String,
}

#[derive(Serialize)]
struct ApplyView {
    var: String,
    statement: String,
}

impl Cx<'_> {
    pub(super) fn delta_view(&self, def_id: TypeId) -> DeltaView {
        let def = self.ir.ty(def_id);
        let message = matches!(def.kind, TypeKind::Message { .. });
        let fields = def.kind.fields();
        let reader = if message { "body" } else { "r" };
        let reader_arg = if message { "&mut body" } else { "r" };
        let mut elems = Vec::new();
        let mut write = Vec::new();
        let mut read = Vec::new();
        let mut apply = Vec::new();
        let mut patch_memory = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let name = member_ident(NameKind::Field, &f.name, def);
            patch_memory.push(format!("{name}: {},", self.patch_part(f)));
            let schema_name = format!("\"{}\"", f.path);
            let (this, base) = (format!("&self.{name}"), format!("&baseline.{name}"));
            let var = format!("f{i}");
            let target = format!("&mut self.{name}");
            let mut checks = Vec::new();
            let (value, statement) = match field_delta(self.ir, f) {
                FieldDelta::Whole if Quantized::of(f).is_some() => {
                    // The change is the stored integer, compared as such.
                    let q = Quantized::of(f).expect("quantized");
                    elems.push(self.field_type(&f.ty, f.cyclic));
                    write.push(q.delta_write(
                        i,
                        &format!("self.{name}"),
                        &format!("baseline.{name}"),
                    ));
                    (q.read(reader_arg), format!("self.{name} = v;"))
                }
                FieldDelta::Whole => {
                    elems.push(self.field_type(&f.ty, f.cyclic));
                    let differs = differs_fn(compare(self.ir, &f.ty));
                    write.push(layout::statement(
                        "mask.field",
                        &["out".into(), i.to_string(), this, base, differs],
                        ";",
                    ));
                    checks = self.field_checks(reader, f);
                    let value = if Marker::of(&f.ty, f.max).is_some() {
                        super::max::call("", "field", &[reader_arg.to_string(), schema_name], "")
                    } else {
                        layout::movable_call(&format!("{reader}.field"), &[schema_name])
                    };
                    (value, format!("self.{name} = v;"))
                }
                FieldDelta::Nested(id) => {
                    elems.push(format!("{PATH}PatchOf<{}>", self.type_path(id)));
                    write.push(layout::statement(
                        "mask.delta",
                        &["out".into(), i.to_string(), this.clone(), base],
                        "?;",
                    ));
                    if self.ir.ty(id).kind.fields().is_empty() {
                        // The patch of a type without fields is `()`.
                        checks.push("#[allow(clippy::let_unit_value)]".to_string());
                    }
                    let value = layout::movable_call(
                        &format!("{PATH}read_delta"),
                        &[this, reader_arg.to_string(), schema_name],
                    );
                    let apply = layout::statement(
                        &format!("{PATH}Delta::apply_patch"),
                        &[target, "v".into()],
                        ";",
                    );
                    (value, apply)
                }
                FieldDelta::Map {
                    key,
                    value: v,
                    nested,
                } => {
                    let (k, vt) = (self.rust_type(key), self.rust_type(v));
                    // A map whose values' patch holds this one: see
                    // `analysis::deferred_patches`.
                    let deferred = self.deferred.contains(&(def_id, i));
                    let (kind, patch, method) = match nested {
                        Some(_) if deferred => ("deferred", "MapDeferredPatch", "mask.map_delta"),
                        Some(_) => ("delta", "MapDeltaPatch", "mask.map_delta"),
                        None => ("whole", "MapWholePatch", "mask.map"),
                    };
                    let mut args = vec!["out".into(), i.to_string(), this.clone(), base];
                    if nested.is_none() {
                        args.push(differs_fn(compare(self.ir, v)));
                    }
                    elems.push(format!("{PATH}{patch}<{k}, {vt}>"));
                    write.push(layout::statement(method, &args, "?;"));
                    let value = layout::movable_call(
                        &format!("{PATH}read_map_{kind}"),
                        &[this, reader_arg.to_string(), schema_name],
                    );
                    let apply = layout::statement(
                        &format!("{PATH}apply_map_{kind}"),
                        &[target, "v".into()],
                        ";",
                    );
                    (value, apply)
                }
            };
            read.push(ReadView {
                var: var.clone(),
                index: i,
                checks,
                value,
            });
            apply.push(ApplyView { var, statement });
        }
        let vars: Vec<String> = (0..fields.len()).map(|i| format!("f{i}")).collect();
        let elems: Vec<String> = elems.into_iter().map(|e| format!("Option<{e}>")).collect();
        // A type without fields reads its mask only to check it.
        let mask = if fields.is_empty() { "" } else { "let mask = " };
        let read_mask = if message {
            format!("{mask}{PATH}Mask::read_message(&mut body)?;")
        } else {
            format!(
                "{mask}{}",
                layout::statement(
                    &format!("{PATH}Mask::read_struct"),
                    &["r".into(), fields.len().to_string()],
                    "?;",
                )
            )
        };
        DeltaView {
            name: super::type_ident(def),
            allow_deprecated: def.deprecated
                || fields.iter().any(|f| self.field_uses_deprecated(f)),
            // rustfmt keeps a tuple type on one line when its elements
            // take at most 60 columns (`fn_call_width`) and the line 100.
            patch_type: if tuple(&elems).len() - 2 <= 60
                && format!("    type Patch = {};", tuple(&elems)).len() <= 100
            {
                tuple(&elems)
            } else {
                String::new()
            },
            patch_elems: elems.iter().map(|e| layout::ty(e, false)).collect(),
            min_len: if message { crate::wire::BODY_PREFIX } else { 1 },
            patch_memory,
            patch_check: layout::split(
                "const _: ()",
                " = ",
                &format!("{PATH}check_patch_memory::<{}>();", super::type_ident(def)),
            ),
            field_count: fields.len(),
            message,
            baseline_param: if fields.is_empty() {
                "_baseline"
            } else {
                "baseline"
            },
            write,
            read_mask,
            read,
            patch_value: tuple(&vars),
            patch_param: if fields.is_empty() { "_patch" } else { "patch" },
            destructure: !fields.is_empty(),
            apply,
        }
    }
}

impl Cx<'_> {
    /// How the change of field `f` counts in its type's patch model, as
    /// `pkt_runtime::patch_memory!` takes it: `whole(T)` (the field's type,
    /// a `Box` when boxed, as `memory!` takes it), `delta(T)` or `map()`.
    fn patch_part(&self, f: &Field) -> String {
        match crate::delta::patch_part(self.ir, f) {
            PatchPart::Whole { ty, cyclic: true } => {
                let inner = match ty {
                    Type::Optional(t) => t,
                    t => t,
                };
                format!("whole(Box<{}>)", self.rust_type(inner))
            }
            PatchPart::Whole { ty, .. } => format!("whole({})", self.rust_type(ty)),
            PatchPart::Nested(id) => format!("delta({})", self.type_path(id)),
            PatchPart::Map => "map()".to_string(),
        }
    }
}

/// `(a, b)`, `(a,)` or `()`.
fn tuple(items: &[String]) -> String {
    match items {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// The function that tells whether two values differ (see [`Compare`]).
fn differs_fn(c: Compare) -> String {
    match c {
        Compare::Bits => format!("{PATH}differs_bits"),
        Compare::Equal => format!("{PATH}differs"),
        Compare::Fixed(n) => format!("{PATH}differs_fixed::<_, {n}>"),
        Compare::Encoded => format!("{PATH}differs_encoded"),
    }
}
