//! The generated TypeScript of a schema set, compiled for node with a
//! `dispatch` module that maps each qualified type name (`game.net.Chat`)
//! to its codec object, so that a node program can decode and encode any
//! type by name: what `rust-tests/tests/typescript.rs` drives, and what a
//! language-neutral driver needs to add TypeScript.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pktc::emit::{generate, output_files, GenOptions, TYPESCRIPT_RUNTIME_STEM};
use pktc::ir::{Ir, TypeId, TypeKind};
use pktc::names::{self, Lang};

use super::{node, qualified};

/// Whether the type has a codec object (enums are read and written inside
/// the types that hold them).
pub fn has_codec(ir: &Ir, id: TypeId) -> bool {
    !matches!(ir.ty(id).kind, TypeKind::Enum { .. })
}

/// The text of `dispatch.ts`: `TYPES`, every codec by qualified name, each
/// with `create`, `encode`, `decode` and `decodeInto`.
pub fn dispatch(ir: &Ir) -> String {
    let files = output_files(ir, "ts", &[TYPESCRIPT_RUNTIME_STEM], None);
    let alias = |stem: &str| {
        format!(
            "$m_{}",
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        )
    };
    let mut text = String::new();
    for f in &files {
        if f.file.types.iter().any(|&id| has_codec(ir, id)) {
            let _ = writeln!(
                text,
                "import * as {} from \"./{}.js\";",
                alias(&f.stem),
                f.stem
            );
        }
    }
    text.push_str(
        "\n/** A codec object of a generated type. */\n\
         export interface Codec<T> {\n    \
         create(): T;\n    \
         encode(value: T): Uint8Array;\n    \
         decode(bytes: Uint8Array): T;\n    \
         decodeInto(target: T, bytes: Uint8Array): void;\n\
         }\n\n\
         /** Every type with a codec, by its qualified schema name. */\n\
         export const TYPES: Record<string, Codec<any>> = {\n",
    );
    for (i, def) in ir.types.iter().enumerate() {
        if !has_codec(ir, TypeId(i)) {
            continue;
        }
        let _ = writeln!(
            text,
            "    \"{}\": {}.{},",
            qualified(ir, TypeId(i)),
            alias(&files[def.file.0].stem),
            names::type_ident(Lang::TypeScript, def)
        );
    }
    text.push_str("};\n");
    text
}

/// Generates the TypeScript of `ir` with `dispatch.ts` and the `(name,
/// text)` modules of `extra` into `dir/src`, compiles them with
/// `tsc --strict` (no diagnostic allowed) into `dir/js`, an ES module
/// package, and returns `dir/js`, where a node program beside them imports
/// `./dispatch.js`.
pub fn build(ir: &Ir, dir: &Path, extra: &[(&str, &str)]) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("create the source directory");
    for f in generate(ir, &GenOptions::new(Lang::TypeScript)) {
        std::fs::write(src.join(&f.path), f.contents).expect("write generated TypeScript");
    }
    std::fs::write(src.join("dispatch.ts"), dispatch(ir)).expect("write dispatch.ts");
    for (name, text) in extra {
        std::fs::write(src.join(name), text).expect("write an extra module");
    }
    std::fs::write(
        dir.join("tsconfig.json"),
        r#"{
  "compilerOptions": {
    "strict": true, "noUnusedLocals": true, "noUnusedParameters": true, "noImplicitReturns": true,
    "target": "ES2020", "module": "ES2020", "moduleResolution": "bundler", "lib": ["ES2020"],
    "rootDir": "src", "outDir": "js"
  },
  "include": ["src/*.ts"]
}
"#,
    )
    .expect("write tsconfig.json");
    node::compile(dir, &["-p", "tsconfig.json"]);
    let js = dir.join("js");
    std::fs::write(js.join("package.json"), "{ \"type\": \"module\" }\n").expect("package.json");
    js
}
