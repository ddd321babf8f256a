//! Hostile input through the generated C#: the Rust fuzz corpus and random
//! mutations of valid encodings, for every type. Only `PktDecodeException`
//! may escape a C# decoder, and C# must decide like Rust: the same inputs
//! accepted, re-encoded to the same bytes, and the same inputs rejected with
//! the same error kind at the same offset.

mod support;

use std::fmt::Write as _;
use std::path::Path;

use pkt_rust_tests::TYPES;
use pkt_test_support::hex::encode as hex;
use pktc::ir::{TypeId, TypeKind};
use support::{ir, mono, qualified, Gen, Rng};

/// Mutated encodings sent through C#: the full count under `PKT_LONG_TESTS`.
fn mutations() -> u64 {
    pkt_test_support::scaled(4_000, 20_000)
}

/// Inputs with a prefix just past a limit of `schemas/limits.pkt`.
const LIMIT_CASES: u64 = 3_000;

/// A Rust decode error as the C# program prints one: the kind's name (the
/// same in `PktDecodeReason`) and the offset.
fn rust_error(e: &pkt_runtime::DecodeError) -> String {
    let kind = format!("{:?}", e.kind());
    let name: String = kind
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    format!("{name} {}", e.offset())
}

#[test]
fn csharp_decoders_only_throw_their_exception_and_agree_with_rust() {
    if !mono::tools_or_skip("csharp_decoders_only_throw_their_exception_and_agree_with_rust") {
        return;
    }
    let ir = ir();
    let decodable: Vec<TypeId> = (0..ir.types.len())
        .map(TypeId)
        .filter(|&id| !matches!(ir.ty(id).kind, TypeKind::Enum { .. }))
        .collect();

    // Inputs: the committed decode corpus, then mutated encodings.
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/decode");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("fuzz/corpus/decode")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for path in files {
        let data = std::fs::read(&path).expect("readable");
        let Some((&sel, rest)) = data.split_first() else {
            continue;
        };
        let name = TYPES[sel as usize % TYPES.len()].name;
        if decodable.iter().any(|&id| qualified(&ir, id) == name) {
            inputs.push((name.to_string(), rest.to_vec()));
        }
    }
    let from_corpus = inputs.len();
    let mut rng = Rng(0xBADC_0FFE_E0DD_F00D);
    for case in 0..mutations() {
        let id = decodable[(case % decodable.len() as u64) as usize];
        let mut bytes = Gen::new(&ir, case ^ 0x55).encode(id);
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() as u64 + 1) as usize;
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
                1 if at < bytes.len() => bytes[at] = 0xFF,
                2 => bytes.insert(at, rng.next() as u8),
                _ => bytes.truncate(at),
            }
        }
        inputs.push((qualified(&ir, id), bytes));
    }
    // The types with `@max` on their parts (`schemas/limits.pkt`): one
    // prefix set just past a limit.
    let limited: Vec<TypeId> = decodable
        .iter()
        .copied()
        .filter(|&id| qualified(&ir, id).starts_with("test.limits."))
        .collect();
    assert_eq!(limited.len(), 3, "Chat, Line and Packet");
    for case in 0..LIMIT_CASES {
        let id = limited[(case % limited.len() as u64) as usize];
        let mut bytes = Gen::new(&ir, case ^ 0x11).encode(id);
        if bytes.len() >= 4 {
            let n = [3u32, 4, 5, 6, 7, 9, 11, 25, 33, 257][rng.below(10) as usize];
            let at = rng.below(bytes.len() as u64 - 3) as usize;
            bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
        }
        inputs.push((qualified(&ir, id), bytes));
    }

    let dir = mono::work_dir("csharp-hostile");
    let input = dir.join("inputs.txt");
    let text: String = inputs
        .iter()
        .map(|(t, b)| format!("{t}\t{}\n", hex(b)))
        .collect();
    std::fs::write(&input, text).expect("write inputs");

    let mut cases = String::new();
    for &id in &decodable {
        let _ = writeln!(
            cases,
            "                case \"{}\": return {}.Decode(b).ToArray();",
            qualified(&ir, id),
            mono::csharp_name(&ir, id)
        );
    }
    let program = format!(
        r#"using System;
using System.IO;
using System.Text;

// Every type is decoded, the deprecated ones too.
#pragma warning disable 612, 618

static class Hostile
{{
    static byte[] RoundTrip(string type, byte[] b)
    {{
        switch (type)
        {{
{cases}            default: throw new InvalidOperationException("no type " + type);
        }}
    }}

    static string Hex(byte[] b) {{ var s = new StringBuilder(); foreach (var x in b) s.Append(x.ToString("x2")); return s.ToString(); }}
    static byte[] Unhex(string s) {{ var b = new byte[s.Length / 2]; for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16); return b; }}

    static int Main(string[] args)
    {{
        using (var output = new StreamWriter(args[1]))
        {{
            foreach (var line in File.ReadAllLines(args[0]))
            {{
                var parts = line.Split('\t');
                try
                {{
                    var once = RoundTrip(parts[0], Unhex(parts[1]));
                    var again = RoundTrip(parts[0], once);
                    if (Hex(once) != Hex(again)) {{ output.WriteLine("unstable"); continue; }}
                    output.WriteLine("ok " + Hex(once));
                }}
                catch (Pkt.PktDecodeException e)
                {{
                    output.WriteLine("err " + e.Reason + " " + e.Offset);
                }}
                catch (Exception e)
                {{
                    output.WriteLine("escaped " + e.GetType().FullName + ": " + e.Message.Replace('\n', ' '));
                }}
            }}
        }}
        return 0;
    }}
}}
"#
    );
    let exe = mono::build(&dir, &ir, &[("Hostile.cs", program)], "Hostile");
    let output = dir.join("outputs.txt");
    mono::run(&exe, &[&input, &output]);
    let answers = std::fs::read_to_string(&output).expect("C# output");
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), inputs.len(), "C# answered every input");

    let (mut accepted, mut rejected, mut limited_parts) = (0, 0, 0);
    let mut problems = Vec::new();
    for ((name, bytes), answer) in inputs.iter().zip(&answers) {
        let entry = TYPES.iter().find(|e| e.name == name).expect("generated");
        let rust = (entry.reencode)(bytes);
        if let Err(e) = &rust {
            if let pkt_runtime::DecodeErrorKind::FieldTooLong { field, .. } = e.kind() {
                if field.contains('[') && answer.starts_with("err FieldTooLong") {
                    limited_parts += 1;
                }
            }
        }
        let verdict = match (&rust, *answer) {
            (_, a) if a.starts_with("escaped") || a == "unstable" => Some(a.to_string()),
            (Ok(r), a) if a.strip_prefix("ok ") == Some(hex(r).as_str()) => {
                accepted += 1;
                None
            }
            (Err(e), a) if a.strip_prefix("err ") == Some(rust_error(e).as_str()) => {
                rejected += 1;
                None
            }
            (Ok(r), a) => Some(format!("Rust accepts and writes {}, C# says {a}", hex(r))),
            (Err(e), a) => Some(format!("Rust rejects ({e}), C# says {a}")),
        };
        if let Some(v) = verdict {
            problems.push(format!("{name} {}: {v}", hex(bytes)));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} inputs disagree; first ones:\n{}",
        problems.len(),
        inputs.len(),
        problems
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // Enough of both: one in twenty mutations each, at least.
    let enough = mutations() as usize / 20;
    assert!(
        accepted > enough && rejected > enough,
        "{accepted} accepted, {rejected} rejected"
    );
    // Elements, keys and values over their own limits, rejected alike by
    // both (the Rust decoders name each part: `agreement.rs`).
    assert!(
        limited_parts > 300,
        "{limited_parts} inputs rejected by an element, key or value limit"
    );
    println!(
        "{} inputs ({from_corpus} from the corpus): {accepted} accepted identically, {rejected} rejected by both",
        inputs.len()
    );
}
