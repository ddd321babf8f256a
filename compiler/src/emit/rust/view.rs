//! Borrowed views (`pkt_runtime::view`): for every message, union and
//! variable-size struct `T`, a `TView<'a>` that reads the value in place,
//! `T::view` and friends, and `pkt_runtime::Viewable for T`.
//!
//! A view's validation makes the same reader calls, in the same order, as
//! the owned type's `decode_raw`: the `@max` and box checks and the default
//! charges come from the same view-model lines (`Cx::field_checks`), so the
//! two accept the same inputs and fail with the same error.

use serde::Serialize;

use super::{layout, type_ident, union_default, view_ident, Cx, MessageView, UnionView};
use crate::ir::*;
use crate::names::{self, Lang, NameKind};

/// Where a generated type's view lives: `<Type>View`.
pub const VIEW_SUFFIX: &str = "View";

/// Fixed-size values and arrays up to this many bytes in memory are copied
/// into the view; larger ones (`[u64; 4096]`, `[string; 1000]`) stay in the
/// input, so that a view is small whatever its schema and recursive views
/// take little stack per level.
const INLINE_MAX: u64 = 256;

impl Cx<'_> {
    /// The view type of a value of type `ty` (as declared, unboxed): the
    /// value itself when it is fixed-size.
    pub(super) fn view_type(&self, ty: &Type) -> String {
        if self.ir.is_fixed(ty) {
            return match ty {
                _ if !self.is_large(ty) => self.rust_type(ty),
                Type::Array(t, n) => format!(
                    "::pkt_runtime::view::FixedArray<'a, {}, {n}>",
                    self.rust_type(t)
                ),
                _ => format!("::pkt_runtime::view::Fixed<'a, {}>", self.rust_type(ty)),
            };
        }
        match ty {
            Type::String => "&'a str".to_string(),
            Type::Bytes | Type::List(_) if is_byte_list(ty) => "&'a [u8]".to_string(),
            Type::List(t) if self.ir.is_fixed(t) => {
                format!("::pkt_runtime::view::FixedList<'a, {}>", self.rust_type(t))
            }
            Type::List(t) => format!("::pkt_runtime::view::List<'a, {}>", self.view_type(t)),
            Type::Map(k, v) => format!(
                "::pkt_runtime::view::Map<'a, {}, {}>",
                self.view_type(k),
                self.view_type(v)
            ),
            Type::Array(t, n) if self.is_large(ty) => {
                format!(
                    "::pkt_runtime::view::ListArray<'a, {}, {n}>",
                    self.view_type(t)
                )
            }
            Type::Array(t, n) => format!("::pkt_runtime::view::Array<{}, {n}>", self.view_type(t)),
            Type::Optional(t) => format!("Option<{}>", self.view_type(t)),
            Type::Named(r) => format!("{}<'a>", self.view_path(r.id)),
            Type::Prim(_) | Type::Bytes => unreachable!("fixed or matched above"),
        }
    }

    /// The view type of a field or variant: [`view_type`](Self::view_type),
    /// in a `Lazy` where the owned type boxes it.
    fn field_view_type(&self, ty: &Type, cyclic: bool) -> String {
        match (cyclic, ty) {
            (false, _) => self.view_type(ty),
            (true, Type::Optional(t)) => format!(
                "Option<::pkt_runtime::view::Lazy<'a, {}>>",
                self.view_type(t)
            ),
            (true, t) => format!("::pkt_runtime::view::Lazy<'a, {}>", self.view_type(t)),
        }
    }

    /// A value the view keeps in the input ([`INLINE_MAX`]): a fixed-size
    /// value by its size in Rust, or an array of variable-size elements by
    /// the decoded-size model, read when asked.
    fn is_large(&self, ty: &Type) -> bool {
        if self.ir.is_fixed(ty) {
            self.rust_size(ty) > INLINE_MAX
        } else {
            self.ir.memory(ty).size > INLINE_MAX
        }
    }

    /// The size of a fixed-size value as the generated Rust lays it out.
    fn rust_size(&self, ty: &Type) -> u64 {
        match ty {
            Type::Array(t, n) => self.rust_size(t).saturating_mul(u64::from(*n)),
            Type::Named(r) => self.fixed_sizes[r.id.0],
            _ => self.ir.memory(ty).size,
        }
    }

    /// A view field's default: the declared default, else the type's.
    fn view_default(&self, ty: &Type, value: Option<&Value>) -> String {
        match value {
            Some(Value::String(s)) => format!("{s:?}"),
            Some(_) => self
                .default_expr(ty, value)
                .expect("a declared default has an expression"),
            None if self.ir.is_fixed(ty) && !self.is_large(ty) => self
                .default_expr(ty, None)
                .unwrap_or_else(|| "Default::default()".to_string()),
            None => "Default::default()".to_string(),
        }
    }

    fn view_field(&self, def: &TypeDef, f: &Field, reader: &str) -> ViewFieldView {
        let name = super::member_ident(NameKind::Field, &f.name, def);
        let ty = self.field_view_type(&f.ty, f.cyclic);
        let default = self.view_default(&f.ty, f.default.as_ref());
        ViewFieldView {
            doc: super::member_doc(&f.doc, NameKind::Field, &f.name, def),
            deprecated: super::deprecated_attr(f.deprecated, &f.deprecated_note),
            decl: super::field_decl(&name, &ty),
            default: layout::split(&name, ": ", &format!("{default},")),
            derives_default: default == "Default::default()",
            value: if let Some(q) = super::quantize::Quantized::of(f) {
                let reader = if reader == "body" {
                    "&mut body"
                } else {
                    reader
                };
                format!("{}?", q.read(reader))
            } else if f.ty.has_element_max() {
                super::max::view_field("", reader, &format!("\"{}\"", f.path), "?")
            } else {
                layout::statement(
                    &format!("{reader}.view_field"),
                    &[format!("\"{}\"", f.path)],
                    "?",
                )
            },
            empty_default: default,
            owned: layout::owned_field(&name),
            head: String::new(),
            charge_default: None,
            checks: Vec::new(),
            init: String::new(),
            name,
        }
    }

    pub(super) fn message_view_model(
        &self,
        def: &TypeDef,
        fields: &[Field],
        owned: &MessageView,
        preserve_unknown: bool,
    ) -> MessageViewModel {
        let fields = fields
            .iter()
            .zip(&owned.fields)
            .map(|(f, o)| {
                let mut v = self.view_field(def, f, "body");
                v.head = o.head.clone();
                v.charge_default = o.raw_charge_default.clone();
                v.checks = o.raw_checks.clone();
                v
            })
            .collect();
        let mut model =
            self.view_model(def, owned.common.allow_deprecated, fields, preserve_unknown);
        model.body_used = owned.body_used;
        model
    }

    pub(super) fn var_struct_view_model(
        &self,
        def: &TypeDef,
        fields: &[Field],
        owned: &MessageView,
    ) -> MessageViewModel {
        let fields = fields
            .iter()
            .map(|f| {
                let mut v = self.view_field(def, f, "r");
                // Into locals first: `r` and `mark` are the function's own.
                let local = format!(
                    "field_{}",
                    names::convert(Lang::Rust, NameKind::Field, &f.name)
                );
                let schema_name = format!("\"{}\"", f.path);
                if f.ty.has_element_max() {
                    // Fields back to back in one scope: each `Max` in a
                    // block, which `value` closes.
                    v.checks = vec![format!("let {local} = {{")];
                    v.checks
                        .extend(self.field_checks("r", f).iter().map(|l| format!("    {l}")));
                    v.checks.push(format!(
                        "    {}",
                        super::max::view_field("", "r", &schema_name, "?")
                    ));
                    v.value = "};".to_string();
                } else if let Some(q) = super::quantize::Quantized::of(f) {
                    v.checks = Vec::new();
                    v.value = format!("let {local} = {}?;", q.read_after_lead("r"));
                } else {
                    v.checks = self.field_checks("r", f);
                    v.value = layout::statement(
                        &format!("let {local} = r.view_field"),
                        &[schema_name],
                        "?;",
                    );
                }
                v.init = layout::split(&v.name, ": ", &format!("{local},"));
                v
            })
            .collect();
        self.view_model(def, owned.common.allow_deprecated, fields, false)
    }

    fn view_model(
        &self,
        def: &TypeDef,
        allow_deprecated: bool,
        fields: Vec<ViewFieldView>,
        preserve_unknown: bool,
    ) -> MessageViewModel {
        let name = type_ident(def);
        let view = view_ident(def);
        let derive_default = fields.iter().all(|f| f.derives_default);
        MessageViewModel {
            derive: if derive_default {
                "#[derive(Clone, Copy, Debug, Default)]"
            } else {
                "#[derive(Clone, Copy, Debug)]"
            },
            derive_default,
            impl_head: impl_head(&view),
            entry: self.entry_points(&name, &view),
            view,
            name,
            allow_deprecated,
            owned_used: !fields.is_empty(),
            body_used: false,
            fields,
            preserve_unknown,
        }
    }

    pub(super) fn union_view_model(
        &self,
        def: &TypeDef,
        variants: &[Variant],
        owned: &UnionView,
    ) -> UnionViewModel {
        let (_, zero_variant) = def.zero_variant().expect("a union");
        let name = type_ident(def);
        let view = view_ident(def);
        let views: Vec<ViewVariantView> = variants
            .iter()
            .zip(&owned.variants)
            .map(|(v, o)| {
                let ty = self.field_view_type(&v.ty, v.cyclic);
                ViewVariantView {
                    doc: o.doc.clone(),
                    deprecated: o.deprecated.clone(),
                    decl: layout::variant_decl(&o.name, &ty),
                    owned_arm: layout::arm(
                        &format!("Self::{}(v)", o.name),
                        &format!("{name}::{}(v.into_owned())", o.name),
                    ),
                    name: o.name.clone(),
                    tag: o.tag.clone(),
                    view_value: match super::Marker::of(&v.ty, None) {
                        Some(m) => super::max::variant_lines(
                            &m,
                            "view_variant",
                            &format!("\"{}\"", v.path),
                        ),
                        None => {
                            vec!["let v = ::pkt_runtime::View::view_raw(&mut body)?;".to_string()]
                        }
                    },
                    charge_boxed: o.charge_boxed.clone(),
                    // A large fixed-size payload's view borrows the input
                    // (`Fixed`, `FixedArray`) and is read like any other.
                    fixed_payload: o.fixed_payload && !self.is_large(&v.ty),
                }
            })
            .collect();
        UnionViewModel {
            unknown_one_line: super::unknown_on_one_line(
                views
                    .iter()
                    .map(|v| !v.doc.is_empty() || v.deprecated.is_some() || v.decl.contains('\n')),
            ),
            impl_head: impl_head(&view),
            entry: self.entry_points(&name, &view),
            view,
            allow_deprecated: owned.common.allow_deprecated,
            tag_ty: owned.tag_ty.clone(),
            tag_width: owned.tag_width,
            unknown_ok: owned.unknown_ok.clone(),
            zero_default: union_default(&owned.zero, &self.view_default(&zero_variant.ty, None)),
            variants: views,
            name,
        }
    }

    /// `T::view`, `T::view_with_limits` and `T::view_prefix`, laid out as
    /// rustfmt lays out their signatures.
    fn entry_points(&self, name: &str, view: &str) -> Vec<EntryPoint> {
        let view_type = format!("{view}<'_>");
        let bytes = "bytes: &[u8]".to_string();
        let limits = "limits: ::pkt_runtime::Limits".to_string();
        vec![
            EntryPoint {
                doc: vec![
                    format!(
                        "/// Validates `bytes` as exactly one `{name}`, as `decode` does (same"
                    ),
                    "/// checks, limits and errors, with the default limits), and returns a view"
                        .to_string(),
                    "/// that reads it in place. Allocates nothing.".to_string(),
                ],
                signature: signature(
                    "view",
                    std::slice::from_ref(&bytes),
                    std::slice::from_ref(&view_type),
                ),
                body: "::pkt_runtime::view::view(bytes, ::pkt_runtime::Limits::DEFAULT)"
                    .to_string(),
            },
            EntryPoint {
                doc: vec![format!("/// [`{name}::view`] with the given limits.")],
                signature: signature(
                    "view_with_limits",
                    &[bytes.clone(), limits],
                    std::slice::from_ref(&view_type),
                ),
                body: "::pkt_runtime::view::view(bytes, limits)".to_string(),
            },
            EntryPoint {
                doc: vec![
                    format!(
                        "/// Views one `{name}` at the front of `bytes` (with the default limits),"
                    ),
                    "/// and returns it with the number of bytes it took.".to_string(),
                ],
                signature: signature(
                    "view_prefix",
                    std::slice::from_ref(&bytes),
                    &[view_type.clone(), "usize".to_string()],
                ),
                body: "::pkt_runtime::view::view_prefix(bytes, ::pkt_runtime::Limits::DEFAULT)"
                    .to_string(),
            },
            EntryPoint {
                doc: vec![
                    format!(
                        "/// Views each `{name}` stored back to back in `bytes`, in order, each as"
                    ),
                    "/// `view_prefix` views one (with the default limits); error offsets count"
                        .to_string(),
                    "/// from the start of `bytes`. Allocates nothing.".to_string(),
                ],
                signature: layout::method_signature(
                    "view_each",
                    &[bytes],
                    "::pkt_runtime::view::Each",
                    &[vec!["'_".to_string()], vec![view_type]],
                ),
                body: "::pkt_runtime::view::each(bytes, ::pkt_runtime::Limits::DEFAULT)"
                    .to_string(),
            },
            EntryPoint {
                doc: vec![
                    format!(
                        "/// Views each `{name}` stored back to back in `bytes`, as `view_each` does,"
                    ),
                    "/// and calls `f` with each view and its bytes; stops at the first error. The"
                        .to_string(),
                    "/// view is lent to `f`, not moved: the fastest way through many values."
                        .to_string(),
                ],
                signature: signature(
                    "for_each_view<'a>",
                    &[
                        "bytes: &'a [u8]".to_string(),
                        format!("f: impl FnMut(&{view}<'a>, &'a [u8])"),
                    ],
                    &["()".to_string()],
                ),
                body: "::pkt_runtime::view::for_each(bytes, ::pkt_runtime::Limits::DEFAULT, f)"
                    .to_string(),
            },
        ]
    }
}

/// Whether the type is `bytes` or `list<u8>`, which decode alike and view
/// as `&[u8]`.
fn is_byte_list(ty: &Type) -> bool {
    matches!(ty, Type::Bytes) || matches!(ty, Type::List(t) if t.ty == Type::Prim(Prim::U8))
}

/// The signature line(s) of `pub fn {name}(params) -> Result<ok, DecodeError> {`
/// at 4 columns, where `ok` is one type or a tuple of `ok_parts`.
fn signature(name: &str, params: &[String], ok_parts: &[String]) -> Vec<String> {
    layout::method_signature(
        name,
        params,
        "Result",
        &[
            ok_parts.to_vec(),
            vec!["::pkt_runtime::DecodeError".to_string()],
        ],
    )
}

#[derive(Serialize)]
pub(super) struct EntryPoint {
    doc: Vec<String>,
    signature: Vec<String>,
    body: String,
}

#[derive(Serialize)]
pub(super) struct MessageViewModel {
    name: String,
    derive: &'static str,
    /// Every field's default is its type's: `Default` is derived.
    derive_default: bool,
    /// `impl<'a> ::pkt_runtime::View<'a> for TView<'a> {`, laid out.
    impl_head: String,
    view: String,
    allow_deprecated: bool,
    preserve_unknown: bool,
    /// `to_owned` converts fields (and needs `View` in scope).
    owned_used: bool,
    /// The message body is read from (`MessageView::body_used`).
    body_used: bool,
    entry: Vec<EntryPoint>,
    fields: Vec<ViewFieldView>,
}

#[derive(Serialize)]
struct ViewFieldView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    name: String,
    /// `pub name: Type,` as rustfmt lays it out.
    decl: String,
    /// The field initialiser of the view's `Default`.
    default: String,
    /// The field's default is its type's: the view's `Default` may be
    /// derived.
    #[serde(skip)]
    derives_default: bool,
    /// The default expression, for a message field absent from the body.
    empty_default: String,
    /// `name: if body.is_empty() {` (messages).
    head: String,
    /// The charge of a string default (messages).
    charge_default: Option<String>,
    /// `@max` and box checks before a present field.
    checks: Vec<String>,
    /// The `view_field` call.
    value: String,
    /// The field initialiser of `to_owned`.
    owned: String,
    /// The field initialiser of `view_raw` (variable-size structs).
    init: String,
}

#[derive(Serialize)]
pub(super) struct UnionViewModel {
    name: String,
    impl_head: String,
    view: String,
    allow_deprecated: bool,
    tag_ty: String,
    tag_width: u32,
    /// The lines that return an `Unknown` view of the `kept` body.
    unknown_ok: Vec<String>,
    /// The body of `Default::default()`: the zero variant with its default.
    zero_default: String,
    entry: Vec<EntryPoint>,
    /// `Unknown { tag, body }` on one line.
    unknown_one_line: bool,
    variants: Vec<ViewVariantView>,
}

#[derive(Serialize)]
struct ViewVariantView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    name: String,
    decl: String,
    /// The match arm of `to_owned`.
    owned_arm: String,
    tag: String,
    /// The charge for a boxed variant's box, a statement.
    charge_boxed: Option<String>,
    /// The statements that view the payload into `v`.
    view_value: Vec<String>,
    /// Viewed straight from the frame's bytes, as the owned decode does
    /// (for fixed-size payloads small enough to be copied into the view).
    fixed_payload: bool,
}

/// `impl<'a> ::pkt_runtime::View<'a> for {view}<'a> {`.
fn impl_head(view: &str) -> String {
    layout::impl_head("impl<'a> ::pkt_runtime::View<'a>", &format!("{view}<'a>"))
}
