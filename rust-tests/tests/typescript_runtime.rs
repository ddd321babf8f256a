//! The TypeScript runtime (`runtime/typescript`): it compiles under
//! `tsc --strict` without a diagnostic, its node tests pass, and its
//! package.json is publishable as the same version as the Rust runtime.

mod support;

use std::path::{Path, PathBuf};

use support::{mono, node};

fn runtime_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/typescript")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name");
        if name == "dist" || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            copy_tree(&path, &to.join(name));
        } else {
            std::fs::copy(&path, to.join(name)).expect("copy");
        }
    }
}

#[test]
fn runtime_compiles_strict_and_its_node_tests_pass() {
    if !node::tools_or_skip("runtime_compiles_strict_and_its_node_tests_pass") {
        return;
    }
    let dir = mono::work_dir("typescript_runtime");
    copy_tree(&runtime_dir(), &dir);
    // The package build: tsconfig.json is strict with every unused-code check.
    node::compile(&dir, &["-p", "."]);
    assert!(dir.join("dist/index.js").exists() && dir.join("dist/index.d.ts").exists());
    // The one module also compiles on its own with only `--strict`, as the
    // copy beside generated code is compiled by a user's own settings.
    node::compile(
        &dir,
        &[
            "--strict",
            "--noEmit",
            "--target",
            "ES2020",
            "--module",
            "ES2020",
            "src/index.ts",
        ],
    );
    node::compile(&dir, &["-p", "test"]);
    let out = node::run(&dir, &["--test", "test/dist/test/"]);

    let declared: usize = ["reader", "writer"]
        .iter()
        .map(|f| {
            let src = std::fs::read_to_string(dir.join(format!("test/{f}.test.ts"))).expect("test");
            src.matches("\ntest(").count()
        })
        .sum();
    let count = |key: &str| -> usize {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key} ")))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no `# {key}` line in the node output:\n{out}"))
    };
    assert!(declared >= 18, "{declared} node tests declared");
    assert_eq!(count("pass"), declared, "{out}");
    assert_eq!(count("fail"), 0, "{out}");
    assert_eq!(count("skipped"), 0, "{out}");
}

#[test]
fn package_json_is_publishable_as_the_rust_runtimes_version() {
    let text = std::fs::read_to_string(runtime_dir().join("package.json")).expect("package.json");
    let pkg: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    let cargo = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/Cargo.toml"),
    )
    .expect("runtime/Cargo.toml");
    let version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("runtime version");
    assert_eq!(pkg["name"], "pkt-runtime");
    assert_eq!(pkg["version"], version);
    assert_eq!(pkg["type"], "module");
    assert_eq!(pkg["sideEffects"], false);
    assert!(
        pkg.get("dependencies").is_none(),
        "the runtime has no dependencies"
    );
    assert_eq!(pkg["exports"]["."]["import"], "./dist/index.js");
    assert_eq!(pkg["types"], "./dist/index.d.ts");
    let files: Vec<&str> = pkg["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f.as_str().expect("file"))
        .collect();
    for f in [
        "dist/index.js",
        "dist/index.d.ts",
        "src/index.ts",
        "README.md",
    ] {
        assert!(files.contains(&f), "{f} is not published");
    }
    assert!(runtime_dir().join("README.md").exists());
    // The source has no imports, so that it can be copied beside generated code.
    let src = std::fs::read_to_string(runtime_dir().join("src/index.ts")).expect("index.ts");
    assert!(
        !src.lines().any(|l| l.starts_with("import ")),
        "src/index.ts imports something"
    );
}
