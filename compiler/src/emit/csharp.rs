//! The C# backend.
//!
//! Every decision is made here: names, C# type strings, sizes, offsets,
//! default expressions and the statement fragments that encode and decode
//! each field (type expressions nest arbitrarily, so their code is built
//! recursively here rather than in templates). The templates in
//! `templates/csharp/` only lay the pieces out.

mod code;

use std::path::PathBuf;

use serde::Serialize;

use super::templates::Templates;
use super::{GenOptions, GeneratedFile};
use crate::ir::{EnumValue, Field, Ir, Prim, Type, TypeDef, TypeId, TypeKind, Value, Variant};
use crate::names::{self, Lang, NameKind};

use code::{Gen, ReadCx};

const RUNTIME: &str = include_str!("../../../templates/csharp/PktRuntime.cs");

/// Parsed once per process: code generation runs per schema set, and in
/// `build.rs` and the fuzzers many times.
fn templates() -> &'static Templates {
    static TEMPLATES: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    TEMPLATES.get_or_init(|| {
        Templates::new(&[
            ("file", include_str!("../../../templates/csharp/file.hbs")),
            (
                "consts",
                include_str!("../../../templates/csharp/consts.hbs"),
            ),
            ("enum", include_str!("../../../templates/csharp/enum.hbs")),
            (
                "struct",
                include_str!("../../../templates/csharp/struct.hbs"),
            ),
            (
                "message",
                include_str!("../../../templates/csharp/message.hbs"),
            ),
            ("union", include_str!("../../../templates/csharp/union.hbs")),
        ])
    })
}

pub fn generate(ir: &Ir, options: &GenOptions) -> Vec<GeneratedFile> {
    let t = templates();
    let gen = Gen::new(ir);
    let mut out = Vec::new();
    for (index, file) in ir.files.iter().enumerate() {
        let mut items = Vec::new();
        if !file.consts.is_empty() {
            items.push(t.render("consts", &consts_view(ir, index)));
        }
        for &id in &file.types {
            let def = ir.ty(id);
            let text = match &def.kind {
                TypeKind::Enum { base, values } => t.render("enum", &enum_view(def, *base, values)),
                TypeKind::Struct { fields } => {
                    t.render("struct", &struct_view(&gen, id, def, fields))
                }
                TypeKind::Message {
                    fields,
                    preserve_unknown,
                } => t.render(
                    "message",
                    &message_view(&gen, def, fields, *preserve_unknown),
                ),
                TypeKind::Union { tag, variants, .. } => {
                    t.render("union", &union_view(&gen, def, *tag, variants))
                }
            };
            items.push(text);
        }
        let namespace = namespace(&file.namespace);
        let indent = if namespace.is_some() { "    " } else { "" };
        let view = FileView {
            source: file.name.clone(),
            doc: file.doc.iter().map(|l| comment_line(l)).collect(),
            has_namespace: namespace.is_some(),
            namespace: namespace.unwrap_or_default(),
            items: items
                .iter()
                .map(|i| indent_text(i.trim_end(), indent))
                .collect(),
        };
        out.push(GeneratedFile {
            path: PathBuf::from(format!("{}.cs", file.stem())),
            contents: t.render("file", &view),
        });
    }
    if options.runtime {
        out.push(GeneratedFile {
            path: PathBuf::from("PktRuntime.cs"),
            contents: RUNTIME.to_string(),
        });
    }
    out
}

#[derive(Serialize)]
struct FileView {
    source: String,
    doc: Vec<String>,
    has_namespace: bool,
    namespace: String,
    /// Rendered types, already indented for their position in the file.
    items: Vec<String>,
}

/// `game.net` → `Game.Net`; `None` for the global namespace.
fn namespace(segments: &[String]) -> Option<String> {
    if segments.is_empty() {
        return None;
    }
    Some(
        segments
            .iter()
            .map(|s| names::ident(Lang::CSharp, NameKind::Type, s))
            .collect::<Vec<_>>()
            .join("."),
    )
}

fn indent_text(text: &str, indent: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{indent}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn comment_line(line: &str) -> String {
    if line.is_empty() {
        "//".to_string()
    } else {
        format!("// {line}")
    }
}

/// `/// <summary>` lines (without indentation), XML-escaped.
fn doc_lines(doc: &[String]) -> Vec<String> {
    if doc.is_empty() {
        return Vec::new();
    }
    let mut out = vec!["/// <summary>".to_string()];
    for l in doc {
        let e = l
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        out.push(if e.is_empty() {
            "///".to_string()
        } else {
            format!("/// {e}")
        });
    }
    out.push("/// </summary>".to_string());
    out
}

fn type_ident(name: &str) -> String {
    names::ident(Lang::CSharp, NameKind::Type, name)
}

/// The fully qualified C# name of a declared type.
fn qualified(ir: &Ir, def: &TypeDef) -> String {
    match namespace(&ir.files[def.file].namespace) {
        Some(ns) => format!("global::{ns}.{}", type_ident(&def.name)),
        None => format!("global::{}", type_ident(&def.name)),
    }
}

/// The C# keyword type of a scalar.
fn prim_cs(p: Prim) -> &'static str {
    match p {
        Prim::Bool => "bool",
        Prim::U8 => "byte",
        Prim::U16 => "ushort",
        Prim::U32 => "uint",
        Prim::U64 => "ulong",
        Prim::I8 => "sbyte",
        Prim::I16 => "short",
        Prim::I32 => "int",
        Prim::I64 => "long",
        Prim::F32 => "float",
        Prim::F64 => "double",
    }
}

/// An integer literal of the given type.
fn int_literal(p: Prim, v: i128) -> String {
    match p {
        Prim::U32 => format!("{v}U"),
        Prim::U64 => format!("{v}UL"),
        Prim::I64 => format!("{v}L"),
        _ => format!("{v}"),
    }
}

fn float_literal(p: Prim, v: f64) -> String {
    let (ty, suffix) = if p == Prim::F32 {
        ("float", "f")
    } else {
        ("double", "")
    };
    if v.is_nan() {
        return format!("{ty}.NaN");
    }
    if v.is_infinite() {
        return format!(
            "{ty}.{}",
            if v > 0.0 {
                "PositiveInfinity"
            } else {
                "NegativeInfinity"
            }
        );
    }
    let text = if p == Prim::F32 {
        format!("{:?}", v as f32)
    } else {
        format!("{v:?}")
    };
    format!("{text}{suffix}")
}

/// A C# regular string literal.
fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' || c == '\u{85}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c if (c as u32) > 0xFFFF => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04X}", unit));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

#[derive(Serialize)]
struct ConstsView {
    class: String,
    consts: Vec<ConstView>,
}

#[derive(Serialize)]
struct ConstView {
    doc: Vec<String>,
    ty: &'static str,
    name: String,
    value: String,
}

fn consts_view(ir: &Ir, file: usize) -> ConstsView {
    let f = &ir.files[file];
    ConstsView {
        class: format!("{}Constants", type_ident(f.stem())),
        consts: f
            .consts
            .iter()
            .map(|c| ConstView {
                doc: doc_lines(&c.doc),
                ty: prim_cs(c.ty),
                name: names::ident(Lang::CSharp, NameKind::Const, &c.name),
                value: int_literal(c.ty, c.value),
            })
            .collect(),
    }
}

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

#[derive(Serialize)]
struct EnumView {
    doc: Vec<String>,
    obsolete: bool,
    name: String,
    base: &'static str,
    values: Vec<EnumValueView>,
    /// The map-key order class for this enum.
    order_class: String,
}

#[derive(Serialize)]
struct EnumValueView {
    doc: Vec<String>,
    obsolete: bool,
    name: String,
    value: String,
}

fn enum_view(def: &TypeDef, base: Prim, values: &[EnumValue]) -> EnumView {
    let name = type_ident(&def.name);
    EnumView {
        doc: doc_lines(&def.doc),
        obsolete: def.deprecated,
        order_class: format!("{name}_KeyOrder"),
        name,
        base: prim_cs(base),
        values: values
            .iter()
            .map(|v| EnumValueView {
                doc: doc_lines(&v.doc),
                obsolete: v.deprecated,
                name: names::ident(Lang::CSharp, NameKind::Variant, &v.name),
                value: int_literal(base, v.value as i128),
            })
            .collect(),
    }
}

// ---------------------------------------------------------------------------
// Structs
// ---------------------------------------------------------------------------

#[derive(Serialize)]
struct StructView {
    doc: Vec<String>,
    obsolete: bool,
    name: String,
    size: u32,
    fields: Vec<FieldDecl>,
    /// Straight-line stores into a span of exactly `size` bytes named `s`.
    write: String,
    /// Loads from a span of exactly `size` bytes into a local `v`.
    read: String,
    /// Returns the first error of a span shorter than `size` (`Truncated`).
    truncated: String,
    /// The C# layout of the struct is its wire layout (see [`Gen::raw`]):
    /// on little-endian hosts it is copied with one `MemoryMarshal` call.
    raw: bool,
}

#[derive(Serialize)]
struct FieldDecl {
    doc: Vec<String>,
    obsolete: bool,
    ty: String,
    name: String,
    has_init: bool,
    init: String,
}

fn field_name(f: &Field) -> String {
    names::ident(Lang::CSharp, NameKind::Field, &f.name)
}

fn struct_view(gen: &Gen, id: TypeId, def: &TypeDef, fields: &[Field]) -> StructView {
    let size = def.layout.fixed_size().expect("structs are fixed-size");
    let mut write = code::Code::new(2);
    let mut read = code::Code::new(2);
    let mut truncated = code::Code::new(2);
    for f in fields {
        let name = field_name(f);
        let off = f.offset.expect("struct fields have offsets").to_string();
        gen.fixed_write(&mut write, &f.ty, &name, &off, 0);
        gen.fixed_read(&mut read, &f.ty, &format!("v.{name}"), &off, 0);
        gen.fixed_truncated(&mut truncated, &f.ty, &off, 0);
    }
    StructView {
        doc: doc_lines(&def.doc),
        obsolete: def.deprecated,
        name: type_ident(&def.name),
        size,
        fields: fields
            .iter()
            .map(|f| FieldDecl {
                doc: doc_lines(&f.doc),
                obsolete: f.deprecated,
                ty: gen.cs_type(&f.ty),
                name: field_name(f),
                has_init: false,
                init: String::new(),
            })
            .collect(),
        write: write.finish(),
        read: read.finish(),
        truncated: truncated.finish(),
        raw: gen.raw(id),
    }
}

// ---------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------

#[derive(Serialize)]
struct MessageView {
    doc: Vec<String>,
    obsolete: bool,
    name: String,
    /// The schema name as a C# string literal, for errors.
    schema_name: String,
    /// `Type.field` of every field as C# string literals, for errors.
    field_names: Vec<String>,
    preserve_unknown: bool,
    fields: Vec<FieldDecl>,
    /// Body of `GetEncodedSize`, leaving the size in `n`.
    size: String,
    /// Body of `WriteTo` between the length prefix and its backfill.
    write: String,
    /// Body of `ReadInto` between entering and leaving the message body.
    read: String,
}

/// The body of a `GetEncodedSize(int depth)`: the constant part, then the
/// variable part in a `checked` block (an overflow becomes the caller's
/// PktEncodeException).
fn size_body(level: usize, constant: u64, variable: code::Code) -> String {
    let mut c = code::Code::new(level);
    c.line(&format!("long n = {constant};"));
    let variable = variable.finish();
    if !variable.is_empty() {
        c.line("checked");
        c.open();
        c.raw(&variable);
        c.close();
    }
    c.finish()
}

fn message_view(gen: &Gen, def: &TypeDef, fields: &[Field], preserve_unknown: bool) -> MessageView {
    let mut size = code::Code::new(3);
    let mut write = code::Code::new(2);
    let mut read = code::Code::new(2);
    let mut constant: u64 = 4;
    let mut decls = Vec::new();
    let mut field_names = Vec::new();
    for (index, f) in fields.iter().enumerate() {
        let name = field_name(f);
        // Errors name the field as `Type.field`, as the Rust runtime does.
        let schema_name = format!("{}.{}", def.name, f.name);
        let max = f.max.map(|m| (m, schema_name.clone()));
        constant += gen.size(&mut size, &f.ty, &name, 0);
        gen.write(&mut write, &f.ty, &name, max.as_ref(), 0);
        field_names.push(string_literal(&schema_name));
        // Errors name the field through IPktNamed: no string in the hot path.
        let field = format!("this, {index}");
        read.line("if (more)");
        read.open();
        if let Some(m) = f.max {
            let optional = matches!(f.ty, Type::Optional(_));
            read.line(&format!("r.PeekMax({m}, {field}, {optional});"));
        }
        let cx = ReadCx {
            field: &field,
            fresh: "fresh",
            boxed: f.cyclic.then(|| gen.ir.boxed_memory(&f.ty)),
        };
        gen.read(&mut read, &f.ty, &name, true, &cx, 0);
        read.line("more = r.HasMore;");
        read.close();
        read.line("else");
        read.open();
        // A default string is charged as if materialised, as in Rust.
        if let Some(Value::String(s)) = &f.default {
            if !s.is_empty() {
                read.line(&format!("r.Charge({}, r.Position, {field});", s.len()));
            }
        }
        read.line("if (!fresh)");
        read.open();
        gen.reset(&mut read, &f.ty, &name, f.default.as_ref());
        read.close();
        read.close();
        let init = gen.default_expr(&f.ty, f.default.as_ref());
        decls.push(FieldDecl {
            doc: doc_lines(&f.doc),
            obsolete: f.deprecated,
            ty: gen.cs_type(&f.ty),
            name,
            has_init: init.is_some(),
            init: init.unwrap_or_default(),
        });
    }
    let schema_name = string_literal(&def.name);
    if preserve_unknown {
        size.line("n += UnknownFields == null ? 0 : UnknownFields.Length;");
        write.line("w.WriteRaw(UnknownFields);");
        read.line(
            "UnknownFields = more ? r.ReadRest(UnknownFields, this) : global::System.Array.Empty<byte>();",
        );
    }
    MessageView {
        doc: doc_lines(&def.doc),
        obsolete: def.deprecated,
        name: type_ident(&def.name),
        schema_name,
        field_names,
        preserve_unknown,
        fields: decls,
        size: size_body(2, constant, size),
        write: write.finish(),
        read: read.finish(),
    }
}

// ---------------------------------------------------------------------------
// Unions
// ---------------------------------------------------------------------------

#[derive(Serialize)]
struct UnionView {
    doc: Vec<String>,
    obsolete: bool,
    name: String,
    /// The schema name as a C# string literal, for errors.
    schema_name: String,
    tag_type: &'static str,
    tag_size: u32,
    /// `ReadU8` or `ReadU16`.
    read_tag: &'static str,
    /// `WriteU8` or `WriteU16`.
    write_tag: &'static str,
    variants: Vec<VariantView>,
}

#[derive(Serialize)]
struct VariantView {
    doc: Vec<String>,
    obsolete: bool,
    name: String,
    /// `Union.Variant` as a C# string literal, for errors.
    field_name: String,
    tag: u16,
    ty: String,
    has_init: bool,
    init: String,
    /// Body of `GetEncodedSize`, leaving the size in `n`.
    size: String,
    /// Writes `Value` after the tag.
    write: String,
    /// Decodes into `v.Value` (case body of the union's `ReadFrom`).
    read: String,
}

fn union_view(gen: &Gen, def: &TypeDef, tag: Prim, variants: &[Variant]) -> UnionView {
    let tag_size = u64::from(tag.size());
    let (read_tag, write_tag) = if tag == Prim::U8 {
        ("ReadU8", "WriteU8")
    } else {
        ("ReadU16", "WriteU16")
    };
    UnionView {
        doc: doc_lines(&def.doc),
        obsolete: def.deprecated,
        name: type_ident(&def.name),
        schema_name: string_literal(&def.name),
        tag_type: prim_cs(tag),
        tag_size: tag.size(),
        read_tag,
        write_tag,
        variants: variants
            .iter()
            .enumerate()
            .map(|(index, v)| {
                let mut size = code::Code::new(4);
                let constant = 4 + tag_size + gen.size(&mut size, &v.ty, "Value", 0);
                let mut write = code::Code::new(3);
                gen.write(&mut write, &v.ty, "Value", None, 0);
                let mut read = code::Code::new(4);
                let field_name = string_literal(&format!("{}.{}", def.name, v.name));
                let field = format!("v, {index}");
                let cx = ReadCx {
                    field: &field,
                    fresh: "false",
                    boxed: v.cyclic.then(|| gen.ir.boxed_memory(&v.ty)),
                };
                gen.read(&mut read, &v.ty, "v.Value", true, &cx, 0);
                let init = gen.default_expr(&v.ty, None);
                VariantView {
                    doc: doc_lines(&v.doc),
                    obsolete: v.deprecated,
                    name: names::ident(Lang::CSharp, NameKind::Variant, &v.name),
                    field_name,
                    tag: v.tag,
                    ty: gen.cs_type(&v.ty),
                    has_init: init.is_some(),
                    init: init.unwrap_or_default(),
                    size: size_body(3, constant, size),
                    write: write.finish(),
                    read: read.finish(),
                }
            })
            .collect(),
    }
}
