//! Adding a language, in miniature: a backend that writes, per schema file,
//! the list of its types. It uses only the public seam of the `pktc` library
//! (`emit::Backend`, `emit::generate_with`, `emit::Templates`,
//! `names::Naming`) and touches neither the checker nor the other backends;
//! the shared walker gives it the per-file loop, the output file names with
//! their collision rule, and its extra file, and `sema::check_names` holds
//! schemas to its naming rules.

mod common;

use std::path::PathBuf;

use pktc::emit::{generate_with, Backend, GenOptions, GeneratedFile, OutputFile, Templates};
use pktc::ir::{Ir, TypeId, TypeKind};
use pktc::names::{self, NameKind, Naming};
use serde::Serialize;

/// The "type list" language.
struct TypeList;

/// Its names: types in PascalCase, everything else in snake_case, `type` a
/// keyword escaped as `_type`, and a member named like a generated one
/// renamed with `_value`.
const NAMING: Naming = Naming {
    language: "type list",
    convert: |kind, name| match kind {
        NameKind::Type | NameKind::Variant => names::upper_camel(name),
        NameKind::Field | NameKind::Const => names::snake(name),
    },
    keywords: &["type"],
    escape: "_",
    unescapable: &[],
    members: &[],
    inherited_members: &[],
    variant_members: &[],
    enum_members: &[],
    rename_suffix: "_value",
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
    // The index file it writes besides one file per schema file.
    reserved_stems: &["index"],
    namespace_hides_type: None,
};

/// What every file shares: the IR and the templates.
struct Cx<'ir> {
    ir: &'ir Ir,
    templates: Templates,
}

#[derive(Serialize)]
struct TypeView<'a> {
    kind: &'a str,
    name: String,
    members: usize,
}

#[derive(Serialize)]
struct FileView<'a> {
    source: &'a str,
    namespace: String,
    items: Vec<String>,
}

#[derive(Serialize)]
struct IndexView {
    files: Vec<String>,
}

impl Backend for TypeList {
    type Cx<'ir> = Cx<'ir>;

    fn naming(&self) -> &Naming {
        &NAMING
    }

    fn extension(&self) -> &str {
        "types"
    }

    fn context<'ir>(&self, ir: &'ir Ir, _: &GenOptions) -> Cx<'ir> {
        Cx {
            ir,
            templates: Templates::new(&[
                ("type", "{{kind}} {{name}} ({{members}})"),
                (
                    "file",
                    "# {{source}}\nnamespace {{namespace}}\n{{#each items}}{{this}}\n{{/each}}",
                ),
                ("index", "{{#each files}}{{this}}\n{{/each}}"),
            ]),
        }
    }

    fn render_type(
        &self,
        cx: &Cx<'_>,
        _: &[OutputFile<'_>],
        _: &OutputFile<'_>,
        id: TypeId,
    ) -> String {
        let def = cx.ir.ty(id);
        let members = match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => fields.len(),
            TypeKind::Enum { values, .. } => values.len(),
            TypeKind::Union { variants, .. } => variants.len(),
        };
        cx.templates.render(
            "type",
            &TypeView {
                kind: def.kind.keyword(),
                name: NAMING.type_ident(def),
                members,
            },
        )
    }

    fn render_file(
        &self,
        cx: &Cx<'_>,
        _: &[OutputFile<'_>],
        file: &OutputFile<'_>,
        items: Vec<String>,
    ) -> String {
        let namespace = file
            .file
            .namespace
            .iter()
            .map(|s| NAMING.ident(NameKind::Field, s))
            .collect::<Vec<_>>()
            .join(".");
        cx.templates.render(
            "file",
            &FileView {
                source: &file.source,
                namespace,
                items,
            },
        )
    }

    fn extra_files(&self, cx: &Cx<'_>, files: &[OutputFile<'_>]) -> Vec<GeneratedFile> {
        let files = files.iter().map(|f| f.path.display().to_string()).collect();
        vec![GeneratedFile {
            path: PathBuf::from("index.types"),
            contents: cx.templates.render("index", &IndexView { files }),
        }]
    }
}

fn generated(schema: &str) -> Vec<GeneratedFile> {
    let checked = pktc::check_with(&[PathBuf::from(schema)], &common::RootReader)
        .unwrap_or_else(|f| panic!("{f}"));
    // The options are the shared ones; this backend reads none of them.
    generate_with(&TypeList, &checked.ir, &GenOptions::default())
}

#[test]
fn lists_the_types_of_each_file() {
    let files = generated("schemas/chat.pkt");
    let paths: Vec<String> = files.iter().map(|f| f.path.display().to_string()).collect();
    assert_eq!(paths, ["chat.types", "index.types"]);
    assert_eq!(
        files[0].contents,
        "# chat.pkt\n\
         namespace seeds.chat\n\
         message ChatPacket (3)\n\
         enum ItemKind (5)\n\
         struct ItemSlot (5)\n\
         message Inventory (2)\n"
    );
    assert_eq!(files[1].contents, "chat.types\n");
}

/// Two imported files named `common.pkt` get distinct outputs by the shared
/// rule, as in every backend.
#[test]
fn shares_the_output_naming_rule() {
    let files = generated("schemas/same_stem/top.pkt");
    let paths: Vec<String> = files.iter().map(|f| f.path.display().to_string()).collect();
    assert_eq!(
        paths,
        ["top.types", "common.types", "common_2.types", "index.types"]
    );
    assert!(
        files[0].contents.contains("message Both (2)"),
        "{}",
        files[0].contents
    );
    assert!(files[3].contents.starts_with("top.types\n"));
}

/// The checker holds a schema to the skeleton's naming rules when asked:
/// with `slots` reserved, the field `Inventory.slots` is renamed
/// `slots_value`, which is no error; a rename onto the name of another field
/// is reported as two names that become one identifier.
#[test]
fn its_naming_rules_can_be_checked() {
    let checked = pktc::check_with(&[PathBuf::from("schemas/chat.pkt")], &common::RootReader)
        .unwrap_or_else(|f| panic!("{f}"));
    let ir = &checked.ir;
    assert!(pktc::sema::check_names(ir, &[&NAMING]).is_empty());
    let mut naming = NAMING;
    naming.members = &["slots"];
    assert!(pktc::sema::check_names(ir, &[&naming]).is_empty());
    let inventory = ir
        .types
        .iter()
        .find(|d| d.name == "Inventory")
        .expect("chat.pkt declares Inventory");
    assert_eq!(
        naming.member_ident(NameKind::Field, "slots", inventory),
        "slots_value"
    );
    assert!(naming.is_renamed(NameKind::Field, "slots", inventory));
    assert_eq!(
        naming.member_ident(NameKind::Field, "owner_id", inventory),
        "owner_id"
    );
    // Renamed onto the other field's name: no identifier is left for one
    // of them.
    naming.rename_suffix = "_id";
    naming.members = &["owner"];
    assert_eq!(
        messages(&naming, "message Inventory { owner: u8, owner_id: u8 }"),
        ["`owner` and `owner_id` both become `owner_id` in type list in message `Inventory`"]
    );
    // Renamed onto another generated member: no identifier is left.
    naming.members = &["owner", "owner_id"];
    assert_eq!(
        messages(&naming, "message Inventory { owner: u8 }"),
        ["`owner` cannot be written in type list: `owner` and `owner_id` are both generated members"]
    );
}

/// The messages of the naming diagnostics of `declarations` under `naming`.
fn messages(naming: &Naming, declarations: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("pktc-skeleton-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("owner.pkt");
    std::fs::write(&path, format!("namespace t;\n{declarations}\n")).expect("write schema");
    let checked = pktc::check(&[path]);
    std::fs::remove_dir_all(&dir).expect("remove scratch dir");
    let checked = checked.unwrap_or_else(|f| panic!("{f}"));
    pktc::sema::check_names(&checked.ir, &[naming])
        .into_iter()
        .map(|d| d.message)
        .collect()
}
