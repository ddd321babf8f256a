//! Enums: the type with its `Unknown(raw)` value, stored as its number so
//! that conversions are selects and range tests.

use serde::Serialize;

use super::*;

impl Cx<'_> {
    pub(super) fn enum_view(&self, def: &TypeDef, base: Prim, values: &[EnumValue]) -> EnumView {
        let (zero, _) = def.zero_enum_value().expect("an enum");
        // Named values are stored as their own numbers and `Unknown` under a
        // number no value has, so that `to_raw` is a select and `from_raw` a
        // range or bit test, not a jump table. When every number of the base
        // has a name there is no such number, and the compiler numbers them.
        let unknown = unused_value(base, values);
        let mut attrs = self.serde_type_attrs(&[]);
        if unknown.is_some() {
            attrs.push(format!("#[repr({})]", base.name()));
        }
        let discriminant = |n: u64| match unknown {
            Some(_) => format!(" = {n}"),
            None => String::new(),
        };
        EnumView {
            fixed_codec: fixed_codec_line(&type_ident(def), def.memory.size, def.memory.align),
            common: self.common(
                def,
                self.derive_line(&["Clone", "Copy", "Debug", "Default"]),
                attrs,
                values.iter().any(|v| v.deprecated),
            ),
            unknown_discriminant: unknown.map_or(String::new(), |n| format!(" = {n}")),
            has_unnamed: unknown.is_some(),
            // Named values serialize as their names; `Unknown(n)` as the bare
            // number, and a number deserializes to `Unknown(n)`.
            unknown_attrs: if self.serde {
                vec!["#[serde(untagged)]".to_string()]
            } else {
                Vec::new()
            },
            base: base.name().to_string(),
            size: base.size(),
            values: values
                .iter()
                .enumerate()
                .map(|(i, v)| EnumValueView {
                    zero: i == zero,
                    doc: member_doc(&v.doc, NameKind::Variant, &v.name, def),
                    deprecated: deprecated_attr(v.deprecated, &v.deprecated_note),
                    name: member_ident(NameKind::Variant, &v.name, def),
                    value: v.value.to_string(),
                    discriminant: discriminant(v.value),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub(super) struct EnumView {
    #[serde(flatten)]
    common: Common,
    base: String,
    size: u32,
    /// The `fixed_codec!` statement.
    fixed_codec: String,
    /// Attribute lines before the `Unknown` variant.
    unknown_attrs: Vec<String>,
    /// ` = n` after `Unknown(..)`, or empty (see `enum_view`).
    unknown_discriminant: String,
    /// Whether some number of the base has no name, so that `from_raw`
    /// needs an arm for `Unknown` (without one an unreachable pattern).
    has_unnamed: bool,
    values: Vec<EnumValueView>,
}

#[derive(Serialize)]
struct EnumValueView {
    /// The enum's zero value, its `#[default]`.
    zero: bool,
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    name: String,
    value: String,
    /// ` = value` after the variant's name, or empty (see `enum_view`).
    discriminant: String,
}

/// The smallest number of `base` that no value of the enum has.
fn unused_value(base: Prim, values: &[EnumValue]) -> Option<u64> {
    let used: std::collections::BTreeSet<u64> = values.iter().map(|v| v.value).collect();
    let max = match base.size() {
        1 => u64::from(u8::MAX),
        2 => u64::from(u16::MAX),
        _ => u64::from(u32::MAX),
    };
    // At most `values.len() + 1` numbers need looking at.
    (0..=max).find(|n| !used.contains(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_takes_the_smallest_number_no_value_has() {
        let values = |numbers: &mut dyn Iterator<Item = u64>| -> Vec<EnumValue> {
            numbers
                .map(|value| EnumValue {
                    name: format!("V{value}"),
                    doc: Vec::new(),
                    value,
                    deprecated: false,
                    deprecated_note: None,
                    span: crate::diag::Span::default(),
                })
                .collect()
        };
        assert_eq!(
            unused_value(Prim::U8, &values(&mut [1, 2].into_iter())),
            Some(0)
        );
        assert_eq!(unused_value(Prim::U8, &values(&mut (0..3))), Some(3));
        assert_eq!(unused_value(Prim::U8, &values(&mut (0..=255))), None);
        assert_eq!(unused_value(Prim::U16, &values(&mut (0..=255))), Some(256));
        assert_eq!(
            unused_value(Prim::U32, &values(&mut [0, 1, 4_000_000_000].into_iter())),
            Some(2)
        );
    }
}
