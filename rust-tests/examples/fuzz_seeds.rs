//! Writes a seed corpus for the `decode` fuzz target: random canonical
//! encodings of every type (and the golden vectors' types), each prefixed
//! with the byte that selects its type.
//!
//! cargo run -p pkt-rust-tests --example fuzz_seeds -- fuzz/corpus/decode

#[path = "../tests/support/mod.rs"]
mod support;

use pkt_rust_tests::TYPES;
use pktc::ir::TypeId;
use support::{ir, qualified, Gen};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: fuzz_seeds DIR");
    std::fs::create_dir_all(&dir).expect("create corpus dir");
    let ir = ir();
    let mut written = 0;
    for i in 0..ir.types.len() {
        let name = qualified(&ir, TypeId(i));
        let selector = TYPES
            .iter()
            .position(|e| e.name == name)
            .expect("generated") as u8;
        for seed in 0..8u64 {
            let mut data = vec![selector];
            data.extend(Gen::new(&ir, seed * 97 + i as u64).encode(TypeId(i)));
            std::fs::write(format!("{dir}/seed-{i:03}-{seed}"), data).expect("write seed");
            written += 1;
        }
    }
    println!("{written} seeds in {dir}");
}
