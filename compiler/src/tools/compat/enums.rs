//! Enums: values are paired by name, then checked for their number, which
//! is all the wire knows them by.

use std::collections::{HashMap, HashSet};

use super::{Comparer, Rule};
use crate::ir::*;

impl Comparer<'_> {
    pub(super) fn compare_enum(
        &mut self,
        o: &TypeDef,
        n: &TypeDef,
        (ob, ov): (Prim, &[EnumValue]),
        (nb, nv): (Prim, &[EnumValue]),
    ) {
        if ob != nb {
            self.push(
                Rule::EnumBaseChanged,
                self.new.qualified_name(n),
                format!(
                    "enum `{}` changed its base type from `{}` to `{}`",
                    n.display_name,
                    ob.name(),
                    nb.name()
                ),
                Some((o.span, ob.name().into())),
                Some((n.span, nb.name().into())),
                Some("the base type is the size on the wire and never changes"),
            );
            return;
        }
        // The zero value (the first) is what readers fill in. One that kept
        // its name but not its number is reported once, as renumbered.
        if let (Some((_, a)), Some((_, b))) = (o.zero_enum_value(), n.zero_enum_value()) {
            if a.value != b.value && a.name != b.name {
                self.push(
                    Rule::EnumDefaultChanged,
                    self.new.qualified_name(n),
                    format!(
                        "the default of enum `{}` changed from `{}` ({}) to `{}` ({})",
                        n.display_name, a.name, a.value, b.name, b.value
                    ),
                    Some((a.span, "the first value is the default".into())),
                    Some((b.span, "now first".into())),
                    Some("keep the first value first; add new values after it"),
                );
            }
        }
        let new_by_name: HashMap<&str, &EnumValue> =
            nv.iter().map(|v| (v.name.as_str(), v)).collect();
        let new_by_number: HashMap<u64, &EnumValue> = nv.iter().map(|v| (v.value, v)).collect();
        let old_names: HashSet<&str> = ov.iter().map(|v| v.name.as_str()).collect();
        let old_numbers: HashSet<u64> = ov.iter().map(|v| v.value).collect();
        for a in ov {
            match new_by_name.get(a.name.as_str()) {
                Some(b) if b.value != a.value => self.push(
                    Rule::EnumValueRenumbered,
                    value_place(self.new, n, b),
                    format!(
                        "`{}::{}` was renumbered from {} to {}",
                        n.display_name, a.name, a.value, b.value
                    ),
                    Some((a.span, a.value.to_string())),
                    Some((b.span, b.value.to_string())),
                    Some("enum values are never renumbered"),
                ),
                Some(b) => self.compare_deprecation(
                    value_place(self.new, n, b),
                    (a.deprecated, b.deprecated),
                    format!("`{}::{}`", n.display_name, b.name),
                    a.span,
                    b.span,
                ),
                None => match new_by_number
                    .get(&a.value)
                    .filter(|b| !old_names.contains(b.name.as_str()))
                {
                    Some(b) => self.push(
                        Rule::EnumValueRenamed,
                        value_place(self.new, n, b),
                        format!("`{}::{}` was renamed to `{}`", n.display_name, a.name, b.name),
                        Some((a.span, "old name".into())),
                        Some((b.span, "new name".into())),
                        Some("the number is unchanged, so the wire is too; code using the old name must be updated"),
                    ),
                    None => self.push(
                        Rule::EnumValueRemoved,
                        value_place(self.old, o, a),
                        format!("`{}::{}` ({}) was removed", n.display_name, a.name, a.value),
                        Some((a.span, "removed".into())),
                        Some((n.span, "enum without it".into())),
                        Some("values are never removed: old peers still send it; mark it `@deprecated` instead"),
                    ),
                },
            }
        }
        for b in nv {
            if !old_names.contains(b.name.as_str()) && !old_numbers.contains(&b.value) {
                self.push(
                    Rule::EnumValueAdded,
                    value_place(self.new, n, b),
                    format!("`{}::{}` ({}) was added", n.display_name, b.name, b.value),
                    None,
                    Some((b.span, "new value".into())),
                    Some("old readers keep it as an unknown value and write it back unchanged"),
                );
            }
        }
    }
}

/// An enum value's place: `game.Team.Red`.
fn value_place(ir: &Ir, owner: &TypeDef, v: &EnumValue) -> String {
    format!("{}.{}", ir.qualified_name(owner), v.name)
}
