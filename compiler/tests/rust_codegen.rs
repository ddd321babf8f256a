//! The generated Rust as a reviewer sees it: snapshots of every schema's
//! output, determinism, rustfmt cleanliness, and the `gen` command's
//! write-only-when-changed and `--check` behaviour. (That the output
//! compiles, is clippy-clean and behaves is tested by the rust-tests crate.)

mod common;

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

#[test]
fn generated_rust_matches_snapshots() {
    let files = generate_all();
    assert!(files.iter().any(|f| f.path == Path::new("mod.rs")));
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(common::root().join("snapshots/rust"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for f in &files {
            let name = f.path.to_string_lossy().replace(".rs", "");
            insta::assert_snapshot!(name, f.contents);
        }
    });
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(generate_all(), generate_all());
}

#[test]
fn generated_rust_is_rustfmt_clean() {
    let files = generate_all();
    common::assert_rustfmt_clean(&files, "rustfmt-check");
}

fn pktc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("pktc runs")
}

#[test]
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

#[test]
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
