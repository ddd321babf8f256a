//! Messages and variable-size structs: the type, `Default`, `Encode` with
//! its limit checks, and `Decode` field by field (defaults past an older
//! body's end, `@max` and box checks before a present field).

use serde::Serialize;

use super::quantize::Quantized;
use super::*;

impl Cx<'_> {
    /// `Decode::MEMORY` and `MEMORY_ALIGN` of a message, variable-size
    /// struct or union, as `pkt_runtime::memory!` of the types it holds
    /// (empty for the fixed-size types, whose `fixed_codec!` states them).
    /// A part that holds a declared type states its model (`= (size,
    /// align)`) where that number cannot change while this file does not
    /// ([`super::model::Models::numbers_stay`]), which also keeps the chain
    /// of constants rustc evaluates short; any other reads its type's
    /// constants, so that a change to another file does not change this one.
    /// A boxed field or variant is a pointer, `Box<T>` (as `Option<Box<T>>`
    /// is in memory). rustfmt leaves a braced macro's body as it is.
    pub(super) fn memory_block(&self, def: &TypeDef) -> Option<MemoryView> {
        let field_ident = |f: &Field| member_ident(NameKind::Field, &f.name, def);
        // The part's type, and its model where the part states it.
        let part = |ty: &Type, cyclic: bool| match (cyclic, ty) {
            (true, Type::Optional(t)) => (format!("Box<{}>", self.rust_type(t)), None),
            (true, t) => (format!("Box<{}>", self.rust_type(t)), None),
            (false, t) => {
                let mut held = Vec::new();
                t.named_parts(&mut held);
                // Lists and maps hold their elements behind a handle.
                let inline = !matches!(t, Type::List(_) | Type::Map(..));
                let m = self.ir.memory(t);
                let model = (!held.is_empty()
                    && inline
                    && self.models.numbers_stay(self.ir, def.file, &held))
                .then(|| format!(" = ({}, {})", m.size, m.align));
                (self.rust_type(t), model)
            }
        };
        let field = |f: &Field| {
            let (ty, model) = part(&f.ty, f.cyclic);
            format!("{}: {ty}{},", field_ident(f), model.unwrap_or_default())
        };
        let (head, parts): (String, Vec<String>) = match &def.kind {
            TypeKind::Struct { fields } if !def.layout.is_fixed() => {
                ("record".to_string(), fields.iter().map(field).collect())
            }
            TypeKind::Message {
                fields,
                preserve_unknown,
            } => (
                "record".to_string(),
                fields
                    .iter()
                    .map(field)
                    .chain(preserve_unknown.then(|| "unknown_fields: Vec<u8>,".to_string()))
                    .collect(),
            ),
            TypeKind::Union { tag, variants, .. } => (
                format!("union {}", tag.name()),
                variants
                    .iter()
                    .map(|v| {
                        let (ty, model) = part(&v.ty, v.cyclic);
                        let name = member_ident(NameKind::Variant, &v.name, def);
                        format!("{name}({ty}){},", model.unwrap_or_default())
                    })
                    .collect(),
            ),
            _ => return None,
        };
        Some(MemoryView { head, parts })
    }

    /// What a boxed field or variant of type `ty` is charged when present:
    /// the boxed type's `Decode::MEMORY`, by name, so that it follows the
    /// type wherever it is declared (`Ir::boxed_memory`).
    pub(super) fn boxed_memory(&self, ty: &Type) -> String {
        let inner = match ty {
            Type::Optional(t) => t,
            t => t,
        };
        format!(
            "<{} as ::pkt_runtime::Decode>::MEMORY",
            self.rust_type(inner)
        )
    }

    /// The checks before a present field's value, read from `reader`: its
    /// `@max` and the charge for its box.
    pub(super) fn field_checks(&self, reader: &str, f: &Field) -> Vec<String> {
        let schema_name = format!("\"{}\"", f.path);
        let optional = matches!(f.ty, Type::Optional(_));
        if let Some(marker) = Marker::of(&f.ty, f.max) {
            // Every limit, the field's own too, is the marker's; a field
            // with limits inside is never boxed (a cycle runs through
            // optionals and arrays of declared types only).
            return vec![marker.alias()];
        }
        let mut lines = Vec::new();
        if let Some(max) = f.max {
            lines.push(layout::statement(
                &format!("{reader}.peek_max"),
                &[schema_name.clone(), max.to_string(), optional.to_string()],
                "?;",
            ));
        }
        if f.cyclic {
            lines.push(layout::statement(
                &format!("{reader}.charge_boxed"),
                &[schema_name, self.boxed_memory(&f.ty), optional.to_string()],
                "?;",
            ));
        }
        lines
    }

    pub(super) fn message_view(
        &self,
        def: &TypeDef,
        fields: &[Field],
        preserve_unknown: bool,
    ) -> MessageView {
        let (fixed_parts, variable) = self.encoded_len_parts(def, fields);
        let fixed_len: u64 = fixed_parts.iter().map(|(n, _)| n).sum();
        let derive_default = fields.iter().all(|f| {
            self.slot_default_expr(&f.ty, f.default.as_ref(), f.cyclic)
                .is_none()
        });
        let views: Vec<MessageFieldView> = fields
            .iter()
            .map(|f| self.message_field_view(def, f))
            .collect();
        let members_deprecated = fields.iter().any(|f| self.field_uses_deprecated(f));
        let derive = if derive_default {
            self.derive_line(&["Clone", "Debug", "PartialEq", "Default"])
        } else {
            self.derive_line(&["Clone", "Debug", "PartialEq"])
        };
        let mut defaults: Vec<(String, String)> = views
            .iter()
            .map(|f| (f.name.clone(), f.default.clone()))
            .collect();
        if preserve_unknown {
            defaults.push(("unknown_fields".to_string(), "Vec::new()".to_string()));
        }
        MessageView {
            default_body: layout::fields(&defaults),
            limit_checks: self.limit_checks(def, fields),
            // Like the wire format, a serialized message may lack fields
            // (written by an older version): they take their defaults.
            common: self.common(
                def,
                derive,
                self.serde_type_attrs(&["#[serde(default)]"]),
                members_deprecated,
            ),
            unknown_fields_attrs: if self.serde && preserve_unknown {
                let mut attrs =
                    vec!["#[serde(skip_serializing_if = \"Vec::is_empty\")]".to_string()];
                // A schema field named `unknown_fields` is serialized under
                // its schema name, so the kept bytes take the Rust name that
                // no schema name converts to.
                if fields
                    .iter()
                    .any(|f| (NAMING.convert)(NameKind::Field, &f.name) == "unknown_fields")
                {
                    attrs.push("#[serde(rename = \"unknown_fields_\")]".to_string());
                }
                attrs
            } else {
                Vec::new()
            },
            has_variable: !variable.is_empty() || preserve_unknown,
            fixed_len: fixed_len.to_string(),
            fixed_comment: crate::emit::sum_comment(&fixed_parts),
            fixed_parts,
            variable,
            body_used: !fields.is_empty() || preserve_unknown,
            decode_in_place: def.memory.size >= DECODE_IN_PLACE_MIN,
            min_len: wire::BODY_PREFIX,
            derive_default,
            preserve_unknown,
            fields: views,
        }
    }

    /// The parts of a message's `encoded_len`: the length prefix and the
    /// fixed-size fields (their sizes, named), and the statements adding
    /// each variable-size field's.
    fn encoded_len_parts(
        &self,
        def: &TypeDef,
        fields: &[Field],
    ) -> (Vec<(u64, String)>, Vec<String>) {
        let mut fixed = vec![(u64::from(wire::BODY_PREFIX), "length".to_string())];
        let mut variable = Vec::new();
        for f in fields {
            let name = member_ident(NameKind::Field, &f.name, def);
            match f.layout {
                Layout::Fixed { size } => fixed.push((u64::from(size), name)),
                Layout::Variable { .. } => variable.push(layout::statement(
                    "n += ::pkt_runtime::Encode::encoded_len",
                    &[format!("&self.{name}")],
                    ";",
                )),
            }
        }
        (fixed, variable)
    }

    /// One message field: its declaration, encoding, and decoding (its
    /// default when the body has ended, else its checks and value).
    fn message_field_view(&self, def: &TypeDef, f: &Field) -> MessageFieldView {
        let name = member_ident(NameKind::Field, &f.name, def);
        let ty = self.field_type(&f.ty, f.cyclic);
        let boxed = f.cyclic && !matches!(f.ty, Type::Optional(_));
        let default = self
            .slot_default_expr(&f.ty, f.default.as_ref(), f.cyclic)
            .unwrap_or_else(|| "Default::default()".to_string());
        // What a boxed field's box is reset to.
        let unboxed_default = self
            .default_expr(&f.ty, f.default.as_ref())
            .unwrap_or_else(|| "Default::default()".to_string());
        let schema_name = format!("\"{}\"", f.path);
        let bounded = f.ty.has_element_max();
        // The checks before a present field's value, in `decode_raw` and
        // `decode_into_raw`.
        let checks = self.field_checks("body", f);
        let charge_default = f.default_charge.map(|n| {
            layout::statement(
                "body.charge_default",
                &[schema_name.clone(), n.to_string()],
                "?;",
            )
        });
        let quantized = Quantized::of(f);
        MessageFieldView {
            encode_raw: match &quantized {
                Some(q) => q.put(&format!("self.{name}")),
                None => layout::statement(
                    "::pkt_runtime::Encode::encode_raw",
                    &[format!("&self.{name}"), "w".to_string()],
                    ";",
                ),
            },
            head: layout::if_head(&format!("{name}: if body.is_empty()")),
            raw_charge_default: charge_default.clone(),
            raw_checks: checks.clone(),
            raw_value: if let Some(q) = &quantized {
                format!("{}?", q.read("&mut body"))
            } else if bounded {
                max::field("body", &schema_name, "?")
            } else {
                layout::statement("body.field", std::slice::from_ref(&schema_name), "?")
            },
            into_charge_default: charge_default,
            into_checks: checks,
            // An absent boxed field is reset inside its existing box, so
            // decode_into allocates nothing for it; a large one (which has
            // no declared default) in a stack frame of its own, so that this
            // one stays small.
            reset: if !f.cyclic && self.ir.memory(&f.ty).size >= DECODE_IN_PLACE_MIN {
                layout::statement("::pkt_runtime::reset", &[format!("&mut self.{name}")], ";")
            } else if boxed {
                format!("*self.{name} = {};", layout::expr(&unboxed_default, true))
            } else {
                format!("self.{name} = {};", layout::expr(&default, true))
            },
            field_into: if let Some(q) = &quantized {
                format!("self.{name} = {}?;", q.read_after_lead("&mut body"))
            } else if bounded {
                max::field_into("body", &format!("&mut self.{name}"), &schema_name)
            } else {
                layout::statement(
                    "body.field_into",
                    &[format!("&mut self.{name}"), schema_name.clone()],
                    "?;",
                )
            },
            doc: member_doc(&f.doc, NameKind::Field, &f.name, def),
            deprecated: deprecated_attr(f.deprecated, &f.deprecated_note),
            attrs: self.member_attrs(&f.ty, f.cyclic, NameKind::Field, &f.name, def),
            decl: field_decl(&name, &ty),
            name,
            ty,
            default,
        }
    }

    /// The statements of a message's `check_at`: the depth entered first
    /// (kept only when a field holds a message or union), then in wire
    /// order each field's `@max` limits and nested checks.
    fn limit_checks(&self, def: &TypeDef, fields: &[Field]) -> Vec<String> {
        let mut limit_checks = Vec::new();
        let mut nested = false;
        for f in fields {
            let name = member_ident(NameKind::Field, &f.name, def);
            if let Some(q) = Quantized::of(f) {
                limit_checks.push(q.check(&f.path, &format!("self.{name}")));
                continue;
            }
            if let Some(marker) = Marker::of(&f.ty, f.max) {
                // The limits and the nested messages' checks in one walk,
                // in wire order.
                nested = true;
                limit_checks.extend(max::check_block(
                    &marker,
                    &format!("\"{}\"", f.path),
                    &format!("&self.{name}"),
                    "?;",
                ));
                continue;
            }
            if let Some(max) = f.max {
                limit_checks.push(layout::statement(
                    "::pkt_runtime::check_max",
                    &[
                        format!("\"{}\"", f.path),
                        format!("&self.{name}"),
                        max.to_string(),
                    ],
                    "?;",
                ));
            }
            if self.needs_check(&f.ty) {
                nested = true;
                limit_checks.push(layout::statement(
                    "::pkt_runtime::Encode::check_at",
                    &[
                        format!("&self.{name}"),
                        "depth".to_string(),
                        "max_depth".to_string(),
                    ],
                    "?;",
                ));
            }
        }
        // The depth is checked first; it is needed below only when a field
        // holds a message or union.
        let enter = if nested {
            "let depth = ::pkt_runtime::enter_encode(depth, max_depth)?;"
        } else {
            "::pkt_runtime::enter_encode(depth, max_depth)?;"
        };
        limit_checks.insert(0, enter.to_string());
        limit_checks
    }

    /// A variable-size struct: a message's fields without the length
    /// prefix, the defaults and the depth (see `var_struct.rs.hbs`).
    pub(super) fn var_struct_view(
        &self,
        id: TypeId,
        def: &TypeDef,
        fields: &[Field],
    ) -> MessageView {
        let mut view = self.message_view(def, fields, false);
        // No length prefix.
        view.fixed_parts.remove(0);
        view.fixed_len = view
            .fixed_parts
            .iter()
            .map(|(size, _)| size)
            .sum::<u64>()
            .to_string();
        view.fixed_comment = crate::emit::sum_comment(&view.fixed_parts);
        // Frozen: every field is present, in JSON too.
        view.common.attrs = self.serde_type_attrs(&[]);
        // A struct is no nesting level: its fields are checked at its own depth.
        view.limit_checks = if self.checked_structs.contains(&id) {
            view.limit_checks[1..].to_vec()
        } else {
            Vec::new()
        };
        if !view.limit_checks.is_empty() && !view.limit_checks.iter().any(|l| l.contains("depth")) {
            // Only `@max` limits here: the depth passes through unused.
            view.limit_checks
                .insert(0, "let _ = (depth, max_depth);".to_string());
        }
        for (f, v) in fields.iter().zip(&mut view.fields) {
            let schema_name = format!("\"{}\"", f.path);
            let target = format!("&mut self.{}", v.name);
            if f.ty.has_element_max() {
                // Fields back to back in one scope: each `Max` in a block,
                // which `field_into` closes.
                let mut lines = vec!["{".to_string()];
                lines.extend(self.field_checks("r", f).iter().map(|l| format!("    {l}")));
                lines.push(format!(
                    "    {}",
                    max::field_into("r", &target, &schema_name)
                ));
                v.into_checks = lines;
                v.field_into = "}".to_string();
            } else if let Some(q) = Quantized::of(f) {
                v.into_checks = Vec::new();
                v.field_into = format!("self.{} = {}?;", v.name, q.read_after_lead("r"));
            } else {
                v.into_checks = self.field_checks("r", f);
                v.field_into = layout::statement("r.field_into", &[target, schema_name], "?;");
            }
        }
        view.min_len = def.layout.min_size();
        view
    }
}

/// The `pkt_runtime::memory!` block of a message, variable-size struct or
/// union.
#[derive(Serialize)]
pub(super) struct MemoryView {
    /// `record`, or `union <tag>`.
    head: String,
    /// One line per field or variant: its name, type and model.
    parts: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct MessageView {
    #[serde(flatten)]
    pub(super) common: Common,
    /// The body of `Default::default()`, `Self { .. }`.
    default_body: String,
    /// Encoded size of the length prefix and the fixed-size fields.
    fixed_len: String,
    /// The parts of `fixed_len` as a comment ([`crate::emit::sum_comment`]).
    fixed_comment: String,
    #[serde(skip)]
    fixed_parts: Vec<(u64, String)>,
    has_variable: bool,
    /// The statements of `encoded_len` that add the fields whose size
    /// depends on the value.
    variable: Vec<String>,
    pub(super) body_used: bool,
    /// `decode_raw` decodes into a default value (see [`DECODE_IN_PLACE_MIN`]).
    decode_in_place: bool,
    /// `Decode::MIN_ENCODED_LEN` (variable-size structs).
    min_len: u32,
    derive_default: bool,
    preserve_unknown: bool,
    /// Attribute lines before `unknown_fields`.
    unknown_fields_attrs: Vec<String>,
    /// Statements of `check_at`: the depth, then the limits.
    limit_checks: Vec<String>,
    pub(super) fields: Vec<MessageFieldView>,
}

#[derive(Serialize)]
pub(super) struct MessageFieldView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    /// Attribute lines before the field.
    attrs: Vec<String>,
    name: String,
    /// `pub name: Type,`, laid out as rustfmt lays it out.
    decl: String,
    ty: String,
    default: String,
    /// The statement of `encode_raw` that writes the field.
    encode_raw: String,
    /// `name: if body.is_empty() {` in `decode_raw`.
    pub(super) head: String,
    /// In `decode_raw`, for a field absent from an older body: the charge
    /// of its string default.
    pub(super) raw_charge_default: Option<String>,
    /// In `decode_raw`, for a present field: its `@max` check and the
    /// charge for its box.
    pub(super) raw_checks: Vec<String>,
    /// In `decode_raw`: the present field's value.
    raw_value: String,
    /// [`raw_charge_default`](Self::raw_charge_default) in `decode_into_raw`.
    into_charge_default: Option<String>,
    /// [`raw_checks`](Self::raw_checks) in `decode_into_raw`.
    into_checks: Vec<String>,
    /// The statement that gives the field its default in `decode_into_raw`:
    /// for a boxed field it assigns inside the existing box.
    reset: String,
    /// The `decode_into_raw` statement that decodes the present field.
    field_into: String,
}
