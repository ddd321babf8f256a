//! The evolution rules `pktc compat` applies, as data: each has a stable id
//! (what bots match in `--format json`), a class, and a section of
//! docs/evolution.md, whose rule table lists the same ids. `pktc explain ID`
//! prints that section, which is compiled in.

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

            /// The stable id, also the heading of its section in docs/evolution.md.
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
    MessageFieldInserted = "message-field-inserted", Breaking, "message field added before existing fields";
    MessageFieldRemoved = "message-field-removed", Breaking, "message field removed";
    MessageFieldRetyped = "message-field-retyped", Breaking, "message field retyped (different encoding)";
    MessageFieldsReordered = "message-fields-reordered", Breaking, "message fields reordered";
    MessageDefaultChanged = "message-default-changed", Breaking, "message field default changed";
    MessageMaxChanged = "message-max-changed", Breaking, "message field `@max` added, removed or changed";
    FieldRenamed = "field-renamed", SourceOnly, "message or struct field renamed";
    DeprecationChanged = "deprecation-changed", SourceOnly, "type, field, variant or enum value deprecated or undeprecated";
    PreserveUnknownChanged = "preserve-unknown-changed", SourceOnly, "`@preserve_unknown` added or removed";
    DeltaAdded = "delta-added", Safe, "`@delta` added to a struct or message";
    DeltaRemoved = "delta-removed", Breaking, "`@delta` removed from a struct or message";
    DeltaFieldChanged = "delta-field-changed", Breaking, "in a `@delta` type, a field's type (or a map's value type) gained or lost `@delta`";
    StructLayoutChanged = "struct-layout-changed", Breaking, "struct field added, removed or retyped";
    StructFieldsReordered = "struct-fields-reordered", Breaking, "struct fields reordered";
    StructMaxChanged = "struct-max-changed", Breaking, "struct field `@max` added, removed or changed";
    QuantizeChanged = "quantize-changed", Breaking, "`@quantize` on a struct or message field added, removed or changed";
    ElementMaxChanged = "element-max-changed", Breaking, "`@max` on an element, key or value (`list<string @max(24)>`) added, removed or changed";
    SameEncodingRetyped = "same-encoding-retyped", SourceOnly, "field or payload type changed to one with the same encoding (a renamed or moved type, an enum and its base integer, `bytes` and `list<u8>`)";
    UnionVariantAdded = "union-variant-added", Safe, "union variant added";
    UnionVariantRemovedReserved = "union-variant-removed-reserved", SourceOnly, "union variant removed, tag reserved";
    UnionVariantRemoved = "union-variant-removed", Breaking, "union variant removed, tag not reserved";
    UnionVariantRetagged = "union-variant-retagged", Breaking, "union variant moved to another tag";
    UnionTagRepointed = "union-tag-repointed", Breaking, "union tag re-pointed to another payload type or variant";
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
    TypeMoved = "type-moved", SourceOnly, "type moved to another namespace";
    TypeRenamed = "type-renamed", SourceOnly, "type renamed (recognised where it is used)";
    ConstAdded = "const-added", Safe, "constant added";
    ConstRemoved = "const-removed", SourceOnly, "constant removed";
    ConstValueChanged = "const-value-changed", Breaking, "constant value changed";
    ConstRetyped = "const-retyped", SourceOnly, "constant type changed, value kept";
    ConstMoved = "const-moved", SourceOnly, "constant moved to another namespace or file (the generated C# constants class changes)";
}

/// docs/evolution.md, for [`Rule::explain`].
const EVOLUTION_MD: &str = include_str!("../../../../docs/evolution.md");

impl Rule {
    /// How to read more about the rule: the command that prints its section.
    pub fn docs(self) -> String {
        format!("pktc explain {}", self.id())
    }

    /// The rule with this id.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }

    /// The rule's section of docs/evolution.md (its heading line is
    /// ``#### `ID` ``), up to the next heading, trimmed.
    pub fn explain(self) -> &'static str {
        section(EVOLUTION_MD, self.id()).unwrap_or("")
    }

    /// The rule whose id is closest to a mistyped `id`, if one is close.
    pub fn similar(id: &str) -> Option<Rule> {
        crate::sema::suggest(id, Rule::ALL.iter().map(|r| r.id())).and_then(Rule::from_id)
    }
}

/// The text under the heading ``#### `ID` `` of `doc`, up to the next
/// heading of any level.
fn section<'a>(doc: &'a str, id: &str) -> Option<&'a str> {
    let heading = format!("#### `{id}`");
    let start = doc.find(&format!("\n{heading}\n"))? + heading.len() + 2;
    let body = &doc[start..];
    let end = body
        .match_indices("\n#")
        .map(|(i, _)| i)
        .find(|&i| !in_fence(&body[..i]))
        .unwrap_or(body.len());
    Some(body[..end].trim())
}

/// Whether `text` ends inside a fenced code block (whose lines may start
/// with `#`).
fn in_fence(text: &str) -> bool {
    text.lines().filter(|l| l.starts_with("```")).count() % 2 == 1
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

    #[test]
    fn every_rule_has_a_section_that_stops_at_the_next_heading() {
        for r in Rule::ALL {
            let text = r.explain();
            assert!(!text.is_empty(), "{}: no section", r.id());
            assert!(!text.contains("\n#### "), "{}: runs into the next", r.id());
        }
        let doc = "#### `a`\none\n```sh\n# not a heading\n```\n#### `b`\ntwo\n";
        assert_eq!(
            section(&format!("\n{doc}"), "a"),
            Some("one\n```sh\n# not a heading\n```")
        );
        assert_eq!(section(&format!("\n{doc}"), "b"), Some("two"));
    }

    #[test]
    fn similar_ids_are_suggested() {
        assert_eq!(
            Rule::similar("message-field-remove"),
            Some(Rule::MessageFieldRemoved)
        );
        assert_eq!(Rule::similar("zzzzzzzzzzzzzzzzzz"), None);
    }
}
