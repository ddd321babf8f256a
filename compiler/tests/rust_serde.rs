//! The generated Rust with serde derives on (`GenOptions::serde`): a snapshot
//! of the coverage schema, rustfmt cleanliness, and that with the option off
//! nothing mentions serde. (That the output compiles and round-trips through
//! serde_json is tested by the rust-tests-serde crate.)

mod common;

use pktc::emit::{generate, GenOptions, GeneratedFile};
use pktc::Lang;

fn generate_with(schema: &str, serde: bool) -> Vec<GeneratedFile> {
    let checked = pktc::check_with(&[std::path::PathBuf::from(schema)], &common::RootReader)
        .unwrap_or_else(|f| panic!("{f}"));
    let mut options = GenOptions::new(Lang::Rust);
    options.serde = serde;
    generate(&checked.ir, &options)
}

#[test]
fn serde_output_matches_snapshot() {
    let files = generate_with("schemas/everything.pkt", true);
    let file = files
        .iter()
        .find(|f| f.path.to_str() == Some("everything.rs"))
        .expect("everything.rs");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(common::root().join("snapshots/rust_serde"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("everything", file.contents));
}

#[test]
fn serde_attributes_appear_only_when_asked() {
    for schema in common::schemas_in("schemas") {
        let rel = schema.to_str().expect("utf-8 path");
        for f in generate_with(rel, false) {
            assert!(!f.contents.contains("serde"), "{}", f.path.display());
        }
        let on = generate_with(rel, true);
        for f in on.iter().filter(|f| f.path.to_str() != Some("mod.rs")) {
            // Every owned type; borrowed views (`pub struct TView<'a>`)
            // borrow their input and are not serialized.
            let types = f
                .contents
                .lines()
                .filter(|l| l.starts_with("pub struct ") || l.starts_with("pub enum "))
                .filter(|l| !l.ends_with("<'a> {"))
                .count();
            let derives = f
                .contents
                .matches(", ::serde::Serialize, ::serde::Deserialize)]\n")
                .count();
            assert_eq!(types, derives, "{}", f.path.display());
        }
    }
}

#[test]
fn serde_output_is_rustfmt_clean() {
    let files = generate_with("schemas/everything.pkt", true);
    common::assert_rustfmt_clean(&files, "rustfmt-check-serde");
}
