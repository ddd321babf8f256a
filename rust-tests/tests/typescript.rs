//! The generated TypeScript under node, against the generated Rust.
//!
//! The TypeScript of every schema in `schemas/` is compiled with
//! `tsc --strict` (no diagnostic allowed) with a `dispatch` module that maps
//! each qualified type name to its companion object, and run by a small
//! node driver over lines of `type<TAB>hex`. For each input it decodes,
//! re-encodes, decodes and re-encodes again, and decodes into a value that
//! still holds the previous input of the type (`decodeInto`), and prints
//! `ok <hex>` or `err <kind> <offset>`; anything else escaping is a failure.
//!
//! 1. Random canonical encodings of every type and the golden vectors of
//!    `schemas/vectors/` come back byte for byte.
//! 2. Hostile input (the fuzz corpus, mutations, prefixes just past a
//!    limit): TypeScript accepts what Rust accepts, re-encoded to the same
//!    bytes, and rejects the rest with the same error kind at the same
//!    offset, as `csharp_hostile.rs` holds C# to.

mod support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pkt_rust_tests::TYPES;
use pkt_test_support::hex::encode as hex;
use pkt_test_support::vectors;
use pktc::ir::TypeId;
use support::typescript::{self, has_codec as codec};
use support::{ir, node, qualified, Gen, Rng};

/// The node side of the driver: plain JavaScript over the compiled modules.
const DRIVER: &str = r#"import { readFileSync, writeFileSync } from "node:fs";
import { TYPES } from "./dispatch.js";
import { PktError } from "./pkt_runtime.js";
import { refusals, values } from "./values.js";

const hex = (b) => Buffer.from(b).toString("hex");
const unhex = (s) => new Uint8Array(Buffer.from(s, "hex"));
const answer = (f) => {
  try {
    return "ok " + hex(f());
  } catch (e) {
    if (e instanceof PktError) return `err ${e.kind} ${e.offset}`;
    return `escaped ${e && e.name}: ${String(e && e.message).replace(/\n/g, " ")}`;
  }
};

if (process.argv[2] === "values") {
  const out = values().map(([name, bytes]) => name + "\t" + hex(bytes));
  for (const [name, text] of refusals()) out.push(name + "\t" + text);
  writeFileSync(process.argv[3], out.join("\n") + "\n");
  process.exit(0);
}

const [input, output] = process.argv.slice(2);
const targets = new Map();
const out = [];
for (const line of readFileSync(input, "utf8").split("\n")) {
  if (!line) continue;
  const [type, text] = line.split("\t");
  const codec = TYPES[type];
  if (!codec) throw new Error("no type " + type);
  const decoded = answer(() => codec.encode(codec.decode(unhex(text))));
  if (decoded.startsWith("ok ")) {
    const again = answer(() => codec.encode(codec.decode(unhex(decoded.slice(3)))));
    if (again !== decoded) {
      out.push("unstable " + again);
      continue;
    }
  }
  // Into a value holding whatever the previous input of the type left.
  if (!targets.has(type)) targets.set(type, codec.create());
  const target = targets.get(type);
  const into = answer(() => {
    codec.decodeInto(target, unhex(text));
    return codec.encode(target);
  });
  out.push(into === decoded ? decoded : `into ${into} (decode: ${decoded})`);
}
writeFileSync(output, out.join("\n") + "\n");
"#;

/// The compiled modules and the driver, built once per test binary; `None`
/// without node (see [`node::tools_or_skip`]).
fn driver() -> Option<&'static PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if !node::tools_or_skip("typescript") {
            return None;
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("typescript-driver");
        let js = typescript::build(&ir(), &dir, &[("values.ts", VALUES)]);
        std::fs::write(js.join("driver.mjs"), DRIVER).expect("driver.mjs");
        Some(dir)
    })
    .as_ref()
}

/// Values built in TypeScript, named like the golden vectors whose bytes they
/// must encode to, and values over an `@max`, which the encoders refuse
/// naming the part (`rust-tests/tests/cross_lang.rs` builds the same ones in
/// C#).
const VALUES: &str = r#"import { Batch, Entry, Level } from "./frozen.js";
import { LinkedNode } from "./everything.js";
import { ClientPacket, Kick, KickReason, ServerPacket } from "./game.js";
import { Chat, Line, Packet as LimitsPacket } from "./limits.js";
import { Scoreboard } from "./scoreboard.js";
import { Int3Packet, Packet, TransformPacket } from "./seed_packets.js";
import { Small } from "./small.js";
import { WorldSnapshot } from "./world.js";
import { PktError, PktMap } from "./pkt_runtime.js";

export function values(): [string, Uint8Array][] {
    const kick: Kick = { ...Kick.create(), reason: KickReason.Idle, detail: "afk", bannedUntil: 7n };
    const entry: Entry = { level: Level.Warn, at: 7n, source: "db", text: "slow" };
    return [
        ["packet", Packet.encode({ size: 4, id: 1234 })],
        ["int3_packet", Int3Packet.encode({ size: 16, id: 2345, x: 10, y: 102030, z: 99999999 })],
        ["transform_packet", TransformPacket.encode({
            size: 40, id: 3456, posX: 1.1, posY: 2.2, posZ: 3.3,
            rotX: 123.456, rotY: 234.567, rotZ: 345.678, scaleX: 10000, scaleY: 20000, scaleZ: 30000,
        })],
        ["small_hi", Small.encode({ id: 1, name: "hi" })],
        ["world_snapshot", WorldSnapshot.encode({ ...WorldSnapshot.create(), cells: [1, -2, 3] })],
        // Inserted out of order: encoders write keys sorted.
        ["scoreboard_amy_zed", Scoreboard.encode({ round: 3, scores: new PktMap([["zed", -1], ["amy", 10]]), mvp: "amy" })],
        // U+FFFF sorts before U+1F600 in UTF-8 order, though not in UTF-16.
        ["scoreboard_utf8_order", Scoreboard.encode({
            round: 3, scores: new PktMap([["zed", -1], ["\u{1F600}", 2], ["\uFFFF", 1], ["amy", 10]]), mvp: "amy",
        })],
        ["kick", Kick.encode(kick)],
        ["server_kick", ServerPacket.encode({ kind: "Kick", value: kick })],
        ["server_unknown", ServerPacket.encode({ kind: "Unknown", tag: 0x0400, body: new Uint8Array([1, 2, 3]) })],
        ["client_ping", ClientPacket.encode({ kind: "Ping", value: 42n })],
        ["frozen_entry_warn", Entry.encode(entry)],
        ["frozen_batch_one", Batch.encode({ ...Batch.create(), seq: 1, entries: [entry] })],
    ];
}

function fullChat(): Chat {
    return {
        mentions: new Array<string>(8).fill("m".repeat(24)),
        tags: new PktMap([["k".repeat(32), new Uint8Array(256)]]),
        notes: ["four", undefined],
        grid: [["five!", ""], ["five!", ""], ["five!", ""]],
        slots: [new Uint8Array([1, 2]), new Uint8Array(0), new Uint8Array(0)],
        groups: new PktMap([[1, [1, 2]]]),
    };
}

function refusal(change: (c: Chat) => void): () => Uint8Array {
    return () => {
        const chat = fullChat();
        change(chat);
        return Chat.encode(chat);
    };
}

export function refusals(): [string, string][] {
    const cases: [string, () => Uint8Array][] = [
        ["mentions", refusal((c) => { c.mentions.push("m".repeat(25)); })],
        ["tags_key", refusal((c) => { c.tags.set("k".repeat(33), new Uint8Array(0)); })],
        ["tags_value", refusal((c) => { c.tags.set("", new Uint8Array(257)); })],
        ["notes", refusal((c) => { c.notes.push("fives"); })],
        ["grid", refusal((c) => { c.grid.push(["", "", ""]); })],
        ["grid_cell", refusal((c) => { c.grid.push(["sixsix"]); })],
        ["slots", refusal((c) => { c.slots[2] = new Uint8Array(3); })],
        ["groups", refusal((c) => { c.groups?.set(1, [1, 2, 3]); })],
        ["say", () => LimitsPacket.encode({ kind: "Say", value: ["x".repeat(11)] })],
        ["line", () => Line.encode({ ...Line.create(), keys: new PktMap([["four", 1]]) })],
        // One level deeper than decoders accept.
        ["deep", () => {
            let node: LinkedNode | undefined = undefined;
            for (let i = 0; i < 65; i++) node = { value: i, next: node };
            return LinkedNode.encode(node as LinkedNode);
        }],
    ];
    return cases.map(([name, encode]): [string, string] => {
        try {
            return [name, "written " + globalThis.Array.from(encode(), (b) => b.toString(16).padStart(2, "0")).join("")];
        } catch (e) {
            if (e instanceof PktError) return [name, e.kind + " " + e.message];
            throw e;
        }
    });
}
"#;

/// Runs the driver over `inputs`; one answer per input.
fn run(dir: &Path, name: &str, inputs: &[(String, Vec<u8>)]) -> Vec<String> {
    let input = dir.join(format!("{name}.in"));
    let output = dir.join(format!("{name}.out"));
    let text: String = inputs
        .iter()
        .map(|(t, b)| format!("{t}\t{}\n", hex(b)))
        .collect();
    std::fs::write(&input, text).expect("write inputs");
    node::run(
        &dir.join("js"),
        &[
            "driver.mjs",
            input.to_str().expect("UTF-8 path"),
            output.to_str().expect("UTF-8 path"),
        ],
    );
    let answers: Vec<String> = std::fs::read_to_string(&output)
        .expect("driver output")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answers.len(), inputs.len(), "node answered every input");
    answers
}

/// A Rust decode error as the driver prints one.
fn rust_error(e: &pkt_runtime::DecodeError) -> String {
    let kind = format!("{:?}", e.kind());
    let name: String = kind
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    format!("{name} {}", e.offset())
}

#[test]
fn typescript_round_trips_every_vector_byte_for_byte() {
    let Some(dir) = driver() else { return };
    let ir = ir();
    let mut inputs = Vec::new();
    for i in 0..ir.types.len() {
        let id = TypeId(i);
        if !codec(&ir, id) {
            continue;
        }
        for seed in 0..pkt_test_support::scaled(5, 25) {
            let bytes = Gen::new(&ir, 0x7E57 + seed * 131 + i as u64).encode(id);
            inputs.push((qualified(&ir, id), bytes));
        }
    }
    let random = inputs.len();
    let mut golden = 0;
    for v in vectors::all() {
        let id = (0..ir.types.len())
            .map(TypeId)
            .find(|&id| qualified(&ir, id) == v.ty)
            .unwrap_or_else(|| panic!("{}: no type {}", v.name, v.ty));
        if codec(&ir, id) {
            inputs.push((v.ty.clone(), v.bytes.clone()));
            golden += 1;
        }
    }
    assert!(golden > 10, "{golden} golden vectors");
    let answers = run(dir, "vectors", &inputs);
    let problems: Vec<String> = inputs
        .iter()
        .zip(&answers)
        .filter(|((_, b), a)| a.strip_prefix("ok ") != Some(hex(b).as_str()))
        .map(|((t, b), a)| format!("{t} {}: {a}", hex(b)))
        .collect();
    assert!(
        problems.is_empty(),
        "{} of {} vectors do not come back; first ones:\n{}",
        problems.len(),
        inputs.len(),
        problems[..problems.len().min(10)].join("\n")
    );
    println!("{random} random and {golden} golden vectors round-trip through TypeScript");
}

#[test]
fn typescript_decoders_agree_with_rust_on_hostile_input() {
    let Some(dir) = driver() else { return };
    let ir = ir();
    let decodable: Vec<TypeId> = (0..ir.types.len())
        .map(TypeId)
        .filter(|&id| codec(&ir, id))
        .collect();
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
    let mutations = pkt_test_support::scaled(4_000, 20_000);
    let mut rng = Rng(0x7E57_0FFE_E0DD_F00D);
    for case in 0..mutations {
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
    let limited: Vec<TypeId> = decodable
        .iter()
        .copied()
        .filter(|&id| qualified(&ir, id).starts_with("test.limits."))
        .collect();
    assert_eq!(limited.len(), 3, "Chat, Line and Packet");
    for case in 0..3_000u64 {
        let id = limited[(case % limited.len() as u64) as usize];
        let mut bytes = Gen::new(&ir, case ^ 0x11).encode(id);
        if bytes.len() >= 4 {
            let n = [3u32, 4, 5, 6, 7, 9, 11, 25, 33, 257][rng.below(10) as usize];
            let at = rng.below(bytes.len() as u64 - 3) as usize;
            bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
        }
        inputs.push((qualified(&ir, id), bytes));
    }

    let answers = run(dir, "hostile", &inputs);
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
        let verdict = match (&rust, answer.as_str()) {
            (Ok(r), a) if a.strip_prefix("ok ") == Some(hex(r).as_str()) => {
                accepted += 1;
                None
            }
            (Err(e), a) if a.strip_prefix("err ") == Some(rust_error(e).as_str()) => {
                rejected += 1;
                None
            }
            (Ok(r), a) => Some(format!(
                "Rust accepts and writes {}, TypeScript: {a}",
                hex(r)
            )),
            (Err(e), a) => Some(format!("Rust rejects ({e}), TypeScript: {a}")),
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
        problems[..problems.len().min(10)].join("\n")
    );
    let enough = mutations as usize / 20;
    assert!(
        accepted > enough && rejected > enough,
        "{accepted} accepted, {rejected} rejected"
    );
    assert!(
        limited_parts > 300,
        "{limited_parts} inputs rejected by an element, key or value limit"
    );
    println!(
        "{} inputs ({from_corpus} from the corpus): {accepted} accepted identically, {rejected} rejected by both",
        inputs.len()
    );
}

/// NaN payloads, signalling ones included, come back bit for bit wherever a
/// float is held: a field, a list, a fixed-length array, an optional and a
/// map value (a `number[]` of doubles would quiet them, so float lists and
/// arrays are typed arrays).
#[test]
fn typescript_keeps_the_bits_of_every_nan() {
    use pkt_runtime::Encode;
    use pkt_rust_tests::test::everything::Everything;
    use pkt_rust_tests::test::names::Position;
    let Some(dir) = driver() else { return };
    let (s32, q32) = (f32::from_bits(0x7F80_0001), f32::from_bits(0xFFC1_2345));
    let (s64, q64) = (
        f64::from_bits(0x7FF0_0000_0000_0001),
        f64::from_bits(0xFFF8_1234_5678_9ABC),
    );
    let everything = Everything {
        v_f32: s32,
        v_f64: s64,
        list_f32: vec![s32, q32, 1.5],
        array_f32: [s32; 16],
        opt_f64: Some(q64),
        map_nested: [("a".to_string(), [(1, s64), (2, q64)].into_iter().collect())]
            .into_iter()
            .collect(),
        ..Default::default()
    };
    let position = Position {
        position: [s32, q32, s32],
        heading: q32,
    };
    let inputs = vec![
        (
            "test.everything.Everything".to_string(),
            everything.encode_to_vec().expect("encodes"),
        ),
        (
            "test.names.Position".to_string(),
            position.encode_to_vec().expect("encodes"),
        ),
    ];
    let answers = run(dir, "nan", &inputs);
    for ((name, bytes), answer) in inputs.iter().zip(&answers) {
        assert_eq!(
            answer.strip_prefix("ok "),
            Some(hex(bytes).as_str()),
            "{name}: {answer}"
        );
    }
}

/// Every codec's `memory`, evaluated under node, is the IR's model of its
/// type: the numbers, and the sums that name other files' types
/// (`schemas/stable/v2`, whose union holds another file's messages).
#[test]
fn typescript_memory_models_equal_the_ir() {
    if !node::tools_or_skip("typescript_memory_models_equal_the_ir") {
        return;
    }
    let mut schemas = support::schemas();
    schemas.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/stable/v2/game.pkt"));
    let ir = pktc::check(&schemas).unwrap_or_else(|f| panic!("{f}")).ir;
    let js = typescript::build(
        &ir,
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("typescript-memory"),
        &[],
    );
    std::fs::write(
        js.join("memory.mjs"),
        "import { TYPES } from \"./dispatch.js\";\n\
         for (const [name, codec] of Object.entries(TYPES)) console.log(name + \"\\t\" + codec.memory);\n",
    )
    .expect("memory.mjs");
    let out = node::run(&js, &["memory.mjs"]);
    let mut compared = 0;
    for line in out.lines() {
        let (name, memory) = line.split_once('\t').expect("name<TAB>memory");
        let id = (0..ir.types.len())
            .map(TypeId)
            .find(|&id| qualified(&ir, id) == name)
            .unwrap_or_else(|| panic!("no type {name}"));
        assert_eq!(
            memory,
            ir.ty(id).memory.size.to_string(),
            "{name}: the TypeScript model"
        );
        compared += 1;
    }
    let expected = (0..ir.types.len())
        .filter(|&i| codec(&ir, TypeId(i)))
        .count();
    assert_eq!(compared, expected, "every codec answered");
}

/// `Chat` of `schemas/limits.pkt` with every part at its `@max`, as
/// `cross_lang.rs` builds it.
fn full_chat() -> pkt_rust_tests::test::limits::Chat {
    use std::collections::BTreeMap;
    pkt_rust_tests::test::limits::Chat {
        mentions: vec!["m".repeat(24); 8],
        tags: BTreeMap::from([("k".repeat(32), vec![0; 256])]),
        notes: vec![Some("four".into()), None],
        grid: vec![vec!["five!".into(), String::new()]; 3],
        slots: [vec![1, 2], Vec::new(), Vec::new()],
        groups: Some(BTreeMap::from([(1, vec![1, 2])])),
    }
}

/// What the Rust encoder says of the value `refusals()` builds in
/// TypeScript under `name`.
fn rust_refusal(name: &str) -> String {
    use pkt_runtime::Encode;
    use pkt_rust_tests::test::limits::{Line, Packet};
    use std::collections::BTreeMap;
    let mut chat = full_chat();
    let result = match name {
        "deep" => {
            use pkt_rust_tests::test::everything::LinkedNode;
            let mut node: Option<Box<LinkedNode>> = None;
            for value in 0..65 {
                node = Some(Box::new(LinkedNode { value, next: node }));
            }
            node.expect("a node").encode_to_vec()
        }
        "say" => Packet::Say(vec!["x".repeat(11)]).encode_to_vec(),
        "line" => Line {
            keys: BTreeMap::from([("four".into(), 1)]),
            ..Line::default()
        }
        .encode_to_vec(),
        _ => {
            match name {
                "mentions" => chat.mentions.push("m".repeat(25)),
                "tags_key" => {
                    chat.tags.insert("k".repeat(33), Vec::new());
                }
                "tags_value" => {
                    chat.tags.insert(String::new(), vec![0; 257]);
                }
                "notes" => chat.notes.push(Some("fives".into())),
                "grid" => chat.grid.push(vec![String::new(); 3]),
                "grid_cell" => chat.grid.push(vec!["sixsix".into()]),
                "slots" => chat.slots[2] = vec![0; 3],
                "groups" => {
                    chat.groups
                        .as_mut()
                        .expect("groups")
                        .insert(1, vec![1, 2, 3]);
                }
                other => panic!("no Rust refusal for {other}"),
            }
            chat.encode_to_vec()
        }
    };
    match result {
        Ok(bytes) => format!("written {}", hex(&bytes)),
        Err(e) => {
            let kind = format!("{:?}", e.kind());
            let kind: String = kind
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            format!("{kind} {e}")
        }
    }
}

/// Values built in TypeScript encode to the golden vectors of their names
/// (and a scoreboard whose keys sort differently in UTF-16 to Rust's
/// bytes); values over an `@max` are refused with Rust's error, naming the
/// same part, and so is a value nested deeper than decoders accept.
#[test]
fn typescript_writes_the_golden_bytes_and_refuses_what_rust_refuses() {
    use pkt_runtime::Encode;
    let Some(dir) = driver() else { return };
    let out = dir.join("values.out");
    node::run(
        &dir.join("js"),
        &["driver.mjs", "values", out.to_str().expect("UTF-8 path")],
    );
    let text = std::fs::read_to_string(&out).expect("values output");
    let golden = vectors::all();
    let (mut written, mut refused) = (0, 0);
    for line in text.lines() {
        let (name, answer) = line.split_once('\t').expect("name<TAB>answer");
        if let Some(v) = golden.iter().find(|v| v.name == name) {
            assert_eq!(
                answer,
                hex(&v.bytes),
                "{name}: TypeScript writes other bytes"
            );
            written += 1;
        } else if name == "scoreboard_utf8_order" {
            let rust = pkt_rust_tests::game::scoreboard::Scoreboard {
                round: 3,
                scores: [("zed", -1), ("\u{1F600}", 2), ("\u{FFFF}", 1), ("amy", 10)]
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
                mvp: Some("amy".into()),
            };
            assert_eq!(
                answer,
                hex(&rust.encode_to_vec().expect("encodes")),
                "{name}"
            );
            written += 1;
        } else {
            let rust = rust_refusal(name);
            assert!(
                !rust.starts_with("written"),
                "{name}: Rust writes it: {rust}"
            );
            // The same kind; for an `@max`, the same text, naming the part.
            if rust.starts_with("FieldTooLong ") {
                assert_eq!(
                    answer, rust,
                    "{name}: TypeScript and Rust refuse differently"
                );
            } else {
                let kind = |s: &str| s.split(' ').next().map(str::to_string);
                assert_eq!(kind(answer), kind(&rust), "{name}: {answer} / {rust}");
            }
            refused += 1;
        }
    }
    assert_eq!((written, refused), (13, 11), "{text}");
}

/// The node side of the hash-flooding test: decodes each `type<TAB>hex`
/// (or applies `delta<TAB>type<TAB>baseline<TAB>delta`) with every key
/// order of the runtime counting its calls, `Map` and `Set` counting their
/// constructions and every codec's `create` its calls, and answers
/// `<answer><TAB><comparisons><TAB><hash tables><TAB><values created>`.
const FLOOD: &str = r#"import { readFileSync, writeFileSync } from "node:fs";
import { TYPES } from "./dispatch.js";
import { KeyOrder, PktError } from "./pkt_runtime.js";

let comparisons = 0;
for (const name of Object.keys(KeyOrder)) {
  const order = KeyOrder[name];
  KeyOrder[name] = (a, b) => {
    comparisons++;
    return order(a, b);
  };
}
let tables = 0;
const HashMap = globalThis.Map;
const HashSet = globalThis.Set;
globalThis.Map = class extends HashMap { constructor(e) { super(e); tables++; } };
globalThis.Set = class extends HashSet { constructor(e) { super(e); tables++; } };
let creates = 0;
for (const codec of Object.values(TYPES)) {
  const create = codec.create;
  codec.create = () => {
    creates++;
    return create();
  };
}

const hex = (b) => Buffer.from(b).toString("hex");
const unhex = (s) => new Uint8Array(Buffer.from(s, "hex"));
const [input, output] = process.argv.slice(2);
const out = [];
for (const line of readFileSync(input, "utf8").split("\n")) {
  if (!line) continue;
  const parts = line.split("\t");
  let answer;
  if (parts[0] === "delta") {
    const codec = TYPES[parts[1]];
    const target = codec.decode(unhex(parts[2]));
    const delta = unhex(parts[3]);
    comparisons = 0;
    tables = 0;
    creates = 0;
    try {
      codec.applyDelta(target, delta);
      answer = "ok " + hex(codec.encode(target));
    } catch (e) {
      if (!(e instanceof PktError)) throw e;
      answer = `err ${e.kind} ${e.offset}`;
    }
  } else {
    const codec = TYPES[parts[0]];
    const bytes = unhex(parts[1]);
    comparisons = 0;
    tables = 0;
    creates = 0;
    try {
      const value = codec.decode(bytes);
      answer = "ok " + hex(codec.encode(value));
    } catch (e) {
      if (!(e instanceof PktError)) throw e;
      answer = `err ${e.kind} ${e.offset}`;
    }
  }
  out.push(`${answer}\t${comparisons}\t${tables}\t${creates}`);
}
writeFileSync(output, out.join("\n") + "\n");
"#;

/// `test.map_keys.Keyed` with the map of field `slot` holding `entries`
/// (each a key's encoding and its value's) and the others empty; its body
/// cut by `cut` bytes at the end.
fn keyed(slot: usize, entries: &[Vec<u8>], cut: usize) -> Vec<u8> {
    let mut body = Vec::new();
    for i in 0..7 {
        if i == slot {
            body.extend((entries.len() as u32).to_le_bytes());
            entries.iter().for_each(|e| body.extend(e));
        } else {
            body.extend(0u32.to_le_bytes());
        }
    }
    body.truncate(body.len() - cut);
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend(body);
    out
}

/// Maps whose integer keys all collide in V8's unseeded hashes (and string
/// keys that look like integers) decode, re-encode and apply as deltas as
/// in Rust, with O(n log n) key comparisons and no hash table: keys in wire
/// order, shuffled, and shuffled with a repeated key followed by the end of
/// the input (Rust's DuplicateMapKey at the repeat, not the later
/// UnexpectedEnd) or not. Decoding these keys into a `Map` took 3.7 s for
/// 16,384 `u32` keys and 7.9 s for `u64` keys (sequential keys: 15 and 9
/// ms), quadratic in the count.
#[test]
fn typescript_maps_of_colliding_keys_decode_in_n_log_n() {
    use pkt_runtime::{Decode, Encode};
    use pkt_rust_tests::test::map_keys::Keyed;
    use support::typescript::colliding;
    let Some(dir) = driver() else { return };
    let js = dir.join("js");
    std::fs::write(js.join("flood.mjs"), FLOOD).expect("flood.mjs");
    const N: usize = 16_384;
    let u32s = colliding::u32s(N);
    let words = colliding::words(N);
    let u64s = colliding::u64s(N);
    let i64s = colliding::i64s(N);
    assert!(u32s.len() == N && words.len() == N);
    let low = |h: u32| h & 0x3fff;
    assert!(u32s
        .iter()
        .chain(&words)
        .all(|&k| low(colliding::hash32(k)) == 0));
    assert!(u64s.iter().all(|&k| low(colliding::hash64(k)) == 0));
    assert!(i64s
        .iter()
        .all(|&k| low(colliding::hash64(k.unsigned_abs())) == 0));
    // (slot, entries in wire order): keys with the value `i as u8`.
    let entry = |key: Vec<u8>, i: usize| {
        let mut e = key;
        e.push(i as u8);
        e
    };
    let mut sorted_u32 = u32s.clone();
    sorted_u32.sort();
    let mut sorted_i32: Vec<i32> = words.iter().map(|&k| k as i32).collect();
    sorted_i32.sort();
    let mut sorted_u64 = u64s.clone();
    sorted_u64.sort();
    let mut sorted_i64 = i64s.clone();
    sorted_i64.sort();
    let mut names = colliding::names(N);
    names.sort();
    let string = |s: &String| {
        let mut b = (s.len() as u32).to_le_bytes().to_vec();
        b.extend(s.as_bytes());
        b
    };
    let shapes: Vec<(usize, Vec<Vec<u8>>)> = vec![
        (
            0,
            sorted_u32
                .iter()
                .enumerate()
                .map(|(i, k)| entry(k.to_le_bytes().to_vec(), i))
                .collect(),
        ),
        (
            1,
            sorted_i32
                .iter()
                .enumerate()
                .map(|(i, k)| entry(k.to_le_bytes().to_vec(), i))
                .collect(),
        ),
        (
            2,
            sorted_u64
                .iter()
                .enumerate()
                .map(|(i, k)| entry(k.to_le_bytes().to_vec(), i))
                .collect(),
        ),
        (
            3,
            sorted_i64
                .iter()
                .enumerate()
                .map(|(i, k)| entry(k.to_le_bytes().to_vec(), i))
                .collect(),
        ),
        (
            4,
            sorted_u32
                .iter()
                .enumerate()
                .map(|(i, k)| entry(k.to_le_bytes().to_vec(), i))
                .collect(),
        ),
        (
            5,
            names
                .iter()
                .enumerate()
                .map(|(i, k)| entry(string(k), i))
                .collect(),
        ),
    ];
    let ty = "test.map_keys.Keyed";
    let mut rng = Rng(0xF100D);
    let mut lines = Vec::new();
    let mut counts = Vec::new();
    let mut expected = Vec::new();
    for (slot, sorted) in &shapes {
        let mut shuffled = sorted.clone();
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut repeated = shuffled.clone();
        repeated.push(shuffled[shuffled.len() / 3].clone());
        repeated.push(shuffled[1].clone());
        for bytes in [
            keyed(*slot, sorted, 0),
            keyed(*slot, &shuffled, 0),
            keyed(*slot, &repeated, 0),
            keyed(*slot, &repeated, 1 + 4 * (6 - slot)),
        ] {
            let rust = match Keyed::decode(&bytes) {
                Ok(v) => format!("ok {}", hex(&v.encode_to_vec().unwrap())),
                Err(e) => format!("err {}", rust_error(&e)),
            };
            lines.push(format!("{ty}\t{}", hex(&bytes)));
            counts.push(N + 2);
            expected.push(rust);
        }
        // A delta against the first half of the keys that removes every
        // other one, adds the second half and changes every fourth value.
        let half = sorted.len() / 2;
        let base = Keyed::decode(&keyed(*slot, &sorted[..half], 0)).unwrap();
        let mut next: Vec<Vec<u8>> = Vec::new();
        for (i, e) in sorted.iter().enumerate() {
            if i < half && i % 2 == 1 {
                continue;
            }
            let mut e = e.clone();
            if i % 4 == 0 {
                *e.last_mut().unwrap() ^= 0x80;
            }
            next.push(e);
        }
        let value = Keyed::decode(&keyed(*slot, &next, 0)).unwrap();
        let mut delta = Vec::new();
        pkt_runtime::delta::encode(&value, &base, &mut delta).unwrap();
        let mut applied = base.clone();
        pkt_runtime::delta::apply(&mut applied, &delta, &pkt_runtime::Limits::DEFAULT).unwrap();
        assert_eq!(applied, value);
        lines.push(format!(
            "delta\t{ty}\t{}\t{}",
            hex(&base.encode_to_vec().unwrap()),
            hex(&delta)
        ));
        counts.push(half + N);
        expected.push(format!("ok {}", hex(&value.encode_to_vec().unwrap())));
    }
    // Every value of a map of `@delta` structs changed: one nested patch
    // each, which must not build a default value of the struct.
    let cells = |hits: u8| Keyed {
        by_u16: (0..4096u16)
            .map(|k| {
                (
                    k,
                    pkt_rust_tests::test::map_keys::Cell {
                        hits: hits ^ k as u8,
                        label: String::new(),
                    },
                )
            })
            .collect(),
        ..Keyed::default()
    };
    let (base, value) = (cells(0), cells(1));
    let mut delta = Vec::new();
    pkt_runtime::delta::encode(&value, &base, &mut delta).unwrap();
    lines.push(format!(
        "delta\t{ty}\t{}\t{}",
        hex(&base.encode_to_vec().unwrap()),
        hex(&delta)
    ));
    counts.push(2 * 4096);
    expected.push(format!("ok {}", hex(&value.encode_to_vec().unwrap())));
    let input = js.join("flood.in");
    let output = js.join("flood.out");
    std::fs::write(&input, lines.join("\n") + "\n").expect("write inputs");
    node::run(
        &js,
        &[
            "flood.mjs",
            input.to_str().expect("UTF-8 path"),
            output.to_str().expect("UTF-8 path"),
        ],
    );
    let answers = std::fs::read_to_string(&output).expect("flood output");
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), lines.len(), "node answered every input");
    let mut most = 0.0f64;
    for (i, answer) in answers.iter().enumerate() {
        let mut parts = answer.split('\t');
        let (got, comparisons, tables, creates) = (
            parts.next().unwrap(),
            parts.next().unwrap().parse::<u64>().unwrap(),
            parts.next().unwrap().parse::<u64>().unwrap(),
            parts.next().unwrap().parse::<u64>().unwrap(),
        );
        let what = &lines[i][..lines[i].len().min(60)];
        assert_eq!(got, expected[i], "{what}: TypeScript answers as Rust");
        assert_eq!(tables, 0, "{what}: no hash table keyed by the input");
        if lines[i].starts_with("delta") {
            // A patch holds what the delta names, not a default value per
            // patch (it built one per changed entry, 4,097 for the cells).
            assert_eq!(creates, 0, "{what}: default values built applying");
        }
        // A sort of n keys takes at most n log2 n comparisons; one more
        // per key to find repeats, and one as each key is read.
        let n = counts[i] as f64;
        let bound = n * n.log2().ceil() + 3.0 * n;
        assert!(
            (comparisons as f64) <= bound,
            "{what}: {comparisons} key comparisons for {n} keys, more than {bound}"
        );
        most = most.max(comparisons as f64 / n);
    }
    println!(
        "{} inputs of {N} colliding keys: at most {most:.1} comparisons per key",
        lines.len()
    );
}
