//! `@delta`: the API it adds and the delta bytes of the fields of a
//! `@delta` type, which depend on whether the field's type is `@delta` too.

use super::{Comparer, Rule};
use crate::delta::{field_delta, FieldDelta};
use crate::ir::*;

impl Comparer<'_> {
    /// The changes of `@delta` between two versions of a struct or message.
    pub(super) fn compare_delta(&mut self, o: &TypeDef, n: &TypeDef) {
        if o.delta != n.delta {
            let (rule, verb, help) = if n.delta {
                (
                    Rule::DeltaAdded,
                    "gained",
                    "the ordinary bytes are unchanged; the type gains its delta encoder and reader",
                )
            } else {
                (
                    Rule::DeltaRemoved,
                    "lost",
                    "peers that exchange deltas of this type can no longer read them",
                )
            };
            self.push(
                rule,
                self.new.qualified_name(n),
                format!("`{}` {verb} `@delta`", n.display_name),
                Some((o.span, "before".into())),
                Some((n.span, "now".into())),
                Some(help),
            );
        }
        if !(o.delta && n.delta) {
            return;
        }
        for b in n.kind.fields() {
            let Some(a) = o.kind.fields().iter().find(|a| a.name == b.name) else {
                continue;
            };
            let (was, is) = (shape(self.old, a), shape(self.new, b));
            if let (Some(was), Some(is)) = (was, is) {
                if was != is {
                    self.push(
                        Rule::DeltaFieldChanged,
                        b.path.clone(),
                        format!(
                            "the delta of field `{}.{}` changed: {} is {} `@delta`",
                            n.display_name,
                            b.name,
                            if is.1 { "a map whose value type" } else { "its type" },
                            if is.0 { "now" } else { "no longer" },
                        ),
                        Some((a.span, "before".into())),
                        Some((b.span, "now".into())),
                        Some("a changed field sends its own delta only when its type is `@delta`, else its whole value"),
                    );
                }
            }
        }
    }
}

/// Whether a field (or, for a diffed map, its values) sends its own
/// delta, and whether it is a map; `None` for fields whose type can never
/// be `@delta` (so a retype, reported elsewhere, is not reported twice).
fn shape(ir: &Ir, f: &Field) -> Option<(bool, bool)> {
    let named = |ty: &Type| match ty {
        Type::Named(r) => matches!(
            ir.ty(r.id).kind,
            TypeKind::Struct { .. } | TypeKind::Message { .. }
        ),
        _ => false,
    };
    match field_delta(ir, f) {
        FieldDelta::Nested(_) => Some((true, false)),
        FieldDelta::Map { value, nested, .. } if named(value) => Some((nested.is_some(), true)),
        FieldDelta::Whole if named(&f.ty) && !f.cyclic => Some((false, false)),
        _ => None,
    }
}
