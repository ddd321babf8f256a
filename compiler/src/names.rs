//! How schema names become names in each target language. The checker uses
//! the same functions as the backends, so a collision or keyword that would
//! break generated code is reported against the schema instead.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

/// A target language whose naming rules the checker enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Rust,
    CSharp,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::Rust, Lang::CSharp];

    pub fn display(self) -> &'static str {
        match self {
            Lang::Rust => "Rust",
            Lang::CSharp => "C#",
        }
    }
}

/// What a name denotes; each has its own case convention per language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Type,
    Field,
    /// Union variants and enum values.
    Variant,
    Const,
}

/// The identifier a backend writes for a schema name, before keyword escaping.
pub fn convert(lang: Lang, kind: NameKind, name: &str) -> String {
    match (lang, kind) {
        (_, NameKind::Type) | (_, NameKind::Variant) => upper_camel(name),
        (Lang::Rust, NameKind::Field) => name.to_snake_case(),
        (Lang::Rust, NameKind::Const) => name.to_shouty_snake_case(),
        (Lang::CSharp, NameKind::Field) | (Lang::CSharp, NameKind::Const) => upper_camel(name),
    }
}

fn upper_camel(name: &str) -> String {
    let s = name.to_upper_camel_case();
    // `_1` would otherwise become `1`, which is not an identifier.
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.is_empty() {
        format!("_{s}")
    } else {
        s
    }
}

/// Whether a schema name can be converted for every language: its first
/// character other than `_` is an ASCII letter. Case conversion drops
/// underscores, so `_1` would become `1` and `__` nothing at all.
pub fn starts_with_letter(name: &str) -> bool {
    name.trim_start_matches('_')
        .starts_with(|c: char| c.is_ascii_alphabetic())
}

/// The identifier as written in generated source: converted, then escaped
/// when it is a keyword (`r#type` in Rust, `@class` in C#).
pub fn ident(lang: Lang, kind: NameKind, name: &str) -> String {
    let converted = convert(lang, kind, name);
    if is_keyword(lang, &converted) {
        match lang {
            Lang::Rust => format!("r#{converted}"),
            Lang::CSharp => format!("@{converted}"),
        }
    } else {
        converted
    }
}

/// What the C# backend appends to a field or union variant whose name would
/// equal its enclosing type's, which C# forbids (CS0542): `health` in
/// `message Health` becomes `HealthValue`.
pub const CSHARP_SAME_AS_TYPE_SUFFIX: &str = "Value";

/// The C# name, before keyword escaping, of a field or union variant of the
/// type named `owner`.
pub fn csharp_member(kind: NameKind, name: &str, owner: &str) -> String {
    let cs = convert(Lang::CSharp, kind, name);
    if cs == convert(Lang::CSharp, NameKind::Type, owner) {
        format!("{cs}{CSHARP_SAME_AS_TYPE_SUFFIX}")
    } else {
        cs
    }
}

/// [`csharp_member`] as written in generated source.
pub fn csharp_member_ident(kind: NameKind, name: &str, owner: &str) -> String {
    let cs = csharp_member(kind, name, owner);
    if is_keyword(Lang::CSharp, &cs) {
        format!("@{cs}")
    } else {
        cs
    }
}

pub fn is_keyword(lang: Lang, s: &str) -> bool {
    match lang {
        Lang::Rust => RUST_KEYWORDS.contains(&s),
        Lang::CSharp => CSHARP_KEYWORDS.contains(&s),
    }
}

/// Rust keywords that cannot be written as raw identifiers.
pub fn is_unescapable(lang: Lang, s: &str) -> bool {
    lang == Lang::Rust && matches!(s, "self" | "Self" | "super" | "crate" | "_")
}

/// Members the C# backend generates on every type. A field or nested type
/// with one of these names would not compile.
pub const CSHARP_GENERATED_MEMBERS: &[&str] = &[
    "EncodedSize",
    "MinSize",
    "GetEncodedSize",
    "Encode",
    "ToArray",
    "Decode",
    "TryDecode",
    "DecodeInto",
    "WriteTo",
    "ReadFrom",
    "ReadInto",
    "Truncated",
    "UnknownFields",
    "Equals",
    "GetHashCode",
    "ToString",
    "GetType",
    "MemberwiseClone",
    "Finalize",
    "ReferenceEquals",
];

/// Members the Rust backend generates besides the schema's own: the
/// `unknown_fields` of `@preserve_unknown` messages, the `Unknown` variant of
/// enums and unions, and the inherent functions of enums.
pub const RUST_GENERATED_MEMBERS: &[&str] = &["unknown_fields", "Unknown", "from_raw", "to_raw"];

/// Associated functions generated Rust declares on messages, unions and
/// variable-size structs (`Chat::view`). No schema name can collide with
/// them: schema names become fields and variants, which live apart from
/// functions in Rust. Listed so that the generated-names test knows them.
pub const RUST_GENERATED_FUNCTIONS: &[&str] = &["view", "view_with_limits", "view_prefix"];

/// Prelude types generated Rust names without a path; a schema type of the
/// same name would hide them.
pub const RUST_PRELUDE_TYPES: &[&str] = &["Option", "Result", "String", "Vec", "Box", "Default"];

/// Members of C# union classes, which variant classes (nested in the union)
/// must not be named after.
pub const CSHARP_UNION_MEMBERS: &[&str] = &["Tag", "Value", "Body"];

/// Members of the C# class of a union itself (besides
/// [`CSHARP_GENERATED_MEMBERS`]): a union may not be named after them.
pub const CSHARP_UNION_OWN_MEMBERS: &[&str] = &["Tag", "Unknown"];

/// The namespace of the C# runtime support types (`PktRuntime.cs`).
pub const CSHARP_RUNTIME_NAMESPACE: &str = "Pkt";

/// The name both backends give the catch-all for tags and values the reader
/// does not know; schemas may not use it.
pub const UNKNOWN: &str = "Unknown";

const RUST_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "_",
];

const CSHARP_KEYWORDS: &[&str] = &[
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_per_language_convention() {
        assert_eq!(
            convert(Lang::CSharp, NameKind::Field, "reply_to"),
            "ReplyTo"
        );
        assert_eq!(convert(Lang::Rust, NameKind::Field, "replyTo"), "reply_to");
        assert_eq!(convert(Lang::Rust, NameKind::Const, "MaxName"), "MAX_NAME");
        assert_eq!(
            convert(Lang::CSharp, NameKind::Const, "MAX_NAME"),
            "MaxName"
        );
        assert_eq!(convert(Lang::Rust, NameKind::Type, "vec3"), "Vec3");
    }

    #[test]
    fn names_must_start_with_a_letter_after_underscores() {
        for ok in ["a", "_a", "__a1", "A_1"] {
            assert!(starts_with_letter(ok), "{ok}");
        }
        for bad in ["_", "__", "_1", "_1a", "1a"] {
            assert!(!starts_with_letter(bad), "{bad}");
        }
    }

    #[test]
    fn escapes_keywords() {
        assert_eq!(ident(Lang::Rust, NameKind::Field, "type"), "r#type");
        assert_eq!(ident(Lang::Rust, NameKind::Field, "kind"), "kind");
        assert!(is_unescapable(Lang::Rust, "self"));
        assert_eq!(ident(Lang::CSharp, NameKind::Field, "type"), "Type");
    }

    #[test]
    fn csharp_members_named_like_their_type_get_a_suffix() {
        assert_eq!(
            csharp_member(NameKind::Field, "health", "Health"),
            "HealthValue"
        );
        assert_eq!(csharp_member(NameKind::Field, "hp", "Health"), "Hp");
        assert_eq!(
            csharp_member(NameKind::Variant, "Packet", "packet"),
            "PacketValue"
        );
    }
}
