//! Delta snapshots in TypeScript against Rust (`schemas/delta.pkt`,
//! `schemas/delta_evolution/`), under node: for random (value, baseline)
//! pairs of every `@delta` type, TypeScript's `encodeDelta` writes Rust's
//! bytes, applying Rust's delta gives the value, and a value against itself
//! writes the smallest delta; for hostile deltas (cut short, mutated, keys
//! missing or repeated, masks with extra bits, over the budget or the
//! depth) TypeScript's `applyDelta` fails with Rust's error kind and offset
//! and leaves the value unchanged; and deltas cross schema versions both
//! ways as in Rust.

mod support;

use std::path::{Path, PathBuf};

use pkt_runtime::delta::Delta;
use pkt_runtime::{Decode, DecodeErrorKind, Encode, Limits};
use pkt_rust_tests::test::delta::{
    Empty, Entity, Member, Mover, Node, QPos, Squad, Stats, Vec3, World,
};
use pkt_test_support::hex::encode as hex;
use pkt_test_support::Rng;
use support::delta::{changed_entries_at_the_budget, entity, world};
use support::{node, qualified, typescript, Gen};

/// Answers one line per input: `pair <type> <baseline> <value>` with `<the
/// delta> <the baseline after applying Rust's delta> <the value against
/// itself>`; `refuse <type> <baseline>` (a World whose names are over
/// their `@max`) with the error; `apply <type> <baseline> <delta> <maxDepth> <budget base>
/// <budget per byte>` with `ok <the value after>` or `err <kind> <offset>`
/// (`changed` appended when the value is not what it was).
const DRIVER: &str = r#"import { readFileSync, writeFileSync } from "node:fs";
import { TYPES } from "./dispatch.js";
import { PktError } from "./pkt_runtime.js";

const [input, output] = process.argv.slice(2);
const unhex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const out = [];
for (const line of readFileSync(input, "utf8").split("\n")) {
  if (line === "") continue;
  const [what, type, base, arg, depth, budgetBase, perByte] = line.split(" ");
  const codec = TYPES[type];
  if (!codec) throw new Error("no type " + type);
  if (what === "refuse") {
    // Entity names over their @max(32), the same in the baseline: refused,
    // as by encode, though unchanged.
    const b = codec.decode(unhex(base));
    const v = codec.decode(unhex(base));
    for (const e of v.entities.values()) e.name = "x".repeat(33);
    for (const e of b.entities.values()) e.name = "x".repeat(33);
    try {
      codec.encodeDelta(v, b);
      out.push("written");
    } catch (e) {
      if (!(e instanceof PktError)) throw e;
      out.push(`refused ${e.kind} ${e.field}`);
    }
    continue;
  }
  if (what === "pair") {
    const b = codec.decode(unhex(base));
    const v = codec.decode(unhex(arg));
    const delta = hex(codec.encodeDelta(v, b));
    const target = codec.decode(unhex(base));
    codec.applyDelta(target, unhex(delta));
    out.push(`${delta} ${hex(codec.encode(target))} ${hex(codec.encodeDelta(v, v))}`);
    continue;
  }
  const target = codec.decode(unhex(base));
  const limits = { maxDepth: +depth, decodeBudgetBase: +budgetBase, decodeBudgetPerByte: +perByte };
  try {
    codec.applyDelta(target, unhex(arg), limits);
    out.push("ok " + hex(codec.encode(target)));
  } catch (e) {
    if (!(e instanceof PktError)) throw e;
    const same = hex(codec.encode(target)) === base;
    out.push(`err ${e.kind} ${e.offset}${same ? "" : " changed"}`);
  }
}
writeFileSync(output, out.join("\n") + "\n");
"#;

fn cases() -> u64 {
    pkt_test_support::scaled(60, 1000)
}

/// The schema at `path` (from the repository root) compiled to TypeScript
/// with the driver, in `CARGO_TARGET_TMPDIR/<name>`; `None` without node.
fn build(name: &str, path: &str) -> Option<(pktc::ir::Ir, PathBuf)> {
    if !node::tools_or_skip(name) {
        return None;
    }
    let ir = schema(path);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let js = typescript::build(&ir, &dir, &[]);
    std::fs::write(js.join("driver.mjs"), DRIVER).expect("driver.mjs");
    Some((ir, js))
}

fn schema(path: &str) -> pktc::ir::Ir {
    pktc::check(&[Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)])
        .unwrap_or_else(|f| panic!("{f}"))
        .ir
}

/// Random encodings of the type named `name`.
fn random(ir: &pktc::ir::Ir, name: &str, seed: u64) -> Vec<u8> {
    let id = (0..ir.types.len())
        .map(pktc::ir::TypeId)
        .find(|&id| qualified(ir, id) == name)
        .unwrap_or_else(|| panic!("no type {name}"));
    Gen::new(ir, seed).encode(id)
}

/// The inputs for the driver and the answers Rust gives to them.
#[derive(Default)]
struct Cases {
    inputs: Vec<String>,
    expected: Vec<String>,
}

impl Cases {
    fn pair<T: Delta + Encode + Decode + Clone>(
        &mut self,
        name: &str,
        b: &[u8],
        v: &[u8],
    ) -> Vec<u8> {
        let (bv, vv) = (T::decode(b).unwrap(), T::decode(v).unwrap());
        let delta = encode_delta(&vv, &bv);
        let same = encode_delta(&vv, &vv);
        assert!(
            same == [0] || same == [1, 0, 0, 0, 0],
            "{name}: {same:02x?}"
        );
        self.inputs
            .push(format!("pair {name} {} {}", hex(b), hex(v)));
        self.expected.push(format!(
            "{} {} {}",
            hex(&delta),
            hex(&vv.encode_to_vec().unwrap()),
            hex(&same)
        ));
        delta
    }

    /// Applies `delta` to the decoded `b` with Rust's `R`.
    fn apply<R: Delta + Encode + Decode + Clone>(
        &mut self,
        name: &str,
        b: &[u8],
        delta: &[u8],
        limits: &Limits,
    ) {
        let mut target = R::decode(b).unwrap();
        let answer = match pkt_runtime::delta::apply(&mut target, delta, limits) {
            Ok(()) => format!("ok {}", hex(&target.encode_to_vec().unwrap())),
            Err(e) => {
                let kind = match e.kind() {
                    DecodeErrorKind::InvalidDelta { .. } => "InvalidDelta".to_string(),
                    k => format!("{k:?}")
                        .chars()
                        .take_while(char::is_ascii_alphanumeric)
                        .collect(),
                };
                format!("err {kind} {}", e.offset())
            }
        };
        self.inputs.push(format!(
            "apply {name} {} {} {} {} {}",
            hex(b),
            hex(delta),
            limits.max_depth,
            limits.decode_budget_base,
            limits.decode_budget_per_byte
        ));
        self.expected.push(answer);
    }

    /// Runs the driver in `js` and compares every answer with Rust's.
    fn check(&self, js: &Path, what: &str) {
        let input = js.join(format!("{what}.in"));
        let output = js.join(format!("{what}.out"));
        std::fs::write(&input, self.inputs.join("\n") + "\n").expect("write inputs");
        node::run(
            js,
            &[
                "driver.mjs",
                input.to_str().expect("UTF-8 path"),
                output.to_str().expect("UTF-8 path"),
            ],
        );
        let answers = std::fs::read_to_string(&output).expect("driver output");
        let answers: Vec<&str> = answers.lines().collect();
        assert_eq!(
            answers.len(),
            self.inputs.len(),
            "node answered every input"
        );
        let mut failures = Vec::new();
        for ((input, want), got) in self.inputs.iter().zip(&self.expected).zip(answers) {
            if want != got {
                failures.push(format!(
                    "{input}\n  Rust:       {want}\n  TypeScript: {got}"
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "{what}: {} of {} differ:\n{}",
            failures.len(),
            self.inputs.len(),
            failures[..failures.len().min(8)].join("\n")
        );
    }
}

fn encode_delta<T: Delta + Encode>(v: &T, b: &T) -> Vec<u8> {
    let mut out = Vec::new();
    pkt_runtime::delta::encode(v, b, &mut out).expect("encodes");
    out
}

/// Random pairs of `name`, and the hostile forms of each pair's delta:
/// every cut (up to 48 of them), 8 single-bit mutations.
fn property<T: Delta + Encode + Decode + Clone>(cases: &mut Cases, ir: &pktc::ir::Ir, name: &str) {
    let mut rng = Rng(0x5eed ^ name.len() as u64);
    let d = Limits::DEFAULT;
    for seed in 0..self::cases() {
        let b = random(ir, name, seed * 4 + 1);
        let v = random(ir, name, seed * 4 + 3);
        let delta = cases.pair::<T>(name, &b, &v);
        cases.pair::<T>(name, &b, &b);
        let step = delta.len().div_ceil(48).max(1);
        for cut in (0..delta.len()).step_by(step) {
            cases.apply::<T>(name, &b, &delta[..cut], &d);
        }
        for _ in 0..8 {
            let mut bytes = delta.clone();
            let at = rng.index(bytes.len());
            bytes[at] ^= 1 << rng.below(8);
            cases.apply::<T>(name, &b, &bytes, &d);
        }
        let mut longer = delta.clone();
        longer.push(0);
        cases.apply::<T>(name, &b, &longer, &d);
    }
}

/// The hand-made hostile deltas of `rust-tests/tests/delta.rs`.
fn hostile(cases: &mut Cases) {
    let d = Limits::DEFAULT;
    let v3 = Vec3::default().encode_to_vec().unwrap();
    for bytes in [
        &[2, 1, 1][..],
        &[1, 0b1000],
        &[1, 0],
        &[],
        &[1],
        &[1, 1, 0, 0],
    ] {
        cases.apply::<Vec3>("test.delta.Vec3", &v3, bytes, &d);
    }
    let e = Empty::default().encode_to_vec().unwrap();
    for bytes in [
        &[2, 0, 0, 0, 1, 0][..],
        &[3, 0, 0, 0, 1, 1, 9],
        &[1, 0, 0, 0, 0, 0],
        &[1, 0, 0, 0],
        &[9, 0, 0, 0, 0],
    ] {
        cases.apply::<Empty>("test.delta.Empty", &e, bytes, &d);
    }
    let base = world(3);
    let b = base.encode_to_vec().unwrap();
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
    let w = "test.delta.World";
    for sections in [
        [&[5][..], &[], &[]],
        [&[2, 1], &[], &[]],
        [&[1, 1], &[], &[]],
        [&[], &[1], &[]],
        [&[], &[9, 8], &[]],
        [&[], &[], &[9]],
        [&[], &[], &[2, 2]],
        [&[1], &[], &[1]],
        [&[1], &[7], &[2]],
    ] {
        cases.apply::<World>(w, &b, &map_delta(sections), &d);
    }
    let mut huge = map_delta([&[], &[], &[]]);
    huge[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
    cases.apply::<World>(w, &b, &huge, &d);
    let added = map_delta([&[], &[10, 11, 12], &[]]);
    for per_byte in [1, 4, 7, 32] {
        let small = Limits {
            decode_budget_base: 0,
            decode_budget_per_byte: per_byte,
            ..Limits::DEFAULT
        };
        cases.apply::<World>(w, &b, &added, &small);
    }
    for (base, bytes, limits) in changed_entries_at_the_budget() {
        cases.apply::<World>(w, &base.encode_to_vec().unwrap(), &bytes, &limits);
    }
    let mut deep = base.clone();
    deep.entities.get_mut(&1).unwrap().health = 5;
    deep.entities.get_mut(&2).unwrap().status =
        pkt_rust_tests::test::delta::Status::Moving(Vec3::default());
    let delta = encode_delta(&deep, &base);
    for max_depth in [0, 1, 2, 3] {
        let limits = Limits {
            max_depth,
            ..Limits::DEFAULT
        };
        cases.apply::<World>(w, &b, &delta, &limits);
    }
}

#[test]
fn typescript_deltas_equal_rusts() {
    let Some((ir, js)) = build("typescript-delta", "schemas/delta.pkt") else {
        return;
    };
    let mut cases = Cases::default();
    property::<Vec3>(&mut cases, &ir, "test.delta.Vec3");
    property::<Stats>(&mut cases, &ir, "test.delta.Stats");
    property::<Entity>(&mut cases, &ir, "test.delta.Entity");
    property::<World>(&mut cases, &ir, "test.delta.World");
    property::<Empty>(&mut cases, &ir, "test.delta.Empty");
    property::<QPos>(&mut cases, &ir, "test.delta.QPos");
    property::<Mover>(&mut cases, &ir, "test.delta.Mover");
    property::<Node>(&mut cases, &ir, "test.delta.Node");
    property::<Squad>(&mut cases, &ir, "test.delta.Squad");
    property::<Member>(&mut cases, &ir, "test.delta.Member");
    hostile(&mut cases);
    // The examples of docs/wire-format.md.
    let e = |health| Entity {
        health,
        ..Entity::default()
    };
    let base = World {
        tick: 1,
        entities: [(1, e(100)), (2, e(100))].into(),
        ..World::default()
    };
    let cur = World {
        tick: 2,
        entities: [(1, e(90))].into(),
        ..World::default()
    };
    let delta = cases.pair::<World>(
        "test.delta.World",
        &base.encode_to_vec().unwrap(),
        &cur.encode_to_vec().unwrap(),
    );
    assert_eq!(delta.len(), 38);
    let v = |y: f32| Vec3 { x: 1.0, y, z: 3.0 }.encode_to_vec().unwrap();
    cases.pair::<Vec3>("test.delta.Vec3", &v(2.0), &v(2.5));
    cases.pair::<Vec3>("test.delta.Vec3", &v(0.0), &v(-0.0));
    cases.pair::<Vec3>("test.delta.Vec3", &v(f32::NAN), &v(f32::NAN));
    // `@max` holds for what a delta carries.
    let mut over = world(2);
    let b = over.encode_to_vec().unwrap();
    for e in over.entities.values_mut() {
        e.name = "x".repeat(33);
    }
    assert!(pkt_runtime::delta::encode(&over, &over, &mut Vec::new()).is_err());
    cases
        .inputs
        .push(format!("refuse test.delta.World {}", hex(&b)));
    cases
        .expected
        .push("refused FieldTooLong test.delta.Entity.name".to_string());
    cases.check(&js, "delta");
}

/// A delta written with one version's types (in Rust and in TypeScript,
/// which write the same bytes), applied in TypeScript with the other's,
/// ends as Rust's reader of that version ends.
#[test]
fn typescript_deltas_cross_schema_versions_both_ways() {
    use pkt_rust_tests::{delta_evo_v1 as v1, delta_evo_v2 as v2};
    let (old, new) = (
        "schemas/delta_evolution/v1/units.pkt",
        "schemas/delta_evolution/v2/units.pkt",
    );
    let Some((old_ir, old_js)) = build("typescript-delta-v1", old) else {
        return;
    };
    let Some((new_ir, new_js)) = build("typescript-delta-v2", new) else {
        return;
    };
    let (unit, roster) = ("test.delta_evo.Unit", "test.delta_evo.Roster");
    let d = Limits::DEFAULT;
    let (mut on_old, mut on_new) = (Cases::default(), Cases::default());
    for seed in 0..cases() {
        // Newer writer, older reader.
        let (b, v) = (
            random(&new_ir, unit, seed * 4 + 1),
            random(&new_ir, unit, seed * 4 + 3),
        );
        let delta = on_new.pair::<v2::test::delta_evo::Unit>(unit, &b, &v);
        on_old.apply::<v1::test::delta_evo::Unit>(unit, &b, &delta, &d);
        let (b, v) = (
            random(&new_ir, roster, seed * 4 + 1),
            random(&new_ir, roster, seed * 4 + 3),
        );
        let delta = on_new.pair::<v2::test::delta_evo::Roster>(roster, &b, &v);
        on_old.apply::<v1::test::delta_evo::Roster>(roster, &b, &delta, &d);
        // Older writer, newer reader.
        let (b, v) = (
            random(&old_ir, unit, seed * 4 + 1),
            random(&old_ir, unit, seed * 4 + 3),
        );
        let delta = on_old.pair::<v1::test::delta_evo::Unit>(unit, &b, &v);
        on_new.apply::<v2::test::delta_evo::Unit>(unit, &b, &delta, &d);
        let (b, v) = (
            random(&old_ir, roster, seed * 4 + 1),
            random(&old_ir, roster, seed * 4 + 3),
        );
        let delta = on_old.pair::<v1::test::delta_evo::Roster>(roster, &b, &v);
        on_new.apply::<v2::test::delta_evo::Roster>(roster, &b, &delta, &d);
    }
    on_old.check(&old_js, "v1");
    on_new.check(&new_js, "v2");
}

/// Deltas of maps keyed by each integer type, an enum and strings
/// (`schemas/map_keys.pkt`), random and with keys that collide in V8's
/// unseeded hashes, applied by TypeScript's one merged pass as by Rust,
/// hostile forms included; and changes of `@delta` map values.
#[test]
fn typescript_map_deltas_of_every_key_type_equal_rusts() {
    use pkt_rust_tests::test::map_keys::{Cell, Keyed};
    use support::typescript::colliding;
    let Some((ir, js)) = build("typescript-delta-map-keys", "schemas/map_keys.pkt") else {
        return;
    };
    let mut cases = Cases::default();
    property::<Keyed>(&mut cases, &ir, "test.map_keys.Keyed");
    property::<Cell>(&mut cases, &ir, "test.map_keys.Cell");
    let n = 4096;
    let keyed = |range: std::ops::Range<usize>, flip: usize| {
        let u64s = colliding::u64s(n);
        let i64s = colliding::i64s(n);
        let u32s = colliding::u32s(n);
        let words = colliding::words(n);
        let names = colliding::names(n);
        let v = |i: usize| (i % 251) as u8 ^ u8::from(flip > 0 && i.is_multiple_of(flip));
        Keyed {
            by_u32: range.clone().map(|i| (u32s[i], v(i))).collect(),
            by_i32: range.clone().map(|i| (words[i] as i32, v(i))).collect(),
            by_u64: range.clone().map(|i| (u64s[i], v(i))).collect(),
            by_i64: range.clone().map(|i| (i64s[i], v(i))).collect(),
            by_name: range.clone().map(|i| (names[i].clone(), v(i))).collect(),
            by_u16: range
                .clone()
                .map(|i| {
                    let cell = Cell {
                        hits: v(i),
                        label: if flip > 0 && i.is_multiple_of(flip) {
                            "changed".into()
                        } else {
                            String::new()
                        },
                    };
                    (i as u16, cell)
                })
                .collect(),
            ..Keyed::default()
        }
    };
    let ty = "test.map_keys.Keyed";
    let d = Limits::DEFAULT;
    for (base, value) in [
        (keyed(0..n / 2, 0), keyed(n / 4..n, 3)),
        (keyed(0..n, 0), keyed(0..n, 2)),
        (keyed(0..n, 0), keyed(0..0, 0)),
        (keyed(0..0, 0), keyed(0..n, 5)),
    ] {
        let (b, v) = (
            base.encode_to_vec().unwrap(),
            value.encode_to_vec().unwrap(),
        );
        let delta = cases.pair::<Keyed>(ty, &b, &v);
        for cut in [1, delta.len() / 3, delta.len() / 2, delta.len() - 1] {
            cases.apply::<Keyed>(ty, &b, &delta[..cut], &d);
        }
        let tight = Limits {
            decode_budget_base: 0,
            decode_budget_per_byte: 4,
            ..Limits::DEFAULT
        };
        cases.apply::<Keyed>(ty, &b, &delta, &tight);
    }
    cases.check(&js, "map_keys");
}
