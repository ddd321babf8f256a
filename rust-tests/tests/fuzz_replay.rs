//! The fuzzers' property in a fixed budget, so every `cargo test` checks it:
//! the committed corpus of `fuzz/corpus/decode` (seeds, inputs the fuzzer
//! found interesting, and any crash once fixed) plus random inputs: 20,000
//! in the inner loop, 100,000 under `PKT_LONG_TESTS`.
//! No panic, decode and decode_into agreeing, decode → encode → decode
//! stability, and allocation within the bound of the decode budget.

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
