//! The Rust backend: one `<stem>.rs` per schema file and a `mod.rs` that
//! declares one module per namespace and includes the files into it.
//!
//! Generated code implements `::pkt_runtime::{Encode, Decode, FixedSize}`;
//! fields are encoded through those traits, so one template line serves every
//! field type and the runtime's bulk paths apply to lists of fixed-size data.
//!
//! This module holds the backend, the naming and what every kind of type
//! shares (type paths, defaults, derives, serde attributes); the view model
//! of each kind is built in its own module: `structs` (fixed-size structs),
//! `messages` (messages and variable-size structs), `enums`, `unions`, and
//! `view` (the borrowed views of the last three). `analysis` holds the
//! analyses of the whole `Ir` made once per generation, `max` the `@max`
//! markers, and `layout` the line breaking (see there).

use serde::Serialize;

use super::templates::Templates;
use super::{Backend, GenOptions, GeneratedFile, OutputFile};
use crate::ir::*;
use crate::names::{self, Companion, Lang, NameKind, Naming};
use crate::wire;

mod analysis;
mod delta;
mod enums;
mod layout;
mod max;
mod messages;
mod quantize;
mod structs;
mod unions;
mod view;

use analysis::*;
use max::Marker;
use messages::*;
use structs::*;
use unions::*;

/// Parsed once per process: code generation runs per schema set, and in
/// `build.rs` and the fuzzers many times.
fn templates() -> &'static Templates {
    static TEMPLATES: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    TEMPLATES.get_or_init(|| {
        Templates::new(&[
            ("file", include_str!("../../../templates/rust/file.rs.hbs")),
            ("mod", include_str!("../../../templates/rust/mod.rs.hbs")),
            (
                "struct",
                include_str!("../../../templates/rust/struct.rs.hbs"),
            ),
            (
                "message",
                include_str!("../../../templates/rust/message.rs.hbs"),
            ),
            (
                "var_struct",
                include_str!("../../../templates/rust/var_struct.rs.hbs"),
            ),
            ("enum", include_str!("../../../templates/rust/enum.rs.hbs")),
            (
                "delta",
                include_str!("../../../templates/rust/delta.rs.hbs"),
            ),
            (
                "union",
                include_str!("../../../templates/rust/union.rs.hbs"),
            ),
            (
                "memory",
                include_str!("../../../templates/rust/memory.rs.hbs"),
            ),
            (
                "view/common",
                include_str!("../../../templates/rust/view/common.rs.hbs"),
            ),
            (
                "view/struct_decl",
                include_str!("../../../templates/rust/view/struct_decl.rs.hbs"),
            ),
            (
                "view/message",
                include_str!("../../../templates/rust/view/message.rs.hbs"),
            ),
            (
                "view/struct",
                include_str!("../../../templates/rust/view/struct.rs.hbs"),
            ),
            (
                "view/union",
                include_str!("../../../templates/rust/view/union.rs.hbs"),
            ),
        ])
    })
}

/// The Rust backend (see [`Backend`]).
pub(crate) struct RustBackend;

/// What the view models of every file share, computed once per run.
pub(crate) struct Shared<'ir> {
    ir: &'ir Ir,
    serde: bool,
    boxed: std::collections::BTreeSet<TypeId>,
    deferred: std::collections::BTreeSet<(TypeId, usize)>,
    checked_structs: std::collections::BTreeSet<TypeId>,
    plain: Vec<bool>,
    total: Vec<bool>,
    fixed_sizes: Vec<u64>,
    models: super::model::Models,
}

impl<'ir> Shared<'ir> {
    fn cx(&self, file: &'ir FileIr) -> Cx<'_> {
        Cx {
            ir: self.ir,
            namespace: &file.namespace,
            serde: self.serde,
            boxed: &self.boxed,
            deferred: &self.deferred,
            checked_structs: &self.checked_structs,
            plain: &self.plain,
            total: &self.total,
            fixed_sizes: &self.fixed_sizes,
            models: &self.models,
        }
    }
}

impl Backend for RustBackend {
    type Cx<'ir> = Shared<'ir>;

    fn naming(&self) -> &Naming {
        &NAMING
    }

    fn extension(&self) -> &str {
        "rs"
    }

    fn context<'ir>(&self, ir: &'ir Ir, options: &GenOptions) -> Shared<'ir> {
        Shared {
            ir,
            serde: options.serde,
            boxed: boxed_types(ir),
            deferred: deferred_patches(ir),
            checked_structs: checked_structs(ir),
            plain: plain_structs(ir),
            total: total_structs(ir),
            fixed_sizes: fixed_sizes(ir),
            models: super::model::analyze(ir),
        }
    }

    fn render_type(
        &self,
        cx: &Shared<'_>,
        _: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        id: TypeId,
    ) -> String {
        cx.cx(file.file).render_type(templates(), id)
    }

    fn render_file(
        &self,
        _: &Shared<'_>,
        _: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        items: Vec<String>,
    ) -> String {
        let consts = file
            .file
            .consts
            .iter()
            .map(|c| ConstView {
                doc: doc_lines(&c.doc),
                name: names::ident(Lang::Rust, NameKind::Const, &c.name),
                ty: c.ty.name().to_string(),
                value: int_literal(c.ty, c.value),
            })
            .collect();
        let view = FileView {
            source: layout::plain(&file.source),
            consts,
            items,
        };
        tidy(&layout::lay_out(&templates().render("file", &view)))
    }

    /// `mod.rs`: the module tree including every file.
    fn extra_files(&self, cx: &Shared<'_>, files: &[OutputFile<'_>]) -> Vec<GeneratedFile> {
        let names: Vec<String> = files
            .iter()
            .map(|f| f.path.to_string_lossy().into_owned())
            .collect();
        vec![GeneratedFile {
            path: "mod.rs".into(),
            contents: tidy(&templates().render("mod", &module_tree(cx.ir, &names))),
        }]
    }
}

/// How the Rust backend writes names, and the names it reserves.
pub const NAMING: Naming = Naming {
    language: "Rust",
    convert: convert_name,
    keywords: KEYWORDS,
    escape: "r#",
    unescapable: &["self", "Self", "super", "crate", "_"],
    members: GENERATED_MEMBERS,
    inherited_members: &[],
    variant_members: &[],
    enum_members: &[names::UNKNOWN],
    // `unknown_fields_`: heck drops a trailing underscore, so no schema
    // name converts to a renamed one.
    rename_suffix: "_",
    companions: &[Companion {
        suffix: view::VIEW_SUFFIX,
        what: "borrowed view",
        of_what: "message, union and variable-size struct",
        applies: has_view,
    }],
    type_named_like_member_forbidden: false,
    union_own_members: &[],
    prelude: PRELUDE_TYPES,
    runtime_namespace: None,
    runtime_types: &[],
    platform_namespaces: &[],
    reserved_global_types: &[],
    types_and_namespaces_clash: false,
    consts_holder: None,
    reserved_stems: &["mod"],
    namespace_hides_type: None,
};

fn convert_name(kind: NameKind, name: &str) -> String {
    match kind {
        NameKind::Type | NameKind::Variant => names::upper_camel(name),
        NameKind::Field => names::snake(name),
        NameKind::Const => names::shouty_snake(name),
    }
}

/// Messages, unions and variable-size structs get a borrowed view type
/// (`ChatView`) and the associated functions `view`, `view_prefix`,
/// `view_each` and `for_each_view`.
fn has_view(def: &TypeDef) -> bool {
    match def.kind {
        TypeKind::Message { .. } | TypeKind::Union { .. } => true,
        TypeKind::Struct { .. } => !def.layout.is_fixed(),
        TypeKind::Enum { .. } => false,
    }
}

/// Fields and variants the Rust backend generates besides the schema's own:
/// the `unknown_fields` of `@preserve_unknown` messages (and their views),
/// and the `Unknown` variant of unions. Generated methods (`view`,
/// `to_owned`, `from_raw`, ...) are not listed: Rust keeps methods apart
/// from fields, and enum values and union variants (UpperCamelCase) never
/// meet their snake_case names.
pub const GENERATED_MEMBERS: &[&str] = &["unknown_fields", names::UNKNOWN];

/// Prelude types generated Rust names without a path; a schema type of the
/// same name would hide them.
pub const PRELUDE_TYPES: &[&str] = &[
    "Option", "Result", "String", "Vec", "Box", "Default", "FnMut",
];

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "_",
];

/// Normalises template output the way rustfmt leaves it: blank-line runs
/// collapse to one, no blank line follows `{` or precedes `}`, an empty block
/// closes on its opening line (`Empty {}`), and the file ends with one newline.
fn tidy(text: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim_end) {
        let prev_blank = lines.last().is_none_or(|l| l.is_empty());
        if line.is_empty() && (prev_blank || lines.last().is_some_and(|l| l.ends_with('{'))) {
            continue;
        }
        if line.trim_start().starts_with('}') && lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines.push(line);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.ends_with('{')
            && lines
                .get(i + 1)
                .is_some_and(|n| n.trim_start().starts_with('}'))
        {
            out.push_str(line);
            out.push_str(lines[i + 1].trim_start());
            i += 2;
        } else {
            out.push_str(line);
            i += 1;
        }
        out.push('\n');
    }
    out
}

/// An owned type's field declaration, `pub name: Type,`.
fn field_decl(name: &str, ty: &str) -> String {
    format!("pub {name}: {},", layout::ty(ty, true))
}

#[derive(Serialize)]
struct FileView {
    source: String,
    consts: Vec<ConstView>,
    items: Vec<String>,
}

#[derive(Serialize)]
struct ConstView {
    doc: Vec<String>,
    name: String,
    ty: String,
    value: String,
}

/// A node of the module tree in `mod.rs`.
#[derive(Serialize, Default)]
struct ModView {
    doc: Vec<String>,
    name: String,
    includes: Vec<String>,
    children: Vec<ModView>,
    /// The node's text, rendered depth first (handlebars has no recursion
    /// over arbitrary depth without partials; building it here keeps the
    /// template flat).
    body: String,
}

fn module_tree(ir: &Ir, names: &[String]) -> ModView {
    let mut root = ModView::default();
    for (fi, file) in ir.files.iter().enumerate() {
        let mut node = &mut root;
        for seg in &file.namespace {
            let name = module_ident(seg);
            let i = match node.children.iter().position(|c| c.name == name) {
                Some(i) => i,
                None => {
                    node.children.push(ModView {
                        name,
                        ..ModView::default()
                    });
                    node.children.len() - 1
                }
            };
            node = &mut node.children[i];
        }
        if node.doc.is_empty() {
            node.doc = doc_lines(&file.doc);
        }
        node.includes.push(names[fi].clone());
    }
    fn render(node: &mut ModView, depth: usize) {
        let pad = "    ".repeat(depth);
        let mut body = String::new();
        for inc in &node.includes {
            body.push_str(&format!("{pad}include!(\"{inc}\");\n"));
        }
        for child in &mut node.children {
            render(child, depth + 1);
            if !body.is_empty() {
                body.push('\n');
            }
            for d in &child.doc {
                body.push_str(&format!("{pad}{d}\n"));
            }
            if depth == 0 {
                body.push_str(&format!("{MODULE_ALLOW}\n"));
            }
            body.push_str(&format!(
                "{pad}pub mod {} {{\n{}{pad}}}\n",
                child.name, child.body
            ));
        }
        node.body = body;
    }
    render(&mut root, 0);
    root
}

/// On each outermost namespace module: the lints a crate may deny beyond
/// rustc's and clippy's defaults, so that a crate with
/// `#![deny(missing_docs, clippy::pedantic)]` compiles its generated code.
/// The code follows the schema (a field without a doc comment has no docs),
/// not the including crate's style, and is not edited by hand.
const MODULE_ALLOW: &str = "#[allow(\n    missing_docs,\n    missing_copy_implementations,\n    unused_results,\n    variant_size_differences,\n    clippy::pedantic,\n    clippy::nursery,\n    clippy::restriction\n)]";

/// The attribute of a deprecated item, with the schema's reason as its note.
fn deprecated_attr(deprecated: bool, note: &Option<String>) -> Option<String> {
    deprecated.then(|| match note {
        // Debug formatting is a Rust string literal for any text, with
        // every character of `crate::text::must_escape` escaped (`\u{2028}`).
        Some(note) => format!("#[deprecated(note = {note:?})]"),
        None => "#[deprecated]".to_string(),
    })
}

/// A declared type as written ([`Naming::type_name`]): `Vec_` for a type
/// `Vec`, which would hide std's.
fn type_ident(def: &TypeDef) -> String {
    NAMING.type_ident(def)
}

/// The borrowed view of a declared type, named after its converted name
/// (`VecView` for `Vec_`: `Vec_View` is no UpperCamelCase name).
fn view_ident(def: &TypeDef) -> String {
    let (name, _) = NAMING
        .companions_of(def)
        .into_iter()
        .find(|(_, c)| c.suffix == view::VIEW_SUFFIX)
        .expect("a type with a view");
    name
}

/// The doc comment of a type, and a note of its schema name when the Rust
/// name is renamed.
fn type_doc(def: &TypeDef) -> Vec<String> {
    let mut lines = doc_lines(&def.doc);
    if NAMING.is_type_renamed(def) {
        lines.push(format!("// schema name: {}", def.name));
    }
    lines
}

/// A field, union variant or enum value of `owner` as written
/// ([`Naming::member`]).
fn member_ident(kind: NameKind, name: &str, owner: &TypeDef) -> String {
    NAMING.member_ident(kind, name, owner)
}

/// The doc comment of a field, union variant or enum value, and a note of
/// its schema name when the Rust name is renamed, so that a reader of the
/// generated code can find it in the schema.
fn member_doc(doc: &[String], kind: NameKind, name: &str, owner: &TypeDef) -> Vec<String> {
    let mut lines = doc_lines(doc);
    if NAMING.is_renamed(kind, name, owner) {
        lines.push(format!("// schema name: {name}"));
    }
    lines
}

fn module_ident(segment: &str) -> String {
    names::ident(Lang::Rust, NameKind::Field, segment)
}

/// `///` lines for a doc comment ([`crate::text::escaped`]: no line break
/// or bidirectional control of the schema's text reaches the code); empty
/// lines stay `///` so rustfmt finds nothing to trim.
fn doc_lines(doc: &[String]) -> Vec<String> {
    doc.iter()
        .map(|l| {
            if l.is_empty() {
                "///".to_string()
            } else {
                format!("/// {}", layout::plain(&crate::text::escaped(l)))
            }
        })
        .collect()
}

fn int_literal(p: Prim, v: i128) -> String {
    match p.int_range() {
        // `-9223372036854775808` is not a literal Rust accepts for i64.
        Some((lo, _)) if v == lo && lo < 0 => format!("{}::MIN", p.name()),
        _ => v.to_string(),
    }
}

struct Cx<'a> {
    ir: &'a Ir,
    /// Namespace of the file being generated, for relative paths.
    namespace: &'a [String],
    /// Whether types derive the serde traits.
    serde: bool,
    /// See [`boxed_types`].
    boxed: &'a std::collections::BTreeSet<TypeId>,
    /// See [`deferred_patches`].
    deferred: &'a std::collections::BTreeSet<(TypeId, usize)>,
    /// See [`checked_structs`].
    checked_structs: &'a std::collections::BTreeSet<TypeId>,
    /// See [`plain_structs`].
    plain: &'a [bool],
    /// See [`total_structs`].
    total: &'a [bool],
    /// See [`fixed_sizes`].
    fixed_sizes: &'a [u64],
    /// See [`super::model::analyze`].
    models: &'a super::model::Models,
}

/// Values at least this large (by the decoded-size model) decode in place:
/// a message's `decode_raw` into a default value, since building it field
/// by field on the stack costs several copies of the value in stack frames
/// (about twenty in debug builds), and a union's variant into a
/// placeholder where it will lie. The runtime places list elements and the
/// values of optionals and maps of this size the same way.
const DECODE_IN_PLACE_MIN: u64 = pkt_runtime::memory::DECODE_IN_PLACE_MIN as u64;

/// A union variant's payload decoded from its frame's `body` into `v`, a
/// new value or (`_INTO`) the variant's own.
const DECODE_PAYLOAD: &str = "let v = ::pkt_runtime::Decode::decode_raw(&mut body)?;";
const DECODE_PAYLOAD_INTO: &str = "::pkt_runtime::Decode::decode_into_raw(v, &mut body)?;";

/// serde implements its traits for arrays of at most this many elements.
const SERDE_MAX_ARRAY: u32 = 32;

impl Cx<'_> {
    fn render_type(&self, t: &Templates, id: TypeId) -> String {
        let code = self.render_codec(t, id);
        if crate::delta::is_delta(self.ir, id) {
            let delta = t.render("delta", &self.delta_view(id));
            return format!("{code}\n\n{delta}");
        }
        code
    }

    fn render_codec(&self, t: &Templates, id: TypeId) -> String {
        let def = self.ir.ty(id);
        let decode_boxed = self.boxed.contains(&id);
        // Messages, unions and variable-size structs are followed by their
        // borrowed view (`view.rs`).
        match &def.kind {
            TypeKind::Struct { fields } if !def.layout.is_fixed() => {
                let mut view = self.var_struct_view(id, def, fields);
                view.common.decode_boxed = decode_boxed;
                let borrowed = self.var_struct_view_model(def, fields, &view);
                format!(
                    "{}\n\n{}",
                    t.render("var_struct", &view),
                    t.render("view/struct", &borrowed)
                )
            }
            TypeKind::Struct { fields } => t.render("struct", &self.struct_view(id, def, fields)),
            TypeKind::Message {
                fields,
                preserve_unknown,
            } => {
                let mut view = self.message_view(def, fields, *preserve_unknown);
                view.common.decode_boxed = decode_boxed;
                let borrowed = self.message_view_model(def, fields, &view, *preserve_unknown);
                format!(
                    "{}\n\n{}",
                    t.render("message", &view),
                    t.render("view/message", &borrowed)
                )
            }
            TypeKind::Enum { base, values } => {
                t.render("enum", &self.enum_view(def, *base, values))
            }
            TypeKind::Union { tag, variants, .. } => {
                let mut view = self.union_view(def, *tag, variants);
                view.common.decode_boxed = decode_boxed;
                let borrowed = self.union_view_model(def, variants, &view);
                format!(
                    "{}\n\n{}",
                    t.render("union", &view),
                    t.render("view/union", &borrowed)
                )
            }
        }
    }

    /// The path to a declared type from the current module: bare within the
    /// namespace, else relative through `super::`.
    fn type_path(&self, id: TypeId) -> String {
        self.path_to(id, type_ident(self.ir.ty(id)))
    }

    /// The path to the borrowed view of a declared type.
    fn view_path(&self, id: TypeId) -> String {
        self.path_to(id, view_ident(self.ir.ty(id)))
    }

    /// The path to `name`, declared in the module of type `id`.
    fn path_to(&self, id: TypeId, name: String) -> String {
        let def = self.ir.ty(id);
        let target = self.ir.namespace_of(def);
        let common = self
            .namespace
            .iter()
            .zip(target.iter())
            .take_while(|(a, b)| a == b)
            .count();
        let mut path = "super::".repeat(self.namespace.len() - common);
        for seg in &target[common..] {
            path.push_str(&module_ident(seg));
            path.push_str("::");
        }
        path.push_str(&name);
        path
    }

    fn rust_type(&self, ty: &Type) -> String {
        match ty {
            Type::Prim(p) => p.name().to_string(),
            Type::String => "String".to_string(),
            Type::Bytes => "Vec<u8>".to_string(),
            Type::List(t) => format!("Vec<{}>", self.rust_type(t)),
            Type::Map(k, v) => format!(
                "::std::collections::BTreeMap<{}, {}>",
                self.rust_type(k),
                self.rust_type(v)
            ),
            Type::Array(t, n) => format!("[{}; {n}]", self.rust_type(t)),
            Type::Optional(t) => format!("Option<{}>", self.rust_type(t)),
            Type::Named(r) => self.type_path(r.id),
        }
    }

    /// The field's declared type, boxed where it closes a containment cycle
    /// (`Option<Box<T>>` for optionals, `Box<T>` otherwise).
    fn field_type(&self, ty: &Type, cyclic: bool) -> String {
        match (cyclic, ty) {
            (false, _) => self.rust_type(ty),
            (true, Type::Optional(t)) => format!("Option<Box<{}>>", self.rust_type(t)),
            (true, t) => format!("Box<{}>", self.rust_type(t)),
        }
    }

    /// [`default_expr`](Self::default_expr) of a field or variant, in its
    /// box when the owned type boxes it (`Box<[T; 33]>`).
    fn slot_default_expr(&self, ty: &Type, value: Option<&Value>, cyclic: bool) -> Option<String> {
        let expr = self.default_expr(ty, value)?;
        Some(if cyclic && !matches!(ty, Type::Optional(_)) {
            format!("::std::boxed::Box::new({expr})")
        } else {
            expr
        })
    }

    /// The expression of [`Ir::default_value`]; `None` when it is
    /// `Default::default()`: every generated type's `Default` is its zero
    /// value (an enum's `#[default]` value, a union's `Default` impl), and
    /// std's is the zero value of the rest, arrays of up to 32 elements
    /// included.
    fn default_expr(&self, ty: &Type, value: Option<&Value>) -> Option<String> {
        match (self.ir.default_value(ty, value), ty) {
            (DefaultValue::Declared(Value::Bool(b)), _) => Some(b.to_string()),
            (DefaultValue::Declared(Value::Int(v)), Type::Prim(p)) => Some(int_literal(*p, *v)),
            (DefaultValue::Declared(Value::Float(f)), Type::Prim(Prim::F32)) => {
                Some(float_literal(*f as f32 as f64, true))
            }
            (DefaultValue::Declared(Value::Float(f)), _) => Some(float_literal(*f, false)),
            (DefaultValue::Declared(Value::String(s)), _) => Some(format!("String::from({s:?})")),
            (DefaultValue::Declared(Value::Enum { name, .. }), Type::Named(r)) => Some(format!(
                "{}::{}",
                self.type_path(r.id),
                member_ident(NameKind::Variant, name, self.ir.ty(r.id))
            )),
            (DefaultValue::Array { elem, len }, _)
                if len > 32 || self.default_expr(elem, None).is_some() =>
            {
                let inner = self
                    .default_expr(elem, None)
                    .unwrap_or_else(|| "Default::default()".to_string());
                Some(if self.ir.is_fixed(elem) {
                    format!("[{inner}; {len}]")
                } else {
                    format!("::core::array::from_fn(|_| {inner})")
                })
            }
            _ => None,
        }
    }

    /// Whether a value of the type can hold a message or union, which the
    /// encoders' check (`Encode::check_at`) must visit for its depth and
    /// `@max` limits.
    fn needs_check(&self, ty: &Type) -> bool {
        match ty {
            Type::List(t) | Type::Array(t, _) => self.needs_check(t),
            Type::Optional(t) => self.needs_check(t),
            Type::Map(k, v) => self.needs_check(k) || self.needs_check(v),
            Type::Named(r) => {
                matches!(
                    self.ir.ty(r.id).kind,
                    TypeKind::Message { .. } | TypeKind::Union { .. }
                ) || self.checked_structs.contains(&r.id)
            }
            _ => false,
        }
    }

    /// Whether code for field `f` names something `@deprecated`: its
    /// type, a type inside it, or the enum value of its default.
    fn field_uses_deprecated(&self, f: &Field) -> bool {
        let default_deprecated = match (&f.default, &f.ty) {
            (Some(Value::Enum { index, .. }), Type::Named(r)) => match &self.ir.ty(r.id).kind {
                TypeKind::Enum { values, .. } => values.get(*index).is_some_and(|v| v.deprecated),
                _ => false,
            },
            _ => false,
        };
        f.deprecated || default_deprecated || self.uses_deprecated(&f.ty)
    }

    fn uses_deprecated(&self, ty: &Type) -> bool {
        match ty {
            Type::Named(r) => self.ir.ty(r.id).deprecated,
            Type::List(t) | Type::Array(t, _) => self.uses_deprecated(t),
            Type::Optional(t) => self.uses_deprecated(t),
            Type::Map(k, v) => self.uses_deprecated(k) || self.uses_deprecated(v),
            _ => false,
        }
    }

    /// A type's `#[derive(..)]` line: `traits`, then the serde derives when
    /// serde is on (one list, as rustfmt merges derive attributes).
    fn derive_line(&self, traits: &[&str]) -> String {
        let mut all = traits.to_vec();
        if self.serde {
            all.extend(["::serde::Serialize", "::serde::Deserialize"]);
        }
        format!("#[derive({})]", all.join(", "))
    }

    /// Attribute lines after a type's `#[derive(..)]`: `extra` serde
    /// attributes when serde is on, nothing otherwise.
    fn serde_type_attrs(&self, extra: &[&str]) -> Vec<String> {
        if !self.serde {
            return Vec::new();
        }
        extra.iter().map(|a| a.to_string()).collect()
    }

    /// Attribute lines on a field or union variant of type `ty` (as declared,
    /// before any boxing): arrays longer than serde supports go through
    /// `pkt_runtime::serde_array`. Such an array nested in another type (a
    /// list, map, optional or array of them) is not supported.
    /// The attributes of a field or union variant: [`Self::serde_field_attrs`],
    /// and with serde the schema name of a renamed member, which serialized
    /// values keep.
    fn member_attrs(
        &self,
        ty: &Type,
        cyclic: bool,
        kind: NameKind,
        name: &str,
        owner: &TypeDef,
    ) -> Vec<String> {
        let mut attrs = self.serde_field_attrs(ty, cyclic);
        if self.serde && NAMING.is_renamed(kind, name, owner) {
            let schema_name = (NAMING.convert)(kind, name);
            attrs.push(format!("#[serde(rename = {schema_name:?})]"));
        }
        attrs
    }

    fn serde_field_attrs(&self, ty: &Type, cyclic: bool) -> Vec<String> {
        match ty {
            Type::Array(_, n) if self.serde && !cyclic && *n > SERDE_MAX_ARRAY => {
                vec!["#[serde(with = \"::pkt_runtime::serde_array\")]".to_string()]
            }
            _ => Vec::new(),
        }
    }

    fn common(
        &self,
        def: &TypeDef,
        derive: String,
        attrs: Vec<String>,
        members_deprecated: bool,
    ) -> Common {
        Common {
            derive,
            attrs,
            doc: type_doc(def),
            deprecated: deprecated_attr(def.deprecated, &def.deprecated_note),
            allow_deprecated: def.deprecated || members_deprecated,
            name: type_ident(def),
            schema_name: def.name.clone(),
            memory: self.memory_block(def),
            decode_boxed: false,
        }
    }
}

/// A float expression with exactly the value's bits: `-0.0` stays negative
/// and NaN is the quiet NaN with sign and payload 0.
fn float_literal(f: f64, is_f32: bool) -> String {
    let ty = if is_f32 { "f32" } else { "f64" };
    if f.is_nan() {
        return if is_f32 {
            format!("f32::from_bits({NAN_F32_BITS:#x})")
        } else {
            format!("f64::from_bits({NAN_F64_BITS:#x})")
        };
    }
    if f.is_infinite() {
        let which = if f > 0.0 { "INFINITY" } else { "NEG_INFINITY" };
        return format!("{ty}::{which}");
    }
    // `{:?}` always keeps a decimal point or exponent, so the literal stays a float.
    if is_f32 {
        format!("{:?}", f as f32)
    } else {
        format!("{f:?}")
    }
}

#[derive(Serialize)]
struct Common {
    /// The `#[derive(..)]` line.
    derive: String,
    /// Attribute lines after the type's `#[derive(..)]`.
    attrs: Vec<String>,
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    allow_deprecated: bool,
    name: String,
    schema_name: String,
    /// `Decode::MEMORY` and `MEMORY_ALIGN`, from the types the type holds
    /// ([`Cx::memory_block`]); the `memory` template.
    memory: Option<MemoryView>,
    /// Some field or variant boxes this type: its decoder overrides
    /// `Decode::decode_boxed`.
    decode_boxed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_collapses_blank_runs_and_trims_before_closing_braces() {
        assert_eq!(tidy("a {\n\n    b\n\n\n}\n\n"), "a {\n    b\n}\n");
        assert_eq!(
            tidy("struct E {\n}\nx(Self {\n    })\n"),
            "struct E {}\nx(Self {})\n"
        );
    }
}
