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

/// Prelude types generated Rust names without a path; a schema type of the
/// same name would hide them.
pub const RUST_PRELUDE_TYPES: &[&str] = &["Option", "Result", "String", "Vec", "Box", "Default"];

/// Members of C# union classes, which variant classes (nested in the union)
/// must not be named after.
pub const CSHARP_UNION_MEMBERS: &[&str] = &["Tag", "Value", "Body"];

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
    fn escapes_keywords() {
        assert_eq!(ident(Lang::Rust, NameKind::Field, "type"), "r#type");
        assert_eq!(ident(Lang::Rust, NameKind::Field, "kind"), "kind");
        assert!(is_unescapable(Lang::Rust, "self"));
        assert_eq!(ident(Lang::CSharp, NameKind::Field, "type"), "Type");
    }
}
