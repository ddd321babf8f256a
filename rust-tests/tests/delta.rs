//! Delta snapshots (`schemas/delta.pkt`): for random values and baselines
//! of every `@delta` type, applying the delta gives the value back, a
//! value against itself writes the smallest delta, and hostile deltas
//! (cut short, mutated, keys missing or repeated, masks with extra bits,
//! over the budget or the depth) are rejected with the value unchanged.

mod support;

use std::collections::BTreeMap;
use std::fmt::Debug;

use pkt_runtime::delta::Delta;
use pkt_runtime::{Decode, DecodeErrorKind, Encode, Limits};
use pkt_rust_tests::test::delta::{
    Empty, Entity, Member, Mover, Node, QPos, Squad, Stats, Status, Vec3, World,
};
use pkt_test_support::Rng;
use support::delta::{entity, world};
use support::{ir, qualified, Gen};

fn cases() -> u64 {
    pkt_test_support::scaled(200, 3000)
}

/// Random values of the type named `name`, decoded from the independent
/// IR-driven encoder's random encodings.
fn random<T: Decode>(name: &str, seed: u64) -> T {
    static IR: std::sync::OnceLock<pktc::ir::Ir> = std::sync::OnceLock::new();
    let ir = IR.get_or_init(ir);
    let id = (0..ir.types.len())
        .map(pktc::ir::TypeId)
        .find(|&id| qualified(ir, id) == name)
        .unwrap_or_else(|| panic!("no type {name}"));
    let bytes = Gen::new(ir, seed).encode(id);
    T::decode(&bytes).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"))
}

fn encode_delta<T: Delta + Encode>(v: &T, b: &T) -> Vec<u8> {
    let mut out = Vec::new();
    pkt_runtime::delta::encode(v, b, &mut out).expect("encodes");
    out
}

/// The checks of one (value, baseline) pair; returns the delta.
fn check_pair<T>(name: &str, v: &T, b: &T) -> Vec<u8>
where
    T: Delta + Encode + Decode + Clone + Debug,
{
    let delta = encode_delta(v, b);
    let mut applied = b.clone();
    pkt_runtime::delta::apply(&mut applied, &delta, &Limits::DEFAULT)
        .unwrap_or_else(|e| panic!("{name}: {e} applying {delta:02x?}"));
    // Compared by encoding: a NaN is the same NaN.
    assert_eq!(
        applied.encode_to_vec().unwrap(),
        v.encode_to_vec().unwrap(),
        "{name}: apply(b, encode_delta(v, b)) != v"
    );
    let same = encode_delta(v, v);
    assert!(
        same == [0] || same == [1, 0, 0, 0, 0],
        "{name}: a value against itself wrote {same:02x?}"
    );
    // Every cut of the delta (at most 48 of them, spread over it) is an
    // error and leaves the baseline as it was.
    let before = b.encode_to_vec().unwrap();
    let step = delta.len().div_ceil(48).max(1);
    for cut in (0..delta.len()).step_by(step) {
        let mut target = b.clone();
        let r = pkt_runtime::delta::apply(&mut target, &delta[..cut], &Limits::DEFAULT);
        assert!(r.is_err(), "{name}: the delta cut at {cut} applied");
        assert_eq!(
            target.encode_to_vec().unwrap(),
            before,
            "{name}: not atomic"
        );
    }
    delta
}

/// Mutated deltas are applied whole or not at all.
fn check_mutations<T>(name: &str, b: &T, delta: &[u8], rng: &mut Rng)
where
    T: Delta + Encode + Decode + Clone,
{
    let before = b.encode_to_vec().unwrap();
    for _ in 0..8 {
        if delta.is_empty() {
            return;
        }
        let mut bytes = delta.to_vec();
        let at = rng.index(bytes.len());
        bytes[at] ^= 1 << rng.below(8);
        let mut target = b.clone();
        if pkt_runtime::delta::apply(&mut target, &bytes, &Limits::DEFAULT).is_err() {
            assert_eq!(
                target.encode_to_vec().unwrap(),
                before,
                "{name}: not atomic"
            );
        }
    }
}

fn property<T>(name: &str)
where
    T: Delta + Encode + Decode + Clone + Debug,
{
    let mut rng = Rng(0x5eed ^ name.len() as u64);
    let mut distinct = 0;
    for seed in 0..cases() {
        // Odd seeds: the generator sets the low bit of its seed, so seeds
        // 2s and 2s + 1 would give the same value.
        let b: T = random(name, seed * 4 + 1);
        let v: T = random(name, seed * 4 + 3);
        distinct += usize::from(b.encode_to_vec().unwrap() != v.encode_to_vec().unwrap());
        let delta = check_pair(name, &v, &b);
        check_mutations(name, &b, &delta, &mut rng);
        check_pair(name, &b, &b);
    }
    // A type with fields has values that differ; pairs of equal values
    // would test only the empty delta.
    assert!(
        distinct > 0 || name.ends_with("Empty"),
        "{name}: every random pair was a value and itself"
    );
}

#[test]
fn every_delta_type_round_trips_random_pairs() {
    property::<Vec3>("test.delta.Vec3");
    property::<Stats>("test.delta.Stats");
    property::<Entity>("test.delta.Entity");
    property::<World>("test.delta.World");
    property::<Empty>("test.delta.Empty");
    // Quantized fields change by their stored integers.
    property::<QPos>("test.delta.QPos");
    property::<Mover>("test.delta.Mover");
    // Patches that hold themselves through a map (`delta::Deferred`).
    property::<Node>("test.delta.Node");
    property::<Squad>("test.delta.Squad");
    property::<Member>("test.delta.Member");
}

/// A tree `depth` levels deep, `width` children a node, numbered from `v`.
fn tree(v: u32, depth: u32, width: u32) -> Node {
    Node {
        v,
        kids: if depth == 0 {
            BTreeMap::new()
        } else {
            (0..width)
                .map(|k| (k, tree(v * 10 + k, depth - 1, width)))
                .collect()
        },
    }
}

/// A recursive `@delta` type through a map compiles (its patch names
/// itself through `delta::Deferred`; `PatchOf<Node>` failed with E0275),
/// and its delta sends only the path to what changed: a leaf four levels
/// down, one removed subtree and one added node.
#[test]
fn a_tree_of_delta_types_sends_the_path_to_a_change() {
    let base = tree(1, 4, 3);
    let mut cur = base.clone();
    let mut leaf = &mut cur;
    for k in [2, 0, 1, 2] {
        leaf = leaf.kids.get_mut(&k).expect("a child");
    }
    leaf.v = 7;
    let delta = encode_delta(&cur, &base);
    let whole = cur.encode_to_vec().unwrap().len();
    // Four levels of (message body, mask, map counts, key) and one u32.
    assert!(
        delta.len() < 100 && delta.len() * 15 < whole,
        "{} of {whole}",
        delta.len()
    );
    let mut applied = base.clone();
    applied.apply_delta(&delta).expect("applies");
    assert_eq!(applied, cur);
    cur.kids.remove(&1);
    cur.kids.get_mut(&0).unwrap().kids.insert(9, tree(5, 1, 2));
    let delta = check_pair("tree", &cur, &base);
    let mut applied = base.clone();
    applied.apply_delta(&delta).expect("applies");
    assert_eq!(applied, cur);
}

/// The shape of a game world: a few entities change, one leaves, one
/// arrives; the delta holds only those.
#[test]
fn a_world_sends_only_what_changed() {
    let base = world(100);
    let mut cur = base.clone();
    cur.tick = 2;
    cur.entities.remove(&3);
    cur.entities.insert(500, entity(500));
    cur.entities.get_mut(&7).unwrap().pos.x = 8.5;
    cur.entities.get_mut(&9).unwrap().health = 90;
    let delta = check_pair("world", &cur, &base);
    let full = cur.encode_to_vec().unwrap().len();
    assert!(delta.len() * 20 < full, "{} of {full} bytes", delta.len());
    // 4 length | mask 1: 0b11 | tick | entities: removed [3], added [500 ..],
    // changed [7: pos.x, 9: health]
    assert_eq!(&delta[4..6], [1, 0b11]);
    assert_eq!(&delta[6..10], 2u32.to_le_bytes());
    assert_eq!(&delta[10..18], [1, 0, 0, 0, 3, 0, 0, 0]);
    // -0.0 differs from 0.0; the same NaN does not differ.
    let mut a = Vec3::default();
    let mut b = a;
    b.y = -0.0;
    assert_eq!(encode_delta(&b, &a), [1, 0b10, 0, 0, 0, 0x80]);
    a.z = f32::NAN;
    b = a;
    assert_eq!(encode_delta(&b, &a), [0]);
}

/// The error of applying `bytes` to `b`, which must leave it unchanged.
fn rejects<T: Delta + Encode + Clone>(b: &T, bytes: &[u8], limits: &Limits) -> (String, usize) {
    let mut target = b.clone();
    let e = pkt_runtime::delta::apply(&mut target, bytes, limits).unwrap_err();
    assert_eq!(
        target.encode_to_vec().unwrap(),
        b.encode_to_vec().unwrap(),
        "not atomic"
    );
    let kind = match e.kind() {
        DecodeErrorKind::InvalidDelta { .. } => "InvalidDelta".to_string(),
        k => format!("{k:?}"),
    };
    (kind, e.offset())
}

#[test]
fn hostile_deltas_are_rejected_at_their_byte() {
    let v3 = Vec3::default();
    let d = Limits::DEFAULT;
    let invalid = |at: usize| ("InvalidDelta".to_string(), at);
    // A struct of 3 fields has one mask byte; its bits 3..7 name nothing.
    assert_eq!(rejects(&v3, &[2, 1, 1], &d), invalid(0));
    assert_eq!(rejects(&v3, &[1, 0b1000], &d), invalid(1));
    assert_eq!(rejects(&v3, &[1, 0], &d), invalid(1));
    // Messages: a zero last mask byte; a newer writer's bits are skipped.
    let e = Empty::default();
    assert_eq!(rejects(&e, &[2, 0, 0, 0, 1, 0], &d), invalid(5));
    let mut empty = e.clone();
    pkt_runtime::delta::apply(&mut empty, &[3, 0, 0, 0, 1, 1, 9], &d).unwrap();
    assert_eq!(
        rejects(&e, &[1, 0, 0, 0, 0, 0], &d).0,
        "TrailingBytes { count: 1 }"
    );

    // Map keys: removed or changed keys the baseline lacks, added keys it
    // has, keys out of order or in two sections.
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
                    body.extend([1, 0, 0, 0, 0]); // an empty message delta
                }
            }
        }
        let mut out = (body.len() as u32).to_le_bytes().to_vec();
        out.extend(body);
        out
    };
    assert_eq!(
        rejects(&base, &map_delta([&[5], &[], &[]]), &d),
        invalid(10)
    );
    assert_eq!(
        rejects(&base, &map_delta([&[2, 1], &[], &[]]), &d),
        invalid(14)
    );
    assert_eq!(
        rejects(&base, &map_delta([&[1, 1], &[], &[]]), &d),
        invalid(14)
    );
    assert_eq!(
        rejects(&base, &map_delta([&[], &[1], &[]]), &d),
        invalid(14)
    );
    assert_eq!(
        rejects(&base, &map_delta([&[], &[], &[9]]), &d),
        invalid(18)
    );
    assert_eq!(
        rejects(&base, &map_delta([&[1], &[], &[1]]), &d),
        invalid(22)
    );
    // The same changes in order apply.
    let mut ok = base.clone();
    pkt_runtime::delta::apply(&mut ok, &map_delta([&[1], &[7], &[2]]), &d).unwrap();
    assert_eq!(ok.entities.keys().copied().collect::<Vec<_>>(), [0, 2, 7]);

    // Counts are checked against the input before anything is allocated.
    let mut huge = map_delta([&[], &[], &[]]);
    huge[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        rejects(&base, &huge, &d).0,
        format!(
            "LengthExceedsInput {{ len: {}, remaining: 8 }}",
            u32::MAX as usize * 4
        )
    );
    // The decode budget is the delta's: added entries are charged.
    let added = map_delta([&[], &[10, 11, 12], &[]]);
    let small = Limits {
        decode_budget_base: 0,
        decode_budget_per_byte: 1,
        ..Limits::DEFAULT
    };
    assert!(rejects(&base, &added, &small)
        .0
        .starts_with("BudgetExceeded"));
    // Nested message deltas count one level each.
    let mut deep = base.clone();
    deep.entities.get_mut(&1).unwrap().health = 5;
    let delta = encode_delta(&deep, &base);
    let shallow = Limits {
        max_depth: 1,
        ..Limits::DEFAULT
    };
    assert_eq!(
        rejects(&base, &delta, &shallow),
        ("DepthExceeded { max: 1 }".to_string(), 22)
    );
    let two = Limits {
        max_depth: 2,
        ..Limits::DEFAULT
    };
    let mut applied = base.clone();
    pkt_runtime::delta::apply(&mut applied, &delta, &two).unwrap();
    assert_eq!(applied, deep);
}

#[test]
fn the_generated_methods_are_the_runtime_entry_points() {
    let base = world(2);
    let mut cur = base.clone();
    cur.motd = "hello".into();
    cur.scores = BTreeMap::from([(1, -3)]);
    cur.entities.get_mut(&0).unwrap().status = Status::Moving(Vec3::default());
    let mut out = vec![0xAA];
    cur.encode_delta(&base, &mut out).unwrap();
    assert_eq!(out[0], 0xAA, "appends");
    let mut applied = base.clone();
    applied.apply_delta(&out[1..]).unwrap();
    assert_eq!(applied, cur);
    let mut limited = base.clone();
    limited
        .apply_delta_with_limits(&out[1..], &Limits::DEFAULT)
        .unwrap();
    assert_eq!(limited, cur);
    // `@max` holds for what a delta carries, on both sides.
    cur.entities.get_mut(&1).unwrap().name = "x".repeat(33);
    let mut out = Vec::new();
    assert!(cur.encode_delta(&base, &mut out).is_err());
    assert!(out.is_empty());
}

/// The examples of docs/wire-format.md, "Deltas".
#[test]
fn the_wire_format_examples() {
    let hex = |b: &[u8]| pkt_test_support::hex::spaced(b);
    let base = Vec3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    };
    let cur = Vec3 { y: 2.5, ..base };
    assert_eq!(hex(&encode_delta(&cur, &base)), "01 02 00 00 20 40");
    assert_eq!(hex(&encode_delta(&base, &base)), "00");
    let e = |health| Entity {
        health,
        ..Entity::default()
    };
    let base = World {
        tick: 1,
        entities: BTreeMap::from([(1, e(100)), (2, e(100))]),
        ..World::default()
    };
    let cur = World {
        tick: 2,
        entities: BTreeMap::from([(1, e(90))]),
        ..World::default()
    };
    let expected = "22 00 00 00 01 03 02 00 00 00 01 00 00 00 02 00 00 00 \
                    00 00 00 00 01 00 00 00 01 00 00 00 04 00 00 00 01 08 5a 00";
    let expected: String = expected.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(hex(&encode_delta(&cur, &base)), expected);
    assert_eq!(hex(&encode_delta(&base, &base)), "01 00 00 00 00");
}

/// Random encodings of `name` in the schema `path` (relative to the
/// repository root).
fn random_in<T: Decode>(path: &str, name: &str, seed: u64) -> (T, Vec<u8>) {
    let ir = pktc::check(&[std::path::PathBuf::from("..").join(path)])
        .expect("checks")
        .ir;
    let id = (0..ir.types.len())
        .map(pktc::ir::TypeId)
        .find(|&id| qualified(&ir, id) == name)
        .unwrap_or_else(|| panic!("no type {name}"));
    let bytes = Gen::new(&ir, seed).encode(id);
    let value = T::decode(&bytes).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
    (value, bytes)
}

/// A delta written with one version's types, applied with the other's:
/// the reader ends with what decoding the writer's value gives it (an
/// older reader skips the appended fields' changes; a newer reader keeps
/// the fields an older writer does not know).
fn across_versions<W, R>(writer_schema: &str, name: &str)
where
    W: Delta + Encode + Decode + Clone,
    R: Delta + Encode + Decode + Clone + Debug,
{
    for seed in 0..pkt_test_support::scaled(60, 600) {
        let (b, b_bytes): (W, _) = random_in(writer_schema, name, seed * 4 + 1);
        let (v, v_bytes): (W, _) = random_in(writer_schema, name, seed * 4 + 3);
        let delta = encode_delta(&v, &b);
        let mut reader = R::decode(&b_bytes).expect("the other version reads it");
        pkt_runtime::delta::apply(&mut reader, &delta, &Limits::DEFAULT)
            .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
        let expected = R::decode(&v_bytes).unwrap().encode_to_vec().unwrap();
        assert_eq!(
            reader.encode_to_vec().unwrap(),
            expected,
            "{name} seed {seed}: {writer_schema}'s delta"
        );
    }
}

#[test]
fn deltas_cross_schema_versions_both_ways() {
    use pkt_rust_tests::{delta_evo_v1 as v1, delta_evo_v2 as v2};
    let (old, new) = (
        "schemas/delta_evolution/v1/units.pkt",
        "schemas/delta_evolution/v2/units.pkt",
    );
    across_versions::<v2::test::delta_evo::Unit, v1::test::delta_evo::Unit>(
        new,
        "test.delta_evo.Unit",
    );
    across_versions::<v2::test::delta_evo::Roster, v1::test::delta_evo::Roster>(
        new,
        "test.delta_evo.Roster",
    );
    across_versions::<v1::test::delta_evo::Unit, v2::test::delta_evo::Unit>(
        old,
        "test.delta_evo.Unit",
    );
    across_versions::<v1::test::delta_evo::Roster, v2::test::delta_evo::Roster>(
        old,
        "test.delta_evo.Roster",
    );
}
