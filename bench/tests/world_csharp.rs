//! C# and Rust write the same bytes for the whole delta-snapshot run
//! (docs/benchmarks.md, "Delta snapshots"). Rust writes the world of every
//! tick, whole and quantized; C#, generated from the same schemas, decodes
//! each and encodes it again, and every byte must equal what Rust wrote.
//! The same for deltas: C# writes the delta of every tick against the one
//! before, which must be Rust's, and applies Rust's deltas tick after tick
//! to one world, which must encode as Rust's world of each tick.
//!
//! Needs Mono's `mcs` and `mono`: without them the test fails under
//! `CI=true` and warns loudly elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;

use pkt_bench::world::Run;
use pkt_runtime::Encode;
use pktc::emit::{generate, GenOptions};
use pktc::Lang;

const SCHEMAS: [&str; 3] = ["sim_full.pkt", "sim_quantized.pkt", "sim_delta.pkt"];

/// Reads and writes `u32 length | bytes` records.
const PROGRAM: &str = r#"using System;
using System.Collections.Generic;
using System.IO;

static class WorldRun
{
    static List<byte[]> Read(string path)
    {
        var records = new List<byte[]>();
        using (var r = new BinaryReader(File.OpenRead(path)))
        {
            while (r.BaseStream.Position < r.BaseStream.Length)
            {
                int n = r.ReadInt32();
                records.Add(r.ReadBytes(n));
            }
        }
        return records;
    }

    static void Write(BinaryWriter w, byte[] record)
    {
        w.Write(record.Length);
        w.Write(record);
    }

    static int Main(string[] args)
    {
        var dir = args[0];
        using (var w = new BinaryWriter(File.Create(Path.Combine(dir, "full.out"))))
        {
            foreach (var bytes in Read(Path.Combine(dir, "full.in")))
                Write(w, Sim.Full.World.Decode(bytes).ToArray());
        }
        using (var w = new BinaryWriter(File.Create(Path.Combine(dir, "quantized.out"))))
        {
            foreach (var bytes in Read(Path.Combine(dir, "quantized.in")))
                Write(w, Sim.Quantized.World.Decode(bytes).ToArray());
        }
        var worlds = Read(Path.Combine(dir, "worlds.in"));
        var deltas = Read(Path.Combine(dir, "deltas.in"));
        using (var w = new BinaryWriter(File.Create(Path.Combine(dir, "deltas.out"))))
        {
            var before = Sim.Delta.World.Decode(worlds[0]);
            for (int t = 1; t < worlds.Count; t++)
            {
                var now = Sim.Delta.World.Decode(worlds[t]);
                Write(w, now.EncodeDelta(before));
                before = now;
            }
        }
        using (var w = new BinaryWriter(File.Create(Path.Combine(dir, "applied.out"))))
        {
            var world = Sim.Delta.World.Decode(worlds[0]);
            foreach (var delta in deltas)
            {
                world.ApplyDelta(delta);
                Write(w, world.ToArray());
            }
        }
        return 0;
    }
}
"#;

fn tools_available() -> bool {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if ok("mcs") && ok("mono") {
        return true;
    }
    let msg = "world_csharp: mcs/mono not found, so C# was NOT compared with Rust (apt-get install mono-devel)";
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}");
    false
}

fn write_records<'a>(path: &Path, records: impl Iterator<Item = &'a [u8]>) {
    let mut out = Vec::new();
    for r in records {
        out.extend_from_slice(&(r.len() as u32).to_le_bytes());
        out.extend_from_slice(r);
    }
    std::fs::write(path, out).expect("write records");
}

fn read_records(path: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path).expect("C# wrote its records");
    let mut records = Vec::new();
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let (n, tail) = rest.split_at(4);
        let n = u32::from_le_bytes(n.try_into().expect("4 bytes")) as usize;
        let (record, tail) = tail.split_at(n);
        records.push(record.to_vec());
        rest = tail;
    }
    records
}

/// Generates the C# of the schemas and the program into `dir` and
/// compiles them warning-free.
fn build(dir: &Path) -> PathBuf {
    let schemas: Vec<PathBuf> = SCHEMAS
        .iter()
        .map(|f| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("schemas")
                .join(f)
        })
        .collect();
    let ir = pktc::check(&schemas).unwrap_or_else(|f| panic!("{f}")).ir;
    let mut files = Vec::new();
    for f in generate(&ir, &GenOptions::new(Lang::CSharp)) {
        let p = dir.join(&f.path);
        std::fs::write(&p, &f.contents).expect("write generated C#");
        files.push(p);
    }
    let p = dir.join("WorldRun.cs");
    std::fs::write(&p, PROGRAM).expect("write program");
    files.push(p);
    let exe = dir.join("world_run.exe");
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

fn same_records(variant: &str, csharp: &[Vec<u8>], rust: &[Vec<u8>]) {
    assert_eq!(csharp.len(), rust.len(), "{variant}: number of ticks");
    for (t, (c, r)) in csharp.iter().zip(rust).enumerate() {
        if c != r {
            let at = c.iter().zip(r).position(|(a, b)| a != b);
            panic!(
                "{variant}: record {t} differs (C# {} bytes, Rust {}; first difference at byte {at:?})",
                c.len(),
                r.len()
            );
        }
    }
}

#[test]
fn csharp_encodes_and_applies_every_tick_as_rust_does() {
    if !tools_available() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("world_csharp");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clean work dir");
    }
    std::fs::create_dir_all(&dir).expect("create work dir");
    let exe = build(&dir);

    let run = Run::new();
    let full: Vec<Vec<u8>> = run
        .full
        .iter()
        .map(|w| w.encode_to_vec().unwrap())
        .collect();
    let quantized: Vec<Vec<u8>> = run
        .quantized
        .iter()
        .map(|w| w.encode_to_vec().unwrap())
        .collect();
    write_records(&dir.join("full.in"), full.iter().map(Vec::as_slice));
    write_records(
        &dir.join("quantized.in"),
        quantized.iter().map(Vec::as_slice),
    );
    let worlds: Vec<Vec<u8>> = run
        .delta
        .iter()
        .map(|w| w.encode_to_vec().unwrap())
        .collect();
    let deltas: Vec<Vec<u8>> = run
        .delta
        .windows(2)
        .map(|w| {
            let mut out = Vec::new();
            w[1].encode_delta(&w[0], &mut out).unwrap();
            out
        })
        .collect();
    assert!(deltas.len() >= 300, "{} deltas", deltas.len());
    write_records(&dir.join("worlds.in"), worlds.iter().map(Vec::as_slice));
    write_records(&dir.join("deltas.in"), deltas.iter().map(Vec::as_slice));

    let out = Command::new("mono")
        .arg(&exe)
        .arg(&dir)
        .output()
        .expect("run mono");
    assert!(
        out.status.success(),
        "the C# side failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    same_records("full", &read_records(&dir.join("full.out")), &full);
    same_records(
        "quantized",
        &read_records(&dir.join("quantized.out")),
        &quantized,
    );
    same_records("delta", &read_records(&dir.join("deltas.out")), &deltas);
    same_records(
        "applied",
        &read_records(&dir.join("applied.out")),
        &worlds[1..],
    );
    std::fs::remove_dir_all(&dir).expect("remove work dir");
}
