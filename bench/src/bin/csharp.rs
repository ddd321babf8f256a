//! The C# benchmarks: generates pktc's C# for the benchmark schemas twice
//! (the default output, and the unsafe output under the namespace prefix
//! `UnsafeOutput`), compiles it with the harness in `bench/csharp/` using
//! Mono's `mcs`, and runs it under `mono` twice: with the JIT, and with
//! every assembly compiled ahead of time (`mono --full-aot`, as Unity's
//! IL2CPP runs code; the framework is compiled once and cached under
//! `$CARGO_TARGET_DIR/mono-aot`). The results of both runs go to
//! `$CARGO_TARGET_DIR/csharp-bench/results.tsv`, each line prefixed with
//! `jit` or `aot` (read by the `report` bin).
//!
//! Usage: `cargo run -p pkt-bench --release --bin csharp [-- [--jit-only] [OPS_PER_SAMPLE [SAMPLES]]]`
//! (defaults 20,000 operations per sample, 201 samples; a few minutes, plus
//! two the first time for the framework).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use pkt_test_support::full_aot::FullAot;
use pktc::emit::{generate, GenOptions};
use pktc::Lang;

const SCHEMAS: [&str; 5] = [
    "schemas/seed_packets.pkt",
    "schemas/small.pkt",
    "schemas/world.pkt",
    "schemas/update.pkt",
    "schemas/collections.pkt",
];

/// The namespace the unsafe output is generated under, beside the default
/// output in the same assembly (so both are compiled and inlined alike).
const UNSAFE_NAMESPACE: &str = "unsafe_output";

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// Writes the generated files of `schemas` into `dir`; returns their paths.
fn generate_into(
    dir: &Path,
    schemas: &[PathBuf],
    options: &GenOptions,
) -> Result<Vec<PathBuf>, String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("clean {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("mkdir {}: {e}", dir.display()))?;
    let mut sources: BTreeMap<PathBuf, String> = BTreeMap::new();
    for schema in schemas {
        let checked = pktc::check(std::slice::from_ref(schema))
            .map_err(|f| format!("{}:\n{f}", schema.display()))?;
        for file in generate(&checked.ir, options) {
            sources.insert(file.path, file.contents);
        }
    }
    let mut paths = Vec::new();
    for (path, contents) in &sources {
        let p = dir.join(path);
        std::fs::write(&p, contents).map_err(|e| format!("write {}: {e}", p.display()))?;
        paths.push(p);
    }
    Ok(paths)
}

/// Copies of the schemas with their namespace moved under
/// [`UNSAFE_NAMESPACE`]; the benchmark schemas import nothing.
fn renamed_schemas(dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("mkdir {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for schema in SCHEMAS {
        let text = std::fs::read_to_string(schema).map_err(|e| format!("read {schema}: {e}"))?;
        let mut found = false;
        let renamed: String = text
            .lines()
            .map(|l| match l.strip_prefix("namespace ") {
                Some(ns) if !found => {
                    found = true;
                    format!("namespace {UNSAFE_NAMESPACE}.{ns}\n")
                }
                _ => format!("{l}\n"),
            })
            .collect();
        if !found {
            return Err(format!("{schema} declares no namespace"));
        }
        let p = dir.join(Path::new(schema).file_name().expect("a file name"));
        std::fs::write(&p, renamed).map_err(|e| format!("write {}: {e}", p.display()))?;
        out.push(p);
    }
    Ok(out)
}

/// Runs a command; Err with its output unless it succeeds.
fn run(c: &mut Command, what: &str) -> Result<(), String> {
    let status = c.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

fn run_all() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("bench/ has no parent")?
        .to_path_buf();
    let target = target_dir(&root);
    let work = target.join("csharp-bench");
    // Schemas are named relative to the workspace root, as in the snapshots.
    std::env::set_current_dir(&root).map_err(|e| format!("cd {}: {e}", root.display()))?;
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let jit_only = args.iter().any(|a| a == "--jit-only");
    args.retain(|a| a != "--jit-only");

    let schemas: Vec<PathBuf> = SCHEMAS.iter().map(PathBuf::from).collect();
    let mut sources = generate_into(
        &work.join("generated"),
        &schemas,
        &GenOptions::new(Lang::CSharp),
    )?;
    let mut unsafe_options = GenOptions::new(Lang::CSharp);
    unsafe_options.unsafe_code = true;
    unsafe_options.runtime = false;
    let renamed = renamed_schemas(&work.join("unsafe-schemas"))?;
    sources.extend(generate_into(
        &work.join("generated-unsafe"),
        &renamed,
        &unsafe_options,
    )?);

    let exe = work.join("PktCsBench.exe");
    let mut mcs: Vec<String> = vec![
        "-langversion:7.2".into(),
        "-optimize+".into(),
        "-unsafe".into(),
        "-warnaserror".into(),
        "-nologo".into(),
        format!("-out:{}", exe.display()),
    ];
    mcs.extend(sources.iter().map(|p| p.display().to_string()));
    let harness = root.join("bench/csharp");
    let mut cs: Vec<PathBuf> = std::fs::read_dir(&harness)
        .map_err(|e| format!("{}: {e}", harness.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    cs.sort();
    mcs.extend(cs.iter().map(|p| p.display().to_string()));
    let out = Command::new("mcs")
        .args(&mcs)
        .output()
        .map_err(|e| format!("cannot run mcs (install mono-mcs): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "mcs failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }

    let mono_version = Command::new("mono")
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run mono (install mono-runtime): {e}"))?;
    let mono_version = String::from_utf8_lossy(&mono_version.stdout)
        .lines()
        .next()
        .unwrap_or("unknown")
        .to_owned();
    let mut text = format!("all\tmeta\tmono_version\t{mono_version}\n");

    let jit_results = work.join("results-jit.tsv");
    let mut jit = Command::new("mono");
    jit.arg(&exe).arg(&jit_results).args(&args);
    run(&mut jit, "the C# benchmark under the JIT")?;
    append(&mut text, "jit", &jit_results)?;

    if !jit_only {
        eprintln!("compiling the framework and the benchmark ahead of time ...");
        let aot = FullAot::prepare(&target.join("mono-aot"), &[&exe])
            .and_then(|aot| aot.compile(&exe).map(|()| aot))?;
        let aot_results = work.join("results-aot.tsv");
        let mut full = aot.command(&exe);
        full.arg(&aot_results).args(&args);
        run(&mut full, "the C# benchmark under full AOT")?;
        append(&mut text, "aot", &aot_results)?;
    }

    let results = work.join("results.tsv");
    std::fs::write(&results, text).map_err(|e| format!("write results: {e}"))?;
    Ok(results)
}

/// Appends the lines of one run's results to `text`, each prefixed with
/// `mode`.
fn append(text: &mut String, mode: &str, results: &Path) -> Result<(), String> {
    let lines =
        std::fs::read_to_string(results).map_err(|e| format!("read {}: {e}", results.display()))?;
    for line in lines.lines() {
        text.push_str(mode);
        text.push('\t');
        text.push_str(line);
        text.push('\n');
    }
    Ok(())
}

fn main() -> ExitCode {
    match run_all() {
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
