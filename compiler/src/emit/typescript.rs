//! The TypeScript backend: one ES module per schema file, and the runtime
//! (`runtime/typescript/src/index.ts`) copied beside them as
//! `pkt_runtime.ts`, or imported from the npm package `pkt-runtime`.
//!
//! Each struct, message and union `T` is a type (an interface; a
//! discriminated union for unions) and a companion object of the same name
//! holding its codec (`encode`, `decode`, ...). Enums are a const object of
//! their values and a numeric type that keeps unknown values. Every name,
//! type, size and decision is computed here (`code.rs` walks the type
//! expressions into statements, `memory.rs` states the decoded-size model
//! by name); the templates in `templates/typescript/` lay out the text.
//!
//! Names: fields are properties, which TypeScript lets be keywords, and
//! every global the generated code uses is written `globalThis.X`, other
//! files' types `$stem.X` and the runtime `$pkt.X`, so no schema name can
//! hide one: the backend reserves nothing a schema could spell.

mod code;
mod delta;
mod memory;

use std::path::PathBuf;

use serde::Serialize;

use super::output;
use super::templates::Templates;
use super::{Backend, GenOptions, GeneratedFile, OutputFile};
use crate::ir::{FileIndex, Ir, Prim, TypeDef, TypeId, TypeKind};
use crate::names::{self, NameKind, Naming};

use code::Gen;

const RUNTIME: &str = include_str!("../../../runtime/typescript/src/index.ts");

/// The runtime file's name, without `.ts`.
pub const RUNTIME_STEM: &str = "pkt_runtime";

/// The npm package the modules import when the runtime is not written.
pub const RUNTIME_PACKAGE: &str = "pkt-runtime";

/// The runtime source with pktc's header first, so that `gen --no-runtime`
/// removes a copy an earlier run wrote.
pub fn runtime_file() -> String {
    format!("{}\n{RUNTIME}", output::header(None))
}

fn templates() -> &'static Templates {
    static TEMPLATES: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    TEMPLATES.get_or_init(|| {
        Templates::new(&[
            (
                "file",
                include_str!("../../../templates/typescript/file.hbs"),
            ),
            (
                "enum",
                include_str!("../../../templates/typescript/enum.hbs"),
            ),
            (
                "record",
                include_str!("../../../templates/typescript/record.hbs"),
            ),
            (
                "union",
                include_str!("../../../templates/typescript/union.hbs"),
            ),
        ])
    })
}

/// The TypeScript backend (see [`Backend`]).
pub(crate) struct TypeScriptBackend;

pub(crate) struct Shared<'ir> {
    gen: Gen<'ir>,
    runtime: bool,
}

impl Backend for TypeScriptBackend {
    type Cx<'ir> = Shared<'ir>;

    fn naming(&self) -> &Naming {
        &NAMING
    }

    fn extension(&self) -> &str {
        "ts"
    }

    fn context<'ir>(&self, ir: &'ir Ir, options: &GenOptions) -> Shared<'ir> {
        Shared {
            gen: Gen::new(ir),
            runtime: options.runtime,
        }
    }

    fn render_type(
        &self,
        cx: &Shared<'_>,
        _: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        id: TypeId,
    ) -> String {
        let t = templates();
        let gen = cx.gen.in_file(file.index);
        let def = gen.ir.ty(id);
        match &def.kind {
            TypeKind::Enum { base, values } => t.render("enum", &gen.enum_view(def, *base, values)),
            TypeKind::Struct { fields } => t.render("record", &gen.struct_view(id, fields)),
            TypeKind::Message {
                fields,
                preserve_unknown,
            } => t.render("record", &gen.message_view(id, fields, *preserve_unknown)),
            TypeKind::Union { tag, variants, .. } => {
                t.render("union", &gen.union_view(id, *tag, variants))
            }
        }
    }

    fn render_file(
        &self,
        cx: &Shared<'_>,
        files: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        items: Vec<String>,
    ) -> String {
        let ir = cx.gen.ir;
        let imports = imported_files(ir, file.index)
            .into_iter()
            .map(|i| ImportView {
                alias: module_alias(files, i),
                path: format!("./{}.js", files[i.0].stem),
            })
            .collect();
        let view = FileView {
            uses_runtime: items.iter().any(|i| i.contains("$pkt.")),
            source: file.source.clone(),
            doc: file.file.doc.iter().map(|l| comment_line(l)).collect(),
            runtime: if cx.runtime {
                format!("./{RUNTIME_STEM}.js")
            } else {
                RUNTIME_PACKAGE.to_string()
            },
            imports,
            consts: file
                .file
                .consts
                .iter()
                .map(|c| ConstView {
                    doc: doc_lines(&c.doc),
                    name: names::ident(crate::names::Lang::TypeScript, NameKind::Const, &c.name),
                    ty: prim_type(c.ty),
                    value: int_literal(c.ty, c.value),
                })
                .collect(),
            items: items.iter().map(|i| i.trim_end().to_string()).collect(),
        };
        templates().render("file", &view)
    }

    fn extra_files(&self, cx: &Shared<'_>, _: &[OutputFile<'_>]) -> Vec<GeneratedFile> {
        if !cx.runtime {
            return Vec::new();
        }
        vec![GeneratedFile {
            path: PathBuf::from(format!("{RUNTIME_STEM}.ts")),
            contents: runtime_file(),
        }]
    }
}

/// How the TypeScript backend writes names. Types are `UpperCamel` and
/// constants `SHOUTY_SNAKE`, which no keyword is; fields and enum values
/// are properties (`lowerCamel`, `UpperCamel`), which may be keywords; a
/// union's variants are string values. Generated code names globals through
/// `globalThis`, the runtime through `$pkt` and other files' modules through
/// `$<stem>`, which no schema name can spell, so nothing is reserved and no
/// member is renamed.
pub const NAMING: Naming = Naming {
    language: "TypeScript",
    convert: convert_name,
    keywords: &[],
    escape: "",
    unescapable: &[],
    members: &[],
    inherited_members: &[],
    variant_members: &[],
    enum_members: &[],
    // Never appended: no name is taken beside fields, variants or values.
    rename_suffix: "_",
    companions: &[],
    type_named_like_member_forbidden: false,
    union_own_members: &[],
    prelude: &[],
    runtime_namespace: None,
    runtime_types: &[],
    platform_namespaces: &[],
    reserved_global_types: &[],
    types_and_namespaces_clash: false,
    consts_holder: None,
    reserved_stems: &[RUNTIME_STEM],
    namespace_hides_type: None,
};

fn convert_name(kind: NameKind, name: &str) -> String {
    match kind {
        NameKind::Type | NameKind::Variant => names::upper_camel(name),
        NameKind::Field => lower_camel(name),
        NameKind::Const => names::shouty_snake(name),
    }
}

/// `lowerCamel`, with `_` before a leading digit.
fn lower_camel(name: &str) -> String {
    let upper = names::upper_camel(name);
    let mut chars = upper.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => upper,
    }
}

/// The files whose types `file`'s types name, in file order.
fn imported_files(ir: &Ir, file: FileIndex) -> Vec<FileIndex> {
    let mut used = vec![false; ir.files.len()];
    for &id in &ir.file(file).types {
        let def = ir.ty(id);
        let mut held = Vec::new();
        match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                for f in fields {
                    f.ty.named_parts(&mut held);
                }
            }
            TypeKind::Union { variants, .. } => {
                for v in variants {
                    v.ty.named_parts(&mut held);
                }
            }
            TypeKind::Enum { .. } => {}
        }
        for h in held {
            let other = ir.ty(h).file;
            if other != file {
                used[other.0] = true;
            }
        }
    }
    (0..ir.files.len())
        .filter(|&i| used[i])
        .map(FileIndex)
        .collect()
}

/// The name a module imports another file's module under: `$` and its
/// stem, which no schema name can take (see [`NAMING`]).
pub(crate) fn module_alias(files: &[OutputFile<'_>], file: FileIndex) -> String {
    alias_of_stem(&files[file.0].stem)
}

pub(crate) fn alias_of_stem(stem: &str) -> String {
    let ident: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("${ident}")
}

#[derive(Serialize)]
struct FileView {
    /// Whether the module imports the runtime (not for enums alone).
    uses_runtime: bool,
    source: String,
    doc: Vec<String>,
    runtime: String,
    imports: Vec<ImportView>,
    consts: Vec<ConstView>,
    items: Vec<String>,
}

#[derive(Serialize)]
struct ImportView {
    alias: String,
    path: String,
}

#[derive(Serialize)]
struct ConstView {
    doc: Vec<String>,
    name: String,
    ty: &'static str,
    value: String,
}

fn comment_line(line: &str) -> String {
    if line.is_empty() {
        "//".to_string()
    } else {
        format!("// {}", crate::text::escaped(line))
    }
}

/// JSDoc lines (without indentation) of a doc comment and a deprecation,
/// each [`crate::text::escaped`] and with no `*/` to end the comment.
pub(crate) fn doc_lines_deprecated(
    doc: &[String],
    deprecated: bool,
    note: &Option<String>,
) -> Vec<String> {
    let text = |l: &str| crate::text::escaped(l).replace("*/", "*\\/");
    let mut body: Vec<String> = doc.iter().map(|l| text(l)).collect();
    if deprecated {
        body.push(match note {
            Some(n) => format!("@deprecated {}", text(n)),
            None => "@deprecated".to_string(),
        });
    }
    if body.is_empty() {
        return Vec::new();
    }
    let mut out = vec!["/**".to_string()];
    out.extend(body.into_iter().map(|l| {
        if l.is_empty() {
            " *".to_string()
        } else {
            format!(" * {l}")
        }
    }));
    out.push(" */".to_string());
    out
}

fn doc_lines(doc: &[String]) -> Vec<String> {
    doc_lines_deprecated(doc, false, &None)
}

/// The TypeScript type of a scalar: 64-bit integers are `bigint`.
pub(crate) fn prim_type(p: Prim) -> &'static str {
    match p {
        Prim::Bool => "boolean",
        Prim::U64 | Prim::I64 => "bigint",
        _ => "number",
    }
}

/// An integer literal of the given type.
pub(crate) fn int_literal(p: Prim, v: i128) -> String {
    match p {
        Prim::U64 | Prim::I64 => format!("{v}n"),
        _ => format!("{v}"),
    }
}

/// The type's name as written in its own file.
pub(crate) fn type_ident(def: &TypeDef) -> String {
    names::type_ident(crate::names::Lang::TypeScript, def)
}

/// A TypeScript string literal.
pub(crate) fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if crate::text::must_escape(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
