//! Every code block of README.md and docs/*.md works as written from a clone
//! of this repository (docs/guide.md has a runner of its own, guide.rs). A
//! block says what it is by its language, and each kind is checked:
//!
//! - `pkt`: a schema, saved beside the example schemas (so that
//!   `import "common.pkt"` finds `schemas/common.pkt`): it must pass
//!   `pktc check`, or fail it when marked `fails`;
//! - `toml file=PATH` and `rust file=PATH` (README): the files of a crate
//!   that sits beside a clone of this repository (`pktc/`), with the example
//!   schemas as its `schemas/`;
//! - `rust` without a file: items that use the generated types of
//!   `schemas/game.pkt`, each a module of that crate (after `use crate::*;`).
//!   Under `PKT_LONG_TESTS=1` the crate is built with cargo;
//! - `sh`: each command. `pktc ...` and `cargo run -p pktc -- ...` run (this
//!   build's pktc) in a copy of the repository's schemas that is a git
//!   repository with a `main` branch, and must succeed. Other cargo commands
//!   must name a package of this workspace and a binary, example or bench it
//!   has; `target/release/examples/NAME` must be an example an earlier line
//!   of the block built; `cargo test --workspace` is the command that runs
//!   this test. A variable set before a command must be one the tests read
//!   (`PKT_LONG_TESTS`);
//! - `text`: not code.
//!
//! A block without a language, or a command no rule above covers, fails the
//! test: say what the block is, or teach the test the command.

mod common;

use common::{blocks, Block};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Markdown files checked here: the README and every doc but the guide.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(common::root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("guide.md"))
        .map(|p| Path::new("docs").join(p.file_name().expect("file name")))
        .collect();
    docs.sort();
    docs.insert(0, PathBuf::from("README.md"));
    docs
}

/// A block with the document and line it comes from.
struct Found {
    at: String,
    block: Block,
}

fn all_blocks() -> Vec<Found> {
    let mut out = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(common::root().join(&doc)).expect("readable");
        for block in blocks(&text) {
            out.push(Found {
                at: format!("{}:{}", doc.display(), block.line),
                block,
            });
        }
    }
    out
}

/// The scratch directory of the test `test` (see [`common::scratch_dir`]).
fn scratch(test: &str) -> PathBuf {
    common::scratch_dir(&format!("docs-{test}"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let p = entry.expect("entry").path();
        let target = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).expect("copy");
        }
    }
}

#[test]
fn every_block_says_what_it_is() {
    let known = ["pkt", "rust", "toml", "sh", "text"];
    let unknown: Vec<String> = all_blocks()
        .into_iter()
        .filter(|f| !known.contains(&f.block.lang.as_str()))
        .map(|f| format!("{}: ```{}", f.at, f.block.lang))
        .collect();
    assert!(
        unknown.is_empty(),
        "blocks of no known language (one of {known:?}):\n{}",
        unknown.join("\n")
    );
}

#[test]
fn schema_examples_check() {
    let dir = scratch("schemas").join("schemas");
    copy_dir(&common::root().join("schemas"), &dir);
    let mut checked = 0;
    for f in all_blocks().into_iter().filter(|f| f.block.lang == "pkt") {
        let file = dir.join(format!(
            "example-{}.pkt",
            f.at.replace(['/', ':', '.'], "-")
        ));
        std::fs::write(&file, &f.block.text).expect("write");
        let result = pktc::check(std::slice::from_ref(&file));
        let should_fail = f.block.attrs.contains_key("fails");
        match (result, should_fail) {
            (Ok(_), false) | (Err(_), true) => {}
            (Ok(_), true) => panic!("{}: expected an error", f.at),
            (Err(e), false) => panic!("{}: does not check:\n{e}", f.at),
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} schema examples");
}

/// A package of this workspace: its name, binaries, examples and benches.
struct Package {
    name: String,
    dir: PathBuf,
    bins: Vec<String>,
    examples: Vec<String>,
    benches: bool,
}

fn packages() -> Vec<Package> {
    let root = common::root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest
        .lines()
        .find_map(|l| l.strip_prefix("members = ["))
        .expect("workspace members");
    members
        .trim_end_matches(']')
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| package(&root.join(m)))
        .collect()
}

/// What a package's manifest and directories declare, read line by line:
/// `name = ".."` under `[package]`, `[[bin]]`, `[[example]]`, `[[bench]]`.
fn package(dir: &Path) -> Package {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("member manifest");
    let mut section = String::new();
    let mut name = String::new();
    let mut bins = Vec::new();
    let mut examples = Vec::new();
    let mut benches = dir.join("benches").is_dir();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
            benches |= section == "[[bench]]";
            continue;
        }
        let Some(value) = line.strip_prefix("name = ") else {
            continue;
        };
        let value = value.trim_matches('"').to_string();
        match section.as_str() {
            "[package]" => name = value,
            "[[bin]]" => bins.push(value),
            "[[example]]" => examples.push(value),
            _ => {}
        }
    }
    let stems = |sub: &str| -> Vec<String> {
        std::fs::read_dir(dir.join(sub))
            .map(|d| {
                d.map(|e| e.expect("entry").path())
                    .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                    .map(|p| p.file_stem().expect("stem").to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    bins.extend(stems("src/bin"));
    if dir.join("src/main.rs").exists() {
        bins.push(name.clone());
    }
    examples.extend(stems("examples"));
    Package {
        name,
        dir: dir.to_path_buf(),
        bins,
        examples,
        benches,
    }
}

/// A command of an `sh` block without its trailing comment.
fn command_words(line: &str) -> Vec<&str> {
    let code = line.split(" #").next().unwrap_or(line);
    code.split_whitespace().collect()
}

/// Checks a cargo command against the workspace; returns the example it
/// builds, if any, and the arguments it hands a program of `pktc`'s, if any.
fn check_cargo(
    at: &str,
    words: &[&str],
    pkgs: &[Package],
) -> (Option<String>, Option<Vec<String>>) {
    if words == ["cargo", "test", "--workspace"] {
        return (None, None); // the command that runs this test
    }
    let (own, passed) = match words.iter().position(|w| *w == "--") {
        Some(i) => (&words[..i], Some(&words[i + 1..])),
        None => (words, None),
    };
    let value = |flag: &str| {
        own.iter().position(|w| *w == flag).map(|i| {
            own.get(i + 1)
                .copied()
                .unwrap_or_else(|| panic!("{at}: {flag} needs a value"))
        })
    };
    let name =
        value("-p").unwrap_or_else(|| panic!("{at}: `{}` names no package (-p)", words.join(" ")));
    let pkg = pkgs
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{at}: no package `{name}` in this workspace"));
    let sub = own.get(1).copied().unwrap_or_default();
    match sub {
        "run" if value("--example").is_some() => {
            let example = value("--example").unwrap_or_default();
            assert!(
                pkg.examples.iter().any(|e| e == example),
                "{at}: package `{name}` has no example `{example}`"
            );
            (None, None)
        }
        "run" => {
            let bin = value("--bin").unwrap_or(name);
            assert!(
                pkg.bins.iter().any(|b| b == bin),
                "{at}: package `{name}` has no binary `{bin}` (it has {:?})",
                pkg.bins
            );
            let args: Vec<String> = passed
                .unwrap_or_default()
                .iter()
                .map(|s| s.to_string())
                .collect();
            // Every flag the command hands the binary appears in its source.
            let source = bin_source(pkg, bin);
            for flag in args.iter().filter(|a| a.starts_with("--")) {
                assert!(
                    source.contains(&format!("\"{flag}\""))
                        || source.contains(&flag.trim_start_matches('-').replace('-', "_")),
                    "{at}: `{bin}` does not know `{flag}`"
                );
            }
            let pktc_args = (name == "pktc").then_some(args);
            (None, pktc_args)
        }
        "bench" => {
            assert!(pkg.benches, "{at}: package `{name}` has no benches");
            (None, None)
        }
        "build" => match value("--example") {
            Some(example) => {
                assert!(
                    pkg.examples.iter().any(|e| e == example),
                    "{at}: package `{name}` has no example `{example}`"
                );
                (Some(example.to_string()), None)
            }
            None => (None, None),
        },
        other => panic!("{at}: no check for `cargo {other}`; teach compiler/tests/docs.rs"),
    }
}

/// The source of a package's binary, for the flags it parses.
fn bin_source(pkg: &Package, bin: &str) -> String {
    let candidates = [
        pkg.dir.join(format!("src/bin/{bin}.rs")),
        pkg.dir.join("src/main.rs"),
    ];
    let mut text = String::new();
    for c in candidates.iter().filter(|c| c.exists()) {
        text.push_str(&std::fs::read_to_string(c).expect("source"));
    }
    // A binary whose flags a library parses (clap derives in pktc's main).
    if text.is_empty() || text.contains("clap::") {
        for entry in std::fs::read_dir(pkg.dir.join("src")).expect("src") {
            let p = entry.expect("entry").path();
            if p.extension().is_some_and(|e| e == "rs") {
                text.push_str(&std::fs::read_to_string(p).expect("source"));
            }
        }
    }
    text
}

/// The repository's schemas, copied into a git repository whose `main`
/// branch holds them, where `pktc` commands of the docs run.
fn schemas_repo(dir: &Path) {
    copy_dir(&common::root().join("schemas"), &dir.join("schemas"));
    for cmd in [
        "git init -q",
        "git add schemas",
        "git -c user.name=docs -c user.email=docs@example.invalid commit -q -m schemas",
        "git branch -M main",
    ] {
        let o = Command::new("sh")
            .args(["-c", cmd])
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git");
        assert!(
            o.status.success(),
            "{cmd}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn shell_commands_work_from_a_clone() {
    let pkgs = packages();
    let dir = scratch("commands").join("clone");
    schemas_repo(&dir);
    let mut ran = 0;
    for f in all_blocks().into_iter().filter(|f| f.block.lang == "sh") {
        let mut built: Vec<String> = Vec::new();
        for line in f.block.text.lines() {
            let words = command_words(line);
            if words.is_empty() || words[0].starts_with('#') {
                continue;
            }
            let at = format!("{} `{}`", f.at, line.trim());
            // `NAME=VALUE` before a command: a variable the tests read.
            let env = words
                .iter()
                .take_while(|w| w.contains('=') && !w.starts_with('-'))
                .count();
            for w in &words[..env] {
                let name = w.split('=').next().unwrap_or_default();
                assert!(
                    name == pkt_test_support::LONG_TESTS_VAR,
                    "{at}: no check for the variable `{name}`; teach compiler/tests/docs.rs"
                );
            }
            let words = &words[env..];
            let example = words
                .iter()
                .find_map(|w| w.strip_prefix("target/release/examples/"));
            let pktc_args: Option<Vec<String>> = if words[0] == "pktc" {
                Some(words[1..].iter().map(|s| s.to_string()).collect())
            } else if words[0] == "cargo" {
                let (example, args) = check_cargo(&at, words, &pkgs);
                built.extend(example);
                args
            } else if let Some(program) = example {
                // An example run directly or under a tool (valgrind).
                assert!(
                    built.iter().any(|b| b == program),
                    "{at}: no earlier line of the block builds the example `{program}`"
                );
                None
            } else {
                panic!(
                    "{at}: no check for `{}`; teach compiler/tests/docs.rs",
                    words[0]
                )
            };
            if let Some(args) = pktc_args {
                let o = Command::new(env!("CARGO_BIN_EXE_pktc"))
                    .args(&args)
                    .current_dir(&dir)
                    .output()
                    .expect("pktc runs");
                assert!(
                    o.status.success(),
                    "{at} failed ({}):\n{}{}",
                    o.status,
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                ran += 1;
            }
        }
    }
    assert!(ran >= 5, "only {ran} pktc commands ran");
}

/// The README's crate (`toml file=`, `rust file=`) beside a clone, with
/// every other `rust` block as a module of it, built under
/// `PKT_LONG_TESTS=1`. In a short run its files are written and checked to
/// be there, but nothing is compiled.
#[test]
fn rust_examples_build_beside_a_clone() {
    let dir = scratch("crate");
    std::os::unix::fs::symlink(common::root(), dir.join("pktc")).expect("link the clone");
    let krate = dir.join("game-server");
    std::fs::create_dir_all(krate.join("src")).expect("crate dir");
    std::os::unix::fs::symlink(common::root().join("schemas"), krate.join("schemas"))
        .expect("link the schemas");
    let mut files = Vec::new();
    let mut modules = String::new();
    for f in all_blocks() {
        if !matches!(f.block.lang.as_str(), "rust" | "toml") {
            continue;
        }
        match f.block.attrs.get("file") {
            Some(path) => {
                assert!(
                    f.at.starts_with("README.md"),
                    "{}: files of the README's crate only",
                    f.at
                );
                std::fs::write(krate.join(path), &f.block.text).expect("write");
                files.push(path.clone());
            }
            // A TOML block outside the crate (pktc.toml, waivers) is no Rust.
            None if f.block.lang == "toml" => {}
            None => {
                let name =
                    format!("doc_{}", f.at.replace(['/', ':', '.', '-'], "_")).to_lowercase();
                std::fs::write(
                    krate.join("src").join(format!("{name}.rs")),
                    format!("// {}\nuse crate::*;\n\n{}", f.at, f.block.text),
                )
                .expect("write");
                modules.push_str(&format!(
                    "\n#[allow(dead_code, unused_imports)]\nmod {name};\n"
                ));
            }
        }
    }
    files.sort();
    assert_eq!(
        files,
        ["Cargo.toml", "build.rs", "src/lib.rs"],
        "the README's crate"
    );
    assert!(
        modules.matches("mod ").count() >= 2,
        "the rust examples of the docs"
    );
    let lib = krate.join("src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).expect("lib.rs");
    text.push_str(&modules);
    std::fs::write(&lib, text).expect("write lib.rs");
    std::fs::copy(common::root().join("Cargo.lock"), krate.join("Cargo.lock")).expect("lock file");
    if !pkt_test_support::long_tests() {
        eprintln!("the docs' Rust examples are built under PKT_LONG_TESTS=1 only");
        return;
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let o = Command::new(cargo)
        .args(["build", "--offline", "--quiet"])
        .current_dir(&krate)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("cargo runs");
    assert!(
        o.status.success(),
        "the docs' Rust examples do not build:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
