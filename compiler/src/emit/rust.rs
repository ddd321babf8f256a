//! The Rust backend: one `<stem>.rs` per schema file and a `mod.rs` that
//! declares one module per namespace and includes the files into it.
//!
//! Generated code implements `::pkt_runtime::{Encode, Decode, FixedSize}`;
//! fields are encoded through those traits, so one template line serves every
//! field type and the runtime's bulk paths apply to lists of fixed-size data.

use serde::Serialize;

use super::templates::Templates;
use super::{Backend, GenOptions, GeneratedFile, OutputFile};
use crate::ir::*;
use crate::names::{self, Companion, Lang, NameKind, Naming};
use crate::wire;

mod max;
mod view;

use max::Marker;

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
                "union",
                include_str!("../../../templates/rust/union.rs.hbs"),
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
            source: file.source.clone(),
            consts,
            items,
        };
        tidy(&templates().render("file", &view))
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
        suffix: "View",
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
pub const PRELUDE_TYPES: &[&str] = &["Option", "Result", "String", "Vec", "Box", "Default"];

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen", "_",
];

/// The declared types some field or variant stores in a `Box`: their
/// decoders build a boxed value in place (`Decode::decode_boxed`).
fn boxed_types(ir: &Ir) -> std::collections::BTreeSet<TypeId> {
    fn inner(ty: &Type) -> Option<TypeId> {
        match ty {
            Type::Optional(t) => inner(t),
            t => t.named(),
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for def in &ir.types {
        let boxed: Vec<&Type> = match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                fields.iter().filter(|f| f.cyclic).map(|f| &f.ty).collect()
            }
            TypeKind::Union { variants, .. } => variants
                .iter()
                .filter(|v| v.cyclic)
                .map(|v| &v.ty)
                .collect(),
            TypeKind::Enum { .. } => Vec::new(),
        };
        out.extend(boxed.into_iter().filter_map(inner));
    }
    out
}

/// The variable-size structs whose encoder check (`Encode::check_at`) has
/// something to do: a field with `@max`, or a field holding a message, a
/// union or such a struct. Found backwards from the structs that check
/// something themselves, so that struct chains of any depth take no
/// recursion.
fn checked_structs(ir: &Ir) -> std::collections::BTreeSet<TypeId> {
    let n = ir.types.len();
    // users[s]: the structs with a field holding struct `s`.
    let mut users: Vec<Vec<TypeId>> = vec![Vec::new(); n];
    let mut work = Vec::new();
    for (i, def) in ir.types.iter().enumerate() {
        let TypeKind::Struct { fields } = &def.kind else {
            continue;
        };
        if def.layout.is_fixed() {
            continue;
        }
        let mut own = false;
        for f in fields {
            own |= f.max.is_some() || f.ty.has_element_max();
            let mut parts = Vec::new();
            f.ty.named_parts(&mut parts);
            for t in parts {
                match ir.ty(t).kind {
                    TypeKind::Message { .. } | TypeKind::Union { .. } => own = true,
                    TypeKind::Struct { .. } => users[t.0].push(TypeId(i)),
                    TypeKind::Enum { .. } => {}
                }
            }
        }
        if own {
            work.push(TypeId(i));
        }
    }
    let mut out = std::collections::BTreeSet::new();
    while let Some(t) = work.pop() {
        if out.insert(t) {
            work.extend(users[t.0].iter().copied());
        }
    }
    out
}

/// Which declared types are plain structs: memory is the wire layout on
/// little-endian targets, so they implement `pkt_runtime::plain::Plain` and
/// lists of them are copied in bulk. A struct is plain when its fields are
/// numbers other than `bool`, arrays of them or plain structs, and their
/// wire sizes laid out in declaration order with the alignments of the
/// decoded-size model (natural alignment: the layout of `#[repr(C)]`) leave
/// no padding, so its size is the wire size.
/// `pkt_runtime::plain!` checks the same at compile time.
///
/// Computed once for all types with an explicit stack, since structs nest
/// arbitrarily deep (a chain of 100,000 structs is a valid schema).
fn plain_structs(ir: &Ir) -> Vec<bool> {
    /// The declared type inside `ty` through arrays; `Err` when `ty` can
    /// never be plain.
    fn named(ty: &Type) -> Result<Option<TypeId>, ()> {
        match ty {
            Type::Prim(Prim::Bool) => Err(()),
            Type::Prim(_) => Ok(None),
            Type::Array(t, _) => named(t),
            Type::Named(r) => Ok(Some(r.id)),
            _ => Err(()),
        }
    }
    /// Whether the struct could be plain if its named fields are, and those
    /// fields' types.
    fn candidate(ir: &Ir, id: TypeId) -> Option<Vec<TypeId>> {
        let def = ir.ty(id);
        let TypeKind::Struct { fields } = &def.kind else {
            return None;
        };
        let size = def.layout.fixed_size().filter(|&s| s > 0)?;
        let laid_out = Memory::sequence(fields.iter().map(|f| Memory {
            size: u64::from(ir.layout(&f.ty).min_size()),
            align: ir.memory(&f.ty).align,
        }));
        if u64::from(size) != laid_out.size {
            return None;
        }
        let mut deps = Vec::new();
        for f in fields {
            if f.cyclic {
                return None;
            }
            deps.extend(named(&f.ty).ok()?);
        }
        Some(deps)
    }
    struct_closure(ir, candidate)
}

/// The size of each fixed-size declared type as Rust lays it out (fields in
/// declaration order, natural alignment; an enum twice its base): the
/// decoded-size model without what C# adds (arrays are objects there), for
/// what the generated Rust keeps inline. 0 for the other types.
///
/// Computed once, inner structs first, with an explicit stack: structs nest
/// as deep as the schema declares them.
fn fixed_sizes(ir: &Ir) -> Vec<u64> {
    fn inner(ty: &Type) -> Option<TypeId> {
        match ty {
            Type::Named(r) => Some(r.id),
            Type::Array(t, _) => inner(t),
            _ => None,
        }
    }
    fn layout(ir: &Ir, ty: &Type, out: &[Option<Memory>]) -> Memory {
        match ty {
            Type::Array(t, n) => {
                let m = layout(ir, t, out);
                Memory {
                    size: m.size.saturating_mul(u64::from(*n)),
                    align: m.align,
                }
            }
            Type::Named(r) => out[r.id.0].unwrap_or(Memory::EMPTY),
            _ => ir.memory(ty),
        }
    }
    let n = ir.types.len();
    let mut out: Vec<Option<Memory>> = vec![None; n];
    for root in 0..n {
        let mut stack = vec![TypeId(root)];
        while let Some(&id) = stack.last() {
            if out[id.0].is_some() {
                stack.pop();
                continue;
            }
            let def = ir.ty(id);
            let fields = match &def.kind {
                TypeKind::Struct { fields } if def.layout.is_fixed() => fields,
                TypeKind::Enum { .. } => {
                    out[id.0] = Some(def.memory);
                    stack.pop();
                    continue;
                }
                _ => {
                    out[id.0] = Some(Memory::EMPTY);
                    stack.pop();
                    continue;
                }
            };
            if let Some(next) = fields
                .iter()
                .filter_map(|f| inner(&f.ty))
                .find(|t| out[t.0].is_none())
            {
                stack.push(next);
                continue;
            }
            out[id.0] = Some(Memory::sequence(
                fields.iter().map(|f| layout(ir, &f.ty, &out)),
            ));
            stack.pop();
        }
    }
    out.into_iter().map(|m| m.map_or(0, |m| m.size)).collect()
}

/// Which declared types are total structs: every string of their size is a
/// valid value, so they are read without a `Result`
/// (`FixedSize::TOTAL`). A struct is total when it has fields and they are
/// numbers other than `bool`, enums (an unnamed number is `Unknown`), arrays
/// of them or total structs.
fn total_structs(ir: &Ir) -> Vec<bool> {
    /// The struct inside `ty` through arrays; `Err` when `ty` can be
    /// invalid.
    fn named(ir: &Ir, ty: &Type) -> Result<Option<TypeId>, ()> {
        match ty {
            Type::Prim(Prim::Bool) => Err(()),
            Type::Prim(_) => Ok(None),
            Type::Array(t, _) => named(ir, t),
            Type::Named(r) => match ir.ty(r.id).kind {
                TypeKind::Enum { .. } => Ok(None),
                TypeKind::Struct { .. } => Ok(Some(r.id)),
                _ => Err(()),
            },
            _ => Err(()),
        }
    }
    fn candidate(ir: &Ir, id: TypeId) -> Option<Vec<TypeId>> {
        let TypeKind::Struct { fields } = &ir.ty(id).kind else {
            return None;
        };
        if fields.is_empty() || !ir.ty(id).layout.is_fixed() {
            return None;
        }
        let mut deps = Vec::new();
        for f in fields {
            deps.extend(named(ir, &f.ty).ok()?);
        }
        Some(deps)
    }
    struct_closure(ir, candidate)
}

/// For every declared type, whether `candidate` accepts it (returning the
/// types it depends on) and all its dependencies are accepted too; a cycle
/// is not. An explicit stack, since structs nest arbitrarily deep.
fn struct_closure(ir: &Ir, candidate: fn(&Ir, TypeId) -> Option<Vec<TypeId>>) -> Vec<bool> {
    let n = ir.types.len();
    let mut ok: Vec<Option<bool>> = vec![None; n];
    let mut on_stack = vec![false; n];
    for root in 0..n {
        let mut stack = vec![root];
        while let Some(&id) = stack.last() {
            if ok[id].is_some() {
                stack.pop();
                continue;
            }
            on_stack[id] = true;
            let Some(deps) = candidate(ir, TypeId(id)) else {
                ok[id] = Some(false);
                on_stack[id] = false;
                stack.pop();
                continue;
            };
            if let Some(next) = deps.iter().find(|d| ok[d.0].is_none() && !on_stack[d.0]) {
                stack.push(next.0);
                continue;
            }
            ok[id] = Some(deps.iter().all(|d| ok[d.0] == Some(true)));
            on_stack[id] = false;
            stack.pop();
        }
    }
    ok.into_iter().map(|p| p == Some(true)).collect()
}

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

/// An owned type's field declaration at 4 columns.
fn field_decl(name: &str, ty: &str) -> String {
    type_lines(4, &format!("pub {name}: "), ty, ",", true).join("\n")
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
        // Debug formatting is a Rust string literal for any text.
        Some(note) => format!("#[deprecated(note = {note:?})]"),
        None => "#[deprecated]".to_string(),
    })
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

/// `///` lines for a doc comment; empty lines stay `///` so rustfmt finds
/// nothing to trim.
fn doc_lines(doc: &[String]) -> Vec<String> {
    doc.iter()
        .map(|l| {
            if l.is_empty() {
                "///".to_string()
            } else {
                format!("/// {l}")
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

/// serde implements its traits for arrays of at most this many elements.
const SERDE_MAX_ARRAY: u32 = 32;

impl Cx<'_> {
    fn render_type(&self, t: &Templates, id: TypeId) -> String {
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
        let def = self.ir.ty(id);
        let name = names::ident(Lang::Rust, NameKind::Type, &def.name);
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

    /// The default value expression; `None` when it is `Default::default()`.
    fn default_expr(&self, ty: &Type, value: Option<&Value>) -> Option<String> {
        match (value, ty) {
            (Some(Value::Bool(b)), _) => Some(b.to_string()),
            (Some(Value::Int(v)), Type::Prim(p)) => Some(int_literal(*p, *v)),
            (Some(Value::Float(f)), Type::Prim(Prim::F32)) => {
                Some(float_literal(*f as f32 as f64, true))
            }
            (Some(Value::Float(f)), _) => Some(float_literal(*f, false)),
            (Some(Value::String(s)), _) => Some(format!("String::from({s:?})")),
            (Some(Value::Enum { name, .. }), Type::Named(r)) => Some(format!(
                "{}::{}",
                self.type_path(r.id),
                member_ident(NameKind::Variant, name, self.ir.ty(r.id))
            )),
            (_, Type::Array(elem, n)) if *n > 32 || self.default_expr(elem, None).is_some() => {
                let inner = self
                    .default_expr(elem, None)
                    .unwrap_or_else(|| "Default::default()".to_string());
                Some(if self.ir.is_fixed(elem) {
                    format!("[{inner}; {n}]")
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

    /// Whether every byte string of `ty`'s size is a value of it (a struct
    /// field's type; see [`total_structs`]).
    fn is_total(&self, ty: &Type) -> bool {
        match ty {
            Type::Prim(p) => *p != Prim::Bool,
            Type::Array(t, _) => self.is_total(t),
            Type::Named(r) => match self.ir.ty(r.id).kind {
                TypeKind::Enum { .. } => true,
                _ => self.total[r.id.0],
            },
            _ => false,
        }
    }

    /// The `pkt_runtime::plain!` invocation for a plain struct: each field
    /// with its type and wire range.
    fn plain_impl(&self, name: &str, fields: &[StructFieldView]) -> Vec<String> {
        // rustfmt reads the argument as a struct literal, which it keeps
        // on one line while its fields take at most 18 columns
        // (`struct_lit_width`).
        let body: Vec<String> = fields
            .iter()
            .map(|f| format!("{}: {} = {}", f.name, f.ty, f.range))
            .collect();
        let body = body.join(", ");
        let one = format!("::pkt_runtime::plain!({name} {{ {body} }});");
        if body.chars().count() <= 18 && one.chars().count() <= 100 {
            return vec![one];
        }
        let mut lines = vec![format!("::pkt_runtime::plain!({name} {{")];
        for f in fields {
            lines.push(format!("    {}: {} = {},", f.name, f.ty, f.range));
        }
        lines.push("});".to_string());
        lines
    }

    fn struct_view(&self, id: TypeId, def: &TypeDef, fields: &[Field]) -> StructView {
        let size = def.layout.fixed_size().expect("structs are fixed");
        let mut derive_default = true;
        let fields: Vec<StructFieldView> = fields
            .iter()
            .map(|f| {
                let start = f.offset.expect("struct fields have offsets");
                let end = start + f.layout.min_size();
                let default = self.default_expr(&f.ty, None);
                derive_default &= default.is_none();
                let name = member_ident(NameKind::Field, &f.name, def);
                let ty = self.rust_type(&f.ty);
                let offset = if start == 0 {
                    "offset".to_string()
                } else {
                    format!("offset + {start}")
                };
                StructFieldView {
                    write_fixed: call_statement(
                        8,
                        "::pkt_runtime::FixedSize::write_fixed",
                        &[format!("&self.{name}"), format!("&mut out[{start}..{end}]")],
                        ";",
                    ),
                    read_fixed: split_line(
                        12,
                        &name,
                        ": ",
                        &format!(
                            "::pkt_runtime::FixedSize::read_fixed(&bytes[{start}..{end}], {offset})?,"
                        ),
                    ),
                    read_valid: split_line(
                        12,
                        &name,
                        ": ",
                        &format!("::pkt_runtime::FixedSize::read_valid(&bytes[{start}..{end}]),"),
                    ),
                    valid_check: (!self.is_total(&f.ty)).then(|| format!("{ty} = {start}..{end}")),
                    short_field: split_line(12, &format!("let _: {ty}"), " = ", "f.field()?;"),
                    doc: member_doc(&f.doc, NameKind::Field, &f.name, def),
                    deprecated: deprecated_attr(f.deprecated, &f.deprecated_note),
                    attrs: self.member_attrs(&f.ty, false, NameKind::Field, &f.name, def),
                    decl: field_decl(&name, &ty),
                    name,
                    ty,
                    range: format!("{start}..{end}"),
                    default: default.unwrap_or_else(|| "Default::default()".to_string()),
                }
            })
            .collect();
        let derive = if derive_default {
            self.derive_line(&["Clone", "Copy", "Debug", "PartialEq", "Default"])
        } else {
            self.derive_line(&["Clone", "Copy", "Debug", "PartialEq"])
        };
        let common_name = names::ident(Lang::Rust, NameKind::Type, &def.name);
        let plain = self.plain[id.0];
        let valid_checks = fields
            .iter()
            .filter_map(|f| f.valid_check.clone())
            .collect();
        let defaults: Vec<(String, String)> = fields
            .iter()
            .map(|f| (f.name.clone(), f.default.clone()))
            .collect();
        StructView {
            default_body: default_body(&defaults),
            total: self.total[id.0],
            valid_checks,
            fixed_codec: fixed_codec_line(&common_name, def.memory.size, def.memory.align),
            plain_impl: if plain {
                self.plain_impl(&common_name, &fields)
            } else {
                Vec::new()
            },
            plain,
            common: self.common(
                def,
                derive,
                // Structs are frozen: every field must be present.
                self.serde_type_attrs(&[]),
                def.kind
                    .fields()
                    .iter()
                    .any(|f| self.field_uses_deprecated(f)),
            ),
            size,
            size_comment: super::sum_comment(
                &def.kind
                    .fields()
                    .iter()
                    .map(|f| {
                        (
                            u64::from(f.layout.min_size()),
                            member_ident(NameKind::Field, &f.name, def),
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
            derive_default,
            bytes_used: !fields.is_empty(),
            fields,
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
            doc: doc_lines(&def.doc),
            deprecated: deprecated_attr(def.deprecated, &def.deprecated_note),
            allow_deprecated: def.deprecated || members_deprecated,
            name: names::ident(Lang::Rust, NameKind::Type, &def.name),
            schema_name: def.name.clone(),
            memory: self.memory_block(def),
            decode_boxed: false,
        }
    }

    /// `Decode::MEMORY` and `MEMORY_ALIGN` of a message, variable-size
    /// struct or union, as `pkt_runtime::memory!` of the types it holds
    /// (empty for the fixed-size types, whose `fixed_codec!` states them).
    /// A part that holds a declared type states its model (`= (size,
    /// align)`) where that number cannot change while this file does not
    /// ([`super::model::Models::numbers_stay`]), which also keeps the chain
    /// of constants rustc evaluates short; any other reads its type's
    /// constants, so that a change to another file does not change this one.
    /// A boxed field or variant is a pointer, `Box<T>` (as `Option<Box<T>>`
    /// is in memory). rustfmt leaves a braced macro's body as it is.
    fn memory_block(&self, def: &TypeDef) -> String {
        let field_ident = |f: &Field| member_ident(NameKind::Field, &f.name, def);
        // The part's type, and its model where the part states it.
        let part = |ty: &Type, cyclic: bool| match (cyclic, ty) {
            (true, Type::Optional(t)) => (format!("Box<{}>", self.rust_type(t)), None),
            (true, t) => (format!("Box<{}>", self.rust_type(t)), None),
            (false, t) => {
                let mut held = Vec::new();
                t.named_parts(&mut held);
                // Lists and maps hold their elements behind a handle.
                let inline = !matches!(t, Type::List(_) | Type::Map(..));
                let m = self.ir.memory(t);
                let model = (!held.is_empty()
                    && inline
                    && self.models.numbers_stay(self.ir, def.file, &held))
                .then(|| format!(" = ({}, {})", m.size, m.align));
                (self.rust_type(t), model)
            }
        };
        let field = |f: &Field| {
            let (ty, model) = part(&f.ty, f.cyclic);
            format!("{}: {ty}{},", field_ident(f), model.unwrap_or_default())
        };
        let (head, parts): (String, Vec<String>) = match &def.kind {
            TypeKind::Struct { fields } if !def.layout.is_fixed() => {
                ("record".to_string(), fields.iter().map(field).collect())
            }
            TypeKind::Message {
                fields,
                preserve_unknown,
            } => (
                "record".to_string(),
                fields
                    .iter()
                    .map(field)
                    .chain(preserve_unknown.then(|| "unknown_fields: Vec<u8>,".to_string()))
                    .collect(),
            ),
            TypeKind::Union { tag, variants, .. } => (
                format!("union {}", tag.name()),
                variants
                    .iter()
                    .map(|v| {
                        let (ty, model) = part(&v.ty, v.cyclic);
                        let name = member_ident(NameKind::Variant, &v.name, def);
                        format!("{name}({ty}){},", model.unwrap_or_default())
                    })
                    .collect(),
            ),
            _ => return String::new(),
        };
        let mut out = format!("    ::pkt_runtime::memory! {{\n        {head} {{\n");
        for p in parts {
            out.push_str(&format!("            {p}\n"));
        }
        out.push_str("        }\n    }");
        out
    }

    /// What a boxed field or variant of type `ty` is charged when present:
    /// the boxed type's `Decode::MEMORY`, by name, so that it follows the
    /// type wherever it is declared (`Ir::boxed_memory`).
    fn boxed_memory(&self, ty: &Type) -> String {
        let inner = match ty {
            Type::Optional(t) => t,
            t => t,
        };
        format!(
            "<{} as ::pkt_runtime::Decode>::MEMORY",
            self.rust_type(inner)
        )
    }

    /// The checks before a present field's value, read from `reader` at
    /// `indent` columns: its `@max` and the charge for its box.
    fn field_checks(&self, reader: &str, indent: usize, def: &TypeDef, f: &Field) -> Vec<String> {
        let schema_name = format!("\"{}.{}\"", self.ir.qualified_name(def), f.name);
        let optional = matches!(f.ty, Type::Optional(_));
        if let Some(marker) = Marker::of(&f.ty, f.max) {
            // Every limit, the field's own too, is the marker's; a field
            // with limits inside is never boxed (a cycle runs through
            // optionals and arrays of declared types only).
            return marker.alias(indent);
        }
        let mut lines = Vec::new();
        if let Some(max) = f.max {
            lines.push(call_statement(
                indent,
                &format!("{reader}.peek_max"),
                &[schema_name.clone(), max.to_string(), optional.to_string()],
                "?;",
            ));
        }
        if f.cyclic {
            lines.push(call_statement(
                indent,
                &format!("{reader}.charge_boxed"),
                &[schema_name, self.boxed_memory(&f.ty), optional.to_string()],
                "?;",
            ));
        }
        lines
    }

    fn message_view(&self, def: &TypeDef, fields: &[Field], preserve_unknown: bool) -> MessageView {
        let mut fixed_len = u64::from(wire::BODY_PREFIX);
        let mut fixed_parts = vec![(fixed_len, "length".to_string())];
        let mut variable = Vec::new();
        let mut derive_default = true;
        let views: Vec<MessageFieldView> = fields
            .iter()
            .map(|f| {
                let name = member_ident(NameKind::Field, &f.name, def);
                match f.layout {
                    Layout::Fixed { size } => {
                        fixed_len += size as u64;
                        fixed_parts.push((u64::from(size), name.clone()));
                    }
                    Layout::Variable { .. } => variable.push(call_statement(
                        8,
                        "n += ::pkt_runtime::Encode::encoded_len",
                        &[format!("&self.{name}")],
                        ";",
                    )),
                }
                let default = self.slot_default_expr(&f.ty, f.default.as_ref(), f.cyclic);
                derive_default &= default.is_none();
                let ty = self.field_type(&f.ty, f.cyclic);
                let boxed = f.cyclic && !matches!(f.ty, Type::Optional(_));
                let default = default.unwrap_or_else(|| "Default::default()".to_string());
                // What a boxed field's box is reset to.
                let unboxed_default = self
                    .default_expr(&f.ty, f.default.as_ref())
                    .unwrap_or_else(|| "Default::default()".to_string());
                let schema_name = format!("\"{}.{}\"", self.ir.qualified_name(def), f.name);
                let bounded = f.ty.has_element_max();
                let default_charge = match &f.default {
                    Some(Value::String(s)) if !s.is_empty() => Some(s.len()),
                    _ => None,
                };
                // The checks before a present field's value, in
                // `decode_raw` (16 columns in) and `decode_into_raw` (12).
                let checks = |indent: usize| self.field_checks("body", indent, def, f);
                let charge_default = |indent: usize| {
                    default_charge.map(|n| {
                        call_statement(
                            indent,
                            "body.charge_default",
                            &[schema_name.clone(), n.to_string()],
                            "?;",
                        )
                    })
                };
                MessageFieldView {
                    encode_raw: call_statement(
                        8,
                        "::pkt_runtime::Encode::encode_raw",
                        &[format!("&self.{name}"), "w".to_string()],
                        ";",
                    ),
                    head: if_head(12, &format!("{name}: if body.is_empty()")),
                    raw_charge_default: charge_default(16),
                    raw_checks: checks(16),
                    raw_value: if bounded {
                        max::field(16, "body", &schema_name, "?")
                    } else {
                        call_statement(16, "body.field", std::slice::from_ref(&schema_name), "?")
                    },
                    into_charge_default: charge_default(12),
                    into_checks: checks(12),
                    // An absent boxed field is reset inside its existing box,
                    // so decode_into allocates nothing for it; a large one
                    // (which has no declared default) in a stack frame of
                    // its own, so that this one stays small.
                    reset: if !f.cyclic && self.ir.memory(&f.ty).size >= DECODE_IN_PLACE_MIN {
                        call_statement(
                            12,
                            "::pkt_runtime::reset",
                            &[format!("&mut self.{name}")],
                            ";",
                        )
                    } else if boxed {
                        expr_lines(12, &format!("*self.{name} = "), &unboxed_default, ";", true)
                            .join("\n")
                    } else {
                        expr_lines(12, &format!("self.{name} = "), &default, ";", true).join("\n")
                    },
                    field_into: if bounded {
                        max::field_into(12, "body", &format!("&mut self.{name}"), &schema_name)
                    } else {
                        call_statement(
                            12,
                            "body.field_into",
                            &[format!("&mut self.{name}"), schema_name.clone()],
                            "?;",
                        )
                    },
                    doc: member_doc(&f.doc, NameKind::Field, &f.name, def),
                    deprecated: deprecated_attr(f.deprecated, &f.deprecated_note),
                    attrs: self.member_attrs(&f.ty, f.cyclic, NameKind::Field, &f.name, def),
                    decl: field_decl(&name, &ty),
                    name,
                    ty,
                    default,
                }
            })
            .collect();
        let members_deprecated = fields.iter().any(|f| self.field_uses_deprecated(f));
        let mut limit_checks = Vec::new();
        let mut nested = false;
        for f in fields {
            let name = member_ident(NameKind::Field, &f.name, def);
            if let Some(marker) = Marker::of(&f.ty, f.max) {
                // The limits and the nested messages' checks in one walk,
                // in wire order.
                nested = true;
                limit_checks.extend(max::check_block(
                    &marker,
                    8,
                    &format!("\"{}.{}\"", self.ir.qualified_name(def), f.name),
                    &format!("&self.{name}"),
                    "?;",
                ));
                continue;
            }
            if let Some(max) = f.max {
                limit_checks.push(call_statement(
                    8,
                    "::pkt_runtime::check_max",
                    &[
                        format!("\"{}.{}\"", self.ir.qualified_name(def), f.name),
                        format!("&self.{name}"),
                        max.to_string(),
                    ],
                    "?;",
                ));
            }
            if self.needs_check(&f.ty) {
                nested = true;
                limit_checks.push(call_statement(
                    8,
                    "::pkt_runtime::Encode::check_at",
                    &[
                        format!("&self.{name}"),
                        "depth".to_string(),
                        "max_depth".to_string(),
                    ],
                    "?;",
                ));
            }
        }
        // The depth is checked first; it is needed below only when a field
        // holds a message or union.
        let enter = if nested {
            "let depth = ::pkt_runtime::enter_encode(depth, max_depth)?;"
        } else {
            "::pkt_runtime::enter_encode(depth, max_depth)?;"
        };
        limit_checks.insert(0, format!("        {enter}"));
        let derive = if derive_default {
            self.derive_line(&["Clone", "Debug", "PartialEq", "Default"])
        } else {
            self.derive_line(&["Clone", "Debug", "PartialEq"])
        };
        let mut defaults: Vec<(String, String)> = views
            .iter()
            .map(|f| (f.name.clone(), f.default.clone()))
            .collect();
        if preserve_unknown {
            defaults.push(("unknown_fields".to_string(), "Vec::new()".to_string()));
        }
        MessageView {
            default_body: default_body(&defaults),
            limit_checks,
            // Like the wire format, a serialized message may lack fields
            // (written by an older version): they take their defaults.
            common: self.common(
                def,
                derive,
                self.serde_type_attrs(&["#[serde(default)]"]),
                members_deprecated,
            ),
            unknown_fields_attrs: if self.serde && preserve_unknown {
                vec!["#[serde(skip_serializing_if = \"Vec::is_empty\")]".to_string()]
            } else {
                Vec::new()
            },
            has_variable: !variable.is_empty() || preserve_unknown,
            fixed_len: fixed_len.to_string(),
            fixed_comment: super::sum_comment(&fixed_parts),
            fixed_parts,
            variable,
            body_used: !fields.is_empty() || preserve_unknown,
            decode_in_place: def.memory.size >= DECODE_IN_PLACE_MIN,
            min_len: wire::BODY_PREFIX,
            derive_default,
            preserve_unknown,
            fields: views,
        }
    }

    /// A variable-size struct: a message's fields without the length
    /// prefix, the defaults and the depth (see `var_struct.rs.hbs`).
    fn var_struct_view(&self, id: TypeId, def: &TypeDef, fields: &[Field]) -> MessageView {
        let mut view = self.message_view(def, fields, false);
        // No length prefix.
        view.fixed_parts.remove(0);
        view.fixed_len = view
            .fixed_parts
            .iter()
            .map(|(size, _)| size)
            .sum::<u64>()
            .to_string();
        view.fixed_comment = super::sum_comment(&view.fixed_parts);
        // Frozen: every field is present, in JSON too.
        view.common.attrs = self.serde_type_attrs(&[]);
        // A struct is no nesting level: its fields are checked at its own depth.
        view.limit_checks = if self.checked_structs.contains(&id) {
            view.limit_checks[1..].to_vec()
        } else {
            Vec::new()
        };
        if !view.limit_checks.is_empty() && !view.limit_checks.iter().any(|l| l.contains("depth")) {
            // Only `@max` limits here: the depth passes through unused.
            view.limit_checks
                .insert(0, "        let _ = (depth, max_depth);".to_string());
        }
        for (f, v) in fields.iter().zip(&mut view.fields) {
            let schema_name = format!("\"{}.{}\"", self.ir.qualified_name(def), f.name);
            let target = format!("&mut self.{}", v.name);
            if f.ty.has_element_max() {
                // Fields back to back in one scope: each `Max` in a block.
                let mut lines = vec!["        {".to_string()];
                lines.extend(self.field_checks("r", 12, def, f));
                v.into_checks = lines;
                v.field_into = format!(
                    "{}\n        }}",
                    max::field_into(12, "r", &target, &schema_name)
                );
            } else {
                v.into_checks = self.field_checks("r", 8, def, f);
                v.field_into = call_statement(8, "r.field_into", &[target, schema_name], "?;");
            }
        }
        view.min_len = def.layout.min_size();
        view
    }

    fn enum_view(&self, def: &TypeDef, base: Prim, values: &[EnumValue]) -> EnumView {
        // Named values are stored as their own numbers and `Unknown` under a
        // number no value has, so that `to_raw` is a select and `from_raw` a
        // range or bit test, not a jump table. When every number of the base
        // has a name there is no such number, and the compiler numbers them.
        let unknown = unused_value(base, values);
        let mut attrs = self.serde_type_attrs(&[]);
        if unknown.is_some() {
            attrs.push(format!("#[repr({})]", base.name()));
        }
        let discriminant = |n: u64| match unknown {
            Some(_) => format!(" = {n}"),
            None => String::new(),
        };
        EnumView {
            fixed_codec: fixed_codec_line(
                &names::ident(Lang::Rust, NameKind::Type, &def.name),
                def.memory.size,
                def.memory.align,
            ),
            common: self.common(
                def,
                self.derive_line(&["Clone", "Copy", "Debug", "Default"]),
                attrs,
                values.iter().any(|v| v.deprecated),
            ),
            unknown_discriminant: unknown.map_or(String::new(), |n| format!(" = {n}")),
            has_unnamed: unknown.is_some(),
            // Named values serialize as their names; `Unknown(n)` as the bare
            // number, and a number deserializes to `Unknown(n)`.
            unknown_attrs: if self.serde {
                vec!["#[serde(untagged)]".to_string()]
            } else {
                Vec::new()
            },
            base: base.name().to_string(),
            size: base.size(),
            values: values
                .iter()
                .enumerate()
                .map(|(i, v)| EnumValueView {
                    first: i == 0,
                    doc: member_doc(&v.doc, NameKind::Variant, &v.name, def),
                    deprecated: deprecated_attr(v.deprecated, &v.deprecated_note),
                    name: member_ident(NameKind::Variant, &v.name, def),
                    value: v.value.to_string(),
                    discriminant: discriminant(v.value),
                })
                .collect(),
        }
    }

    fn union_view(&self, def: &TypeDef, tag: Prim, variants: &[Variant]) -> UnionView {
        // The `Writer` method that stores a tag.
        let put_tag = format!("put_{}", tag.name());
        let views: Vec<VariantView> = variants
            .iter()
            .map(|v| {
                let name = member_ident(NameKind::Variant, &v.name, def);
                let ty = self.field_type(&v.ty, v.cyclic);
                let marker = Marker::of(&v.ty, None);
                let schema_name = format!("\"{}.{}\"", self.ir.qualified_name(def), v.name);
                let fixed_size = match self.ir.layout(&v.ty) {
                    Layout::Fixed { size } if !v.cyclic => Some(size),
                    _ => None,
                };
                let header = fixed_size
                    .and_then(|size| wire::fixed_variant_header(tag, v.tag, u64::from(size)));
                let fixed_append = header.as_ref().map(|(frame, bytes)| FixedAppend {
                    pattern: format!("Self::{name}(v)"),
                    comment: format!("// frame length {frame}, tag {}", v.tag),
                    header: byte_array(bytes),
                });
                let (encode_head, encode_tail) = match header {
                    Some((frame, bytes)) => (
                        vec![format!(
                            "w.put_array({}); // frame length {frame}, tag {}",
                            byte_array(&bytes),
                            v.tag
                        )],
                        Vec::new(),
                    ),
                    None => (
                        vec![
                            "let mark = w.begin_len();".to_string(),
                            format!("w.{put_tag}({});", v.tag),
                        ],
                        vec!["w.end_len(mark);".to_string()],
                    ),
                };
                VariantView {
                    encode_head,
                    encode_tail,
                    doc: member_doc(&v.doc, NameKind::Variant, &v.name, def),
                    deprecated: deprecated_attr(v.deprecated, &v.deprecated_note),
                    attrs: self.member_attrs(&v.ty, v.cyclic, NameKind::Variant, &v.name, def),
                    decl: variant_decl(&name, &ty),
                    len_arm: match_arm(
                        12,
                        &format!("Self::{name}(v)"),
                        "::pkt_runtime::Encode::encoded_len(v)",
                    ),
                    decode_value: match &marker {
                        Some(m) => max::variant_lines(m, 16, "variant", &schema_name),
                        None => vec![
                            "                let v = ::pkt_runtime::Decode::decode_raw(&mut body)?;"
                                .to_string(),
                        ],
                    },
                    decode_into_value: match &marker {
                        Some(m) => max::variant_lines(m, 16, "variant_into", &schema_name),
                        None => vec![
                            "                ::pkt_runtime::Decode::decode_into_raw(v, &mut body)?;"
                                .to_string(),
                        ],
                    },
                    decode_variant: match &marker {
                        Some(m) => {
                            let mut lines = m.alias(16);
                            lines.push(call_statement(
                                16,
                                "::pkt_runtime::max::decode_variant::<_, Max, _>",
                                &[
                                    "slot".to_string(),
                                    "&mut body".to_string(),
                                    schema_name.clone(),
                                    format!("Self::{name}"),
                                ],
                                "?;",
                            ));
                            lines.join("\n")
                        }
                        None => call_statement(
                            16,
                            "::pkt_runtime::decode_variant",
                            &[
                                "slot".to_string(),
                                "&mut body".to_string(),
                                format!("Self::{name}"),
                            ],
                            "?;",
                        ),
                    },
                    set_variant: call_statement(
                        16,
                        "::pkt_runtime::set_variant",
                        &["slot".to_string(), "v".to_string(), format!("Self::{name}")],
                        ";",
                    ),
                    placed: !v.cyclic && self.ir.memory(&v.ty).size >= DECODE_IN_PLACE_MIN,
                    set_placeholder: call_statement(
                        16,
                        "::pkt_runtime::set_variant_placeholder",
                        &["slot".to_string(), format!("Self::{name}")],
                        ";",
                    ),
                    if_placed: if_head(16, &format!("if let Self::{name}(v) = slot")),
                    name,
                    tag: v.tag.to_string(),
                    charge_boxed: v.cyclic.then(|| {
                        call_statement(
                            16,
                            "body.charge_boxed",
                            &[
                                "\"\"".to_string(),
                                self.boxed_memory(&v.ty),
                                "false".to_string(),
                            ],
                            "?;",
                        )
                    }),
                    fixed_payload: fixed_size.is_some(),
                    fixed_append,
                }
            })
            .collect();
        let fixed_appends = views
            .iter()
            .filter_map(|v| v.fixed_append.clone())
            .collect();
        let limited = variants
            .iter()
            .zip(&views)
            .filter_map(|(v, view)| {
                let pattern = format!("Self::{}(v)", view.name);
                if let Some(marker) = Marker::of(&v.ty, None) {
                    // The block of the check, as the arm's body.
                    let block = max::check_block(
                        &marker,
                        12,
                        &format!("\"{}.{}\"", self.ir.qualified_name(def), v.name),
                        "v",
                        "",
                    );
                    return Some(format!(
                        "            {pattern} => {}",
                        block.join("\n").trim_start()
                    ));
                }
                self.needs_check(&v.ty).then(|| {
                    match_arm(
                        12,
                        &pattern,
                        "::pkt_runtime::Encode::check_at(v, depth, max_depth)",
                    )
                })
            })
            .collect();
        UnionView {
            unknown_one_line: unknown_on_one_line(views.iter().map(|v| {
                !v.doc.is_empty()
                    || v.deprecated.is_some()
                    || !v.attrs.is_empty()
                    || v.decl.contains('\n')
            })),
            limited,
            fixed_appends,
            // Externally tagged: `{"Variant": payload}`, and
            // `{"Unknown": {"tag": n, "body": [..]}}`.
            common: self.common(
                def,
                self.derive_line(&["Clone", "Debug", "PartialEq"]),
                self.serde_type_attrs(&[]),
                variants
                    .iter()
                    .any(|v| v.deprecated || self.uses_deprecated(&v.ty)),
            ),
            tag_ty: tag.name().to_string(),
            tag_width: tag.size(),
            header_len: wire::union_header(tag),
            put_tag,
            // The frame reader returns the tag as u16.
            tag_from_wire: if tag == Prim::U16 {
                "tag".to_string()
            } else {
                format!("tag as {}", tag.name())
            },
            unknown_ok: if tag == Prim::U16 {
                vec!["Ok(Self::Unknown { tag, body: kept })".to_string()]
            } else {
                vec![
                    "Ok(Self::Unknown {".to_string(),
                    format!("    tag: tag as {},", tag.name()),
                    "    body: kept,".to_string(),
                    "})".to_string(),
                ]
            },
            // As rustfmt lays it out: a struct literal this short stays on
            // one line.
            set_unknown: if tag == Prim::U16 {
                vec![
                    "::pkt_runtime::set_variant(slot, kept, |body| Self::Unknown { tag, body });"
                        .to_string(),
                ]
            } else {
                vec![
                    "::pkt_runtime::set_variant(slot, kept, |body| Self::Unknown {".to_string(),
                    format!("    tag: tag as {},", tag.name()),
                    "    body,".to_string(),
                    "});".to_string(),
                ]
            },
            first_default: union_default(
                &views[0].name,
                &self
                    .slot_default_expr(&variants[0].ty, None, variants[0].cyclic)
                    .unwrap_or_else(|| "Default::default()".to_string()),
            ),
            first: views[0].name.clone(),
            variants: views,
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
    /// ([`Cx::memory_block`]).
    memory: String,
    /// Some field or variant boxes this type: its decoder overrides
    /// `Decode::decode_boxed`.
    decode_boxed: bool,
}

#[derive(Serialize)]
struct StructView {
    #[serde(flatten)]
    common: Common,
    size: u32,
    /// The parts of `size` ([`super::sum_comment`]).
    size_comment: String,
    derive_default: bool,
    /// The lines of `Default::default()` (see [`default_body`]).
    default_body: Vec<String>,
    /// Memory is the wire layout ([`plain_structs`]): `#[repr(C)]`, the
    /// bulk list paths and `pkt_runtime::plain!`.
    plain: bool,
    /// The lines of the `pkt_runtime::plain!` invocation.
    plain_impl: Vec<String>,
    /// The `fixed_codec!` statement.
    fixed_codec: String,
    /// Whether `read_fixed` reads any bytes (an empty struct reads none).
    bytes_used: bool,
    /// Every byte string is a value ([`total_structs`]): `read_fixed` is
    /// `read_valid` after the length check, `FixedSize::TOTAL`.
    total: bool,
    /// `type = range` of each field `is_valid` checks, for
    /// `pkt_runtime::fixed_is_valid!`.
    valid_checks: Vec<String>,
    fields: Vec<StructFieldView>,
}

#[derive(Serialize)]
struct StructFieldView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    /// Attribute lines before the field.
    attrs: Vec<String>,
    name: String,
    /// `pub name: Type,`, laid out as rustfmt lays it out.
    decl: String,
    ty: String,
    /// Byte range inside the struct, e.g. `4..8`.
    range: String,
    /// The statement of `write_fixed` that writes the field.
    write_fixed: String,
    /// The field initialiser of `read_fixed`.
    read_fixed: String,
    /// The field initialiser of `read_valid`.
    read_valid: String,
    /// `type = range` when the field can be invalid (holds a `bool`).
    #[serde(skip)]
    valid_check: Option<String>,
    /// The statement of `short_error` that reads the field.
    short_field: String,
    default: String,
}

#[derive(Serialize)]
struct MessageView {
    #[serde(flatten)]
    common: Common,
    /// The lines of `Default::default()` (see [`default_body`]).
    default_body: Vec<String>,
    /// Encoded size of the length prefix and the fixed-size fields.
    fixed_len: String,
    /// The parts of `fixed_len` as a comment ([`super::sum_comment`]).
    fixed_comment: String,
    #[serde(skip)]
    fixed_parts: Vec<(u64, String)>,
    has_variable: bool,
    /// The statements of `encoded_len` that add the fields whose size
    /// depends on the value.
    variable: Vec<String>,
    body_used: bool,
    /// `decode_raw` decodes into a default value (see [`DECODE_IN_PLACE_MIN`]).
    decode_in_place: bool,
    /// `Decode::MIN_ENCODED_LEN` (variable-size structs).
    min_len: u32,
    derive_default: bool,
    preserve_unknown: bool,
    /// Attribute lines before `unknown_fields`.
    unknown_fields_attrs: Vec<String>,
    /// Statements of `check_at`: the depth, then the limits.
    limit_checks: Vec<String>,
    fields: Vec<MessageFieldView>,
}

#[derive(Serialize)]
struct MessageFieldView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    /// Attribute lines before the field.
    attrs: Vec<String>,
    name: String,
    /// `pub name: Type,`, laid out as rustfmt lays it out.
    decl: String,
    ty: String,
    default: String,
    /// The statement of `encode_raw` that writes the field.
    encode_raw: String,
    /// `name: if body.is_empty() {` in `decode_raw`.
    head: String,
    /// In `decode_raw`, for a field absent from an older body: the charge
    /// of its string default.
    raw_charge_default: Option<String>,
    /// In `decode_raw`, for a present field: its `@max` check and the
    /// charge for its box.
    raw_checks: Vec<String>,
    /// In `decode_raw`: the present field's value.
    raw_value: String,
    /// [`raw_charge_default`](Self::raw_charge_default) in `decode_into_raw`.
    into_charge_default: Option<String>,
    /// [`raw_checks`](Self::raw_checks) in `decode_into_raw`.
    into_checks: Vec<String>,
    /// The statement that gives the field its default in `decode_into_raw`:
    /// for a boxed field it assigns inside the existing box.
    reset: String,
    /// The `decode_into_raw` statement that decodes the present field.
    field_into: String,
}

#[derive(Serialize)]
struct EnumView {
    #[serde(flatten)]
    common: Common,
    base: String,
    size: u32,
    /// The `fixed_codec!` statement.
    fixed_codec: String,
    /// Attribute lines before the `Unknown` variant.
    unknown_attrs: Vec<String>,
    /// ` = n` after `Unknown(..)`, or empty (see `enum_view`).
    unknown_discriminant: String,
    /// Whether some number of the base has no name, so that `from_raw`
    /// needs an arm for `Unknown` (without one an unreachable pattern).
    has_unnamed: bool,
    values: Vec<EnumValueView>,
}

#[derive(Serialize)]
struct EnumValueView {
    /// The default value.
    first: bool,
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    name: String,
    value: String,
    /// ` = value` after the variant's name, or empty (see `enum_view`).
    discriminant: String,
}

#[derive(Serialize)]
struct UnionView {
    #[serde(flatten)]
    common: Common,
    tag_ty: String,
    tag_width: u32,
    header_len: u32,
    /// The `Writer` method that stores a tag.
    put_tag: String,
    tag_from_wire: String,
    /// Lines that return `Unknown` with the tag and the `kept` body (laid
    /// out as rustfmt does: on one line when it fits).
    unknown_ok: Vec<String>,
    /// Lines that switch a union value to `Unknown` with the tag and the
    /// `kept` body.
    set_unknown: Vec<String>,
    first: String,
    /// The body of `Default::default()`: the first variant with its default.
    first_default: String,
    /// The match arms of `check_at` for variants whose payload holds a
    /// message or union to check.
    limited: Vec<String>,
    /// The variants `encode_into` appends in one step; when there are none,
    /// the union keeps the default `encode_into`.
    fixed_appends: Vec<FixedAppend>,
    /// `Unknown { tag, body }` on one line (see [`unknown_on_one_line`]).
    unknown_one_line: bool,
    variants: Vec<VariantView>,
}

/// A variant whose payload is fixed-size, so that its whole encoding is a
/// constant header and the payload, and there is nothing in it to check.
#[derive(Clone, Serialize)]
struct FixedAppend {
    pattern: String,
    /// What the header holds.
    comment: String,
    /// The header as a Rust array expression.
    header: String,
}

/// `bytes` as a Rust array expression: `[50, 0, 0, 0, 1, 1]`.
fn byte_array(bytes: &[u8]) -> String {
    let bytes: Vec<String> = bytes.iter().map(u8::to_string).collect();
    format!("[{}]", bytes.join(", "))
}

#[derive(Serialize)]
struct VariantView {
    doc: Vec<String>,
    /// `#[deprecated..]`, when deprecated.
    deprecated: Option<String>,
    /// Attribute lines before the variant.
    attrs: Vec<String>,
    name: String,
    /// The variant's declaration.
    decl: String,
    /// The match arm of `encoded_len`.
    len_arm: String,
    /// The statements that decode the payload into `v` in `decode_raw`.
    decode_value: Vec<String>,
    /// The statements that decode the payload into the existing `v` in
    /// `decode_into_raw`.
    decode_into_value: Vec<String>,
    /// The statement of `decode_into_raw` that switches to the variant.
    decode_variant: String,
    /// The statement of `decode_into_raw` that stores a decoded boxed
    /// variant.
    set_variant: String,
    /// The payload is large ([`DECODE_IN_PLACE_MIN`]): `decode_into_raw`
    /// switches to the variant with a placeholder payload
    /// (`set_placeholder`), then decodes into it (`if_placed`).
    placed: bool,
    set_placeholder: String,
    if_placed: String,
    tag: String,
    /// The charge for a boxed variant's box, a statement.
    charge_boxed: Option<String>,
    /// The payload is fixed-size: decoded straight from the frame's bytes
    /// (`Reader::fixed_variant`), with no sub-reader to set up and finish.
    fixed_payload: bool,
    /// Set when the whole encoding is a constant header and the payload.
    #[serde(skip)]
    fixed_append: Option<FixedAppend>,
    /// The lines of `encode_raw` before the payload: a fixed-size payload
    /// has its whole header stored at once (its length is known), any other
    /// a length placeholder and the tag.
    encode_head: Vec<String>,
    /// The lines after the payload: the placeholder filled in, if any.
    encode_tail: Vec<String>,
}

/// A call statement at `indent` spaces laid out as rustfmt lays it out: on
/// one line when its arguments take at most 60 columns (rustfmt's
/// `fn_call_width`) and the line at most 100, else one argument per line
/// with a trailing comma. Names in the schema have no length limit, so the
/// layout depends on them and is decided here, not in a template.
fn call_statement(indent: usize, callee: &str, args: &[String], tail: &str) -> String {
    let pad = " ".repeat(indent);
    let joined = args.join(", ");
    let line = format!("{pad}{callee}({joined}){tail}");
    // rustfmt lets a lone string literal argument run past the 60 columns
    // of call arguments while the line fits.
    let lone_string = matches!(args, [a] if a.starts_with('"') && a.ends_with('"'));
    if (joined.len() <= 60 || lone_string) && line.chars().count() <= 100 {
        return line;
    }
    let mut out = format!("{pad}{callee}(\n");
    for a in args {
        out.push_str(&format!("{pad}    {a},\n"));
    }
    out.push_str(&format!("{pad}){tail}"));
    out
}

/// A type as rustfmt lays it out on a line that starts with `lead` at
/// `indent` columns and ends with `tail`: on that line when it fits 100
/// columns; else, when `may_move`, alone on the next line, indented once
/// more, if it fits there; else broken at its generic arguments, one per
/// line with a trailing comma, each laid out the same way. (A declaration's
/// type has no length limit: schema names have none, and types nest.)
fn type_lines(indent: usize, lead: &str, ty: &str, tail: &str, may_move: bool) -> Vec<String> {
    let width = |s: &str| s.chars().count();
    let pad = " ".repeat(indent);
    let one = format!("{pad}{lead}{ty}{tail}");
    if width(&one) <= 100 {
        return vec![one];
    }
    let moved = may_move && !lead.is_empty();
    if moved {
        let next = format!("{pad}    {ty}{tail}");
        if width(&next) <= 100 {
            return vec![format!("{pad}{}", lead.trim_end()), next];
        }
    }
    let Some((head, args)) = generic_args(ty) else {
        // `[T; N]` is broken inside `T`, the brackets staying on its first
        // and last lines.
        return match array_parts(ty) {
            Some((elem, n)) if generic_args(elem).is_some() || array_parts(elem).is_some() => {
                type_lines(
                    indent,
                    &format!("{lead}["),
                    elem,
                    &format!("; {n}]{tail}"),
                    false,
                )
            }
            _ => vec![one],
        };
    };
    let same = format!("{pad}{lead}{head}<");
    let (mut out, inner) = if width(&same) <= 100 || !moved {
        (vec![same], indent)
    } else {
        (
            vec![
                format!("{pad}{}", lead.trim_end()),
                format!("{pad}    {head}<"),
            ],
            indent + 4,
        )
    };
    for a in args {
        out.extend(type_lines(inner + 4, "", a, ",", false));
    }
    out.push(format!("{}>{tail}", " ".repeat(inner)));
    out
}

/// `[T; N]` as `T` and `N`.
fn array_parts(ty: &str) -> Option<(&str, &str)> {
    let inner = ty.strip_prefix('[')?.strip_suffix(']')?;
    let mut depth = 0usize;
    let mut split = None;
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.checked_sub(1)?,
            ';' if depth == 0 => split = Some(i),
            _ => {}
        }
    }
    let i = split?;
    Some((inner[..i].trim(), inner[i + 1..].trim()))
}

/// `Head<a, b>` as `Head` and its top-level arguments; `None` for a type
/// without arguments of its own (`u8`, `&'a str`, `[T; 4]`).
fn generic_args(ty: &str) -> Option<(&str, Vec<&str>)> {
    if ty.starts_with(['[', '&', '(']) {
        return None;
    }
    let open = ty.find('<')?;
    let inner = ty.strip_suffix('>')?.get(open + 1..)?;
    let mut args = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(inner[start..].trim());
    Some((&ty[..open], args))
}

/// A union variant's declaration, `Name(Type),` at 4 columns, as rustfmt
/// lays it out.
fn variant_decl(name: &str, ty: &str) -> String {
    let one = format!("    {name}({ty}),");
    if one.chars().count() <= 100 {
        return one;
    }
    let mut lines = vec![format!("    {name}(")];
    lines.extend(type_lines(8, "", ty, ",", false));
    lines.push("    ),".to_string());
    lines.join("\n")
}

/// Whether a union's `Unknown { tag, body }` variant goes on one line, as
/// rustfmt decides: it lays out an enum's struct variants on one line when
/// their fields fit, unless the enum mixes variants of one line with
/// variants of several (a doc comment or attribute counts as a line), when
/// it writes them one field per line. `Unknown` has a doc comment, so it is
/// on one line exactly when every other variant takes several lines too.
fn unknown_on_one_line(multiline: impl IntoIterator<Item = bool>) -> bool {
    multiline.into_iter().all(|m| m)
}

/// A macro call statement laid out as rustfmt lays it out: as
/// [`call_statement`], but without a trailing comma when broken.
fn macro_statement(indent: usize, callee: &str, args: &[String]) -> String {
    let one = call_statement(indent, callee, args, ";");
    if !one.contains('\n') {
        return one;
    }
    let pad = " ".repeat(indent);
    let lines: Vec<String> = args.iter().map(|a| format!("{pad}    {a}")).collect();
    format!("{pad}{callee}(\n{}\n{pad});", lines.join(",\n"))
}

/// `lhs sep rhs` at `indent` spaces: on one line when it fits rustfmt's 100
/// columns, else `rhs` on the next line, indented once more (a struct
/// field initialiser with `sep` `": "`, or an assignment with `" = "`).
fn split_line(indent: usize, lhs: &str, sep: &str, rhs: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{lhs}{sep}{rhs}");
    if line.chars().count() <= 100 {
        return line;
    }
    format!("{pad}{lhs}{}\n{pad}    {rhs}", sep.trim_end())
}

/// An expression (a default value: calls, closures, literals) at `indent`
/// columns between `lead` and `tail`, laid out as rustfmt lays it out: on
/// one line when every argument list takes at most 60 columns (rustfmt's
/// `fn_call_width`) and the line at most 100; else, when `may_move`, alone
/// on the next line if it fits there; else a call's closure argument
/// `|_| body` becomes a block, a call whose only argument is a call hands
/// its line to that argument (rustfmt's overflow of the last argument), and
/// any other argument goes on a line of its own.
fn expr_lines(indent: usize, lead: &str, expr: &str, tail: &str, may_move: bool) -> Vec<String> {
    expr_layout(indent, lead, expr, tail, may_move, true)
}

fn expr_layout(
    indent: usize,
    lead: &str,
    expr: &str,
    tail: &str,
    may_move: bool,
    may_be_flat: bool,
) -> Vec<String> {
    let width = |s: &str| s.chars().count();
    let pad = " ".repeat(indent);
    let flat = flat_fits(expr);
    let one = format!("{pad}{lead}{expr}{tail}");
    if may_be_flat && flat && width(&one) <= 100 {
        return vec![one];
    }
    if may_move && flat && !lead.trim().is_empty() {
        let next = format!("{pad}    {expr}{tail}");
        if width(&next) <= 100 {
            return vec![format!("{pad}{}", lead.trim_end()), next];
        }
    }
    if let Some((callee, arg)) = single_call(expr) {
        if let Some(body) = arg.strip_prefix("|_| ") {
            let mut out = vec![format!("{pad}{lead}{callee}(|_| {{")];
            out.extend(expr_layout(indent + 4, "", body, "", false, true));
            out.push(format!("{pad}}}){tail}"));
            return out;
        }
        if single_call(arg).is_some() {
            // The argument, formatted on this line, may not be flat: the
            // call's own arguments would then pass 60 columns.
            let lead = format!("{lead}{callee}(");
            return expr_layout(indent, &lead, arg, &format!("){tail}"), false, false);
        }
        let alone = format!("{pad}    {arg},");
        if flat_fits(arg) && width(&alone) <= 100 {
            return vec![
                format!("{pad}{lead}{callee}("),
                alone,
                format!("{pad}){tail}"),
            ];
        }
    }
    // Nothing fits (a long name or string): the value after the lead's
    // line break, as rustfmt would place it if it fitted.
    if may_move && !lead.trim().is_empty() {
        return vec![
            format!("{pad}{}", lead.trim_end()),
            format!("{pad}    {expr}{tail}"),
        ];
    }
    vec![one]
}

/// Whether rustfmt keeps `expr` on one line as far as its argument lists
/// and array expressions go: each at most 60 columns.
fn flat_fits(expr: &str) -> bool {
    let mut open: Vec<usize> = Vec::new();
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in expr.char_indices() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' => open.push(i),
            ')' | ']' => {
                if let Some(start) = open.pop() {
                    if expr[start + 1..i].chars().count() > 60 {
                        return false;
                    }
                }
            }
            _ => {}
        }
    }
    true
}

/// `callee(arg)` as its callee and its one argument, when `expr` is a call
/// of one argument (not `a(b)(c)`, not `x + f(y)`).
fn single_call(expr: &str) -> Option<(&str, &str)> {
    let body = expr.strip_suffix(')')?;
    let open = expr.find('(')?;
    let callee = &expr[..open];
    if callee.is_empty() || callee.contains([' ', '|', '"', '[']) {
        return None;
    }
    let arg = &body[open + 1..];
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for c in arg.chars() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '<' => depth += 1,
            ')' | ']' | '>' => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
            }
            ',' if depth == 0 => return None,
            _ => {}
        }
    }
    (depth == 0 && !in_str).then_some((callee, arg))
}

/// The body of a `Default::default()` that builds `Self { name: value, … }`:
/// on one line when the fields take at most 18 columns (rustfmt's
/// `struct_lit_width`), else a field per line, each value laid out by
/// [`expr_lines`].
fn default_body(fields: &[(String, String)]) -> Vec<String> {
    let body: Vec<String> = fields.iter().map(|(n, v)| format!("{n}: {v}")).collect();
    let body = body.join(", ");
    let one = format!("        Self {{ {body} }}");
    if body.chars().count() <= 18 && flat_fits(&body) && one.chars().count() <= 100 {
        return vec![one];
    }
    let mut out = vec!["        Self {".to_string()];
    for (name, value) in fields {
        out.extend(expr_lines(12, &format!("{name}: "), value, ",", true));
    }
    out.push("        }".to_string());
    out
}

/// The body of a union's `Default::default()`: `Self::First(default)`.
fn union_default(first: &str, default: &str) -> String {
    expr_lines(8, "", &format!("Self::{first}({default})"), "", false).join("\n")
}

/// A match arm `pat => expr,`, or as a block when it does not fit.
fn match_arm(indent: usize, pat: &str, expr: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{pat} => {expr},");
    if line.chars().count() <= 100 {
        return line;
    }
    format!("{pad}{pat} => {{\n{pad}    {expr}\n{pad}}}")
}

/// An `if cond {` line, with the brace on a line of its own when the
/// line would pass 100 columns, as rustfmt does.
fn if_head(indent: usize, head: &str) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}{head} {{");
    if line.chars().count() <= 100 {
        return line;
    }
    format!("{pad}{head}\n{pad}{{")
}

/// The smallest number of `base` that no value of the enum has.
fn unused_value(base: Prim, values: &[EnumValue]) -> Option<u64> {
    let used: std::collections::BTreeSet<u64> = values.iter().map(|v| v.value).collect();
    let max = match base.size() {
        1 => u64::from(u8::MAX),
        2 => u64::from(u16::MAX),
        _ => u64::from(u32::MAX),
    };
    // At most `values.len() + 1` numbers need looking at.
    (0..=max).find(|n| !used.contains(n))
}

/// The `fixed_codec!` line of a fixed-size type.
fn fixed_codec_line(name: &str, memory: u64, align: u32) -> String {
    macro_statement(
        0,
        "::pkt_runtime::fixed_codec!",
        &[
            name.to_string(),
            format!("memory = {memory}"),
            format!("align = {align}"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_takes_the_smallest_number_no_value_has() {
        let values = |numbers: &mut dyn Iterator<Item = u64>| -> Vec<EnumValue> {
            numbers
                .map(|value| EnumValue {
                    name: format!("V{value}"),
                    doc: Vec::new(),
                    value,
                    deprecated: false,
                    deprecated_note: None,
                    span: crate::diag::Span::default(),
                })
                .collect()
        };
        assert_eq!(
            unused_value(Prim::U8, &values(&mut [1, 2].into_iter())),
            Some(0)
        );
        assert_eq!(unused_value(Prim::U8, &values(&mut (0..3))), Some(3));
        assert_eq!(unused_value(Prim::U8, &values(&mut (0..=255))), None);
        assert_eq!(unused_value(Prim::U16, &values(&mut (0..=255))), Some(256));
        assert_eq!(
            unused_value(Prim::U32, &values(&mut [0, 1, 4_000_000_000].into_iter())),
            Some(2)
        );
    }

    #[test]
    fn tidy_collapses_blank_runs_and_trims_before_closing_braces() {
        assert_eq!(tidy("a {\n\n    b\n\n\n}\n\n"), "a {\n    b\n}\n");
        assert_eq!(
            tidy("struct E {\n}\nx(Self {\n    })\n"),
            "struct E {}\nx(Self {})\n"
        );
    }
}
