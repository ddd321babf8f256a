//! No orphaned snapshots: every file under `snapshots/` belongs to an input
//! that a snapshot test still reads (a schema, an invalid schema, a compat
//! case, or a name a test spells out), and was written by the test that the
//! table below names for its directory. A renamed or deleted schema must take
//! its golden files with it, or reviewers would keep reading stale output.
//!
//! This is `cargo insta test --unreferenced=reject` without needing
//! cargo-insta, and stricter where insta cannot see: pending snapshots
//! (`.snap.new`, `.pending-snap`), stray files, nested directories, and
//! `.snap` files outside `snapshots/` fail too.

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
    let warnings: BTreeSet<String> = schemas_in("schemas/warnings")
        .iter()
        .map(|p| stem(p))
        .collect();
    let mut rust = schemas.clone();
    rust.insert("mod".to_owned());

    let mut orphans = Vec::new();
    let mut misplaced = Vec::new();
    for dir in case_dirs("snapshots") {
        let found = stems(&format!("snapshots/{dir}"), "snap");
        // Which inputs have a snapshot here, and which test writes them.
        let (expected, writer): (BTreeSet<String>, &str) = match dir.as_str() {
            "ir" | "layout" => (schemas.clone(), "schemas.rs"),
            "csharp" => (schemas.clone(), "csharp.rs"),
            "typescript" => (schemas.clone(), "typescript_codegen.rs"),
            "rust" => (rust.clone(), "rust_codegen.rs"),
            "diagnostics" => (invalid.clone(), "schemas.rs"),
            "warnings" => (warnings.clone(), "schemas.rs"),
            "compat" => (case_dirs("schemas/compat"), "compat.rs"),
            "fmt" => (named_in("tests/fmt.rs", &found), "fmt.rs"),
            "inspect" => (named_in("tests/inspect.rs", &found), "inspect.rs"),
            "rust_serde" => (named_in("tests/rust_serde.rs", &found), "rust_serde.rs"),
            other => {
                panic!("snapshots/{other}: no test is known to write here; add it to this table")
            }
        };
        orphans.extend(
            found
                .difference(&expected)
                .map(|s| format!("snapshots/{dir}/{s}.snap")),
        );
        let source = format!("source: compiler/tests/{writer}");
        for s in &found {
            let path = format!("snapshots/{dir}/{s}.snap");
            let text = std::fs::read_to_string(root().join(&path)).expect("readable");
            if !text.lines().take(4).any(|l| l == source) {
                misplaced.push(format!("{path} (expected `{source}` in its header)"));
            }
        }
    }
    assert!(
        orphans.is_empty(),
        "snapshots without an input (delete them, or restore their input): {orphans:?}"
    );
    assert!(
        misplaced.is_empty(),
        "snapshots not written by the test of their directory: {misplaced:?}"
    );

    // Everything else under snapshots/: pending snapshots, stray files and
    // directories.
    let mut pending = Vec::new();
    let mut stray = Vec::new();
    for entry in std::fs::read_dir(root().join("snapshots")).expect("snapshots/") {
        let path = entry.expect("entry").path();
        if !path.is_dir() {
            stray.push(path.display().to_string());
            continue;
        }
        for inner in std::fs::read_dir(&path).expect("a snapshot directory") {
            let inner = inner.expect("entry").path();
            let name = inner
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            let shown = inner
                .strip_prefix(root())
                .unwrap_or(&inner)
                .display()
                .to_string();
            if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
                pending.push(shown);
            } else if inner.is_dir() || !name.ends_with(".snap") {
                stray.push(shown);
            }
        }
    }
    assert!(
        pending.is_empty(),
        "unreviewed pending snapshots: {pending:?}"
    );
    assert!(
        stray.is_empty(),
        "files under snapshots/ that no test reads: {stray:?}"
    );
}

/// Snapshot files outside `snapshots/` (insta's default `tests/snapshots/`
/// next to a test, or an inline snapshot's `.pending-snap`) are read by no
/// check above: every snapshot test sets its path into `snapshots/`.
#[test]
fn no_snapshot_lives_outside_the_snapshots_directory() {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("readable directory") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                let skip = name.starts_with('.')
                    || name == "target"
                    || name == "node_modules"
                    || path == root().join("snapshots");
                if !skip {
                    walk(&path, out);
                }
            } else if name.ends_with(".snap")
                || name.ends_with(".snap.new")
                || name.ends_with(".pending-snap")
            {
                out.push(
                    path.strip_prefix(root())
                        .unwrap_or(&path)
                        .display()
                        .to_string(),
                );
            }
        }
    }
    let mut found = Vec::new();
    walk(&root(), &mut found);
    assert!(
        found.is_empty(),
        "snapshot files outside snapshots/ (move them there or delete them): {found:?}"
    );
}
