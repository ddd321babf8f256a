//! Writes a seed corpus for a fuzz target:
//!
//! * `decode` (the default): random canonical encodings of every type,
//!   each prefixed with the byte that selects its type;
//! * `view_maps`: the same for the types that hold maps
//!   (`fuzzing::MAP_TYPES`), and their entries written out of key order;
//! * `apply_delta`: for every `@delta` type (`fuzzing::DELTA_TYPES`), a
//!   random baseline and the delta of another random value against it.
//!
//! cargo run -p pkt-rust-tests --example fuzz_seeds -- fuzz/corpus/decode
//! cargo run -p pkt-rust-tests --example fuzz_seeds -- fuzz/corpus/view_maps view_maps

#[path = "../tests/support/mod.rs"]
mod support;

use pkt_rust_tests::fuzzing::{DELTA_TYPES, MAP_TYPES};
use pkt_rust_tests::TYPES;
use pktc::ir::TypeId;
use support::{ir, qualified, Gen};

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: fuzz_seeds DIR [TARGET]");
    let target = std::env::args().nth(2).unwrap_or_else(|| "decode".into());
    std::fs::create_dir_all(&dir).expect("create corpus dir");
    let ir = ir();
    let id = |name: &str| {
        (0..ir.types.len())
            .map(TypeId)
            .find(|&id| qualified(&ir, id) == name)
            .unwrap_or_else(|| panic!("no type {name}"))
    };
    let mut written = 0;
    let mut write = |name: String, data: Vec<u8>| {
        std::fs::write(format!("{dir}/{name}"), data).expect("write seed");
        written += 1;
    };
    match target.as_str() {
        "decode" => {
            for i in 0..ir.types.len() {
                let name = qualified(&ir, TypeId(i));
                let selector = TYPES
                    .iter()
                    .position(|e| e.name == name)
                    .expect("generated") as u8;
                for seed in 0..8u64 {
                    let mut data = vec![selector];
                    data.extend(Gen::new(&ir, seed * 97 + i as u64).encode(TypeId(i)));
                    write(format!("seed-{i:03}-{seed}"), data);
                }
            }
        }
        "view_maps" => {
            for (sel, name) in MAP_TYPES.iter().enumerate() {
                for seed in 0..16u64 {
                    let mut data = vec![sel as u8];
                    data.extend(Gen::new(&ir, seed * 131 + sel as u64).encode(id(name)));
                    write(format!("seed-{sel:02}-{seed}"), data);
                }
            }
            // Entries out of key order at every level (the second key
            // smaller than the first), a few levels deep.
            for levels in [2, 3, 8] {
                let mut tree = vec![0u8];
                tree.extend(unsorted_tree(levels));
                write(format!("unsorted-tree-{levels}"), tree);
            }
        }
        "apply_delta" => {
            for (sel, entry) in DELTA_TYPES.iter().enumerate() {
                let ty = id(entry.name);
                for seed in 0..16u64 {
                    let base = Gen::new(&ir, seed * 173 + sel as u64).encode(ty);
                    let value = Gen::new(&ir, seed * 173 + sel as u64 + 7).encode(ty);
                    let Some(delta) = (entry.delta)(&value, &base) else {
                        continue;
                    };
                    let mut data = vec![sel as u8];
                    data.extend((base.len() as u16).to_le_bytes());
                    data.extend(&base);
                    data.extend(delta);
                    write(format!("seed-{sel:02}-{seed}"), data);
                }
            }
        }
        other => panic!("no fuzz target {other}"),
    }
    println!("{written} seeds in {dir}");
}

/// A `test.hostile.MapTree` `levels` deep whose every level holds key 1
/// (the rest of the tree) and then key 0 (an empty tree).
fn unsorted_tree(levels: usize) -> Vec<u8> {
    let mut map = 0u32.to_le_bytes().to_vec();
    for _ in 1..levels {
        let mut next = 2u32.to_le_bytes().to_vec();
        next.push(1);
        next.extend((map.len() as u32).to_le_bytes());
        next.extend(&map);
        next.push(0);
        next.extend([4, 0, 0, 0, 0, 0, 0, 0]);
        map = next;
    }
    let mut out = (map.len() as u32).to_le_bytes().to_vec();
    out.extend(map);
    out
}
