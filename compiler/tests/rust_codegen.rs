//! The generated Rust as a reviewer sees it: snapshots of every schema's
//! output, determinism, rustfmt cleanliness, and the `gen` command's
//! write-only-when-changed, stale-file and `--check` behaviour. (That the output
//! compiles and behaves is tested by the rust-tests crate.) The output of every
//! schema is also linted with `cargo clippy -- -D warnings` in a crate of its own,
//! and a deep chain of messages across two files is compiled.
//! Each generated file's snapshot is a test case of its own
//! (`generated/game.rs`).

mod common;

use common::trial;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

use pktc::emit::{generate, GenOptions, GeneratedFile};
use pktc::Lang;

fn all_schemas() -> Vec<PathBuf> {
    common::schemas_in("schemas")
}

fn generate_all() -> Vec<GeneratedFile> {
    let checked =
        pktc::check_with(&all_schemas(), &common::RootReader).unwrap_or_else(|f| panic!("{f}"));
    generate(&checked.ir, &GenOptions::new(Lang::Rust))
}

fn main() {
    let mut trials = Vec::new();
    // The test cases are the generated files, so generation runs here. If
    // it panics, the case that counts the files fails with its message and
    // the other cases still run.
    match catch_unwind(AssertUnwindSafe(generate_all)) {
        Ok(files) => {
            let paths: Vec<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
            let schemas = all_schemas().len();
            trials.push(trial("generated_files_found", move || {
                // One file per schema (more with imports) and `mod.rs`; an
                // emptied `schemas/` would leave `mod.rs` alone.
                assert!(
                    schemas >= 9,
                    "expected the example schemas, found {schemas}"
                );
                assert!(paths.len() > schemas, "{paths:?}");
                assert!(paths.iter().any(|p| p == Path::new("mod.rs")));
            }));
            for f in files {
                trials.push(trial(
                    format!("generated/{}", f.path.display()),
                    move || generated_file_matches_its_snapshot(f),
                ));
            }
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".to_string());
            trials.push(trial("generated_files_found", move || {
                panic!("generating the Rust of every schema panicked: {message}")
            }));
        }
    }
    trials.extend([
        trial("generation_is_deterministic", generation_is_deterministic),
        trial(
            "generated_rust_is_rustfmt_clean",
            generated_rust_is_rustfmt_clean,
        ),
        trial(
            "gen_writes_only_changed_files_and_check_reports_staleness",
            gen_writes_only_changed_files_and_check_reports_staleness,
        ),
        trial(
            "config_reports_schema_errors_as_diagnostics",
            config_reports_schema_errors_as_diagnostics,
        ),
        trial(
            "gen_removes_its_own_stale_files_and_nothing_else",
            gen_removes_its_own_stale_files_and_nothing_else,
        ),
        trial(
            "gen_names_the_path_it_cannot_write",
            gen_names_the_path_it_cannot_write,
        ),
        trial(
            "gen_removes_only_files_with_its_exact_header",
            gen_removes_only_files_with_its_exact_header,
        ),
        #[cfg(unix)]
        trial(
            "gen_never_writes_outside_its_directory",
            gen_never_writes_outside_its_directory,
        ),
        trial(
            "write_files_refuses_paths_that_leave_the_directory",
            write_files_refuses_paths_that_leave_the_directory,
        ),
        trial(
            "files_with_the_same_name_get_distinct_outputs",
            files_with_the_same_name_get_distinct_outputs,
        ),
        trial(
            "generated_rust_is_clippy_clean",
            generated_rust_is_clippy_clean,
        ),
        trial(
            "the_deepest_accepted_chains_compile",
            the_deepest_accepted_chains_compile,
        ),
        trial(
            "gen_check_passes_after_gen_with_same_named_files",
            gen_check_passes_after_gen_with_same_named_files,
        ),
        trial(
            "generated_files_do_not_depend_on_the_working_directory",
            generated_files_do_not_depend_on_the_working_directory,
        ),
        trial(
            "safe_changes_break_rust_source_where_documented",
            safe_changes_break_rust_source_where_documented,
        ),
    ]);
    common::run(trials)
}

fn generated_file_matches_its_snapshot(f: GeneratedFile) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(common::root().join("snapshots/rust"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        let name = f.path.to_string_lossy().replace(".rs", "");
        insta::assert_snapshot!(name, f.contents);
    });
}

fn generation_is_deterministic() {
    assert_eq!(generate_all(), generate_all());
}

fn generated_rust_is_rustfmt_clean() {
    let files = generate_all();
    common::assert_rustfmt_clean(&files, "rustfmt-check");
}

fn pktc(args: &[&str]) -> std::process::Output {
    pktc_in(&common::root(), args)
}

fn pktc_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("pktc runs")
}

fn gen_writes_only_changed_files_and_check_reports_staleness() {
    let out = common::root().join("target/gen-check-test");
    let _ = std::fs::remove_dir_all(&out);
    let out_s = out.to_string_lossy().into_owned();
    let schema = "schemas/seed_packets.pkt";

    // --check against an empty directory: everything would change, nothing written.
    let o = pktc(&["gen", "--lang", "rust", "-o", &out_s, "--check", schema]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("would change"));
    assert!(!out.join("seed_packets.rs").exists());

    let o = pktc(&["gen", "--lang", "rust", "-o", &out_s, schema]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let file = out.join("seed_packets.rs");
    let written = std::fs::metadata(&file)
        .expect("written")
        .modified()
        .expect("mtime");

    // Unchanged content: not rewritten, and --check passes.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let o = pktc(&["gen", "--lang", "rust", "-o", &out_s, schema]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        written
    );
    let o = pktc(&["gen", "--lang", "rust", "-o", &out_s, "--check", schema]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    // A hand edit makes --check fail and name the file.
    std::fs::write(&file, "// edited\n").unwrap();
    let o = pktc(&["gen", "--lang", "rust", "-o", &out_s, "--check", schema]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("seed_packets.rs"));
}

fn config_reports_schema_errors_as_diagnostics() {
    let err = pktc::Config::new()
        .out_dir(common::root().join("target/config-error-test"))
        .rerun_if_changed(false)
        .compile(&[common::root().join("schemas/invalid/unknown_type.pkt")])
        .unwrap_err();
    let text = format!("{err:?}");
    assert!(text.contains("error: unknown type `Vector3`"), "{text}");
    assert!(text.contains("unknown_type.pkt:6:15"), "{text}");
}

/// Renaming a schema leaves its old output behind unless `gen` removes it;
/// `gen` removes only files that carry its marker.
fn gen_removes_its_own_stale_files_and_nothing_else() {
    for (lang, ext) in [("rust", "rs"), ("csharp", "cs")] {
        let out = common::root().join(format!("target/gen-stale-test-{lang}"));
        let _ = std::fs::remove_dir_all(&out);
        let out_s = out.to_string_lossy().into_owned();
        let o = pktc(&[
            "gen",
            "--lang",
            lang,
            "-o",
            &out_s,
            "schemas/seed_packets.pkt",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let old = out.join(format!("seed_packets.{ext}"));
        assert!(old.exists());
        // Files pktc did not write, including one of the same extension.
        let mine = out.join(format!("handwritten.{ext}"));
        std::fs::write(&mine, "// written by hand\n").unwrap();
        let other = out.join("notes.txt");
        std::fs::write(&other, "// @generated by pktc, but not a source file\n").unwrap();

        // The schema is renamed: --check reports the old output and keeps it.
        let o = pktc(&[
            "gen",
            "--lang",
            lang,
            "-o",
            &out_s,
            "--check",
            "schemas/small.pkt",
        ]);
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(o.status.code(), Some(1), "{stdout}");
        assert!(
            stdout.contains(&format!("would remove: {}", old.display())),
            "{stdout}"
        );
        assert!(!stdout.contains("handwritten"), "{stdout}");
        assert!(old.exists());

        let o = pktc(&["gen", "--lang", lang, "-o", &out_s, "schemas/small.pkt"]);
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(o.status.code(), Some(0), "{stdout}");
        assert!(
            stdout.contains(&format!("removed {}", old.display())),
            "{stdout}"
        );
        assert!(!old.exists());
        assert!(mine.exists() && other.exists());
        let o = pktc(&[
            "gen",
            "--lang",
            lang,
            "-o",
            &out_s,
            "--check",
            "schemas/small.pkt",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
    }
    // Rust and C# output may share a directory: neither removes the other's.
    let out = common::root().join("target/gen-stale-test-shared");
    let _ = std::fs::remove_dir_all(&out);
    let out_s = out.to_string_lossy().into_owned();
    for lang in ["rust", "csharp", "rust"] {
        let o = pktc(&["gen", "--lang", lang, "-o", &out_s, "schemas/small.pkt"]);
        assert_eq!(o.status.code(), Some(0));
    }
    assert!(out.join("small.rs").exists() && out.join("small.cs").exists());
    // Without the runtime, an earlier run's PktRuntime.cs is stale.
    let o = pktc(&[
        "gen",
        "--lang",
        "csharp",
        "--no-runtime",
        "-o",
        &out_s,
        "schemas/small.pkt",
    ]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("removed"));
    assert!(!out.join("PktRuntime.cs").exists());
}

fn gen_names_the_path_it_cannot_write() {
    let file = common::root().join("target/gen-output-is-a-file");
    std::fs::write(&file, "").unwrap();
    let o = pktc(&[
        "gen",
        "--lang",
        "rust",
        "-o",
        &file.to_string_lossy(),
        "schemas/small.pkt",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains(&format!(
            "{}: the output directory is a file",
            file.display()
        )),
        "{err}"
    );
    let inside = file.join("sub");
    let o = pktc(&[
        "gen",
        "--lang",
        "rust",
        "-o",
        &inside.to_string_lossy(),
        "schemas/small.pkt",
    ]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("os error"), "{err}");
    assert!(err.contains("gen-output-is-a-file"), "{err}");
}

/// A file whose first line merely starts like pktc's header is someone
/// else's: only the exact header (first line, or second after C#'s
/// `<auto-generated/>`) makes a file pktc's to remove.
fn gen_removes_only_files_with_its_exact_header() {
    let out = common::root().join("target/gen-exact-header-test");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let out_s = out.to_string_lossy().into_owned();
    let kept = [
        (
            "tool.rs",
            "// @generated by pktc-like tool, then edited by hand\nfn main() {}\n",
        ),
        (
            "notes.rs",
            "// @generated by pktc from chat.pkt. Do not edit. (I did.)\n",
        ),
        (
            "later.rs",
            "//! docs\n// @generated by pktc from chat.pkt. Do not edit.\n",
        ),
        (
            "empty_source.rs",
            "// @generated by pktc from . Do not edit.\n",
        ),
        (
            "Tool.cs",
            "// <auto-generated/>\n// @generated by pktc, mostly\n",
        ),
    ];
    let removed = [
        (
            "old.rs",
            "// @generated by pktc from schemas/old.pkt. Do not edit.\nfn x() {}\n",
        ),
        (
            "Old.cs",
            "// <auto-generated/>\n// @generated by pktc from old.pkt. Do not edit.\r\n",
        ),
    ];
    for (name, text) in kept.iter().chain(&removed) {
        std::fs::write(out.join(name), text).unwrap();
    }
    for lang in ["rust", "csharp"] {
        let o = pktc(&["gen", "--lang", lang, "-o", &out_s, "schemas/small.pkt"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    for (name, text) in kept {
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            text,
            "{name}"
        );
    }
    for (name, _) in removed {
        assert!(!out.join(name).exists(), "{name} was not removed");
    }
}

/// `gen` writes only inside `-o DIR`: an output path that is a symbolic
/// link (to a file outside, or dangling) or a FIFO is an error that leaves
/// everything as it was, and a file hard-linked from outside is replaced,
/// not written through.
#[cfg(unix)]
fn gen_never_writes_outside_its_directory() {
    let base = common::root().join("target/gen-outside-test");
    let _ = std::fs::remove_dir_all(&base);
    let out = base.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let out_s = out.to_string_lossy().into_owned();
    let outside = base.join("outside.rs");
    std::fs::write(&outside, "// mine\n").unwrap();
    let gen = || pktc(&["gen", "--lang", "rust", "-o", &out_s, "schemas/small.pkt"]);

    for link_to in [outside.clone(), base.join("missing.rs")] {
        std::os::unix::fs::symlink(&link_to, out.join("small.rs")).unwrap();
        let o = gen();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains(
                "small.rs: is a symbolic link: pktc writes only inside the output directory"
            ),
            "{err}"
        );
        assert!(
            !out.join("mod.rs").exists(),
            "nothing is written after a refusal"
        );
        assert!(!base.join("missing.rs").exists());
        std::fs::remove_file(out.join("small.rs")).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "// mine\n");

    // A FIFO where an output goes: refused, not read (which would block).
    let fifo = std::ffi::CString::new(out.join("small.rs").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0, "mkfifo");
    let o = gen();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("small.rs: is not a regular file"), "{err}");
    std::fs::remove_file(out.join("small.rs")).unwrap();

    std::fs::hard_link(&outside, out.join("small.rs")).unwrap();
    let o = gen();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "// mine\n");
    assert!(pktc::emit::output::is_generated(
        &std::fs::read_to_string(out.join("small.rs")).unwrap()
    ));
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A backend's file path that is absolute or climbs out with `..` is
/// refused before anything is written.
fn write_files_refuses_paths_that_leave_the_directory() {
    let out = common::root().join("target/write-files-escape-test/out");
    let _ = std::fs::remove_dir_all(out.parent().unwrap());
    for path in ["../escape.rs", "/tmp/escape.rs", "sub/../../escape.rs", ""] {
        let files = [
            GeneratedFile {
                path: "fine.rs".into(),
                contents: "// @generated by pktc. Do not edit.\n".into(),
            },
            GeneratedFile {
                path: path.into(),
                contents: "// @generated by pktc. Do not edit.\n".into(),
            },
        ];
        let err =
            pktc::emit::write_files(&out, &files, pktc::emit::WriteMode::Write).expect_err(path);
        assert!(
            err.message.contains("leaves the output directory")
                || err.message.contains("empty name"),
            "{path}: {err}"
        );
        assert!(!out.join("fine.rs").exists(), "{path}");
        assert!(!out.parent().unwrap().join("escape.rs").exists(), "{path}");
    }
}

fn files_with_the_same_name_get_distinct_outputs() {
    let checked = common::check(Path::new("schemas/same_stem/top.pkt")).expect("valid");
    let files = generate(&checked.ir, &GenOptions::new(Lang::Rust));
    let names: Vec<_> = files.iter().map(|f| f.path.display().to_string()).collect();
    assert_eq!(names, ["top.rs", "common.rs", "common_2.rs", "mod.rs"]);
    assert!(files
        .iter()
        .all(|f| pktc::emit::output::is_generated(&f.contents)));
}

/// The generated Rust of every schema, in a crate of its own, passes
/// `cargo clippy -- -D warnings` in a crate that also denies `missing_docs`,
/// `clippy::pedantic` and other lints strict crates deny: users compile it
/// with their own lints. A `u8` enum with every value named is among them
/// (its `from_raw` has no arm left for `Unknown`).
/// Without cargo-clippy: a failure under `CI=true`, a loud warning elsewhere.
fn generated_rust_is_clippy_clean() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let has_clippy = Command::new(&cargo)
        .args(["clippy", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_clippy {
        let msg = "cargo clippy is not available; generated code was not linted";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}");
        }
        eprintln!("warning: {msg}");
        return;
    }
    let dir = common::root().join("target/clippy-generated");
    let src = dir.join("src");
    let _ = std::fs::remove_dir_all(&src);
    let every_u8 = dir.join("every_u8.pkt");
    std::fs::create_dir_all(&dir).expect("create crate dir");
    std::fs::write(&every_u8, every_u8_schema()).expect("write schema");
    let sets: [(&str, Vec<PathBuf>); 4] = [
        ("all", all_schemas()),
        (
            "same_stem",
            vec![PathBuf::from("schemas/same_stem/top.pkt")],
        ),
        ("stable", vec![PathBuf::from("schemas/stable/v2/game.pkt")]),
        ("every_u8", vec![every_u8]),
    ];
    let mut lib = String::from(
        "//! Generated code under the lints of a strict crate.\n\
         #![deny(\n\
             missing_docs,\n\
             missing_debug_implementations,\n\
             missing_copy_implementations,\n\
             unreachable_pub,\n\
             unused_qualifications,\n\
             unused_results,\n\
             trivial_casts,\n\
             trivial_numeric_casts,\n\
             rust_2018_idioms,\n\
             single_use_lifetimes,\n\
             variant_size_differences,\n\
             clippy::pedantic,\n\
             clippy::nursery\n\
         )]\n",
    );
    for (name, schemas) in &sets {
        generate_into(&src.join(name), schemas);
        lib.push_str(&format!(
            "/// The `{name}` schemas.\npub mod generated_{name} {{\n    include!(\"{name}/mod.rs\");\n}}\n"
        ));
    }
    std::fs::write(src.join("lib.rs"), lib).expect("write lib.rs");
    let out = cargo_on_crate(
        &dir,
        "pkt-generated-clippy",
        &["clippy", "--offline", "--quiet", "--", "-D", "warnings"],
    );
    assert!(
        out.status.success(),
        "generated code is not clippy-clean:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An enum whose values name every number of its `u8` base.
fn every_u8_schema() -> String {
    let values: String = (0..=255).map(|n| format!("    V{n} = {n},\n")).collect();
    format!("namespace every_u8;\n\nenum Full : u8 {{\n{values}}}\n\nmessage M {{\n    full: Full,\n}}\n")
}

/// The deepest chains `pktc check` accepts compile (`cargo check`), and one
/// more is a `check` error (`sema/depth.rs`):
/// - 63 messages each holding the next inline, the last holding a message
///   of another file: every value nests 64 levels, the depth limit. rustc
///   evaluates the decoded-size models (`pkt_runtime::memory!`) along the
///   chain, and the model at the head is the IR's. 64 messages and the
///   tail are refused (no value of them can be encoded).
/// - 127 structs each holding the next inline: 127 Rust types nested in one
///   another. 128 fail in rustc ("reached the recursion limit finding the
///   struct tail", its `recursion_limit` being 128) and are refused.
/// - 62 structs each holding a `map<u8, Next>` and 127 each holding a
///   `list<Next>`: 126 and 127 drop-check steps. 63 and 128 overflow rustc's
///   drop check (E0320) and are refused.
/// - 63 `@delta` structs each holding the next, the last holding a struct:
///   patches nested 127 levels (each `@delta` type's patch holds the next
///   in an `Option`). 63 holding a chain of two structs fail in rustc
///   ("queries overflow the depth limit!") and are refused, and so are 64
///   holding a `u32` (128 levels as counted).
///
/// Every chain is compiled twice, without and with serde derives (the
/// derives hold a field's value in an `Option` in a `ControlFlow`, one step
/// deeper than the generated code without them goes).
fn the_deepest_accepted_chains_compile() {
    let dir = common::root().join("target/deep-chain-generated");
    let src = dir.join("src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src).expect("create source dir");
    // `n` declarations `{decl} {prefix}{i} { {first}, next: <the next> }`,
    // the last holding `last`, each `next` type written by `wrap`.
    let links = |decl: &str,
                 prefix: &str,
                 first: &str,
                 n: usize,
                 last: &str,
                 wrap: &dyn Fn(&str) -> String| {
        let mut chain = String::new();
        for i in 0..n {
            let next = if i + 1 < n {
                format!("{prefix}{}", i + 1)
            } else {
                last.to_string()
            };
            chain.push_str(&format!(
                "\n{decl} {prefix}{i} {{\n    {first},\n    next: {},\n}}\n",
                wrap(&next)
            ));
        }
        chain
    };
    let inline = |t: &str| t.to_string();
    let messages = |n: usize| {
        "namespace deep.chain;\n\nimport \"tail.pkt\";\n".to_string()
            + &links("message", "M", "v: u32", n, "deep.tail.Tail", &inline)
    };
    let structs = |n: usize| {
        "namespace deep.structs;\n".to_string() + &links("struct", "S", "v: u8", n, "u8", &inline)
    };
    let through = |namespace: &str, wrap: &dyn Fn(&str) -> String, n: usize| {
        format!("namespace deep.{namespace};\n") + &links("struct", "P", "v: u8", n, "u8", wrap)
    };
    let maps = |n: usize| through("maps", &|t: &str| format!("map<u8, {t}>"), n);
    // `n` @delta structs each holding the next, the last a chain of `tail`
    // plain structs (a `u32` if none).
    let deltas = |n: usize, tail: usize| {
        let last = if tail == 0 { "u32" } else { "S0" };
        "namespace deep.deltas;\n".to_string()
            + &links("@delta struct", "D", "a: u32", n, last, &inline)
            + &links("struct", "S", "v: u8", tail, "u8", &inline)
    };
    let lists = |n: usize| through("lists", &|t: &str| format!("list<{t}>"), n);
    std::fs::write(
        src.join("tail.pkt"),
        "namespace deep.tail;\n\nmessage Tail {\n    text: string,\n}\n",
    )
    .expect("write tail.pkt");
    for (name, text, error) in [
        (
            "chain.pkt",
            messages(64),
            "error: every value of message `M0` nests 65 messages and unions deep",
        ),
        (
            "structs.pkt",
            structs(128),
            "error: struct `S0` nests 128 types deep in generated Rust, more than the 127",
        ),
        (
            "maps.pkt",
            maps(63),
            "error: struct `P0` nests 128 drop-check steps deep in generated Rust, more than \
             the 127 rustc follows",
        ),
        (
            "lists.pkt",
            lists(128),
            "error: struct `P0` nests 128 drop-check steps deep in generated Rust, more than \
             the 127 rustc follows",
        ),
        (
            "deltas.pkt",
            deltas(63, 2),
            "error: the patch of @delta struct `D0` nests 128 types deep in generated Rust, \
             more than the 127 rustc lays out",
        ),
        (
            "deltas.pkt",
            deltas(64, 0),
            "error: the patch of @delta struct `D0` nests 128 types deep in generated Rust, \
             more than the 127 rustc lays out",
        ),
    ] {
        std::fs::write(src.join(name), text).expect("write the schema");
        let Err(failed) = pktc::check(&[src.join(name)]) else {
            panic!("{name}: one more than the limit was accepted");
        };
        assert!(failed.to_string().starts_with(error), "{failed}");
    }
    std::fs::write(src.join("chain.pkt"), messages(63)).expect("write chain.pkt");
    std::fs::write(src.join("structs.pkt"), structs(127)).expect("write structs.pkt");
    std::fs::write(src.join("maps.pkt"), maps(62)).expect("write maps.pkt");
    std::fs::write(src.join("lists.pkt"), lists(127)).expect("write lists.pkt");
    std::fs::write(src.join("deltas.pkt"), deltas(63, 1)).expect("write deltas.pkt");
    let schemas = [
        "chain.pkt",
        "structs.pkt",
        "maps.pkt",
        "lists.pkt",
        "deltas.pkt",
    ]
    .map(|f| src.join(f));
    let checked = generate_into(&src.join("generated"), &schemas);
    let mut with_serde = GenOptions::new(Lang::Rust);
    with_serde.serde = true;
    generate_into_with(&src.join("with_serde"), &schemas, &with_serde);
    let head = checked
        .ir
        .types
        .iter()
        .find(|t| t.name == "M0")
        .expect("M0");
    std::fs::write(
        src.join("lib.rs"),
        format!(
            "pub mod generated {{\n    include!(\"generated/mod.rs\");\n}}\n\n\
             pub mod with_serde {{\n    include!(\"with_serde/mod.rs\");\n}}\n\n\
             pub fn head_memory() -> usize {{\n    \
             <generated::deep::chain::M0 as ::pkt_runtime::Decode>::MEMORY\n}}\n\n\
             pub fn head_size() -> usize {{\n    \
             <generated::deep::structs::S0 as ::pkt_runtime::FixedSize>::SIZE\n}}\n\n\
             const _: () = assert!(\n    \
             <generated::deep::chain::M0 as ::pkt_runtime::Decode>::MEMORY == {}\n);\n\n{}",
            head.memory.size, DEEPEST_VALUE_TEST
        ),
    )
    .expect("write lib.rs");
    let out = cargo_on_crate_with(
        &dir,
        "pkt-deep-chain",
        SERDE_DEPENDENCIES,
        &["test", "--offline", "--quiet"],
    );
    assert!(
        out.status.success(),
        "the deepest accepted chains do not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The smallest value of the deepest accepted message chain encodes and
/// decodes at the depth limit; held by one message more, or decoded with a
/// limit of one level less, it is `DepthExceeded`.
const DEEPEST_VALUE_TEST: &str = r#"#[test]
fn the_smallest_value_of_the_deepest_chain_round_trips() {
    use ::pkt_runtime::{Decode, Encode, Limits};
    use generated::deep::chain::M0;
    let value = M0::default();
    let bytes = value.encode_to_vec().expect("64 levels encode");
    assert_eq!(M0::decode(&bytes).expect("64 levels decode"), value);
    let e = value.check_at(1, Limits::DEFAULT.max_depth).expect_err("65 levels");
    assert!(format!("{e:?}").contains("DepthExceeded"), "{e:?}");
    let shallower = Limits { max_depth: 63, ..Limits::DEFAULT };
    let e = M0::decode_with_limits(&bytes, shallower).expect_err("64 levels, 63 allowed");
    assert!(format!("{e:?}").contains("DepthExceeded"), "{e:?}");
}
"#;

/// Runs cargo with `args` on the crate `name` at `dir` (its `src/lib.rs`
/// written by the caller), which depends on this workspace's runtime and
/// builds into its own target directory.
fn cargo_on_crate(dir: &Path, name: &str, args: &[&str]) -> std::process::Output {
    cargo_on_crate_with(dir, name, "", args)
}

/// What a crate with serde derives in its generated code adds to the
/// runtime dependency, as rust-tests-serde does.
const SERDE_DEPENDENCIES: &str =
    ", features = [\"serde\"] }\nserde = { version = \"1\", features = [\"derive\"]";

/// [`cargo_on_crate`], with `more` written after the runtime's path in its
/// dependency line.
fn cargo_on_crate_with(dir: &Path, name: &str, more: &str, args: &[&str]) -> std::process::Output {
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\npkt-runtime = {{ path = {:?}{more} }}\n\n[workspace]\n",
            common::root().join("runtime").display().to_string()
        ),
    )
    .expect("write Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    Command::new(&cargo)
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .unwrap_or_else(|e| panic!("run cargo {args:?}: {e}"))
}

/// Before outputs had distinct names, the second `common.cs` overwrote the
/// first on every run and `--check` never passed.
fn gen_check_passes_after_gen_with_same_named_files() {
    for lang in ["rust", "csharp"] {
        let out = common::root().join(format!("target/gen-same-stem-{lang}"));
        let _ = std::fs::remove_dir_all(&out);
        let out_s = out.to_string_lossy().into_owned();
        let schema = "schemas/same_stem/top.pkt";
        let o = pktc(&["gen", "--lang", lang, "-o", &out_s, schema]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let o = pktc(&["gen", "--lang", lang, "-o", &out_s, "--check", schema]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
        let ext = if lang == "rust" { "rs" } else { "cs" };
        let first = std::fs::read_to_string(out.join(format!("common.{ext}"))).unwrap();
        let second = std::fs::read_to_string(out.join(format!("common_2.{ext}"))).unwrap();
        assert!(first.contains("client/common.pkt"), "{first}");
        assert!(second.contains("server/common.pkt"), "{second}");
    }
}

/// The same schema generated into the same directory from the workspace
/// root, from the schema's directory and with absolute paths gives the same
/// bytes, and `--check` passes whichever directory it runs in: headers name
/// the schema by its path from the output directory.
fn generated_files_do_not_depend_on_the_working_directory() {
    let root = common::root();
    let out = root.join("target/gen-cwd-test");
    let (out_abs, schema_abs) = (
        out.to_string_lossy().into_owned(),
        root.join("schemas/game.pkt").to_string_lossy().into_owned(),
    );
    let schemas = root.join("schemas");
    let runs: [(&Path, &str, &str); 3] = [
        (&root, "target/gen-cwd-test", "schemas/game.pkt"),
        (&schemas, "../target/gen-cwd-test", "game.pkt"),
        (Path::new("/"), &out_abs, &schema_abs),
    ];
    for lang in ["rust", "csharp"] {
        let _ = std::fs::remove_dir_all(&out);
        let mut first: Option<Vec<(PathBuf, Vec<u8>)>> = None;
        for (dir, out_arg, schema) in runs {
            let o = pktc_in(dir, &["gen", "--lang", lang, "-o", out_arg, schema]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&out)
                .expect("output directory")
                .map(|e| {
                    let p = e.expect("entry").path();
                    let bytes = std::fs::read(&p).expect("generated file");
                    (p, bytes)
                })
                .collect();
            files.sort();
            let game = files
                .iter()
                .find(|(p, _)| p.file_stem().is_some_and(|s| s == "game"))
                .expect("game's output");
            let header = String::from_utf8_lossy(&game.1[..200]).into_owned();
            assert!(
                header.contains("from ../../schemas/game.pkt."),
                "{lang} from {}: {header}",
                dir.display()
            );
            match &first {
                None => first = Some(files),
                Some(f) => assert!(
                    *f == files,
                    "{lang}: generating from {} changed the output",
                    dir.display()
                ),
            }
        }
        for (dir, out_arg, schema) in runs {
            let o = pktc_in(
                dir,
                &["gen", "--lang", lang, "-o", out_arg, "--check", schema],
            );
            assert_eq!(
                o.status.code(),
                Some(0),
                "{lang}: --check from {} failed: {}",
                dir.display(),
                String::from_utf8_lossy(&o.stdout)
            );
        }
    }
}

/// What docs/evolution.md says a safe change does to Rust source, checked
/// with `cargo check` on code written against version 1 of
/// `schemas/evolution`, compiled against versions 1 and 2 (appended fields,
/// a new variant, a new enum value, a deprecation): the recommended idioms
/// (`inputs/source_compat/robust.rs`) compile against both without a
/// warning; code that names every field or matches every case
/// (`brittle.rs`) compiles against version 1 and fails against version 2
/// with exactly the errors and warnings its markers name, on their lines.
fn safe_changes_break_rust_source_where_documented() {
    let root = common::root();
    let dir = root.join("target/source-compat");
    let src = dir.join("src");
    let _ = std::fs::remove_dir_all(&src);
    let mut lib = String::from("//! Version 1 code against both versions.\n#![allow(dead_code)]\n");
    for v in ["v1", "v2"] {
        let schema = PathBuf::from(format!("schemas/evolution/{v}/protocol.pkt"));
        generate_into(&src.join(v), &[schema]);
        lib.push_str(&format!(
            "pub mod {v} {{\n    include!(\"{v}/mod.rs\");\n}}\n"
        ));
        for code in ["robust", "brittle"] {
            let text = std::fs::read_to_string(
                root.join(format!("compiler/tests/inputs/source_compat/{code}.rs")),
            )
            .expect("read user code");
            // The `use` line keeps every other line where it is in the input.
            let file = format!("{code}_{v}.rs");
            std::fs::write(
                src.join(&file),
                format!("use crate::{v}::evo::protocol as proto; {text}"),
            )
            .expect("write user code");
            lib.push_str(&format!("#[path = \"{file}\"]\npub mod {code}_{v};\n"));
        }
    }
    std::fs::write(src.join("lib.rs"), lib).expect("write lib.rs");
    let out = cargo_on_crate(
        &dir,
        "pkt-source-compat",
        &["check", "--offline", "--quiet", "--message-format=json"],
    );
    // (file, line, "error[E0063]" or "warning[deprecated]") of every diagnostic.
    let mut found: Vec<(String, usize, String)> = Vec::new();
    let mut rendered = String::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-message" {
            continue;
        }
        let m = &v["message"];
        let level = m["level"].as_str().unwrap_or("");
        if !matches!(level, "error" | "warning") {
            continue;
        }
        rendered.push_str(m["rendered"].as_str().unwrap_or(""));
        let Some(span) = m["spans"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["is_primary"] == true))
        else {
            continue; // "aborting due to ..." and the counts
        };
        let code = m["code"]["code"].as_str().unwrap_or("none");
        let file = span["file_name"].as_str().unwrap_or("").replace('\\', "/");
        let file = file.rsplit('/').next().unwrap_or("").to_string();
        found.push((
            file,
            span["line_start"].as_u64().unwrap_or(0) as usize,
            format!("{level}[{code}]"),
        ));
    }
    found.sort();
    let brittle =
        std::fs::read_to_string(root.join("compiler/tests/inputs/source_compat/brittle.rs"))
            .expect("read brittle.rs");
    let mut expected: Vec<(String, usize, String)> = brittle
        .lines()
        .enumerate()
        .flat_map(|(i, line)| {
            let comment = line.split_once("// ").map_or("", |(_, c)| c);
            comment
                .split(|c: char| c.is_whitespace() || c == ':')
                .filter(|w| w.starts_with("error[") || w.starts_with("warning["))
                .map(move |w| ("brittle_v2.rs".to_string(), i + 1, w.to_string()))
                .collect::<Vec<_>>()
        })
        .collect();
    expected.sort();
    assert!(
        expected.iter().filter(|e| e.2.starts_with("error")).count() >= 4,
        "brittle.rs lost its markers"
    );
    assert_eq!(found, expected, "cargo check said:\n{rendered}");
    assert!(
        !out.status.success(),
        "version 2 compiled code it must break"
    );
}

/// The Rust generated from `schemas` (read from the workspace root, or
/// absolute), written into `out`; the checked schemas are returned.
fn generate_into(out: &Path, schemas: &[PathBuf]) -> pktc::Checked {
    generate_into_with(out, schemas, &GenOptions::new(Lang::Rust))
}

fn generate_into_with(out: &Path, schemas: &[PathBuf], options: &GenOptions) -> pktc::Checked {
    let checked = pktc::check_with(schemas, &common::RootReader).unwrap_or_else(|f| panic!("{f}"));
    std::fs::create_dir_all(out).expect("create source dir");
    for f in generate(&checked.ir, options) {
        std::fs::write(out.join(&f.path), &f.contents).expect("write generated file");
    }
    checked
}
