//! Every name must survive conversion to every target language: no two names
//! may become the same identifier, and none may hit a keyword that cannot be
//! escaped or a member the backends generate.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Span};
use crate::ir::*;
use crate::names::{
    self, Lang, NameKind, CSHARP_GENERATED_MEMBERS, CSHARP_UNION_MEMBERS, RUST_PRELUDE_TYPES,
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
                for v in values {
                    members(def, &v.name, NameKind::Variant, v.span, &[], &mut diags);
                }
            }
        }
    }
    diags
}

/// Reports names that become the same identifier in some language, and names
/// no language can write.
fn unique(names: &[Name], scope: &str, owner: Option<(&str, &str)>, diags: &mut Vec<Diagnostic>) {
    for lang in Lang::ALL {
        let mut seen: HashMap<String, (&str, Span)> = HashMap::new();
        for &(name, kind, span) in names {
            let converted = names::convert(lang, kind, name);
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

/// C# members may not share the name of their enclosing type or of a member
/// the backend generates.
fn members(
    def: &TypeDef,
    name: &str,
    kind: NameKind,
    span: Span,
    reserved: &[&str],
    diags: &mut Vec<Diagnostic>,
) {
    let cs = names::convert(Lang::CSharp, kind, name);
    let owner = names::convert(Lang::CSharp, NameKind::Type, &def.name);
    if cs == owner {
        diags.push(
            Diagnostic::error(
                format!(
                    "`{name}` has the name of its {} `{}` in C#",
                    def.kind.keyword(),
                    def.name
                ),
                span,
                format!("becomes `{cs}`"),
            )
            .with_help("C# does not allow a member named like its enclosing type; rename it"),
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
