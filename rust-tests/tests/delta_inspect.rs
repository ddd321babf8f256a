//! `pktc inspect --delta-against` (`pktc::tools::inspect::apply_delta`)
//! against the generated Rust `apply_delta` (`schemas/delta.pkt`): for
//! random values and baselines of every `@delta` type, their deltas, every
//! mutation and cut of them, hostile map sections, small budgets and
//! depths, and baselines an older writer encoded, both make the same value
//! (inspect's bytes are the ordinary encoding of the value the generated
//! code makes) or fail with the same error at the same byte.

mod support;

use std::fmt::Debug;

use pkt_runtime::delta::Delta;
use pkt_runtime::{Decode, Encode, Limits};
use pkt_rust_tests::test::delta::{Empty, Entity, Mover, QPos, Stats, Vec3, World};
use pkt_test_support::Rng;
use pktc::ir::{Ir, TypeId};
use pktc::tools::inspect::{apply_delta, DeltaError};
use support::delta::{entity, world};
use support::{ir, qualified, Gen};

fn the_ir() -> &'static Ir {
    static IR: std::sync::OnceLock<Ir> = std::sync::OnceLock::new();
    IR.get_or_init(ir)
}

fn id(name: &str) -> TypeId {
    let ir = the_ir();
    (0..ir.types.len())
        .map(TypeId)
        .find(|&id| qualified(ir, id) == name)
        .unwrap_or_else(|| panic!("no type {name}"))
}

fn random<T: Decode>(name: &str, seed: u64) -> T {
    let bytes = Gen::new(the_ir(), seed).encode(id(name));
    T::decode(&bytes).unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"))
}

fn encode_delta<T: Delta + Encode>(v: &T, b: &T) -> Vec<u8> {
    let mut out = Vec::new();
    pkt_runtime::delta::encode(v, b, &mut out).expect("encodes");
    out
}

/// A value's encoding, or an error's kind and offset.
type Outcome = Result<Vec<u8>, (String, usize)>;

/// What the generated code makes of `delta` applied to `b`.
fn generated<T: Delta + Encode + Clone>(b: &T, delta: &[u8], limits: &Limits) -> Outcome {
    let mut target = b.clone();
    match pkt_runtime::delta::apply(&mut target, delta, limits) {
        Ok(()) => Ok(target.encode_to_vec().expect("encodes")),
        Err(e) => Err((format!("{:?}", e.kind()), e.offset())),
    }
}

/// What inspect makes of `delta` applied to the encoding `baseline`.
fn inspected(name: &str, baseline: &[u8], delta: &[u8], limits: &Limits) -> Outcome {
    match apply_delta(the_ir(), id(name), baseline, delta, *limits) {
        Ok(a) => Ok(a.bytes),
        Err(DeltaError::Delta(e)) => Err((format!("{:?}", e.kind), e.offset)),
        Err(DeltaError::Baseline(e)) => panic!("{name}: the baseline does not decode: {e}"),
    }
}

/// Both readers agree on `delta` against `b` (encoded as `baseline`): the
/// same error, or the same value. Returns inspect's outcome. (A value a
/// mutated delta holds whole, a map with its keys out of order, say, is
/// copied as it was sent: the same value, whose canonical encoding the
/// generated code writes.)
fn agree<T: Delta + Encode + Decode + Clone + Debug>(
    name: &str,
    b: &T,
    baseline: &[u8],
    delta: &[u8],
    limits: &Limits,
) -> Outcome {
    let want = generated(b, delta, limits);
    let got = inspected(name, baseline, delta, limits);
    let canonical = got.clone().map(|bytes| {
        T::decode(&bytes)
            .unwrap_or_else(|e| panic!("{name}: inspect made bytes that do not decode: {e}"))
            .encode_to_vec()
            .unwrap()
    });
    assert_eq!(canonical, want, "{name}: delta {delta:02x?} against {b:?}");
    got
}

fn property<T: Delta + Encode + Decode + Clone + Debug>(name: &str) {
    let mut rng = Rng(0xde17a ^ name.len() as u64);
    let d = Limits::DEFAULT;
    let mut applied = 0;
    for seed in 0..pkt_test_support::scaled(60, 600) {
        let b: T = random(name, seed * 4 + 1);
        let v: T = random(name, seed * 4 + 3);
        let baseline = b.encode_to_vec().unwrap();
        let delta = encode_delta(&v, &b);
        let made = agree(name, &b, &baseline, &delta, &d);
        assert_eq!(made, Ok(v.encode_to_vec().unwrap()), "{name}: seed {seed}");
        applied += 1;
        let same = agree(name, &b, &baseline, &encode_delta(&b, &b), &d);
        assert_eq!(same, Ok(baseline.clone()), "{name}: nothing changed");
        // Cut anywhere, or with one bit flipped: the same error at the same
        // byte, or the same value.
        let step = delta.len().div_ceil(24).max(1);
        for cut in (0..delta.len()).step_by(step) {
            assert!(agree(name, &b, &baseline, &delta[..cut], &d).is_err());
        }
        for _ in 0..16 {
            let mut bytes = delta.clone();
            let at = rng.index(bytes.len());
            bytes[at] ^= 1 << rng.below(8);
            let _ = agree(name, &b, &baseline, &bytes, &d);
        }
        // Small budgets and depths fail at the same byte, naming the same
        // field.
        for budget in [0, 1, 2, 8] {
            let limits = Limits {
                decode_budget_base: budget,
                decode_budget_per_byte: 1,
                ..Limits::DEFAULT
            };
            let _ = agree(name, &b, &baseline, &delta, &limits);
        }
        for depth in [0, 1, 2] {
            let limits = Limits {
                max_depth: depth,
                ..Limits::DEFAULT
            };
            let _ = agree(name, &b, &baseline, &delta, &limits);
        }
    }
    assert!(applied > 0);
}

#[test]
fn inspect_applies_deltas_as_the_generated_code_does() {
    property::<Vec3>("test.delta.Vec3");
    property::<Stats>("test.delta.Stats");
    property::<Entity>("test.delta.Entity");
    property::<World>("test.delta.World");
    property::<Empty>("test.delta.Empty");
    property::<QPos>("test.delta.QPos");
    property::<Mover>("test.delta.Mover");
}

/// The hostile map sections of `delta.rs`, and a newer writer's fields.
#[test]
fn hostile_map_sections_fail_alike() {
    let base = world(3);
    let baseline = base.encode_to_vec().unwrap();
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
    let d = Limits::DEFAULT;
    let cases: [[&[u32]; 3]; 8] = [
        [&[5], &[], &[]],
        [&[2, 1], &[], &[]],
        [&[1, 1], &[], &[]],
        [&[], &[1], &[]],
        [&[], &[], &[9]],
        [&[1], &[], &[1]],
        [&[], &[4, 3], &[]],
        [&[1], &[7], &[2]],
    ];
    let mut failed = 0;
    for sections in cases {
        failed += usize::from(
            agree(
                "test.delta.World",
                &base,
                &baseline,
                &map_delta(sections),
                &d,
            )
            .is_err(),
        );
    }
    assert_eq!(failed, 7, "every case but the last is rejected");
    // A newer writer's field 6 (past `marker`): skipped with the body.
    let newer = [3, 0, 0, 0, 1, 0b100_0000, 9];
    assert!(agree("test.delta.World", &base, &baseline, &newer, &d).is_ok());
}

/// A baseline from an older writer, whose message bodies end early: its
/// absent fields are their defaults, which the new value encodes.
#[test]
fn older_baselines_take_their_defaults() {
    // Entity's body holding `pos` only; World's holding `tick` only.
    let mut old_entity = vec![12, 0, 0, 0];
    old_entity.extend(entity(3).pos.encode_to_vec().unwrap());
    let old_world = [4, 0, 0, 0, 9, 0, 0, 0];
    for seed in 0..pkt_test_support::scaled(20, 200) {
        let b = Entity::decode(&old_entity).unwrap();
        let v: Entity = random("test.delta.Entity", seed * 4 + 3);
        let delta = encode_delta(&v, &b);
        let made = agree(
            "test.delta.Entity",
            &b,
            &old_entity,
            &delta,
            &Limits::DEFAULT,
        );
        assert_eq!(made, Ok(v.encode_to_vec().unwrap()));
        // Nothing changed: the old value, every field written.
        let same = agree(
            "test.delta.Entity",
            &b,
            &old_entity,
            &[1, 0, 0, 0, 0],
            &Limits::DEFAULT,
        );
        assert_eq!(same, Ok(b.encode_to_vec().unwrap()));

        let b = World::decode(&old_world).unwrap();
        let v: World = random("test.delta.World", seed * 4 + 3);
        let delta = encode_delta(&v, &b);
        let made = agree("test.delta.World", &b, &old_world, &delta, &Limits::DEFAULT);
        assert_eq!(made, Ok(v.encode_to_vec().unwrap()));
    }
}

/// The changes listed, for the example of docs/wire-format.md, one entity
/// added and one whole-valued map entry changed.
#[test]
fn the_changed_fields_are_named() {
    let mut base = world(3);
    base.scores.insert(4, 10);
    let mut cur = base.clone();
    cur.tick = 2;
    cur.entities.remove(&2);
    cur.entities.insert(7, entity(7));
    cur.entities.get_mut(&1).unwrap().health = 90;
    cur.entities.get_mut(&1).unwrap().pos.y = 2.5;
    cur.scores.insert(4, -1);
    cur.motd = "hi".into();
    let applied = apply_delta(
        the_ir(),
        id("test.delta.World"),
        &base.encode_to_vec().unwrap(),
        &encode_delta(&cur, &base),
        Limits::DEFAULT,
    )
    .unwrap();
    assert_eq!(applied.bytes, cur.encode_to_vec().unwrap());
    assert_eq!(
        applied.changed,
        [
            "World.tick",
            "World.entities[2] removed",
            "World.entities[7] added",
            "World.entities[1].pos.y",
            "World.entities[1].health",
            "World.scores[4]",
            "World.motd",
        ]
    );
}
