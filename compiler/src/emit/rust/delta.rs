//! `@delta` structs and messages: the `pkt_runtime::delta::Delta` impl
//! (write the changes, read them into a patch, apply the patch) and the
//! `encode_delta`/`apply_delta` methods, after the type's other code
//! (`delta.rs.hbs`). What each field sends is `crate::delta`'s rule.

use serde::Serialize;

use super::{call_statement, member_ident, type_lines, Cx};
use crate::delta::{compare, field_delta, Compare, FieldDelta};
use crate::ir::*;
use crate::names::NameKind;

const PATH: &str = "::pkt_runtime::delta::";

#[derive(Serialize)]
pub(super) struct DeltaView {
    name: String,
    allow_deprecated: bool,
    patch_type: Vec<String>,
    min_len: u32,
    field_count: usize,
    message: bool,
    write: Vec<String>,
    read_head: Vec<String>,
    read: Vec<String>,
    patch_value: String,
    patch_param: &'static str,
    baseline_param: &'static str,
    apply: Vec<String>,
}

impl Cx<'_> {
    pub(super) fn delta_view(&self, def: &TypeDef) -> DeltaView {
        let message = matches!(def.kind, TypeKind::Message { .. });
        let fields = def.kind.fields();
        let reader = if message { "body" } else { "r" };
        let reader_arg = if message { "&mut body" } else { "r" };
        let mut elems = Vec::new();
        let mut write = Vec::new();
        let mut read = Vec::new();
        let mut apply = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let name = member_ident(NameKind::Field, &f.name, def);
            let schema_name = format!("\"{}.{}\"", self.ir.qualified_name(def), f.name);
            let (this, base) = (format!("&self.{name}"), format!("&baseline.{name}"));
            let var = format!("f{i}");
            let mut value = Vec::new();
            match field_delta(self.ir, f) {
                FieldDelta::Whole => {
                    elems.push(self.field_type(&f.ty, f.cyclic));
                    let differs = differs_fn(compare(self.ir, &f.ty));
                    write.push(call_statement(
                        8,
                        "mask.field",
                        &["out".into(), i.to_string(), this, base, differs],
                        ";",
                    ));
                    value.extend(self.field_checks(reader, 12, def, f));
                    if super::max::Marker::of(&f.ty, f.max).is_some() {
                        value.push(super::max::call(
                            12,
                            "let v = ",
                            "field",
                            &[reader_arg.to_string(), schema_name],
                            "?;",
                        ));
                    } else {
                        value.push(let_call(12, &format!("{reader}.field"), &[schema_name]));
                    }
                    apply.push(format!("        if let Some(v) = {var} {{"));
                    apply.push(format!("            self.{name} = v;"));
                    apply.push("        }".to_string());
                }
                FieldDelta::Nested(id) => {
                    elems.push(format!("{PATH}PatchOf<{}>", self.type_path(id)));
                    write.push(call_statement(
                        8,
                        "mask.delta",
                        &["out".into(), i.to_string(), this.clone(), base],
                        "?;",
                    ));
                    if self.ir.ty(id).kind.fields().is_empty() {
                        // The patch of a type without fields is `()`.
                        value.push("            #[allow(clippy::let_unit_value)]".to_string());
                    }
                    value.push(let_call(
                        12,
                        &format!("{PATH}read_delta"),
                        &[this, reader_arg.to_string(), schema_name],
                    ));
                    apply.push(format!("        if let Some(v) = {var} {{"));
                    apply.push(call_statement(
                        12,
                        &format!("{PATH}Delta::apply_patch"),
                        &[format!("&mut self.{name}"), "v".into()],
                        ";",
                    ));
                    apply.push("        }".to_string());
                }
                FieldDelta::Map {
                    key,
                    value: v,
                    nested,
                } => {
                    let (k, vt) = (self.rust_type(key), self.rust_type(v));
                    let (kind, args) = match nested {
                        Some(_) => (
                            "delta",
                            vec!["out".into(), i.to_string(), this.clone(), base],
                        ),
                        None => (
                            "whole",
                            vec![
                                "out".into(),
                                i.to_string(),
                                this.clone(),
                                base,
                                differs_fn(compare(self.ir, v)),
                            ],
                        ),
                    };
                    let patch = if nested.is_some() {
                        "MapDeltaPatch"
                    } else {
                        "MapWholePatch"
                    };
                    elems.push(format!("{PATH}{patch}<{k}, {vt}>"));
                    let method = if nested.is_some() {
                        "mask.map_delta"
                    } else {
                        "mask.map"
                    };
                    write.push(call_statement(8, method, &args, "?;"));
                    value.push(let_call(
                        12,
                        &format!("{PATH}read_map_{kind}"),
                        &[this, reader_arg.to_string(), schema_name],
                    ));
                    apply.push(format!("        if let Some(v) = {var} {{"));
                    apply.push(call_statement(
                        12,
                        &format!("{PATH}apply_map_{kind}"),
                        &[format!("&mut self.{name}"), "v".into()],
                        ";",
                    ));
                    apply.push("        }".to_string());
                }
            }
            read.push(format!("        let {var} = if mask.has({i}) {{"));
            read.extend(value);
            read.push("            Some(v)".to_string());
            read.push("        } else {".to_string());
            read.push("            None".to_string());
            read.push("        };".to_string());
        }
        let vars: Vec<String> = (0..fields.len()).map(|i| format!("f{i}")).collect();
        let tuple = |items: &[String]| match items {
            [one] => format!("({one},)"),
            _ => format!("({})", items.join(", ")),
        };
        if !fields.is_empty() {
            apply.insert(0, format!("        let {} = patch;", tuple(&vars)));
        }
        let elems: Vec<String> = elems.into_iter().map(|e| format!("Option<{e}>")).collect();
        // A type without fields reads its mask only to check it.
        let mask = if fields.is_empty() { "" } else { "let mask = " };
        let read_head = if message {
            vec![
                "        let mut body = r.message_body()?;".to_string(),
                format!("        {mask}{PATH}Mask::read_message(&mut body)?;"),
            ]
        } else {
            vec![call_statement(
                8,
                &format!("{mask}{PATH}Mask::read_struct"),
                &["r".into(), fields.len().to_string()],
                "?;",
            )]
        };
        DeltaView {
            name: super::names::ident(crate::names::Lang::Rust, NameKind::Type, &def.name),
            allow_deprecated: def.deprecated
                || fields.iter().any(|f| self.field_uses_deprecated(f)),
            patch_type: patch_type(&elems),
            min_len: if message { wire_body_prefix() } else { 1 },
            field_count: fields.len(),
            message,
            write,
            read_head,
            read,
            patch_value: tuple(&vars),
            patch_param: if fields.is_empty() { "_patch" } else { "patch" },
            baseline_param: if fields.is_empty() {
                "_baseline"
            } else {
                "baseline"
            },
            apply,
        }
    }
}

/// `let v = callee(args)?;` as rustfmt lays it out: the call moves to the
/// next line when it fits there and not here.
fn let_call(indent: usize, callee: &str, args: &[String]) -> String {
    let here = call_statement(indent, &format!("let v = {callee}"), args, "?;");
    if !here.contains('\n') {
        return here;
    }
    let next = call_statement(indent + 4, callee, args, "?;");
    if next.contains('\n') {
        return here;
    }
    format!("{:indent$}let v =\n{next}", "")
}

fn wire_body_prefix() -> u32 {
    crate::wire::BODY_PREFIX
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

/// `type Patch = (...);` laid out as rustfmt lays a tuple type out: on one
/// line when it fits, else one element a line with a trailing comma.
fn patch_type(elems: &[String]) -> Vec<String> {
    let one = match elems {
        [] => "()".to_string(),
        [e] => format!("({e},)"),
        _ => format!("({})", elems.join(", ")),
    };
    let line = format!("    type Patch = {one};");
    if line.chars().count() <= 100 {
        return vec![line];
    }
    let mut out = vec!["    type Patch = (".to_string()];
    for e in elems {
        out.extend(type_lines(8, "", e, ",", false));
    }
    out.push("    );".to_string());
    out
}
