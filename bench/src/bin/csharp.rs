//! The C# benchmarks: generates pktc's C# for the benchmark schemas, compiles
//! it with the harness in `bench/csharp/` using Mono's `mcs`, runs it under
//! `mono`, and leaves the results in `$CARGO_TARGET_DIR/csharp-bench/results.tsv`
//! (read by the `report` bin).
//!
//! Usage: `cargo run -p pkt-bench --release --bin csharp [-- OPS_PER_SAMPLE [SAMPLES]]`
//! (defaults 1,000,000 operations per sample, 21 samples; about two minutes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use pktc::emit::{generate, GenOptions};
use pktc::Lang;

const SCHEMAS: [&str; 3] = [
    "schemas/seed_packets.pkt",
    "schemas/small.pkt",
    "schemas/world.pkt",
];

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

fn run() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("bench/ has no parent")?
        .to_path_buf();
    let work = target_dir(&root).join("csharp-bench");
    // Schemas are named relative to the workspace root, as in the snapshots.
    std::env::set_current_dir(&root).map_err(|e| format!("cd {}: {e}", root.display()))?;
    let generated = work.join("generated");
    if generated.exists() {
        std::fs::remove_dir_all(&generated).map_err(|e| format!("clean: {e}"))?;
    }
    std::fs::create_dir_all(&generated).map_err(|e| format!("mkdir: {e}"))?;

    let mut sources: BTreeMap<PathBuf, String> = BTreeMap::new();
    for schema in SCHEMAS {
        let checked =
            pktc::check(&[PathBuf::from(schema)]).map_err(|f| format!("{schema}:\n{f}"))?;
        for file in generate(&checked.ir, &GenOptions::new(Lang::CSharp)) {
            sources.insert(file.path, file.contents);
        }
    }
    let exe = work.join("PktCsBench.exe");
    let mut args: Vec<String> = vec![
        "-langversion:7.2".into(),
        "-optimize+".into(),
        "-unsafe".into(),
        "-warnaserror".into(),
        "-nologo".into(),
        format!("-out:{}", exe.display()),
    ];
    for (path, contents) in &sources {
        let p = generated.join(path);
        std::fs::write(&p, contents).map_err(|e| format!("write {}: {e}", p.display()))?;
        args.push(p.display().to_string());
    }
    let harness = root.join("bench/csharp");
    let mut cs: Vec<PathBuf> = std::fs::read_dir(&harness)
        .map_err(|e| format!("{}: {e}", harness.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    cs.sort();
    args.extend(cs.iter().map(|p| p.display().to_string()));

    let out = Command::new("mcs")
        .args(&args)
        .output()
        .map_err(|e| format!("cannot run mcs (install mono-mcs): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "mcs failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }

    let results = work.join("results.tsv");
    let mono_version = Command::new("mono")
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run mono (install mono-runtime): {e}"))?;
    let mono_version = String::from_utf8_lossy(&mono_version.stdout)
        .lines()
        .next()
        .unwrap_or("unknown")
        .to_owned();
    let status = Command::new("mono")
        .arg(&exe)
        .arg(&results)
        .args(std::env::args().skip(1))
        .status()
        .map_err(|e| format!("run mono: {e}"))?;
    if !status.success() {
        return Err(format!("the C# benchmark failed ({status})"));
    }
    // The exact `mono --version` line, for the report.
    let mut text = std::fs::read_to_string(&results).map_err(|e| format!("read results: {e}"))?;
    text.push_str(&format!("meta\tmono_version\t{mono_version}\n"));
    std::fs::write(&results, text).map_err(|e| format!("write results: {e}"))?;
    Ok(results)
}

fn main() -> ExitCode {
    match run() {
        Ok(results) => {
            println!("wrote {}", results.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
