//! No orphaned snapshots: every file under `snapshots/` belongs to an input
//! that a snapshot test still reads (a schema, an invalid schema, a compat
//! case, or a name a test spells out). A renamed or deleted schema must take
//! its golden files with it, or reviewers would keep reading stale output.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{root, schemas_in, stem};

fn stems(dir: &str, ext: &str) -> BTreeSet<String> {
    std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| stem(&p))
        .collect()
}

fn case_dirs(dir: &str) -> BTreeSet<String> {
    std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .map(|p| stem(&p))
        .collect()
}

/// Names a test file spells out as string literals (`"messy"`).
fn named_in(test_file: &str, candidates: &BTreeSet<String>) -> BTreeSet<String> {
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(test_file))
        .unwrap_or_else(|e| panic!("cannot read {test_file}: {e}"));
    candidates
        .iter()
        .filter(|c| src.contains(&format!("\"{c}\"")))
        .cloned()
        .collect()
}

#[test]
fn every_snapshot_belongs_to_an_input() {
    let schemas: BTreeSet<String> = schemas_in("schemas").iter().map(|p| stem(p)).collect();
    let invalid: BTreeSet<String> = schemas_in("schemas/invalid")
        .iter()
        .map(|p| stem(p))
        .collect();
    let mut rust = schemas.clone();
    rust.insert("mod".to_owned());

    let mut orphans = Vec::new();
    for dir in case_dirs("snapshots") {
        let found = stems(&format!("snapshots/{dir}"), "snap");
        let expected: BTreeSet<String> = match dir.as_str() {
            "ir" | "layout" | "csharp" => schemas.clone(),
            "rust" => rust.clone(),
            "diagnostics" => invalid.clone(),
            "compat" => case_dirs("schemas/compat"),
            "fmt" => named_in("tests/fmt.rs", &found),
            "inspect" => named_in("tests/inspect.rs", &found),
            "rust_serde" => named_in("tests/rust_serde.rs", &found),
            other => {
                panic!("snapshots/{other}: no test is known to write here; add it to this table")
            }
        };
        orphans.extend(
            found
                .difference(&expected)
                .map(|s| format!("snapshots/{dir}/{s}.snap")),
        );
    }
    assert!(
        orphans.is_empty(),
        "snapshots without an input (delete them, or restore their input): {orphans:?}"
    );
    let pending: Vec<String> = case_dirs("snapshots")
        .iter()
        .flat_map(|d| {
            stems(&format!("snapshots/{d}"), "new")
                .into_iter()
                .map(move |s| format!("snapshots/{d}/{s}.new"))
        })
        .collect();
    assert!(
        pending.is_empty(),
        "unreviewed pending snapshots: {pending:?}"
    );
}
