//! The TypeScript benchmarks: writes the pktc encoding of every data set of
//! the Rust benchmarks (`bench/src/data.rs`, `bench/src/public_data.rs`) to
//! `$CARGO_TARGET_DIR/ts-bench/data`, generates pktc's TypeScript for the
//! benchmark schemas, installs the peers from npm once (protobufjs, bebop and
//! bebop-tools' `bebopc`, msgpackr, TypeScript; `--ignore-scripts`, under
//! `$CARGO_TARGET_DIR/ts-bench/node_modules`), generates bebop's TypeScript
//! from `bench/peers/bebop/bench.bop`, compiles the harness in
//! `bench/typescript/` with `tsc` and runs it under `node`. The harness
//! decodes the data sets with the generated code, so every codec measures
//! the same values, and writes `results.tsv` and `section.md`; the section
//! replaces the TypeScript section of `docs/benchmarks.md`.
//!
//! Usage: `cargo run -p pkt-bench --release --bin typescript [-- [--quick] [--no-doc]]`
//! (`--quick`: a few operations per codec, to check that everything runs;
//! `--no-doc` leaves docs/benchmarks.md alone).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use pkt_bench::{data, public_data, typescript_report};
use pkt_runtime::Encode;
use pktc::emit::{generate, GenOptions};
use pktc::Lang;

const SCHEMAS: [&str; 8] = [
    "schemas/seed_packets.pkt",
    "schemas/chat.pkt",
    "schemas/world.pkt",
    "schemas/mesh.pkt",
    "schemas/game.pkt",
    "schemas/logs.pkt",
    "schemas/minecraft.pkt",
    "schemas/mk48.pkt",
];

/// The npm packages the harness compares with, at the majors it was written for.
const PEERS: [&str; 6] = [
    "@types/node@20",
    "typescript@5",
    "protobufjs@8",
    "msgpackr@2",
    "bebop@3",
    "bebop-tools@3",
];

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

fn run(c: &mut Command, what: &str) -> Result<(), String> {
    let status = c.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("write {}: {e}", path.display()))
}

fn encode<T: Encode>(value: &T) -> Vec<u8> {
    value
        .encode_to_vec()
        .expect("the data sets are within their limits")
}

/// The pktc encoding of every data set, by the file name the harness reads.
fn data_sets() -> BTreeMap<&'static str, Vec<u8>> {
    let mut out = BTreeMap::new();
    out.insert("Packet", encode(&data::packet()));
    out.insert("Int3Packet", encode(&data::int3_packet()));
    out.insert("TransformPacket", encode(&data::transform_packet()));
    out.insert("ChatPacket", encode(&data::chat()));
    out.insert("Inventory", encode(&data::inventory()));
    out.insert("WorldSnapshot", encode(&data::world()));
    out.insert("Mesh", encode(&data::mesh()));
    // The frames back to back, as a connection carries them.
    out.insert(
        "ServerPacket stream",
        data::stream().iter().flat_map(encode).collect(),
    );
    out.insert("Logs", encode(&public_data::logs()));
    out.insert("Minecraft players", encode(&public_data::players()));
    out.insert("mk48 updates", encode(&public_data::updates()));
    out
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("mkdir {}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_file() {
            let dest = to.join(path.file_name().expect("file name"));
            std::fs::copy(&path, &dest).map_err(|e| format!("copy {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

fn run_all() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("bench/ has no parent")?
        .to_path_buf();
    let target = target_dir(&root);
    let work = target.join("ts-bench");
    std::env::set_current_dir(&root).map_err(|e| format!("cd {}: {e}", root.display()))?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let no_doc = args.iter().any(|a| a == "--no-doc");

    let data_dir = work.join("data");
    std::fs::create_dir_all(&data_dir).map_err(|e| format!("mkdir: {e}"))?;
    for (name, bytes) in data_sets() {
        write(&data_dir.join(format!("{name}.bin")), &bytes)?;
    }

    // The harness and the code it imports, compiled together.
    let src = work.join("src");
    if src.exists() {
        std::fs::remove_dir_all(&src).map_err(|e| format!("clean {}: {e}", src.display()))?;
    }
    let generated = src.join("pktc");
    std::fs::create_dir_all(&generated).map_err(|e| format!("mkdir: {e}"))?;
    let schemas: Vec<PathBuf> = SCHEMAS.iter().map(PathBuf::from).collect();
    let checked = pktc::check(&schemas).map_err(|f| format!("{f}"))?;
    for file in generate(&checked.ir, &GenOptions::new(Lang::TypeScript)) {
        let path = generated.join(&file.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("mkdir: {e}"))?;
        }
        write(&path, file.contents.as_bytes())?;
    }
    copy_dir(&root.join("bench/typescript"), &work)?;
    std::fs::rename(work.join("harness.ts"), src.join("harness.ts"))
        .map_err(|e| format!("move the harness: {e}"))?;

    let modules = work.join("node_modules");
    let bebopc = modules.join("bebop-tools/tools/linux/x64/bebopc");
    if !modules.join("msgpackr").exists() || !bebopc.exists() {
        let mut npm = Command::new("npm");
        npm.args([
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--prefix",
        ])
        .arg(&work)
        .args(PEERS);
        run(&mut npm, "npm install (the peers)")?;
    }
    // bebop-tools ships a native bebopc per platform; its install script
    // (skipped) only marks it executable.
    run(Command::new("chmod").arg("+x").arg(&bebopc), "chmod bebopc")?;
    let bebop_out = src.join("bebop.ts");
    run(
        Command::new(&bebopc)
            .arg("-i")
            .arg(root.join("bench/peers/bebop/bench.bop"))
            .arg("build")
            .arg("-g")
            .arg(format!("ts:{}", bebop_out.display())),
        "bebopc",
    )?;

    run(
        Command::new("node")
            .arg(modules.join("typescript/bin/tsc"))
            .arg("-p")
            .arg(&work),
        "tsc",
    )?;
    let results = work.join("results.tsv");
    let section = work.join("section.md");
    let mut node = Command::new("node");
    node.arg(work.join("dist/harness.js"))
        .arg(&data_dir)
        .arg(&results)
        .arg(&section);
    if quick {
        node.arg("--quick");
    }
    run(&mut node, "the TypeScript benchmark")?;

    if !no_doc && !quick {
        let doc = root.join("docs/benchmarks.md");
        let text = std::fs::read_to_string(&section).map_err(|e| format!("read section: {e}"))?;
        let old =
            std::fs::read_to_string(&doc).map_err(|e| format!("read {}: {e}", doc.display()))?;
        write(&doc, typescript_report::splice(&old, &text).as_bytes())?;
        println!("replaced the TypeScript section of docs/benchmarks.md");
    }
    Ok(results)
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
