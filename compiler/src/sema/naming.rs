//! Every name must survive conversion to every target language: no two names
//! may become the same identifier, and none may hit a keyword that cannot be
//! escaped, a companion type the backends generate, or a name the generated
//! code relies on. A field, variant or enum value named like a member one
//! backend generates is no error: that backend renames it
//! ([`Naming::member`]), and so is a type named like a name that backend
//! reserves for types, such as Rust's `Vec` ([`Naming::type_name`]); the
//! renamed name is checked like any other.
//!
//! Nothing here knows a language by name: each backend describes its naming
//! rules and reserved names in a [`Naming`] (`emit::Backend::naming`), and
//! the checks below ask every description in turn.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Lint, Span};
use crate::ir::*;
use crate::names::{self, NameKind, Naming};

/// A name as declared, what it denotes, where, and for a type name the type.
type Name<'a> = (&'a str, NameKind, Span, Option<&'a TypeDef>);

/// Checks `ir` against the naming rules of every built-in backend.
pub fn check(ir: &Ir) -> Vec<Diagnostic> {
    check_with(ir, &crate::emit::namings())
}

/// Checks `ir` against the naming rules of `namings`; diagnostics come in
/// the order of the checks, and within a check in the order of `namings`.
pub fn check_with(ir: &Ir, namings: &[&Naming]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    long_names(ir, &mut diags);

    // Types and constants share one generated module per namespace.
    let mut by_namespace: Vec<(&[String], Vec<Name>)> = Vec::new();
    for file in &ir.files {
        let entry = match by_namespace
            .iter_mut()
            .find(|(ns, _)| *ns == file.namespace.as_slice())
        {
            Some(e) => e,
            None => {
                by_namespace.push((file.namespace.as_slice(), Vec::new()));
                by_namespace.last_mut().expect("just pushed")
            }
        };
        for id in &file.types {
            let def = ir.ty(*id);
            entry
                .1
                .push((&def.name, NameKind::Type, def.span, Some(def)));
        }
        for c in &file.consts {
            entry.1.push((&c.name, NameKind::Const, c.span, None));
        }
    }
    for (_, names) in &by_namespace {
        unique(namings, names, "namespace", None, &mut diags);
    }
    for file in &ir.files {
        for seg in &file.namespace {
            letter_first(seg, "namespace segment", file.namespace_span, &mut diags);
        }
    }
    type_names(namings, ir, &mut diags);
    types_named_like_namespaces(namings, ir, &mut diags);
    constants_classes(namings, ir, &mut diags);
    companions(namings, ir, &mut diags);

    for def in &ir.types {
        let owner = Some(def);
        match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                let names: Vec<_> = fields
                    .iter()
                    .map(|f| (f.name.as_str(), NameKind::Field, f.span, None))
                    .collect();
                unique(namings, &names, def.kind.keyword(), owner, &mut diags);
                for f in fields {
                    members(namings, def, &f.name, NameKind::Field, f.span, &mut diags);
                }
            }
            TypeKind::Union { variants, .. } => {
                let names: Vec<_> = variants
                    .iter()
                    .map(|v| (v.name.as_str(), NameKind::Variant, v.span, None))
                    .collect();
                unique(namings, &names, "union", owner, &mut diags);
                for v in variants {
                    members(namings, def, &v.name, NameKind::Variant, v.span, &mut diags);
                }
            }
            TypeKind::Enum { values, .. } => {
                let names: Vec<_> = values
                    .iter()
                    .map(|v| (v.name.as_str(), NameKind::Variant, v.span, None))
                    .collect();
                unique(namings, &names, "enum", owner, &mut diags);
                for v in values {
                    members(namings, def, &v.name, NameKind::Variant, v.span, &mut diags);
                }
            }
        }
    }
    named_like_namespace(namings, ir, &mut diags);
    diags
}

/// Warns about a type named like the last segment of its namespace in a
/// language where code in the enclosing namespace then finds the namespace
/// ([`Naming::namespace_hides_type`]), unless the type allows it. One
/// warning per type and such language, which the warning names as its own
/// ([`Diagnostic::for_language`]): code in other languages is fine.
fn named_like_namespace(namings: &[&Naming], ir: &Ir, diags: &mut Vec<Diagnostic>) {
    let lint = Lint::TypeNamedLikeNamespace;
    for def in ir.types.iter().filter(|d| !d.allow.contains(&lint)) {
        let file = &ir.files[def.file.0];
        let Some(last) = file.namespace.last() else {
            continue;
        };
        for naming in namings {
            let Some(error) = naming.namespace_hides_type else {
                continue;
            };
            if naming.type_name(def) == (naming.convert)(NameKind::Type, last) {
                diags.push(named_like_namespace_in(naming, error, ir, def, lint));
            }
        }
    }
}

/// The warning of [`named_like_namespace`] for one language.
fn named_like_namespace_in(
    naming: &Naming,
    error: &str,
    ir: &Ir,
    def: &TypeDef,
    lint: Lint,
) -> Diagnostic {
    let file = &ir.files[def.file.0];
    let last = file.namespace.last().expect("a namespace");
    let segments: Vec<String> = file
        .namespace
        .iter()
        .map(|s| (naming.convert)(NameKind::Type, s))
        .collect();
    let namespace = segments.join(".");
    let name = naming.type_name(def);
    let lang = naming.language;
    let where_ = match &segments[..segments.len() - 1] {
        [] => format!("outside namespace `{namespace}`"),
        outer => format!("inside namespace `{}`", outer.join(".")),
    };
    let mut d = Diagnostic::warning(
        format!("{lang} type `{namespace}.{name}` is named like its namespace"),
        def.span,
        format!("named like the namespace `{namespace}`"),
    );
    if let Some(span) = file.namespace_span {
        // A namespace is written without spaces: its last segment ends it.
        let end = span.end as usize;
        let segment = Span::new(span.file, end - last.len(), end);
        d = d.with_label(segment, "the namespace's last segment");
    }
    d.with_note(format!(
        "in {lang} code {where_}, `{name}` means the namespace `{namespace}`, \
         even with `using {namespace};` at the top of the file ({error})"
    ))
    .with_help(format!(
        "rename the type or the last segment of the namespace; if {lang} code always \
         writes `{namespace}.{name}` in full, put `@allow({})` before the type",
        lint.name()
    ))
    .for_language(lang)
}

/// Reports names that become the same identifier in some language, and names
/// no language can write.
fn unique(
    namings: &[&Naming],
    names: &[Name],
    scope: &str,
    owner: Option<&TypeDef>,
    diags: &mut Vec<Diagnostic>,
) {
    for &(name, kind, span, _) in names {
        let what = match (kind, owner.map(|o| &o.kind)) {
            (NameKind::Type, _) => "type name",
            (NameKind::Const, _) => "constant name",
            (NameKind::Field, _) => "field name",
            (NameKind::Variant, Some(TypeKind::Enum { .. })) => "enum value name",
            (NameKind::Variant, _) => "variant name",
        };
        letter_first(name, what, Some(span), diags);
    }
    let names: Vec<Name> = names
        .iter()
        .copied()
        .filter(|(name, ..)| names::starts_with_letter(name))
        .collect();
    // Which names some language already cannot write: reported once, for
    // the first.
    let mut unwritable = vec![false; names.len()];
    for naming in namings {
        let mut seen: HashMap<String, (&str, Span)> = HashMap::new();
        for (i, &(name, kind, span, def)) in names.iter().enumerate() {
            // As the backend writes them, renamed where taken.
            let converted = match (owner, def) {
                (Some(o), _) => naming.member(kind, name, o),
                (None, Some(def)) => naming.type_name(def),
                (None, None) => (naming.convert)(kind, name),
            };
            if naming.is_unescapable(&converted) {
                if !unwritable[i] {
                    unwritable[i] = true;
                    diags.push(
                        Diagnostic::error(
                            format!("`{name}` cannot be used as a name"),
                            span,
                            format!(
                                "`{converted}` is a keyword in {} that cannot be escaped",
                                naming.language
                            ),
                        )
                        .with_help("choose another name"),
                    );
                }
                continue;
            }
            match seen.get(&converted) {
                Some(&(first, first_span)) => {
                    let within = match owner {
                        Some(o) => format!(" in {} `{}`", o.kind.keyword(), o.name),
                        None => format!(" in one {scope}"),
                    };
                    let mut d = Diagnostic::error(
                        format!(
                            "`{first}` and `{name}` both become `{converted}` in {}{within}",
                            naming.language
                        ),
                        span,
                        format!("becomes `{converted}`"),
                    )
                    .with_label(first_span, format!("also becomes `{converted}`"));
                    // Say why, when one of them is renamed around a
                    // generated member or a reserved type name.
                    let renamed = [first, name]
                        .into_iter()
                        .find(|n| (naming.convert)(kind, n) != converted);
                    if let Some(renamed) = renamed {
                        let taken = (naming.convert)(kind, renamed);
                        let by = match owner {
                            Some(o) if naming.type_name(o) == taken => "the type's own name",
                            Some(_) => "a generated member",
                            None => "a name reserved for types",
                        };
                        d = d.with_note(format!(
                            "{} renames `{renamed}` to `{converted}`: `{taken}` is {by} there",
                            naming.language
                        ));
                    }
                    diags.push(d.with_help(
                        "rename one of them so they differ in more than case or underscores",
                    ));
                }
                None => {
                    seen.insert(converted, (name, span));
                }
            }
        }
    }
}

/// Reports a name that case conversion would turn into a number or nothing.
/// The longest name a schema may declare. C# refuses an identifier of more
/// than 512 characters (CS0645), and generated code adds to names (C#
/// writes `<Enum>_KeyOrd`; a 505-character enum name failed); 255 leaves
/// room for every such affix in every language.
pub(crate) const MAX_NAME_LEN: usize = 255;

/// An error for every declared name (namespace segment, type, constant,
/// field, variant, enum value) longer than [`MAX_NAME_LEN`].
fn long_names(ir: &Ir, diags: &mut Vec<Diagnostic>) {
    let mut check = |name: &str, what: &str, span: Option<Span>| {
        let (Some(span), true) = (span, name.len() > MAX_NAME_LEN) else {
            return;
        };
        let start: String = name.chars().take(16).collect();
        diags.push(
            Diagnostic::error(
                format!(
                    "{what} `{start}…` is {} characters long, more than {MAX_NAME_LEN}",
                    name.len()
                ),
                span,
                format!("longer than {MAX_NAME_LEN} characters"),
            )
            .with_note(
                "C# refuses identifiers of more than 512 characters, and generated code \
                 adds prefixes and suffixes to names",
            )
            .with_help(format!(
                "shorten the name to at most {MAX_NAME_LEN} characters"
            )),
        );
    };
    for file in &ir.files {
        for seg in &file.namespace {
            check(seg, "namespace segment", file.namespace_span);
        }
        for c in &file.consts {
            check(&c.name, "constant", Some(c.span));
        }
    }
    for def in &ir.types {
        check(&def.name, def.kind.keyword(), Some(def.span));
        match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                for f in fields {
                    check(&f.name, "field", Some(f.span));
                }
            }
            TypeKind::Union { variants, .. } => {
                for v in variants {
                    check(&v.name, "variant", Some(v.span));
                }
            }
            TypeKind::Enum { values, .. } => {
                for v in values {
                    check(&v.name, "enum value", Some(v.span));
                }
            }
        }
    }
}

fn letter_first(name: &str, what: &str, span: Option<Span>, diags: &mut Vec<Diagnostic>) {
    if names::starts_with_letter(name) {
        return;
    }
    let Some(span) = span else {
        return;
    };
    diags.push(
        Diagnostic::error(
            format!("{what} `{name}` does not start with a letter"),
            span,
            "needs a letter first (after any leading underscores)",
        )
        .with_note(
            "generated code converts names to snake_case or PascalCase, which drops underscores: \
             `_1` would become `1`, `_` nothing at all",
        )
        .with_help("start the name with a letter, e.g. `item_1` instead of `_1`"),
    );
}

/// A field, union variant or enum value named like a member a backend
/// generates in its scope is renamed by that backend ([`Naming::member`]);
/// the renamed name must be free in turn. One diagnostic per name, for the
/// first backend that cannot write it.
fn members(
    namings: &[&Naming],
    def: &TypeDef,
    name: &str,
    kind: NameKind,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) {
    for naming in namings {
        let converted = (naming.convert)(kind, name);
        // `Unknown` has a check of its own.
        if converted == names::UNKNOWN || !naming.is_taken(&converted, def) {
            continue;
        }
        let renamed = naming.member(kind, name, def);
        if naming.is_taken(&renamed, def) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "`{name}` cannot be written in {}: `{converted}` and `{renamed}` are both generated members",
                        naming.language
                    ),
                    span,
                    format!("becomes `{converted}`, renamed `{renamed}`"),
                )
                .with_note(format!(
                    "{} renames a name taken by a generated member by appending `{}`",
                    naming.language, naming.rename_suffix
                ))
                .with_help("rename it"),
            );
            return;
        }
    }
}

/// A type renamed around a reserved name must be free once renamed, and the
/// runtime's namespace must stay unambiguous from generated code.
fn type_names(namings: &[&Naming], ir: &Ir, diags: &mut Vec<Diagnostic>) {
    for def in &ir.types {
        for naming in namings {
            type_name(naming, ir, def, diags);
        }
    }
    for file in &ir.files {
        let Some(first) = file.namespace.first() else {
            continue;
        };
        for naming in namings {
            let span = file.namespace_span.unwrap_or_default();
            let converted = (naming.convert)(NameKind::Type, first);
            if let Some(platform) = naming.platform_namespaces.iter().find(|p| **p == converted) {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "namespace `{}` is inside the {} platform namespace `{platform}`",
                            file.namespace.join("."),
                            naming.language
                        ),
                        span,
                        format!("becomes `{platform}` in {}", naming.language),
                    )
                    .with_note(format!(
                        "generated code names the platform's types by their full path (`global::{platform}.…`), which a schema type there would take over"
                    ))
                    .with_help("choose another first namespace segment"),
                );
            }
            let Some(runtime) = naming.runtime_namespace else {
                continue;
            };
            if converted != runtime {
                continue;
            }
            let examples: Vec<String> = naming
                .runtime_types
                .iter()
                .map(|t| format!("`{runtime}.{t}`"))
                .collect();
            diags.push(
                Diagnostic::error(
                    format!(
                        "namespace `{}` is inside the {} runtime namespace `{runtime}`",
                        file.namespace.join("."),
                        naming.language
                    ),
                    span,
                    format!("becomes `{runtime}` in {}", naming.language),
                )
                .with_note(format!(
                    "the runtime support types ({}, …) live there",
                    examples.join(", ")
                ))
                .with_help("choose another first namespace segment"),
            );
        }
    }
}

fn type_name(naming: &Naming, ir: &Ir, def: &TypeDef, diags: &mut Vec<Diagnostic>) {
    let converted = (naming.convert)(NameKind::Type, &def.name);
    if ir.namespace_of(def).is_empty() {
        // Outside a namespace, any type (an enum too) takes the name from
        // the namespace generated code names by its full path.
        let hidden = naming
            .runtime_namespace
            .iter()
            .map(|r| (*r, "runtime"))
            .chain(naming.platform_namespaces.iter().map(|p| (*p, "platform")))
            .find(|(ns, _)| *ns == converted);
        if let Some((ns, what)) = hidden {
            diags.push(
                Diagnostic::error(
                    format!(
                        "a type named `{}` outside a namespace hides the {} {what} namespace `{ns}`",
                        def.name, naming.language
                    ),
                    def.span,
                    "reserved type name",
                )
                .with_help("declare a `namespace`, or choose another name"),
            );
        }
        if let Some((_, why)) = naming
            .reserved_global_types
            .iter()
            .find(|(name, _)| *name == converted)
        {
            diags.push(
                Diagnostic::error(
                    format!(
                        "a type named `{}` outside a namespace cannot be generated in {}",
                        def.name, naming.language
                    ),
                    def.span,
                    "reserved type name",
                )
                .with_note(*why)
                .with_help("declare a `namespace`, or choose another name"),
            );
        }
    }
    // A type named like a name reserved for types is renamed
    // ([`Naming::type_name`]); the renamed name must be free in turn.
    let renamed = naming.type_name(def);
    if renamed != converted && naming.is_type_taken(&renamed, def) {
        diags.push(
            Diagnostic::error(
                format!(
                    "{} `{}` cannot be written in {}: `{converted}` and `{renamed}` are both reserved",
                    def.kind.keyword(),
                    def.name,
                    naming.language
                ),
                def.span,
                format!("becomes `{converted}`, renamed `{renamed}`"),
            )
            .with_note(format!(
                "{} renames a type named like a reserved name by appending `{}`",
                naming.language, naming.rename_suffix
            ))
            .with_help("choose another name"),
        );
    }
}

/// Where types and namespaces share names (C#), no type may have the
/// qualified name of a namespace of the compilation: `Net` in `game` and
/// `namespace game.net`, or a top-level `Runtime` and `namespace runtime.x`.
fn types_named_like_namespaces(namings: &[&Naming], ir: &Ir, diags: &mut Vec<Diagnostic>) {
    for naming in namings.iter().filter(|n| n.types_and_namespaces_clash) {
        let convert = |segs: &[String]| -> Vec<String> {
            segs.iter()
                .map(|s| (naming.convert)(NameKind::Type, s))
                .collect()
        };
        // Every namespace and every prefix of one, converted, with a file
        // that declares it.
        let mut namespaces: HashMap<Vec<String>, &FileIr> = HashMap::new();
        for file in &ir.files {
            let converted = convert(&file.namespace);
            for n in 1..=converted.len() {
                namespaces.entry(converted[..n].to_vec()).or_insert(file);
            }
        }
        for def in &ir.types {
            let mut qualified = convert(ir.namespace_of(def));
            qualified.push(naming.type_name(def));
            let Some(file) = namespaces.get(&qualified) else {
                continue;
            };
            diags.push(
                Diagnostic::error(
                    format!(
                        "{} `{}` has the name of the namespace `{}` in {}",
                        def.kind.keyword(),
                        def.name,
                        qualified.join("."),
                        naming.language
                    ),
                    def.span,
                    format!("`{}` is also a namespace", qualified.join(".")),
                )
                .with_label(
                    file.namespace_span.unwrap_or_default(),
                    format!("namespace `{}`", file.namespace.join(".")),
                )
                .with_help("rename the type, or the namespace"),
            );
        }
    }
}

/// The class holding a file's constants (C# puts them in `ChatConstants`
/// for `chat.pkt`) must not meet a type of the same name, nor another
/// file's.
fn constants_classes(namings: &[&Naming], ir: &Ir, diags: &mut Vec<Diagnostic>) {
    for naming in namings {
        if let Some(holder) = naming.consts_holder {
            constants_class(naming, holder, ir, diags);
        }
    }
}

fn constants_class(
    naming: &Naming,
    holder: fn(&str) -> String,
    ir: &Ir,
    diags: &mut Vec<Diagnostic>,
) {
    let stems = crate::emit::output::stems(ir, naming.reserved_stems);
    let mut classes: Vec<(&[String], String, Span)> = Vec::new();
    for (file, stem) in ir.files.iter().zip(&stems) {
        let Some(first) = file.consts.first() else {
            continue;
        };
        let class = holder(stem);
        for other in &ir.types {
            let same_namespace = ir.namespace_of(other) == file.namespace;
            if same_namespace && naming.type_name(other) == class {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "type `{}` has the name of the {} class holding the constants of {}",
                            other.name, naming.language, file.name
                        ),
                        other.span,
                        format!("`{class}` holds the constants"),
                    )
                    .with_help("rename the type, or the schema file"),
                );
            }
        }
        if let Some((_, _, at)) = classes
            .iter()
            .find(|(ns, c, _)| *ns == file.namespace.as_slice() && *c == class)
        {
            diags.push(
                Diagnostic::error(
                    format!(
                        "two files' constants both become the {} class `{class}`",
                        naming.language
                    ),
                    first.span,
                    format!("{} holds constants", file.name),
                )
                .with_label(*at, "so does this file")
                .with_help("rename one of the schema files"),
            );
        }
        classes.push((file.namespace.as_slice(), class, first.span));
    }
}

/// No schema type may take the name of a companion type a backend generates
/// beside another type of the same namespace (`ChatView` beside `Chat`).
fn companions(namings: &[&Naming], ir: &Ir, diags: &mut Vec<Diagnostic>) {
    for naming in namings {
        if naming.companions.is_empty() {
            continue;
        }
        // Every type by namespace and name as written: one pass, so that a
        // schema of many types is checked in linear time.
        let written: Vec<String> = ir.types.iter().map(|def| naming.type_name(def)).collect();
        let mut by_name: HashMap<(&[String], &str), Vec<&TypeDef>> = HashMap::new();
        for (def, name) in ir.types.iter().zip(&written) {
            let namespace = ir.namespace_of(def);
            by_name.entry((namespace, name)).or_default().push(def);
        }
        for owner in &ir.types {
            let namespace = ir.namespace_of(owner);
            for (companion, c) in naming.companions_of(owner) {
                let Some(others) = by_name.get(&(namespace, companion.as_str())) else {
                    continue;
                };
                for other in others {
                    diags.push(
                        Diagnostic::error(
                            format!(
                                "{} `{}` has the name of the {} type generated for {} `{}` in {}",
                                other.kind.keyword(),
                                other.name,
                                c.what,
                                owner.kind.keyword(),
                                owner.name,
                                naming.language
                            ),
                            other.span,
                            format!("becomes `{companion}`"),
                        )
                        .with_label(owner.span, format!("generates `{companion}`"))
                        .with_note(format!(
                            "for every {} `X`, the {} backend generates a {} type `X{}`",
                            c.of_what, naming.language, c.what, c.suffix
                        ))
                        .with_help(format!("rename `{}` or `{}`", other.name, owner.name)),
                    );
                }
            }
        }
    }
}
