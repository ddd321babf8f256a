//! Every schema `pktc check` accepts compiles in every language: random
//! valid schemas (`pkt_test_support::schema_gen`, over every construct),
//! and the shapes that once failed, are generated in Rust and C#; the Rust
//! is built (`cargo build`, warnings denied, after `rustfmt --check`) as
//! modules of one scratch crate against the workspace's runtime, with a
//! function per type that instantiates its encoder, decoders and view, and
//! the C# of each schema
//! set is compiled with its `PktRuntime.cs` by `mcs -langversion:7.2
//! -warnaserror`, and the TypeScript of every set by one `tsc --strict` run
//! (with `noUnusedLocals`, `noUnusedParameters`, `noImplicitReturns`) that
//! must report nothing.
//!
//! A few random sets run in the inner loop, many more under
//! `PKT_LONG_TESTS=1`; `PKT_SCHEMA_SEED=N,M` runs the sets of those seeds
//! (with the known shapes). A failure
//! names the seed and prints its schemas. Without `cargo` or `mcs` the test
//! fails under `CI=true` and warns loudly elsewhere.

mod common;

#[allow(dead_code)]
#[path = "../../rust-tests/tests/support/node.rs"]
mod node;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use pkt_test_support::schema_gen::{schema_set, SchemaFile, SchemaSet};
use pktc::emit::{generate, GenOptions};
use pktc::ir::{Ir, TypeKind};
use pktc::names::{self, Lang, NameKind};

/// Schemas that failed to compile before, by name.
fn known_sets() -> Vec<(String, SchemaSet)> {
    let one = |name: &str, text: &str| {
        (
            name.to_string(),
            SchemaSet {
                files: vec![SchemaFile {
                    path: "main.pkt".into(),
                    text: text.into(),
                }],
            },
        )
    };
    vec![
        // A fixed-size variant too large for a view to copy: its view
        // (`FixedArray`) is not `FixedSize`.
        one(
            "big_fixed_variant",
            "namespace known.big;\nstruct Big { a: [u64; 40], b: bool }\n\
             union U { A([u8; 300]) = 1, B(u8) = 2 }\n\
             union V : u16 { A(Big) = 1, B([[u8; 20]; 20]) = 2, C([Big; 2]) = 3 }\n",
        ),
        // `@max` bounds past `int.MaxValue` (C# passed them as `int`).
        one(
            "max_past_int",
            "namespace known.limits;\nconst ALL: u32 = 4294967295;\n\
             message M { s: string @max(4294967295), l: list<u8> @max(2147483648), \
             b: bytes? @max(ALL), m: map<u8, u8> @max(2147483647) }\n",
        ),
        // What the random sets found: deprecated types and values used by
        // other types' code, a boxed array over 32 elements, and a view of
        // an array whose elements are arrays over 32 (no `Default`).
        one(
            "deprecated_and_big_arrays",
            "namespace known.found;\n@deprecated\nenum Old { A = 1, @deprecated B = 2 }\n\
             enum Mode { @deprecated First = 0, Second = 1 }\n@deprecated\nstruct Gone { x: u8 }\n\
             message Uses { old: Old = B, mode: Mode, gone: Gone, grid: [[u8; 40]; 10], \
             deep: [[[f32; 16]; 300]; 1] }\nmessage Cyc { next: [Cyc?; 33] }\n\
             union Pick { A(Old) = 1, B([[u8; 40]; 10]) = 2 }\n",
        ),
        // Laid out as rustfmt lays them out: a one-field plain struct (its
        // `plain!` on one line), and view types too long for a line of
        // their own, in a field, a variant and an element limit's marker.
        one(
            "long_types",
            "namespace known.layout.deeply.nested.names;\nstruct Span { x: u8 }\n\
             message WithAVeryLongNameIndeed { a_rather_long_field_name: [map<string, map<i64, i16>>; 33], \
             pos: [bytes @max(24); 3]?, deep: map<string @max(1), list<list<string @max(2)> @max(3)> @max(4)> }\n\
             union Wide { Event([map<string, map<i64, i16>>; 33]) = 1, \
             Trait(list<map<string, map<i16, string>>>) = 2 }\n",
        ),
        // Laid out as rustfmt lays them out, found by the long runs: a
        // default whose fields fit 18 columns (`Self { x: 3 }`), a default
        // of nested closures that passes 60 columns of arguments (in a
        // field, its reset and a union's default), a long generic type in
        // an array, and a bounded variant's view call that moves to the
        // next line rather than break its arguments.
        one(
            "rustfmt_layouts",
            "namespace known.rustfmt;\nmessage Short { x: u8 = 3 }\nstruct Tiny { b: bool }\n\
             message AnExtremelyLongTypeNameForTheValuesOfThisMap { x: u8 }\n\
             message Deep { flags: [[[string; 33]; 33]; 2], \
             pos: [list<map<string, AnExtremelyLongTypeNameForTheValuesOfThisMap>>; 33] }\n\
             union Lock { Grid([[string; 33]; 33]) = 1 }\n\
             union Messaging { SayToEvery(list<string @max(10)>) = 1 }\n",
        ),
        // Types named like .NET namespaces and types, inside a namespace.
        one(
            "dotnet_names",
            "namespace game.system;\nmessage Buffers { x: u8, s: string, l: list<u32> }\n\
             message Collections { b: Buffers, m: map<string, Buffers> }\n\
             message Exception {}\nstruct Span { x: u8 }\nunion Generic { A(Span) = 1 }\n",
        ),
    ]
}

/// The seeds of the random sets this run compiles.
fn random_seeds() -> Vec<u64> {
    if let Ok(seeds) = std::env::var("PKT_SCHEMA_SEED") {
        return seeds
            .split(',')
            .map(|s| {
                s.trim()
                    .parse()
                    .expect("PKT_SCHEMA_SEED is a list of numbers")
            })
            .collect();
    }
    let count = pkt_test_support::scaled(4, 150);
    (1..=count).map(|i| i * 7919).collect()
}

struct Case {
    name: String,
    set: SchemaSet,
    ir: Ir,
}

#[test]
fn accepted_schemas_compile_in_rust_and_csharp() {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("random-schemas");
    let mut cases = Vec::new();
    for (name, set) in known_sets() {
        let ir = checked(&base, &name, &set).unwrap_or_else(|failed| {
            panic!(
                "{name}: a known schema is rejected:\n{failed}\n{}",
                set.listing()
            )
        });
        cases.push(Case { name, set, ir });
    }
    // The generator bounds encoded sizes exactly but memory only roughly
    // (it does not model each language's objects), so a set that only the
    // 64 KiB value bound rejects is replaced by the next seed; too many
    // replacements fail the test, as does any other rejection.
    let seeds = random_seeds();
    let mut replaced = Vec::new();
    for first in seeds.iter().copied() {
        let mut seed = first;
        loop {
            let (name, set) = (format!("seed_{seed}"), schema_set(seed));
            match checked(&base, &name, &set) {
                Ok(ir) => {
                    cases.push(Case { name, set, ir });
                    break;
                }
                Err(failed) if only_over_the_value_bound(&failed) => {
                    replaced.push(seed);
                    seed += 1;
                }
                Err(failed) => panic!(
                    "{name}: a generated schema is rejected:\n{failed}\n{}",
                    set.listing()
                ),
            }
        }
    }
    assert!(
        replaced.len() * 10 <= seeds.len().max(10),
        "{} of {} generated sets were over the value size bound (seeds {replaced:?}): \
         the generator's memory estimate needs work",
        replaced.len(),
        seeds.len()
    );
    let mut failures = Vec::new();
    failures.extend(build_rust(&base, &cases));
    failures.extend(build_csharp(&base, &cases));
    failures.extend(build_typescript(&base, &cases));
    assert!(
        failures.is_empty(),
        "{} of {} schema sets do not compile:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// Writes `set` under `base` and checks it.
fn checked(base: &Path, name: &str, set: &SchemaSet) -> Result<Ir, pktc::Failed> {
    let dir = base.join("schemas").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in &set.files {
        std::fs::write(dir.join(&f.path), &f.text).unwrap();
    }
    pktc::check(&[dir.join(&set.files[0].path)]).map(|c| c.ir)
}

/// Whether every error is the 64 KiB bound on a value's size.
fn only_over_the_value_bound(failed: &pktc::Failed) -> bool {
    let bound = format!("more than the {} a value may take", 64 * 1024);
    failed
        .diagnostics
        .iter()
        .filter(|d| d.severity == pktc::diag::Severity::Error)
        .all(|d| d.message.contains(&bound))
}

/// Whether `tool` runs; without it, a failure under `CI=true` and a loud
/// warning elsewhere.
fn tool_or_skip(tool: &str) -> bool {
    if Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return true;
    }
    let msg = format!("{tool} not found: generated code of random schemas was NOT compiled");
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}");
    false
}

/// The Rust of every case as a module of one crate, built once. Returns a
/// failure per case its errors name (or one for the whole build).
fn build_rust(base: &Path, cases: &[Case]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if !tool_or_skip(&cargo) {
        return Vec::new();
    }
    let krate = base.join("rust");
    let src = krate.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).unwrap();
    let root = common::root();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"random-schemas\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[dependencies]\npkt-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            root.join("runtime").display().to_string()
        ),
    )
    .unwrap();
    // The workspace's lock file: the same dependency versions, found offline.
    std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    let mut lib = String::from(
        "#![deny(warnings)]\n#![allow(clippy::all)]\n\n\
         use pkt_runtime::{Decode, Encode, Viewable};\n\n\
         /// Instantiates every generic path of `T`'s codec.\n\
         pub fn touch<T: Encode + Decode + Default>() {\n\
         \x20   let value = T::default();\n\
         \x20   let bytes = value.encode_to_vec().unwrap_or_default();\n\
         \x20   let mut again = T::decode(&bytes).unwrap_or_default();\n\
         \x20   let _ = again.decode_into(&bytes);\n\
         \x20   let _ = T::decode_for_each(&bytes, drop);\n\
         \x20   let _ = T::decode_prefix(&bytes);\n\
         }\n\n\
         /// And its view's.\n\
         pub fn touch_view<T: Viewable>(bytes: &[u8]) {\n\
         \x20   if let Ok(v) = pkt_runtime::view::view::<T::View<'_>>(bytes, pkt_runtime::Limits::DEFAULT) {\n\
         \x20       let _ = pkt_runtime::View::into_owned(v);\n\
         \x20   }\n\
         }\n\n",
    );
    for case in cases {
        let dir = src.join(&case.name);
        std::fs::create_dir_all(&dir).unwrap();
        for f in generate(&case.ir, &GenOptions::new(Lang::Rust)) {
            std::fs::write(dir.join(&f.path), &f.contents).unwrap();
        }
        let _ = writeln!(
            lib,
            "pub mod {0} {{\n    include!(\"{0}/mod.rs\");\n}}\n\n\
             #[allow(deprecated)]\npub fn touch_{0}(bytes: &[u8]) {{",
            case.name
        );
        for def in &case.ir.types {
            let mut path = vec![format!("crate::{}", case.name)];
            path.extend(
                case.ir
                    .namespace_of(def)
                    .iter()
                    .map(|s| names::ident(Lang::Rust, NameKind::Field, s)),
            );
            path.push(names::type_ident(Lang::Rust, def));
            let path = path.join("::");
            let _ = writeln!(lib, "    touch::<{path}>();");
            let viewed = matches!(def.kind, TypeKind::Message { .. } | TypeKind::Union { .. })
                || matches!(def.kind, TypeKind::Struct { .. }) && !def.layout.is_fixed();
            if viewed {
                let _ = writeln!(lib, "    touch_view::<{path}>(bytes);");
            }
        }
        lib.push_str("}\n\n");
    }
    std::fs::write(src.join("lib.rs"), lib).unwrap();
    let mut failures = rustfmt_failures(&src, cases);
    let out = Command::new(&cargo)
        .args(["build", "--offline", "--quiet", "--message-format=short"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", base.join("rust-target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    if out.status.success() {
        return failures;
    }
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    let failed: Vec<String> = cases
        .iter()
        .filter(|c| text.contains(&format!("src/{}/", c.name)))
        .map(|c| {
            let errors: Vec<&str> = text
                .lines()
                .filter(|l| l.contains(&format!("src/{}/", c.name)))
                .take(12)
                .collect();
            format!(
                "{} (Rust):\n{}\n{}",
                c.name,
                errors.join("\n"),
                c.set.listing()
            )
        })
        .collect();
    if failed.is_empty() {
        failures.push(format!("the Rust build failed:\n{text}"));
    } else {
        failures.extend(failed);
    }
    failures
}

/// The cases whose generated Rust rustfmt would change (generated code is
/// laid out as rustfmt lays it out, however long its names and types).
fn rustfmt_failures(src: &Path, cases: &[Case]) -> Vec<String> {
    if !tool_or_skip("rustfmt") {
        return Vec::new();
    }
    let mut failures = Vec::new();
    for case in cases {
        let files: Vec<PathBuf> = std::fs::read_dir(src.join(&case.name))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let out = Command::new("rustfmt")
            .args(["--edition", "2021", "--check"])
            .args(&files)
            .output()
            .expect("run rustfmt");
        if !out.status.success() {
            let diff = String::from_utf8_lossy(&out.stdout);
            let head: Vec<&str> = diff.lines().take(30).collect();
            failures.push(format!(
                "{} (rustfmt):\n{}\n{}",
                case.name,
                head.join("\n"),
                case.set.listing()
            ));
        }
    }
    failures
}

/// Each case's TypeScript in a directory of its own (modules do not see one
/// another), with its runtime file, all compiled by one `tsc` run.
fn build_typescript(base: &Path, cases: &[Case]) -> Vec<String> {
    if !node::tools_or_skip("random_schemas (TypeScript)") {
        return Vec::new();
    }
    let root = base.join("typescript");
    let _ = std::fs::remove_dir_all(&root);
    for case in cases {
        let dir = root.join(&case.name);
        std::fs::create_dir_all(&dir).unwrap();
        for f in generate(&case.ir, &GenOptions::new(Lang::TypeScript)) {
            std::fs::write(dir.join(&f.path), &f.contents).unwrap();
        }
    }
    std::fs::write(
        root.join("tsconfig.json"),
        r#"{
  "compilerOptions": {
    "strict": true, "noUnusedLocals": true, "noUnusedParameters": true, "noImplicitReturns": true,
    "noEmit": true, "target": "ES2020", "module": "ES2020", "moduleResolution": "bundler", "lib": ["ES2020"]
  },
  "include": ["*/*.ts"]
}
"#,
    )
    .unwrap();
    let out = Command::new("node")
        .arg(node::tsc())
        .args(["-p", "tsconfig.json"])
        .current_dir(&root)
        .output()
        .expect("run tsc");
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && text.trim().is_empty() {
        return Vec::new();
    }
    // Diagnostics start with the file's path, `<case>/<stem>.ts(...)`.
    cases
        .iter()
        .filter_map(|case| {
            let prefix = format!("{}/", case.name);
            let errors: Vec<&str> = text
                .lines()
                .filter(|l| l.starts_with(&prefix))
                .take(12)
                .collect();
            (!errors.is_empty()).then(|| {
                format!(
                    "{} (TypeScript):\n{}\n{}",
                    case.name,
                    errors.join("\n"),
                    case.set.listing()
                )
            })
        })
        .chain(
            (!out.status.success() && !text.lines().any(|l| l.contains(".ts("))).then(|| {
                format!(
                    "tsc failed:\n{text}{}",
                    String::from_utf8_lossy(&out.stderr)
                )
            }),
        )
        .collect()
}

/// Each case's C#, with its runtime file, compiled on its own (cases may
/// share top-level names).
fn build_csharp(base: &Path, cases: &[Case]) -> Vec<String> {
    if !tool_or_skip("mcs") {
        return Vec::new();
    }
    let mut failures = Vec::new();
    for case in cases {
        let dir = base.join("csharp").join(&case.name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut files: Vec<PathBuf> = Vec::new();
        for f in generate(&case.ir, &GenOptions::new(Lang::CSharp)) {
            let p = dir.join(&f.path);
            std::fs::write(&p, &f.contents).unwrap();
            files.push(p);
        }
        let out = Command::new("mcs")
            .args([
                "-langversion:7.2",
                "-warnaserror",
                "-nologo",
                "-target:library",
            ])
            .arg(format!("-out:{}", dir.join("schemas.dll").display()))
            .args(&files)
            .output()
            .expect("run mcs");
        if !out.status.success() {
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let errors: Vec<&str> = text.lines().take(12).collect();
            failures.push(format!(
                "{} (C#):\n{}\n{}",
                case.name,
                errors.join("\n"),
                case.set.listing()
            ));
        }
    }
    failures
}
