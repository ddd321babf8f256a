//! The longest names `pktc check` accepts (255 characters: `MAX_NAME_LEN`
//! in `compiler/src/sema/naming.rs`) build in C#, whose compiler refuses
//! identifiers of more than 512 characters (CS0645) and to whose names
//! generated code adds affixes (`<Enum>_KeyOrd`); one character more is a
//! `check` error (`schemas/invalid/name_too_long.pkt`).

mod common;

use std::path::PathBuf;
use std::process::Command;

use pktc::emit::{generate, GenOptions};
use pktc::Lang;

/// A schema whose every kind of name is `len` characters long, in the
/// shapes whose generated C# adds the most to a name: an enum keying a map,
/// a union, a `@delta` message with a map of `@delta` values, a constant.
fn schema(len: usize) -> String {
    let name = |first: char| format!("{first}{}", "a".repeat(len - 1));
    let (ns, ty, en, un, de, field, value, variant, konst) = (
        name('n'),
        name('T'),
        name('E'),
        name('U'),
        name('D'),
        name('f'),
        name('V'),
        name('W'),
        name('K'),
    );
    format!(
        "namespace {ns}.inner;\n\n\
         const {konst}: u32 = 1;\n\n\
         enum {en} : u8 {{ {value} = 1 }}\n\n\
         message {ty} {{\n    {field}: map<{en}, u32>,\n    e: {en},\n    l: list<{en}>,\n}}\n\n\
         union {un} : u8 {{ {variant}({ty}) = 1 }}\n\n\
         @delta\nmessage {de} {{\n    {field}: map<u32, {de}>,\n    u: {un},\n}}\n"
    )
}

#[test]
fn the_longest_accepted_names_build_in_csharp_and_one_more_is_refused() {
    let dir = common::scratch_dir("name-limits");
    let long = dir.join("long.pkt");
    std::fs::write(&long, schema(255)).expect("write the schema");
    let checked = pktc::check(&[long]).unwrap_or_else(|f| panic!("{f}"));
    let too_long = dir.join("too_long.pkt");
    std::fs::write(&too_long, schema(256)).expect("write the schema");
    let Err(failed) = pktc::check(&[too_long]) else {
        panic!("a 256-character name was accepted");
    };
    let text = failed.to_string();
    assert_eq!(
        text.matches("characters long, more than 255").count(),
        10,
        "{text}"
    );
    if !common::mono_available("the longest names in C#") {
        return;
    }
    let mut options = GenOptions::new(Lang::CSharp);
    options.runtime = true;
    let mut args: Vec<String> = [
        "-langversion:7.2",
        "-warnaserror",
        "-nologo",
        "-target:library",
    ]
    .map(String::from)
    .to_vec();
    args.push(format!("-out:{}", dir.join("Long.dll").display()));
    for f in generate(&checked.ir, &options) {
        let p: PathBuf = dir.join(&f.path);
        std::fs::write(&p, &f.contents).expect("write generated file");
        args.push(p.display().to_string());
    }
    let out = Command::new("mcs").args(&args).output().expect("run mcs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "mcs failed:\n{}",
        &text[..text.len().min(4000)]
    );
}
