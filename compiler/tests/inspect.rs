//! `pktc inspect`: the IR-driven decoder against the golden vectors of
//! docs/wire-format.md, its hex dumps, and hostile input.

mod common;

use pkt_test_support::{vectors, Rng};
use pktc::ir::Ir;
use pktc::tools::inspect::{self, ErrorKind, Limits};
use serde_json::{json, Value};
use std::io::Read as _;

fn ir(schema: &str) -> Ir {
    common::check(schema.as_ref())
        .unwrap_or_else(|f| panic!("{f}"))
        .ir
}

fn bytes(hex: &str) -> Vec<u8> {
    inspect::parse_hex(hex).expect("hex")
}

fn decode(ir: &Ir, ty: &str, input: &[u8]) -> Result<Value, inspect::DecodeError> {
    let id = inspect::find_type(ir, ty).expect("type exists");
    match inspect::decode(ir, id, input, Limits::default()) {
        (tree, None) => Ok(serde_json::from_str(&inspect::to_json(&tree)).expect("valid JSON")),
        (_, Some(e)) => Err(e),
    }
}

/// The golden vectors of `schemas/vectors/` (the examples of
/// docs/wire-format.md): schema, type, bytes, value (`Null` where none is
/// given).
fn golden() -> Vec<(String, String, String, Value)> {
    vectors::all()
        .into_iter()
        .map(|v| {
            let json = v.json.as_deref().map_or(Value::Null, |j| {
                serde_json::from_str(j).unwrap_or_else(|e| panic!("{}: json: {e}", v.name))
            });
            (v.schema.to_string_lossy().into_owned(), v.ty, v.hex, json)
        })
        .collect()
}

#[test]
fn decodes_the_golden_vectors() {
    for (schema, ty, hex, expected) in golden() {
        let ir = ir(&schema);
        let got = decode(&ir, &ty, &bytes(&hex)).unwrap_or_else(|e| panic!("{ty}: {e}"));
        if expected != Value::Null {
            assert_eq!(got, expected, "{ty}");
        }
        // The bare name finds the same type wherever it is unique.
        let bare = ty.rsplit('.').next().expect("name");
        if let Ok(id) = inspect::find_type(&ir, bare) {
            assert_eq!(Ok(id), inspect::find_type(&ir, &ty), "{bare}");
        }
    }
}

#[test]
fn every_truncation_and_any_extra_byte_is_an_error() {
    for (schema, ty, hex, _) in golden() {
        let (ty, ir) = (ty.as_str(), ir(&schema));
        let full = bytes(&hex);
        for cut in 0..full.len() {
            let e = decode(&ir, ty, &full[..cut]).expect_err("a prefix is not a value");
            assert!(e.offset <= cut, "{ty} cut at {cut}: {e}");
        }
        let mut longer = full.clone();
        longer.push(0);
        let e = decode(&ir, ty, &longer).expect_err("trailing byte");
        assert_eq!(e.kind, ErrorKind::TrailingBytes { count: 1 }, "{ty}");
        assert_eq!(e.offset, full.len());
    }
}

#[test]
fn hex_dumps_of_golden_vectors() {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(common::root().join("snapshots").join("inspect"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    // Vector, snapshot.
    let picks = [
        ("transform_packet", "transform_packet"),
        ("scoreboard_amy_zed", "scoreboard"),
        ("server_kick", "kick"),
    ];
    for (vector, name) in picks {
        let v = vectors::get(vector);
        let ir = ir(&v.schema.to_string_lossy());
        let input = v.bytes;
        let id = inspect::find_type(&ir, &v.ty).expect("type");
        let (node, err) = inspect::decode(&ir, id, &input, Limits::default());
        assert!(err.is_none());
        s.bind(|| insta::assert_snapshot!(name, inspect::hex_dump(&node)));
    }
    // A frame with a tag the schema does not know, and a stream.
    let ir = ir("schemas/game.pkt");
    let input =
        bytes("05 00 00 00 00 04 01 02 03  0e 00 00 00 02 00 08 00 00 00 2a 00 00 00 00 00 00 00");
    let out = inspect::inspect(&ir, "ServerPacket", &input, inspect::Format::Hex, true);
    s.bind(|| insta::assert_snapshot!("stream", out.expect("decodes")));
}

fn expect_error(ir: &Ir, ty: &str, hex: &str, kind: ErrorKind, offset: usize) {
    let e = decode(ir, ty, &bytes(hex)).expect_err("must fail");
    assert_eq!(
        (e.kind.clone(), e.offset),
        (kind, offset),
        "{ty} {hex}: {e}"
    );
}

#[test]
fn each_error_kind_names_its_offset() {
    let game = ir("schemas/game.pkt");
    let everything = ir("schemas/everything.pkt");
    let scoreboard = ir("schemas/scoreboard.pkt");
    // A body length far beyond the input.
    expect_error(
        &scoreboard,
        "Scoreboard",
        "ff ff ff ff 00",
        ErrorKind::LengthExceedsInput {
            len: u32::MAX as usize,
            remaining: 1,
        },
        0,
    );
    // A string length beyond its body.
    expect_error(
        &everything,
        "Leaf",
        "05 00 00 00 ff ff ff 7f 00",
        ErrorKind::LengthExceedsInput {
            len: 0x7fff_ffff,
            remaining: 1,
        },
        4,
    );
    // @max(64) on `scores`, checked before the count.
    expect_error(
        &scoreboard,
        "Scoreboard",
        "06 00 00 00 01 00 41 00 00 00",
        ErrorKind::FieldTooLong {
            field: "game.scoreboard.Scoreboard.scores".into(),
            len: 65,
            max: 64,
        },
        6,
    );
    // A huge count of 4-byte elements.
    expect_error(
        &ir("schemas/world.pkt"),
        "WorldSnapshot",
        "08 00 00 00 ff ff ff ff 00 00 00 00",
        ErrorKind::LengthExceedsInput {
            len: 4 * u32::MAX as usize,
            remaining: 4,
        },
        4,
    );
    expect_error(
        &game,
        "ClientPacket",
        "0b 00 00 00 02 00 00 00 00 00 00 00 00 00 00",
        ErrorKind::UnexpectedEnd {
            needed: 4,
            remaining: 2,
        },
        13,
    );
    // Kick with an optional flag of 2.
    expect_error(
        &game,
        "Kick",
        "07 00 00 00 01 00 00 00 00 02 00",
        ErrorKind::InvalidOptionFlag(2),
        9,
    );
    // Invalid UTF-8 in the second byte of a string.
    expect_error(
        &ir("schemas/small.pkt"),
        "Small",
        "0a 00 00 00 01 00 00 00 02 00 00 00 68 ff",
        ErrorKind::InvalidUtf8,
        13,
    );
    // Repeated map key.
    expect_error(
        &scoreboard,
        "Scoreboard",
        "18 00 00 00 03 00 02 00 00 00 01 00 00 00 61 01 00 00 00 01 00 00 00 61 02 00 00 00",
        ErrorKind::DuplicateMapKey,
        19,
    );
    // Ping's variant is a u64 but the frame holds one byte more.
    expect_error(
        &game,
        "ClientPacket",
        "0a 00 00 00 05 2a 00 00 00 00 00 00 00 00",
        ErrorKind::VariantLength {
            tag: 5,
            expected: 9,
            consumed: 8,
        },
        13,
    );
    // Invalid bool in a fixed struct.
    expect_error(
        &game,
        "MoveInput",
        &format!("{} 02", "00 ".repeat(34)),
        ErrorKind::InvalidBool(2),
        34,
    );
}

#[test]
fn nesting_is_bounded() {
    let ir = ir("schemas/everything.pkt");
    // TreeNode { value, children: [TreeNode { ... }] }, 70 levels deep.
    let depth = 70;
    let mut body: Vec<u8> = Vec::new();
    for level in 0..depth {
        let mut outer = vec![0u8; 4]; // value
        let count: u32 = u32::from(level > 0);
        outer.extend_from_slice(&count.to_le_bytes());
        outer.extend_from_slice(&body);
        let mut framed = (outer.len() as u32).to_le_bytes().to_vec();
        framed.extend_from_slice(&outer);
        body = framed;
    }
    let id = inspect::find_type(&ir, "TreeNode").expect("type");
    let (_, e) = inspect::decode(&ir, id, &body, Limits::default());
    let e = e.expect("too deep");
    assert_eq!(e.kind, ErrorKind::DepthExceeded { max: 64 });
    assert!(e.path.contains(".children[0]"), "{}", e.path);
}

#[test]
fn random_and_mutated_input_never_panics() {
    let mut rng = Rng(0x243F_6A88_85A3_08D3);
    for schema in ["schemas/everything.pkt", "schemas/game.pkt"] {
        let ir = ir(schema);
        for id in 0..ir.types.len() {
            let id = pktc::ir::TypeId(id);
            for _ in 0..200 {
                let len = (rng.next() % 64) as usize;
                let mut input: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                // Small length prefixes get further than random ones.
                if input.len() >= 4 && rng.next() % 2 == 0 {
                    let n = (input.len() - 4) as u32;
                    input[..4].copy_from_slice(&n.to_le_bytes());
                }
                let (node, _) = inspect::decode(&ir, id, &input, Limits::default());
                let _ = inspect::hex_dump(&node);
                let _ = inspect::to_json(&node);
                let _ = inspect::decode_stream(&ir, id, &input, Limits::default());
            }
        }
    }
    for (schema, ty, hex, _) in golden() {
        let ir = ir(&schema);
        let id = inspect::find_type(&ir, &ty).expect("type");
        let good = bytes(&hex);
        for i in 0..good.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[i] ^= flip;
                let (node, _) = inspect::decode(&ir, id, &bad, Limits::default());
                let _ = inspect::hex_dump(&node);
            }
        }
    }
}

/// Two schemas that both declare a `Vec3`.
fn two_vec3s() -> Ir {
    pktc::check_with(
        &["schemas/common.pkt".into(), "schemas/mesh.pkt".into()],
        &common::RootReader,
    )
    .expect("valid")
    .ir
}

#[test]
fn type_names_resolve_qualified_or_unique() {
    let ir = two_vec3s();
    assert!(inspect::find_type(&ir, "Triangle").is_ok());
    assert!(inspect::find_type(&ir, "bench.mesh.Vec3").is_ok());
    let e = inspect::find_type(&ir, "Vec3").expect_err("two Vec3");
    assert!(
        e.contains("`game.common.Vec3`") && e.contains("`bench.mesh.Vec3`"),
        "{e}"
    );
    assert!(inspect::find_type(&ir, "Nope").is_err());
}

/// A misspelt type name gets a suggestion, as `pktc check` gives one: the
/// near name, qualified when it was or when two types share it.
#[test]
fn unknown_type_names_get_a_suggestion() {
    let ir = two_vec3s();
    let near = |name: &str| inspect::find_type(&ir, name).expect_err("no such type");
    assert!(
        near("Trangle").ends_with("\n  = help: did you mean `Triangle`?"),
        "{}",
        near("Trangle")
    );
    assert!(
        near("bench.mesh.Vec4").ends_with("did you mean `bench.mesh.Vec3`?"),
        "{}",
        near("bench.mesh.Vec4")
    );
    assert!(
        near("Vec4").ends_with("did you mean `game.common.Vec3` or `bench.mesh.Vec3`?"),
        "{}",
        near("Vec4")
    );
    assert_eq!(near("Nope"), "no type named `Nope` in these schemas");
}

fn pktc(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(common::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("pktc runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write");
    child.wait_with_output().expect("pktc ends")
}

#[test]
fn cli_reads_raw_or_hex_and_fails_clearly() {
    let raw = vectors::get("client_ping").bytes;
    let o = pktc(
        &["inspect", "--type", "ClientPacket", "schemas/game.pkt"],
        &raw,
    );
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v, json!({"Ping": 42}));

    let o = pktc(
        &[
            "inspect",
            "--type",
            "ClientPacket",
            "--hex",
            "--format",
            "hex",
            "schemas/game.pkt",
        ],
        b"08 00 00 00 05 2a 00 00 00 00 00 00",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("unexpected end of input: needed 8 bytes, 7 remaining at byte 5"),
        "{err}"
    );
    assert!(err.contains("ClientPacket.Ping"), "{err}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("0004  05"), "partial dump: {out}");

    let o = pktc(
        &["inspect", "--type", "Kick", "--stream", "schemas/game.pkt"],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a union"));
}

#[test]
fn hex_dump_counts_in_the_singular_for_one() {
    let ir = ir("schemas/scoreboard.pkt");
    // round 3, one score "amy" → 10, no mvp.
    let input = bytes("12 00 00 00 03 00 01 00 00 00 03 00 00 00 61 6d 79 0a 00 00 00 00");
    let out =
        inspect::inspect(&ir, "Scoreboard", &input, inspect::Format::Hex, false).expect("decodes");
    assert!(out.contains("map, 1 entry\n"), "{out}");
    let input = bytes("07 00 00 00 03 00 00 00 00 00 00");
    let out =
        inspect::inspect(&ir, "Scoreboard", &input, inspect::Format::Hex, false).expect("decodes");
    assert!(out.contains("map, 0 entries\n"), "{out}");
}

/// Two imported files both declare `Note`: the decode error and the path
/// name it with its namespace.
#[test]
fn errors_qualify_a_type_name_two_namespaces_share() {
    let ir = ir("schemas/same_stem/top.pkt");
    // A client `Note` of 9 bytes: one over its `@max(LIMIT)` of 8.
    let e = decode(
        &ir,
        "same_stem.client.Note",
        &bytes("0d000000 09000000 6e696e652063686172"),
    )
    .expect_err("over the limit");
    let text = e.to_string();
    assert!(text.contains("same_stem.client.Note.text"), "{text}");
    assert!(e.path.starts_with("same_stem.client.Note"), "{}", e.path);
}

#[test]
fn quantized_fields_decode_to_their_values_and_refuse_integers_past_their_steps() {
    let ir = ir("compiler/tests/inputs/quantized.pkt");
    // flag 2 of 2 steps, x 0 of 256 (-128), y 819,200 (4096), z 2^33.
    let pos = "02 0000 00800c00 0000000002000000";
    assert_eq!(
        decode(&ir, "Pos", &bytes(pos)),
        Ok(json!({"flag": 1.0, "x": -128.0, "y": 4096.0, "z": 8589934592.0}))
    );
    // min + q * step: -4096 + 409,650 * 0.01, rounded to f32.
    let y = "00 8000 32400600 0000000000000000";
    let v = decode(&ir, "Pos", &bytes(y)).expect("valid");
    assert_eq!(v["y"], json!((-4096.0 + 409_650.0 * 0.01) as f32 as f64));
    assert_eq!(v["x"], json!(0.0));
    let past = |q: &str, at: usize, value: u64, steps: u64| {
        expect_error(
            &ir,
            "Pos",
            q,
            ErrorKind::InvalidQuantized { value, steps },
            at,
        )
    };
    past("03 0000 00000000 0000000000000000", 0, 3, 2);
    past("00 0101 00000000 0000000000000000", 1, 257, 256);
    past("00 0000 01800c00 0000000000000000", 3, 819_201, 819_200);
    past(
        "00 0000 00000000 0100000002000000",
        7,
        (1 << 33) + 1,
        1 << 33,
    );
    // In a message: the offset counts the body prefix; a body without the
    // field gives its default.
    let e = decode(
        &ir,
        "Moved",
        &bytes("10000000 00 0000 00000000 0000000000000000 91"),
    )
    .expect_err("401 is past 400 steps");
    assert_eq!((e.offset, e.path.as_str()), (19, "Moved.speed"));
    let v = decode(
        &ir,
        "Moved",
        &bytes("0f000000 00 0000 00000000 0000000000000000"),
    );
    assert_eq!(v.expect("valid")["speed"], json!(1.5));
}

#[test]
fn layout_shows_the_stored_width_of_quantized_fields() {
    let text = pktc::tools::layout::layout(&ir("compiler/tests/inputs/quantized.pkt"));
    assert!(text.contains("struct Pos: fixed, 15 bytes"), "{text}");
    for row in [
        "0     1  flag   f64 @quantize(0, 1, 0.5) -> u8",
        "1     2  x      f32 @quantize(-128, 128, 1) -> u16",
        "3     4  y      f32 @quantize(-4096, 4096, 0.01) -> u32",
        "7     8  z      f64 @quantize(0, 8589934592, 1) -> u64",
        "2     2  speed  f32 @quantize(0, 100, 0.25) -> u16",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
}

/// An endless input, counting the bytes it gave.
struct Endless {
    given: usize,
}

impl std::io::Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        buf.fill(b'0');
        self.given += buf.len();
        Ok(buf.len())
    }
}

/// `pktc inspect --input /dev/zero` is refused after the cap (the default
/// frame limit) and one byte more, raw or as hex text; an input of exactly
/// the cap is read whole.
#[test]
fn an_endless_input_is_refused_after_the_frame_limit() {
    assert_eq!(inspect::MAX_INPUT, Limits::default().max_frame);
    for (hex, cap) in [(false, inspect::MAX_INPUT), (true, inspect::MAX_HEX_INPUT)] {
        let mut endless = Endless { given: 0 };
        let e = inspect::read_input(&mut endless, hex, "the input").expect_err("refused");
        assert_eq!(endless.given, cap + 1, "hex: {hex}");
        let expected = if hex {
            "the input is longer than 64 MiB of hex text"
        } else {
            "the input is longer than 16 MiB,"
        };
        assert!(e.starts_with(expected), "{e}");
    }
    let exact = std::io::repeat(0).take(inspect::MAX_INPUT as u64);
    let bytes = inspect::read_input(exact, false, "the input").expect("the cap is accepted");
    assert_eq!(bytes.len(), inspect::MAX_INPUT);
    // Hex text within its cap that holds more bytes than the cap.
    let text = "00".repeat(inspect::MAX_INPUT + 1);
    let e = inspect::read_input(text.as_bytes(), true, "the input").expect_err("refused");
    assert!(
        e.starts_with("the input is longer than 16 MiB of bytes"),
        "{e}"
    );
    let text = "00".repeat(inspect::MAX_INPUT);
    let bytes = inspect::read_input(text.as_bytes(), true, "the input").expect("accepted");
    assert_eq!(bytes.len(), inspect::MAX_INPUT);
}

/// `--delta-against FILE`: the baseline's encoding in FILE, a delta as the
/// input (docs/wire-format.md's `Vec3` example); the output names the
/// changed fields and prints the new value. A bad delta fails at its byte;
/// a type without `@delta` has no deltas. (Agreement with the generated
/// Rust `apply_delta` on random and hostile deltas: rust-tests'
/// `delta_inspect.rs`.)
#[test]
fn cli_applies_a_delta_against_a_baseline() {
    let dir = std::env::temp_dir().join(format!("pktc-inspect-delta-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let base = dir.join("vec3.hex");
    std::fs::write(&base, "0000803f 00000040 00004040").expect("write baseline");
    let base = base.to_str().expect("UTF-8 path");
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "inspect",
            "--type",
            "Vec3",
            "--hex",
            "--delta-against",
            base,
        ];
        a.extend_from_slice(extra);
        a.push("schemas/delta.pkt");
        a
    };
    let o = pktc(&args(&[]), b"01 02 00 00 20 40");
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\n  \"changed\": [\n    \"Vec3.y\"\n  ],\n  \"value\": {\n    \"x\": 1.0,\n    \"y\": 2.5,\n    \"z\": 3.0\n  }\n}\n"
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["value"], json!({"x": 1.0, "y": 2.5, "z": 3.0}));

    // Nothing changed: the baseline, and no changes.
    let o = pktc(&args(&[]), b"00");
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        v,
        json!({"changed": [], "value": {"x": 1.0, "y": 2.0, "z": 3.0}})
    );

    let o = pktc(&args(&["--format", "hex"]), b"01 02 00 00 20 40");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("# changed: Vec3.y\n"), "{out}");
    assert!(out.contains("0004  00 00 20 40"), "{out}");

    // A mask bit past the struct's three fields, at its byte.
    let o = pktc(&args(&[]), b"01 08");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot apply the delta: invalid delta: mask names a field the struct does not have at byte 1 (in Vec3)"),
        "{err}"
    );
    // Cut inside the changed field: where the field starts, named.
    let o = pktc(&args(&[]), b"01 02 00 00");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("at byte 2 (in Vec3.y)"), "{err}");
    // A bad baseline says so.
    let short = dir.join("short.hex");
    std::fs::write(&short, "0000803f").expect("write");
    let o = pktc(
        &[
            "inspect",
            "--type",
            "Vec3",
            "--hex",
            "--delta-against",
            short.to_str().expect("UTF-8 path"),
            "schemas/delta.pkt",
        ],
        b"00",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot decode the baseline"), "{err}");
    // No deltas for a type that is not @delta.
    let o = pktc(
        &[
            "inspect",
            "--type",
            "Team",
            "--hex",
            "--delta-against",
            base,
            "schemas/delta.pkt",
        ],
        b"00",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not declared @delta"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pktc layout` marks `@delta` types, with the shape of their delta, and
/// shows message fields' declared defaults as the schema writes them.
#[test]
fn layout_shows_delta_types_and_field_defaults() {
    let text = pktc::tools::layout::layout(&ir("schemas/delta.pkt"));
    for line in [
        "@delta struct Vec3: fixed, 12 bytes\n  delta: u8 n, n <= 1 mask byte, then",
        "@delta message Entity: variable, at least 4 bytes\n  delta: u32 body length, u8 n, n <= 2 mask bytes",
        "\nenum Team: fixed, 1 byte",
        "\nunion Status:",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let text = pktc::tools::layout::layout(&ir("schemas/float_defaults.pkt"));
    for row in ["f32 = -0.0", "f32 = nan", "f64 = -inf", "f32 = 0.1"] {
        assert!(text.contains(row), "{row}\n{text}");
    }
    let text = pktc::tools::layout::layout(&ir("schemas/everything.pkt"));
    for row in [
        "u16 = 65535",
        "i64 = -9223372036854775808",
        "string = \"anonymous\"",
        "Color = Blue",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
}
