//! How schema names become names in each target language. Each backend
//! describes its rules and reserved names in a [`Naming`] (the Rust and C#
//! descriptions live with their backends in `emit/`); the checker
//! (`sema/naming.rs`) and the backends use the same description. A name
//! reserved in one language is escaped or renamed by that language's
//! backend; only a name some language cannot write at all (two names that
//! become one identifier, a keyword that cannot be escaped) is reported
//! against the schema. The functions taking a [`Lang`] are shorthands for
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
/// takes for itself. Each backend supplies one (see `emit::Backend::naming`);
/// the backend writes every name through it, and the checker
/// (`sema/naming.rs`) holds every schema name against it, so what the
/// checker accepts is what the backend can write. The checker knows no
/// language by name.
///
/// A name reserved in one language only is escaped (keywords) or renamed
/// (generated members) by that language's backend, never rejected: the
/// checker rejects only what some language cannot write at all, such as two
/// names that become one identifier.
#[derive(Clone, Copy)]
pub struct Naming {
    /// The language, as diagnostics name it (`Rust`, `C#`).
    pub language: &'static str,
    /// The identifier written for a schema name, before keyword escaping
    /// and renaming.
    pub convert: fn(NameKind, &str) -> String,
    /// Keywords, escaped with [`Naming::escape`] when a name meets one.
    pub keywords: &'static [&'static str],
    /// What escaping puts before a keyword (`r#`, `@`).
    pub escape: &'static str,
    /// Keywords that cannot be escaped: schema names may not become them.
    pub unescapable: &'static [&'static str],
    /// Names the generated code declares beside the fields of every struct
    /// and message and beside the variants of every union, in the scope
    /// they share (Rust keeps methods apart from fields, so only its
    /// generated fields and variants are listed; C# lists every member).
    /// A field or variant that converts to one is renamed with
    /// [`Naming::rename_suffix`]. Each is generated on some type of the
    /// example schemas (a test holds the templates to the lists).
    pub members: &'static [&'static str],
    /// Members every generated struct, message and union inherits (from
    /// `System.Object` in C#), renamed around like [`Naming::members`].
    pub inherited_members: &'static [&'static str],
    /// Further names taken beside union variants (C# nests a class per
    /// variant in the union's class, beside its `Tag`).
    pub variant_members: &'static [&'static str],
    /// Names the generated code declares beside the values of every enum
    /// (Rust's `Unknown` variant), renamed around like [`Naming::members`].
    pub enum_members: &'static [&'static str],
    /// What the backend appends to a field, union variant or enum value
    /// whose converted name is taken in its scope (see [`Naming::member`]):
    /// `Value` in C# (`encode` becomes `EncodeValue`), `_` in Rust
    /// (`unknown_fields_`). The result is checked like any other name, so
    /// it may not meet another name of the same scope.
    pub rename_suffix: &'static str,
    /// Types generated beside schema types, named by a suffix after the
    /// converted (not renamed) type name (`ChatView` for `Chat`, `VecView`
    /// for Rust's `Vec_`): no schema type in the same namespace may take
    /// the name.
    pub companions: &'static [Companion],
    /// Whether a type may not be named like one of its members (C#, where
    /// a member named like its enclosing type is an error): a struct,
    /// message or union named like one of [`Naming::members`] (or
    /// [`Naming::inherited_members`], or for a union
    /// [`Naming::union_own_members`]) is renamed with
    /// [`Naming::rename_suffix`] ([`Naming::type_name`]: `struct Encode`
    /// becomes `EncodeValue`), and its fields and variants named like the
    /// type are renamed in turn (`health` in `message Health` becomes
    /// `HealthValue`). Enum values keep their names (C# allows
    /// `Mode.Mode`), and enums their names.
    pub type_named_like_member_forbidden: bool,
    /// Members of a union's own type (besides [`Naming::members`]), when
    /// [`Naming::type_named_like_member_forbidden`].
    pub union_own_members: &'static [&'static str],
    /// Types and traits generated code names without a path (Rust's `Vec`,
    /// `Option`): a schema type converted to one would hide it, so the
    /// backend renames the type with [`Naming::rename_suffix`]
    /// ([`Naming::type_name`]: `Vec_`). A backend that names everything by
    /// path, or has no such names, lists none.
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
    /// escaped when it is a keyword. Fields, variants and enum values are
    /// written with [`Naming::member_ident`].
    pub fn ident(&self, kind: NameKind, name: &str) -> String {
        self.escaped((self.convert)(kind, name))
    }

    /// The identifier, before keyword escaping, written for a schema type:
    /// converted, with [`Naming::rename_suffix`] appended when the converted
    /// name is reserved for the type ([`Naming::is_type_taken`]). Every
    /// reference to the type spells this name; its companions
    /// ([`Naming::companions_of`]) keep the converted one.
    pub fn type_name(&self, def: &crate::ir::TypeDef) -> String {
        let converted = (self.convert)(NameKind::Type, &def.name);
        if self.is_type_taken(&converted, def) {
            format!("{converted}{}", self.rename_suffix)
        } else {
            converted
        }
    }

    /// [`Naming::type_name`] as written in generated source.
    pub fn type_ident(&self, def: &crate::ir::TypeDef) -> String {
        self.escaped(self.type_name(def))
    }

    /// Whether the backend renames the type: then generated code notes the
    /// schema name at the declaration.
    pub fn is_type_renamed(&self, def: &crate::ir::TypeDef) -> bool {
        self.type_name(def) != (self.convert)(NameKind::Type, &def.name)
    }

    /// Whether `def` may not be written as `converted` (a converted or
    /// renamed type name): it would hide a name of [`Naming::prelude`], or
    /// be the name of one of its own members where
    /// [`Naming::type_named_like_member_forbidden`].
    pub fn is_type_taken(&self, converted: &str, def: &crate::ir::TypeDef) -> bool {
        use crate::ir::TypeKind;
        if self.prelude.contains(&converted) {
            return true;
        }
        if !self.type_named_like_member_forbidden {
            return false;
        }
        let own: &[&str] = match def.kind {
            TypeKind::Union { .. } => self.union_own_members,
            // Enums have no generated members.
            TypeKind::Enum { .. } => return false,
            TypeKind::Struct { .. } | TypeKind::Message { .. } => &[],
        };
        [self.members, self.inherited_members, own]
            .iter()
            .any(|l| l.contains(&converted))
    }

    /// The identifier, before keyword escaping, written for a field, union
    /// variant or enum value of `owner`: converted, with
    /// [`Naming::rename_suffix`] appended when the converted name is taken
    /// in its scope ([`Naming::is_taken`]).
    pub fn member(&self, kind: NameKind, name: &str, owner: &crate::ir::TypeDef) -> String {
        let converted = (self.convert)(kind, name);
        if self.is_taken(&converted, owner) {
            format!("{converted}{}", self.rename_suffix)
        } else {
            converted
        }
    }

    /// [`Naming::member`] as written in generated source.
    pub fn member_ident(&self, kind: NameKind, name: &str, owner: &crate::ir::TypeDef) -> String {
        self.escaped(self.member(kind, name, owner))
    }

    /// Whether the backend renames the member: then generated code notes
    /// the schema name at the declaration.
    pub fn is_renamed(&self, kind: NameKind, name: &str, owner: &crate::ir::TypeDef) -> bool {
        self.member(kind, name, owner) != (self.convert)(kind, name)
    }

    /// Whether a field, variant or enum value of `owner` may not be written
    /// as `converted` (a converted name): generated code declares that name
    /// in the same scope, or it is the name of the type itself where
    /// [`Naming::type_named_like_member_forbidden`] (as renamed by
    /// [`Naming::type_name`]).
    pub fn is_taken(&self, converted: &str, owner: &crate::ir::TypeDef) -> bool {
        use crate::ir::TypeKind;
        let lists: [&[&str]; 3] = match owner.kind {
            TypeKind::Enum { .. } => return self.enum_members.contains(&converted),
            TypeKind::Union { .. } => [self.members, self.inherited_members, self.variant_members],
            TypeKind::Struct { .. } | TypeKind::Message { .. } => {
                [self.members, self.inherited_members, &[]]
            }
        };
        lists.iter().any(|l| l.contains(&converted))
            || (self.type_named_like_member_forbidden && converted == self.type_name(owner))
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

/// A declared type as the language's backend writes it, renamed where its
/// name is reserved ([`Naming::type_name`]) and escaped.
pub fn type_ident(lang: Lang, def: &crate::ir::TypeDef) -> String {
    lang.naming().type_ident(def)
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
}
