//! Compiling generated C# with Mono's `mcs` and running it under `mono`.
//!
//! Without the tools the C# side cannot be tested: under `CI=true` that is a
//! failure; elsewhere the test prints a loud warning and returns.

use std::path::{Path, PathBuf};
use std::process::Command;

use pktc::emit::{generate, GenOptions};
use pktc::ir::{Ir, TypeId};
use pktc::names::{self, Lang, NameKind};

fn available(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Whether the C# tools are here; panics under CI when they are not.
pub fn tools_or_skip(test: &str) -> bool {
    if available("mcs") && available("mono") {
        return true;
    }
    let msg = format!(
        "{test}: mcs/mono not found, so the C# side was NOT tested (apt-get install mono-devel)"
    );
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}");
    false
}

/// A clean directory under the target directory for one test.
pub fn work_dir(test: &str) -> PathBuf {
    // Set for integration tests; examples that share this module use the system's.
    let base = option_env!("CARGO_TARGET_TMPDIR").map_or_else(std::env::temp_dir, PathBuf::from);
    let dir = base.join(test);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clean work dir");
    }
    std::fs::create_dir_all(&dir).expect("create work dir");
    dir
}

/// `global::Ns.Type` for a declared type.
pub fn csharp_name(ir: &Ir, id: TypeId) -> String {
    let def = ir.ty(id);
    let mut parts: Vec<String> = ir
        .namespace_of(def)
        .iter()
        .map(|s| names::ident(Lang::CSharp, NameKind::Type, s))
        .collect();
    parts.push(names::type_ident(Lang::CSharp, def));
    format!("global::{}", parts.join("."))
}

/// Writes the C# generated from `ir` (with the runtime file) and `sources`
/// into `dir`, compiles them warning-free into `name.exe`, and returns its path.
pub fn build(dir: &Path, ir: &Ir, sources: &[(&str, String)], name: &str) -> PathBuf {
    let mut files = Vec::new();
    for f in generate(ir, &GenOptions::new(Lang::CSharp)) {
        let p = dir.join(&f.path);
        std::fs::write(&p, &f.contents).expect("write generated C#");
        files.push(p);
    }
    for (file, text) in sources {
        let p = dir.join(file);
        std::fs::write(&p, text).expect("write C# source");
        files.push(p);
    }
    let exe = dir.join(format!("{name}.exe"));
    let out = Command::new("mcs")
        .args(["-langversion:7.2", "-optimize+", "-warnaserror", "-nologo"])
        .arg(format!("-out:{}", exe.display()))
        .args(&files)
        .output()
        .expect("run mcs");
    assert!(
        out.status.success(),
        "mcs failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Runs a compiled program under mono; panics with its output unless it exits 0.
pub fn run(exe: &Path, args: &[&Path]) -> String {
    let out = Command::new("mono")
        .arg(exe)
        .args(args)
        .output()
        .expect("run mono");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{} failed:\n{text}", exe.display());
    text
}
