//! Every member a template generates is on its backend's reserved list (its
//! `Naming`, which the checker holds schema names against). A template that
//! gains a member fails here until the member is reserved, so a schema name
//! can never collide with it in generated code; the last tests show the
//! check fails when a reserved name is missing.

mod common;

use std::collections::HashSet;

use pktc::emit::{generate, GenOptions};
use pktc::ir::{Ir, TypeDef, TypeKind};
use pktc::names::{self, Lang, NameKind, Naming, UNKNOWN};

/// The example schemas, and `schemas/stable`, whose union of another file's
/// messages is the one with a `PktMemoryParts` class.
fn checked_ir() -> Ir {
    let mut schemas = common::schemas_in("schemas");
    schemas.push("schemas/stable/v2/game.pkt".into());
    pktc::check_with(&schemas, &common::RootReader)
        .unwrap_or_else(|f| panic!("{f}"))
        .ir
}

/// A class, struct or enum declared in generated C#, with the names of the
/// members declared directly in it (nested types included).
#[derive(Debug)]
struct CsType {
    name: String,
    /// The enclosing generated type, for nested classes.
    parent: Option<String>,
    members: Vec<String>,
    /// The members with at least one declaration that IntelliSense shows
    /// (not marked `[EditorBrowsable(EditorBrowsableState.Never)]`).
    visible: HashSet<String>,
    /// The type itself is marked `[EditorBrowsable(EditorBrowsableState.Never)]`.
    hidden: bool,
}

/// The attribute that hides a declaration from IntelliSense.
const HIDDEN: &str = "EditorBrowsableState.Never";

const ACCESS: [&str; 4] = ["public ", "private ", "internal ", "protected "];

/// The declarations of generated C#, read line by line: the templates put
/// every declaration on a line of its own that starts with its access
/// modifier, and braces on lines that balance.
fn csharp_types(text: &str) -> Vec<CsType> {
    let mut types: Vec<CsType> = Vec::new();
    // (index into `types`, brace depth of its body)
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut pending: Option<usize> = None;
    // The attribute lines since the last declaration hide the next one.
    let mut hidden = false;
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("").trim();
        if code.starts_with('[') {
            hidden |= code.contains(HIDDEN);
            continue;
        }
        let declares = ACCESS.iter().any(|a| code.starts_with(a));
        if declares && open.last().is_some_and(|&(_, d)| d == depth) {
            let (owner, _) = *open.last().expect("checked");
            if let Some(name) = member_name(code) {
                if name != types[owner].name {
                    if !hidden {
                        types[owner].visible.insert(name.clone());
                    }
                    types[owner].members.push(name);
                }
            }
        }
        if declares {
            if let Some(name) = type_name(code) {
                let parent = open.last().map(|&(i, _)| types[i].name.clone());
                types.push(CsType {
                    name,
                    parent,
                    members: Vec::new(),
                    visible: HashSet::new(),
                    hidden,
                });
                pending = Some(types.len() - 1);
            }
        }
        if !code.is_empty() {
            hidden = false;
        }
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    if let Some(i) = pending.take() {
                        open.push((i, depth));
                    }
                }
                '}' => {
                    if open.last().is_some_and(|&(_, d)| d == depth) {
                        open.pop();
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
    }
    types
}

/// `Name` of `public sealed partial class Name : Base`.
fn type_name(code: &str) -> Option<String> {
    let words: Vec<&str> = code.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| matches!(*w, "class" | "struct" | "enum"))?;
    // `PktMap<K, V>` is `PktMap`.
    let name = words.get(at + 1)?.split('<').next()?;
    Some(
        name.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_')
            .to_string(),
    )
}

/// The name a member declaration declares: the identifier before the first
/// `(`, `=`, `;` or `{`, or the name of a nested type.
fn member_name(code: &str) -> Option<String> {
    if let Some(name) = type_name(code) {
        return Some(name);
    }
    // `public static bool operator ==(A a, A b)` names no member.
    if code.split_whitespace().any(|w| w == "operator") {
        return None;
    }
    let end = code.find(['(', '=', ';', '{'])?;
    let before = code[..end].trim_end();
    let name: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '@')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!name.is_empty()).then_some(name)
}

fn cs_type_name(def: &TypeDef) -> String {
    names::type_ident(Lang::CSharp, def)
}

/// Members of generated C# that the schema did not name and `naming` does
/// not reserve, as `file: Type.Member`; and every generated member found.
fn unreserved_csharp(ir: &Ir, naming: &Naming) -> (Vec<String>, HashSet<String>) {
    let mut options = GenOptions::new(Lang::CSharp);
    options.runtime = false;
    let generic: HashSet<&str> = naming
        .members
        .iter()
        .chain(naming.inherited_members)
        .copied()
        .collect();
    let for_variants: HashSet<&str> = generic
        .iter()
        .copied()
        .chain(naming.variant_members.iter().copied())
        .collect();
    let for_union_names: HashSet<&str> = generic
        .iter()
        .copied()
        .chain(naming.union_own_members.iter().copied())
        .collect();
    let mut found = HashSet::new();
    let mut unreserved = Vec::new();
    let generated = generate(ir, &options);
    assert_eq!(
        generated.len(),
        ir.files.len(),
        "one C# file per schema file"
    );
    for (file, schema_file) in generated.iter().zip(&ir.files) {
        let declared: Vec<&TypeDef> = schema_file.types.iter().map(|&id| ir.ty(id)).collect();
        let types = csharp_types(&file.contents);
        for t in &types {
            let def = declared
                .iter()
                .copied()
                .find(|d| cs_type_name(d) == t.name && !matches!(d.kind, TypeKind::Enum { .. }));
            let parent_union = t.parent.as_ref().and_then(|p| {
                declared
                    .iter()
                    .copied()
                    .find(|d| cs_type_name(d) == *p && matches!(d.kind, TypeKind::Union { .. }))
            });
            let (schema, reserved): (HashSet<String>, Vec<&HashSet<&str>>) =
                match (parent_union, def.map(|d| &d.kind)) {
                    // The catch-all class declares nothing a schema names:
                    // variant classes are its siblings, not its members.
                    (Some(_), _) if t.name == UNKNOWN => {
                        found.extend(t.members.iter().cloned());
                        continue;
                    }
                    // The union's largest payloads so far, one constant
                    // per variant, named after it, in a class of their own.
                    (Some(u), _) if t.name == "PktMemoryParts" => {
                        let TypeKind::Union { variants, .. } = &u.kind else {
                            unreachable!("matched a union")
                        };
                        let variants: HashSet<String> = variants
                            .iter()
                            .map(|v| naming.member_ident(NameKind::Variant, &v.name, u))
                            .collect();
                        for m in &t.members {
                            if !variants.contains(m) {
                                unreserved.push(format!("{}: {}.{m}", file.path.display(), t.name));
                            }
                        }
                        continue;
                    }
                    // A variant class nested in its union.
                    (Some(_), _) => (HashSet::new(), vec![&for_variants]),
                    (None, Some(TypeKind::Struct { fields }))
                    | (None, Some(TypeKind::Message { fields, .. })) => {
                        let def = def.expect("matched");
                        let own = fields
                            .iter()
                            .map(|f| naming.member_ident(NameKind::Field, &f.name, def))
                            .collect();
                        (own, vec![&generic])
                    }
                    (None, Some(TypeKind::Union { variants, .. })) => {
                        let def = def.expect("matched");
                        let own = variants
                            .iter()
                            .map(|v| naming.member_ident(NameKind::Variant, &v.name, def))
                            .collect();
                        (own, vec![&for_variants, &for_union_names])
                    }
                    // Constants classes, enums and key orders hold no
                    // generated member a schema name could meet.
                    _ => continue,
                };
            for m in &t.members {
                if schema.contains(m) {
                    continue;
                }
                for list in &reserved {
                    if !(list.contains(m.as_str()) || (m == UNKNOWN && list == &&for_variants)) {
                        unreserved.push(format!("{}: {}.{m}", file.path.display(), t.name));
                    }
                }
                found.insert(m.clone());
            }
        }
    }
    (unreserved, found)
}

#[test]
fn every_generated_csharp_member_is_reserved() {
    let naming = Lang::CSharp.naming();
    let (unreserved, generated) = unreserved_csharp(&checked_ir(), naming);
    assert!(
        unreserved.is_empty(),
        "generated but not reserved in the C# backend's Naming: {unreserved:?}"
    );
    assert_reserved_are_generated(naming, &generated);
}

/// The converse: every member a backend reserves as generated is generated
/// on some type of the example schemas, so the lists cannot keep names that
/// no template generates any more, which would forbid them for nothing.
fn assert_reserved_are_generated(naming: &Naming, generated: &HashSet<String>) {
    for list in [
        naming.members,
        naming.variant_members,
        naming.union_own_members,
        naming.enum_members,
    ] {
        for m in list {
            assert!(
                generated.contains(*m),
                "{} reserves {m}, which no template generates: {generated:?}",
                naming.language
            );
        }
    }
}

/// The check is not vacuous: without `Encode` and `Tag` on the reserved
/// lists, it finds them generated.
#[test]
fn an_unreserved_csharp_member_is_found() {
    let real = Lang::CSharp.naming();
    let mut naming = *real;
    naming.members = without(real.members, "Encode");
    naming.variant_members = without(real.variant_members, "Tag");
    naming.union_own_members = without(real.union_own_members, "Tag");
    let (unreserved, _) = unreserved_csharp(&checked_ir(), &naming);
    assert!(
        unreserved.iter().any(|u| u.ends_with(".Encode")),
        "{unreserved:?}"
    );
    assert!(
        unreserved.iter().any(|u| u.ends_with(".Tag")),
        "{unreserved:?}"
    );
}

/// `list` without `name`, as the `'static` list a `Naming` holds.
fn without(list: &[&'static str], name: &str) -> &'static [&'static str] {
    assert!(list.contains(&name), "{name} is not in {list:?}");
    list.iter()
        .copied()
        .filter(|n| *n != name)
        .collect::<Vec<_>>()
        .leak()
}

/// The Rust items a template declares: struct fields, enum variants and
/// inherent functions, with whether the item is a function.
fn rust_members(text: &str) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut current: Option<(String, &str)> = None;
    for line in text.lines() {
        let code = line.trim();
        if code.is_empty() || code.starts_with("//") || code.starts_with("#[") {
            continue;
        }
        if !line.starts_with(' ') {
            current = None;
            let words: Vec<&str> = code.split_whitespace().collect();
            // `ChatView<'a>` is `ChatView`.
            let bare = |w: &str| w.split('<').next().unwrap_or(w).to_string();
            match words.as_slice() {
                ["pub", "struct", name, ..] => current = Some((bare(name), "struct")),
                ["pub", "enum", name, ..] => current = Some((bare(name), "enum")),
                // Inherent impls (`impl X {`, `impl<'a> XView<'a> {`), not
                // trait impls.
                [first, .., name, "{"]
                    if (*first == "impl" || first.starts_with("impl<"))
                        && !words.contains(&"for") =>
                {
                    current = Some((bare(name), "impl"))
                }
                _ => {}
            }
            continue;
        }
        let Some((owner, kind)) = &current else {
            continue;
        };
        // Direct members only: four spaces of indentation.
        if line.starts_with("     ") {
            continue;
        }
        let name = match *kind {
            "struct" => code
                .strip_prefix("pub ")
                .and_then(|r| r.split(':').next())
                .map(str::to_string),
            "enum" => Some(
                code.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>(),
            ),
            // `pub fn view<'a>(` declares `view`.
            _ => code
                .strip_prefix("pub const fn ")
                .or_else(|| code.strip_prefix("pub fn "))
                .map(|r| {
                    r.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '#')
                        .collect()
                }),
        };
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            let name = name.trim_start_matches("r#").to_string();
            out.push((owner.clone(), name, *kind == "impl"));
        }
    }
    out
}

/// Fields and variants of generated Rust that the schema did not name and
/// `naming` does not reserve, as `file: Owner::member`; and every generated
/// field and variant found. Inherent functions are not compared: Rust keeps
/// methods apart from fields, and enum values and union variants
/// (UpperCamelCase) never meet their snake_case names, which the last
/// check here holds.
fn unreserved_rust(ir: &Ir, naming: &Naming) -> (Vec<String>, HashSet<String>) {
    let mut schema: HashSet<String> = HashSet::new();
    for def in &ir.types {
        let (kind, names): (NameKind, Vec<&str>) = match &def.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => (
                NameKind::Field,
                fields.iter().map(|f| f.name.as_str()).collect(),
            ),
            TypeKind::Union { variants, .. } => (
                NameKind::Variant,
                variants.iter().map(|v| v.name.as_str()).collect(),
            ),
            TypeKind::Enum { values, .. } => (
                NameKind::Variant,
                values.iter().map(|v| v.name.as_str()).collect(),
            ),
        };
        schema.extend(names.into_iter().map(|n| naming.member(kind, n, def)));
    }
    let mut unreserved = Vec::new();
    let mut generated = HashSet::new();
    for file in generate(ir, &GenOptions::new(Lang::Rust)) {
        for (owner, name, function) in rust_members(&file.contents) {
            if function {
                if name.starts_with(|c: char| c.is_uppercase()) {
                    unreserved.push(format!("{}: {owner}::{name}()", file.path.display()));
                }
                continue;
            }
            if schema.contains(&name) {
                continue;
            }
            let reserved = [
                naming.members,
                naming.inherited_members,
                naming.enum_members,
            ]
            .iter()
            .any(|l| l.contains(&name.as_str()));
            if !reserved {
                unreserved.push(format!("{}: {owner}::{name}", file.path.display()));
            }
            generated.insert(name);
        }
    }
    (unreserved, generated)
}

#[test]
fn every_generated_rust_member_is_reserved() {
    let naming = Lang::Rust.naming();
    let (unreserved, generated) = unreserved_rust(&checked_ir(), naming);
    assert!(
        unreserved.is_empty(),
        "generated but not reserved in the Rust backend's Naming: {unreserved:?}"
    );
    assert_reserved_are_generated(naming, &generated);
}

/// The converse check is not vacuous: a reserved name no template
/// generates is found.
#[test]
fn a_reserved_member_no_template_generates_is_found() {
    let real = Lang::CSharp.naming();
    let mut naming = *real;
    naming.members = real
        .members
        .iter()
        .copied()
        .chain(["MinSize"])
        .collect::<Vec<_>>()
        .leak();
    let (_, generated) = unreserved_csharp(&checked_ir(), real);
    let failed = std::panic::catch_unwind(|| assert_reserved_are_generated(&naming, &generated));
    let message = failed.expect_err("MinSize is not generated");
    let text = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(text.contains("reserves MinSize"), "{text}");
}

/// The check is not vacuous: without `Unknown` on the reserved lists, it
/// finds the variant generated.
#[test]
fn an_unreserved_rust_member_is_found() {
    let real = Lang::Rust.naming();
    let mut naming = *real;
    naming.members = without(real.members, UNKNOWN);
    naming.enum_members = without(real.enum_members, UNKNOWN);
    let (unreserved, _) = unreserved_rust(&checked_ir(), &naming);
    assert!(
        unreserved.iter().any(|u| u.ends_with("::Unknown")),
        "{unreserved:?}"
    );
}

#[test]
fn the_rust_reader_finds_inherent_members() {
    let text = "pub struct Chat {\n    pub text: String,\n}\n\nimpl Chat {\n    pub fn view<'a>(bytes: &'a [u8]) -> u8 {\n        0\n    }\n}\n\nimpl<'a> ChatView<'a> {\n    pub fn to_owned(&self) -> Chat {\n        todo!()\n    }\n    pub fn r#type(&self) -> u8 {\n        0\n    }\n}\n\nimpl ::pkt_runtime::Encode for Chat {\n    pub fn encode(&self) {}\n}\n";
    assert_eq!(
        rust_members(text),
        [
            ("Chat".to_string(), "text".to_string(), false),
            ("Chat".to_string(), "view".to_string(), true),
            ("ChatView".to_string(), "to_owned".to_string(), true),
            ("ChatView".to_string(), "type".to_string(), true),
        ]
    );
}

#[test]
fn the_csharp_reader_finds_declarations() {
    let text = "public sealed partial class Health\n{\n    public ushort HealthValue;\n\n    public int GetEncodedSize()\n    {\n        int n = 4;\n        return n;\n    }\n    public override byte Tag { get { return 1; } }\n    public static bool operator ==(Health a, Health b) { return true; }\n    public sealed class Inner : Health\n    {\n        public Inner() { }\n        public int Value;\n    }\n}\n";
    let types = csharp_types(text);
    assert_eq!(types.len(), 2, "{types:?}");
    assert_eq!(
        types[0].members,
        ["HealthValue", "GetEncodedSize", "Tag", "Inner"]
    );
    assert_eq!(types[1].parent.as_deref(), Some("Health"));
    assert_eq!(types[1].members, ["Value"]);
}

/// Where the documentation shows C# to users: the README, the Unity
/// package's README and sample (its code too), and every page of `docs/` but the
/// architecture, which names internals for contributors.
fn csharp_docs() -> Vec<std::path::PathBuf> {
    let root = common::root();
    let mut files = vec![
        root.join("README.md"),
        root.join("runtime/csharp/README.md"),
        root.join("runtime/csharp/Samples~/Lobby/README.md"),
        root.join("runtime/csharp/Samples~/Lobby/LobbyClient.cs"),
    ];
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("architecture.md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// The C# a markdown page shows: its `csharp` code blocks and its inline
/// code spans (which name API members: `ToArray()`, `Pkt.PktFrameReader<T>`).
fn csharp_in_markdown(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(info) = line.strip_prefix("```") {
            let lang = info.split_whitespace().next().unwrap_or("");
            let block: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            if matches!(lang, "csharp" | "cs") {
                out.push(block.join("\n"));
            }
            continue;
        }
        out.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
    }
    out
}

/// The dotted chains of identifiers in C# text: `welcome.Value.Motd`,
/// `ServerMsg.ReadFrom`, `PktFrameReader`.
fn identifier_chains(code: &str) -> Vec<Vec<String>> {
    let mut chains: Vec<Vec<String>> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut after_dot = false;
    for c in code.chars().chain([' ']) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            if !after_dot && !current.is_empty() {
                chains.push(std::mem::take(&mut current));
            }
            current.push(std::mem::take(&mut word));
            after_dot = false;
        }
        if c == '.' {
            after_dot = true;
        } else if !c.is_whitespace() || !after_dot {
            after_dot = false;
            if !current.is_empty() {
                chains.push(std::mem::take(&mut current));
            }
        }
    }
    chains
}

/// The names in `chains` that the C# declarations in `types` hide from
/// IntelliSense, as `Type.Member` or `Type`: a member named after a type
/// (`ServerMsg.ReadFrom`) must have a visible declaration in that type,
/// any other member some visible declaration, and a type must be visible.
fn hidden_references(types: &[CsType], chains: &[Vec<String>]) -> Vec<String> {
    fn by_name<'t>(types: &'t [CsType], n: &str) -> Vec<&'t CsType> {
        types.iter().filter(|t| t.name == n).collect()
    }
    let mut hidden = Vec::new();
    for chain in chains {
        for (i, name) in chain.iter().enumerate() {
            let owners: Vec<&CsType> = match i {
                0 => Vec::new(),
                _ => by_name(types, &chain[i - 1])
                    .into_iter()
                    .filter(|t| t.members.contains(name))
                    .collect(),
            };
            if !owners.is_empty() {
                if !owners.iter().any(|t| t.visible.contains(name)) {
                    hidden.push(format!("{}.{name}", chain[i - 1]));
                }
                continue;
            }
            let as_type = by_name(types, name);
            if !as_type.is_empty() {
                if as_type.iter().all(|t| t.hidden) {
                    hidden.push(name.clone());
                }
                continue;
            }
            let declared = types.iter().any(|t| t.members.contains(name));
            if declared && !types.iter().any(|t| t.visible.contains(name)) {
                hidden.push(format!("*.{name}"));
            }
        }
    }
    hidden.sort();
    hidden.dedup();
    hidden
}

/// The C# declarations users can meet: the generated code of every schema
/// and of the guide's lobby, and the runtime.
fn documented_csharp_declarations() -> Vec<CsType> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("documented-api");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let guide = std::fs::read_to_string(common::root().join("docs/guide.md")).expect("guide");
    // The guide's last version of lobby.pkt.
    let mut lobby = None;
    let mut lines = guide.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("```pkt file=lobby.pkt") {
            let block: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            lobby = Some(block.join("\n"));
        }
    }
    let lobby_path = dir.join("lobby.pkt");
    std::fs::write(&lobby_path, lobby.expect("the guide's lobby.pkt")).expect("write lobby.pkt");
    let mut schemas: Vec<_> = common::schemas_in("schemas")
        .iter()
        .map(|p| common::root().join(p))
        .collect();
    schemas.push(lobby_path);
    let mut types = Vec::new();
    for schema in schemas {
        let checked = pktc::check(std::slice::from_ref(&schema)).unwrap_or_else(|f| panic!("{f}"));
        for file in generate(&checked.ir, &GenOptions::new(Lang::CSharp)) {
            types.extend(csharp_types(&file.contents));
        }
    }
    types
}

/// Everything the documentation tells a C# user to call or name is visible
/// in IntelliSense: no `[EditorBrowsable(Never)]` on it (as there was on the
/// `ServerMsg.ReadFrom` the guide passes to `PktFrameReader`).
#[test]
fn documented_csharp_members_are_visible() {
    let types = documented_csharp_declarations();
    let mut failures = Vec::new();
    let mut chains_seen = 0;
    for doc in csharp_docs() {
        let text = std::fs::read_to_string(&doc).expect("readable doc");
        let code = match doc.extension().is_some_and(|e| e == "cs") {
            true => vec![text],
            false => csharp_in_markdown(&text),
        };
        let chains: Vec<Vec<String>> = code.iter().flat_map(|c| identifier_chains(c)).collect();
        chains_seen += chains.len();
        for name in hidden_references(&types, &chains) {
            failures.push(format!("{}: {name}", doc.display()));
        }
    }
    assert!(
        chains_seen > 100,
        "only {chains_seen} names found in the docs"
    );
    assert!(
        failures.is_empty(),
        "the docs name C# members hidden by [EditorBrowsable(Never)]:\n{}",
        failures.join("\n")
    );
}

/// The check is not vacuous: a hidden member named through its type, a
/// hidden type and a hidden member named through a variable are found,
/// and a visible overload is enough.
#[test]
fn hidden_documented_members_are_found() {
    let text = "public abstract class Msg\n{\n    [global::System.ComponentModel.EditorBrowsable(global::System.ComponentModel.EditorBrowsableState.Never)]\n    public static Msg ReadFrom(ref R r)\n    {\n        return null;\n    }\n\n    /// <summary>Visible.</summary>\n    public static Msg Decode(byte[] b) { return null; }\n\n    [global::System.ComponentModel.EditorBrowsable(global::System.ComponentModel.EditorBrowsableState.Never)]\n    public static Msg Decode(ref R r) { return null; }\n\n    [global::System.ComponentModel.EditorBrowsable(global::System.ComponentModel.EditorBrowsableState.Never)]\n    public void WriteTo(ref W w) { }\n}\n\n[global::System.ComponentModel.EditorBrowsable(global::System.ComponentModel.EditorBrowsableState.Never)]\npublic ref struct R\n{\n}\n";
    let types = csharp_types(text);
    let code = "var m = Msg.ReadFrom(ref r);\nvar d = Msg.Decode(bytes);\nnew R();\nm.WriteTo(ref w);\nConsole.WriteLine(m.Tag);";
    let chains = identifier_chains(code);
    assert!(
        chains.contains(&vec!["Msg".to_string(), "ReadFrom".to_string()]),
        "{chains:?}"
    );
    assert_eq!(
        hidden_references(&types, &chains),
        ["*.WriteTo", "Msg.ReadFrom", "R"]
    );
}

/// The names a generated TypeScript module declares where a schema name
/// could meet them: its top-level declarations (`export const`, `export
/// interface`, `export type`, `import * as`, any other `const`, `let`,
/// `function` or `class` at column 0) and the properties of its interfaces
/// (each on a line of its own, `name: type;`).
fn typescript_declarations(text: &str) -> (Vec<String>, Vec<(String, String)>) {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect()
    };
    let mut top = Vec::new();
    let mut properties = Vec::new();
    let mut interface: Option<String> = None;
    for line in text.lines() {
        if let Some(name) = &interface {
            if line == "}" {
                interface = None;
            } else if let Some(p) = line.strip_prefix("    ") {
                let p = p.trim_start();
                if !p.starts_with("/**") && !p.starts_with('*') && !p.starts_with("//") {
                    properties.push((name.clone(), ident(p)));
                }
            }
            continue;
        }
        let rest = line.strip_prefix("export ").unwrap_or(line);
        for keyword in [
            "const ",
            "let ",
            "var ",
            "function ",
            "class ",
            "type ",
            "interface ",
            "import * as ",
        ] {
            if let Some(decl) = rest.strip_prefix(keyword) {
                let name = ident(decl);
                if keyword == "interface " {
                    interface = Some(name.clone());
                }
                top.push(name);
            }
        }
    }
    (top, properties)
}

/// Declarations of the TypeScript generated for `ir` that are neither a
/// schema name nor `$`-prefixed (which no schema name can be): the
/// TypeScript `Naming` reserves nothing, so there must be none.
fn unreserved_typescript(ir: &Ir) -> Vec<String> {
    let naming = Lang::TypeScript.naming();
    let outputs = pktc::emit::output_files(ir, "ts", naming.reserved_stems, None);
    let mut problems = Vec::new();
    for file in generate(ir, &GenOptions::new(Lang::TypeScript)) {
        let Some(output) = outputs.iter().find(|o| o.path == file.path) else {
            assert_eq!(file.path.to_string_lossy(), "pkt_runtime.ts");
            continue;
        };
        let (top, properties) = typescript_declarations(&file.contents);
        assert!(!top.is_empty(), "{}: no declarations", file.path.display());
        for name in top {
            let schema = ir
                .types
                .iter()
                .any(|d| naming.ident(NameKind::Type, &d.name) == name)
                || ir
                    .files
                    .iter()
                    .flat_map(|f| &f.consts)
                    .any(|c| naming.ident(NameKind::Const, &c.name) == name);
            if !schema && !name.starts_with('$') {
                problems.push(format!("{}: declares `{name}`", file.path.display()));
            }
        }
        for (interface, property) in properties {
            let def = output
                .file
                .types
                .iter()
                .map(|&id| ir.ty(id))
                .find(|d| naming.ident(NameKind::Type, &d.name) == interface)
                .unwrap_or_else(|| panic!("interface {interface} is no schema type"));
            let field = def
                .kind
                .fields()
                .iter()
                .any(|f| naming.member_ident(NameKind::Field, &f.name, def) == property);
            if !field && !property.starts_with('$') {
                problems.push(format!(
                    "{}: interface {interface} has `{property}`",
                    file.path.display()
                ));
            }
        }
    }
    problems
}

#[test]
fn every_generated_typescript_name_is_a_schema_name_or_dollar_prefixed() {
    let ir = checked_ir();
    let problems = unreserved_typescript(&ir);
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_typescript_reader_finds_declarations_and_properties() {
    let (top, properties) = typescript_declarations(
        "import * as $pkt from \"./pkt_runtime.js\";\n\
         export const MAX: number = 3;\n\
         const helper = 1;\n\
         export interface Chat {\n    /** Doc. */\n    text: string;\n    $unknownFields: globalThis.Uint8Array;\n}\n\
         export const Chat = {\n    memory: 4,\n};\n",
    );
    assert_eq!(top, ["$pkt", "MAX", "helper", "Chat", "Chat"]);
    assert_eq!(
        properties,
        [
            ("Chat".to_string(), "text".to_string()),
            ("Chat".to_string(), "$unknownFields".to_string())
        ]
    );
}

/// Every member and type a backend renames ([`Naming::member`],
/// [`Naming::type_name`]) carries its schema name in a comment right above
/// its declaration (and its attributes), in every language, and no other
/// declaration carries one. The example schemas rename members and types in
/// both languages (`schemas/reserved_names.pkt`,
/// `schemas/reserved_types.pkt`), so neither check is vacuous.
#[test]
fn renamed_members_note_their_schema_name() {
    let ir = checked_ir();
    for lang in Lang::ALL {
        let naming = lang.naming();
        let mut expected: Vec<(String, String)> = Vec::new();
        let mut types_renamed = 0;
        for def in &ir.types {
            if naming.is_type_renamed(def) {
                types_renamed += 1;
                expected.push((def.name.clone(), naming.type_ident(def)));
            }
            let members: Vec<(NameKind, &str)> = match &def.kind {
                TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => fields
                    .iter()
                    .map(|f| (NameKind::Field, f.name.as_str()))
                    .collect(),
                TypeKind::Union { variants, .. } => variants
                    .iter()
                    .map(|v| (NameKind::Variant, v.name.as_str()))
                    .collect(),
                TypeKind::Enum { values, .. } => values
                    .iter()
                    .map(|v| (NameKind::Variant, v.name.as_str()))
                    .collect(),
            };
            for (kind, name) in members {
                if naming.is_renamed(kind, name, def) {
                    expected.push((name.to_string(), naming.member_ident(kind, name, def)));
                }
            }
        }
        let mut options = GenOptions::new(lang);
        options.runtime = false;
        // Each note with the declaration below it.
        let mut noted: Vec<(String, String)> = Vec::new();
        for file in generate(&ir, &options) {
            let lines: Vec<&str> = file.contents.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if let Some(name) = line.trim().strip_prefix("// schema name: ") {
                    let decl = lines[i + 1..]
                        .iter()
                        .copied()
                        .find(|l| !l.trim_start().starts_with(['#', '[']))
                        .unwrap_or_default();
                    noted.push((name.to_string(), decl.to_string()));
                }
            }
        }
        // A language that takes no name beside members (TypeScript) renames
        // none; the others rename some member of the example schemas. Types
        // likewise, where a language reserves names for them.
        let takes_names = !(naming.members.is_empty()
            && naming.inherited_members.is_empty()
            && naming.variant_members.is_empty()
            && naming.enum_members.is_empty()
            && !naming.type_named_like_member_forbidden);
        let takes_type_names =
            !naming.prelude.is_empty() || naming.type_named_like_member_forbidden;
        assert_eq!(
            types_renamed > 0,
            takes_type_names,
            "{}: renamed {expected:?}",
            naming.language
        );
        assert_eq!(
            expected.len() > types_renamed,
            takes_names,
            "{}: renamed members {expected:?}",
            naming.language
        );
        for (name, ident) in &expected {
            let found = noted.iter().any(|(n, decl)| {
                n == name
                    && decl
                        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '#' && c != '@')
                        .any(|w| w == ident)
            });
            assert!(
                found,
                "{}: renamed `{name}` (`{ident}`) has no note above its declaration: {noted:?}",
                naming.language
            );
        }
        for (name, decl) in &noted {
            assert!(
                expected.iter().any(|(n, _)| n == name),
                "{}: `{decl}` notes `{name}`, which is not renamed",
                naming.language
            );
        }
    }
}

/// What each backend writes for the names `schemas/reserved_names.pkt`
/// and `schemas/names.pkt` use: renamed only where the language reserves
/// the name.
#[test]
fn members_are_renamed_only_where_their_language_reserves_them() {
    let ir = checked_ir();
    let def = |name: &str| {
        ir.types
            .iter()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("no type {name}"))
    };
    let cases: &[(&str, NameKind, &str, &str, &str)] = &[
        // type, kind, schema name, Rust, C#
        ("Chunk", NameKind::Field, "encode", "encode", "EncodeValue"),
        (
            "Chunk",
            NameKind::Field,
            "encoded_size",
            "encoded_size",
            "EncodedSizeValue",
        ),
        ("Chunk", NameKind::Field, "equals", "equals", "EqualsValue"),
        ("Chunk", NameKind::Field, "view", "view", "View"),
        ("Chunk", NameKind::Field, "to_owned", "to_owned", "ToOwned"),
        (
            "Kept",
            NameKind::Field,
            "unknown_fields",
            "unknown_fields_",
            "UnknownFieldsValue",
        ),
        (
            "Labelled",
            NameKind::Field,
            "view_prefix",
            "view_prefix",
            "ViewPrefix",
        ),
        (
            "Fixed",
            NameKind::Field,
            "get_hash_code",
            "get_hash_code",
            "GetHashCodeValue",
        ),
        ("Frame", NameKind::Variant, "Tag", "Tag", "TagValue"),
        ("Frame", NameKind::Variant, "Value", "Value", "ValueValue"),
        ("Op", NameKind::Variant, "ToString", "ToString", "ToString"),
        ("Health", NameKind::Field, "health", "health", "HealthValue"),
        ("Mode", NameKind::Variant, "Mode", "Mode", "Mode"),
    ];
    for &(owner, kind, name, rust, csharp) in cases {
        let owner = def(owner);
        assert_eq!(Lang::Rust.naming().member_ident(kind, name, owner), rust);
        assert_eq!(
            Lang::CSharp.naming().member_ident(kind, name, owner),
            csharp
        );
    }
}

/// docs/language.md lists every name a backend renames a member or a type
/// around, so a name added to a `Naming` list is documented.
#[test]
fn the_language_reference_lists_every_renamed_member() {
    let doc = std::fs::read_to_string(common::root().join("docs/language.md")).expect("doc");
    let names = doc
        .split("## Names")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a Names section");
    for lang in Lang::ALL {
        let naming = lang.naming();
        for list in [
            naming.members,
            naming.inherited_members,
            naming.variant_members,
            naming.enum_members,
            naming.union_own_members,
            naming.prelude,
        ] {
            let words: HashSet<&str> = names
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .collect();
            for m in list.iter().filter(|m| **m != UNKNOWN) {
                assert!(
                    words.contains(m),
                    "docs/language.md's Names section does not list {}'s `{m}`",
                    naming.language
                );
            }
        }
        assert!(
            names.contains(&format!("`{}`", naming.rename_suffix)),
            "docs/language.md does not give {}'s rename suffix",
            naming.language
        );
    }
}

/// What each backend writes for the type names `schemas/reserved_types.pkt`
/// uses: renamed only where the language reserves the name, and referred
/// to by that name from other types.
#[test]
fn types_are_renamed_only_where_their_language_reserves_them() {
    let ir = checked_ir();
    let cases: &[(&str, &str, &str)] = &[
        // schema name, Rust, C#
        ("Vec", "Vec_", "Vec"),
        ("Option", "Option_", "Option"),
        ("String", "String_", "String"),
        ("Result", "Result_", "Result"),
        ("Box", "Box_", "Box"),
        ("Default", "Default_", "Default"),
        ("FnMut", "FnMut_", "FnMut"),
        ("Encode", "Encode", "EncodeValue"),
        ("ToArray", "ToArray", "ToArrayValue"),
        ("Equals", "Equals", "EqualsValue"),
        ("Tag", "Tag", "TagValue"),
        ("Holder", "Holder", "Holder"),
    ];
    let generated = |lang| {
        let mut options = GenOptions::new(lang);
        options.runtime = false;
        generate(&ir, &options)
            .into_iter()
            .find(|f| f.path.to_string_lossy().starts_with("reserved_types."))
            .expect("reserved_types.pkt is generated")
            .contents
    };
    let (rust, csharp) = (generated(Lang::Rust), generated(Lang::CSharp));
    for &(name, in_rust, in_csharp) in cases {
        let def = ir
            .types
            .iter()
            .find(|d| d.name == name && ir.namespace_of(d) == ["test", "reserved_types"])
            .unwrap_or_else(|| panic!("no type {name}"));
        assert_eq!(names::type_ident(Lang::Rust, def), in_rust, "{name}");
        assert_eq!(names::type_ident(Lang::CSharp, def), in_csharp, "{name}");
        let keyword = if matches!(def.kind, TypeKind::Enum { .. } | TypeKind::Union { .. }) {
            "enum"
        } else {
            "struct"
        };
        assert!(
            rust.contains(&format!("pub {keyword} {in_rust} ")),
            "{in_rust}"
        );
        assert!(csharp.contains(&format!(" {in_csharp} ")), "{in_csharp}");
    }
    // References go through the same name; the view keeps the converted one.
    assert!(rust.contains("pub vec: Vec_,"), "a field of type Vec");
    assert!(rust.contains("pub vecs: Vec<Vec_>,"), "a list of Vec");
    assert!(
        rust.contains("pub maybe: Option<Option_>,"),
        "an optional Option"
    );
    assert!(rust.contains("Vec(VecView<'a>),"), "Box's view of Vec");
    assert!(
        !rust.contains("Vec_View"),
        "views are named from the converted name"
    );
    assert!(csharp.contains("public global::Test.ReservedTypes.EncodeValue EncodeValue;"));
}

/// The types and traits generated Rust names without a path, read from the
/// generated code of the example schemas: every name it uses that it does
/// not declare. Each must be on the Rust backend's prelude list, so that a
/// schema type of that name is renamed rather than hiding it; and each
/// listed name is used, so that none is renamed for nothing. `Some`, `None`,
/// `Ok` and `Err` live in the value namespace, which generated types (braced
/// structs and enums) never enter; derive macros live in the macro
/// namespace.
fn bare_rust_names(ir: &Ir) -> HashSet<String> {
    let mut options = GenOptions::new(Lang::Rust);
    options.runtime = false;
    let files = generate(ir, &options);
    let mut declared: HashSet<String> = HashSet::new();
    let mut used: HashSet<String> = HashSet::new();
    for file in &files {
        // The indentation of the variants of the enum (or the union in a
        // `memory!` invocation) being read.
        let mut variants_at: Option<usize> = None;
        for line in file.contents.lines() {
            let code = line.trim();
            if code.starts_with("//") || code.starts_with("#[") {
                continue;
            }
            let indent = line.len() - line.trim_start().len();
            if variants_at.is_some_and(|at| indent < at) {
                variants_at = None;
            }
            let words: Vec<&str> = code.split_whitespace().collect();
            if let Some(at) = words
                .iter()
                .position(|w| matches!(*w, "struct" | "enum" | "union" | "trait" | "type"))
            {
                if let Some(name) = words.get(at + 1) {
                    let name: String = name
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    declared.insert(name);
                }
                if matches!(words[at], "enum" | "union") {
                    variants_at = Some(indent + 4);
                }
                continue;
            }
            // A variant's declaration starts with its name, which is no
            // reference (variants are named by path elsewhere).
            let code = if variants_at == Some(indent) {
                code.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
            } else {
                code
            };
            // Identifiers outside string literals, not after a path
            // separator or a lifetime quote.
            let mut prev = ' ';
            let mut in_string = false;
            let mut word = String::new();
            for c in code.chars().chain([' ']) {
                if in_string {
                    in_string = c != '"' || prev == '\\';
                    prev = c;
                    continue;
                }
                if c.is_alphanumeric() || c == '_' {
                    if word.is_empty() && (prev == ':' || prev == '\'' || prev.is_alphanumeric()) {
                        word.push('\0');
                    }
                    word.push(c);
                } else {
                    if word.starts_with(|c: char| c.is_ascii_uppercase())
                        && word.chars().any(|c| c.is_ascii_lowercase())
                    {
                        used.insert(std::mem::take(&mut word));
                    }
                    word.clear();
                    in_string = c == '"';
                }
                prev = c;
            }
        }
    }
    for value_namespace in ["Self", "Some", "None", "Ok", "Err"] {
        used.remove(value_namespace);
    }
    used.retain(|n| !declared.contains(n));
    used
}

#[test]
fn rust_names_without_a_path_are_the_prelude_list() {
    let naming = Lang::Rust.naming();
    let used = bare_rust_names(&checked_ir());
    let listed: HashSet<String> = naming.prelude.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        used, listed,
        "generated Rust names these without a path; the Rust Naming's prelude lists those on the right"
    );
}
