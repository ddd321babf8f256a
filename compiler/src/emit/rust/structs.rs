//! Fixed-size structs: the type, `Default` where a field's default is not
//! its type's, and `FixedSize` (with the `plain!` fast path where the
//! memory is the encoding).

use serde::Serialize;

use super::quantize::Quantized;
use super::*;

impl Cx<'_> {
    /// Whether every byte string of `ty`'s size is a value of it (a struct
    /// field's type; see [`total_structs`]).
    fn is_total(&self, ty: &Type) -> bool {
        match ty {
            Type::Prim(p) => *p != Prim::Bool,
            Type::Array(t, _) => self.is_total(t),
            Type::Named(r) => match self.ir.ty(r.id).kind {
                TypeKind::Enum { .. } => true,
                _ => self.total[r.id.0],
            },
            _ => false,
        }
    }

    pub(super) fn struct_view(&self, id: TypeId, def: &TypeDef, fields: &[Field]) -> StructView {
        let size = def.layout.fixed_size().expect("structs are fixed");
        let mut derive_default = true;
        let fields: Vec<StructFieldView> = fields
            .iter()
            .map(|f| {
                let start = f.offset.expect("struct fields have offsets");
                let end = start + f.layout.min_size();
                let default = self.default_expr(&f.ty, None);
                derive_default &= default.is_none();
                let name = member_ident(NameKind::Field, &f.name, def);
                let ty = self.rust_type(&f.ty);
                let offset = if start == 0 {
                    "offset".to_string()
                } else {
                    format!("offset + {start}")
                };
                let quantized = Quantized::of(f);
                let range = format!("{start}..{end}");
                StructFieldView {
                    write_fixed: match &quantized {
                        Some(q) => q.write_fixed(&range, &format!("self.{name}")),
                        None => format!(
                            "{};",
                            layout::call(
                                "::pkt_runtime::FixedSize::write_fixed",
                                &[format!("&self.{name}"), format!("&mut out[{range}]")],
                            )
                        ),
                    },
                    read_fixed: match &quantized {
                        Some(q) => format!("{name}: {}?,", q.read_fixed(&range, &offset)),
                        None => layout::split(
                            &name,
                            ": ",
                            &format!(
                                "::pkt_runtime::FixedSize::read_fixed(&bytes[{range}], {offset})?,"
                            ),
                        ),
                    },
                    read_valid: match &quantized {
                        Some(q) => format!("{name}: {},", q.read_valid(&range)),
                        None => layout::split(
                            &name,
                            ": ",
                            &format!("::pkt_runtime::FixedSize::read_valid(&bytes[{range}]),"),
                        ),
                    },
                    valid_check: match &quantized {
                        Some(q) => Some(format!("{} = {range}", q.stored_type())),
                        None => (!self.is_total(&f.ty)).then(|| format!("{ty} = {range}")),
                    },
                    check: match &quantized {
                        Some(q) => Some(q.check(&f.path, &format!("self.{name}"))),
                        None if self.needs_check(&f.ty) => Some(layout::statement(
                            "::pkt_runtime::FixedSize::check_fixed",
                            &[format!("&self.{name}")],
                            "?;",
                        )),
                        None => None,
                    },
                    short_field: match &quantized {
                        Some(q) => layout::split(
                            &format!("let _: {}", q.stored_type()),
                            " = ",
                            "f.field()?;",
                        ),
                        None => layout::split(&format!("let _: {ty}"), " = ", "f.field()?;"),
                    },
                    doc: member_doc(&f.doc, NameKind::Field, &f.name, def),
                    deprecated: deprecated_attr(f.deprecated, &f.deprecated_note),
                    attrs: self.member_attrs(&f.ty, false, NameKind::Field, &f.name, def),
                    decl: field_decl(&name, &ty),
                    name,
                    ty,
                    range,
                    default: default.unwrap_or_else(|| "Default::default()".to_string()),
                }
            })
            .collect();
        let derive = if derive_default {
            self.derive_line(&["Clone", "Copy", "Debug", "PartialEq", "Default"])
        } else {
            self.derive_line(&["Clone", "Copy", "Debug", "PartialEq"])
        };
        let common_name = type_ident(def);
        let plain = self.plain[id.0];
        let valid_checks = fields
            .iter()
            .filter_map(|f| f.valid_check.clone())
            .collect();
        let checks: Vec<String> = fields.iter().filter_map(|f| f.check.clone()).collect();
        let defaults: Vec<(String, String)> = fields
            .iter()
            .map(|f| (f.name.clone(), f.default.clone()))
            .collect();
        StructView {
            checks,
            default_body: layout::fields(&defaults),
            total: self.total[id.0],
            valid_checks,
            fixed_codec: fixed_codec_line(&common_name, def.memory.size, def.memory.align),
            // rustfmt reads the argument as a struct literal.
            plain_impl: plain.then(|| {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {} = {}", f.name, f.ty, f.range))
                    .collect();
                format!(
                    "::pkt_runtime::plain!({});",
                    layout::literal(&common_name, &fields)
                )
            }),
            plain,
            common: self.common(
                def,
                derive,
                // Structs are frozen: every field must be present.
                self.serde_type_attrs(&[]),
                def.kind
                    .fields()
                    .iter()
                    .any(|f| self.field_uses_deprecated(f)),
            ),
            size,
            size_comment: crate::emit::sum_comment(
                &def.kind
                    .fields()
                    .iter()
                    .map(|f| {
                        (
                            u64::from(f.layout.min_size()),
                            member_ident(NameKind::Field, &f.name, def),
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
            derive_default,
            bytes_used: !fields.is_empty(),
            fields,
        }
    }
}

#[derive(Serialize)]
pub(super) struct StructView {
    #[serde(flatten)]
    common: Common,
    size: u32,
    /// The parts of `size` ([`crate::emit::sum_comment`]).
    size_comment: String,
    derive_default: bool,
    /// The body of `Default::default()`, `Self { .. }`.
    default_body: String,
    /// Memory is the wire layout ([`plain_structs`]): `#[repr(C)]`, the
    /// bulk list paths and `pkt_runtime::plain!`.
    plain: bool,
    /// The lines of the `pkt_runtime::plain!` invocation.
    plain_impl: Option<String>,
    /// The `fixed_codec!` statement.
    fixed_codec: String,
    /// Whether `read_fixed` reads any bytes (an empty struct reads none).
    bytes_used: bool,
    /// Every byte string is a value ([`total_structs`]): `read_fixed` is
    /// `read_valid` after the length check, `FixedSize::TOTAL`.
    total: bool,
    /// `type = range` of each field `is_valid` checks, for
    /// `pkt_runtime::fixed_is_valid!`.
    valid_checks: Vec<String>,
    /// The statements of `FixedSize::check_fixed`: the ranges of the
    /// quantized floats, in this struct and the structs it holds.
    checks: Vec<String>,
    fields: Vec<StructFieldView>,
}

#[derive(Serialize)]
struct StructFieldView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    /// Attribute lines before the field.
    attrs: Vec<String>,
    name: String,
    /// `pub name: Type,`, laid out as rustfmt lays it out.
    decl: String,
    ty: String,
    /// Byte range inside the struct, e.g. `4..8`.
    range: String,
    /// The statement of `write_fixed` that writes the field.
    write_fixed: String,
    /// The field initialiser of `read_fixed`.
    read_fixed: String,
    /// The field initialiser of `read_valid`.
    read_valid: String,
    /// `type = range` when the field can be invalid (holds a `bool`, or
    /// is quantized).
    #[serde(skip)]
    valid_check: Option<String>,
    /// The field's statement of `check_fixed`, if it has something to check.
    #[serde(skip)]
    check: Option<String>,
    /// The statement of `short_error` that reads the field.
    short_field: String,
    default: String,
}

/// The `fixed_codec!` line of a fixed-size type.
pub(super) fn fixed_codec_line(name: &str, memory: u64, align: u32) -> String {
    let args = [
        name.to_string(),
        format!("memory = {memory}"),
        format!("align = {align}"),
    ];
    format!(
        "{};",
        layout::macro_call("::pkt_runtime::fixed_codec!", &args)
    )
}
