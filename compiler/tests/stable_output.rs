//! Generated files change only when their schema (or pktc) does: the two
//! versions of `schemas/stable/` differ only in `common.pkt`, which appends
//! fields to messages that `game.pkt` holds every way a type can be held,
//! and the code generated from `game.pkt` must be the same for both, in
//! every language. The models of decoded sizes (`Decode::MEMORY` in Rust,
//! `PktMemory` and the budget charges in C#) are where numbers used to leak
//! from one file into another.

mod common;

use std::path::{Path, PathBuf};

use pktc::emit::{generate, GenOptions, GeneratedFile};
use pktc::Lang;

/// The files generated for `version` of `schemas/stable`, read from one
/// path for both versions, so that nothing but the schemas differs.
fn generate_version(version: &str, lang: Lang) -> Vec<GeneratedFile> {
    let dir = common::root()
        .join("target/stable-output")
        .join(format!("{lang:?}"));
    std::fs::create_dir_all(&dir).expect("mkdir");
    for name in ["game.pkt", "common.pkt"] {
        let from = common::root()
            .join("schemas/stable")
            .join(version)
            .join(name);
        std::fs::copy(&from, dir.join(name)).expect("copy the schema");
    }
    let checked = pktc::check(&[dir.join("game.pkt")]).unwrap_or_else(|f| panic!("{f}"));
    generate(&checked.ir, &GenOptions::new(lang))
}

fn file<'a>(files: &'a [GeneratedFile], name: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.path == Path::new(name))
        .unwrap_or_else(|| {
            let paths: Vec<&PathBuf> = files.iter().map(|f| &f.path).collect();
            panic!("no {name} in {paths:?}")
        })
        .contents
}

fn files_of_an_unchanged_schema_do_not_change(lang: Lang, ext: &str) {
    let read = |v: &str, name: &str| {
        std::fs::read_to_string(common::root().join("schemas/stable").join(v).join(name))
            .expect("fixture")
    };
    assert_eq!(read("v1", "game.pkt"), read("v2", "game.pkt"));
    assert_ne!(read("v1", "common.pkt"), read("v2", "common.pkt"));
    let (v1, v2) = (generate_version("v1", lang), generate_version("v2", lang));
    let changed = format!("common.{ext}");
    assert_ne!(
        file(&v1, &changed),
        file(&v2, &changed),
        "the changed schema's file changes"
    );
    let game = format!("game.{ext}");
    let (a, b) = (file(&v1, &game), file(&v2, &game));
    let diff: Vec<(&str, &str)> = a.lines().zip(b.lines()).filter(|(x, y)| x != y).collect();
    assert!(
        a == b,
        "{game} changed though game.pkt did not: {} lines, first {:?}",
        diff.len(),
        diff.first()
    );
}

#[test]
fn rust_of_an_unchanged_schema_does_not_change() {
    files_of_an_unchanged_schema_do_not_change(Lang::Rust, "rs");
}

#[test]
fn csharp_of_an_unchanged_schema_does_not_change() {
    files_of_an_unchanged_schema_do_not_change(Lang::CSharp, "cs");
}

#[test]
fn typescript_of_an_unchanged_schema_does_not_change() {
    files_of_an_unchanged_schema_do_not_change(Lang::TypeScript, "ts");
}

/// The C# sums are written so that a reviewer can check them: every
/// `PktMemory` that is a number lists its parts, padding included, and they
/// add up to it.
#[test]
fn csharp_memory_constants_list_parts_that_add_up() {
    let checked = pktc::check_with(&common::schemas_in("schemas"), &common::RootReader)
        .unwrap_or_else(|f| panic!("{f}"));
    let files = generate(&checked.ir, &GenOptions::new(Lang::CSharp));
    let mut checked_sums = 0;
    for f in &files {
        for line in f.contents.lines() {
            let Some(rest) = line.trim().strip_prefix("public const long PktMemory = ") else {
                continue;
            };
            let (value, parts) = rest.split_once("; // ").expect("a comment of the parts");
            let Ok(value) = value.parse::<u64>() else {
                continue; // A sum of named parts, spelled out.
            };
            let size = |p: &str| {
                p.split(' ')
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or_else(|| panic!("{}: `{p}` has no size", f.path.display()))
            };
            let sum: u64 = match parts.split_once(", the largest variant, + ") {
                // `N Name, the largest variant, + D for the discriminant + 24 for the object`
                Some((largest, rest)) => size(largest) + rest.split(" + ").map(size).sum::<u64>(),
                None => parts.split(" + ").map(size).sum(),
            };
            assert_eq!(sum, value, "{}: {line}", f.path.display());
            checked_sums += 1;
        }
    }
    assert!(checked_sums > 50, "{checked_sums}");
}
