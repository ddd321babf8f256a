//! The evolution rules `pktc compat` applies, as data: each has a stable id
//! (what bots match in `--format json`), a class, and an anchor in
//! docs/evolution.md, whose rule table lists the same ids.

use serde::Serialize;

use super::ChangeKind;

macro_rules! rules {
    ($($variant:ident = $id:literal, $class:ident, $doc:literal;)*) => {
        /// One rule of docs/evolution.md.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $(#[doc = $doc] $variant,)*
        }

        impl Rule {
            /// Every rule, in the order of the table in docs/evolution.md.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable id, also the anchor in docs/evolution.md.
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// How a change under this rule affects peers.
            pub fn class(self) -> ChangeKind {
                match self {
                    $(Rule::$variant => ChangeKind::$class,)*
                }
            }

            /// What the rule covers, as the docs' table says it.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Rule::$variant => $doc,)*
                }
            }
        }
    };
}

rules! {
    MessageFieldAppended = "message-field-appended", Safe, "message field appended";
    MessageFieldRemoved = "message-field-removed", Breaking, "message field removed";
    MessageFieldRetyped = "message-field-retyped", Breaking, "message field retyped (different encoding)";
    MessageFieldsReordered = "message-fields-reordered", Breaking, "message fields reordered";
    MessageDefaultChanged = "message-default-changed", Breaking, "message field default changed";
    MessageMaxChanged = "message-max-changed", Breaking, "message field `@max` added, removed or changed";
    FieldRenamed = "field-renamed", SourceOnly, "message or struct field renamed";
    DeprecationChanged = "deprecation-changed", SourceOnly, "type, field or enum value deprecated or undeprecated";
    PreserveUnknownChanged = "preserve-unknown-changed", SourceOnly, "`@preserve_unknown` added or removed";
    StructLayoutChanged = "struct-layout-changed", Breaking, "struct field added, removed or retyped";
    StructMaxChanged = "struct-max-changed", Breaking, "struct field `@max` added, removed or changed";
    ElementMaxChanged = "element-max-changed", Breaking, "`@max` on an element, key or value (`list<string @max(24)>`) added, removed or changed";
    SameEncodingRetyped = "same-encoding-retyped", SourceOnly, "field or payload type changed to one with the same encoding (a renamed type, `bytes` ↔ `list<u8>`)";
    UnionVariantAdded = "union-variant-added", Safe, "union variant added";
    UnionVariantRemovedReserved = "union-variant-removed-reserved", SourceOnly, "union variant removed, tag reserved";
    UnionVariantRemoved = "union-variant-removed", Breaking, "union variant removed, tag not reserved";
    UnionTagRepointed = "union-tag-repointed", Breaking, "union tag re-pointed to another payload type";
    UnionReservedTagReused = "union-reserved-tag-reused", Breaking, "union variant reuses a reserved tag";
    UnionTagUnreserved = "union-tag-unreserved", Breaking, "union tag no longer reserved";
    UnionTagWidthChanged = "union-tag-width-changed", Breaking, "union tag width changed";
    UnionVariantRenamed = "union-variant-renamed", SourceOnly, "union variant renamed";
    UnionDefaultChanged = "union-default-changed", Breaking, "union's first variant changed";
    EnumValueAdded = "enum-value-added", Safe, "enum value added";
    EnumValueRenumbered = "enum-value-renumbered", Breaking, "enum value renumbered";
    EnumValueRemoved = "enum-value-removed", Breaking, "enum value removed";
    EnumValueRenamed = "enum-value-renamed", SourceOnly, "enum value renamed (same number)";
    EnumBaseChanged = "enum-base-changed", Breaking, "enum base type changed";
    EnumDefaultChanged = "enum-default-changed", Breaking, "enum's first value changed";
    KindChanged = "kind-changed", Breaking, "kind changed (e.g. struct to message)";
    TypeAdded = "type-added", Safe, "type added";
    TypeRemoved = "type-removed", SourceOnly, "type removed";
}

impl Rule {
    /// Where the rule is explained.
    pub fn docs(self) -> String {
        format!("docs/evolution.md#{}", self.id())
    }

    /// The rule with this id.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case() {
        let mut ids: Vec<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
        assert!(ids
            .iter()
            .all(|id| id.chars().all(|c| c.is_ascii_lowercase() || c == '-')));
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), Rule::ALL.len());
        assert_eq!(Rule::from_id("type-added"), Some(Rule::TypeAdded));
    }
}
