//! The fuzzers' property in a fixed budget, so every `cargo test` checks it:
//! the committed corpus of `fuzz/corpus/decode` (seeds, inputs the fuzzer
//! found interesting, and any crash once fixed) plus random inputs: 20,000
//! in the inner loop, 100,000 under `PKT_LONG_TESTS`.
//! No panic, decode and decode_into agreeing, decode → encode → decode
//! stability, and allocation within the bound of the decode budget.
//! The corpora of `fuzz/corpus/view_maps` (views of the types that hold
//! maps agreeing with decode) and `fuzz/corpus/apply_delta` (atomic applies
//! of arbitrary deltas, within the bound of the budget) replay too, with
//! mutated deltas of random values: 2,000 in the inner loop, 20,000 under
//! `PKT_LONG_TESTS`.

mod support;

use std::path::Path;

use pkt_rust_tests::{fuzzing, TYPES};
use pktc::ir::TypeId;
use support::{ir, qualified, Gen, Rng};

pkt_test_support::counting_allocator!();

fn measure(f: &mut dyn FnMut()) -> usize {
    pkt_test_support::alloc::measure(f).1.bytes
}

fn run(data: &[u8], what: &str) {
    if let Err(e) = fuzzing::decode(data, measure) {
        panic!("{what}: {e}");
    }
}

#[test]
fn committed_corpus_replays_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/decode");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz/corpus/decode exists") {
        let path = entry.expect("entry").path();
        let data = std::fs::read(&path).expect("readable");
        run(&data, &path.display().to_string());
        n += 1;
    }
    assert!(n >= 500, "expected the committed corpus, found {n} inputs");
}

/// Every file of `fuzz/corpus/<target>`, through `check`; returns how
/// many there were.
fn replay(target: &str, check: impl Fn(&[u8]) -> Result<(), String>) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("entry").path();
        let data = std::fs::read(&path).expect("readable");
        if let Err(e) = check(&data) {
            panic!("{}: {e}", path.display());
        }
        n += 1;
    }
    n
}

#[test]
fn committed_view_maps_corpus_replays_cleanly() {
    let n = replay("view_maps", fuzzing::view_maps);
    assert!(n >= 200, "expected the committed corpus, found {n} inputs");
}

#[test]
fn committed_apply_delta_corpus_replays_cleanly() {
    let n = replay("apply_delta", |data| fuzzing::apply_delta(data, measure));
    assert!(n >= 100, "expected the committed corpus, found {n} inputs");
}

/// Deltas of random values against random baselines of every `@delta`
/// type, mutated as the random decode inputs are.
#[test]
fn random_deltas_apply_or_fail_cleanly() {
    let ir = ir();
    let mut rng = Rng(0xDE17_A5EE_D000_0001);
    let types = fuzzing::DELTA_TYPES;
    let ids: Vec<TypeId> = types
        .iter()
        .map(|e| {
            (0..ir.types.len())
                .map(TypeId)
                .find(|&id| qualified(&ir, id) == e.name)
                .expect("in the IR")
        })
        .collect();
    for case in 0..pkt_test_support::scaled(2_000u64, 20_000) {
        let sel = (case % types.len() as u64) as usize;
        let base = Gen::new(&ir, case).encode(ids[sel]);
        let value = Gen::new(&ir, case + 1_000_003).encode(ids[sel]);
        let mut delta = (types[sel].delta)(&value, &base).expect("random values encode");
        if !rng.chance(8) {
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(delta.len() as u64 + 1) as usize;
                match rng.below(5) {
                    0 if at < delta.len() => delta[at] = rng.next() as u8,
                    1 => delta.insert(at, rng.next() as u8),
                    2 if at < delta.len() => {
                        delta.remove(at);
                    }
                    3 => delta.truncate(at),
                    _ => delta.splice(at..at, u32::MAX.to_le_bytes()).for_each(drop),
                }
            }
        }
        let mut data = vec![sel as u8];
        data.extend((base.len() as u16).to_le_bytes());
        data.extend(&base);
        data.extend(&delta);
        if let Err(e) = fuzzing::apply_delta(&data, measure) {
            panic!("random delta {case}: {e}");
        }
    }
}

#[test]
fn random_inputs_decode_or_fail_cleanly() {
    let ir = ir();
    let mut rng = Rng(0x5EED_F00D_1234_5678);
    let selectors: Vec<(TypeId, u8)> = (0..ir.types.len())
        .map(|i| {
            let name = qualified(&ir, TypeId(i));
            let sel = TYPES
                .iter()
                .position(|e| e.name == name)
                .expect("generated");
            (TypeId(i), sel as u8)
        })
        .collect();
    for case in 0..pkt_test_support::scaled(20_000u64, 100_000) {
        let (id, sel) = selectors[(case % selectors.len() as u64) as usize];
        let mut data = vec![sel];
        if rng.chance(4) {
            // Pure noise.
            let len = rng.below(64) as usize;
            data.extend((0..len).map(|_| rng.next() as u8));
        } else {
            data.extend(Gen::new(&ir, case).encode(id));
            for _ in 0..1 + rng.below(4) {
                let at = 1 + rng.below(data.len() as u64) as usize;
                match rng.below(5) {
                    0 if at < data.len() => data[at] = rng.next() as u8,
                    1 => data.insert(at, 0xFF),
                    2 if at < data.len() => {
                        data.remove(at);
                    }
                    3 => data.truncate(at),
                    _ => data.extend_from_slice(&u32::MAX.to_le_bytes()),
                }
            }
        }
        run(&data, &format!("random case {case}"));
    }
}
