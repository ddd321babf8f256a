//! Quantized floats (`@quantize`) in generated Rust and C#: `schemas/quantized.pkt`
//! encoded, decoded and viewed in every shape (a fixed-size struct, one
//! inside another and in an array, a list of them, a variable-size struct,
//! a message, a union), values outside a range refused naming the field,
//! stored integers past their steps refused at their offset on every path.

mod support;

use support::{mono, node};

use std::path::Path;

use pkt_runtime::quantize::Quantize;
use pkt_runtime::{Decode, DecodeErrorKind, Encode, EncodeErrorKind};
use pkt_rust_tests::test::quantized::{Body, Event, Moved, Named, Pos};
use pkt_test_support::{hex, scaled, vectors, Rng};

const FLAG: Quantize = Quantize::new(0.0, 1.0, 0.5, 2);
const X: Quantize = Quantize::new(-128.0, 128.0, 1.0, 256);
const Y: Quantize = Quantize::new(-4096.0, 4096.0, 0.01, 819_200);
const Z: Quantize = Quantize::new(0.0, 8_589_934_592.0, 1.0, 1 << 33);
const HEADING: Quantize = Quantize::new(-3.125, 3.125, 0.001, 6250);
const SPEED: Quantize = Quantize::new(0.0, 100.0, 0.25, 400);
const ANGLE: Quantize = Quantize::new(-180.0, 180.0, 0.0001, 3_600_000);

/// The next `f64` above `x` (finite), as `f64::next_up` (Rust 1.86) does.
fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// The next `f64` below `x` (finite).
fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

/// A representable value: a stored integer, then its value (edges often).
fn pick(rng: &mut Rng, q: &Quantize) -> u64 {
    match rng.below(4) {
        0 => 0,
        1 => q.steps,
        _ => rng.below(q.steps + 1),
    }
}

fn f32_of(rng: &mut Rng, q: &Quantize) -> f32 {
    let n = pick(rng, q);
    q.dequantize_f32(n).expect("within the steps")
}

fn f64_of(rng: &mut Rng, q: &Quantize) -> f64 {
    let n = pick(rng, q);
    q.dequantize(n).expect("within the steps")
}

fn pos(rng: &mut Rng) -> Pos {
    Pos {
        flag: f64_of(rng, &FLAG),
        x: f32_of(rng, &X),
        y: f32_of(rng, &Y),
        z: f64_of(rng, &Z),
    }
}

fn moved(rng: &mut Rng) -> Moved {
    let path = (0..rng.below(4)).map(|_| pos(rng)).collect();
    let body = rng.chance(2).then(|| Body {
        at: pos(rng),
        corners: [pos(rng), pos(rng)],
        mass: f32::from_bits(rng.next() as u32 & 0x3fff_ffff),
        alive: rng.chance(2),
    });
    Moved {
        id: rng.next() as u32,
        at: pos(rng),
        speed: f32_of(rng, &SPEED),
        path,
        body,
        named: Named {
            name: "n".repeat(rng.index(3)),
            heading: f32_of(rng, &HEADING),
        },
        angle: f64_of(rng, &ANGLE),
    }
}

#[test]
fn a_struct_is_its_stored_integers() {
    let p = Pos {
        flag: 1.0,
        x: -128.0,
        y: 4096.0,
        z: 8_589_934_592.0,
    };
    let bytes = p.encode_to_vec().expect("in range");
    assert_eq!(hex::encode(&bytes), "02000000800c000000000002000000");
    assert_eq!(<Pos as pkt_runtime::FixedSize>::SIZE, 15);
    assert_eq!(Pos::decode(&bytes), Ok(p));
    // min + q * step, rounded to f32: -4096 + 409,650 * 0.01.
    let mut mid = bytes.clone();
    mid[3..7].copy_from_slice(&409_650u32.to_le_bytes());
    assert_eq!(
        Pos::decode(&mid).expect("valid").y,
        (-4096.0 + 409_650.0 * 0.01) as f32
    );
    // A value between two steps is written as the nearest, ties away
    // from zero: (0.25 - 0) / 0.5 = 0.5 is step 1.
    let tie = Pos { flag: 0.25, ..p };
    assert_eq!(tie.encode_to_vec().expect("in range")[0], 1);
}

#[test]
fn representable_values_round_trip_in_every_shape() {
    let mut rng = Rng(0x9a17_3e55);
    let n = scaled(300, 30_000);
    for i in 0..n {
        let m = moved(&mut rng);
        let bytes = m.encode_to_vec().unwrap_or_else(|e| panic!("{i}: {e}"));
        let back = Moved::decode(&bytes).unwrap_or_else(|e| panic!("{i}: {e}"));
        assert_eq!(back, m, "{i}");
        assert_eq!(Moved::view(&bytes).expect("views").to_owned(), m, "{i}");
        let mut into = moved(&mut rng);
        into.decode_into(&bytes).expect("decodes into");
        assert_eq!(into, m, "{i}");
        for e in [Event::Move(m.clone()), Event::Place(m.at)] {
            let bytes = e.encode_to_vec().expect("in range");
            assert_eq!(Event::decode(&bytes), Ok(e.clone()), "{i}");
            assert_eq!(Event::view(&bytes).expect("views").to_owned(), e, "{i}");
        }
        let list = m.path.encode_to_vec().expect("in range");
        assert_eq!(Vec::<Pos>::decode(&list), Ok(m.path.clone()), "{i}");
    }
}

/// Every quantized place in a `Moved`, by the field its error names.
type Setter = fn(&mut Moved, f64);

fn places() -> Vec<(&'static str, Setter)> {
    vec![
        ("test.quantized.Pos.flag", |m, v| m.at.flag = v),
        ("test.quantized.Pos.x", |m, v| m.at.x = v as f32),
        ("test.quantized.Moved.speed", |m, v| m.speed = v as f32),
        ("test.quantized.Pos.y", |m, v| m.path[1].y = v as f32),
        ("test.quantized.Pos.z", |m, v| {
            m.body.as_mut().expect("a body").corners[1].z = v
        }),
        ("test.quantized.Pos.z", |m, v| {
            m.body.as_mut().expect("a body").at.z = v
        }),
        ("test.quantized.Named.heading", |m, v| {
            m.named.heading = v as f32
        }),
        ("test.quantized.Moved.angle", |m, v| m.angle = v),
    ]
}

#[test]
fn values_outside_a_range_are_refused_naming_the_field() {
    let mut rng = Rng(7);
    let mut base = moved(&mut rng);
    base.path = vec![pos(&mut rng), pos(&mut rng)];
    base.body = Some(Body {
        at: pos(&mut rng),
        corners: [pos(&mut rng), pos(&mut rng)],
        mass: 1.0,
        alive: true,
    });
    base.encode_to_vec().expect("the base is in range");
    // Far outside, just outside (an f32 field's nearest f32 beyond its
    // bounds), NaN and the infinities.
    let outside = [
        1e300,
        -1e300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from(f32::MAX),
    ];
    for (field, set) in places() {
        for v in outside {
            let mut m = base.clone();
            set(&mut m, v);
            let e = m.encode_to_vec().expect_err(field);
            assert_eq!(
                e.kind(),
                &EncodeErrorKind::OutOfRange {
                    field: field.into()
                },
                "{field} = {v}"
            );
            assert_eq!(
                m.check_limits().map_err(|e| e.to_string()),
                Err(e.to_string())
            );
            let mut out = vec![9u8];
            assert!(m.encode_into(&mut out).is_err());
            assert_eq!(out, [9], "nothing written");
            let e = Event::Move(m).encode_to_vec().expect_err(field);
            assert!(matches!(e.kind(), EncodeErrorKind::OutOfRange { .. }));
        }
    }
    // Just above the max and below the min, in f64.
    let mut m = base.clone();
    m.angle = next_up(180f64);
    assert!(m.encode_to_vec().is_err());
    m.angle = next_down(-180f64);
    assert!(m.encode_to_vec().is_err());
    m.angle = -0.0;
    assert!(m.encode_to_vec().is_ok());
    // A fixed-size struct alone, in a list, in a union.
    let bad = Pos {
        y: f32::NAN,
        ..base.at
    };
    for e in [
        bad.encode_to_vec().unwrap_err(),
        vec![base.at, bad].encode_to_vec().unwrap_err(),
        Event::Place(bad).encode_to_vec().unwrap_err(),
    ] {
        assert_eq!(
            e.to_string(),
            "field `test.quantized.Pos.y` is outside its quantized range"
        );
    }
}

#[test]
fn stored_integers_past_their_steps_are_refused_at_their_offset() {
    let mut rng = Rng(11);
    let mut m = moved(&mut rng);
    m.path = vec![pos(&mut rng), pos(&mut rng), pos(&mut rng)];
    let bytes = m.encode_to_vec().expect("in range");
    // length 4, id 4, at 15 (y at 3..7), speed 2, path count 4, then 15
    // per element.
    let at_y = 4 + 4 + 3;
    let speed = 4 + 4 + 15;
    let path_y = |i: usize| speed + 2 + 4 + 15 * i + 3;
    let cases: Vec<(usize, Vec<u8>, u64)> = vec![
        (at_y, 819_201u32.to_le_bytes().to_vec(), 819_200),
        (at_y, u32::MAX.to_le_bytes().to_vec(), 819_200),
        (speed, 401u16.to_le_bytes().to_vec(), 400),
        (path_y(0), 819_201u32.to_le_bytes().to_vec(), 819_200),
        (path_y(2), 819_201u32.to_le_bytes().to_vec(), 819_200),
    ];
    for (at, stored, steps) in cases {
        let mut hostile = bytes.clone();
        hostile[at..at + stored.len()].copy_from_slice(&stored);
        let value = {
            let mut b = [0u8; 8];
            b[..stored.len()].copy_from_slice(&stored);
            u64::from_le_bytes(b)
        };
        let kind = DecodeErrorKind::InvalidQuantized { value, steps };
        let e = Moved::decode(&hostile).expect_err("past the steps");
        assert_eq!((e.kind(), e.offset()), (&kind, at), "decode at {at}");
        let e = Moved::view(&hostile).expect_err("past the steps");
        assert_eq!((e.kind(), e.offset()), (&kind, at), "view at {at}");
        let mut into = m.clone();
        let e = into.decode_into(&hostile).expect_err("past the steps");
        assert_eq!((e.kind(), e.offset()), (&kind, at), "decode_into at {at}");
    }
    // A fixed-size struct alone, and a list of them (the bulk path checks
    // every element before reading any).
    let mut one = m.at.encode_to_vec().expect("in range");
    one[0] = 3;
    let e = Pos::decode(&one).expect_err("3 of 2 steps");
    assert_eq!(
        (e.kind(), e.offset()),
        (&DecodeErrorKind::InvalidQuantized { value: 3, steps: 2 }, 0)
    );
    let mut list = m.path.encode_to_vec().expect("in range");
    let z = 4 + 15 * 2 + 7;
    list[z..z + 8].copy_from_slice(&((1u64 << 33) + 1).to_le_bytes());
    let e = Vec::<Pos>::decode(&list).expect_err("past 2^33");
    assert_eq!(e.offset(), z);
    // Cut short inside a stored integer: UnexpectedEnd at the integer.
    let e = Pos::decode(&one[..5]).expect_err("short");
    assert!(
        matches!(e.kind(), DecodeErrorKind::InvalidQuantized { .. }),
        "{e}"
    );
    let e = Pos::decode(&m.at.encode_to_vec().expect("in range")[..5]).expect_err("short");
    assert_eq!(e.offset(), 3, "{e}");
    assert!(
        matches!(e.kind(), DecodeErrorKind::UnexpectedEnd { .. }),
        "{e}"
    );
}

/// The C# program of `csharp_decodes_encodes_and_refuses_as_rust_does`:
/// each line `Type hex` is decoded and written back (`ok hex`) or refused
/// (`error Reason offset`); `bad hex` decodes a `Moved` and encodes it with
/// one field out of range each way, printing each refusal.
const PROGRAM: &str = r#"using System;
using System.IO;
using System.Text;
using Pkt;
using Test.Quantized;

static class QuantizedCases
{
    static byte[] Bytes(string hex)
    {
        var b = new byte[hex.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(hex.Substring(2 * i, 2), 16);
        return b;
    }

    static string Hex(byte[] b)
    {
        var s = new StringBuilder();
        foreach (var x in b) s.Append(x.ToString("x2"));
        return s.ToString();
    }

    static string Refused(Action<Moved> set, Moved m)
    {
        set(m);
        try { m.ToArray(); return "written"; }
        catch (PktEncodeException e) { return e.Message; }
    }

    static int Main(string[] args)
    {
        var o = new StringBuilder();
        foreach (var line in File.ReadAllLines(args[0]))
        {
            var w = line.Split(' ');
            var input = Bytes(w[1]);
            if (w[0] == "bad")
            {
                o.Append(Refused(m => m.Speed = 200f, Moved.Decode(input))).Append('\n');
                o.Append(Refused(m => m.Angle = double.NaN, Moved.Decode(input))).Append('\n');
                o.Append(Refused(m => m.At.Y = float.PositiveInfinity, Moved.Decode(input))).Append('\n');
                o.Append(Refused(m => m.Named.Heading = -3.2f, Moved.Decode(input))).Append('\n');
                continue;
            }
            try
            {
                byte[] back;
                switch (w[0])
                {
                    case "Pos": back = Pos.Decode(input).ToArray(); break;
                    case "Moved": back = Moved.Decode(input).ToArray(); break;
                    default: back = Event.Decode(input).ToArray(); break;
                }
                o.Append("ok ").Append(Hex(back)).Append('\n');
            }
            catch (PktDecodeException e)
            {
                o.Append("error ").Append(e.Reason).Append(' ').Append(e.Offset).Append('\n');
            }
        }
        Console.Out.Write(o.ToString());
        return 0;
    }
}
"#;

fn rust_answer<T: Decode + Encode>(bytes: &[u8]) -> String {
    match T::decode(bytes) {
        Ok(v) => format!(
            "ok {}",
            hex::encode(&v.encode_to_vec().expect("decoded values encode"))
        ),
        Err(e) => {
            let reason = format!("{:?}", e.kind());
            let reason = reason
                .split([' ', '{', '('])
                .next()
                .unwrap_or_default()
                .to_string();
            format!("error {reason} {}", e.offset())
        }
    }
}

/// Rust's encodings of representable values, and each with one byte
/// changed or cut short, decoded by the generated C#: the same values
/// (the same bytes written back) or the same error kind and offset; and
/// C#'s encoders refuse the same out-of-range fields with Rust's message.
#[test]
fn csharp_decodes_encodes_and_refuses_as_rust_does() {
    if !mono::tools_or_skip("quantized") {
        return;
    }
    let checked = pktc::check(&["../schemas/quantized.pkt".into()]).expect("valid");
    let dir = mono::work_dir("quantized");
    let exe = mono::build(
        &dir,
        &checked.ir,
        &[("Cases.cs", PROGRAM.to_string())],
        "quantized",
    );
    csharp_agrees(&dir, &exe);
}

/// The same with the unsafe output (`gen --unsafe`), whose fixed-size
/// structs store and load through pointers on 64-bit little-endian hosts.
#[test]
fn unsafe_csharp_decodes_encodes_and_refuses_as_rust_does() {
    if !mono::tools_or_skip("quantized_unsafe") {
        return;
    }
    let checked = pktc::check(&["../schemas/quantized.pkt".into()]).expect("valid");
    let dir = mono::work_dir("quantized_unsafe");
    let mut options = pktc::emit::GenOptions::new(pktc::Lang::CSharp);
    options.unsafe_code = true;
    let mut files = Vec::new();
    for f in pktc::emit::generate(&checked.ir, &options) {
        std::fs::write(dir.join(&f.path), &f.contents).expect("write generated C#");
        files.push(dir.join(&f.path));
    }
    std::fs::write(dir.join("Cases.cs"), PROGRAM).expect("write the program");
    files.push(dir.join("Cases.cs"));
    let exe = dir.join("quantized.exe");
    let out = std::process::Command::new("mcs")
        .args([
            "-langversion:7.2",
            "-optimize+",
            "-warnaserror",
            "-nologo",
            "-unsafe",
        ])
        .arg(format!("-out:{}", exe.display()))
        .args(&files)
        .output()
        .expect("run mcs");
    assert!(out.status.success(), "mcs: {out:?}");
    csharp_agrees(&dir, &exe);
}

fn csharp_agrees(dir: &Path, exe: &Path) {
    let mut rng = Rng(0x0c5);
    let mut cases = String::new();
    let mut expected = String::new();
    let push = |ty: &str, bytes: &[u8], cases: &mut String, expected: &mut String| {
        cases.push_str(&format!("{ty} {}\n", hex::encode(bytes)));
        let answer = match ty {
            "Pos" => rust_answer::<Pos>(bytes),
            "Moved" => rust_answer::<Moved>(bytes),
            _ => rust_answer::<Event>(bytes),
        };
        expected.push_str(&answer);
        expected.push('\n');
    };
    for _ in 0..scaled(60, 3000) {
        let m = moved(&mut rng);
        let p = pos(&mut rng);
        for (ty, bytes) in [
            ("Moved", m.encode_to_vec().expect("in range")),
            ("Pos", p.encode_to_vec().expect("in range")),
            (
                "Event",
                Event::Move(m.clone()).encode_to_vec().expect("in range"),
            ),
            ("Event", Event::Place(p).encode_to_vec().expect("in range")),
        ] {
            push(ty, &bytes, &mut cases, &mut expected);
            // One byte set high (often a stored integer past its steps),
            // and the value cut short.
            let mut hostile = bytes.clone();
            let at = rng.index(hostile.len());
            hostile[at] |= 0x80 | rng.next() as u8;
            push(ty, &hostile, &mut cases, &mut expected);
            let cut = rng.index(bytes.len());
            push(ty, &bytes[..cut], &mut cases, &mut expected);
        }
    }
    let m = moved(&mut rng);
    cases.push_str(&format!(
        "bad {}\n",
        hex::encode(&m.encode_to_vec().expect("in range"))
    ));
    for (field, set) in [
        (
            "test.quantized.Moved.speed",
            (|m: &mut Moved| m.speed = 200.0) as fn(&mut Moved),
        ),
        ("test.quantized.Moved.angle", |m| m.angle = f64::NAN),
        ("test.quantized.Pos.y", |m| m.at.y = f32::INFINITY),
        ("test.quantized.Named.heading", |m| m.named.heading = -3.2),
    ] {
        let mut bad = m.clone();
        set(&mut bad);
        let e = bad.encode_to_vec().expect_err(field);
        assert!(e.to_string().contains(field), "{e}");
        expected.push_str(&format!("{e}\n"));
    }
    let input = dir.join("cases.txt");
    std::fs::write(&input, &cases).expect("write cases");
    let actual = mono::run(exe, &[&input]);
    let refused = expected.lines().filter(|l| l.starts_with("error")).count();
    for (i, ((want, got), case)) in expected
        .lines()
        .zip(actual.lines())
        .zip(cases.lines())
        .enumerate()
    {
        assert_eq!(got, want, "case {i}: {case}");
    }
    assert_eq!(actual.lines().count(), expected.lines().count());
    assert!(
        actual.contains("error InvalidQuantized"),
        "some stored integer past its steps"
    );
    eprintln!(
        "quantized: {} cases, {refused} refused, Rust and C# agree",
        expected.lines().count()
    );
}

/// The golden vectors of `schemas/vectors/quantized.vectors`, built in Rust.
#[test]
fn values_built_in_rust_encode_to_the_golden_vectors() {
    let pos = Pos {
        flag: 1.0,
        x: -128.0,
        y: 4096.0,
        z: 8_589_934_592.0,
    };
    let place = Event::Place(Pos {
        flag: 0.0,
        x: 0.0,
        y: 12.35,
        z: 0.0,
    });
    let moved = Moved {
        id: 7,
        at: pos,
        speed: 1.5,
        path: Vec::new(),
        body: None,
        named: Named {
            name: String::new(),
            heading: 0.0,
        },
        angle: 90.0,
    };
    let check = |name: &str, bytes: Vec<u8>| {
        assert_eq!(
            hex::encode(&bytes),
            hex::encode(&vectors::get(name).bytes),
            "{name}"
        )
    };
    check("quantized_pos", pos.encode_to_vec().expect("in range"));
    check("quantized_place", place.encode_to_vec().expect("in range"));
    check("quantized_moved", moved.encode_to_vec().expect("in range"));
    assert_eq!(Pos::decode(&vectors::get("quantized_pos").bytes), Ok(pos));
    assert_eq!(
        Event::decode(&vectors::get("quantized_place").bytes),
        Ok(place)
    );
    assert_eq!(
        Moved::decode(&vectors::get("quantized_moved").bytes),
        Ok(moved)
    );
}

/// The TypeScript program of `typescript_rounds_as_the_rust_runtime_does`.
const TS_PROGRAM: &str = r#"import { PktReader, PktWriter } from "./index";
declare function require(module: string): { readFileSync(path: string, encoding: string): string };
declare const process: { argv: string[]; stdout: { write(s: string): void } };

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const num = (hex: string): number => {
  u64[0] = BigInt("0x" + hex);
  return f64[0] as number;
};
const bits64 = (v: number): string => {
  f64[0] = v;
  return (u64[0] as bigint).toString(16);
};
const bits32 = (v: number): string => {
  f32[0] = v;
  return (u32[0] as number).toString(16);
};
const width = (steps: number): number => (steps <= 0xff ? 1 : steps <= 0xffff ? 2 : steps <= 0xffffffff ? 4 : 8);

const out: string[] = [];
for (const line of require("fs").readFileSync(process.argv[2] as string, "utf8").trim().split("\n")) {
  const w = line.split(" ");
  const [min, max, step] = [num(w[1] as string), num(w[2] as string), num(w[3] as string)];
  const steps = Number(w[4]);
  const buf = new Uint8Array(8);
  if (w[0] === "e" || w[0] === "f") {
    try {
      new PktWriter(buf).writeQuantized(num(w[5] as string), w[0] === "f", min, max, step, steps, "T.x");
      let q = 0n;
      for (let i = width(steps) - 1; i >= 0; i--) q = (q << 8n) | BigInt(buf[i] as number);
      out.push(q.toString());
    } catch (e) {
      out.push("out");
    }
  } else {
    const q = BigInt(w[5] as string);
    for (let i = 0; i < 8; i++) buf[i] = Number((q >> BigInt(8 * i)) & 0xffn);
    const v = new PktReader(buf.subarray(0, width(steps))).readQuantized(false, min, step, steps);
    const v32 = new PktReader(buf.subarray(0, width(steps))).readQuantized(true, min, step, steps);
    out.push(bits64(v) + " " + bits32(v32));
  }
}
process.stdout.write(out.join("\n") + "\n");
"#;

/// The same edge values through `pkt_runtime::quantize` and the TypeScript
/// runtime's `writeQuantized` and `readQuantized` (as `compiler/tests/csharp.rs`
/// does for C#): the same stored integer or refusal, for `f64` fields and for
/// `f32` fields (whose numbers TypeScript rounds to f32 first), and the same
/// decoded bits.
#[test]
fn typescript_rounds_as_the_rust_runtime_does() {
    if !node::tools_or_skip("typescript_rounds_as_the_rust_runtime_does") {
        return;
    }
    let quantizations: [(f64, f64, f64); 9] = [
        (-4096.0, 4096.0, 0.01),
        (0.0, 1.0, 0.5),
        (-1.0, 1.0, 0.5),
        (-3.125, 3.125, 0.001),
        (-180.0, 180.0, 0.0001),
        (-1e6, 1e6, 0.1),
        (0.0, 8_589_934_592.0, 1.0),
        (0.0, 9_007_199_254_740_992.0, 1.0),
        (1e-3, 2e-3, 1e-6),
    ];
    let mut rng = Rng(0x75);
    let (mut cases, mut expected) = (String::new(), String::new());
    for (min, max, step) in quantizations {
        let steps = ((max - min) / step).round() as u64;
        let rt = Quantize::new(min, max, step, steps);
        let head = format!(
            "{:x} {:x} {:x} {steps}",
            min.to_bits(),
            max.to_bits(),
            step.to_bits()
        );
        let mut values = vec![
            min,
            max,
            next_down(min),
            next_up(max),
            next_up(min),
            next_down(max),
        ];
        values.extend([0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
        for k in [0, 1, steps / 2, steps - 1] {
            let tie = min + (k as f64 + 0.5) * step;
            values.extend([tie, next_down(tie), next_up(tie)]);
        }
        for _ in 0..scaled(40, 2000) {
            let unit = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            values.push(min - (max - min) * 0.01 + unit * (max - min) * 1.02);
        }
        for v in values {
            for (kind, stored) in [("e", v), ("f", f64::from(v as f32))] {
                cases.push_str(&format!("{kind} {head} {:x}\n", v.to_bits()));
                match rt.quantize(stored) {
                    Some(n) => expected.push_str(&format!("{n}\n")),
                    None => expected.push_str("out\n"),
                }
            }
        }
        for n in [0, 1, steps / 3, steps - 1, steps, rng.below(steps + 1)] {
            cases.push_str(&format!("d {head} {n}\n"));
            let v = rt.dequantize(n).expect("within the steps");
            let f = rt.dequantize_f32(n).expect("within the steps");
            expected.push_str(&format!("{:x} {:x}\n", v.to_bits(), f.to_bits()));
        }
    }
    let dir = mono::work_dir("quantized_typescript");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/typescript/src/index.ts");
    std::fs::copy(runtime, dir.join("index.ts")).expect("copy the runtime");
    std::fs::write(dir.join("cases.ts"), TS_PROGRAM).expect("write the program");
    std::fs::write(dir.join("cases.txt"), &cases).expect("write the cases");
    node::compile(
        &dir,
        &[
            "--strict", "--target", "ES2020", "--module", "commonjs", "--outDir", "out", "cases.ts",
        ],
    );
    let actual = node::run(&dir, &["out/cases.js", "cases.txt"]);
    for (i, ((want, got), case)) in expected
        .lines()
        .zip(actual.lines())
        .zip(cases.lines())
        .enumerate()
    {
        assert_eq!(got, want, "case {i}: {case}");
    }
    assert_eq!(actual.lines().count(), expected.lines().count());
    eprintln!(
        "quantized: {} cases, Rust and TypeScript agree",
        expected.lines().count()
    );
}
