//! Every name must survive conversion to every target language: no two names
//! may become the same identifier, and none may hit a keyword that cannot be
//! escaped or a member the backends generate.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Span};
use crate::ir::*;
use crate::names::{
    self, Lang, NameKind, CSHARP_GENERATED_MEMBERS, CSHARP_RUNTIME_NAMESPACE, CSHARP_UNION_MEMBERS,
    CSHARP_UNION_OWN_MEMBERS, RUST_GENERATED_MEMBERS, RUST_PRELUDE_TYPES,
};

/// A name as declared, what it denotes, and where.
type Name<'a> = (&'a str, NameKind, Span);

pub fn check(ir: &Ir) -> Vec<Diagnostic> {
    let mut diags = Vec::new();

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
            entry.1.push((&def.name, NameKind::Type, def.span));
        }
        for c in &file.consts {
            entry.1.push((&c.name, NameKind::Const, c.span));
        }
    }
    for (_, names) in &by_namespace {
        unique(names, "namespace", None, &mut diags);
    }
    for file in &ir.files {
        for seg in &file.namespace {
            letter_first(seg, "namespace segment", file.namespace_span, &mut diags);
        }
    }
    type_names(ir, &mut diags);
    constants_classes(ir, &mut diags);
    for def in &ir.types {
        let rust = names::convert(Lang::Rust, NameKind::Type, &def.name);
        if RUST_PRELUDE_TYPES.contains(&rust.as_str()) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "a type named `{}` would hide Rust's `{rust}` in generated code",
                        def.name
                    ),
                    def.span,
                    "reserved type name",
                )
                .with_help(format!(
                    "choose another name; reserved: {}",
                    RUST_PRELUDE_TYPES.join(", ")
                )),
            );
        }
    }

    for def in &ir.types {
        let owner = Some((def.name.as_str(), def.kind.keyword()));
        match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                let names: Vec<_> = fields
                    .iter()
                    .map(|f| (f.name.as_str(), NameKind::Field, f.span))
                    .collect();
                unique(&names, def.kind.keyword(), owner, &mut diags);
                for f in fields {
                    members(
                        def,
                        &f.name,
                        NameKind::Field,
                        f.span,
                        CSHARP_GENERATED_MEMBERS,
                        &mut diags,
                    );
                }
            }
            TypeKind::Union { variants, .. } => {
                let names: Vec<_> = variants
                    .iter()
                    .map(|v| (v.name.as_str(), NameKind::Variant, v.span))
                    .collect();
                unique(&names, "union", owner, &mut diags);
                let reserved: Vec<&str> = CSHARP_GENERATED_MEMBERS
                    .iter()
                    .chain(CSHARP_UNION_MEMBERS)
                    .copied()
                    .collect();
                for v in variants {
                    members(
                        def,
                        &v.name,
                        NameKind::Variant,
                        v.span,
                        &reserved,
                        &mut diags,
                    );
                }
            }
            TypeKind::Enum { values, .. } => {
                let names: Vec<_> = values
                    .iter()
                    .map(|v| (v.name.as_str(), NameKind::Variant, v.span))
                    .collect();
                unique(&names, "enum", owner, &mut diags);
            }
        }
    }
    diags
}

/// Reports names that become the same identifier in some language, and names
/// no language can write.
fn unique(names: &[Name], scope: &str, owner: Option<(&str, &str)>, diags: &mut Vec<Diagnostic>) {
    for &(name, kind, span) in names {
        let what = match (kind, owner) {
            (NameKind::Type, _) => "type name",
            (NameKind::Const, _) => "constant name",
            (NameKind::Field, _) => "field name",
            (NameKind::Variant, Some((_, "enum"))) => "enum value name",
            (NameKind::Variant, _) => "variant name",
        };
        letter_first(name, what, Some(span), diags);
    }
    let names: Vec<Name> = names
        .iter()
        .copied()
        .filter(|(name, ..)| names::starts_with_letter(name))
        .collect();
    for lang in Lang::ALL {
        let mut seen: HashMap<String, (&str, Span)> = HashMap::new();
        for &(name, kind, span) in &names {
            let converted = match owner {
                // As the C# backend writes fields and union variants.
                Some((o, k)) if lang == Lang::CSharp && k != "enum" => {
                    names::csharp_member(kind, name, o)
                }
                _ => names::convert(lang, kind, name),
            };
            if names::is_unescapable(lang, &converted) {
                // Reported once, for the first language that cannot write it.
                if lang == Lang::Rust {
                    diags.push(
                        Diagnostic::error(
                            format!("`{name}` cannot be used as a name"),
                            span,
                            format!(
                                "`{converted}` is a keyword in {} that cannot be escaped",
                                lang.display()
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
                        Some((o, k)) => format!(" in {k} `{o}`"),
                        None => format!(" in one {scope}"),
                    };
                    diags.push(
                        Diagnostic::error(
                            format!(
                                "`{first}` and `{name}` both become `{converted}` in {}{within}",
                                lang.display()
                            ),
                            span,
                            format!("becomes `{converted}`"),
                        )
                        .with_label(first_span, format!("also becomes `{converted}`"))
                        .with_help(
                            "rename one of them so they differ in more than case or underscores",
                        ),
                    );
                }
                None => {
                    seen.insert(converted, (name, span));
                }
            }
        }
    }
}

/// Reports a name that case conversion would turn into a number or nothing.
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

/// C# members may not share the name of a member the backend generates. (A
/// member named like its enclosing type is renamed by the backend instead,
/// see [`names::csharp_member`].)
fn members(
    def: &TypeDef,
    name: &str,
    kind: NameKind,
    span: Span,
    reserved: &[&str],
    diags: &mut Vec<Diagnostic>,
) {
    let cs = names::csharp_member(kind, name, &def.name);
    let rust = names::convert(Lang::Rust, kind, name);
    // `Unknown` has a check of its own.
    let rust_reserved = rust != names::UNKNOWN && RUST_GENERATED_MEMBERS.contains(&rust.as_str());
    if !reserved.contains(&cs.as_str()) && rust_reserved {
        diags.push(
            Diagnostic::error(
                format!("`{name}` collides with the generated member `{rust}` in Rust"),
                span,
                format!("becomes `{rust}`"),
            )
            .with_note(format!(
                "generated Rust types have the members {}",
                RUST_GENERATED_MEMBERS.join(", ")
            ))
            .with_help("rename it"),
        );
    } else if reserved.contains(&cs.as_str()) {
        diags.push(
            Diagnostic::error(
                format!("`{name}` collides with the generated member `{cs}` in C#"),
                span,
                format!("becomes `{cs}`"),
            )
            .with_note(format!(
                "generated C# types have the members {}",
                reserved.join(", ")
            ))
            .with_help("rename it"),
        );
    }
}

/// A C# type may not be named like a member it declares, and the runtime's
/// namespace `Pkt` must stay unambiguous from generated code.
fn type_names(ir: &Ir, diags: &mut Vec<Diagnostic>) {
    for def in &ir.types {
        let cs = names::convert(Lang::CSharp, NameKind::Type, &def.name);
        let own: &[&str] = match def.kind {
            TypeKind::Union { .. } => CSHARP_UNION_OWN_MEMBERS,
            TypeKind::Enum { .. } => continue,
            _ => &[],
        };
        if CSHARP_GENERATED_MEMBERS.contains(&cs.as_str()) || own.contains(&cs.as_str()) {
            let mut reserved: Vec<&str> = CSHARP_GENERATED_MEMBERS.to_vec();
            reserved.extend(own);
            diags.push(
                Diagnostic::error(
                    format!(
                        "{} `{}` would have a generated member of its own name in C#",
                        def.kind.keyword(),
                        def.name
                    ),
                    def.span,
                    "reserved: generated C# types have a member of this name",
                )
                .with_note(format!(
                    "C# does not allow a member named like its enclosing type; reserved type names: {}",
                    reserved.join(", ")
                ))
                .with_help("choose another name"),
            );
        }
        let file = &ir.files[def.file];
        if file.namespace.is_empty() && cs == CSHARP_RUNTIME_NAMESPACE {
            diags.push(
                Diagnostic::error(
                    format!(
                        "a type named `{}` outside a namespace hides the C# runtime namespace `{CSHARP_RUNTIME_NAMESPACE}`",
                        def.name
                    ),
                    def.span,
                    "reserved type name",
                )
                .with_help("declare a `namespace`, or choose another name"),
            );
        }
    }
    for file in &ir.files {
        let Some(first) = file.namespace.first() else {
            continue;
        };
        if names::convert(Lang::CSharp, NameKind::Type, first) == CSHARP_RUNTIME_NAMESPACE {
            let span = file.namespace_span.unwrap_or_default();
            diags.push(
                Diagnostic::error(
                    format!(
                        "namespace `{}` is inside the C# runtime namespace `{CSHARP_RUNTIME_NAMESPACE}`",
                        file.namespace.join(".")
                    ),
                    span,
                    format!("becomes `{CSHARP_RUNTIME_NAMESPACE}` in C#"),
                )
                .with_note("the runtime support types (`Pkt.PktReader`, `Pkt.PktWriter`, …) live there")
                .with_help("choose another first namespace segment"),
            );
        }
    }
}

/// The class holding a file's constants in C# must not meet a type of the
/// same name (`chat.pkt` declares `ChatConstants`).
fn constants_classes(ir: &Ir, diags: &mut Vec<Diagnostic>) {
    let stems = crate::emit::output::stems(ir, &[crate::emit::CSHARP_RUNTIME_STEM]);
    let mut classes: Vec<(&[String], String, Span)> = Vec::new();
    for (file, stem) in ir.files.iter().zip(&stems) {
        let Some(first) = file.consts.first() else {
            continue;
        };
        let class = crate::emit::csharp_consts_class(stem);
        for other in &ir.types {
            let same_namespace = ir.files[other.file].namespace == file.namespace;
            if same_namespace && names::convert(Lang::CSharp, NameKind::Type, &other.name) == class
            {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "type `{}` has the name of the C# class holding the constants of {}",
                            other.name, file.name
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
                    format!("two files' constants both become the C# class `{class}`"),
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
