//! Schema text that reaches generated code (doc comments, deprecation
//! notes, string defaults, the schema's path in the header) stays text in
//! every language: no character of it ends a comment line or reorders the
//! code a reader sees. C# ends a `//` comment at U+0085, U+2028 and U+2029,
//! TypeScript at U+2028 and U+2029, all three at CR and LF; rustc denies
//! bidirectional controls in comments and literals.
//!
//! The schema below hides a class in a doc comment between two U+2028 (and
//! U+0085, U+2029), an exported constant in a file comment, bidirectional
//! controls everywhere text goes, and its file name holds U+2028 and a
//! line feed. The output of each language compiles with warnings denied
//! (`mcs -warnaserror`, `tsc --strict`, rustc with `#![deny(warnings)]`),
//! and the hidden declarations do not exist: C# reflection finds no type
//! named `Injected…`, TypeScript finds no export of that name.

mod common;

#[allow(dead_code)]
#[path = "../../rust-tests/tests/support/node.rs"]
mod node;

use std::path::{Path, PathBuf};
use std::process::Command;

use pktc::emit::{generate, output, GenOptions, GeneratedFile};
use pktc::Lang;

/// The schema's text; `{LS}` and friends are the raw characters. The file
/// comment hides `declaration`, a declaration of the target language.
fn schema(declaration: &str) -> String {
    const LS: char = '\u{2028}';
    const PS: char = '\u{2029}';
    const NEL: char = '\u{85}';
    const RLO: char = '\u{202E}';
    const LRI: char = '\u{2066}';
    const PDI: char = '\u{2069}';
    format!(
        "/// A file comment.{LS}{declaration}{LS}//\n\
         namespace text.hazard;\n\
         \n\
         /// A record.{LS}public static class InjectedByTypeDoc {{ }}{LS}//\n\
         /// Reversed:{RLO} }}; dne /* {LRI}isolated{PDI}\n\
         @delta\n\
         message Note {{\n\
         \x20   /// A field.{NEL}public static class InjectedByFieldDoc {{ }}{NEL}//\n\
         \x20   @deprecated(\"old{PS}public static class InjectedByNote {{ }}{PS}// {RLO}x\")\n\
         \x20   text: string = \"a{LS}b{RLO}c{NEL}d{LRI}e{PDI}\",\n\
         \x20   /// Plain.{PS}public static class InjectedByMemberDoc {{ }}{PS}//\n\
         \x20   n: u32,\n\
         }}\n\
         \n\
         /// Levels.{LS}public static class InjectedByEnumDoc {{ }}{LS}//\n\
         enum Level : u8 {{\n\
         \x20   /// Low.{RLO}woL{PDI}\n\
         \x20   Low = 1,\n\
         \x20   @deprecated(\"gone{RLO}\")\n\
         \x20   High = 2,\n\
         }}\n\
         \n\
         union Pick : u8 {{\n\
         \x20   /// A note.{LS}public static class InjectedByVariantDoc {{ }}{LS}//\n\
         \x20   Note(Note) = 1,\n\
         }}\n\
         \n\
         /// Most.{LS}public static class InjectedByConstDoc {{ }}{LS}//\n\
         const MOST: u32 = 3;\n"
    )
}

/// The schema's file names: one with U+2028 (C# would read the rest of the
/// header as code), one with a line feed (every language would), and a
/// plain one (the schema's own text is all there is to escape).
const FILE_NAMES: [&str; 3] = [
    "hazard\u{2028}public static class InjectedByPath { }\u{2028}x.pkt",
    "hazard\nexport const InjectedByName = 1;\nx.pkt",
    "hazard.pkt",
];

/// Writes the schema under each file name into its own directory of
/// `scratch` and generates `lang` for it (with the runtime).
fn generated(scratch: &Path, lang: Lang) -> Vec<(PathBuf, Vec<GeneratedFile>)> {
    FILE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let dir = scratch.join(format!("schema{i}"));
            std::fs::create_dir_all(&dir).expect("create the schema directory");
            let path = dir.join(name);
            let declaration = match lang {
                Lang::CSharp => "public static class InjectedByFileDoc { }",
                _ => "export const InjectedByFileDoc = 1;",
            };
            std::fs::write(&path, schema(declaration)).expect("write the schema");
            let checked =
                pktc::check(std::slice::from_ref(&path)).unwrap_or_else(|f| panic!("{f}"));
            let mut options = GenOptions::new(lang);
            options.runtime = true;
            (dir, generate(&checked.ir, &options))
        })
        .collect()
}

/// The lines of `text` as any of the three languages splits them.
fn any_language_lines(text: &str) -> Vec<&str> {
    text.split(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'])
        .collect()
}

/// No generated file holds a character that must be escaped, but the line
/// feeds that end its lines; the header names the schema on one line.
fn assert_text_is_escaped(files: &[GeneratedFile]) {
    for f in files {
        if let Some((n, c)) = f
            .contents
            .char_indices()
            .find(|&(_, c)| c != '\n' && pktc::text::must_escape(c))
        {
            let start = f.contents[..n].rfind('\n').map_or(0, |i| i + 1);
            panic!(
                "{}: U+{:04X} in generated code, line `{}`",
                f.path.display(),
                u32::from(c),
                f.contents[start..].lines().next().unwrap_or("")
            );
        }
    }
    let own = &files[0].contents;
    let header = any_language_lines(own)
        .into_iter()
        .find(|l| l.starts_with(output::MARKER))
        .expect("a header line");
    assert!(
        header == "// @generated by pktc from hazard.pkt. Do not edit."
            || header.starts_with("// @generated by pktc from hazard\\u")
                && header.ends_with("x.pkt. Do not edit."),
        "{header}"
    );
    assert!(output::is_generated(own), "{header}");
}

#[test]
fn csharp_keeps_schema_text_in_comments_and_literals() {
    let scratch = common::scratch_dir("schema-text-cs");
    let sets = generated(&scratch, Lang::CSharp);
    for (_, files) in &sets {
        assert_text_is_escaped(files);
        let own = &files[0].contents;
        assert!(
            own.contains("/// A record.\\u2028public static class InjectedByTypeDoc { }\\u2028//"),
            "{own}"
        );
        assert!(
            own.contains("\"a\\u2028b\\u202Ec\\u0085d\\u2066e\\u2069\""),
            "{own}"
        );
    }
    if !common::mono_available("schema text in C#") {
        return;
    }
    for (dir, files) in &sets {
        let mut args: Vec<String> = ["-langversion:7.2", "-warnaserror", "-nologo"]
            .map(String::from)
            .to_vec();
        let exe = dir.join("Probe.exe");
        args.push(format!("-out:{}", exe.display()));
        for f in files {
            let p = dir.join(&f.path);
            std::fs::write(&p, &f.contents).expect("write generated file");
            args.push(p.display().to_string());
        }
        let probe = dir.join("Probe.cs");
        std::fs::write(
            &probe,
            "public static class Probe\n{\n    public static int Main()\n    {\n        \
             int found = 0;\n        \
             foreach (var t in typeof(Probe).Assembly.GetTypes())\n        {\n            \
             if (t.Name.StartsWith(\"Injected\")) { System.Console.WriteLine(\"found \" + t.FullName); found++; }\n            \
             if (t.Name == \"Note\" || t.Name == \"Level\") System.Console.WriteLine(\"declared \" + t.FullName);\n        \
             }\n        return found;\n    }\n}\n",
        )
        .expect("write Probe.cs");
        args.push(probe.display().to_string());
        let out = Command::new("mcs").args(&args).output().expect("run mcs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "mcs failed:\n{text}");
        let run = Command::new("mono").arg(&exe).output().expect("run mono");
        let printed = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "injected types:\n{printed}");
        assert!(
            printed.contains("declared Text.Hazard.Note")
                && printed.contains("declared Text.Hazard.Level"),
            "{printed}"
        );
    }
}

#[test]
fn typescript_keeps_schema_text_in_comments_and_literals() {
    let scratch = common::scratch_dir("schema-text-ts");
    let sets = generated(&scratch, Lang::TypeScript);
    for (_, files) in &sets {
        assert_text_is_escaped(files);
    }
    if !node::tools_or_skip("typescript_keeps_schema_text_in_comments_and_literals") {
        return;
    }
    for (dir, files) in &sets {
        for f in files {
            std::fs::write(dir.join(&f.path), &f.contents).expect("write generated file");
        }
        let module = files[0]
            .path
            .file_stem()
            .expect("a module name")
            .to_string_lossy()
            .into_owned();
        // Compiles only when the module exports nothing named `Injected…`
        // (and does export `Note`).
        std::fs::write(
            dir.join("probe.ts"),
            format!(
                "import * as m from \"./{module}.js\";\n\
                 type Injected = Extract<keyof typeof m, `Injected${{string}}`>;\n\
                 export const none: [Injected] extends [never] ? true : false = true;\n\
                 export const note: m.Note | undefined = undefined;\n"
            ),
        )
        .expect("write probe.ts");
        node::check_strict(dir);
    }
}

#[test]
fn rust_keeps_schema_text_in_comments_and_literals() {
    let scratch = common::scratch_dir("schema-text-rs");
    let sets = generated(&scratch, Lang::Rust);
    for (_, files) in &sets {
        assert_text_is_escaped(files);
    }
    // One crate holds both outputs, each in a module of its own.
    let krate = scratch.join("crate");
    let src = krate.join("src");
    let mut lib = String::from("#![deny(warnings)]\n#![allow(dead_code, deprecated)]\n");
    for (i, (_, files)) in sets.iter().enumerate() {
        let dir = src.join(format!("out{i}"));
        std::fs::create_dir_all(&dir).expect("create the module directory");
        for f in files {
            std::fs::write(dir.join(&f.path), &f.contents).expect("write generated file");
        }
        lib.push_str(&format!(
            "pub mod out{i} {{\n    include!(\"out{i}/mod.rs\");\n}}\n"
        ));
    }
    std::fs::write(src.join("lib.rs"), lib).expect("write lib.rs");
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"pkt-schema-text\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\npkt-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            common::root().join("runtime").display().to_string()
        ),
    )
    .expect("write Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(&cargo)
        .args(["check", "--offline", "--quiet"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", krate.join("target"))
        .output()
        .expect("run cargo check");
    assert!(
        out.status.success(),
        "the generated Rust does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
