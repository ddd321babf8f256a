//! Compiling TypeScript with `tsc` and running it under `node`.
//!
//! TypeScript 5 is installed once, with npm, into `target/ts-tools` (nothing
//! is committed or installed globally). Without node and npm the TypeScript
//! side cannot be tested: under `CI=true` that is a failure; elsewhere the
//! test prints a loud warning and returns.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The TypeScript release the tests compile with.
const TYPESCRIPT: &str = "typescript@5";

fn available(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Whether node and npm are here; panics under CI when they are not.
pub fn tools_or_skip(test: &str) -> bool {
    if available("node") && available("npm") {
        return true;
    }
    let msg = format!(
        "{test}: node/npm not found, so the TypeScript side was NOT tested (install Node.js 18 or later)"
    );
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}");
    false
}

/// The target directory (the parent of `CARGO_TARGET_TMPDIR`, which is set
/// for integration tests; the examples that share this module use the
/// workspace's `target/`).
fn target_dir() -> PathBuf {
    match option_env!("CARGO_TARGET_TMPDIR") {
        Some(tmp) => {
            let tmp = PathBuf::from(tmp);
            tmp.parent().map_or(tmp.clone(), Path::to_path_buf)
        }
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

/// The `tsc` script of TypeScript 5 under `target/ts-tools`, installed on
/// first use. The install goes to a fresh directory that is renamed into
/// place, so test binaries running at once never see half of it.
pub fn tsc() -> PathBuf {
    static TSC: OnceLock<PathBuf> = OnceLock::new();
    TSC.get_or_init(|| {
        let dir = target_dir().join("ts-tools");
        let script = dir.join("node_modules/typescript/bin/tsc");
        if script.exists() {
            return script;
        }
        let staging = target_dir().join(format!("ts-tools.{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir_all(&staging).expect("create the staging directory");
        let out = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&staging)
            .arg(TYPESCRIPT)
            .output()
            .expect("run npm");
        assert_ok("npm install typescript", &out);
        // Another process may have won the race; its install is as good.
        if std::fs::rename(&staging, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&staging);
        }
        assert!(
            script.exists(),
            "{} missing after npm install",
            script.display()
        );
        script
    })
    .clone()
}

/// Runs `tsc` with `args` in `dir`; panics with its diagnostics unless it
/// succeeds with no output (a warning or error is a failure).
pub fn compile(dir: &Path, args: &[&str]) {
    let out = Command::new("node")
        .arg(tsc())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run tsc");
    assert_ok(&format!("tsc {}", args.join(" ")), &out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.trim().is_empty(),
        "tsc printed diagnostics:\n{stdout}"
    );
}

/// Type-checks every `.ts` file directly in `dir` under `tsc --strict`
/// with the unused-code checks, emitting nothing ([`compile`]).
#[allow(dead_code)]
pub fn check_strict(dir: &Path) {
    std::fs::write(
        dir.join("tsconfig.json"),
        r#"{
  "compilerOptions": {
    "strict": true, "noUnusedLocals": true, "noUnusedParameters": true, "noImplicitReturns": true,
    "noEmit": true, "target": "ES2020", "module": "ES2020", "moduleResolution": "bundler", "lib": ["ES2020"]
  },
  "include": ["*.ts"]
}
"#,
    )
    .expect("write tsconfig.json");
    compile(dir, &["-p", "tsconfig.json"]);
}

/// Runs `node` with `args` in `dir`; panics with its output unless it
/// succeeds. Returns its standard output.
pub fn run(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("node")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run node");
    assert_ok(&format!("node {}", args.join(" ")), &out);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_ok(what: &str, out: &Output) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
