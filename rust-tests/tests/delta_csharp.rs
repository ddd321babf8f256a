//! C# deltas agree with Rust's (`schemas/delta.pkt`): for random (value,
//! baseline) pairs of every `@delta` type, quantized fields included, C#'s
//! `EncodeDelta` writes Rust's bytes, C#'s `ApplyDelta` of Rust's delta
//! gives the value, and a value against itself is the smallest delta;
//! hostile deltas (cut, mutated, and the crafted ones of `delta.rs`) fail in
//! C# with Rust's reason and offset and leave the value unchanged, or apply
//! to the same value.

mod support;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pkt_runtime::delta::Delta;
use pkt_runtime::{Decode, DecodeErrorKind, Encode, Limits};
use pkt_rust_tests::test::delta::{
    Empty, Entity, Member, Mover, Node, QPos, Squad, Stats, Vec3, World,
};
use pkt_test_support::hex::encode as hex;
use pkt_test_support::Rng;
use support::delta::{changed_entries_at_the_budget, entity, world};
use support::{mono, qualified, Gen};

const PROGRAM: &str = r#"using System;
using System.IO;
using Test.Delta;

static class DeltaCases
{
    static string Hex(byte[] b)
    {
        var sb = new System.Text.StringBuilder(b.Length * 2);
        foreach (var x in b) sb.Append(x.ToString("x2"));
        return sb.ToString();
    }

    static byte[] Unhex(string s)
    {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16);
        return b;
    }

    sealed class Codec<T>
    {
        public Func<byte[], T> Decode;
        public Func<T, byte[]> Encode;
        public Func<T, T, byte[]> Delta;
        public Func<T, byte[], Pkt.PktLimits, T> Apply;

        // pair: the C# delta | the Rust delta applied | the value against itself
        public string Pair(string b, string v, string delta)
        {
            T bv = Decode(Unhex(b)), vv = Decode(Unhex(v));
            var ours = Hex(Delta(vv, bv));
            var applied = Hex(Encode(Apply(Decode(Unhex(b)), Unhex(delta), null)));
            var same = Hex(Delta(vv, vv));
            return ours + " " + applied + " " + same;
        }

        // apply: "ok <encoding>" or "<reason> <offset> <unchanged>"
        public string Try(string b, string bytes, Pkt.PktLimits limits)
        {
            T target = Decode(Unhex(b));
            try
            {
                target = Apply(target, Unhex(bytes), limits);
                return "ok " + Hex(Encode(target));
            }
            catch (Pkt.PktDecodeException e)
            {
                var unchanged = Hex(Encode(target)) == b ? "unchanged" : "changed";
                return e.Reason + " " + e.Offset + " " + unchanged;
            }
        }
    }

    static readonly Codec<Vec3> V3 = new Codec<Vec3>
    {
        Decode = b => Vec3.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<Stats> St = new Codec<Stats>
    {
        Decode = b => Stats.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<Entity> En = new Codec<Entity>
    {
        Decode = b => Entity.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<World> Wo = new Codec<World>
    {
        Decode = b => World.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<Empty> Em = new Codec<Empty>
    {
        Decode = b => Empty.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<QPos> Qp = new Codec<QPos>
    {
        Decode = b => QPos.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<Mover> Mo = new Codec<Mover>
    {
        Decode = b => Mover.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };

    static readonly Codec<Node> No = new Codec<Node>
    {
        Decode = b => Node.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<Squad> Sq = new Codec<Squad>
    {
        Decode = b => Squad.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };
    static readonly Codec<Member> Me = new Codec<Member>
    {
        Decode = b => Member.Decode(b),
        Encode = v => v.ToArray(),
        Delta = (v, b) => v.EncodeDelta(b),
        Apply = (t, d, l) => { t.ApplyDelta(d, l); return t; },
    };

    static string Run<T>(Codec<T> c, string[] f)
    {
        if (f[1] == "pair") return c.Pair(f[2], f[3], f[4]);
        var limits = new Pkt.PktLimits(int.Parse(f[4]), Pkt.PktLimits.DefaultMaxLength, Pkt.PktLimits.DefaultMaxFrame, Pkt.PktLimits.DefaultMaxTotalElements, long.Parse(f[5]), long.Parse(f[6]));
        return c.Try(f[2], f[3], limits);
    }

    // A null object encodes as its default: diffed and patched as one.
    static string NullStats(string delta)
    {
        var e = new Entity();
        e.Stats = null;
        var same = Hex(e.EncodeDelta(new Entity()));
        e.ApplyDelta(Unhex(delta));
        return same + " " + Hex(e.ToArray());
    }

    static int Main(string[] args)
    {
        using (var output = new StreamWriter(args[1]))
        {
            foreach (var line in File.ReadAllLines(args[0]))
            {
                var f = line.Split('\t');
                string r;
                switch (f[0])
                {
                    case "Vec3": r = Run(V3, f); break;
                    case "Stats": r = Run(St, f); break;
                    case "Entity": r = Run(En, f); break;
                    case "World": r = Run(Wo, f); break;
                    case "Empty": r = Run(Em, f); break;
                    case "QPos": r = Run(Qp, f); break;
                    case "Mover": r = Run(Mo, f); break;
                    case "Node": r = Run(No, f); break;
                    case "Squad": r = Run(Sq, f); break;
                    case "Member": r = Run(Me, f); break;
                    case "NullStats": r = NullStats(f[2]); break;
                    default: throw new Exception("no type " + f[0]);
                }
                output.WriteLine(r);
            }
        }
        return 0;
    }
}
"#;

/// One case for the C# program, and what it must answer.
struct Case {
    line: String,
    expected: String,
}

fn encode_delta<T: Delta + Encode>(v: &T, b: &T) -> Vec<u8> {
    let mut out = Vec::new();
    pkt_runtime::delta::encode(v, b, &mut out).expect("encodes");
    out
}

/// What applying `bytes` to `b` under `limits` gives in Rust, as the C#
/// program writes it.
fn outcome<T: Delta + Encode + Clone>(b: &T, bytes: &[u8], limits: &Limits) -> String {
    let mut target = b.clone();
    match pkt_runtime::delta::apply(&mut target, bytes, limits) {
        Ok(()) => format!("ok {}", hex(&target.encode_to_vec().unwrap())),
        Err(e) => {
            let kind = match e.kind() {
                DecodeErrorKind::InvalidDelta { .. } => "InvalidDelta".to_string(),
                k => format!("{k:?}"),
            };
            let reason = kind.split([' ', '{', '(']).next().unwrap().to_string();
            format!("{reason} {} unchanged", e.offset())
        }
    }
}

fn apply_case<T: Delta + Encode + Clone>(ty: &str, b: &T, bytes: &[u8], limits: &Limits) -> Case {
    Case {
        line: format!(
            "{ty}\tapply\t{}\t{}\t{}\t{}\t{}",
            hex(&b.encode_to_vec().unwrap()),
            hex(bytes),
            limits.max_depth,
            limits.decode_budget_base,
            limits.decode_budget_per_byte
        ),
        expected: outcome(b, bytes, limits),
    }
}

/// Random pairs of `name` (the C# class `ty`), their deltas cut and
/// mutated.
fn random_cases<T>(ir: &pktc::ir::Ir, ty: &str, name: &str, cases: &mut Vec<Case>)
where
    T: Delta + Encode + Decode + Clone,
{
    let id = (0..ir.types.len())
        .map(pktc::ir::TypeId)
        .find(|&id| qualified(ir, id) == name)
        .unwrap_or_else(|| panic!("no type {name}"));
    let mut rng = Rng(0xde17a ^ name.len() as u64);
    for seed in 0..pkt_test_support::scaled(40, 400) {
        // `Gen` seeds with `seed | 1`: odd seeds, two apart, differ.
        let b_bytes = Gen::new(ir, seed * 4 + 1).encode(id);
        let b = T::decode(&b_bytes).unwrap();
        // Half the values are independent of their baseline; the other
        // half are the baseline with one byte of its encoding changed
        // (when that still decodes), so that most fields stay the same.
        let v = if seed % 2 == 0 {
            T::decode(&Gen::new(ir, seed * 4 + 3).encode(id)).unwrap()
        } else {
            let mut near = b_bytes.clone();
            let mut found = None;
            for _ in 0..16 {
                if near.is_empty() {
                    break;
                }
                let at = rng.index(near.len());
                near[at] ^= 1 << rng.below(8);
                if let Ok(v) = T::decode(&near) {
                    found = Some(v);
                    break;
                }
                near.clone_from(&b_bytes);
            }
            found.unwrap_or_else(|| T::decode(&Gen::new(ir, seed * 4 + 3).encode(id)).unwrap())
        };
        let delta = encode_delta(&v, &b);
        let same = encode_delta(&v, &v);
        assert!(
            same == [0] || same == [1, 0, 0, 0, 0],
            "{name}: {same:02x?}"
        );
        cases.push(Case {
            line: format!(
                "{ty}\tpair\t{}\t{}\t{}",
                hex(&b.encode_to_vec().unwrap()),
                hex(&v.encode_to_vec().unwrap()),
                hex(&delta)
            ),
            expected: format!(
                "{} {} {}",
                hex(&delta),
                hex(&v.encode_to_vec().unwrap()),
                hex(&same)
            ),
        });
        let d = Limits::DEFAULT;
        let step = delta.len().div_ceil(6).max(1);
        for cut in (0..delta.len()).step_by(step) {
            cases.push(apply_case(ty, &b, &delta[..cut], &d));
        }
        for _ in 0..4 {
            let mut bytes = delta.clone();
            let at = rng.index(bytes.len());
            bytes[at] ^= 1 << rng.below(8);
            cases.push(apply_case(ty, &b, &bytes, &d));
        }
    }
}

/// The crafted hostile deltas of `delta.rs`.
fn crafted_cases(cases: &mut Vec<Case>) {
    let d = Limits::DEFAULT;
    let v3 = Vec3::default();
    for bytes in [&[2, 1, 1][..], &[1, 0b1000], &[1, 0], &[0, 0], &[]] {
        cases.push(apply_case("Vec3", &v3, bytes, &d));
    }
    let e = Empty::default();
    for bytes in [
        &[2, 0, 0, 0, 1, 0][..],
        &[3, 0, 0, 0, 1, 1, 9],
        &[1, 0, 0, 0, 0, 0],
        &[9, 0, 0, 0, 0],
    ] {
        cases.push(apply_case("Empty", &e, bytes, &d));
    }
    let base = world(3);
    let map_delta = |sections: [&[u32]; 3]| {
        let mut body = vec![1, 0b10];
        for (i, keys) in sections.iter().enumerate() {
            body.extend((keys.len() as u32).to_le_bytes());
            for k in *keys {
                body.extend(k.to_le_bytes());
                if i == 1 {
                    body.extend(entity(*k).encode_to_vec().unwrap());
                } else if i == 2 {
                    body.extend([1, 0, 0, 0, 0]);
                }
            }
        }
        let mut out = (body.len() as u32).to_le_bytes().to_vec();
        out.extend(body);
        out
    };
    let sections: [[&[u32]; 3]; 7] = [
        [&[5], &[], &[]],
        [&[2, 1], &[], &[]],
        [&[1, 1], &[], &[]],
        [&[], &[1], &[]],
        [&[], &[], &[9]],
        [&[1], &[], &[1]],
        [&[1], &[7], &[2]],
    ];
    for s in sections {
        cases.push(apply_case("World", &base, &map_delta(s), &d));
    }
    let mut huge = map_delta([&[], &[], &[]]);
    huge[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.push(apply_case("World", &base, &huge, &d));
    let small = Limits {
        decode_budget_base: 0,
        decode_budget_per_byte: 1,
        ..Limits::DEFAULT
    };
    let added = map_delta([&[], &[10, 11, 12], &[]]);
    cases.push(apply_case("World", &base, &added, &small));
    for (base, bytes, limits) in changed_entries_at_the_budget() {
        cases.push(apply_case("World", &base, &bytes, &limits));
    }
    let mut deep = base.clone();
    deep.entities.get_mut(&1).unwrap().health = 5;
    let delta = encode_delta(&deep, &base);
    for depth in [1, 2] {
        let limits = Limits {
            max_depth: depth,
            ..Limits::DEFAULT
        };
        cases.push(apply_case("World", &base, &delta, &limits));
    }
    // The game world shape: one leaves, one arrives, two change.
    let mut cur = base.clone();
    cur.tick = 2;
    cur.entities.remove(&2);
    cur.entities.insert(500, entity(500));
    cur.entities.get_mut(&0).unwrap().pos.x = 8.5;
    cur.entities.get_mut(&1).unwrap().health = 90;
    cur.scores = BTreeMap::from([(1, -3)]);
    cases.push(apply_case("World", &base, &encode_delta(&cur, &base), &d));
    let mut named = Entity::default();
    named.stats.name = "x".into();
    named.stats.pos.y = 2.0;
    let delta = encode_delta(&named, &Entity::default());
    cases.push(Case {
        line: format!("NullStats\tnull\t{}", hex(&delta)),
        expected: format!("0100000000 {}", hex(&named.encode_to_vec().unwrap())),
    });
}

#[test]
fn csharp_deltas_are_rusts() {
    if !mono::tools_or_skip("csharp_deltas_are_rusts") {
        return;
    }
    let ir = pktc::check(&[std::path::PathBuf::from("../schemas/delta.pkt")])
        .expect("checks")
        .ir;
    let mut cases = Vec::new();
    random_cases::<Vec3>(&ir, "Vec3", "test.delta.Vec3", &mut cases);
    random_cases::<Stats>(&ir, "Stats", "test.delta.Stats", &mut cases);
    random_cases::<Entity>(&ir, "Entity", "test.delta.Entity", &mut cases);
    random_cases::<World>(&ir, "World", "test.delta.World", &mut cases);
    random_cases::<Empty>(&ir, "Empty", "test.delta.Empty", &mut cases);
    random_cases::<QPos>(&ir, "QPos", "test.delta.QPos", &mut cases);
    random_cases::<Mover>(&ir, "Mover", "test.delta.Mover", &mut cases);
    random_cases::<Node>(&ir, "Node", "test.delta.Node", &mut cases);
    random_cases::<Squad>(&ir, "Squad", "test.delta.Squad", &mut cases);
    random_cases::<Member>(&ir, "Member", "test.delta.Member", &mut cases);
    crafted_cases(&mut cases);

    let dir = mono::work_dir("delta-csharp");
    let exe = mono::build(
        &dir,
        &ir,
        &[("DeltaCases.cs", PROGRAM.to_string())],
        "deltas",
    );
    let input = dir.join("cases.txt");
    let mut text = String::new();
    for c in &cases {
        writeln!(text, "{}", c.line).unwrap();
    }
    std::fs::write(&input, text).unwrap();
    let output = dir.join("answers.txt");
    mono::run(&exe, &[&input, &output]);
    let answers = std::fs::read_to_string(&output).unwrap();
    let answers: Vec<&str> = answers.lines().collect();
    assert_eq!(answers.len(), cases.len());
    let mut wrong = Vec::new();
    for (c, a) in cases.iter().zip(&answers) {
        if c.expected != *a {
            wrong.push(format!(
                "{}\n  rust:   {}\n  csharp: {a}",
                c.line, c.expected
            ));
        }
    }
    let errors = cases
        .iter()
        .filter(|c| !c.expected.starts_with("ok"))
        .count();
    assert!(
        errors > cases.len() / 4,
        "{errors} of {} cases fail",
        cases.len()
    );
    assert!(
        wrong.is_empty(),
        "{} of {} cases differ:\n{}",
        wrong.len(),
        cases.len(),
        wrong[..wrong.len().min(10)].join("\n")
    );
}

/// Applies deltas to baselines of `Test.DeltaEvo`'s `Unit` and `Roster`,
/// one version of the schema: `Type \t baseline \t delta` lines in, the
/// encoding of each result out.
const EVOLUTION: &str = r#"using System;
using System.IO;
using Test.DeltaEvo;

static class DeltaEvolution
{
    static string Hex(byte[] b)
    {
        var sb = new System.Text.StringBuilder(b.Length * 2);
        foreach (var x in b) sb.Append(x.ToString("x2"));
        return sb.ToString();
    }

    static byte[] Unhex(string s)
    {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16);
        return b;
    }

    static int Main(string[] args)
    {
        using (var output = new StreamWriter(args[1]))
        {
            foreach (var line in File.ReadAllLines(args[0]))
            {
                var f = line.Split('\t');
                if (f[0] == "Unit")
                {
                    var u = Unit.Decode(Unhex(f[1]));
                    u.ApplyDelta(Unhex(f[2]));
                    output.WriteLine(Hex(u.ToArray()));
                }
                else
                {
                    var r = Roster.Decode(Unhex(f[1]));
                    r.ApplyDelta(Unhex(f[2]));
                    output.WriteLine(Hex(r.ToArray()));
                }
            }
        }
        return 0;
    }
}
"#;

/// Random encodings of `name` in the schema `path` and the delta Rust's
/// writer version writes between two of them.
fn version_cases<W: Delta + Encode + Decode>(
    path: &str,
    ty: &str,
    name: &str,
    lines: &mut Vec<(String, Vec<u8>)>,
) {
    let ir = pktc::check(&[std::path::PathBuf::from("..").join(path)])
        .expect("checks")
        .ir;
    let id = (0..ir.types.len())
        .map(pktc::ir::TypeId)
        .find(|&id| qualified(&ir, id) == name)
        .unwrap_or_else(|| panic!("no type {name}"));
    for seed in 0..pkt_test_support::scaled(30, 300) {
        let b_bytes = Gen::new(&ir, seed * 4 + 1).encode(id);
        let v_bytes = Gen::new(&ir, seed * 4 + 3).encode(id);
        let delta = encode_delta(&W::decode(&v_bytes).unwrap(), &W::decode(&b_bytes).unwrap());
        lines.push((format!("{ty}\t{}\t{}", hex(&b_bytes), hex(&delta)), v_bytes));
    }
}

/// Deltas cross schema versions in C# as in Rust: C# built from the other
/// version applies Rust's delta to the baseline and ends with what decoding
/// the writer's value gives it.
#[test]
fn csharp_applies_deltas_of_the_other_schema_version() {
    use pkt_rust_tests::{delta_evo_v1 as v1, delta_evo_v2 as v2};
    if !mono::tools_or_skip("csharp_applies_deltas_of_the_other_schema_version") {
        return;
    }
    let (old, new) = (
        "schemas/delta_evolution/v1/units.pkt",
        "schemas/delta_evolution/v2/units.pkt",
    );
    // (writer schema, reader schema): the reader decodes the writer's value.
    let mut from_new = Vec::new();
    version_cases::<v2::test::delta_evo::Unit>(new, "Unit", "test.delta_evo.Unit", &mut from_new);
    version_cases::<v2::test::delta_evo::Roster>(
        new,
        "Roster",
        "test.delta_evo.Roster",
        &mut from_new,
    );
    let mut from_old = Vec::new();
    version_cases::<v1::test::delta_evo::Unit>(old, "Unit", "test.delta_evo.Unit", &mut from_old);
    version_cases::<v1::test::delta_evo::Roster>(
        old,
        "Roster",
        "test.delta_evo.Roster",
        &mut from_old,
    );
    let expected_old = |line: &str, v: &[u8]| -> Vec<u8> {
        if line.starts_with("Unit") {
            v1::test::delta_evo::Unit::decode(v)
                .unwrap()
                .encode_to_vec()
                .unwrap()
        } else {
            v1::test::delta_evo::Roster::decode(v)
                .unwrap()
                .encode_to_vec()
                .unwrap()
        }
    };
    let expected_new = |line: &str, v: &[u8]| -> Vec<u8> {
        if line.starts_with("Unit") {
            v2::test::delta_evo::Unit::decode(v)
                .unwrap()
                .encode_to_vec()
                .unwrap()
        } else {
            v2::test::delta_evo::Roster::decode(v)
                .unwrap()
                .encode_to_vec()
                .unwrap()
        }
    };
    for (reader, cases, expected) in [
        (
            old,
            &from_new,
            &expected_old as &dyn Fn(&str, &[u8]) -> Vec<u8>,
        ),
        (new, &from_old, &expected_new),
    ] {
        let ir = pktc::check(&[std::path::PathBuf::from("..").join(reader)])
            .expect("checks")
            .ir;
        let tag = if reader == old { "v1" } else { "v2" };
        let dir = mono::work_dir(&format!("delta-csharp-{tag}"));
        let exe = mono::build(&dir, &ir, &[("Evolution.cs", EVOLUTION.to_string())], "evo");
        let input = dir.join("cases.txt");
        let text: String = cases.iter().map(|(l, _)| format!("{l}\n")).collect();
        std::fs::write(&input, text).unwrap();
        let output = dir.join("answers.txt");
        mono::run(&exe, &[&input, &output]);
        let answers = std::fs::read_to_string(&output).unwrap();
        let answers: Vec<&str> = answers.lines().collect();
        assert_eq!(answers.len(), cases.len());
        for ((line, v), a) in cases.iter().zip(answers) {
            assert_eq!(a, hex(&expected(line, v)), "{tag} reader: {line}");
        }
    }
}

/// Map deltas of the shapes that cost C# the most to apply: a large map
/// (linear in the map plus the delta), and patches whose values nest
/// `@delta` types and maps with the fewest bytes each (what they allocate
/// is within the decode bound of docs/security.md).
const COST_SCHEMA: &str = "namespace test.delta_cost;

@delta
message Big {
    m: map<u32, u32>,
}

@delta
message Node {
    v: u32,
    kids: map<u32, Node>,
}

@delta
struct Leaf {
    x: u8,
}

@delta
struct Pair {
    a: Leaf,
    b: Leaf,
}

@delta
struct Quad {
    a: Pair,
    b: Pair,
}

@delta
message Bag {
    m: map<u8, u8>,
}

@delta
message Holder {
    quads: map<u32, Quad>,
    bags: map<u32, Bag>,
}
";

const COST: &str = r#"using System;
using Pkt;
using Test.DeltaCost;

static class DeltaCost
{
    static int failures;

    static void Check(bool ok, string what)
    {
        Console.WriteLine((ok ? "ok   " : "FAIL ") + what);
        if (!ok) failures++;
    }

    sealed class Wire
    {
        readonly System.Collections.Generic.List<byte> b = new System.Collections.Generic.List<byte>();
        public int Length { get { return b.Count; } }
        public void U8(int v) { b.Add((byte)v); }
        public void U32(uint v) { b.AddRange(BitConverter.GetBytes(v)); }
        public void Bytes(params byte[] v) { b.AddRange(v); }
        public byte[] Body()
        {
            var w = new Wire();
            w.U32((uint)b.Count);
            w.b.AddRange(b);
            return w.b.ToArray();
        }
        public void Delta(Wire nested) { b.AddRange(nested.Body()); }
        public byte[] ToArray() { return b.ToArray(); }
    }

    // Removing 200,000 keys of 300,000 and adding 200,000 between the
    // others, in one apply: each key moved once, not once per key before it.
    static void ManyKeys()
    {
        const int n = 300000, removed = 200000, added = 200000;
        var baseline = new Big();
        var target = new Big();
        for (uint i = 0; i < n; i++)
        {
            baseline.M.Add(2 * i, i);
            if (i % 3 == 0) target.M.Add(2 * i, i + 1);
        }
        for (uint i = 0; i < added; i++) target.M.Add(2 * i + 1, i);
        Check(baseline.M.Count - target.M.Count + added == removed, "shape");
        var delta = target.EncodeDelta(baseline);
        long before = PktMapMoves.Count;
        baseline.ApplyDelta(delta);
        long moves = PktMapMoves.Count - before;
        long bound = 2L * (n + added);
        Console.WriteLine("apply " + removed + " removals and " + added + " additions to " + n + " keys: " + moves + " entries moved (bound " + bound + ")");
        Check(baseline.Equals(target), "applied");
        Check(moves <= bound, "moves within " + bound + ": " + moves);
    }

    sealed class CountingOrder : PktKeyOrder<uint>
    {
        public long Comparisons;
        public override int Compare(uint a, uint b) { Comparisons++; return a.CompareTo(b); }
    }

    // A tick that changes few values of a large map walks no more of it
    // than it looks up.
    static void FewChanges()
    {
        const int n = 300000, changed = 100;
        var order = new CountingOrder();
        var baseline = new Big();
        baseline.M = new PktMap<uint, uint>(order);
        var target = new Big();
        for (uint i = 0; i < n; i++)
        {
            baseline.M.Add(i, i);
            target.M.Add(i, i % (n / changed) == 7 ? i + 1 : i);
        }
        var delta = target.EncodeDelta(baseline);
        order.Comparisons = 0;
        long before = PktMapMoves.Count;
        baseline.ApplyDelta(delta);
        long moves = PktMapMoves.Count - before;
        Console.WriteLine("apply " + changed + " changes to " + n + " keys: " + order.Comparisons + " comparisons, " + moves + " moves");
        Check(baseline.Equals(target), "changes applied");
        Check(order.Comparisons <= changed * 4 * 19, "comparisons: " + order.Comparisons);
        Check(moves == 0, "no moves: " + moves);
    }

    const long F = 3, G = 2, Slack = 64 * 1024;

    static void Measure(string what, byte[] delta, Action apply, long charged)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        apply();
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        long bound = F * charged + G * delta.Length + Slack;
        Console.WriteLine("apply " + what + " (" + delta.Length + " B): charged " + charged + ", allocated " + allocated + " B ("
            + ((double)allocated / delta.Length).ToString("0.00") + " per input byte, " + ((double)allocated / charged).ToString("0.00")
            + " per charged byte), bound " + bound);
        Check(charged <= PktLimits.Budget(null, delta.Length), what + ": within the budget");
        Check(allocated <= bound, what + ": allocated " + allocated + " B, bound " + bound);
    }

    // The deltas' counts must fill about size bytes.
    static void Patches(int size)
    {
        // Changed kids that each name their own kids, with empty sections:
        // 22 bytes, charged 4 + M(Node) at the changed count.
        int n = size / 22;
        var node = new Node();
        for (uint i = 0; i < n; i++) node.Kids.Add(i, new Node());
        var w = new Wire();
        w.Bytes(1, 2);
        w.U32(0); w.U32(0); w.U32((uint)n);
        for (uint i = 0; i < n; i++)
        {
            w.U32(i);
            var kid = new Wire();
            kid.Bytes(1, 2);
            kid.U32(0); kid.U32(0); kid.U32(0);
            w.Delta(kid);
        }
        var delta = w.Body();
        Measure("Node kids naming their kids, " + n, delta, () => node.ApplyDelta(delta), n * (4 + Node.PktMemory));

        // Changed quads whose pairs and leaves are all named, each leaf
        // with an empty mask: 14 bytes, charged 4 + M(Quad) = 8.
        n = size / 14;
        var holder = new Holder();
        for (uint i = 0; i < n; i++) holder.Quads.Add(i, new Quad());
        w = new Wire();
        w.Bytes(1, 1);
        w.U32(0); w.U32(0); w.U32((uint)n);
        for (uint i = 0; i < n; i++)
        {
            w.U32(i);
            w.Bytes(1, 3, 1, 3, 0, 0, 1, 3, 0, 0);
        }
        delta = w.Body();
        Measure("Quads naming every nested struct, " + n, delta, () => holder.ApplyDelta(delta), n * (4 + Quad.PktMemory));

        // Changed bags that remove one key and change another: 25 bytes,
        // charged 4 + M(Bag) at the outer count, 1 for the removed key and
        // 2 for the changed entry.
        n = size / 25;
        holder = new Holder();
        for (uint i = 0; i < n; i++)
        {
            var bag = new Bag();
            bag.M.Add(0, 0);
            bag.M.Add(1, 0);
            holder.Bags.Add(i, bag);
        }
        w = new Wire();
        w.Bytes(1, 2);
        w.U32(0); w.U32(0); w.U32((uint)n);
        for (uint i = 0; i < n; i++)
        {
            w.U32(i);
            var bag = new Wire();
            bag.Bytes(1, 1);
            bag.U32(1); bag.U8(0);
            bag.U32(0);
            bag.U32(1); bag.U8(1); bag.U8(9);
            w.Delta(bag);
        }
        delta = w.Body();
        Measure("Bags removing and changing one key, " + n, delta, () => holder.ApplyDelta(delta), n * (4 + Bag.PktMemory + 1 + 2));
    }

    static int Main()
    {
        ManyKeys();
        FewChanges();
        Patches(72 * 1024);
        Patches(1024 * 1024);
        Console.WriteLine(failures == 0 ? "ALL PASSED" : failures + " FAILED");
        return failures == 0 ? 0 : 1;
    }
}
"#;

/// C# applies map deltas in time linear in the map and the delta (entries
/// moved, comparisons, counted) and allocates within the decode bound of
/// docs/security.md (`3 × charged + 2 × n + 64 KiB`) on the patches that
/// cost it most.
#[test]
fn csharp_applies_are_linear_and_allocate_what_is_charged() {
    if !mono::tools_or_skip("csharp_applies_are_linear_and_allocate_what_is_charged") {
        return;
    }
    let dir = mono::work_dir("delta-csharp-cost");
    let schema = dir.join("delta_cost.pkt");
    std::fs::write(&schema, COST_SCHEMA).unwrap();
    let ir = pktc::check(&[schema]).expect("checks").ir;
    let exe = mono::build(&dir, &ir, &[("DeltaCost.cs", COST.to_string())], "cost");
    let out = mono::run(&exe, &[]);
    eprintln!("{out}");
    assert!(out.contains("ALL PASSED"), "{out}");
}
