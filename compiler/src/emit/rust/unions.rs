//! Unions: the type with its `Unknown { tag, body }` variant, `Default`
//! (the zero variant), `Encode` (fixed-size variants appended with a constant
//! header) and `Decode` (each variant decoded in its frame, large payloads in
//! place).

use serde::Serialize;

use super::*;

impl Cx<'_> {
    pub(super) fn union_view(&self, def: &TypeDef, tag: Prim, variants: &[Variant]) -> UnionView {
        let (zero, zero_variant) = def.zero_variant().expect("a union");
        let views: Vec<VariantView> = variants
            .iter()
            .map(|v| self.variant_view(def, tag, v))
            .collect();
        let fixed_appends = views
            .iter()
            .filter_map(|v| v.fixed_append.clone())
            .collect();
        let limited = self.check_arms(variants, &views);
        UnionView {
            put_tag: format!("put_{}", tag.name()),
            unknown_one_line: unknown_on_one_line(views.iter().map(|v| {
                !v.doc.is_empty()
                    || v.deprecated.is_some()
                    || !v.attrs.is_empty()
                    || v.decl.contains('\n')
            })),
            limited,
            fixed_appends,
            // Externally tagged: `{"Variant": payload}`, and
            // `{"Unknown": {"tag": n, "body": [..]}}`.
            common: self.common(
                def,
                self.derive_line(&["Clone", "Debug", "PartialEq"]),
                self.serde_type_attrs(&[]),
                variants
                    .iter()
                    .any(|v| v.deprecated || self.uses_deprecated(&v.ty)),
            ),
            tag_ty: tag.name().to_string(),
            tag_width: tag.size(),
            header_len: wire::union_header(tag),
            // The frame reader returns the tag as u16.
            tag_from_wire: if tag == Prim::U16 {
                "tag".to_string()
            } else {
                format!("tag as {}", tag.name())
            },
            unknown_ok: if tag == Prim::U16 {
                vec!["Ok(Self::Unknown { tag, body: kept })".to_string()]
            } else {
                vec![
                    "Ok(Self::Unknown {".to_string(),
                    format!("    tag: tag as {},", tag.name()),
                    "    body: kept,".to_string(),
                    "})".to_string(),
                ]
            },
            // As rustfmt lays it out: a struct literal this short stays on
            // one line.
            set_unknown: if tag == Prim::U16 {
                vec![
                    "::pkt_runtime::set_variant(slot, kept, |body| Self::Unknown { tag, body });"
                        .to_string(),
                ]
            } else {
                vec![
                    "::pkt_runtime::set_variant(slot, kept, |body| Self::Unknown {".to_string(),
                    format!("    tag: tag as {},", tag.name()),
                    "    body,".to_string(),
                    "});".to_string(),
                ]
            },
            zero_default: union_default(
                &views[zero].name,
                &self
                    .slot_default_expr(&zero_variant.ty, None, zero_variant.cyclic)
                    .unwrap_or_else(|| "Default::default()".to_string()),
            ),
            zero: views[zero].name.clone(),
            variants: views,
        }
    }

    /// The match arms of `check_at` for the variants whose payload holds a
    /// message or union to check, or `@max` limits.
    fn check_arms(&self, variants: &[Variant], views: &[VariantView]) -> Vec<String> {
        variants
            .iter()
            .zip(views)
            .flat_map(|(v, view)| {
                let pattern = format!("Self::{}(v)", view.name);
                if let Some(marker) = Marker::of(&v.ty, None) {
                    // The block of the check, as the arm's body.
                    let mut block = max::check_block(&marker, &format!("\"{}\"", v.path), "v", "");
                    block[0] = format!("{pattern} => {}", block[0]);
                    return block;
                }
                if self.needs_check(&v.ty) {
                    vec![layout::arm(
                        &pattern,
                        "::pkt_runtime::Encode::check_at(v, depth, max_depth)",
                    )]
                } else {
                    Vec::new()
                }
            })
            .collect()
    }

    /// One variant: its declaration, its size, its encoding (a constant
    /// header when the payload is fixed-size) and its decoding, into a new
    /// value, into the same variant, or into another variant's place.
    fn variant_view(&self, def: &TypeDef, tag: Prim, v: &Variant) -> VariantView {
        // The `Writer` method that stores a tag.
        let put_tag = format!("put_{}", tag.name());
        let name = member_ident(NameKind::Variant, &v.name, def);
        let ty = self.field_type(&v.ty, v.cyclic);
        let marker = Marker::of(&v.ty, None);
        let schema_name = format!("\"{}\"", v.path);
        let fixed_size = match self.ir.layout(&v.ty) {
            Layout::Fixed { size } if !v.cyclic => Some(size),
            _ => None,
        };
        let header =
            fixed_size.and_then(|size| wire::fixed_variant_header(tag, v.tag, u64::from(size)));
        let fixed_append = header.as_ref().map(|(frame, bytes)| FixedAppend {
            pattern: format!("Self::{name}(v)"),
            comment: format!("// frame length {frame}, tag {}", v.tag),
            header: byte_array(bytes),
        });
        let (encode_head, encode_tail) = match header {
            Some((frame, bytes)) => (
                vec![format!(
                    "w.put_array({}); // frame length {frame}, tag {}",
                    byte_array(&bytes),
                    v.tag
                )],
                Vec::new(),
            ),
            None => (
                vec![
                    "let mark = w.begin_len();".to_string(),
                    format!("w.{put_tag}({});", v.tag),
                ],
                vec!["w.end_len(mark);".to_string()],
            ),
        };
        VariantView {
            encode_head,
            encode_tail,
            doc: member_doc(&v.doc, NameKind::Variant, &v.name, def),
            deprecated: deprecated_attr(v.deprecated, &v.deprecated_note),
            attrs: self.member_attrs(&v.ty, v.cyclic, NameKind::Variant, &v.name, def),
            decl: layout::variant_decl(&name, &ty),
            len_arm: layout::arm(
                &format!("Self::{name}(v)"),
                "::pkt_runtime::Encode::encoded_len(v)",
            ),
            decode_value: match &marker {
                Some(m) => max::variant_lines(m, "variant", &schema_name),
                None => vec![DECODE_PAYLOAD.to_string()],
            },
            decode_into_value: match &marker {
                Some(m) => max::variant_lines(m, "variant_into", &schema_name),
                None => vec![DECODE_PAYLOAD_INTO.to_string()],
            },
            decode_variant: match &marker {
                Some(m) => vec![
                    m.alias(),
                    layout::statement(
                        "::pkt_runtime::max::decode_variant::<_, Max, _>",
                        &[
                            "slot".to_string(),
                            "&mut body".to_string(),
                            schema_name.clone(),
                            format!("Self::{name}"),
                        ],
                        "?;",
                    ),
                ],
                None => vec![layout::statement(
                    "::pkt_runtime::decode_variant",
                    &[
                        "slot".to_string(),
                        "&mut body".to_string(),
                        format!("Self::{name}"),
                    ],
                    "?;",
                )],
            },
            set_variant: layout::statement(
                "::pkt_runtime::set_variant",
                &["slot".to_string(), "v".to_string(), format!("Self::{name}")],
                ";",
            ),
            placed: !v.cyclic && self.ir.memory(&v.ty).size >= DECODE_IN_PLACE_MIN,
            set_placeholder: layout::statement(
                "::pkt_runtime::set_variant_placeholder",
                &["slot".to_string(), format!("Self::{name}")],
                ";",
            ),
            if_placed: layout::if_head(&format!("if let Self::{name}(v) = slot")),
            name,
            tag: v.tag.to_string(),
            charge_boxed: v.cyclic.then(|| {
                layout::statement(
                    "body.charge_boxed",
                    &[
                        "\"\"".to_string(),
                        self.boxed_memory(&v.ty),
                        "false".to_string(),
                    ],
                    "?;",
                )
            }),
            fixed_payload: fixed_size.is_some(),
            fixed_append,
        }
    }
}

#[derive(Serialize)]
pub(super) struct UnionView {
    #[serde(flatten)]
    pub(super) common: Common,
    pub(super) tag_ty: String,
    pub(super) tag_width: u32,
    header_len: u32,
    /// The `Writer` method that stores a tag.
    put_tag: String,
    tag_from_wire: String,
    /// Lines that return `Unknown` with the tag and the `kept` body (laid
    /// out as rustfmt does: on one line when it fits).
    pub(super) unknown_ok: Vec<String>,
    /// Lines that switch a union value to `Unknown` with the tag and the
    /// `kept` body.
    set_unknown: Vec<String>,
    /// The name of the variant the zero value holds.
    pub(super) zero: String,
    /// The body of `Default::default()`: the zero variant with its default.
    zero_default: String,
    /// The match arms of `check_at` for variants whose payload holds a
    /// message or union to check.
    limited: Vec<String>,
    /// The variants `encode_into` appends in one step; when there are none,
    /// the union keeps the default `encode_into`.
    fixed_appends: Vec<FixedAppend>,
    /// `Unknown { tag, body }` on one line (see [`unknown_on_one_line`]).
    unknown_one_line: bool,
    pub(super) variants: Vec<VariantView>,
}

/// A variant whose payload is fixed-size, so that its whole encoding is a
/// constant header and the payload, and there is nothing in it to check.
#[derive(Clone, Serialize)]
struct FixedAppend {
    pattern: String,
    /// What the header holds.
    comment: String,
    /// The header as a Rust array expression.
    header: String,
}

/// `bytes` as a Rust array expression: `[50, 0, 0, 0, 1, 1]`.
fn byte_array(bytes: &[u8]) -> String {
    let bytes: Vec<String> = bytes.iter().map(u8::to_string).collect();
    format!("[{}]", bytes.join(", "))
}

#[derive(Serialize)]
pub(super) struct VariantView {
    pub(super) doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    pub(super) deprecated: Option<String>,
    /// Attribute lines before the variant.
    attrs: Vec<String>,
    pub(super) name: String,
    /// The variant's declaration.
    decl: String,
    /// The match arm of `encoded_len`.
    len_arm: String,
    /// The statements that decode the payload into `v` in `decode_raw`.
    decode_value: Vec<String>,
    /// The statements that decode the payload into the existing `v` in
    /// `decode_into_raw`.
    decode_into_value: Vec<String>,
    /// The statement of `decode_into_raw` that switches to the variant.
    decode_variant: Vec<String>,
    /// The statement of `decode_into_raw` that stores a decoded boxed
    /// variant.
    set_variant: String,
    /// The payload is large ([`DECODE_IN_PLACE_MIN`]): `decode_into_raw`
    /// switches to the variant with a placeholder payload
    /// (`set_placeholder`), then decodes into it (`if_placed`).
    placed: bool,
    set_placeholder: String,
    if_placed: String,
    pub(super) tag: String,
    /// The charge for a boxed variant's box, a statement.
    pub(super) charge_boxed: Option<String>,
    /// The payload is fixed-size: decoded straight from the frame's bytes
    /// (`Reader::fixed_variant`), with no sub-reader to set up and finish.
    pub(super) fixed_payload: bool,
    /// Set when the whole encoding is a constant header and the payload.
    #[serde(skip)]
    fixed_append: Option<FixedAppend>,
    /// The lines of `encode_raw` before the payload: a fixed-size payload
    /// has its whole header stored at once (its length is known), any other
    /// a length placeholder and the tag.
    encode_head: Vec<String>,
    /// The lines after the payload: the placeholder filled in, if any.
    encode_tail: Vec<String>,
}

/// Whether a union's `Unknown { tag, body }` variant goes on one line, as
/// rustfmt decides: it lays out an enum's struct variants on one line when
/// their fields fit, unless the enum mixes variants of one line with
/// variants of several (a doc comment or attribute counts as a line), when
/// it writes them one field per line. `Unknown` has a doc comment, so it is
/// on one line exactly when every other variant takes several lines too.
pub(super) fn unknown_on_one_line(multiline: impl IntoIterator<Item = bool>) -> bool {
    multiline.into_iter().all(|m| m)
}

/// The body of a union's `Default::default()`: `Self::First(default)`.
pub(super) fn union_default(zero: &str, default: &str) -> String {
    layout::expr(&format!("Self::{zero}({default})"), false)
}
