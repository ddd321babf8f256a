//! How schema names become names in each target language. Each backend
//! describes its rules and reserved names in a [`Naming`] (the Rust and C#
//! descriptions live with their backends in `emit/`); the checker
//! (`sema/naming.rs`) and the backends use the same description, so a
//! collision or keyword that would break generated code is reported against
//! the schema instead. The functions taking a [`Lang`] are shorthands for
//! the built-in backends' descriptions.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

/// A target language whose naming rules the checker enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Rust,
    CSharp,
    TypeScript,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::Rust, Lang::CSharp, Lang::TypeScript];

    pub fn display(self) -> &'static str {
        self.naming().language
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

/// How one backend writes schema names, and which names its generated code
/// takes for itself: what the checker (`sema/naming.rs`) holds every schema
/// name against. Each backend supplies one (see `emit::Backend::naming`);
/// the checker knows no language by name.
#[derive(Clone, Copy)]
pub struct Naming {
    /// The language, as diagnostics name it (`Rust`, `C#`).
    pub language: &'static str,
    /// The identifier written for a schema name, before keyword escaping.
    pub convert: fn(NameKind, &str) -> String,
    /// The identifier written for a field or union variant of the type named
    /// by the third argument, before keyword escaping (C# renames a member
    /// named like its type).
    pub member: fn(NameKind, &str, &str) -> String,
    /// Keywords, escaped with [`Naming::escape`] when a name meets one.
    pub keywords: &'static [&'static str],
    /// What escaping puts before a keyword (`r#`, `@`).
    pub escape: &'static str,
    /// Keywords that cannot be escaped: schema names may not become them.
    pub unescapable: &'static [&'static str],
    /// Members the templates generate on every struct, message and union:
    /// fields and union variants may not take these names (compared after
    /// [`Naming::member`]). Each is generated on some type of the example
    /// schemas (a test holds the templates to it).
    pub members: &'static [&'static str],
    /// Members every generated type inherits (from `System.Object` in C#),
    /// reserved like [`Naming::members`].
    pub inherited_members: &'static [&'static str],
    /// Further names a union variant may not take.
    pub variant_members: &'static [&'static str],
    /// Further names fields may not take in the types that have
    /// [`Naming::companions`] (a companion type has an accessor per field
    /// beside these members).
    pub companion_members: &'static [&'static str],
    /// Types generated beside schema types, named by a suffix (`ChatView`
    /// for `Chat`): no schema type in the same namespace may take the name.
    pub companions: &'static [Companion],
    /// Whether a type may not be named like one of its members (C#, where
    /// a member named like its enclosing type is an error).
    pub type_named_like_member_forbidden: bool,
    /// Members of a union's own type (besides [`Naming::members`]), when
    /// [`Naming::type_named_like_member_forbidden`].
    pub union_own_members: &'static [&'static str],
    /// Names generated code uses without a path; a schema type of the same
    /// name would hide them.
    pub prelude: &'static [&'static str],
    /// The namespace of the runtime support types, which schema namespaces
    /// and top-level types must leave unambiguous.
    pub runtime_namespace: Option<&'static str>,
    /// A few runtime support types in that namespace, for diagnostics.
    pub runtime_types: &'static [&'static str],
    /// Namespaces of the platform's own libraries that generated code (and
    /// the runtime) name by absolute path (`System` in C#): a schema
    /// namespace may not start with one, nor a type outside a namespace
    /// take its name, since no path can tell the two apart then.
    pub platform_namespaces: &'static [&'static str],
    /// Further names a type outside a namespace may not take, with why.
    pub reserved_global_types: &'static [(&'static str, &'static str)],
    /// Whether a type and a namespace of the same qualified name clash (in
    /// C#, `namespace Game.Net` and a class `Game.Net` are the same name);
    /// Rust's modules and types are named apart.
    pub types_and_namespaces_clash: bool,
    /// The name of the type holding a file's constants, from its output stem.
    pub consts_holder: Option<fn(&str) -> String>,
    /// Output stems the backend writes itself (`mod`, `PktRuntime`), which
    /// schema files' outputs may not take.
    pub reserved_stems: &'static [&'static str],
    /// The compiler error, if any, of code in an enclosing namespace that
    /// names a type called like the last segment of its own namespace and
    /// finds the namespace instead (C#: in namespace `Sky`, `Guild` is
    /// `Sky.Guild`, not `Sky.Guild.Guild`: CS0118). Such types get a
    /// warning ([`crate::diag::Lint::TypeNamedLikeNamespace`]).
    pub namespace_hides_type: Option<&'static str>,
}

/// A type a backend generates beside some schema types, named after them.
#[derive(Clone, Copy)]
pub struct Companion {
    /// Appended to the type's name: `View` makes `ChatView`.
    pub suffix: &'static str,
    /// What the companion is, for diagnostics (`borrowed view`).
    pub what: &'static str,
    /// Which schema types get one, for diagnostics.
    pub of_what: &'static str,
    /// Whether a schema type gets one.
    pub applies: fn(&crate::ir::TypeDef) -> bool,
}

impl Naming {
    /// The identifier as written in generated source: converted, then
    /// escaped when it is a keyword.
    pub fn ident(&self, kind: NameKind, name: &str) -> String {
        self.escaped((self.convert)(kind, name))
    }

    /// [`Naming::member`] as written in generated source.
    pub fn member_ident(&self, kind: NameKind, name: &str, owner: &str) -> String {
        self.escaped((self.member)(kind, name, owner))
    }

    fn escaped(&self, converted: String) -> String {
        if self.is_keyword(&converted) {
            format!("{}{converted}", self.escape)
        } else {
            converted
        }
    }

    pub fn is_keyword(&self, s: &str) -> bool {
        self.keywords.contains(&s)
    }

    pub fn is_unescapable(&self, s: &str) -> bool {
        self.unescapable.contains(&s)
    }

    /// The companion type names generated for `def`, with their descriptions.
    pub fn companions_of(&self, def: &crate::ir::TypeDef) -> Vec<(String, &Companion)> {
        let base = (self.convert)(NameKind::Type, &def.name);
        self.companions
            .iter()
            .filter(|c| (c.applies)(def))
            .map(|c| (format!("{base}{}", c.suffix), c))
            .collect()
    }
}

impl Lang {
    /// The naming description of the language's backend.
    pub fn naming(self) -> &'static Naming {
        match self {
            Lang::Rust => &crate::emit::RUST_NAMING,
            Lang::CSharp => &crate::emit::CSHARP_NAMING,
            Lang::TypeScript => &crate::emit::TYPESCRIPT_NAMING,
        }
    }
}

/// The identifier a backend writes for a schema name, before keyword escaping.
pub fn convert(lang: Lang, kind: NameKind, name: &str) -> String {
    (lang.naming().convert)(kind, name)
}

/// PascalCase, with `_` before a leading digit; Rust and C# type names.
pub fn upper_camel(name: &str) -> String {
    let s = name.to_upper_camel_case();
    // `_1` would otherwise become `1`, which is not an identifier.
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.is_empty() {
        format!("_{s}")
    } else {
        s
    }
}

/// snake_case; Rust fields and modules.
pub fn snake(name: &str) -> String {
    name.to_snake_case()
}

/// SHOUTY_SNAKE_CASE; Rust constants.
pub fn shouty_snake(name: &str) -> String {
    name.to_shouty_snake_case()
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
    lang.naming().ident(kind, name)
}

/// The C# name, before keyword escaping, of a field or union variant of the
/// type named `owner` (see `SAME_AS_TYPE_SUFFIX` in `emit/csharp.rs`).
pub fn csharp_member(kind: NameKind, name: &str, owner: &str) -> String {
    (Lang::CSharp.naming().member)(kind, name, owner)
}

/// [`csharp_member`] as written in generated source.
pub fn csharp_member_ident(kind: NameKind, name: &str, owner: &str) -> String {
    Lang::CSharp.naming().member_ident(kind, name, owner)
}

pub fn is_keyword(lang: Lang, s: &str) -> bool {
    lang.naming().is_keyword(s)
}

/// Keywords that cannot be written even escaped (`self` in Rust).
pub fn is_unescapable(lang: Lang, s: &str) -> bool {
    lang.naming().is_unescapable(s)
}

/// The name both backends give the catch-all for tags and values the reader
/// does not know; schemas may not use it.
pub const UNKNOWN: &str = "Unknown";

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
